package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger/probes"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// countingSource counts the queries sent to 1C.
type countingSource struct {
	runner.Source
	mu sync.Mutex
	n  int
}

func (c *countingSource) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return c.Source.Query(ctx, id, p, limit)
}

func (c *countingSource) calls() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// catalogQueries are the queries the lane sends once to load its catalogs: the five catalogs and
// the day of the register's first posting.
const catalogQueries = 6

var deepNow = func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }

func deepSkill(t *testing.T, access bool) (*Skill, *runner.Lane, *countingSource) {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	src := &countingSource{Source: d}
	ln := runner.NewLane(src, runner.Options{Now: deepNow, Organization: d.MainOrganization()})
	s := New(ln, nil, Options{Now: deepNow, LedgerAccess: func(int64, int64) bool { return access }})
	return s, ln, src
}

func probeCall(t plan.Tool, args plan.DiscoveryArgs) plan.ToolCall {
	b, err := json.Marshal(args)
	if err != nil {
		panic(err)
	}
	return plan.ToolCall{Tool: t, Args: b}
}

func deepPlan(d *plan.DiscoveryProposal, calls ...plan.ToolCall) plan.QueryPlan {
	return plan.QueryPlan{Kinds: []understand.Kind{understand.KindLedgerDeep}, QuestionMode: plan.ModeDeepAnalysis, Discovery: d,
		ToolCalls: calls, RenderStyle: plan.StyleBullets, Confidence: 0.9, Limits: plan.Limits{MaxItems: 10}}
}

// alfaProposal is a well-grounded proposal about ООО «Альфа» in the first quarter of 2026.
func alfaProposal(entity string, primitives ...plan.Tool) *plan.DiscoveryProposal {
	return &plan.DiscoveryProposal{
		SemanticDataNeed: "продажи и оплаты контрагента по месяцам квартала",
		TurnMeaning: plan.TurnMeaning{AskedDomainFamily: "расчёты с покупателями", AskedActionFamily: "оценить динамику",
			AskedAggregationAxis: "month", ExplicitEntityCandidates: []string{entity}, ExplicitOrganizationScope: "ООО «Северный ветер»",
			ExplicitDateScope: "первый квартал 2026", MeaningConfidence: 0.9},
		ProposedPrimitives: primitives,
	}
}

var q1 = plan.DiscoveryArgs{DateFrom: "2026-01-01", DateTo: "2026-03-31"}

func withEntity(args plan.DiscoveryArgs, entity string) plan.DiscoveryArgs {
	args.Entity = entity
	return args
}

func discoverOK(t *testing.T, s *Skill, p plan.QueryPlan) (skill.Reply, *DiscoveryDebug) {
	t.Helper()
	r, dd, err := s.discover(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "как менялись продажи Альфе в первом квартале"}, p)
	if err != nil {
		t.Fatal(err)
	}
	return r, dd
}

var amountRe = regexp.MustCompile(`−?\d{1,3}(?:\x{00a0}\d{3})*,\d{2}\x{00a0}₽`)

// An allowed plan over a real counterparty: confirmed, worded so by code, and every figure in
// the answer is a figure of the demo ledger (the documents recipe's sums per month and type).
func TestDeepConfirmed(t *testing.T) {
	s, ln, src := deepSkill(t, true)
	p := deepPlan(alfaProposal("ООО «Альфа»", plan.ToolResolveEntityReference, plan.ToolAggregateByAxis, plan.ToolExplainEvidenceBasis),
		probeCall(plan.ToolResolveEntityReference, plan.DiscoveryArgs{Entity: "ООО «Альфа»"}),
		probeCall(plan.ToolAggregateByAxis, withEntity(plan.DiscoveryArgs{Axis: "month", DateFrom: q1.DateFrom, DateTo: q1.DateTo}, "ООО «Альфа»")),
		probeCall(plan.ToolExplainEvidenceBasis, plan.DiscoveryArgs{}))
	ans, dd := discoverOK(t, s, p)
	queries := src.calls()
	if dd.Plan.PlanStatus != probes.PlanAllowed || dd.Evidence.EvidenceStatus != probes.EvidenceConfirmed ||
		dd.Evidence.AnswerPermission != probes.AnswerConfirmed {
		t.Fatalf("plan %s evidence %s %s %v", dd.Plan.PlanStatus, dd.Evidence.EvidenceStatus, dd.Evidence.AnswerPermission, dd.Evidence.ReasonCodes)
	}
	if !strings.HasPrefix(ans.Text, "**Подтверждено данными 1С.**\n\n") {
		t.Errorf("answer does not open with the confirmation:\n%s", ans.Text)
	}
	if len(ans.Sources) != 1 || ans.Sources[0].Title != "Данные: "+ln.SourceName() {
		t.Errorf("sources = %+v", ans.Sources)
	}
	// The figures of the recipe: per month and document type, over the same organization.
	res := ln.Run(t.Context(), runner.Decomposition{QuestionMode: runner.ModeLedger, Intent: recipe.DocumentsByParty,
		Filters: recipe.Filters{Counterparty: "ООО «Альфа»", PeriodFrom: q1.DateFrom, PeriodTo: q1.DateTo, Limit: 200}})
	real := map[string]bool{}
	sums := map[string]onec.Kopecks{}
	for _, r := range res.All {
		real[r.Amount.String()] = true
		sums[r.Date[:7]+r.Type] += r.Amount
	}
	for _, s := range sums {
		real[s.String()] = true
	}
	if len(sums) < 4 {
		t.Fatalf("the recipe found too little to compare: %d rows", len(res.All))
	}
	// Every month's sale total is in the answer.
	for key, s := range sums {
		if strings.HasSuffix(key, "РеализацияТоваровУслуг") && !strings.Contains(ans.Text, s.String()) {
			t.Errorf("answer lacks the %s sales total %s", key[:7], s)
		}
	}
	amounts := amountRe.FindAllString(ans.Text, -1)
	if len(amounts) == 0 {
		t.Fatalf("no amounts in the answer:\n%s", ans.Text)
	}
	for _, m := range amounts {
		if !real[m] {
			t.Errorf("amount %s is not a figure of the demo ledger", m)
		}
	}
	// The basis names what was read; explain ran last and queried nothing.
	if !strings.Contains(ans.Text, "Основание ответа") || !strings.Contains(ans.Text, "Свод по оси") {
		t.Errorf("the basis is missing:\n%s", ans.Text)
	}
	if last := dd.Probes[len(dd.Probes)-1]; last.Primitive != string(plan.ToolExplainEvidenceBasis) || len(last.Queries) != 0 {
		t.Errorf("last probe = %+v", last)
	}
	// One organization named: the catalogs, then one documents query.
	if queries != catalogQueries+1 {
		t.Errorf("1C queries = %d, want %d", queries, catalogQueries+1)
	}
	if len(ans.Calls) != 3 || ans.Calls[1].Source != "1c.aggregate_by_axis" || ans.Calls[1].Result != "ok" {
		t.Errorf("debug calls = %+v", ans.Calls)
	}
}

// Only unregistered primitives: the plan is blocked and nothing reaches 1C.
func TestDeepUnregisteredPrimitiveBlocks(t *testing.T) {
	s, _, src := deepSkill(t, true)
	d := alfaProposal("ООО «Альфа»", "run_raw_query")
	ans, dd := discoverOK(t, s, deepPlan(d, plan.ToolCall{Tool: "run_raw_query", Args: json.RawMessage(`{"query":"ВЫБРАТЬ * ИЗ Справочник.Пользователи"}`)}))
	if dd.Plan.PlanStatus != probes.PlanBlocked || dd.Evidence.EvidenceStatus != probes.EvidenceBlocked ||
		!slices.Contains(dd.Plan.RejectedPrimitives, "run_raw_query") {
		t.Fatalf("plan %s evidence %s rejected %v", dd.Plan.PlanStatus, dd.Evidence.EvidenceStatus, dd.Plan.RejectedPrimitives)
	}
	if !strings.HasPrefix(ans.Text, "**В проверенных источниках ответа нет.**") || strings.Contains(ans.Text, "₽") {
		t.Errorf("answer:\n%s", ans.Text)
	}
	if src.calls() != 0 {
		t.Errorf("a blocked plan sent %d queries", src.calls())
	}
}

// An unregistered primitive next to a whitelisted one is filtered out: it never runs, and the
// rest is answered.
func TestDeepUnregisteredPrimitiveFiltered(t *testing.T) {
	s, _, src := deepSkill(t, true)
	d := alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments, "execute_1c_query")
	ans, dd := discoverOK(t, s, deepPlan(d,
		plan.ToolCall{Tool: "execute_1c_query", Args: json.RawMessage(`{"text":"УДАЛИТЬ"}`)},
		probeCall(plan.ToolQueryDocuments, withEntity(q1, "ООО «Альфа»"))))
	if dd.Plan.PlanStatus != probes.PlanAllowed || !slices.Contains(dd.Plan.ReasonCodes, probes.ReasonUnregisteredPrimitive) {
		t.Fatalf("plan %s reasons %v", dd.Plan.PlanStatus, dd.Plan.ReasonCodes)
	}
	if len(dd.Probes) != 2 || dd.Probes[0].Status != probeNotAllowed || dd.Probes[1].Status != "ok" {
		t.Fatalf("probes = %+v", dd.Probes)
	}
	if dd.Evidence.EvidenceStatus != probes.EvidenceConfirmed || !strings.HasPrefix(ans.Text, "**Подтверждено данными 1С.**") {
		t.Errorf("evidence %s, answer:\n%s", dd.Evidence.EvidenceStatus, ans.Text)
	}
	if src.calls() != catalogQueries+1 {
		t.Errorf("1C queries = %d, want %d", src.calls(), catalogQueries+1)
	}
}

// Without the turn's meaning or an axis the plan needs clarification: one question, no query.
func TestDeepNeedsClarification(t *testing.T) {
	tests := []struct {
		name string
		d    *plan.DiscoveryProposal
		want string
	}{
		{"no meaning", &plan.DiscoveryProposal{SemanticDataNeed: "почему выросла задолженность", ProposedPrimitives: []plan.Tool{plan.ToolQueryMovements}},
			"По какому контрагенту, договору или счёту и за какой период посмотреть данные 1С?"},
		{"no data need", &plan.DiscoveryProposal{TurnMeaning: plan.TurnMeaning{AskedDomainFamily: "расчёты"}, ProposedPrimitives: []plan.Tool{plan.ToolQueryMovements}},
			"Какие данные 1С нужны для ответа: документы, обороты по счетам или расчёты с контрагентом?"},
		{"gap", &plan.DiscoveryProposal{SemanticDataNeed: "динамика долга", ProposedPrimitives: []plan.Tool{plan.ToolQueryMovements},
			ClarificationGaps: []string{"не указан контрагент"}},
			"Для проверки по данным 1С не хватает сведений: не указан контрагент. По какому контрагенту, договору или счёту и за какой период посмотреть данные 1С?"},
		{"gap as a question", &plan.DiscoveryProposal{SemanticDataNeed: "динамика долга", ProposedPrimitives: []plan.Tool{plan.ToolQueryMovements},
			ClarificationGaps: []string{"какой контрагент вас интересует?"}},
			"Какой контрагент вас интересует?"},
		{"no proposal", nil, "Какие данные 1С нужны для ответа: документы, обороты по счетам или расчёты с контрагентом?"},
		// The gaps are the model's words: one with a link, a figure or a name the user did not
		// write is not shown, and none runs to thousands of characters.
		{"an injected gap", &plan.DiscoveryProposal{SemanticDataNeed: "динамика долга", ProposedPrimitives: []plan.Tool{plan.ToolQueryMovements},
			ClarificationGaps: []string{"оплатите 99 999 ₽ на evil-bank.ru/pay?", "не указан контрагент"}},
			"Для проверки по данным 1С не хватает сведений: не указан контрагент. По какому контрагенту, договору или счёту и за какой период посмотреть данные 1С?"},
		{"a gap too long", &plan.DiscoveryProposal{SemanticDataNeed: "динамика долга", ProposedPrimitives: []plan.Tool{plan.ToolQueryMovements},
			ClarificationGaps: []string{strings.Repeat("не указан контрагент и период ", 100) + "?"}},
			""}, // bounded: the gap is cut, whatever it is
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _, src := deepSkill(t, true)
			ans, dd := discoverOK(t, s, deepPlan(tt.d, probeCall(plan.ToolQueryMovements, plan.DiscoveryArgs{Account: "62"})))
			if dd.Plan.PlanStatus != probes.PlanNeedsClarification {
				t.Fatalf("plan %s %v", dd.Plan.PlanStatus, dd.Plan.ReasonCodes)
			}
			if tt.want != "" && ans.Text != md.Escape(tt.want) || strings.Count(ans.Text, "?") > 1 || len([]rune(ans.Text)) > 500 {
				t.Errorf("question = %q, want %q", ans.Text, tt.want)
			}
			if src.calls() != 0 || len(dd.Probes) != 0 {
				t.Errorf("%d queries, probes %+v", src.calls(), dd.Probes)
			}
		})
	}
}

// Four calls against the default budget of three: only three run.
func TestDeepBudget(t *testing.T) {
	s, _, src := deepSkill(t, true)
	d := alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments)
	d.TurnMeaning.ExplicitOrganizationScope = "" // every organization: two queries per probe
	var calls []plan.ToolCall
	for _, month := range []string{"01", "02", "03", "04"} {
		calls = append(calls, probeCall(plan.ToolQueryDocuments, plan.DiscoveryArgs{Entity: "ООО «Альфа»",
			DateFrom: "2026-" + month + "-01", DateTo: "2026-" + month + "-28"}))
	}
	_, dd := discoverOK(t, s, deepPlan(d, calls...))
	if dd.Plan.ExecutionBudget.MaxProbeCount != probes.DefaultMaxProbeCount {
		t.Fatalf("budget = %+v", dd.Plan.ExecutionBudget)
	}
	var statuses []string
	for _, p := range dd.Probes {
		statuses = append(statuses, p.Status)
	}
	if want := []string{"ok", "ok", "ok", probeOverBudget}; !slices.Equal(statuses, want) {
		t.Errorf("statuses = %v, want %v", statuses, want)
	}
	if got, want := src.calls(), catalogQueries+3*2; got != want {
		t.Errorf("1C queries = %d, want %d (only the budget's probes)", got, want)
	}
	if dd.Evidence.RecommendedNextProbe == nil || *dd.Evidence.RecommendedNextProbe != string(plan.ToolQueryDocuments) ||
		!slices.ContainsFunc(dd.Evidence.QueryLimitations, func(s string) bool { return strings.HasPrefix(s, "Лимит в 3 проверки исчерпан") }) {
		t.Errorf("evidence next %v limitations %q", dd.Evidence.RecommendedNextProbe, dd.Evidence.QueryLimitations)
	}
	for _, p := range dd.Probes[:3] {
		if p.Args.Limit != probes.DefaultMaxRowsPerProbe {
			t.Errorf("probe limit = %d, want the budget's %d", p.Args.Limit, probes.DefaultMaxRowsPerProbe)
		}
	}
}

func TestDeepAccessAndConnection(t *testing.T) {
	p := deepPlan(alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments), probeCall(plan.ToolQueryDocuments, withEntity(q1, "ООО «Альфа»")))
	q := skill.Query{UserID: 8, ChatID: 8, Text: "q", Decision: understand.Decision{Kind: understand.KindLedgerDeep}, Plan: &p}

	s, _, src := deepSkill(t, false)
	denied, err := s.Answer(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if denied.Text != DeniedText || !slices.Contains(denied.Degraded, "ledger_access_denied") || src.calls() != 0 {
		t.Errorf("denied: %q, %d queries", denied.Text, src.calls())
	}

	none := New(nil, nil, Options{Now: deepNow, LedgerAccess: func(int64, int64) bool { return true }})
	ans, err := none.Answer(t.Context(), q)
	if err != nil || ans.Text != "Данные 1С в этой установке не подключены." {
		t.Errorf("no runner: %q %v", ans.Text, err)
	}
}

// Answer runs a ledger_deep decision's plan and traces the discovery and its records.
func TestDeepAnswerTrace(t *testing.T) {
	s, _, _ := deepSkill(t, true)
	p := deepPlan(alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments), probeCall(plan.ToolQueryDocuments, withEntity(q1, "ООО «Альфа»")))
	r, err := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "как менялись продажи Альфе в первом квартале",
		Decision: understand.Decision{Kind: understand.KindLedgerDeep}, Plan: &p})
	if err != nil {
		t.Fatal(err)
	}
	dd, _ := r.Trace["discovery"].(*DiscoveryDebug)
	records, _ := r.Trace["records"].([]plan.Record)
	if dd == nil || len(records) != 1 || records[0].Tool != plan.ToolQueryDocuments || records[0].Status != "ok" {
		t.Fatalf("trace %+v", r.Trace)
	}
	if r.Recipe != plan.ModeDeepAnalysis || r.Wording != "deterministic" || !strings.HasPrefix(r.Text, "**Подтверждено данными 1С.**") {
		t.Errorf("recipe %q wording %q:\n%s", r.Recipe, r.Wording, r.Text)
	}
}

// A counterparty 1C does not have: insufficient, worded so, with what was checked.
func TestDeepEntityMissing(t *testing.T) {
	s, _, src := deepSkill(t, true)
	entity := "ООО «Рога и копыта»"
	ans, dd := discoverOK(t, s, deepPlan(alfaProposal(entity, plan.ToolQueryDocuments, plan.ToolProbeCoverage),
		probeCall(plan.ToolQueryDocuments, withEntity(q1, entity)),
		probeCall(plan.ToolProbeCoverage, plan.DiscoveryArgs{Entity: entity})))
	if dd.Evidence.EvidenceStatus != probes.EvidenceInsufficient || dd.Evidence.AnswerPermission != probes.AnswerCheckedSourcesOnly {
		t.Fatalf("evidence %s %s", dd.Evidence.EvidenceStatus, dd.Evidence.AnswerPermission)
	}
	for _, want := range []string{"**В проверенных источниках ответа нет.**", "Что проверено:", "Документы («ООО «Рога и копыта»»): ничего не найдено",
		"Не найдено: «ООО «Рога и копыта»» нет в справочниках 1С"} {
		if !strings.Contains(ans.Text, md.Escape(want)) && !strings.Contains(ans.Text, want) {
			t.Errorf("answer lacks %q:\n%s", want, ans.Text)
		}
	}
	if strings.Contains(ans.Text, "₽") || strings.Contains(ans.Text, "Подтверждено") {
		t.Errorf("answer claims something:\n%s", ans.Text)
	}
	if src.calls() != catalogQueries {
		t.Errorf("1C queries = %d, want only the catalogs", src.calls())
	}
}

// A name matched only by similarity: the figures are real but the answer is bounded.
func TestDeepInferredOnly(t *testing.T) {
	s, _, _ := deepSkill(t, true)
	ans, dd := discoverOK(t, s, deepPlan(alfaProposal("Альфо", plan.ToolQueryDocuments),
		probeCall(plan.ToolQueryDocuments, withEntity(q1, "Альфо"))))
	if dd.Evidence.EvidenceStatus != probes.EvidenceInferredOnly {
		t.Fatalf("evidence %s %v", dd.Evidence.EvidenceStatus, dd.Evidence.ReasonCodes)
	}
	if !strings.HasPrefix(ans.Text, "**По косвенным данным:**") || !strings.Contains(ans.Text, "по сходству названия") {
		t.Errorf("answer:\n%s", ans.Text)
	}
}

// A plan without calls runs each allowed primitive with the arguments the turn's meaning gives.
func TestDeepCallsFromTheProposal(t *testing.T) {
	s, _, _ := deepSkill(t, true)
	_, dd := discoverOK(t, s, deepPlan(alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments)))
	if len(dd.Probes) != 1 {
		t.Fatalf("probes = %+v", dd.Probes)
	}
	p := dd.Probes[0]
	want := runner.ProbeArgs{Entity: "ООО «Альфа»", DateFrom: "2026-01-01", DateTo: "2026-03-31", Axis: "month",
		Organization: "ООО «Северный ветер»", Limit: probes.DefaultMaxRowsPerProbe}
	if p.Index != -1 || p.Args != want || p.Status != "ok" {
		t.Errorf("probe = %+v, want args %+v", p, want)
	}
}

func TestDeepCancelled(t *testing.T) {
	s, _, _ := deepSkill(t, true)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	p := deepPlan(alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments), probeCall(plan.ToolQueryDocuments, withEntity(q1, "ООО «Альфа»")))
	q := skill.Query{UserID: 1, ChatID: 1, Text: "q", Decision: understand.Decision{Kind: understand.KindLedgerDeep}, Plan: &p}
	if _, err := s.Answer(ctx, q); err == nil {
		t.Error("a cancelled answer returned no error")
	}
}

// failingSource answers the catalogs and fails every other query, as 1C going down mid-answer.
type failingSource struct{ runner.Source }

func (f failingSource) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	if !strings.HasPrefix(id, "catalog.") {
		return nil, errors.New("502 bad gateway")
	}
	return f.Source.Query(ctx, id, p, limit)
}

// 1C failing is not evidence of anything: the answer says nothing was confirmed and why.
func TestDeepSourceDown(t *testing.T) {
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	ln := runner.NewLane(failingSource{d}, runner.Options{Now: deepNow, Organization: d.MainOrganization()})
	s := New(ln, nil, Options{Now: deepNow, LedgerAccess: func(int64, int64) bool { return true }})
	ans, dd := discoverOK(t, s, deepPlan(alfaProposal("ООО «Альфа»", plan.ToolQueryDocuments),
		probeCall(plan.ToolQueryDocuments, withEntity(q1, "ООО «Альфа»"))))
	if dd.Evidence.EvidenceStatus != probes.EvidenceInsufficient || !strings.Contains(ans.Text, "1С не ответила") ||
		!slices.Contains(ans.Degraded, "tools_failed") || strings.Contains(ans.Text, "₽") {
		t.Errorf("evidence %s degraded %v, answer:\n%s", dd.Evidence.EvidenceStatus, ans.Degraded, ans.Text)
	}
}
