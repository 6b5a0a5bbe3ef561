package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

var testNow = func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }

func everyone(int64, int64) bool { return true }

// newSkill is the skill over the demo 1C, its buttons' results kept in memory.
func newSkill(t *testing.T, access func(u, c int64) bool) *Skill {
	t.Helper()
	return New(newLane(t), nil, Options{Now: testNow, LedgerAccess: access})
}

// ask is the question as the agent hands it to the skill: understood once, with the catalogs of
// a user with access.
func ask(t *testing.T, s *Skill, userID, chatID int64, text string) skill.Reply {
	t.Helper()
	d := understand.NewParser().Parse(understand.Input{Text: text, Now: testNow(), Catalogs: s.Catalogs(t.Context(), userID, chatID)})
	r, err := s.Answer(t.Context(), skill.Query{UserID: userID, ChatID: chatID, Text: text, Decision: d})
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return r
}

// plain is a reply's Markdown as it reads: the escapes a reader does not see removed, the
// amounts' no-break spaces as spaces.
func plain(text string) string { return strings.ReplaceAll(md.Unescape(text), "\u00a0", " ") }

// command answers a command (or a button press: "drill" with its data).
func command(t *testing.T, s *Skill, chatID int64, cmd, args string) skill.Reply {
	t.Helper()
	r, err := s.Answer(t.Context(), skill.Query{UserID: chatID, ChatID: chatID, Command: cmd, Text: args})
	if err != nil {
		t.Fatalf("/%s %q: %v", cmd, args, err)
	}
	return r
}

// ledgerDebug is the runner's debug payload of a reply; nil without one.
func ledgerDebug(r skill.Reply) *runner.Debug {
	d, _ := r.Trace["ledger"].(*runner.Debug)
	return d
}

func isStale(r skill.Reply) bool {
	return strings.Contains(r.Text, "кнопка устарела") && strings.Contains(r.Text, "Задайте вопрос заново") &&
		len(r.Buttons) == 1 && r.Document == nil && slices.Contains(r.Degraded, "stale_button")
}

func TestAccess(t *testing.T) {
	s := newSkill(t, func(u, c int64) bool { return u == 7 || c == -100 })
	for _, tt := range []struct {
		user, chat int64
		cmd        string
		allowed    bool
	}{
		{7, 7, "", true},
		{8, 8, "", false},
		{8, -100, "", true},
		{8, -200, "debts", false},
		{7, 7, "debts", true},
	} {
		var r skill.Reply
		if tt.cmd == "" {
			r = ask(t, s, tt.user, tt.chat, "кто нам должен на 31.03.2026")
		} else {
			var err error
			if r, err = s.Answer(t.Context(), skill.Query{UserID: tt.user, ChatID: tt.chat, Command: tt.cmd}); err != nil {
				t.Fatal(err)
			}
		}
		hasFigures := strings.Contains(r.Text, "₽")
		if hasFigures != tt.allowed || !tt.allowed && (r.Text != DeniedText || !slices.Contains(r.Degraded, "ledger_access_denied")) {
			t.Errorf("user %d chat %d /%s: allowed=%v but reply %q %v", tt.user, tt.chat, tt.cmd, tt.allowed, r.Text, r.Degraded)
		}
	}
	if s.Catalogs(t.Context(), 8, 8) != nil || s.Catalogs(t.Context(), 7, 7) == nil {
		t.Error("catalogs: want them for a user with access only")
	}
}

func TestNotConnected(t *testing.T) {
	s := New(nil, nil, Options{Now: testNow, LedgerAccess: everyone})
	d := understand.Decision{Kind: understand.KindLedger, Recipe: recipe.Receivables}
	for _, q := range []skill.Query{{Decision: d}, {Command: "debts"}, {Command: "drill", Text: "x:abcdefgh2345"},
		{Decision: understand.Decision{Kind: understand.KindLedgerDeep}, Plan: &plan.QueryPlan{}}} {
		r, err := s.Answer(t.Context(), q)
		if err != nil || r.Text != NotConnectedText {
			t.Errorf("%+v: %q %v", q, r.Text, err)
		}
	}
	if s.Catalogs(t.Context(), 1, 1) != nil {
		t.Error("catalogs without 1C")
	}
	call := plan.ToolCall{Tool: plan.ToolLedgerQuery, Args: json.RawMessage(`{"recipe":"list_receivables_counterparties"}`)}
	if _, err := s.Facts(t.Context(), skill.Query{UserID: 1, ChatID: 1}, call); !errors.Is(err, skill.ErrUnavailable) {
		t.Errorf("Facts without 1C: %v", err)
	}
}

// A reply carries the runner's debug payload, its drilldowns and the export, each bound to
// this reply and to its chat.
func TestReplyCarriesDebugButtonsAndExport(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "кто нам должен на 31.03.2026")
	dbg := ledgerDebug(r)
	if dbg == nil || dbg.SelectedRecipe != "address.receivables.counterparty_totals" || dbg.RowsMatched != 18 || r.Recipe != string(recipe.Receivables) {
		t.Fatalf("recipe %q debug %+v", r.Recipe, dbg)
	}
	if res, ok := r.Trace["result"].(*runner.Result); !ok || res.Intent != recipe.Receivables {
		t.Errorf("trace result = %#v", r.Trace["result"])
	}
	var drill, export string
	for _, b := range r.Buttons {
		switch {
		case runner.IsDrill(b.Data) && drill == "":
			drill = b.Data
		case strings.HasPrefix(b.Data, ExportPrefix):
			export = b.Data
		}
	}
	if drill == "" || export == "" {
		t.Fatalf("buttons = %+v, want a drilldown and the export", r.Buttons)
	}
	next := command(t, s, 1, "drill", drill)
	if d := ledgerDebug(next); d == nil || d.SelectedRecipe != "address.open_items.by_counterparty" {
		t.Errorf("drilldown reply = %q", next.Text)
	}
	// The export is of the reply the button sits under, not of the drilldown asked since.
	file := command(t, s, 1, "drill", export)
	if file.Document == nil || file.Document.Name != "Дебиторка на 31.03.2026.xlsx" || len(file.Document.Bytes) < 1000 ||
		file.Recipe != string(recipe.Receivables) {
		t.Errorf("export = %+v", file)
	}
	// Another chat has nothing to export: data never crosses conversations.
	if other := command(t, s, 2, "drill", export); other.Document != nil || !isStale(other) {
		t.Errorf("another chat's export = %+v", other)
	}
	forged := command(t, s, 1, "drill", "b:op:deadbeef0000:20260331:34adc550-78a:")
	if forged.Text != badDrillText {
		t.Errorf("forged drilldown = %q", forged.Text)
	}
}

// Buttons of before are refused as stale, with a question to ask again.
func TestStaleButtons(t *testing.T) {
	s := newSkill(t, everyone)
	for _, data := range []string{"a:4:cb61f26c-a4d:20260331:1:", "a:11:p20260101:20260331:1:62", "a:"} {
		if r := command(t, s, 1, "drill", data); !isStale(r) || !strings.Contains(r.Text, "прежней версии") || ledgerDebug(r) != nil {
			t.Errorf("%q: %q, buttons %+v", data, r.Text, r.Buttons)
		}
	}
	for _, data := range []string{LegacyExport, "c:1", "x:abcdefgh2345", "c:abcdefgh2345:0"} {
		if r := command(t, s, 1, "drill", data); !isStale(r) || !strings.Contains(r.Text, "больше нет") {
			t.Errorf("%q: %q, buttons %+v", data, r.Text, r.Buttons)
		}
	}
	if r := StaleButton(); !isStale(r) {
		t.Errorf("StaleButton() = %+v", r)
	}
}

func TestClarificationChoice(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "открытые позиции по Сев на 31.03.2026")
	if len(r.Buttons) < 2 || !strings.HasPrefix(r.Buttons[1].Data, "c:") || !strings.HasSuffix(r.Buttons[1].Data, ":1") || len(r.Buttons[1].Data) > 64 {
		t.Fatalf("buttons = %+v", r.Buttons)
	}
	picked := command(t, s, 1, "drill", r.Buttons[1].Data)
	if d := ledgerDebug(picked); d == nil || d.SelectedRecipe != "address.open_items.by_counterparty" || !strings.Contains(picked.Text, "Северсталь") {
		t.Errorf("choice reply:\n%s", picked.Text)
	}
	if stale := command(t, s, 2, "drill", r.Buttons[0].Data); !isStale(stale) {
		t.Errorf("another chat's choice = %q", stale.Text)
	}
}

// failingResults is a results store that is down.
type failingResults struct{}

func (failingResults) Put(context.Context, string, []byte) error { return errors.New("redis down") }
func (failingResults) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errors.New("redis down")
}

// With the store down the reply goes without the buttons bound to it, and a press is a source
// unavailable.
func TestStoreDown(t *testing.T) {
	s := New(newLane(t), failingResults{}, Options{Now: testNow, LedgerAccess: everyone})
	r := ask(t, s, 1, 1, "кто нам должен на 31.03.2026")
	if !slices.Contains(r.Degraded, "buttons_not_kept") || slices.ContainsFunc(r.Buttons, func(b skill.Button) bool { return strings.HasPrefix(b.Data, ExportPrefix) }) {
		t.Errorf("degraded %v buttons %+v", r.Degraded, r.Buttons)
	}
	if _, err := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Command: "drill", Text: "x:abcdefgh2345"}); !errors.Is(err, skill.ErrUnavailable) {
		t.Errorf("press with the store down: %v", err)
	}
}

func TestCommands(t *testing.T) {
	s := newSkill(t, everyone)
	for _, tt := range []struct {
		cmd, args, recipe, want string
	}{
		{"debts", "31.03.2026", "address.receivables.counterparty_totals", "Нам должны **"},
		{"payables", "", "address.payables.counterparty_totals", "Мы должны **"},
		{"balance", "51 31.03.2026", "address.account.balance_snapshot", "Остаток по счёту 51 на 31.03.2026: **"},
		{"aging", "31.03.2026", "address.aging.receivables", "Покупатели должны нам 37 710 522,89 ₽ на 31.03.2026, из них просрочено **"},
		{"aging", "", "address.aging.receivables", "из них просрочено **"},
		{"aging", "поставщики 31.03.2026", "address.aging.payables", "Мы должны поставщикам"},
		{"aging", "кредиторка на 31.03.2026", "address.aging.payables", "Мы должны поставщикам"},
		{"aging", "альфа 31.01.2026", "address.aging.receivables", "ООО «Альфа» должен нам 2 884 226,25 ₽ на 31.01.2026, из них просрочено **2 294 086,12 ₽**"},
	} {
		r := command(t, s, 1, tt.cmd, tt.args)
		if d := ledgerDebug(r); d == nil || d.SelectedRecipe != tt.recipe || !strings.Contains(plain(r.Text), tt.want) {
			t.Errorf("/%s %s: debug %+v\n%s", tt.cmd, tt.args, d, r.Text)
		}
	}
	if r := command(t, s, 1, "whatever", ""); r.Text != notUnderstoodText {
		t.Errorf("unknown command: %q", r.Text)
	}
	if r, _ := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Decision: understand.Decision{Kind: understand.KindKB}}); r.Text != notUnderstoodText {
		t.Errorf("a decision not for 1C: %q", r.Text)
	}
}

// The answers to decisions: both sides of the settlements, the notes of what a report does
// not show, a write refused, a date not read, a name not found.
func TestDecisions(t *testing.T) {
	s := newSkill(t, everyone)
	recv := ask(t, s, 1, 1, "кто нам должен на 31.03.2026")
	both := ask(t, s, 1, 1, "дебиторка и кредиторка на 31.03")
	if !strings.Contains(both.Text, "[1]") || !strings.Contains(both.Text, "[2]") || len(both.Sources) != 2 || len(both.Buttons) != 2 ||
		strings.Contains(both.Text, "«Выгрузить в Excel»") || !strings.HasPrefix(both.Text, strings.SplitN(recv.Text, "\n", 2)[0]) {
		t.Errorf("both sides: sources %v buttons %v\n%s", both.Sources, both.Buttons, both.Text)
	}
	if both.Buttons[0].Text != "Только кто должен нам на 31.03.2026" || !both.Buttons[1].SameRow {
		t.Errorf("both sides' buttons %+v", both.Buttons)
	}
	if r := ask(t, s, 1, 1, "просроченная дебиторка на 31.03"); !strings.HasPrefix(plain(r.Text), "Покупатели должны нам 37 710 522,89 ₽ на 31.03.2026, из них просрочено **34 817 884,44 ₽**") {
		t.Errorf("overdue: want the aging of receivables\n%s", r.Text)
	}
	if r := ask(t, s, 1, 1, "просрочка по покупателям на 31.03 и на 31.01"); !strings.HasPrefix(plain(r.Text), "Просроченный долг изменился с 31.01.2026 по 31.03.2026: **") {
		t.Errorf("overdue on two days:\n%s", r.Text)
	}
	if r := ask(t, s, 1, 1, "сравни дебиторку на 31.03 и на 31.12"); !strings.HasPrefix(r.Text, "Изменение с 31.12.2025 по 31.03.2026: **") {
		t.Errorf("two days compared:\n%s", r.Text) // two runs and their change: no LLM needed
	}
	if r := ask(t, s, 1, 1, "почему выросла дебиторка в марте"); !strings.HasPrefix(r.Text, "_Сравнение, динамику и причины") || !strings.Contains(r.Text, "₽") {
		t.Errorf("analysis:\n%s", r.Text)
	}
	if r := ask(t, s, 1, 1, "кто нам должен на 31.03"); strings.HasPrefix(r.Text, "_") {
		t.Errorf("a plain report carries a note:\n%s", r.Text)
	}
	write, err := s.Answer(t.Context(), skill.Query{UserID: 8, ChatID: 8, Decision: understand.Decision{Kind: understand.KindLedgerWrite}})
	if err != nil || !strings.HasPrefix(write.Text, "Я только читаю данные 1С") {
		t.Errorf("write: %q %v", write.Text, err)
	}
	date, _ := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1,
		Decision: understand.Decision{Kind: understand.KindLedger, Recipe: recipe.Receivables, DateError: "Даты 31.02.2026 нет."}})
	if date.Text != `Даты 31\.02\.2026 нет\.`+dateHint {
		t.Errorf("date error: %q", date.Text)
	}
	unknown, _ := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "долг Рогов и копыт",
		Decision: understand.Decision{Kind: understand.KindUnknownEntity, Unknown: "Рогов и копыт",
			Closest: []recipe.Entity{{Name: "ООО «Рога»"}, {Name: "ООО «Копыта»"}}}})
	if unknown.Text != "Контрагента «Рогов и копыт» в справочнике 1С не нашёл. Похожие названия: ООО «Рога», ООО «Копыта». Выберите, если имели в виду одного из них." ||
		len(unknown.Buttons) != 2 || unknown.Buttons[0].Text != "долг ООО «Рога»" {
		t.Errorf("unknown entity: %q %+v", unknown.Text, unknown.Buttons)
	}
}

// An account none of ours has is said, ours are offered, and a button picks one.
func TestUnknownBankAccount(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "остаток на р/с 40702810000000000001 на 31.03.2026")
	if !strings.Contains(r.Text, "Не нашёл у наших организаций в 1С расчётный счёт 40702810000000000001") || len(r.Buttons) != 2 {
		t.Fatalf("reply %q, buttons %+v", r.Text, r.Buttons)
	}
	var pick string
	for _, b := range r.Buttons {
		if strings.HasPrefix(b.Text, "40702810414434320187") {
			pick = b.Data
		}
	}
	picked := command(t, s, 1, "drill", pick)
	if !strings.Contains(picked.Text, "ООО «Северный ветер Трейд» · р/с 40702810414434320187") {
		t.Errorf("the chosen account's reply:\n%s", picked.Text)
	}
}

// The planner's tool: facts for a user with access, ErrDenied before 1C for one without, a
// *Limited answered as the runner's own reply with its buttons, both as a *skill.Answered.
func TestFactsAndLimited(t *testing.T) {
	s := newSkill(t, func(u, _ int64) bool { return u == 1 })
	call := func(args string) plan.ToolCall {
		return plan.ToolCall{Tool: plan.ToolLedgerQuery, Args: json.RawMessage(args)}
	}
	me := skill.Query{UserID: 1, ChatID: 1, Text: "кто нам должен на 31 марта"}
	p, err := s.Facts(t.Context(), me, call(`{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31","limit":5}}`))
	if err != nil || len(p.Items) != 6 || !p.Found {
		t.Fatalf("facts %+v, %v", p, err)
	}
	_, err = s.Facts(t.Context(), skill.Query{UserID: 2, ChatID: 2}, call(`{"recipe":"list_receivables_counterparties"}`))
	if own := (*skill.Answered)(nil); !errors.Is(err, ErrDenied) || !errors.As(err, &own) || own.Reply.Text != DeniedText {
		t.Errorf("no access: %v", err)
	}
	for _, c := range []plan.ToolCall{call(`{"recipe":""}`), call(`{"recipe":"drop"}`), call(`{"nope":1}`), {Tool: plan.ToolFetchCBRData}} {
		if _, err := s.Facts(t.Context(), me, c); !errors.Is(err, skill.ErrArgs) {
			t.Errorf("%s %s: %v, want ErrArgs", c.Tool, c.Args, err)
		}
	}
	_, err = s.Facts(t.Context(), me, call(`{"recipe":"open_items_by_counterparty","filters":{"as_of_date":"2026-03-31","counterparty":"Сев"}}`))
	var lim *Limited
	var own *skill.Answered
	if !errors.As(err, &lim) || !errors.As(err, &own) {
		t.Fatalf("ambiguous name: %v, want a *Limited answered", err)
	}
	r := own.Reply
	if len(r.Buttons) < 2 || !strings.HasPrefix(r.Buttons[0].Data, ChoicePrefix) || ledgerDebug(r) == nil {
		t.Fatalf("limited reply %q, buttons %+v", r.Text, r.Buttons)
	}
	if picked := command(t, s, 1, "drill", r.Buttons[1].Data); !strings.Contains(picked.Text, "Северсталь") {
		t.Errorf("the limited reply's choice:\n%s", picked.Text)
	}
}

func TestWithName(t *testing.T) {
	for _, tt := range []struct{ text, written, name, want string }{
		{"долг альфы на 31.03", "альфы", "ООО «Альфа»", "долг ООО «Альфа» на 31.03"},
		{"долг Альфы", "", "ООО «Альфа»", "долг Альфы — ООО «Альфа»"},
		{"долг Беты ", "Гаммы", "ООО «Гамма»", "долг Беты — ООО «Гамма»"},
	} {
		if got := withName(tt.text, tt.written, tt.name); got != tt.want {
			t.Errorf("withName(%q, %q, %q) = %q, want %q", tt.text, tt.written, tt.name, got, tt.want)
		}
	}
}

// TestAskBackHandsToTheDocuments: a 1C reading that would only ask whose («оплата за
// паллетоместо в сутки сколько перечислим») asks the user's documents first — their answer, if
// they state one, replaces the question back; a question that names the counterparty, or one
// already handed over, does not.
func TestAskBackHandsToTheDocuments(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "оплата за паллетоместо в сутки сколько перечислим")
	if !strings.Contains(r.Text, "уточните контрагента") {
		t.Fatalf("not a question back: %q", r.Text)
	}
	if h := r.Then; h == nil || h.Kind != understand.KindDocs || !h.Direct || !h.OnlyIfFound || !strings.Contains(h.Suffix, "назовите контрагента") {
		t.Errorf("handoff %+v, want the documents, only a direct answer, 1C's question after it", h)
	}
	if r := ask(t, s, 1, 1, "оплаты Альфы за март"); r.Then != nil {
		t.Errorf("a named counterparty handed over: %+v", r.Then)
	}
	text := "оплата за паллетоместо в сутки сколько перечислим"
	d := understand.NewParser().Parse(understand.Input{Text: text, Now: testNow(), Catalogs: s.Catalogs(t.Context(), 1, 1)})
	r, err := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: text, Decision: d, HandedOff: true})
	if err != nil || r.Then != nil {
		t.Errorf("handed over again: %+v, %v", r.Then, err)
	}
}
