package agent

// Answers from the company knowledge base, behind the relevance gate.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/library"
)

// withKB follows an answer about the user's documents with what the knowledge base says, its
// footnotes numbered after the answer's own.
func (a *Agent) withKB(ctx context.Context, req Request, ans Answer, question string) (Answer, error) {
	// The question asks for a standard clause (library.TopicOf): a question about rules, whatever
	// the parser made of it beside the user's documents.
	kbAns, err := a.kbAnswer(context.WithValue(ctx, rulesQuestionKey{}, true), req, question)
	if err != nil || len(kbAns.Sources) == 0 {
		return ans, err
	}
	shift := len(ans.Sources)
	kbAns.Text = citation.ReplaceAllStringFunc(kbAns.Text, func(m string) string {
		n, _ := strconv.Atoi(strings.Trim(m, "[]"))
		return fmt.Sprintf("[%d]", n+shift)
	})
	ans.Text += "\n\n" + kbAns.Text
	ans.Sources = append(ans.Sources, kbAns.Sources...)
	ans.Debug.Docs, ans.Debug.Degraded = kbAns.Debug.Docs, append(ans.Debug.Degraded, kbAns.Debug.Degraded...)
	return ans, nil
}

// noAnswerPhrase is what the answer prompt tells the model to say when the sources are silent.
const noAnswerPhrase = "ответа на этот вопрос нет"

// kbAnswer answers from the shared knowledge base, with the passages that pass its answer
// gate (kbGate); when none does, it says what was not understood and offers the likeliest
// readings (kbRefusal) instead of an article on something else.
func (a *Agent) kbAnswer(ctx context.Context, req Request, text string) (Answer, error) {
	if a.kb == nil {
		return Answer{Text: "Корпоративная база знаний в этой установке не подключена."}, nil
	}
	d := a.understand(ctx, req, text, docScope{})
	dbg := &DocsDebug{Owner: library.KBOwner, Gate: kbGate(d)}
	if rules, _ := ctx.Value(rulesQuestionKey{}).(bool); rules {
		dbg.Gate = library.KBMinEvidenceRules
	}
	ans, err := a.passageAnswer(ctx, a.kb, library.KBOwner, nil, text, true, dbg.Gate, dbg)
	if err != nil {
		return Answer{}, err
	}
	if len(dbg.Passages) == 0 || dbg.Unanswered {
		degraded := ans.Debug.Degraded
		ans = a.kbRefusal(ctx, req, text, d)
		ans.Debug.Degraded = degraded
	}
	ans.Debug.Docs = dbg
	return ans, nil
}

// rulesQuestionKey marks a knowledge-base search for a question known to be about rules (a
// contract's standard clause the user's documents lack): it needs the rules question's evidence.
type rulesQuestionKey struct{}

// kbGate is the evidence a knowledge-base passage needs to answer a message the parser read as
// d: less for what it recognised as a question about rules (library.KBMinEvidenceRules), more
// for anything else (library.KBMinEvidence) — a message nothing in it was understood, a 1C
// question the planner sent to the knowledge base, a query the planner wrote.
func kbGate(d understand.Decision) float64 {
	if d.Kind == understand.KindKB && d.Sure {
		return library.KBMinEvidenceRules
	}
	return library.KBMinEvidence
}

// queryGate is kbGate of a query the planner wrote, read as the parser reads a message.
func (a *Agent) queryGate(query string) float64 {
	return kbGate(a.parser.Parse(understand.Input{Text: query, Now: a.now()}))
}
