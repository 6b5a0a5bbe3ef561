// Package phrase is the answer LLM: it may only phrase what the sources hold. Every reply it
// writes is post-checked against the facts or passages it was given, regenerated once with
// stricter instructions when refused, and given up for the deterministic rendering after that;
// while it streams, only text that passed the same check is shown. With no LLM configured
// (Writer.LLM nil) every caller answers deterministically.
package phrase

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/render"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
)

// LLM completes chats. *llm.Client satisfies it.
type LLM interface {
	Complete(ctx context.Context, msgs []llm.Message, call llm.Call) (string, error)
}

// streamer is an LLM that can stream its reply; *llm.Client satisfies it.
type streamer interface {
	Stream(ctx context.Context, msgs []llm.Message, call llm.Call, onDelta func(text string)) (string, error)
}

// Writer phrases answers with the answer LLM. The zero Writer (no LLM) phrases nothing: its
// callers render deterministically.
type Writer struct {
	LLM LLM // nil = no LLM
	// Model and Temperature tune the answer model (ANSWER_MODEL, ANSWER_TEMPERATURE); an empty
	// model is the client's default.
	Model       string
	Temperature float32
	// ExpandTimeout bounds the query expansion of a document search (default 15s).
	ExpandTimeout time.Duration
	Log           *slog.Logger
}

// Enabled reports whether an LLM is configured.
func (w *Writer) Enabled() bool { return w != nil && w.LLM != nil }

func (w *Writer) log() *slog.Logger {
	if w.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return w.Log
}

// Degraded tags of an answer whose LLM text was not used.
const (
	// DegradedLLMUnavailable: the LLM could not be reached or gave no usable reply (an error
	// status, a 200 with an error object, a timeout, a cut stream).
	DegradedLLMUnavailable = "llm_unavailable"
	// DegradedAnswerRefused: the LLM answered, but the post-check refused the answer and its
	// regeneration.
	DegradedAnswerRefused = "answer_llm_refused"
)

// MaxAnswerRunes caps what the answer model may say: four Telegram messages. Answers that
// need more are lists of facts, which the deterministic rendering gives whole.
const MaxAnswerRunes = 16000

// answerMaxTokens bounds the answer over facts.
const answerMaxTokens = 2000

// Facts writes the reply from the facts: the answer LLM's text when it passes the post-check
// (one regeneration with stricter instructions is allowed), else the deterministic rendering.
// how is "llm", "llm_regenerated" or "deterministic"; checks are the refused attempts'
// violations; degraded says why an LLM's text was not used (DegradedAnswerRefused or
// DegradedLLMUnavailable), "" when it was or there is no LLM. progress, when not nil, receives
// the checked text while it streams.
func (w *Writer) Facts(ctx context.Context, progress func(string), question, summary string, f facts.Payload, style render.Style,
	limits render.Limits) (text, how string, checks [][]string, degraded string) {
	fallback := func(why string) (string, string, [][]string, string) {
		return render.Facts(f, style, limits), "deterministic", checks, why
	}
	if !w.Enabled() {
		return fallback("")
	}
	context, _ := render.Context(f, render.DefaultContextChars)
	maxItems := limits.MaxItems
	if maxItems <= 0 {
		maxItems = render.DefaultMaxItems
	}
	chk := postcheck.New(f, question) // the same facts for every attempt and every streamed part
	var stricter string
	for attempt := range 2 {
		prompt, err := prompts.Answer(prompts.AnswerData{Question: question, Summary: summary, Context: context,
			MaxItems: maxItems, Stricter: stricter})
		if err != nil {
			w.log().ErrorContext(ctx, "answer prompt", "err", err)
			return fallback(DegradedLLMUnavailable)
		}
		out, err := w.Complete(ctx, progress, []llm.Message{{Role: "user", Content: prompt}},
			llm.Call{Model: w.Model, Temperature: w.Temperature, MaxTokens: answerMaxTokens},
			func(settled string) bool { return chk.CheckPartial(settled) == nil })
		if err != nil {
			if ctx.Err() == nil {
				w.log().WarnContext(ctx, "answer llm failed; deterministic rendering", "err", err)
			}
			return fallback(DegradedLLMUnavailable)
		}
		// Links the facts do not hold are dropped; what is left must still say something.
		out = chk.DropForeignLinks(StripSourceList(out))
		vs := chk.Check(out)
		if len(vs) == 0 {
			if attempt == 0 {
				return out, "llm", checks, ""
			}
			return out, "llm_regenerated", checks, ""
		}
		var got []string
		for _, v := range vs {
			got = append(got, string(v.Kind)+": "+v.Detail)
		}
		checks = append(checks, got)
		w.log().InfoContext(ctx, "answer refused by the post-check", "attempt", attempt+1, "violations", got)
		stricter = postcheck.Instructions(vs)
	}
	return fallback(DegradedAnswerRefused)
}

// Complete calls the answer LLM, streaming into progress when both sides can.
//
// check, when not nil, gates the stream: the answer's final text is post-checked, so nothing
// of it may be shown before it passes the same check. Each partial text is cut to its settled
// part (postcheck.Settled, after any source list of the model's own is dropped, as the final
// text's is), and that part is shown only if check accepts it; after the first refusal nothing
// more of this call is shown, and the draft keeps the last accepted text until the final answer
// replaces it. With check nil (small talk, which has no post-check) the text is shown as it
// comes.
//
// A reply longer than MaxAnswerRunes is an unusable reply (llm.ErrBadResponse), whatever the
// model was told: the caller answers from the facts, whose rendering is never cut, and a
// stream stops being shown at that length.
func (w *Writer) Complete(ctx context.Context, progress func(string), msgs []llm.Message, call llm.Call,
	check func(settled string) bool) (string, error) {
	s, ok := w.LLM.(streamer)
	var out string
	var err error
	if !ok || progress == nil {
		out, err = w.LLM.Complete(ctx, msgs, call)
	} else {
		onDelta := func(text string) { progress(PlainProgress(text)) }
		if check != nil {
			onDelta = checkedProgress(progress, check)
		}
		capped := func(text string) {
			if len(text) <= MaxAnswerRunes || utf8.RuneCountInString(text) <= MaxAnswerRunes {
				onDelta(text)
			}
		}
		out, err = s.Stream(ctx, msgs, call, capped)
	}
	if err == nil && utf8.RuneCountInString(out) > MaxAnswerRunes {
		return "", fmt.Errorf("%w: a reply of %d characters, over the %d an answer may have", llm.ErrBadResponse,
			utf8.RuneCountInString(out), MaxAnswerRunes)
	}
	return out, err
}

// checkedProgress is the gated onDelta of Complete for one call: it forwards the settled part
// of a partial text while check accepts every settled part so far, and nothing after the
// first refusal. The check reads the whole text with dozens of regular expressions (about 1 ms
// per 1,000 characters), so it does not run for every token: the first settled part is checked
// at once, later ones once they have grown by progressStep bytes or a tenth of their length.
// The checks of one answer then cost about ten final checks, and a long answer's draft still
// moves every few hundred characters. What is forwarded is always exactly what was checked.
func checkedProgress(progress func(string), check func(settled string) bool) func(string) {
	var last string
	refused := false
	return func(text string) {
		if refused {
			return
		}
		settled := postcheck.Settled(StripSourceList(text))
		if settled == "" || last != "" && len(settled)-len(last) < max(progressStep, len(last)/10) {
			return
		}
		if !check(settled) {
			refused = true
			return
		}
		last = settled
		progress(PlainProgress(settled))
	}
}

// progressStep is the least growth, in bytes, of a streamed answer's settled text before it is
// checked and shown again.
const progressStep = 64

// progressMarks are the Markdown marks dropped from the plain text shown while streaming.
var progressMarks = strings.NewReplacer("**", "", "__", "", "`", "", "\\", "")

// PlainProgress turns partial Markdown into the plain text shown while streaming.
func PlainProgress(s string) string { return progressMarks.Replace(s) }

// Citation matches the footnote marks of an answer: [1], [2]…
var Citation = regexp.MustCompile(`\[(\d{1,2})\]`)

// Renumber shifts every footnote mark of text by shift: an answer appended to another keeps
// its footnotes after the other's.
func Renumber(text string, shift int) string {
	return Citation.ReplaceAllStringFunc(text, func(m string) string {
		n, _ := strconv.Atoi(strings.Trim(m, "[]"))
		return fmt.Sprintf("[%d]", n+shift)
	})
}

// sourceListHeading finds a source list the model wrote despite being told not to.
var sourceListHeading = regexp.MustCompile(`(?im)^\s*(\*\*|#+\s*)?(источники|список источников|sources)\s*:?\s*(\*\*)?\s*$`)

// StripSourceList drops a source list the model wrote at the end of its answer: the code
// appends the footnotes itself.
func StripSourceList(s string) string {
	if loc := sourceListHeading.FindStringIndex(s); loc != nil {
		return strings.TrimSpace(s[:loc[0]])
	}
	return s
}

// ExtractJSON tolerates a model that wraps its JSON object in a code fence or prose.
func ExtractJSON(s string) string {
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

// Down reports whether a call to l would fail at once: its breaker is open, or the service
// asked with a 429's Retry-After not to be called yet.
func Down(l LLM) bool {
	if s, ok := l.(interface{ State() string }); ok && s.State() == "open" {
		return true
	}
	r, ok := l.(interface{ RetryAfter() time.Time })
	return ok && !r.RetryAfter().IsZero()
}
