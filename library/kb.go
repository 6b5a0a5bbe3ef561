package library

import (
	"context"
	"fmt"
	"time"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library/extract"
)

// KBOwner is the owner of the shared, read-only knowledge base. Users' owners are "u:<id>" and
// groups' "g:<id>", so no user action can ever address it.
const KBOwner = "kb"

// Entry is a text the library is given whole rather than as a file: a knowledge-base article
// (agent/kb reads them from its CSV format).
type Entry struct {
	ID, Title string
	Content   string // Markdown body
	// Topic, Jurisdiction and Updated are metadata the answer cites, not text to quote.
	Topic, Jurisdiction string
	Updated             time.Time
}

// Ingest makes entries the whole content of owner (the knowledge base): each becomes one
// Markdown document, chunked and, with an embedder, embedded. The replacement is atomic:
// readers see the old set or the new one.
func (l *Library) Ingest(ctx context.Context, owner string, articles []Entry) (chunks int, degraded []string, err error) {
	docs := make([]docstore.Doc, 0, len(articles))
	for _, a := range articles {
		d, err := l.articleDoc(ctx, a)
		if err != nil {
			return 0, nil, fmt.Errorf("docs: article %q: %w", a.Title, err)
		}
		docs = append(docs, d)
		chunks += len(d.Chunks)
	}
	if l.emb != nil {
		for i := range docs {
			vecs, err := l.emb.Embed(ctx, embedTexts(docs[i].Meta.Title, docs[i].Chunks))
			if err != nil {
				if ctx.Err() != nil {
					return 0, nil, ctx.Err()
				}
				degraded = []string{"embeddings_unavailable"}
				for j := range docs {
					docs[j].Vectors, docs[j].Meta.Dims = nil, 0
				}
				break
			}
			docs[i].Vectors, docs[i].Meta.Dims = vecs, len(vecs[0])
		}
	}
	if err := l.store.Replace(ctx, owner, docs); err != nil {
		return 0, nil, fmt.Errorf("docs: replace %s: %w", owner, err)
	}
	l.cache.remove(owner)
	return chunks, degraded, nil
}

// articleDoc turns an entry into a stored document.
func (l *Library) articleDoc(ctx context.Context, a Entry) (docstore.Doc, error) {
	// Indexed and quoted: the title and the body. Topic, jurisdiction and date are metadata
	// the answer cites, not text to quote.
	text := "# " + a.Title + "\n\n" + a.Content
	doc, err := extract.Extract(ctx, a.ID+".md", []byte(text), l.opts.Limits)
	if err != nil {
		return docstore.Doc{}, err
	}
	parts := extract.Chunks(doc, l.opts.Chunking)
	chunks := make([]docstore.Chunk, len(parts))
	for i, p := range parts {
		chunks[i] = docstore.Chunk{N: i, Page: 0, Heading: p.Heading, Text: p.Text}
	}
	meta := docstore.Meta{
		ID: a.ID, Title: a.Title, FileName: a.ID + ".md", Format: "kb", Pages: 1, Chars: doc.Chars,
		Chunks: len(chunks), Bytes: int64(len(text)), Topic: a.Topic, Jurisdiction: a.Jurisdiction,
		Updated: a.Updated, Added: time.Time{},
	}
	return docstore.Doc{Meta: meta, Chunks: chunks, Text: doc.Text()}, nil
}
