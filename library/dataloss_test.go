package library

import (
	"context"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/internal/testredis"
)

// Redis loses its data (a restart without persistence, FLUSHDB) while a replica holds an
// index of the owner's documents in memory; the owner then uploads again. Nothing from before
// the loss is served as current: the index is rebuilt from what Redis holds now (issue #19).
func TestNothingLostIsServedAfterRedisLosesItsData(t *testing.T) {
	ctx := context.Background()
	rdb := testredis.Client(t)
	prefix := testredis.Prefix(t, rdb)
	// Two replicas: lib writes, reader answers from the index it keeps in memory.
	lib, reader := New(docstore.NewRedis(rdb, prefix), nil, Options{}), New(docstore.NewRedis(rdb, prefix), nil, Options{})
	if _, err := lib.Add(ctx, "u:9", 9, "old.txt", []byte("Акт сверки с ООО «Альфа» на 31.03.2026, сальдо 120 000 руб.")); err != nil {
		t.Fatal(err)
	}
	if ps, _, _ := reader.Search(ctx, "u:9", Query{Text: "акт сверки Альфа"}); len(ps) != 1 {
		t.Fatalf("before the loss: %d passages", len(ps))
	}
	// The loss: every key of this store is gone, as FLUSHDB would leave it.
	keys, err := testredis.Keys(ctx, rdb, prefix)
	if err != nil || len(keys) == 0 {
		t.Fatalf("keys: %v, %v", keys, err)
	}
	for _, k := range keys {
		if err := rdb.Del(ctx, k).Err(); err != nil {
			t.Fatal(err)
		}
	}
	// No search in between: the next write brings the counter back to the number the cached
	// index was built at.
	for i, text := range []string{"Акт сверки с ООО «Бета» на 30.06.2026", "Счёт № 5 для ООО «Гамма»"} {
		if _, err := lib.Add(ctx, "u:9", 9, []string{"new.txt", "bill.txt"}[i], []byte(text)); err != nil {
			t.Fatal(err)
		}
		ps, _, _ := reader.Search(ctx, "u:9", Query{Text: "акт сверки Альфа"})
		for _, p := range ps {
			if strings.Contains(p.Text, "Альфа") {
				t.Errorf("write %d after the loss: the lost document is served: %q", i+1, p.Text)
			}
		}
	}
}
