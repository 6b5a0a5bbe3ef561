package history

import (
	"strconv"
	"testing"
)

func benchmarkAppendLoad(b *testing.B, s store) {
	ctx := b.Context()
	tr := turn("user", "what is my balance this month?", 1)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		key := "chat:" + strconv.Itoa(i%16)
		i++
		if err := s.Append(ctx, key, tr); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Load(ctx, key); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRedisAppendLoad(b *testing.B) {
	rdb := newRedisClient(b)
	benchmarkAppendLoad(b, NewRedis(rdb, testPrefix(b, rdb), Limits{}))
}

func BenchmarkMemoryAppendLoad(b *testing.B) {
	benchmarkAppendLoad(b, NewMemory(100, Limits{}))
}
