package agent

import (
	"bytes"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/finbot/finbot/agent/anon"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/ru"
)

// demoIdentifier is one identifier of the demo ledger a request to the LLM must not hold.
type demoIdentifier struct {
	what string         // for the failure message: «ИНН of ООО «Альфа»»; never the value's kind alone
	re   *regexp.Regexp // over the request's folded text (names) or its raw text (numbers)
	lit  string         // what re needs the text to contain: a quick test before it
	name bool
}

// demoIdentifiers are the demo ledger's catalog names (our organizations, the counterparties,
// an individual entrepreneur's surname alone), ИНН, КПП, bank accounts and contract numbers.
func demoIdentifiers(t *testing.T) []demoIdentifier {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	c, err := runner.NewLane(d, runner.Options{Organization: d.MainOrganization()}).Catalogs(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var out []demoIdentifier
	word := func(s string) *regexp.Regexp {
		return regexp.MustCompile(`(^|[^\p{L}\d-])` + regexp.QuoteMeta(s) + `($|[^\p{L}\d-])`)
	}
	number := func(s string) *regexp.Regexp { return regexp.MustCompile(`(^|\D)` + regexp.QuoteMeta(s) + `(\D|$)`) }
	for _, e := range append(c.Organizations, c.Counterparties...) {
		name := ru.Fold(understand.NameWords(e.Name))
		out = append(out, demoIdentifier{what: "the name " + e.Name, re: word(name), lit: name, name: true})
		if strings.HasPrefix(e.Name, "ИП ") {
			surname := strings.Fields(name)[0]
			out = append(out, demoIdentifier{what: "the surname of " + e.Name, re: word(surname), lit: surname, name: true})
		}
		if e.INN != "" {
			out = append(out, demoIdentifier{what: "the ИНН of " + e.Name, re: number(e.INN), lit: e.INN})
		}
		if e.KPP != "" {
			out = append(out, demoIdentifier{what: "the КПП of " + e.Name, re: number(e.KPP), lit: e.KPP})
		}
	}
	for _, k := range c.Contracts {
		n := ru.Fold(k.Number)
		out = append(out, demoIdentifier{what: "the contract number " + k.Number, re: regexp.MustCompile(`(^|[^\p{L}\d/-])` + regexp.QuoteMeta(n) + `($|[^\p{L}\d/-])`), lit: n, name: true})
	}
	for _, b := range c.BankAccounts {
		out = append(out, demoIdentifier{what: "the account of " + b.OrgName, re: number(b.Number), lit: b.Number})
	}
	if len(out) < 100 {
		t.Fatalf("only %d identifiers in the demo ledger: the test would prove little", len(out))
	}
	return out
}

// leaks lists the identifiers the recorded requests hold. Each text is checked once: a text
// checked before holds no identifier not already listed, and texts repeat (the planner's second
// attempt resends its prompt, system prompts recur): half the corpus test's 43 MB of requests,
// 2 of its 24 CPU-seconds when they were folded and searched again.
func leaks(ids []demoIdentifier, reqs []fakes.Request) []string {
	var out []string
	seen := map[string]bool{}
	checked := map[string]bool{}
	for _, r := range reqs {
		for _, m := range r.Messages {
			if checked[m.Content] {
				continue
			}
			checked[m.Content] = true
			folded := ru.Fold(m.Content)
			for _, id := range ids {
				text := m.Content
				if id.name {
					text = folded
				}
				if !seen[id.what] && strings.Contains(text, id.lit) && id.re.MatchString(text) {
					seen[id.what] = true
					out = append(out, fmt.Sprintf("%s (a %s call)", id.what, r.Kind))
				}
			}
		}
	}
	return out
}

// sourceRe is the first source of a document answer's prompt.
var sourceRe = regexp.MustCompile(`(?s)Источник \[1\]: [^\n]*\n<<<\n(.*?)\n>>>`)

// echoLLM is the recording stand-in of the corpus test. Its plans are never valid (the parser's
// decision stands, so the answers can be compared with those given without an LLM); an answer
// over documents quotes the first sentence of the first source with its footnote, placeholders
// and all, so that what the anonymiser restores goes through the post-check into the answer;
// anything else is filler.
func echoLLM(t *testing.T) *fakes.LLM {
	return fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(r *fakes.Request) fakes.Reply {
		switch r.Kind {
		case "plan":
			return fakes.Reply{Content: "{}"}
		case "docs":
			m := sourceRe.FindStringSubmatch(r.Last())
			if m == nil {
				return fakes.Reply{Content: "В документах ответа на этот вопрос нет."}
			}
			s := strings.TrimSpace(m[1])
			if i := strings.Index(s, ". "); i > 0 {
				s = s[:i+1]
			}
			return fakes.Reply{Content: s + " [1]"}
		}
		return fakes.Reply{Content: "Готов помочь."}
	}})
}

// anonAgent is the whole agent over the demo ledger whose LLM is rec behind the anonymiser in
// mode, the planner asked of every message; the agent's logs go to logs.
func anonAgent(t *testing.T, rec *fakes.LLM, mode anon.Mode, logs *bytes.Buffer) *Agent {
	t.Helper()
	h := slog.New(slog.NewTextHandler(&lockedWriter{w: logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	g, err := anon.New(anon.Options{Mode: mode, Logger: h})
	if err != nil {
		t.Fatal(err)
	}
	return wholeAgent(t, wiring{now: pipelineNow, llmURL: rec.URL(), guard: g}, func(o *Options) {
		o.forcePlan, o.PlanCacheTTL = true, -1
	})
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// corpusConversation asks the questions of a and plain in conversations of four, so the planner
// also carries the history of answers that name counterparties and figures, and the user owns
// the contract document, so that document questions are answered over its passages. It
// compares each answer of a with plain's: the same kind and scenario, and word for word the
// same where the answer is 1C's or the Bank of Russia's.
func corpusConversation(t *testing.T, a, plain *Agent, qs []string) {
	t.Helper()
	me := Request{UserID: 77, ChatID: 77}
	upload(t, plain, me, "dogovor.pdf", contract())
	upload(t, a, me, "dogovor.pdf", contract())
	for i, q := range qs {
		req := Request{UserID: me.UserID, ChatID: int64(77_000 + i/4)}
		if i%4 == 0 {
			req.ChatID = me.ChatID // the document's own chat now and then
		}
		want := ask(t, plain, req, q)
		got := ask(t, a, req, q)
		w, g := want.Debug.Route, got.Debug.Route
		if w.Kind != g.Kind || w.Scenario != g.Scenario {
			t.Errorf("%q: anonymised %s/%s, without an LLM %s/%s", q, g.Scenario, g.Kind, w.Scenario, w.Kind)
			continue
		}
		if (w.Scenario == OneC || w.Kind == understand.KindRate || w.Kind == understand.KindKeyRate) && got.Text != want.Text {
			t.Errorf("%q: the answer changed with the anonymised LLM:\n%s\n--- without an LLM:\n%s", q, got.Text, want.Text)
		}
	}
}

// TestAnonymisedCorpus runs the whole question corpus (agent/understand's) through the agent
// whose LLM is a recording stand-in behind the anonymiser, the planner asked of every message
// and the answer model of every document question, and finds no catalog name, ИНН, КПП,
// contract or account number of the demo ledger in any request — while every answer is the
// one given without an LLM (the same route; 1C's and the rates' word for word). A planned
// question over 1C facts shows the names restored into an answer that passed the post-check.
func TestAnonymisedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("asks the whole corpus twice")
	}
	ids := demoIdentifiers(t)
	plain := noLLMAgent(t)
	rec := echoLLM(t)
	var logs bytes.Buffer
	a := anonAgent(t, rec, anon.ModeMask, &logs)
	corpusConversation(t, a, plain, corpusQuestions(t))
	if rec.Count("plan") == 0 || rec.Count("docs") == 0 {
		t.Fatalf("the LLM was not asked enough to prove anything: %v", rec.Counts())
	}
	if l := leaks(ids, rec.Requests()); len(l) > 0 {
		t.Errorf("%d identifiers of the demo ledger reached the LLM:\n%s", len(l), strings.Join(l, "\n"))
	}
	t.Logf("mask: %d requests recorded, %v", len(rec.Requests()), rec.Counts())
	if strings.Contains(logs.String(), "9366414049") || strings.Contains(logs.String(), "Альфа") {
		t.Error("the anonymiser's logs hold an identifier")
	}
}

// TestAnonymisedAnswerSet asks the answer set (figures computed independently) of the agent
// behind the anonymiser, the planner forced: it answers as many right as without an LLM, and
// no request holds an identifier.
func TestAnonymisedAnswerSet(t *testing.T) {
	if testing.Short() {
		t.Skip("asks the answer set twice")
	}
	ids := demoIdentifiers(t)
	rec := echoLLM(t)
	var logs bytes.Buffer
	agents := map[string]*Agent{"no LLM": answersAgent(t, ""), "mask": func() *Agent {
		g, _ := anon.New(anon.Options{Mode: anon.ModeMask})
		return wholeAgent(t, wiring{now: answersNow, llmURL: rec.URL(), guard: g}, func(o *Options) { o.forcePlan, o.PlanCacheTTL = true, -1 })
	}()}
	right := map[string]int{}
	for name, a := range agents {
		for i, l := range answerLines(t) {
			ans := ask(t, a, Request{UserID: int64(5000 + i), ChatID: int64(5000 + i)}, l.Q)
			if outcome, why := answerOutcome(l, ans.Text); outcome == "right" {
				right[name]++
			} else if outcome == "wrong" {
				t.Errorf("%s: %q: wrong (%s)", name, l.Q, strings.Join(why, "; "))
			}
		}
	}
	if right["mask"] < right["no LLM"] {
		t.Errorf("the anonymised agent answered %d right, without an LLM %d", right["mask"], right["no LLM"])
	}
	if l := leaks(ids, rec.Requests()); len(l) > 0 {
		t.Errorf("%d identifiers reached the LLM:\n%s", len(l), strings.Join(l, "\n"))
	}
	_ = logs
}

// TestAnonymisedFactsAnswer: a planned question over 1C facts. The planner sees the
// counterparty as a placeholder and writes its plan with it; the plan comes back with the name
// restored (escaped for JSON) and 1C resolves it; the facts — the counterparty, its debt — reach
// the answer model masked, and the model's reply, written in placeholders, comes back with the
// names restored and passes the post-check.
func TestAnonymisedFactsAnswer(t *testing.T) {
	ids := demoIdentifiers(t)
	var mu sync.Mutex
	var factsPrompt string
	placeholder := regexp.MustCompile(`\[КОНТРАГЕНТ_\d+\]`)
	rec := fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(r *fakes.Request) fakes.Reply {
		switch r.Kind {
		case "plan":
			q := r.Last()[strings.LastIndex(r.Last(), "Вопрос пользователя:"):]
			party := placeholder.FindString(q)
			return fakes.Reply{Content: `{"intents":["ledger","key_rate"],"tool_calls":[{"tool":"ledger_query","args":{"recipe":"open_items_by_counterparty",` +
				`"filters":{"as_of_date":"2026-03-31","counterparty":"` + party + `"}}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"2026-03-14"}}],` +
				`"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`}
		case "answer":
			mu.Lock()
			factsPrompt = r.Last()
			mu.Unlock()
			party := placeholder.FindString(r.Last())
			total := regexp.MustCompile(`Итого открыто: ([^;]+?₽)`).FindStringSubmatch(r.Last())
			if total == nil {
				return fakes.Reply{Content: "Готов помочь."}
			}
			return fakes.Reply{Content: "**Открытые позиции**\n\nИтого открыто по ООО «" + party + "»: " + total[1] + " [1]."}
		}
		return fakes.Reply{Content: "Готов помочь."}
	}})
	var logs bytes.Buffer
	a := anonAgent(t, rec, anon.ModeMask, &logs)
	ans := ask(t, a, Request{UserID: 5, ChatID: 5}, "Что по Альфе на 31 марта и какая сейчас ключевая ставка, как это всё связано?")
	if rec.Count("answer") == 0 {
		t.Fatalf("the answer model was not asked: %v\n%s", rec.Counts(), ans.Text)
	}
	if !placeholder.MatchString(factsPrompt) {
		t.Fatalf("the facts reached the model with no placeholder:\n%s", factsPrompt)
	}
	if l := leaks(ids, rec.Requests()); len(l) > 0 {
		t.Errorf("identifiers reached the LLM:\n%s", strings.Join(l, "\n"))
	}
	if strings.Contains(ans.Text, "[КОНТРАГЕНТ_") || !strings.Contains(ans.Text, "Альфа") {
		t.Errorf("the answer does not name the counterparty restored:\n%s", ans.Text)
	}
	if ans.Debug.Plan == nil || ans.Debug.Plan.Answer != "llm" {
		t.Errorf("the model's answer was not used (degraded %v, plan %+v):\n--- facts:\n%s", ans.Debug.Degraded, ans.Debug.Plan, factsPrompt)
	}
}

// TestAnonymiserModes: log sends the identifiers and logs only counts; off sends them and logs
// nothing; block sends none, refusing what masking leaves; every mode answers as without an
// LLM.
func TestAnonymiserModes(t *testing.T) {
	ids := demoIdentifiers(t)
	qs := corpusQuestions(t)
	var sample []string
	for i := 0; i < len(qs); i += 27 { // what each mode does, on every 27th message: the whole corpus is TestAnonymisedCorpus's
		sample = append(sample, qs[i])
	}
	for _, mode := range []anon.Mode{anon.ModeLog, anon.ModeOff, anon.ModeBlock} {
		t.Run(string(mode), func(t *testing.T) {
			plain := noLLMAgent(t) // the same history as the anonymised agent's
			rec := echoLLM(t)
			var logs bytes.Buffer
			a := anonAgent(t, rec, mode, &logs)
			corpusConversation(t, a, plain, sample)
			l := leaks(ids, rec.Requests())
			switch mode {
			case anon.ModeBlock:
				if len(l) > 0 {
					t.Errorf("block sent identifiers:\n%s", strings.Join(l, "\n"))
				}
			default:
				if len(l) == 0 {
					t.Errorf("%s: no identifier reached the stand-in: the leak check proves nothing", mode)
				}
			}
			out := logs.String()
			if mode == anon.ModeLog && !strings.Contains(out, "identifiers sent to the LLM unmasked") {
				t.Error("log mode logged nothing")
			}
			if mode == anon.ModeOff && strings.Contains(out, "anonymiser") {
				t.Error("off mode logged the anonymiser")
			}
			for _, id := range ids {
				if !id.name && id.re.MatchString(out) {
					t.Errorf("%s: the log holds %s", mode, id.what)
				}
			}
			t.Logf("%s: %d requests, %d identifiers sent", mode, len(rec.Requests()), len(l))
		})
	}
}
