package news

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/ru"
)

// web is a search engine of one answer, or of one error.
type web struct {
	asked []tavily.Query
	err   error
}

func (w *web) Configured() bool { return true }

func (w *web) Search(_ context.Context, q tavily.Query) (tavily.Response, error) {
	w.asked = append(w.asked, q)
	if w.err != nil {
		return tavily.Response{}, w.err
	}
	return tavily.Response{Results: []tavily.Result{{Title: "ФНС разъяснила порядок уплаты НДС", URL: "https://www.nalog.gov.ru/rn77/news/1/",
		Content: "Налоговая служба  разъяснила\nпорядок.", PublishedDate: "2026-03-12"}}}, nil
}

func now() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, ru.Moscow) }

func TestQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"новости", ""},
		{"последние новости про НДС", "НДС"},
		{"что нового по УСН?", "УСН"},
		{"Новости: ключевая ставка", "ключевая ставка"},
	}
	for _, tt := range tests {
		if got := Query(tt.in); got != tt.want {
			t.Errorf("Query(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// One search is read two ways, and both cite the same page.
func TestSearchReadTwoWays(t *testing.T) {
	w := &web{}
	f := New(w, Options{Now: now}).Search(t.Context(), Request{Query: "НДС", UserID: 7, Question: "новости про НДС за март"})
	if len(w.asked) != 1 || w.asked[0].StartDate != "2026-03-01" || w.asked[0].MaxResults != 5 || w.asked[0].UserID != 7 {
		t.Errorf("asked %+v, want one search of March, five results, for user 7", w.asked)
	}
	r := f.Reply()
	if want := `1. ФНС разъяснила порядок уплаты НДС (12.03.2026) — Налоговая служба разъяснила порядок\. [1]`; !strings.Contains(r.Text, want) {
		t.Errorf("Reply text lacks %q:\n%s", want, r.Text)
	}
	p, err := f.Facts()
	if err != nil {
		t.Fatalf("Facts() error: %v", err)
	}
	if len(p.Items) != 1 || len(p.Sources) != 1 || len(r.Sources) != 1 || p.Sources[0] != r.Sources[0] {
		t.Errorf("Facts %+v and reply sources %+v, want one item citing the reply's page", p, r.Sources)
	}
}

func TestFetch(t *testing.T) {
	if _, err := New(&web{}, Options{Now: now}).Fetch(t.Context(), 1, "", plan.FetchFinanceNewsArgs{Query: " "}); !errors.Is(err, skill.ErrArgs) {
		t.Errorf("empty query: error %v, want skill.ErrArgs", err)
	}
	_, err := New(&web{err: tavily.ErrQuota}, Options{Now: now}).Fetch(t.Context(), 1, "", plan.FetchFinanceNewsArgs{Query: "НДС"})
	if !errors.Is(err, skill.ErrUnavailable) || !errors.Is(err, tavily.ErrQuota) {
		t.Errorf("quota: error %v, want skill.ErrUnavailable wrapping tavily.ErrQuota", err)
	}
}

// The planner's query is searched, never shown: a query carrying a link, a figure and a name
// the user never wrote does not become the heading.
func TestPlannedQueryIsNotTheHeading(t *testing.T) {
	w := &web{}
	p := plan.QueryPlan{ToolCalls: []plan.ToolCall{{Tool: plan.ToolFetchFinanceNews,
		Args: []byte(`{"query":"НДС ставка 99,99% оплата evil-bank.ru/pay ООО «Фишинг»"}`)}}}
	for _, tt := range []struct{ text, heading string }{
		{"что нового по НДС", "**Новости: НДС**"},
		{"что нового?", "**Новости: по вашему вопросу**"},
	} {
		r, err := New(w, Options{Now: now}).Answer(t.Context(), skill.Query{UserID: 1, Text: tt.text, Plan: &p})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r.Text, tt.heading) || strings.Contains(r.Text, "evil") || strings.Contains(r.Text, "99,99") || strings.Contains(r.Text, "Фишинг") {
			t.Errorf("%q: reply\n%s", tt.text, r.Text)
		}
		if got := w.asked[len(w.asked)-1].Text; !strings.Contains(got, "НДС") {
			t.Errorf("%q: searched %q, want the planner's query", tt.text, got)
		}
	}
}
