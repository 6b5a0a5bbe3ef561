package agent

// The answer LLM over numbered sources: every claim cited, the answer checked, a second try, then refused.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
)

// citation matches the model's footnote marks.
var citation = regexp.MustCompile(`\[(\d{1,2})\]`)

// errAnswerRefused marks an answer the model did give but the checks refused twice: the LLM
// was reached, so the answer is degraded as refused, not as the LLM being unavailable.
var errAnswerRefused = errors.New("answer refused by the checks")

// uncited is the violation of an answer over sources that cites none of them and does not say
// that the sources hold no answer: nothing in it is grounded.
const uncited postcheck.Kind = "uncited"

// sourcesDegraded is the Degraded tag for an answer over sources that the model did not write:
// refused by the checks, or the model could not be reached.
func sourcesDegraded(err error) string {
	if errors.Is(err, errAnswerRefused) {
		return degradedAnswerRefused
	}
	return degradedLLMUnavailable
}

// answerFromSources asks the model and checks its answer: it must be non-empty, cite at least
// one source (or say that the sources hold no answer, as the prompt tells it to) and only
// sources that exist, carry no source list of its own (the code appends it) and pass the
// post-check against the sources (no artifacts, no figure the sources do not hold). A refused
// answer is regenerated once with stricter instructions; a second refusal is errAnswerRefused,
// and the caller answers extractively.
func (a *Agent) answerFromSources(ctx context.Context, d prompts.DocsAnswerData, n int) (string, error) {
	var ref facts.Payload
	for _, s := range d.Sources {
		ref.Items = append(ref.Items, facts.Item{Section: facts.UserDocuments, Title: s.Title, Text: s.Text})
	}
	chk := postcheck.New(ref, d.Question) // the same sources for every attempt and every streamed part
	// A streamed part is shown only if it cites no missing source and passes the post-check;
	// whether it cites at all can be judged only once the answer is whole.
	partOK := func(settled string) bool {
		return len(missingSources(settled, n)) == 0 && chk.CheckPartial(settled) == nil
	}
	var last error
	for range 2 {
		prompt, err := prompts.DocsAnswer(d)
		if err != nil {
			return "", err
		}
		out, err := a.complete(ctx, []llm.Message{{Role: "user", Content: prompt}},
			llm.Call{Model: a.opts.AnswerModel, MaxTokens: 1500, Temperature: a.opts.AnswerTemperature}, partOK)
		if err != nil {
			return "", err
		}
		out = chk.DropForeignLinks(stripSourceList(strings.TrimSpace(out)))
		bad := missingSources(out, n)
		if !citation.MatchString(out) && out != "" && !strings.Contains(strings.ToLower(out), noAnswerPhrase) {
			bad = append(bad, postcheck.Violation{Kind: uncited,
				Detail: "в ответе нет ни одной ссылки на источник — поставь номер источника после каждого утверждения или скажи одной фразой, что ответа в источниках нет"})
		}
		bad = append(bad, chk.Check(out)...)
		if len(bad) == 0 {
			return out, nil
		}
		last = fmt.Errorf("%w: %w: %s: %s", errAnswerRefused, llm.ErrBadResponse, bad[0].Kind, bad[0].Detail)
		a.log.InfoContext(ctx, "document answer refused by the post-check", "violations", len(bad), "first", bad[0].Detail)
		d.Stricter = postcheck.Instructions(bad)
	}
	return "", last
}

// missingSources reports the footnote marks of text that point at none of the n sources.
func missingSources(text string, n int) []postcheck.Violation {
	var bad []postcheck.Violation
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		if k, _ := strconv.Atoi(m[1]); k < 1 || k > n {
			bad = append(bad, postcheck.Violation{Kind: postcheck.Artifact,
				Detail: fmt.Sprintf("ссылка [%d] на источник, которого нет (источников %d)", k, n)})
		}
	}
	return bad
}

// sourceListHeading finds a source list the model wrote despite being told not to.
var sourceListHeading = regexp.MustCompile(`(?im)^\s*(\*\*|#+\s*)?(источники|список источников|sources)\s*:?\s*(\*\*)?\s*$`)

func stripSourceList(s string) string {
	if loc := sourceListHeading.FindStringIndex(s); loc != nil {
		return strings.TrimSpace(s[:loc[0]])
	}
	return s
}

// expand asks the model for a few sub-queries (seed 002 §5.2).
func (a *Agent) expand(ctx context.Context, text string) ([]string, error) {
	prompt, err := prompts.Expand(prompts.ExpandData{Question: text})
	if err != nil {
		return nil, err
	}
	ectx, cancel := context.WithTimeout(ctx, a.opts.RouteTimeout)
	defer cancel()
	out, err := a.llm.Complete(ectx, []llm.Message{{Role: "user", Content: prompt}}, llm.Call{JSON: true, MaxTokens: 200, Temperature: 0.2})
	if err != nil {
		return nil, err
	}
	var r struct {
		Queries []string `json:"queries"`
	}
	if err := json.Unmarshal([]byte(extractJSON(out)), &r); err != nil {
		return nil, fmt.Errorf("%w: expansion is not JSON: %w", llm.ErrBadResponse, err)
	}
	var qs []string
	for _, q := range r.Queries {
		q = strings.TrimSpace(q)
		if q != "" && utf8.RuneCountInString(q) <= 300 && len(qs) < 3 {
			qs = append(qs, q)
		}
	}
	return qs, nil
}
