// Package prompts holds finbot's LLM prompts as embedded text templates and renders them
// through typed functions, so a renamed field fails loudly and every prompt change shows up as
// a diff of golden files.
package prompts

import (
	"embed"
	"fmt"
	"strings"
	"text/template"
)

//go:embed *.tmpl
var files embed.FS

var templates = template.Must(template.New("").Option("missingkey=error").
	Funcs(template.FuncMap{"data": data}).ParseFS(files, "*.tmpl"))

// data neutralises the delimiters that fence user text in the prompts, so a message cannot
// close its own fence and pose as instructions.
func data(s string) string {
	return strings.NewReplacer("<<<", "‹‹‹", ">>>", "›››").Replace(s)
}

// SmallTalkData fills smalltalk.tmpl: the system prompt of conversational answers.
type SmallTalkData struct {
	Today       string // e.g. "22.11.2026"
	Unavailable string // capabilities not connected yet, comma-separated
}

// SmallTalk renders the system prompt of small-talk answers.
func SmallTalk(d SmallTalkData) (string, error) { return render("smalltalk.tmpl", d) }

// ClarifyData fills clarify.tmpl.
type ClarifyData struct {
	Question string
}

// Clarify renders the prompt that asks the model for one clarifying question.
func Clarify(d ClarifyData) (string, error) { return render("clarify.tmpl", d) }

// DocSource is one numbered source shown to the answering model.
type DocSource struct {
	N     int
	Title string // "Договор поставки № 15, стр. 3"
	Text  string
}

// DocsAnswerData fills docs_answer.tmpl.
type DocsAnswerData struct {
	Question string
	Sources  []DocSource
	// FullText is true when the sources are whole documents (S3), false for passages.
	FullText bool
	// KB is true when the sources are knowledge-base articles.
	KB bool
	// Stricter lists what the post-check refused in the previous attempt; empty on the first.
	Stricter string
}

// DocsAnswer renders the prompt that answers a question only from the given sources.
func DocsAnswer(d DocsAnswerData) (string, error) { return render("docs_answer.tmpl", d) }

// ExpandData fills expand.tmpl.
type ExpandData struct{ Question string }

// Expand renders the prompt that rewrites a question into a few search queries (JSON).
func Expand(d ExpandData) (string, error) { return render("expand.tmpl", d) }

func render(name string, data any) (string, error) {
	var b strings.Builder
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return "", fmt.Errorf("prompts: %s: %w", name, err)
	}
	return b.String(), nil
}

// AnswerData fills answer.tmpl: the answer LLM's prompt over the rendered facts.
type AnswerData struct {
	Question string
	// Summary is the memory gate's summary of the previous turn; empty when none.
	Summary string
	// Context is render.Context of the facts: sections, items with [n] marks, limitations,
	// sources.
	Context  string
	MaxItems int
	// Stricter lists what the post-check refused in the previous attempt; empty on the first.
	Stricter string
}

// Answer renders the prompt that phrases the collected facts as the reply.
func Answer(d AnswerData) (string, error) { return render("answer.tmpl", d) }
