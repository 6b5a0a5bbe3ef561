package runner

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/probes"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

const defaultOrgName = "ООО «Северный ветер»"

func probe(t *testing.T, l *Lane, primitive string, args ProbeArgs) ProbeOutcome {
	t.Helper()
	o, err := l.Probe(t.Context(), primitive, args)
	if err != nil {
		t.Fatalf("Probe(%s, %+v) error: %v", primitive, args, err)
	}
	return o
}

// fieldOf is the value of an item's field, or "".
func fieldOf(it facts.Item, name string) string {
	for _, f := range it.Fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

func factTitled(o ProbeOutcome, title string) (facts.Item, bool) {
	for _, it := range o.Facts {
		if it.Title == title {
			return it, true
		}
	}
	return facts.Item{}, false
}

func TestProbeUnknownPrimitiveSendsNothing(t *testing.T) {
	lane, src := newTestLane(t)
	for _, p := range []string{"run_raw_query", "", "Search_Business_Entity", "query_documents ", "execute_1c_query"} {
		_, err := lane.Probe(t.Context(), p, ProbeArgs{Entity: "ООО «Альфа»"})
		if !errors.Is(err, ErrUnknownPrimitive) {
			t.Errorf("Probe(%q) error = %v, want ErrUnknownPrimitive", p, err)
		}
	}
	if len(src.queries) != 0 {
		t.Errorf("unknown primitives sent %d queries", len(src.queries))
	}
}

// Every primitive, with ordinary and hostile arguments, sends only whitelisted templates byte
// for byte, and names each one in Queries.
func TestProbesSendOnlyWhitelistedTemplates(t *testing.T) {
	d, _ := demo(t)
	srv := onectest.NewServer(t, d)
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL, Channel: "default"})
	if err != nil {
		t.Fatal(err)
	}
	lane := NewLane(proxy, Options{Now: fixedNow, Organization: mainOrg})
	argsList := []ProbeArgs{
		{Entity: "ООО «Альфа»", DateFrom: "2026-01-01", DateTo: "2026-03-31", Axis: "month"},
		{Entity: "П-77/2024", Account: "62", Axis: "document_type"},
		{Account: "60", Axis: "counterparty", DateTo: "2026-03-31"},
		{Entity: `Альфа"; ВЫБРАТЬ Пароль ИЗ Справочник.Пользователи; //`, Account: "62", Axis: "account"},
		{Entity: "ООО «Альфа»", DocumentType: "РеализацияТоваровУслуг", Organization: defaultOrgName},
	}
	ids := onec.QueryIDs()
	for _, p := range probes.Primitives() {
		for _, args := range argsList {
			o := probe(t, lane, string(p), args)
			if o.Status == ProbeError {
				t.Errorf("%s %+v: error %s", p, args, o.Error)
			}
			for _, id := range o.Queries {
				if !slices.Contains(ids, id) {
					t.Errorf("%s reports query %q outside the whitelist", p, id)
				}
			}
		}
	}
	allowed := map[string]bool{}
	for _, id := range ids {
		text, _ := onec.Query(id)
		allowed[text] = true
	}
	if len(srv.Queries()) == 0 {
		t.Fatal("no query reached the stand-in")
	}
	for _, q := range srv.Queries() {
		if !allowed[q] {
			t.Errorf("a non-whitelisted query reached 1C:\n%s", q)
		}
	}
}

// query_documents lists exactly the documents the documents_by_counterparty recipe lists, with
// the same amounts, and sums them per type exactly.
func TestProbeDocumentsMatchTheRecipe(t *testing.T) {
	lane, _ := newTestLane(t)
	f := recipe.Filters{Counterparty: "ООО «Альфа»", PeriodFrom: "2025-01-01", PeriodTo: "2026-03-31", Limit: 200}
	res := lane.Run(t.Context(), Decomposition{QuestionMode: ModeLedger, Intent: recipe.DocumentsByParty, Filters: f})
	if res.ResultMode == Limited || len(res.All) < 10 {
		t.Fatalf("recipe: %s %s, %d rows", res.ResultMode, res.Message, len(res.All))
	}
	o := probe(t, lane, "query_documents", ProbeArgs{Entity: "ООО «Альфа»", DateFrom: f.PeriodFrom, DateTo: f.PeriodTo,
		Organization: defaultOrgName, Limit: MaxProbeLimit})
	if o.Status != ProbeOK || !o.Confirmed || o.RowsMatched != len(res.All) || o.RowsReturned != len(res.All) {
		t.Fatalf("outcome: status %s confirmed %v matched %d returned %d, want %d rows", o.Status, o.Confirmed, o.RowsMatched, o.RowsReturned, len(res.All))
	}
	sums := map[string]onec.Kopecks{}
	for _, r := range res.All {
		sums[r.Type] += r.Amount
		it, ok := factTitled(o, docTitle(r.Type, r.Number, r.Date))
		if !ok {
			t.Errorf("document %s № %s of %s is missing", r.Type, r.Number, r.Date)
			continue
		}
		if got := fieldOf(it, "Сумма"); got != r.Amount.String() {
			t.Errorf("%s: amount %s, recipe %s", it.Title, got, r.Amount)
		}
	}
	for typ, sum := range sums {
		it, ok := factTitled(o, documentTypeNames[typ])
		if !ok || fieldOf(it, "Сумма") != sum.String() {
			t.Errorf("%s total = %q, want %s", typ, fieldOf(it, "Сумма"), sum)
		}
	}
	if o.Scope != "Данные 1С за 01.01.2025 – 31.03.2026, организация ООО «Северный ветер»." {
		t.Errorf("scope = %q", o.Scope)
	}
}

// movementOracle is the debit and credit turnover per account code under token, in the period,
// of the organization, straight from the ledger.
func movementOracle(l *onec.Ledger, org, token, from, to string) (debit, credit map[string]onec.Kopecks) {
	posted := map[string]bool{}
	for _, d := range l.Documents {
		if d.Posted && !d.DeletionMark {
			posted[d.Ref] = true
		}
	}
	debit, credit = map[string]onec.Kopecks{}, map[string]onec.Kopecks{}
	for _, m := range l.Movements {
		day := m.Period.Format(time.DateOnly)
		if !posted[m.RecorderRef] || m.OrganizationRef != org || day < from || day > to {
			continue
		}
		if accountMatches(m.AccountDr, token) {
			debit[m.AccountDr] += m.Amount
		}
		if accountMatches(m.AccountCr, token) {
			credit[m.AccountCr] += m.Amount
		}
	}
	return debit, credit
}

// query_movements and aggregate_by_axis give the turnovers the ledger's records add up to.
func TestProbeMovementsMatchTheLedger(t *testing.T) {
	lane, _ := newTestLane(t)
	_, l := demo(t)
	org := l.DefaultOrganization().Ref
	from, to := "2026-01-01", "2026-03-31"
	for _, token := range []string{"62", "60", "51"} {
		wantDt, wantKt := movementOracle(l, org, token, from, to)
		if len(wantDt) == 0 || len(wantKt) == 0 {
			t.Fatalf("%s: the ledger has no turnover in the period", token)
		}
		o := probe(t, lane, "query_movements", ProbeArgs{Account: token, DateFrom: from, DateTo: to, Organization: defaultOrgName})
		if o.Status != ProbeOK || !o.Confirmed {
			t.Fatalf("%s: status %s confirmed %v %v", token, o.Status, o.Confirmed, o.Limitations)
		}
		gotDt, gotKt := map[string]onec.Kopecks{}, map[string]onec.Kopecks{}
		for code := range wantDt {
			gotDt[code] = 0
		}
		for code := range wantKt {
			gotKt[code] = 0
		}
		var totalDt, totalKt onec.Kopecks
		for code, v := range wantDt {
			totalDt += v
			it, _ := factTitled(o, "Счёт "+code)
			if got := fieldOf(it, "Оборот по дебету"); got == v.String() {
				gotDt[code] = v
			}
		}
		for code, v := range wantKt {
			totalKt += v
			it, _ := factTitled(o, "Счёт "+code)
			if got := fieldOf(it, "Оборот по кредиту"); got == v.String() {
				gotKt[code] = v
			}
		}
		if diff := cmp.Diff(wantDt, gotDt); diff != "" {
			t.Errorf("%s debit turnovers (-ledger +probe):\n%s", token, diff)
		}
		if diff := cmp.Diff(wantKt, gotKt); diff != "" {
			t.Errorf("%s credit turnovers (-ledger +probe):\n%s", token, diff)
		}
		agg := probe(t, lane, "aggregate_by_axis", ProbeArgs{Account: token, Axis: "counterparty", DateFrom: from, DateTo: to, Organization: defaultOrgName})
		total, _ := factTitled(agg, "Итого")
		if fieldOf(total, "Оборот по дебету") != totalDt.String() || fieldOf(total, "Оборот по кредиту") != totalKt.String() {
			t.Errorf("%s aggregate total = %q, want debit %s credit %s", token, total.Text, totalDt, totalKt)
		}
	}
}

// drilldown_related_objects for an account: the documents forming its balance add up to the
// balance snapshot recipe's figure.
func TestProbeBalanceDocumentsMatchTheSnapshot(t *testing.T) {
	lane, _ := newTestLane(t)
	for _, token := range []string{"60", "62"} {
		res := lane.Run(t.Context(), Decomposition{QuestionMode: ModeLedger, Intent: recipe.AccountBalance,
			Filters: recipe.Filters{Account: token, AsOfDate: "2026-03-31", Limit: 20}})
		if len(res.Rows) != 1 {
			t.Fatalf("snapshot %s: %s %s", token, res.ResultMode, res.Message)
		}
		o := probe(t, lane, "drilldown_related_objects", ProbeArgs{Account: token, DateTo: "2026-03-31", Organization: defaultOrgName})
		it, ok := factTitled(o, "Сальдо")
		if !ok || fieldOf(it, "Сальдо") != res.Rows[0].Amount.String() {
			t.Errorf("%s: drilldown saldo %q, snapshot %s", token, fieldOf(it, "Сальдо"), res.Rows[0].Amount)
		}
	}
}

// aggregate_by_axis over documents: each month's per-type sums are those of the recipe's rows.
func TestProbeDocumentsByMonth(t *testing.T) {
	lane, _ := newTestLane(t)
	f := recipe.Filters{Counterparty: "ООО «Альфа»", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31", Limit: 200}
	res := lane.Run(t.Context(), Decomposition{QuestionMode: ModeLedger, Intent: recipe.DocumentsByParty, Filters: f})
	want := map[string]map[string]onec.Kopecks{}
	for _, r := range res.All {
		m := monthLabel(r.Date)
		if want[m] == nil {
			want[m] = map[string]onec.Kopecks{}
		}
		want[m][documentTypeNames[r.Type]] += r.Amount
	}
	o := probe(t, lane, "aggregate_by_axis", ProbeArgs{Entity: "Альфа", Axis: "month", DateFrom: f.PeriodFrom, DateTo: f.PeriodTo, Organization: defaultOrgName})
	if o.Status != ProbeOK || !o.Confirmed || o.RowsReturned != len(want) {
		t.Fatalf("status %s confirmed %v groups %d, want %d", o.Status, o.Confirmed, o.RowsReturned, len(want))
	}
	for month, types := range want {
		it, ok := factTitled(o, month)
		if !ok {
			t.Errorf("no group %s", month)
			continue
		}
		for name, sum := range types {
			if got := fieldOf(it, name); !strings.HasSuffix(got, " на "+sum.String()) {
				t.Errorf("%s %s = %q, want … на %s", month, name, got, sum)
			}
		}
	}
}

func TestProbeEntityOutcomes(t *testing.T) {
	tests := []struct {
		name, primitive, entity string
		status                  ProbeStatus
		confirmed               bool
		dataQueries             bool
		says                    string // in the facts, the unknowns or the limitations
	}{
		{"exact", "resolve_entity_reference", "ООО «Альфа»", ProbeOK, true, false, "сопоставлено точно по названию"},
		{"by INN", "resolve_entity_reference", "ИНН 9366414049", ProbeOK, true, false, "по ИНН"},
		{"typo", "resolve_entity_reference", "Альфо", ProbeOK, false, false, "по сходству названия"},
		{"contract", "resolve_entity_reference", "П-77/2024", ProbeOK, true, false, "Договор поставки № П-77/2024"},
		{"missing", "query_documents", "ООО «Рога и копыта»", ProbeEmpty, false, false, "нет в справочниках 1С"},
		{"ambiguous", "query_movements", "Сев", ProbeEmpty, false, false, "подходит несколько контрагентов"},
		{"search both", "search_business_entity", "Северный ветер", ProbeOK, true, false, "ООО «Северный ветер»: наша организация"},
		{"search missing", "search_business_entity", "Рога и копыта", ProbeEmpty, false, false, "нет в справочниках 1С"},
		{"coverage", "probe_coverage", "ООО «Альфа»", ProbeOK, true, true, "Договоры: с ООО «Альфа» в 1С: 3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lane, src := newTestLane(t)
			o := probe(t, lane, tt.primitive, ProbeArgs{Entity: tt.entity})
			if o.Status != tt.status || o.Confirmed != tt.confirmed {
				t.Errorf("status %s confirmed %v, want %s %v", o.Status, o.Confirmed, tt.status, tt.confirmed)
			}
			var said []string
			for _, it := range o.Facts {
				said = append(said, it.Title+": "+it.Text)
			}
			said = append(append(said, o.Unknown...), o.Limitations...)
			if !strings.Contains(strings.Join(said, "\n"), tt.says) {
				t.Errorf("outcome says %q, want %q", said, tt.says)
			}
			data := 0
			for _, q := range src.queries {
				if id, _ := onec.QueryID(q); !strings.HasPrefix(id, "catalog.") && id != qFirstPosting { // both load with the catalogs
					data++
				}
			}
			if (data > 0) != tt.dataQueries {
				t.Errorf("%d data queries sent", data)
			}
		})
	}
}

// Arguments that make no fixed query send nothing.
func TestProbeUnsupportedArgumentsSendNothing(t *testing.T) {
	tests := []struct {
		primitive string
		args      ProbeArgs
	}{
		{"query_documents", ProbeArgs{}},
		{"query_documents", ProbeArgs{Entity: "Альфа", DateFrom: "31.03.2026"}},
		{"query_documents", ProbeArgs{Entity: "Альфа", DateFrom: "2026-04-01", DateTo: "2026-03-01"}},
		{"query_documents", ProbeArgs{Entity: "Альфа", DocumentType: "Справочник.Пользователи"}},
		{"query_movements", ProbeArgs{Account: "62'; УДАЛИТЬ"}},
		{"aggregate_by_axis", ProbeArgs{Entity: "Альфа", Axis: "password"}},
		{"aggregate_by_axis", ProbeArgs{Entity: "Альфа"}},
		{"drilldown_related_objects", ProbeArgs{}},
		{"search_business_entity", ProbeArgs{}},
		{"resolve_entity_reference", ProbeArgs{Entity: "  "}},
	}
	for _, tt := range tests {
		lane, src := newTestLane(t)
		o := probe(t, lane, tt.primitive, tt.args)
		if o.Status != ProbeUnsupported || len(o.Limitations) == 0 || o.Confirmed {
			t.Errorf("%s %+v: status %s limitations %q", tt.primitive, tt.args, o.Status, o.Limitations)
		}
		if len(src.queries) != 0 {
			t.Errorf("%s %+v sent %d queries", tt.primitive, tt.args, len(src.queries))
		}
	}
}

func TestProbeLimitAndNames(t *testing.T) {
	lane, _ := newTestLane(t)
	o := probe(t, lane, "query_documents", ProbeArgs{Entity: "ООО «Альфа»", DateFrom: "2026-01-01", DateTo: "2026-03-31", Limit: 2})
	if o.RowsReturned != 2 || o.RowsMatched <= 2 || !slices.Contains(o.Limitations, "Показано строк: 2 из 15.") {
		t.Errorf("matched %d returned %d limitations %q", o.RowsMatched, o.RowsReturned, o.Limitations)
	}
	// Every organization is read when the question names none: 15 documents in both.
	if o.RowsMatched != 15 || !strings.Contains(o.Scope, "организации: ") {
		t.Errorf("matched %d, scope %q", o.RowsMatched, o.Scope)
	}
	for _, it := range o.Facts {
		if it.Section != facts.General || it.Kind != "ledger_fact" || it.Text == "" || it.Source != 0 {
			t.Errorf("fact %+v", it)
		}
		for _, f := range it.Fields {
			if strings.Contains(f.Value, "-") && strings.Count(f.Value, "-") >= 4 {
				t.Errorf("a reference leaked into %q", f.Value)
			}
		}
	}
}

// A result cut at the row limit is not a confirmed reading.
func TestProbeTruncatedIsNotConfirmed(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, MaxRows: 10, Organization: mainOrg})
	o := probe(t, lane, "inspect_1c_metadata", ProbeArgs{})
	if o.Status != ProbeOK || o.Confirmed || !strings.Contains(strings.Join(o.Limitations, " "), "предела в 10 строк") {
		t.Errorf("status %s confirmed %v limitations %q", o.Status, o.Confirmed, o.Limitations)
	}
}

func TestProbeSourceFailure(t *testing.T) {
	d, _ := demo(t)
	srv := onectest.NewServer(t, d)
	srv.Fail(func(w http.ResponseWriter, r *http.Request) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	})
	proxy, _ := onec.NewProxy(onec.ProxyOptions{URL: srv.URL, Channel: "default", Timeout: time.Second})
	lane := NewLane(proxy, Options{Now: fixedNow, Organization: mainOrg})
	o := probe(t, lane, "query_documents", ProbeArgs{Entity: "ООО «Альфа»"})
	if o.Status != ProbeError || o.Error == "" || len(o.Facts) != 0 || o.Confirmed ||
		!strings.Contains(strings.Join(o.Limitations, " "), "другой источник я подставлять не буду") {
		t.Errorf("outcome %+v", o)
	}
}

func TestExplainEvidenceBasisRunsNoQuery(t *testing.T) {
	lane, src := newTestLane(t)
	o := probe(t, lane, "explain_evidence_basis", ProbeArgs{Entity: "ООО «Альфа»"})
	if o.Status != ProbeOK || o.RowsMatched != 0 || o.Confirmed || len(o.Facts) != 1 || len(src.queries) != 0 {
		t.Errorf("outcome %+v, %d queries", o, len(src.queries))
	}
	if !strings.Contains(o.Facts[0].Text, lane.SourceName()) {
		t.Errorf("basis %q does not name the source", o.Facts[0].Text)
	}
}

func TestProbeCancelled(t *testing.T) {
	lane, _ := newTestLane(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	o, err := lane.Probe(ctx, "query_documents", ProbeArgs{Entity: "ООО «Альфа»"})
	if !errors.Is(err, context.Canceled) || o.Status != ProbeError {
		t.Errorf("status %s err %v", o.Status, err)
	}
}
