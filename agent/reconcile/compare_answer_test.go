package reconcile

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
)

// fakeActs is OurActs answering from a function; asked records the queries.
type fakeActs struct {
	ActFunc func(ctx context.Context, q ActQuery) (Act, error)
	asked   []ActQuery
}

func (f *fakeActs) Act(ctx context.Context, q ActQuery) (Act, error) {
	f.asked = append(f.asked, q)
	return f.ActFunc(ctx, q)
}

// demoActs builds our act from the demo ledger's raw data, for the organization and the
// counterparty the query names.
func demoActs(t *testing.T) *fakeActs {
	return &fakeActs{ActFunc: func(_ context.Context, q ActQuery) (Act, error) {
		if q.Counterparty.Name != "ООО «Альфа»" && q.Counterparty.INN != "9366414049" {
			return Act{}, &Refusal{Text: "В 1С нет контрагента «" + q.Counterparty.Name + "»."}
		}
		org := q.Organization.INN
		if org == "" {
			org = "1031699119"
		}
		return demoAct(t, org, "ООО «Альфа»", q.From, q.To), nil
	}}
}

func newComparer(acts OurActs, access bool) *Comparer {
	return NewComparer(acts, history.NewMemoryResults(0, 0), ComparerOptions{
		Access:        func(int64, int64) bool { return access },
		Organizations: func(context.Context, int64, int64) []Party { return ourOrgs },
		Now:           testNow,
	})
}

var asker = skill.Query{UserID: 7, ChatID: 7}

// TestComparerUpload: an uploaded act is compared at once — the answer lists the differences
// with the file of the matched table, our act asked for the organization, counterparty and
// period the act names.
func TestComparerUpload(t *testing.T) {
	acts := demoActs(t)
	c := newComparer(acts, true)
	rep, ok, err := c.Received(t.Context(), asker, "u7", "doc1", "alfa_bp.pdf", readFixture(t, fxBP), true)
	if err != nil || !ok {
		t.Fatalf("Received: ok %v, err %v", ok, err)
	}
	if len(acts.asked) != 1 {
		t.Fatalf("our act asked %d times", len(acts.asked))
	}
	q := acts.asked[0]
	if q.Counterparty.Name != "ООО «Альфа»" || q.Organization.INN != "1031699119" || !q.From.Equal(q1From) || !q.To.Equal(q1To) || q.UserID != 7 {
		t.Errorf("asked %+v", q)
	}
	if !strings.HasPrefix(rep.Text, "**Сверка с ООО «Альфа» за 01.01.2026 – 31.03.2026: 4 расхождения** [1][2]") {
		t.Errorf("text:\n%s", rep.Text)
	}
	if len(rep.Sources) != 2 || rep.Sources[0].Title != "Акт контрагента: «alfa_bp.pdf»" || !strings.HasPrefix(rep.Sources[1].Title, "1С: акт сверки с ООО «Альфа»") {
		t.Errorf("sources %+v", rep.Sources)
	}
	if rep.Document == nil || !strings.HasSuffix(rep.Document.Name, ".xlsx") || len(rep.Document.Bytes) == 0 {
		t.Errorf("document %+v", rep.Document)
	}
}

// TestComparerReply: an act uploaded with a caption is kept, not compared; «сверь» over it (a
// reply to its receipt, or the caption) is claimed and compares it.
func TestComparerReply(t *testing.T) {
	acts := demoActs(t)
	c := newComparer(acts, true)
	if _, ok, err := c.Received(t.Context(), asker, "u7", "doc2", "alfa_handmade.xlsx", readFixture(t, fxHandmade), false); ok || err != nil {
		t.Fatalf("Received without comparing: ok %v, err %v", ok, err)
	}
	if len(acts.asked) != 0 {
		t.Fatalf("our act asked before «сверь»")
	}
	q := asker
	q.Text = "сверь"
	q.Decision = understand.Decision{Kind: understand.KindDocs, Reconcile: true}
	q.Docs = skill.Docs{Owner: "u7", Selected: []docstore.Meta{{ID: "doc2", Title: "Акт"}}}
	if _, ok := c.Claims(q); !ok {
		t.Fatal("«сверь» over an uploaded act not claimed")
	}
	rep, err := c.Answer(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Text, "3 расхождения") || !strings.Contains(rep.Text, "= 27\u00a0000,00\u00a0₽ (начальное сальдо)") {
		t.Errorf("text:\n%s", rep.Text)
	}
	q.Decision.Reconcile = false
	if _, ok := c.Claims(q); ok {
		t.Error("a question that asks no comparison claimed")
	}
	q.Decision.Reconcile = true
	q.Docs.Selected[0].ID = "doc9"
	rep, err = c.Answer(t.Context(), q)
	if err != nil || !strings.Contains(rep.Text, "не прочитал как акт сверки") {
		t.Errorf("a document never read as an act: %v\n%s", err, rep.Text)
	}
}

// TestComparerRefusals: what stops a comparison is said — no access to 1C, an act it cannot
// read, a counterparty 1C does not know, our act not built in this installation — and a file
// that is no act is left to the documents.
func TestComparerRefusals(t *testing.T) {
	t.Run("no access", func(t *testing.T) {
		c := newComparer(demoActs(t), false)
		if _, ok, err := c.Received(t.Context(), asker, "u7", "d", "a.pdf", readFixture(t, fxBP), true); ok || err != nil {
			t.Errorf("ok %v, err %v", ok, err)
		}
		q := asker
		q.Docs = skill.Docs{Owner: "u7", Selected: []docstore.Meta{{ID: "d"}}}
		if rep, _ := c.Answer(t.Context(), q); !strings.Contains(rep.Text, "доступ к 1С") {
			t.Errorf("text %q", rep.Text)
		}
	})
	t.Run("not an act", func(t *testing.T) {
		c := newComparer(demoActs(t), true)
		if _, ok, err := c.Received(t.Context(), asker, "u7", "d", "a.xlsx", sheet([]string{"Счёт № 5"}), true); ok || err != nil {
			t.Errorf("ok %v, err %v", ok, err)
		}
	})
	for _, tt := range []struct {
		name string
		acts OurActs
		file string
		data []byte
		says string
	}{
		{"unreadable", demoActs(t), "a.xlsx", readFixture(t, fxNoHeader), "акт сверки, но сверить его не получится. Не нашёл в акте строку заголовка"},
		{"unknown counterparty", &fakeActs{ActFunc: func(context.Context, ActQuery) (Act, error) {
			return Act{}, &Refusal{Text: "В 1С нет контрагента с ИНН 9366414049."}
		}}, "alfa.pdf", readFixture(t, fxBP), "Сверить с нашими данными пока не могу: в 1С нет контрагента с ИНН 9366414049."},
		{"not connected", nil, "alfa.pdf", readFixture(t, fxBP),
			"«alfa\\.pdf» — акт сверки с ООО «Альфа» за 01.01.2026 – 31.03.2026 [1]. По их данным: 9 документов"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newComparer(tt.acts, true)
			rep, ok, err := c.Received(t.Context(), asker, "u7", "d", tt.file, tt.data, true)
			if err != nil || !ok || !strings.Contains(rep.Text, tt.says) {
				t.Errorf("ok %v, err %v, text:\n%s\nwant it to say %q", ok, err, rep.Text, tt.says)
			}
		})
	}
	t.Run("source down", func(t *testing.T) {
		down := errors.New("proxy down")
		c := newComparer(&fakeActs{ActFunc: func(context.Context, ActQuery) (Act, error) { return Act{}, down }}, true)
		if _, _, err := c.Received(t.Context(), asker, "u7", "d", "alfa.pdf", readFixture(t, fxBP), true); !errors.Is(err, down) {
			t.Errorf("err %v", err)
		}
	})
}
