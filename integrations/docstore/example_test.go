package docstore_test

import (
	"context"
	"fmt"
	"time"

	"github.com/finbot/finbot/integrations/docstore"
)

func Example() {
	ctx := context.Background()
	s := docstore.NewMemory() // docstore.NewRedis(rdb, "finbot:") in production

	owner := "u:123" // a user's private documents
	doc := docstore.Doc{
		Meta: docstore.Meta{
			ID: "d1", Title: "Договор аренды", FileName: "arenda.pdf", Format: "pdf",
			SHA256: "9f86d081", UploadedBy: 123, Added: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC),
		},
		Chunks: []docstore.Chunk{{N: 0, Page: 1, Text: "Арендная плата — 50 000 ₽ в месяц."}},
	}
	if _, err := s.FindSHA(ctx, owner, doc.Meta.SHA256); err == nil {
		fmt.Println("already uploaded")
		return
	}
	if err := s.Put(ctx, owner, doc); err != nil {
		fmt.Println(err)
		return
	}
	if err := s.Select(ctx, owner, 123, []string{"d1"}, true); err != nil {
		fmt.Println(err)
		return
	}
	ids, _ := s.Selection(ctx, owner, 123)
	docs, _ := s.Load(ctx, owner, ids)
	for _, d := range docs {
		fmt.Printf("%s: %d chunk(s), %q\n", d.Meta.Title, d.Meta.Chunks, d.Chunks[0].Text)
	}
	// Another owner sees nothing of it.
	_, err := s.Get(ctx, "u:456", "d1")
	fmt.Println(err)
	// Output:
	// Договор аренды: 1 chunk(s), "Арендная плата — 50 000 ₽ в месяц."
	// docstore: document not found: "d1" in "u:456"
}
