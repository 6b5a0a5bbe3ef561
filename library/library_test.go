package library

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/docstore"
)

// corpusDir is the retrieval evaluation corpus: synthetic documents of ООО «Финвектор» and
// the questions that each have one answering passage.
const corpusDir = "retrieval/testdata"

type question struct {
	Question string `json:"question"`
	Doc      string `json:"doc"`
	Passage  string `json:"passage"`
}

// loadCorpus adds every corpus document through the real upload path (extraction, chunking,
// storage) and returns the library, the owner and the document ids by file name.
func loadCorpus(t testing.TB) (*Library, string, map[string]string, []question) {
	t.Helper()
	lib := New(docstore.NewMemory(), nil, Options{})
	const owner = "u:1"
	files, err := filepath.Glob(filepath.Join(corpusDir, "corpus", "*.md"))
	if err != nil || len(files) == 0 {
		t.Fatalf("corpus: %v (%d files)", err, len(files))
	}
	ids := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		added, err := lib.Add(context.Background(), owner, 1, filepath.Base(f), data)
		if err != nil {
			t.Fatalf("add %s: %v", f, err)
		}
		ids[strings.TrimSuffix(filepath.Base(f), ".md")] = added.Meta.ID
	}
	raw, err := os.ReadFile(filepath.Join(corpusDir, "questions.json"))
	if err != nil {
		t.Fatal(err)
	}
	var qs []question
	if err := json.Unmarshal(raw, &qs); err != nil {
		t.Fatal(err)
	}
	return lib, owner, ids, qs
}

// TestRecallThroughTheLibrary measures recall@5 of the whole document path (extraction,
// chunker, storage, index, relevance floor) on the shipped question set.
func TestRecallThroughTheLibrary(t *testing.T) {
	lib, owner, ids, qs := loadCorpus(t)
	if len(qs) < 40 {
		t.Fatalf("%d questions; the set must have at least 40", len(qs))
	}
	hits := 0
	for _, q := range qs {
		ps, _, err := lib.Search(context.Background(), owner, Query{Text: q.Question, TopK: 5})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, p := range ps {
			if p.DocID == ids[q.Doc] && strings.Contains(normalizeSpace(p.Text), normalizeSpace(q.Passage)) {
				found = true
				break
			}
		}
		if found {
			hits++
		} else {
			t.Logf("miss: %q", q.Question)
		}
	}
	recall := float64(hits) / float64(len(qs))
	t.Logf("recall@5 through the library: %.3f (%d of %d)", recall, hits, len(qs))
	if recall < 0.8 {
		t.Errorf("recall@5 = %.3f, want at least 0.80", recall)
	}
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// Off-topic questions find nothing: the relevance floor keeps the bot from quoting a random
// clause as an answer.
func TestNothingRelevant(t *testing.T) {
	lib, owner, _, _ := loadCorpus(t)
	for _, q := range []string{
		"рецепт борща с пампушками",
		"какая погода в Сочи в августе",
		"кто выиграл чемпионат мира по футболу",
	} {
		ps, _, err := lib.Search(context.Background(), owner, Query{Text: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) > 0 {
			t.Errorf("%q found %d passages, first %q", q, len(ps), ps[0].Text)
		}
	}
}

func TestRestrictedToSelectedDocuments(t *testing.T) {
	lib, owner, ids, _ := loadCorpus(t)
	only := ids["dogovor-arendy"]
	ps, _, err := lib.Search(context.Background(), owner, Query{Text: "срок оплаты по договору", DocIDs: []string{only}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 {
		t.Fatal("nothing found in the selected document")
	}
	for _, p := range ps {
		if p.DocID != only {
			t.Errorf("passage of %s outside the selection", p.DocID)
		}
	}
}

// fakeEmbedder maps texts to vectors by keywords, so dense search is deterministic.
type fakeEmbedder struct {
	fail  bool
	calls int
}

func (f *fakeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	f.calls++
	if f.fail {
		return nil, errors.New("embeddings: 503")
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		t = strings.ToLower(t)
		out[i] = []float32{0.01, b(strings.Contains(t, "аренд") || strings.Contains(t, "помещени") || strings.Contains(t, "офис")),
			b(strings.Contains(t, "штраф") || strings.Contains(t, "пени") || strings.Contains(t, "неустойк"))}
	}
	return out, nil
}

func b(v bool) float32 {
	if v {
		return 1
	}
	return 0
}

// Dense vectors are stored with the chunks and fused with BM25; when the embeddings service
// fails at query time, lexical search still answers.
func TestDenseAndLexicalFallback(t *testing.T) {
	emb := &fakeEmbedder{}
	store := docstore.NewMemory()
	lib := New(store, emb, Options{})
	ctx := context.Background()
	added, err := lib.Add(ctx, "u:5", 5, "arenda.txt", []byte("Договор аренды офиса\n\nАрендная плата вносится ежемесячно до 5 числа."))
	if err != nil {
		t.Fatal(err)
	}
	if added.Meta.Dims != 3 {
		t.Fatalf("dims = %d, want 3 (vectors stored)", added.Meta.Dims)
	}
	// «помещение» shares no stem with the text; only the vectors connect them.
	ps, info, err := lib.Search(ctx, "u:5", Query{Text: "помещение"})
	if err != nil {
		t.Fatal(err)
	}
	if !info.Dense || len(ps) == 0 {
		t.Errorf("dense search: info %+v, %d passages", info, len(ps))
	}
	emb.fail = true
	ps, info, err = lib.Search(ctx, "u:5", Query{Text: "арендная плата"})
	if err != nil || len(ps) == 0 || info.Dense || len(info.Degraded) == 0 {
		t.Errorf("with embeddings down: %d passages, info %+v, err %v", len(ps), info, err)
	}
}

// Another replica's change (a new version in the store) is seen by the next search.
func TestIndexFollowsTheStoreVersion(t *testing.T) {
	store := docstore.NewMemory()
	a, b := New(store, nil, Options{}), New(store, nil, Options{})
	ctx := context.Background()
	if _, err := a.Add(ctx, "u:7", 7, "one.txt", []byte("Акт сверки с ООО «Альфа» на 31.03.2026")); err != nil {
		t.Fatal(err)
	}
	if ps, _, _ := b.Search(ctx, "u:7", Query{Text: "акт сверки Альфа"}); len(ps) != 1 {
		t.Fatalf("replica b sees %d passages", len(ps))
	}
	if _, err := a.Add(ctx, "u:7", 7, "two.txt", []byte("Акт сверки с ООО «Бета» на 30.06.2026")); err != nil {
		t.Fatal(err)
	}
	if ps, _, _ := b.Search(ctx, "u:7", Query{Text: "акт сверки Бета"}); len(ps) == 0 || !strings.Contains(ps[0].Text, "Бета") {
		t.Errorf("replica b missed the new document: %+v", ps)
	}
}

func TestExcerpt(t *testing.T) {
	text := "1. Общие положения. Договор вступает в силу с даты подписания. 2. Оплата. Покупатель оплачивает товар в течение 20 банковских дней. " +
		"3. Ответственность. За просрочку оплаты начисляются пени 0,1% в день. 4. Прочее. Споры рассматриваются в Арбитражном суде г. Москвы."
	got := Excerpt(text, "какие пени за просрочку", 80)
	if !strings.Contains(got, "пени 0,1%") || len([]rune(got)) > 82 {
		t.Errorf("Excerpt = %q", got)
	}
	if got := Excerpt("коротко", "что", 80); got != "коротко" {
		t.Errorf("short text = %q", got)
	}
}

func TestPlainText(t *testing.T) {
	in := "## Ставки\n\n- **22%** — общая ставка;\n- 10% — `льготная`.\n> цитата\nобычный_текст"
	want := "Ставки\n\n• 22% — общая ставка;\n• 10% — льготная.\nцитата\nобычный_текст"
	if got := PlainText(in); got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
}

// A document stored before embeddings were configured gets vectors when sent again.
func TestResendAddsVectors(t *testing.T) {
	store := docstore.NewMemory()
	ctx := context.Background()
	data := []byte("Договор аренды офиса\n\nАрендная плата вносится ежемесячно до 5 числа.")
	first, err := New(store, nil, Options{}).Add(ctx, "u:8", 8, "a.txt", data)
	if err != nil || first.Meta.Dims != 0 {
		t.Fatalf("first add: %+v %v", first, err)
	}
	again, err := New(store, &fakeEmbedder{}, Options{}).Add(ctx, "u:8", 8, "a.txt", data)
	if err != nil || !again.Duplicate || again.Meta.Dims != 3 || again.Meta.ID != first.Meta.ID {
		t.Errorf("resend with embeddings: %+v %v", again, err)
	}
}
