package agent

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/testredis"
)

// dialogAgent is an agent over the demo ledger with its history in h and no LLM.
func dialogAgent(t *testing.T, h History) *Agent {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	return New(Deps{History: h, Rates: pipelineRates, Ledger: runner.NewLane(d, runner.Options{Now: answersNow, Organization: d.MainOrganization()})},
		Options{Now: answersNow, LedgerAccess: func(int64, int64) bool { return true }, ToolTimeout: testDeadline})
}

// Conversations of two and three turns, with no LLM: a follow-up replaces the slots it names
// and keeps the rest; a new topic starts fresh; what the dialog cannot give is asked for. The
// dialog state lives with the history: in Redis it survives a restart (a new agent on the same
// store continues the dialog), and it is per chat and user.
func TestDialogFollowUps(t *testing.T) {
	stores := map[string]func() History{
		"memory": func() History { return history.NewMemory(100, history.Limits{}) },
	}
	if rdb := testredis.Optional(t); rdb != nil {
		shared := history.NewRedis(rdb, testredis.Prefix(t, rdb), history.Limits{})
		stores["redis"] = func() History { return shared }
	}
	dialogs := []struct {
		name  string
		turns []string
		want  []string // in the last answer
		not   []string // never in the last answer
	}{
		{"rates: a new date keeps the currency", []string{"курс евро на 15 января", "а на конец февраля?"},
			[]string{"EUR", "28.02.2026"}, []string{"USD"}},
		{"rates: a new currency keeps the date", []string{"курс евро на 15 января", "а на конец февраля?", "а в юанях?"},
			[]string{"CNY", "28.02.2026"}, []string{"EUR"}},
		{"1C: a new date keeps the list", []string{"кто нам должен на 31.03", "а на начало года?"},
			[]string{"на 01.01.2026 — 18 контрагентов", "Нам должны **"}, []string{"31.03.2026"}},
		{"1C: a company after a list is its debt on the same date", []string{"кредиторка на 31.03", "а по техснабу?"},
			[]string{"ООО «Техснаб»", "31.03.2026"}, []string{"Мы должны **"}},
		{"1C: another company keeps the date", []string{"долг ромашки на 31.03", "а у гранита?"},
			[]string{"ООО «Гранит»", "31.03.2026"}, []string{"Ромашка"}},
		{"1C: documents over another period", []string{"документы альфы за март", "а за февраль?"},
			[]string{"ООО «Альфа»", "01.02.2026", "28.02.2026"}, []string{"31.03.2026"}},
		{"1C: the other organization", []string{"кредиторка на 31.03", "а по трейду?"},
			[]string{"Северный ветер Трейд", "31.03.2026"}, nil},
		{"1C: another subject keeps the date", []string{"дебиторка на 1.03", "а кредиторка?"},
			[]string{"на 01.03.2026 — 12 контрагентам"}, nil},
		{"a new topic starts fresh", []string{"долг ромашки на 31.03", "курс евро"},
			[]string{"EUR"}, []string{"Ромашка"}},
		{"another company unnamed is asked for", []string{"долг ромашки на 31.03", "а по другому контрагенту?"},
			[]string{"по какому контрагенту"}, []string{"₽"}},
		{"a currency after a 1C figure is asked about", []string{"долг ромашки на 31.03", "а в евро?"},
			[]string{"курс евро"}, []string{"₽"}},
		{"an ambiguous name keeps the question", []string{"долг ромашки на 31.03", "а гранитовские?"},
			[]string{"ООО «Гранит»", "ООО «Гранит-М»"}, []string{"₽"}},
		{"a follow-up with nothing before it is asked about", []string{"что такое акт сверки", "а за март?"},
			[]string{"Уточните"}, []string{"₽"}},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			for i, dlg := range dialogs {
				t.Run(dlg.name, func(t *testing.T) {
					req := Request{UserID: int64(700 + i), ChatID: int64(700 + i)}
					var ans Answer
					h := open()
					for _, q := range dlg.turns {
						// Every turn is asked of a new agent on the same store, as after a restart.
						ans = ask(t, dialogAgent(t, h), req, q)
					}
					text := unescape(ans.Text)
					for _, w := range dlg.want {
						if !strings.Contains(text, w) {
							t.Errorf("%q: the answer lacks %q:\n%s", dlg.turns, w, text)
						}
					}
					for _, n := range dlg.not {
						if strings.Contains(text, n) {
							t.Errorf("%q: the answer has %q:\n%s", dlg.turns, n, text)
						}
					}
				})
			}
		})
	}
}

// A question back about several equal names offers buttons; pressing one continues the same
// question: the date of the dialog is kept, the company is the one on the button.
func TestDialogButtonContinues(t *testing.T) {
	a := dialogAgent(t, history.NewMemory(100, history.Limits{}))
	req := Request{UserID: 801, ChatID: 801}
	ask(t, a, req, "долг ромашки на 31.03")
	q := ask(t, a, req, "а гранитовские?")
	if len(q.Buttons) != 2 {
		t.Fatalf("buttons %+v, want two candidates:\n%s", q.Buttons, q.Text)
	}
	for _, b := range q.Buttons {
		if strings.Contains(b.Text, "Гранит-М") {
			continue
		}
		ans := ask(t, a, req, b.Text)
		text := unescape(ans.Text)
		if !strings.Contains(text, "ООО «Гранит»") || !strings.Contains(text, "31.03.2026") || strings.Contains(text, "Гранит-М") {
			t.Errorf("button %q: the answer is not ООО «Гранит» on 31.03.2026:\n%s", b.Text, text)
		}
		return
	}
	t.Errorf("no button for ООО «Гранит»: %+v", q.Buttons)
}
