package retrieval

import (
	"math"
	"testing"
)

func hits(ids ...string) []Hit {
	out := make([]Hit, len(ids))
	for i, id := range ids {
		out[i] = Hit{Chunk: Chunk{ID: id, DocID: "d", Text: "text of " + id}, Score: float64(100 - i), Rank: i + 1}
	}
	return out
}

func TestRRF(t *testing.T) {
	type want struct {
		id    string
		score float64
	}
	tests := []struct {
		name  string
		k     int
		lists [][]Hit
		want  []want
	}{
		{"no lists", 60, nil, nil},
		{"empty lists", 60, [][]Hit{{}, nil}, nil},
		{"single list keeps order", 60, [][]Hit{hits("a", "b", "c")},
			[]want{{"a", 1.0 / 61}, {"b", 1.0 / 62}, {"c", 1.0 / 63}}},
		{"k <= 0 means 60", 0, [][]Hit{hits("a")}, []want{{"a", 1.0 / 61}}},
		{"custom k", 1, [][]Hit{hits("a", "b")}, []want{{"a", 1.0 / 2}, {"b", 1.0 / 3}}},
		{"agreement wins", 60, [][]Hit{hits("a", "b", "c"), hits("c", "b", "a")},
			// a: 1/61+1/63, b: 2/62, c: 1/63+1/61 — a and c tie, a was seen first;
			// b's 2/62 is less than 1/61+1/63.
			[]want{{"a", 1.0/61 + 1.0/63}, {"c", 1.0/61 + 1.0/63}, {"b", 2.0 / 62}}},
		{"present in both beats top of one", 60, [][]Hit{hits("a", "b"), hits("c", "b")},
			[]want{{"b", 2.0 / 62}, {"a", 1.0 / 61}, {"c", 1.0 / 61}}},
		{"ties keep first-seen order across lists", 60, [][]Hit{hits("x"), hits("y"), hits("z")},
			[]want{{"x", 1.0 / 61}, {"y", 1.0 / 61}, {"z", 1.0 / 61}}},
		{"duplicates within a list count once at first position", 60, [][]Hit{hits("a", "a", "b")},
			[]want{{"a", 1.0 / 61}, {"b", 1.0 / 63}}},
		{"positions not Rank fields", 60, [][]Hit{{{Chunk: Chunk{ID: "a"}, Rank: 9}, {Chunk: Chunk{ID: "b"}, Rank: 1}}},
			[]want{{"a", 1.0 / 61}, {"b", 1.0 / 62}}},
		{"three lists", 60, [][]Hit{hits("a", "b"), hits("b", "c"), hits("c", "b")},
			[]want{{"b", 1.0/62 + 1.0/61 + 1.0/62}, {"c", 1.0/62 + 1.0/61}, {"a", 1.0 / 61}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := RRF(tt.k, tt.lists...)
			if len(got) != len(tt.want) {
				t.Fatalf("RRF = %v, want %d hits", got, len(tt.want))
			}
			for i, w := range tt.want {
				if got[i].Chunk.ID != w.id || math.Abs(got[i].Score-w.score) > 1e-12 || got[i].Rank != i+1 {
					t.Errorf("hit %d = {%s %.6f rank %d}, want {%s %.6f rank %d}", i, got[i].Chunk.ID, got[i].Score, got[i].Rank, w.id, w.score, i+1)
				}
			}
		})
	}
}

func TestRRFKeepsFirstChunkAndDoesNotMutateInput(t *testing.T) {
	a := hits("a", "b")
	b := []Hit{{Chunk: Chunk{ID: "a", Text: "other copy"}, Score: 7, Rank: 1}}
	got := RRF(60, a, b)
	if got[0].Chunk.Text != "text of a" {
		t.Errorf("kept chunk %q, want the first occurrence", got[0].Chunk.Text)
	}
	if a[0].Score != 100 || a[0].Rank != 1 || b[0].Score != 7 {
		t.Errorf("inputs mutated: %v %v", a, b)
	}
}

func TestRRFFusesSearchResults(t *testing.T) {
	chunks, _ := loadCorpus(t)
	ix := Build(chunks)
	q1 := ix.Search(Query{Text: "какая неустойка за просрочку поставки по договору с Техснабом?", TopK: 10})
	q2 := ix.Search(Query{Text: "пени 0,1% за каждый день просрочки П-15/2025", TopK: 10})
	fused := RRF(0, q1, q2)
	seen := map[string]bool{}
	for i, h := range fused {
		if seen[h.Chunk.ID] {
			t.Fatalf("duplicate %s", h.Chunk.ID)
		}
		seen[h.Chunk.ID] = true
		if i > 0 && h.Score > fused[i-1].Score {
			t.Fatalf("not sorted at %d", i)
		}
	}
	if len(fused) < len(q1) || len(fused) > len(q1)+len(q2) {
		t.Errorf("fused %d hits from %d+%d", len(fused), len(q1), len(q2))
	}
}
