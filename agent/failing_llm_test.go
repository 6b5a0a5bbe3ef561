package agent

import (
	"strings"
	"time"

	"testing"

	"github.com/finbot/finbot/internal/fakes"
)

// TestFailingLLMAnswersAsWithout: whatever way the LLM service fails — it refuses the key,
// the account, the model or the request (401, 403, 404, 400), breaks (500), or answers
// without a usable reply — every answer is the one the bot gives with no LLM at all, word for
// word (issue #19: an LLM failure is never read as a bad plan that sends a rates or
// receivables question to the knowledge base). Every sixth message of the user-side corpus.
func TestFailingLLMAnswersAsWithout(t *testing.T) {
	if testing.Short() {
		t.Skip("asks a sixth of the corpus per kind of failure")
	}
	plain := noLLMAgent(t)
	var qs []string
	for i, q := range corpusQuestions(t) {
		if i%6 == 0 {
			qs = append(qs, q)
		}
	}
	want := make([]Answer, len(qs))
	for i, q := range qs {
		want[i] = ask(t, plain, Request{UserID: int64(5000 + i), ChatID: int64(5000 + i)}, q)
	}
	faults := []struct {
		name  string
		reply fakes.Reply
	}{
		{"401", fakes.Reply{Status: 401, Message: "Incorrect API key provided"}},
		{"403", fakes.Reply{Status: 403, Message: "Forbidden"}},
		{"404", fakes.Reply{Status: 404, Message: "No endpoints found for model"}},
		{"400", fakes.Reply{Status: 400, Message: "Invalid request: response_format is not supported"}},
		{"500", fakes.Reply{Status: 500}},
		{"error in 200", fakes.Reply{ErrorIn200: 502}},
	}
	for _, f := range faults {
		t.Run(f.name, func(t *testing.T) {
			l := fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(*fakes.Request) fakes.Reply { return f.reply }})
			failing := demoAgent(t, pipelineNow, l.URL())
			for i, q := range qs {
				got := ask(t, failing, Request{UserID: int64(5000 + i), ChatID: int64(5000 + i)}, q)
				if got.Text != want[i].Text {
					t.Errorf("%q: with the LLM failing (%s):\n%s\n--- without an LLM:\n%s", q, f.name, got.Text, want[i].Text)
				}
			}
			if len(l.Requests()) == 0 {
				t.Error("the LLM was never asked: the test proves nothing")
			}
			if n := len(l.Requests()); f.reply.Status >= 400 && f.reply.Status < 500 && f.reply.Status != 400 && n > 1 {
				t.Errorf("%d calls reached a service that refused the configuration: the breaker must open at the first", n)
			}
			t.Logf("%s: %d LLM calls for %d messages", f.name, len(l.Requests()), len(qs))
		})
	}
}

// TestSlowLLMSpendsOneBudget: an LLM that takes longer than the answer's budget for every
// call costs one budget, not a planner timeout plus an answer timeout: the first call is cut
// when the budget runs out, no other is started, and the answer is the one without an LLM
// (issue #19: a receivables question waited 60 s).
func TestSlowLLMSpendsOneBudget(t *testing.T) {
	plain := noLLMAgent(t)
	l := fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(*fakes.Request) fakes.Reply {
		return fakes.Reply{Content: "{}", Delay: time.Minute}
	}})
	slow := demoAgent(t, pipelineNow, l.URL())
	slow.opts.LLMBudget = 300 * time.Millisecond
	for i, q := range []string{
		"сравни дебиторку за два квартала и объясни динамику", // the planner is asked
		"что такое акт сверки и зачем он нужен",               // expansion and the answer model
		"кто нам должен на 31.03",                             // deterministic: no LLM call at all
	} {
		before := len(l.Requests())
		req := Request{UserID: int64(7000 + i), ChatID: int64(7000 + i)}
		got, want := ask(t, slow, req, q), ask(t, plain, req, q)
		if got.Text != want.Text {
			t.Errorf("%q with an LLM slower than the budget:\n%s\n--- without an LLM:\n%s", q, got.Text, want.Text)
		}
		if n := len(l.Requests()) - before; n > 1 {
			t.Errorf("%q: %d LLM calls started; after the budget ran out in the first, none may start", q, n)
		}
	}
	if len(l.Requests()) == 0 {
		t.Error("the LLM was never asked: the test proves nothing")
	}
}

// TestPlannerDatesValidated: a planner's copy of a date is checked as the parser checks one
// typed (issue #19): an impossible or far-future date in a plan never reaches 1C, and an
// impossible date the user typed gets the same clear message with an LLM as without one.
func TestPlannerDatesValidated(t *testing.T) {
	plain := noLLMAgent(t)
	for _, tt := range []struct{ q, date string }{
		{"какая картина с дебиторкой на 31.02", "2026-02-31"},
		{"какая картина с дебиторкой на 31.02", "9999-12-31"},
		{"что там по расчётам с покупателями вообще", "9999-12-31"},
		{"какая картина с расчётами на 31 марта", "9999-12-31"},
	} {
		p := `{"intents":["ledger"],"tool_calls":[{"tool":"ledger_query","args":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"` + tt.date + `"}}}],"fallback":{"enabled":false},"limits":{},"render_style":"TABLE","confidence":0.95,"question_mode":"direct","ledger":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"` + tt.date + `"}}}`
		s := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: p}}})
		a := pipelineAgent(t, s, func(o *Options) { o.PlanCacheTTL = -1 })
		req := Request{UserID: 9, ChatID: 9}
		got, want := ask(t, a, req, tt.q), ask(t, plain, req, tt.q)
		if strings.Contains(got.Text, "9999") || strings.Contains(got.Text, "31.12.9999") {
			t.Errorf("%q, plan date %s: the plan's date reached the answer:\n%s", tt.q, tt.date, got.Text)
		}
		if strings.Contains(tt.q, "31.02") && got.Text != want.Text {
			t.Errorf("%q, plan date %s: with the planner\n%s\n--- without an LLM:\n%s", tt.q, tt.date, got.Text, want.Text)
		}
	}
}

// TestInvisibleCharactersChangeNothing: a zero-width space, a soft hyphen or a BOM inside a
// message or a company's name, full-width digits, a non-breaking space: the answer is the one
// to the message typed plainly (issue #19).
func TestInvisibleCharactersChangeNothing(t *testing.T) {
	a := noLLMAgent(t)
	for _, tt := range []struct{ plain, hidden string }{
		{"кто нам должен на 31.03", "кто нам дол\u200bжен на 31.03"},
		{"сколько должна Альфа на 31.03", "сколько должна Аль\u00adфа на 31.03"},
		{"сальдо 62.01 на 31.03", "\ufeffсальдо\u00a062.01 на ３１.０３"},
	} {
		want := ask(t, a, Request{UserID: 11, ChatID: 11}, tt.plain)
		got := ask(t, a, Request{UserID: 12, ChatID: 12}, tt.hidden)
		if got.Text != want.Text {
			t.Errorf("%q answered unlike %q:\n%s\n--- plainly:\n%s", tt.hidden, tt.plain, got.Text, want.Text)
		}
	}
}
