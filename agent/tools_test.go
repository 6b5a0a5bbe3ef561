package agent

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// runTool calls one tool of reg; args is raw JSON when a string, else marshalled.
func runTool(t *testing.T, reg executor.Registry, tool plan.Tool, args any) (facts.Payload, error) {
	t.Helper()
	fn, ok := reg[tool]
	if !ok {
		t.Fatalf("the registry has no %s", tool)
	}
	raw, ok := args.(string)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		raw = string(b)
	}
	return fn(t.Context(), plan.ToolCall{Tool: tool, Args: json.RawMessage(raw)})
}

// mustRun is runTool that fails the test on an error.
func mustRun(t *testing.T, reg executor.Registry, tool plan.Tool, args any) facts.Payload {
	t.Helper()
	p, err := runTool(t, reg, tool, args)
	if err != nil {
		t.Fatalf("%s(%v) error: %v", tool, args, err)
	}
	return p
}

// nbspToSpace reads a fact as the tests write it: no-break spaces as spaces.
func nbspToSpace(s string) string { return strings.ReplaceAll(s, "\u00a0", " ") }

// itemTexts are the items' texts, plain.
func itemTexts(p facts.Payload) []string {
	var out []string
	for _, it := range p.Items {
		out = append(out, nbspToSpace(it.Text))
	}
	return out
}

// itemField is the plain value of an item's field, "" when it has none.
func itemField(it facts.Item, name string) string {
	for _, f := range it.Fields {
		if f.Name == name {
			return nbspToSpace(f.Value)
		}
	}
	return ""
}

// toolRates is the Bank of Russia of the tool tests: the publications of daily(), a short
// series for any currency but XDR, the key-rate history of TestKeyRate and one news item.
func toolRates(asked *[]string) fakeRates {
	keyRates := []cbr.KeyRatePoint{
		{Date: msk(2025, 6, 6), Rate: dec("21.00")}, {Date: msk(2025, 6, 9), Rate: dec("20.00")},
		{Date: msk(2025, 7, 28), Rate: dec("18.00")}, {Date: msk(2025, 9, 15), Rate: dec("17.00")},
		{Date: msk(2025, 10, 27), Rate: dec("16.50")}, {Date: msk(2026, 3, 13), Rate: dec("16.50")},
	}
	return fakeRates{
		DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) { return daily(d) },
		DynamicFunc: func(_ context.Context, code string, from, to time.Time) (cbr.Dynamic, error) {
			if asked != nil {
				*asked = append(*asked, code+" "+from.Format("02.01.2006")+" "+to.Format("02.01.2006"))
			}
			if code == "XDR" {
				return cbr.Dynamic{}, cbr.ErrUnknownCurrency
			}
			var pts []cbr.Point
			for i, v := range []string{"11.2000", "11.0500", "11.4100", "11.3000"} {
				pts = append(pts, cbr.Point{Date: from.AddDate(0, 0, i+1), Nominal: 1, Value: dec(v), UnitRate: dec(v)})
			}
			return cbr.Dynamic{CharCode: code, From: from, To: to, Points: pts}, nil
		},
		KeyRateFunc: func(_ context.Context, from, to time.Time) (cbr.KeyRates, error) {
			var in []cbr.KeyRatePoint
			for _, p := range keyRates {
				if !p.Date.Before(from) && !p.Date.After(to) {
					in = append(in, p)
				}
			}
			return cbr.KeyRates{From: from, To: to, Points: in}, nil
		},
		NewsFunc: func(_ context.Context, from, to time.Time) (cbr.News, error) {
			return cbr.News{Items: []cbr.NewsItem{{ID: 1, Date: msk(2026, 3, 13),
				Title: "Банк России сохранил ключевую ставку на уровне 16,50% годовых", URL: "https://www.cbr.ru/press/pr/?file=13032026.htm"}}}, nil
		},
	}
}

// cbrTools is the registry of an agent with the Bank of Russia only, on Sunday 15.03.2026.
func cbrTools(t *testing.T, r rates.Bank) executor.Registry {
	t.Helper()
	return ratesAgent(t, r, nil).tools(Request{UserID: 1, ChatID: 1}, docScope{owner: "u:1"}, "")
}

func TestToolsRegistryHasOnlyConnectedTools(t *testing.T) {
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	full := Deps{History: history.NewMemory(10, history.Limits{}), Rates: toolRates(nil), News: fakeSearch{configured: true},
		Ledger: runner.NewLane(d, runner.Options{Organization: d.MainOrganization()}), Library: lib, KB: lib}
	tests := []struct {
		name string
		deps Deps
		want []plan.Tool
	}{
		{"nothing", Deps{History: full.History}, nil},
		{"everything", full, []plan.Tool{plan.ToolSearchUserDocuments, plan.ToolLoadDocumentsFull, plan.ToolSearchGeneralKB,
			plan.ToolFetchCBRData, plan.ToolFetchFinanceNews, plan.ToolLedgerQuery}},
		{"news search without a key", Deps{History: full.History, Rates: full.Rates, News: fakeSearch{}}, []plan.Tool{plan.ToolFetchCBRData}},
		{"knowledge base only", Deps{History: full.History, KB: lib}, []plan.Tool{plan.ToolSearchGeneralKB}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg := New(tt.deps, Options{}).tools(Request{UserID: 1, ChatID: 1}, docScope{owner: "u:1"}, "вопрос")
			var got []plan.Tool
			for _, tool := range plan.Tools() {
				if reg[tool] != nil {
					got = append(got, tool)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestToolsRefuseBadArguments(t *testing.T) {
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	a := New(Deps{History: history.NewMemory(10, history.Limits{}), Rates: toolRates(nil), News: fakeSearch{configured: true},
		Ledger: runner.NewLane(d, runner.Options{Organization: d.MainOrganization()}), Library: lib, KB: lib},
		Options{LedgerAccess: func(int64, int64) bool { return true }})
	reg := a.tools(Request{UserID: 1, ChatID: 1}, docScope{owner: "u:1"}, "вопрос")
	tests := []struct {
		name string
		tool plan.Tool
		args string
	}{
		{"query of the wrong type", plan.ToolSearchUserDocuments, `{"query": 5}`},
		{"unknown field", plan.ToolSearchUserDocuments, `{"query": "пени", "owner": "u:2"}`},
		{"no query", plan.ToolSearchUserDocuments, `{}`},
		{"blank knowledge-base query", plan.ToolSearchGeneralKB, `{"query": "  "}`},
		{"not an object", plan.ToolLoadDocumentsFull, `["a"]`},
		{"Russian date", plan.ToolFetchCBRData, `{"mode": "currency", "date": "15.03.2026"}`},
		{"impossible date", plan.ToolFetchCBRData, `{"mode": "currency", "date": "2026-02-30"}`},
		{"unknown mode", plan.ToolFetchCBRData, `{"mode": "rates"}`},
		{"dynamic without from", plan.ToolFetchCBRData, `{"mode": "dynamic", "to": "2026-03-01", "codes": ["USD"]}`},
		{"dynamic backwards", plan.ToolFetchCBRData, `{"mode": "dynamic", "from": "2026-03-10", "to": "2026-03-01", "codes": ["USD"]}`},
		{"key rate month 13", plan.ToolFetchCBRData, `{"mode": "key_rate", "from": "2026-13-01"}`},
		{"news until yesterday", plan.ToolFetchCBRData, `{"mode": "news", "to": "yesterday"}`},
		{"empty news query", plan.ToolFetchFinanceNews, `{"query": ""}`},
		{"no recipe", plan.ToolLedgerQuery, `{"filters": {"as_of_date": "2026-03-31"}}`},
		{"unknown recipe", plan.ToolLedgerQuery, `{"recipe": "drop_everything"}`},
		{"filters of the wrong type", plan.ToolLedgerQuery, `{"recipe": "list_receivables_counterparties", "filters": "all"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := runTool(t, reg, tt.tool, tt.args)
			if !errors.Is(err, skill.ErrArgs) {
				t.Errorf("%s(%s) error = %v, want skill.ErrArgs", tt.tool, tt.args, err)
			}
			if len(p.Items) != 0 || len(p.Sources) != 0 {
				t.Errorf("%s(%s) returned facts with its error: %+v", tt.tool, tt.args, p)
			}
		})
	}
}

func TestToolCBRCurrency(t *testing.T) {
	r := toolRates(nil)
	r.DynamicFunc = dailyHistory
	reg := cbrTools(t, r)
	tests := []struct {
		name        string
		args        understand.RateArgs
		want        []string
		limitations []string
	}{
		{"today, with unknown and unpublished currencies", understand.RateArgs{Mode: understand.RateCurrency, Codes: []string{"usd", "JPY", "XYZ", "KZT"}},
			[]string{
				"Официальный курс USD (доллар США) на 14.03.2026: 81,1134 ₽, изменение +0,5600 ₽ (+0,70%) к 13.03.2026.",
				"Официальный курс JPY (японских иен) на 14.03.2026: 54,3210 ₽ за 100 (0,543210 ₽ за 1), изменение 0,0000 ₽ (0,00%) к 13.03.2026.",
				"«XYZ» — не валюта, курс которой устанавливает Банк России.",
				"Курса KZT, действовавшего на 15.03.2026, не нашлось: Банк России не устанавливал его с 15.03.2016 (глубже 10 лет назад поиск не идёт).",
			},
			[]string{"На 15.03.2026 (воскресенье) новых курсов нет — действуют курсы, установленные на 14.03.2026 (суббота)."}},
		{"a date, the major currencies", understand.RateArgs{Mode: understand.RateCurrency, Date: "2026-03-13"},
			[]string{
				"Официальный курс USD (доллар США) на 13.03.2026: 80,5534 ₽, изменение 0,0000 ₽ (0,00%) к 12.03.2026.",
				"Официальный курс EUR (евро) на 13.03.2026: 88,1000 ₽, изменение 0,0000 ₽ (0,00%) к 12.03.2026.",
				"Официальный курс CNY (китайский юань) на 13.03.2026: 11,2000 ₽, изменение 0,0000 ₽ (0,00%) к 12.03.2026.",
			}, nil},
		{"tomorrow, not set yet", understand.RateArgs{Mode: understand.RateCurrency, Date: "2026-03-16", Codes: []string{"USD"}},
			[]string{"Официальный курс USD (доллар США) на 14.03.2026: 81,1134 ₽, изменение +0,5600 ₽ (+0,70%) к 13.03.2026 (курс от 14.03.2026: на 16.03.2026 ещё не установлен)."},
			[]string{"Курс на 16.03.2026 Банк России ещё не установил (он устанавливает курс накануне, после 15:30 МСК); последний установленный — на 14.03.2026 (суббота)."}},
		{"next week", understand.RateArgs{Mode: understand.RateCurrency, Date: "2026-03-20", Codes: []string{"USD"}},
			[]string{"Официальный курс USD (доллар США) на 14.03.2026: 81,1134 ₽, изменение +0,5600 ₽ (+0,70%) к 13.03.2026 (курс от 14.03.2026: на 20.03.2026 ещё не установлен)."},
			[]string{"Курс на 20.03.2026 Банк России ещё не установил (он устанавливает курс накануне, после 15:30 МСК); последний установленный — на 14.03.2026 (суббота)."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustRun(t, reg, plan.ToolFetchCBRData, tt.args)
			if diff := cmp.Diff(tt.want, itemTexts(p)); diff != "" {
				t.Errorf("item texts (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.limitations, p.Limitations); diff != "" {
				t.Errorf("limitations (-want +got):\n%s", diff)
			}
			if want := []facts.Source{rates.DailySource}; !cmp.Equal(want, p.Sources) {
				t.Errorf("sources = %+v, want %+v", p.Sources, want)
			}
			for _, it := range p.Items {
				if it.Section != facts.General || it.Source != 1 {
					t.Errorf("item %q: section %q source %d, want General and 1", it.Title, it.Section, it.Source)
				}
			}
		})
	}
	p := mustRun(t, reg, plan.ToolFetchCBRData, understand.RateArgs{Mode: understand.RateCurrency, Codes: []string{"JPY"}})
	got := map[string]string{}
	for _, f := range p.Items[0].Fields {
		got[f.Name] = nbspToSpace(f.Value)
	}
	want := map[string]string{"Валюта": "Японских иен", "Курс": "54,3210 ₽", "Номинал": "100", "За 1 единицу": "0,543210 ₽",
		"Дата": "14.03.2026", "Изменение": "0,0000 ₽ (0,00%) к 13.03.2026"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("JPY fields (-want +got):\n%s", diff)
	}
}

func TestToolCBRStaleAndDown(t *testing.T) {
	stale := fakeRates{DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) {
		v, _ := daily(msk(2026, 3, 13))
		v.Meta = cbr.Meta{Stale: true, FetchedAt: time.Date(2026, 3, 13, 16, 5, 0, 0, ru.Moscow), Cause: cbr.ErrUnavailable}
		return v, nil
	}}
	p := mustRun(t, cbrTools(t, stale), plan.ToolFetchCBRData, `{"mode": "currency", "codes": ["USD"]}`)
	if want := "Банк России сейчас недоступен: показаны последние полученные данные (получены 13.03.2026 16:05 МСК)."; len(p.Limitations) == 0 || p.Limitations[0] != want {
		t.Errorf("stale limitations = %q, want first %q", p.Limitations, want)
	}

	down := fakeRates{DailyFunc: func(context.Context, time.Time) (cbr.Daily, error) {
		return cbr.Daily{}, errors.Join(cbr.ErrUnavailable, errors.New("dial tcp: refused"))
	}}
	p, err := runTool(t, cbrTools(t, down), plan.ToolFetchCBRData, `{"mode": "currency"}`)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, cbr.ErrUnavailable) || len(p.Items) != 0 {
		t.Errorf("Bank of Russia down: %+v, %v; want no facts and ErrUnavailable", p, err)
	}
}

func TestToolCBRDynamic(t *testing.T) {
	var asked []string
	reg := cbrTools(t, toolRates(&asked))

	p := mustRun(t, reg, plan.ToolFetchCBRData, `{"mode": "dynamic", "from": "2026-02-01", "to": "2026-02-28", "codes": ["CNY", "XDR", "XYZ"]}`)
	if len(p.Items) != 3 {
		t.Fatalf("items = %+v, want CNY, XDR and XYZ", p.Items)
	}
	got := map[string]string{"Текст": nbspToSpace(p.Items[0].Text)}
	for _, f := range p.Items[0].Fields {
		got[f.Name] = nbspToSpace(f.Value)
	}
	want := map[string]string{
		"Текст":  "Официальный курс CNY за 01.02.2026 – 28.02.2026, ₽ за 1 единицу: с 11,2000 ₽ до 11,3000 ₽.",
		"Начало": "11,2000 ₽ (02.02.2026)", "Конец": "11,3000 ₽ (05.02.2026)",
		"Минимум": "11,0500 ₽ (03.02.2026)", "Максимум": "11,4100 ₽ (04.02.2026)",
		"Изменение": "+0,1000 ₽ (+0,89%)", "Публикаций": "4",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CNY (-want +got):\n%s", diff)
	}
	if got := itemTexts(p)[1:]; !cmp.Equal(got, []string{"Банк России не устанавливает курс XDR.", "«XYZ» — не валюта, курс которой устанавливает Банк России."}) {
		t.Errorf("XDR and XYZ = %q", got)
	}

	tests := []struct {
		args, asked, limitation string
	}{
		{`{"mode": "dynamic", "from": "2026-03-01", "to": "2026-03-31", "codes": ["CNY"]}`, "CNY 01.03.2026 15.03.2026",
			"Период ограничен сегодняшним днём (15.03.2026)."},
		{`{"mode": "dynamic", "from": "2020-01-01", "to": "2026-03-01", "codes": ["USD"]}`, "USD 29.02.2024 01.03.2026",
			"Период слишком длинный: показываю последние 732 дня, с 29.02.2024."},
	}
	for _, tt := range tests {
		asked = nil
		p := mustRun(t, reg, plan.ToolFetchCBRData, tt.args)
		if !cmp.Equal(asked, []string{tt.asked}) || !slices.Contains(p.Limitations, tt.limitation) {
			t.Errorf("%s: asked %q, limitations %q; want %q and %q", tt.args, asked, p.Limitations, tt.asked, tt.limitation)
		}
	}
}

func TestToolCBRKeyRate(t *testing.T) {
	reg := cbrTools(t, toolRates(nil))
	p := mustRun(t, reg, plan.ToolFetchCBRData, `{"mode": "key_rate"}`)
	if len(p.Items) != 1 {
		t.Fatalf("items = %+v", p.Items)
	}
	it := p.Items[0]
	if it.Kind != "key_rate" || nbspToSpace(it.Text) != "Ключевая ставка Банка России на 15.03.2026: 16,50% годовых, действует с 27.10.2025." ||
		itemField(it, "Ставка") != "16,50%" || itemField(it, "Действует с") != "27.10.2025" || itemField(it, "Предыдущее значение") != "17,00% (с 15.09.2025)" {
		t.Errorf("key rate today = %+v", it)
	}
	if want := []facts.Source{rates.KeyRateSource}; !cmp.Equal(want, p.Sources) {
		t.Errorf("sources = %+v", p.Sources)
	}

	p = mustRun(t, reg, plan.ToolFetchCBRData, `{"mode": "key_rate", "date": "2025-08-01"}`)
	if got := itemTexts(p); !cmp.Equal(got, []string{"Ключевая ставка Банка России на 01.08.2025: 18,00% годовых, действует с 28.07.2025."}) {
		t.Errorf("key rate on 01.08.2025 = %q", got)
	}

	p = mustRun(t, reg, plan.ToolFetchCBRData, `{"mode": "key_rate", "from": "2025-07-01", "to": "2025-12-31"}`)
	want := []string{
		"Ключевая ставка Банка России на 01.07.2025: 20,00% годовых, действует с 09.06.2025.",
		"С 28.07.2025 ключевая ставка — 18,00% годовых.",
		"С 15.09.2025 ключевая ставка — 17,00% годовых.",
		"С 27.10.2025 ключевая ставка — 16,50% годовых.",
	}
	if diff := cmp.Diff(want, itemTexts(p)); diff != "" || p.Total != 4 {
		t.Errorf("key rate over 2nd half of 2025 (total %d) (-want +got):\n%s", p.Total, diff)
	}

	p = mustRun(t, reg, plan.ToolFetchCBRData, `{"mode": "key_rate", "date": "2026-04-01"}`)
	if got := itemTexts(p); len(got) != 1 || !strings.HasPrefix(got[0], "На 01.04.2026 ключевой ставки ещё нет") {
		t.Errorf("future key rate = %q", got)
	}
}

func TestToolCBRNews(t *testing.T) {
	p := mustRun(t, cbrTools(t, toolRates(nil)), plan.ToolFetchCBRData, `{"mode": "news"}`)
	want := facts.Payload{Found: true, Coverage: 1, Total: 1,
		Items: []facts.Item{{Section: facts.General, Kind: "news", Title: "Банк России сохранил ключевую ставку на уровне 16,50% годовых", Source: 1,
			Text:   "13.03.2026 — Банк России сохранил ключевую ставку на уровне 16,50% годовых",
			Fields: []facts.Field{{Name: "Дата", Value: "13.03.2026"}}}},
		Sources: []facts.Source{{Title: "Банк России сохранил ключевую ставку на уровне 16,50% годовых — cbr.ru", URL: "https://www.cbr.ru/press/pr/?file=13032026.htm"}},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("news (-want +got):\n%s", diff)
	}
}

func TestToolFinanceNews(t *testing.T) {
	var got tavily.Query
	search := fakeSearch{configured: true, SearchFunc: func(_ context.Context, q tavily.Query) (tavily.Response, error) {
		got = q
		return tavily.Response{Results: []tavily.Result{
			{Title: "Ставка НДС 2026: что изменилось", URL: "https://www.klerk.ru/buh/news/1/", Content: "С 1 января ставка НДС выросла до 22%.", PublishedDate: "2026-03-10"},
			{Title: "Минфин о НДС", URL: "https://minfin.gov.ru/ru/press-center/?id_4=1"},
		}}, nil
	}}
	a := ratesAgent(t, nil, search)
	reg := a.tools(Request{UserID: 7, ChatID: 7}, docScope{owner: "u:7"}, "новости про НДС за март 2026")
	p := mustRun(t, reg, plan.ToolFetchFinanceNews, `{"query": "новости про НДС"}`)
	if want := (tavily.Query{Text: "НДС", Topic: "news", MaxResults: 5, StartDate: "2026-03-01", EndDate: "2026-03-15", UserID: 7}); got != want {
		t.Errorf("query = %+v, want %+v", got, want)
	}
	want := facts.Payload{Found: true, Coverage: 1,
		Items: []facts.Item{
			{Section: facts.External, Kind: "news", Title: "Ставка НДС 2026: что изменилось", Text: "С 1 января ставка НДС выросла до 22%.",
				Fields: []facts.Field{{Name: "Дата", Value: "10.03.2026"}}, Source: 1},
			{Section: facts.External, Kind: "news", Title: "Минфин о НДС", Source: 2},
		},
		Sources: []facts.Source{
			{Title: "Ставка НДС 2026: что изменилось — klerk.ru", URL: "https://www.klerk.ru/buh/news/1/"},
			{Title: "Минфин о НДС — minfin.gov.ru", URL: "https://minfin.gov.ru/ru/press-center/?id_4=1"},
		},
	}
	if diff := cmp.Diff(want, p); diff != "" {
		t.Errorf("news (-want +got):\n%s", diff)
	}

	failing := fakeSearch{configured: true, SearchFunc: func(context.Context, tavily.Query) (tavily.Response, error) {
		return tavily.Response{}, tavily.ErrQuota
	}}
	reg = ratesAgent(t, nil, failing).tools(Request{UserID: 7, ChatID: 7}, docScope{owner: "u:7"}, "")
	if p, err := runTool(t, reg, plan.ToolFetchFinanceNews, `{"query": "НДС"}`); !errors.Is(err, tavily.ErrQuota) || !errors.Is(err, ErrUnavailable) || len(p.Items) != 0 {
		t.Errorf("quota exhausted: %+v, %v", p, err)
	}
}

func TestToolSearchUserDocuments(t *testing.T) {
	a := docAgent(t, docstore.NewMemory(), nil)
	me := Request{UserID: 21, ChatID: 21}
	id := upload(t, a, me, "dogovor.pdf", contract()).Receipt
	s, err := a.scope(t.Context(), me)
	if err != nil {
		t.Fatal(err)
	}
	reg := a.tools(me, s, "какие пени за просрочку поставки?")
	wantItem := facts.Item{Section: facts.UserDocuments, Kind: "passage", Title: "Договор поставки № П-15/2025, стр. 2", Source: 1,
		Text: "За просрочку поставки Поставщик уплачивает Покупателю пени в размере 0,1% от стоимости недопоставленного товара " +
			"за каждый день просрочки, но не более 10% стоимости партии.",
		Fields: []facts.Field{{Name: "Раздел", Value: "5. Ответственность сторон"}}}
	for _, ids := range [][]string{nil, {id}, {"ДОГОВОР ПОСТАВКИ № П-15/2025"}, {"«Договор поставки № П-15/2025»"}, {"dogovor.pdf"}, {"нет такого документа"}} {
		p := mustRun(t, reg, plan.ToolSearchUserDocuments, plan.SearchUserDocumentsArgs{Query: "пени за просрочку поставки", DocumentIDs: ids})
		if len(p.Items) == 0 || !p.Found || p.Coverage != 1 {
			t.Fatalf("document_ids %q: %+v", ids, p)
		}
		if diff := cmp.Diff(wantItem, p.Items[0]); diff != "" {
			t.Errorf("document_ids %q: best passage (-want +got):\n%s", ids, diff)
		}
		if p.Sources[0].Title != "Договор поставки № П-15/2025, стр. 2" {
			t.Errorf("document_ids %q: sources %+v", ids, p.Sources)
		}
		// Within named documents the floor is lower (as within a selection): more passages may come.
		if ids == nil && len(p.Items) != 1 {
			t.Errorf("the whole library: %d passages, want only the relevant one", len(p.Items))
		}
	}
	if p := mustRun(t, reg, plan.ToolSearchUserDocuments, `{"query": "рецепт борща с фасолью"}`); len(p.Items) != 0 || p.Found {
		t.Errorf("an off-topic search found %+v", p)
	}
}

// TestToolDocumentIsolation: user B's tools never return anything of user A's documents, not
// with A's document ids, not with A's titles, not through a group.
func TestToolDocumentIsolation(t *testing.T) {
	a := docAgent(t, docstore.NewMemory(), nil)
	alice := Request{UserID: 101, ChatID: 101}
	bob := Request{UserID: 202, ChatID: 202}
	group := Request{UserID: 202, ChatID: -1001, Group: true}
	memo := upload(t, a, alice, "memo.docx", secret()).Receipt
	bobs := upload(t, a, bob, "dogovor.pdf", contract()).Receipt
	press(t, a, bob, "d:s:"+bobs) // bob has a selection of his own

	s, _ := a.scope(t.Context(), alice)
	if p := mustRun(t, a.tools(alice, s, "кодовое слово"), plan.ToolSearchUserDocuments, plan.SearchUserDocumentsArgs{
		Query: "кодовое слово премия", DocumentIDs: []string{memo}}); len(p.Items) == 0 || !strings.Contains(p.Items[0].Text, "Альбатрос-7731") {
		t.Fatalf("the owner cannot find her own memo: %+v", p)
	}

	aliceRefs := []string{memo, "Служебная записка о премии", "memo.docx"}
	for _, req := range []Request{bob, group} {
		s, err := a.scope(t.Context(), req)
		if err != nil {
			t.Fatal(err)
		}
		reg := a.tools(req, s, "какое кодовое слово и какая премия в служебной записке?")
		calls := []struct {
			tool plan.Tool
			args any
		}{
			{plan.ToolSearchUserDocuments, plan.SearchUserDocumentsArgs{Query: "кодовое слово Альбатрос премия", DocumentIDs: aliceRefs}},
			{plan.ToolSearchUserDocuments, plan.SearchUserDocumentsArgs{Query: "служебная записка о премии главному бухгалтеру"}},
			{plan.ToolLoadDocumentsFull, plan.LoadDocumentsFullArgs{DocumentIDs: aliceRefs}},
		}
		for _, c := range calls {
			p, err := runTool(t, reg, c.tool, c.args)
			if err != nil {
				t.Fatalf("%s: %v", c.tool, err)
			}
			blob, _ := json.Marshal(p)
			for _, leak := range []string{"Альбатрос", "480 000", "480\u00a0000", "Служебная записка", memo} {
				if strings.Contains(string(blob), leak) {
					t.Errorf("user %d chat %d: %s(%+v) returned %q of another user's document: %s", req.UserID, req.ChatID, c.tool, c.args, leak, blob)
				}
			}
		}
	}
	// Bob asking for alice's memo in full gets his own selection, nothing else.
	s, _ = a.scope(t.Context(), bob)
	p := mustRun(t, a.tools(bob, s, "что в документе?"), plan.ToolLoadDocumentsFull, plan.LoadDocumentsFullArgs{DocumentIDs: aliceRefs})
	if len(p.Items) != 1 || p.Items[0].Title != "Договор поставки № П-15/2025" {
		t.Errorf("bob's load_documents_full with alice's ids = %+v, want his own selected contract", p)
	}
}

func TestToolLoadDocumentsFull(t *testing.T) {
	tests := []struct {
		chars    []int
		kind     string
		limited  bool
		wantHead string
	}{
		{[]int{30_000, 20_000}, "document", false, "# Договор doc-0\n\n_Файл: doc-0.txt · формат: TXT · страниц: 1 · знаков: 30000_\n\nРаздел об оплате."},
		{[]int{30_000, 20_001}, "passage", true, "Раздел об оплате. Оплата в течение 20 банковских дней."},
	}
	for _, tt := range tests {
		store := docstore.NewMemory()
		a := docAgent(t, store, nil)
		me := Request{UserID: 31, ChatID: 31}
		var titles []string
		for i, n := range tt.chars {
			id := "doc-" + string(rune('0'+i))
			text := "Раздел об оплате. Оплата в течение 20 банковских дней. " + strings.Repeat("я", n-55)
			d := docstore.Doc{Meta: docstore.Meta{ID: id, Title: "Договор " + id, FileName: id + ".txt", Format: "txt", Pages: 1, Chars: n, Chunks: 1, Added: time.Now()},
				Chunks: []docstore.Chunk{{N: 0, Page: 1, Text: "Раздел об оплате. Оплата в течение 20 банковских дней. Счёт выставляется поставщиком."}}, Text: text}
			if err := store.Put(t.Context(), owner(me), d); err != nil {
				t.Fatal(err)
			}
			press(t, a, me, "d:s:"+id)
			titles = append(titles, d.Meta.Title)
		}
		s, _ := a.scope(t.Context(), me)
		reg := a.tools(me, s, "какой срок оплаты?")
		for _, args := range []plan.LoadDocumentsFullArgs{{DocumentIDs: titles}, {DocumentIDs: []string{"doc-0", "ДОГОВОР DOC-1"}}, {}} {
			p := mustRun(t, reg, plan.ToolLoadDocumentsFull, args)
			if len(p.Items) == 0 || p.Items[0].Kind != tt.kind || !strings.HasPrefix(p.Items[0].Text, tt.wantHead) {
				t.Fatalf("%v characters, %q: items %+v, want %s starting %q", tt.chars, args.DocumentIDs, p.Items, tt.kind, tt.wantHead)
			}
			if tt.kind == "document" && (len(p.Items) != 2 || p.Items[1].Title != "Договор doc-1" || len(p.Sources) != 2) {
				t.Errorf("%v characters: %d documents, sources %+v; want both", tt.chars, len(p.Items), p.Sources)
			}
			limited := slices.ContainsFunc(p.Limitations, func(l string) bool {
				return nbspToSpace(l) == "Документы слишком велики, чтобы прочитать их целиком (50 001 знак при пределе 50 000): ответ основан на самых подходящих фрагментах."
			})
			if limited != tt.limited {
				t.Errorf("%v characters: limitations %q, want the size limitation: %v", tt.chars, p.Limitations, tt.limited)
			}
		}
	}
	// Nothing selected and nothing named: no documents are loaded, not every one of the owner's.
	a := docAgent(t, docstore.NewMemory(), nil)
	me := Request{UserID: 32, ChatID: 32}
	upload(t, a, me, "dogovor.pdf", contract())
	p := mustRun(t, a.tools(me, docScope{owner: owner(me)}, "что в договоре?"), plan.ToolLoadDocumentsFull, `{"document_ids": ["другой"]}`)
	if len(p.Items) != 0 || len(p.Limitations) != 1 {
		t.Errorf("nothing selected: %+v", p)
	}
}

func TestToolSearchGeneralKB(t *testing.T) {
	h := history.NewMemory(10, history.Limits{})
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	if _, _, err := kb.Ingest(t.Context(), lib, kb.Sample()); err != nil {
		t.Fatal(err)
	}
	reg := New(Deps{History: h, KB: lib}, Options{}).tools(Request{UserID: 1, ChatID: 1}, docScope{owner: "u:1"}, "")
	p := mustRun(t, reg, plan.ToolSearchGeneralKB, `{"query": "ставка НДС в 2026 году", "top_k": 2}`)
	if len(p.Items) == 0 || len(p.Items) > 2 || p.Coverage != 1 {
		t.Fatalf("items %d coverage %v, want 1–2 items and coverage 1", len(p.Items), p.Coverage)
	}
	for _, it := range p.Items {
		src := p.Sources[it.Source-1].Title
		if it.Section != facts.KnowledgeBase || it.Kind != "kb_article" || it.Title != "Ставки НДС в 2026 году" ||
			itemField(it, "Обновлено") != "12.01.2026" || src != "Ставки НДС в 2026 году (база знаний, обновлено 12.01.2026)" {
			t.Errorf("item %+v, source %q", it, src)
		}
	}
	if !slices.ContainsFunc(p.Items, func(it facts.Item) bool {
		return strings.Contains(it.Text, "основная ставка НДС составляет 22%")
	}) {
		t.Errorf("no item states the rate: %q", itemTexts(p))
	}
	if p := mustRun(t, reg, plan.ToolSearchGeneralKB, `{"query": "как приготовить борщ с фасолью по-полтавски"}`); len(p.Items) != 0 {
		t.Errorf("an off-topic question found %q", itemTexts(p))
	}
}

// downLedger is a 1C that never answers.
type downLedger struct{}

func (downLedger) Name() string { return "1С (тест)" }
func (downLedger) Query(context.Context, string, onec.Params, int) (*onec.Result, error) {
	return nil, errors.New("connection refused")
}

func TestToolLedgerQuery(t *testing.T) {
	a := ledgerAgent(t, func(u, c int64) bool { return u == 1 })
	me := Request{UserID: 1, ChatID: 1}
	reg := a.tools(me, docScope{owner: owner(me)}, "кто нам должен на 31 марта")
	args := understand.LedgerArgs{Recipe: recipe.Receivables, Filters: recipe.Filters{AsOfDate: "2026-03-31", Limit: 5}}
	p := mustRun(t, reg, plan.ToolLedgerQuery, args)

	// The same recipe through the lane directly: the facts carry its figures exactly.
	d := runner.Decomposition{QuestionMode: runner.ModeLedger, Intent: args.Recipe, Filters: args.Filters}
	ln := demoLane(t)
	res := ln.Run(t.Context(), d)
	if res.ResultMode == runner.Limited || res.Summary.Rows <= 5 || len(res.Rows) != 5 {
		t.Fatalf("lane result %s, %d of %d rows: the demo ledger changed", res.ResultMode, len(res.Rows), res.Summary.Rows)
	}
	if len(p.Items) != 6 || p.Total != res.Summary.Rows+1 || p.Count()-len(p.Items) != res.Summary.Rows-5 {
		t.Fatalf("items %d total %d, want 5 rows, the total, and %d rows not shown", len(p.Items), p.Total, res.Summary.Rows-5)
	}
	for i, row := range res.Rows {
		it := p.Items[i]
		if it.Kind != "ledger_row" || it.Title != row.Name || itemField(it, "Контрагент") != row.Name ||
			itemField(it, "Сумма") != nbspToSpace(row.Amount.String()) {
			t.Errorf("row %d = %+v, want %s %s", i, it, row.Name, row.Amount)
		}
	}
	if got := nbspToSpace(p.Items[0].Text); got != "ООО «СтройМаркет» — 4 105 745,02 ₽ (документов: 13); долг 4 231 045,76 ₽, авансы 125 300,74 ₽" {
		t.Errorf("first row = %q", got)
	}
	total := p.Items[5]
	if total.Kind != "ledger_total" || nbspToSpace(total.Text) != "Итого нам должны: "+nbspToSpace(res.Summary.TotalAmount.String())+" — "+ru.Count(res.Summary.Rows, "контрагент", "контрагента", "контрагентов")+"." {
		t.Errorf("total = %+v", total)
	}
	wantLims := []string{
		"Данные 1С на 31.03.2026, организация ООО «Северный ветер» (основная; другую можно указать в вопросе), счёт " + res.Account + ".",
		"Сумма — сальдо расчётов с контрагентом по всем его договорам; долг и авансы — как в отчёте БП «Задолженность покупателей»: долг и полученные авансы по счетам и договорам раздельно.",
		"Показаны первые 5 из " + strconv.Itoa(res.Summary.Rows) + " строк.",
	}
	if diff := cmp.Diff(wantLims, p.Limitations); diff != "" {
		t.Errorf("limitations (-want +got):\n%s", diff)
	}
	if want := []facts.Source{{Title: "1С: Кто должен нам, ООО «Северный ветер», " + strings.ReplaceAll(ln.SourceName(), " 1С", "")}}; !cmp.Equal(want, p.Sources) {
		t.Errorf("sources = %+v, want %+v", p.Sources, want)
	}
	// Nothing matched is a fact, not a failure: here, that the base has no data that early (its
	// first posting is 31.12.2024), not that we owe nobody.
	p = mustRun(t, reg, plan.ToolLedgerQuery, `{"recipe": "list_payables_counterparties", "filters": {"as_of_date": "2020-01-01"}}`)
	if got := itemTexts(p); !cmp.Equal(got, []string{"В базе 1С нет данных раньше 31.12.2024 — это день первой проводки. На 01.01.2020 база ничего не покажет, " +
		"и это не значит, что мы никому не были должны. Спросите на дату не раньше 31.12.2024."}) || len(p.Limitations) == 0 {
		t.Errorf("empty match = %q, limitations %q", got, p.Limitations)
	}
	if len(p.Sources) != 0 || p.Items[0].Source != 0 {
		t.Errorf("empty match carries sources %+v: nothing found has nothing to footnote", p.Sources)
	}
}

func TestToolLedgerQueryLimited(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	me := Request{UserID: 1, ChatID: 1}
	reg := a.tools(me, docScope{owner: owner(me)}, "")
	tests := []struct {
		name, args, reason, want string
		candidates               int
	}{
		{"a required filter is missing", `{"recipe": "open_items_by_counterparty", "filters": {"as_of_date": "2026-03-31"}}`,
			runner.ReasonMissingFilters, "Чтобы ответить «открытые позиции по контрагенту», уточните контрагента (название или ИНН).", 0},
		{"an ambiguous counterparty", `{"recipe": "open_items_by_counterparty", "filters": {"as_of_date": "2026-03-31", "counterparty": "Сев"}}`,
			runner.ReasonMissingAnchor, "Под «Сев» подходит несколько контрагентов. Выберите нужного: ООО «Северный ветер», ИНН 8874007822; ПАО «Северсталь-Логистик», ИНН 2575668710.", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := runTool(t, reg, plan.ToolLedgerQuery, tt.args)
			var lim *ledger.Limited
			if !errors.As(err, &lim) || len(p.Items) != 0 {
				t.Fatalf("payload %+v error %v, want a *ledger.Limited", p, err)
			}
			if err.Error() != tt.want || lim.Result.LimitedReason != tt.reason || len(lim.Result.Candidates) != tt.candidates {
				t.Errorf("error %q (reason %s, %d candidates), want %q (%s, %d)", err, lim.Result.LimitedReason, len(lim.Result.Candidates), tt.want, tt.reason, tt.candidates)
			}
			if errors.Is(err, ErrUnavailable) {
				t.Errorf("%q matches ErrUnavailable: the user must be asked, not told 1C is down", err)
			}
		})
	}

	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	down := New(Deps{History: history.NewMemory(10, history.Limits{}), Ledger: runner.NewLane(downLedger{}, runner.Options{Now: now})},
		Options{Now: now, LedgerAccess: func(int64, int64) bool { return true }})
	_, err := runTool(t, down.tools(me, docScope{owner: owner(me)}, ""), plan.ToolLedgerQuery, `{"recipe": "list_receivables_counterparties"}`)
	var lim *ledger.Limited
	if !errors.As(err, &lim) || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "1С (тест) сейчас не отвечает") {
		t.Errorf("1C down: %v, want a *ledger.Limited matching ErrUnavailable", err)
	}
}

func TestToolLedgerQueryAccessDenied(t *testing.T) {
	a := ledgerAgent(t, func(u, c int64) bool { return u == 7 || c == -100 })
	for _, req := range []Request{{UserID: 8, ChatID: 8}, {UserID: 8, ChatID: -200, Group: true}} {
		reg := a.tools(req, docScope{owner: owner(req)}, "кто нам должен")
		p, err := runTool(t, reg, plan.ToolLedgerQuery, `{"recipe": "list_receivables_counterparties", "filters": {"as_of_date": "2026-03-31"}}`)
		if !errors.Is(err, ledger.ErrDenied) {
			t.Errorf("user %d chat %d: error %v, want ledger.ErrDenied", req.UserID, req.ChatID, err)
		}
		blob, _ := json.Marshal(p)
		if len(p.Items) != 0 || len(p.Limitations) != 0 || strings.Contains(string(blob), "₽") || strings.Contains(err.Error(), "₽") {
			t.Errorf("user %d chat %d: denied access leaked %s / %v", req.UserID, req.ChatID, blob, err)
		}
	}
	allowed := Request{UserID: 8, ChatID: -100, Group: true}
	if _, err := runTool(t, a.tools(allowed, docScope{owner: owner(allowed)}, ""), plan.ToolLedgerQuery,
		`{"recipe": "list_receivables_counterparties", "filters": {"as_of_date": "2026-03-31"}}`); err != nil {
		t.Errorf("a group with access: %v", err)
	}
}

// restateFigures writes an answer that repeats every figure of p the way an answer LLM might: the
// facts' own strings, and again with plain spaces and «руб.» for «₽».
func restateFigures(p facts.Payload) string {
	var b strings.Builder
	for _, it := range p.Items {
		b.WriteString(it.Title + ": " + it.Text)
		for _, f := range it.Fields {
			b.WriteString("; " + f.Name + " " + f.Value)
		}
		b.WriteString(".\n")
	}
	for _, l := range p.Limitations {
		b.WriteString(l + "\n")
	}
	s := b.String()
	return s + "\n" + strings.ReplaceAll(nbspToSpace(s), "₽", "руб.")
}

// TestToolFiguresPassThePostCheck: an answer that states the tools' figures, as written or
// as people rewrite them, invents no number; one figure more is caught.
func TestToolFiguresPassThePostCheck(t *testing.T) {
	rates := cbrTools(t, toolRates(nil))
	ledger := ledgerAgent(t, func(int64, int64) bool { return true })
	lreg := ledger.tools(Request{UserID: 1, ChatID: 1}, docScope{owner: "u:1"}, "")
	da := docAgent(t, docstore.NewMemory(), nil)
	me := Request{UserID: 41, ChatID: 41}
	upload(t, da, me, "dogovor.pdf", contract())
	dreg := da.tools(me, docScope{owner: owner(me)}, "")

	payloads := map[string]facts.Payload{
		"rates":        mustRun(t, rates, plan.ToolFetchCBRData, `{"mode": "currency", "codes": ["USD", "JPY", "EUR"]}`),
		"dynamic":      mustRun(t, rates, plan.ToolFetchCBRData, `{"mode": "dynamic", "from": "2026-02-01", "to": "2026-02-28", "codes": ["CNY"]}`),
		"key rate":     mustRun(t, rates, plan.ToolFetchCBRData, `{"mode": "key_rate", "from": "2025-07-01", "to": "2025-12-31"}`),
		"receivables":  mustRun(t, lreg, plan.ToolLedgerQuery, `{"recipe": "list_receivables_counterparties", "filters": {"as_of_date": "2026-03-31"}}`),
		"contracts":    mustRun(t, lreg, plan.ToolLedgerQuery, `{"recipe": "list_open_contracts", "filters": {"as_of_date": "2026-03-31"}}`),
		"balance":      mustRun(t, lreg, plan.ToolLedgerQuery, `{"recipe": "account_balance_snapshot", "filters": {"as_of_date": "2026-03-31", "account": "51"}}`),
		"bank":         mustRun(t, lreg, plan.ToolLedgerQuery, `{"recipe": "bank_ops_by_counterparty", "filters": {"counterparty": "Северсталь", "period_from": "2026-01-01", "period_to": "2026-03-31"}}`),
		"documents":    mustRun(t, dreg, plan.ToolSearchUserDocuments, `{"query": "сумма договора и оплата"}`),
		"penalty":      mustRun(t, dreg, plan.ToolSearchUserDocuments, `{"query": "пени за просрочку поставки"}`),
		"whole":        mustRun(t, dreg, plan.ToolLoadDocumentsFull, plan.LoadDocumentsFullArgs{DocumentIDs: []string{"dogovor.pdf"}}),
		"cbr news":     mustRun(t, rates, plan.ToolFetchCBRData, `{"mode": "news"}`),
		"empty ledger": mustRun(t, lreg, plan.ToolLedgerQuery, `{"recipe": "list_payables_counterparties", "filters": {"as_of_date": "2020-01-01"}}`),
	}
	for name, p := range payloads {
		t.Run(name, func(t *testing.T) {
			if len(p.Items) == 0 {
				t.Fatal("no items")
			}
			answer := restateFigures(p)
			for _, v := range postcheck.Check(answer, p, "") {
				if v.Kind == postcheck.InventedNumber {
					t.Errorf("%s: %s\nanswer:\n%s", v.Kind, v.Detail, answer)
				}
			}
			invented := answer + "\nИтого 987 654,32 ₽ на 29.02.2028."
			n := 0
			for _, v := range postcheck.Check(invented, p, "") {
				if v.Kind == postcheck.InventedNumber {
					n++
				}
			}
			if n != 2 {
				t.Errorf("an invented sum and date gave %d invented-number violations, want 2", n)
			}
		})
	}
}
