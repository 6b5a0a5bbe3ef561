package phrase

// The answer LLM over numbered sources (documents, knowledge-base articles): every claim cited,
// the answer checked, a second try, then refused.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
)

// NoAnswerPhrase is what the answer prompt tells the model to say when the sources are silent.
const NoAnswerPhrase = "ответа на этот вопрос нет"

// ErrRefused marks an answer the model did give but the checks refused twice: the LLM was
// reached, so the answer is degraded as refused, not as the LLM being unavailable.
var ErrRefused = errors.New("answer refused by the checks")

// uncited is the violation of an answer over sources that cites none of them and does not say
// that the sources hold no answer: nothing in it is grounded.
const uncited postcheck.Kind = "uncited"

// SourcesDegraded is the Degraded tag for an answer over sources that the model did not write:
// refused by the checks, or the model could not be reached.
func SourcesDegraded(err error) string {
	if errors.Is(err, ErrRefused) {
		return DegradedAnswerRefused
	}
	return DegradedLLMUnavailable
}

// OverSources asks the model and checks its answer: it must be non-empty, cite at least one
// source (or say that the sources hold no answer, as the prompt tells it to) and only sources
// that exist, carry no source list of its own (the code appends it) and pass the post-check
// against the sources (no artifacts, no figure the sources do not hold). A refused answer is
// regenerated once with stricter instructions; a second refusal is ErrRefused, and the caller
// answers extractively.
func (w *Writer) OverSources(ctx context.Context, progress func(string), d prompts.DocsAnswerData, n int) (string, error) {
	var ref facts.Payload
	// Each passage is a fact of its source (a document or an article may give several), so
	// that a claim is checked against the source its mark cites.
	ref.Sources = make([]facts.Source, n)
	section, kind := facts.UserDocuments, "passage"
	if d.KB {
		section, kind = facts.KnowledgeBase, "kb_article"
	}
	for _, s := range d.Sources {
		if s.N >= 1 && s.N <= n {
			ref.Sources[s.N-1].Title = s.Title
		}
		ref.Items = append(ref.Items, facts.Item{Section: section, Kind: kind, Title: s.Title, Text: s.Text, Source: s.N})
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
		out, err := w.Complete(ctx, progress, []llm.Message{{Role: "user", Content: prompt}},
			llm.Call{Model: w.Model, MaxTokens: 1500, Temperature: w.Temperature}, partOK)
		if err != nil {
			return "", err
		}
		out = chk.DropForeignLinks(StripSourceList(strings.TrimSpace(out)))
		bad := missingSources(out, n)
		if !Citation.MatchString(out) && out != "" && !strings.Contains(strings.ToLower(out), NoAnswerPhrase) {
			bad = append(bad, postcheck.Violation{Kind: uncited,
				Detail: "в ответе нет ни одной ссылки на источник — поставь номер источника после каждого утверждения или скажи одной фразой, что ответа в источниках нет"})
		}
		bad = append(bad, chk.Check(out)...)
		if len(bad) == 0 {
			return out, nil
		}
		var why []string
		for _, v := range bad {
			why = append(why, string(v.Kind)+": "+v.Detail)
		}
		last = fmt.Errorf("%w: %w: %s", ErrRefused, llm.ErrBadResponse, strings.Join(why, "; "))
		w.log().InfoContext(ctx, "document answer refused by the post-check", "violations", len(bad), "first", bad[0].Detail)
		d.Stricter = postcheck.Instructions(bad)
	}
	return "", last
}

// missingSources reports the footnote marks of text that point at none of the n sources.
func missingSources(text string, n int) []postcheck.Violation {
	var bad []postcheck.Violation
	for _, m := range Citation.FindAllStringSubmatch(text, -1) {
		if k, _ := strconv.Atoi(m[1]); k < 1 || k > n {
			bad = append(bad, postcheck.Violation{Kind: postcheck.Artifact,
				Detail: fmt.Sprintf("ссылка [%d] на источник, которого нет (источников %d)", k, n)})
		}
	}
	return bad
}

// Expand asks the model for a few sub-queries of a document search.
func (w *Writer) Expand(ctx context.Context, text string) ([]string, error) {
	prompt, err := prompts.Expand(prompts.ExpandData{Question: text})
	if err != nil {
		return nil, err
	}
	timeout := w.ExpandTimeout
	if timeout <= 0 {
		timeout = 15 * time.Second
	}
	ectx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	out, err := w.LLM.Complete(ectx, []llm.Message{{Role: "user", Content: prompt}}, llm.Call{JSON: true, MaxTokens: 200, Temperature: 0.2})
	if err != nil {
		return nil, err
	}
	var r struct {
		Queries []string `json:"queries"`
	}
	if err := json.Unmarshal([]byte(ExtractJSON(out)), &r); err != nil {
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
