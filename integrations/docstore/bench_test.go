package docstore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/testredis"
)

// benchDocs returns n documents of chunks chunks each (≈600 runes of
// Russian text per chunk) with vectors of dims floats, or none when dims is 0.
func benchDocs(n, chunks, dims int) []Doc {
	para := strings.Repeat("Счёт-фактура выставляется не позднее пяти календарных дней. ", 10)
	docs := make([]Doc, n)
	for i := range docs {
		d := makeDoc(fmt.Sprintf("doc%03d", i), i, 0, 0)
		d.Meta.Dims = dims
		var text strings.Builder
		for j := range chunks {
			d.Chunks = append(d.Chunks, Chunk{N: j, Page: j/3 + 1, Heading: "Глава 21 НК РФ", Text: para})
			text.WriteString(para)
			if dims > 0 {
				v := make([]float32, dims)
				for k := range v {
					v[k] = float32(i*j+k) / 1000
				}
				d.Vectors = append(d.Vectors, v)
			}
		}
		d.Text = text.String()
		docs[i] = d
	}
	return docs
}

// BenchmarkRedisLoad loads every document of an owner with 200 documents of
// 50 chunks each.
func BenchmarkRedisLoad(b *testing.B) {
	for _, dims := range []int{0, 256} {
		b.Run(fmt.Sprintf("dims=%d", dims), func(b *testing.B) {
			rdb := testredis.Client(b)
			s := NewRedis(rdb, testredis.Prefix(b, rdb))
			benchmarkLoad(b, s, benchDocs(200, 50, dims))
		})
	}
}

func BenchmarkMemoryLoad(b *testing.B) {
	for _, dims := range []int{0, 256} {
		b.Run(fmt.Sprintf("dims=%d", dims), func(b *testing.B) {
			benchmarkLoad(b, NewMemory(), benchDocs(200, 50, dims))
		})
	}
}

func benchmarkLoad(b *testing.B, s store, docs []Doc) {
	ctx := b.Context()
	if err := s.Replace(ctx, "kb", docs); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.Load(ctx, "kb", nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != len(docs) {
			b.Fatalf("loaded %d docs, want %d", len(got), len(docs))
		}
	}
}
