package agent

// The one exit: every answer, whatever produced it, leaves through exit — its footnotes, its
// long buttons kept, its debug payload, the dialog state and the turn appended to the history.
// A check or a reply shape applied here applies to all answers.

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/dialog"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// turn is one message on its way through the agent: what exit needs to settle its answer.
type turn struct {
	req      api.Request
	key      string // the conversation's history key; "" = not remembered
	text     string // the message as understood (a long button's question)
	start    time.Time
	usage    *llm.Usage
	degraded []string // what went wrong before the answer (history unavailable)
}

// exit settles ans as the answer to in and appends the turn to the history.
func (a *Agent) exit(ctx context.Context, in turn, ans api.Answer, hist []history.Turn) (api.Answer, error) {
	if ans.Sources == nil {
		ans.Sources = []api.Source{}
	}
	guard(&ans, in.text)
	a.bindLongButtons(ctx, in.req, &ans)
	r := &ans.Debug.Route
	r.Kind, r.Scenario, r.Recipe = ans.Kind, ans.Scenario, ans.Recipe
	ans.Debug.LLM = a.llm != nil
	ans.Debug.LLMCalls, ans.Debug.PromptTokens, ans.Debug.CompletionTokens = in.usage.Calls(), in.usage.PromptTokens(), in.usage.CompletionTokens()
	ans.Debug.HistoryTurns = len(hist)
	ans.Debug.Degraded = append(in.degraded, ans.Debug.Degraded...)

	if in.key == "" {
		ans.Debug.Elapsed = a.now().Sub(in.start)
		return ans, nil
	}
	out := history.Turn{Role: dialog.Assistant, Text: ans.Text, At: a.now()}
	if ans.State != nil {
		out.State, _ = json.Marshal(ans.State)
	}
	lost, err := a.dialogs.Save(ctx, in.key, dialog.Question(in.req.Command, in.text, in.start), out)
	if err != nil {
		return api.Answer{}, err
	}
	if lost != "" {
		ans.Debug.Degraded = append(ans.Debug.Degraded, lost)
	}
	ans.Debug.Elapsed = a.now().Sub(in.start)
	return ans, nil
}

// maxCaption is Telegram's bound on a photo's or a file's caption.
const maxCaption = 1024

// guard is the last check of every answer, whatever produced it. A link that is none of the
// answer's sources' nor the question's is made unclickable (postcheck.Defang): the model's were
// dropped before, so this catches a quote from an uploaded file or a web page. Captions are
// bounded; the labels a model wrote were bounded where it wrote them (a question button's label
// is its question, kept whole: bindLongButtons).
func guard(ans *api.Answer, question string) {
	allowed := map[string]bool{}
	for _, s := range ans.Sources {
		if s.URL != "" {
			allowed[postcheck.NormalizeLink(s.URL)] = true
		}
	}
	for _, l := range postcheck.Links(question) {
		allowed[l] = true
	}
	ans.Text = postcheck.Defang(ans.Text, allowed)
	// Footnote titles are plain text the bot escapes: the title of a source without an address
	// (a document's: its uploader's file name, possibly stored before titles were defanged at
	// upload) gets its link characters bracketed instead (extract.Defang: «evil-bank[.]ru»). A
	// page's title names its site next to the page's own address.
	if len(ans.Sources) > 0 {
		srcs := slices.Clone(ans.Sources)
		for i := range srcs {
			if srcs[i].URL == "" {
				srcs[i].Title = extract.Defang(srcs[i].Title)
			}
		}
		ans.Sources = srcs
	}
	if ans.Chart != nil {
		c := *ans.Chart
		c.Caption = ru.Truncate(postcheck.Defang(c.Caption, allowed), maxCaption)
		ans.Chart = &c
	}
	if ans.Document != nil {
		d := *ans.Document
		d.Caption = ru.Truncate(postcheck.Defang(d.Caption, allowed), maxCaption)
		ans.Document = &d
	}
	if len(ans.Attachments) > 0 {
		files := slices.Clone(ans.Attachments)
		for i := range files {
			files[i].Caption = ru.Truncate(postcheck.Defang(files[i].Caption, allowed), maxCaption)
		}
		ans.Attachments = files
	}
}

// bindLongButtons gives every question button too long for the callback data a kept question
// instead; when the store fails, such a button is left out.
func (a *Agent) bindLongButtons(ctx context.Context, req api.Request, ans *api.Answer) {
	kept, lost, err := a.long.Bind(ctx, req.ChatID, ans.Buttons)
	ans.Buttons = kept
	if lost {
		a.log.WarnContext(ctx, "question button not kept", "chat_id", req.ChatID, "err", err)
		ans.Debug.Degraded = append(ans.Debug.Degraded, "buttons_not_kept")
	}
}
