package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/internal/fakes"
)

// swapGuard replaces «Альфа» with «[К_1]» on the way out and back on the way in; it refuses a
// text holding «секрет».
type swapGuard struct{ purposes []llm.Purpose }

func (g *swapGuard) Outgoing(_ context.Context, p llm.Purpose, texts []string) ([]string, func(string) (string, error), error) {
	g.purposes = append(g.purposes, p)
	out := make([]string, len(texts))
	for i, t := range texts {
		if strings.Contains(t, "секрет") {
			return nil, nil, errors.New("refused")
		}
		out[i] = strings.ReplaceAll(t, "Альфа", "[К_1]")
	}
	return out, func(reply string) (string, error) {
		if strings.Contains(reply, "[К_9]") {
			return "", errors.New("unknown placeholder")
		}
		return strings.ReplaceAll(reply, "[К_1]", "Альфа"), nil
	}, nil
}

// TestGuardSeesEveryText: a Guard masks what Complete and Stream send and restores what they
// return (a streamed draft never shows half a placeholder); its refusal is ErrUnavailable with
// nothing sent; a reply it cannot restore is ErrBadResponse.
func TestGuardSeesEveryText(t *testing.T) {
	s := fakes.NewTestLLM(t, fakes.LLMOptions{Chunks: 6, Respond: func(r *fakes.Request) fakes.Reply {
		if strings.Contains(r.Last(), "выдумай") {
			return fakes.Reply{Content: "Долг [К_9]."}
		}
		return fakes.Reply{Content: "Долг [К_1] — 100 ₽, у [К_1] всё."}
	}})
	g := &swapGuard{}
	c := llm.New(llm.Options{BaseURL: s.URL(), APIKey: "k", Model: "m", Timeout: 5 * time.Second, Guard: g})
	msgs := []llm.Message{{Role: "system", Content: "Ты про Альфа"}, {Role: "user", Content: "Долг Альфа?"}}

	got, err := c.Complete(t.Context(), msgs, llm.Call{})
	if err != nil || got != "Долг Альфа — 100 ₽, у Альфа всё." {
		t.Fatalf("Complete = %q, %v", got, err)
	}
	var drafts []string
	got, err = c.Stream(t.Context(), msgs, llm.Call{JSON: true}, func(text string) { drafts = append(drafts, text) })
	if err != nil || got != "Долг Альфа — 100 ₽, у Альфа всё." {
		t.Fatalf("Stream = %q, %v", got, err)
	}
	for _, d := range drafts {
		if strings.Contains(d, "[") || strings.Contains(d, "К_") {
			t.Errorf("a draft shows a placeholder: %q", d)
		}
	}
	for _, r := range s.Requests() {
		for _, m := range r.Messages {
			if strings.Contains(m.Content, "Альфа") {
				t.Errorf("the name reached the service: %q", m.Content)
			}
		}
	}
	if len(g.purposes) != 2 || g.purposes[0] != llm.Chat || g.purposes[1] != llm.ChatJSON {
		t.Errorf("purposes = %v, want chat then chat_json", g.purposes)
	}

	before := len(s.Requests())
	if _, err := c.Complete(t.Context(), []llm.Message{{Role: "user", Content: "секрет"}}, llm.Call{}); !errors.Is(err, llm.ErrUnavailable) {
		t.Errorf("a refused request: err = %v, want ErrUnavailable", err)
	}
	if len(s.Requests()) != before {
		t.Error("a refused request was sent")
	}
	if _, err := c.Complete(t.Context(), []llm.Message{{Role: "user", Content: "выдумай"}}, llm.Call{}); !errors.Is(err, llm.ErrBadResponse) {
		t.Errorf("a reply with an unknown placeholder: err = %v, want ErrBadResponse", err)
	}
	if c.State() != "closed" {
		t.Errorf("the guard's refusals moved the breaker to %s", c.State())
	}
}
