package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// kbOptions are the knowledge base's library limits: one owner, the company, with every
// article, whose index is as large as the articles make it; it is built within the memory
// the users' builds share.
func (a *App) kbOptions() library.Options {
	return library.Options{Logger: a.log, MaxDocs: 1_000_000, MaxChars: 2_000_000_000, MaxIndexBytes: 1 << 40,
		Limits: extract.Limits{Slots: a.extracts}, Builds: a.builds}
}

// knowledgeBase returns the library of the company knowledge base: the one ingested into Redis
// (`finbot kb ingest`) if there is one, otherwise KB_CSV or the embedded sample, held in
// memory; and where it came from, for the status lines.
func (a *App) knowledgeBase(ctx context.Context) (*library.Library, string, error) {
	if a.durableDocs {
		lctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		have, err := a.store.List(lctx, library.KBOwner)
		cancel()
		switch {
		case err != nil:
			a.log.Warn("cannot read the knowledge base from redis; using the built-in one", "err", err)
		case len(have) > 0:
			return library.New(a.store, a.embedder, a.kbOptions()), "Redis, " + ru.Count(len(have), "статья", "статьи", "статей"), nil
		}
	}
	articles, origin := kb.Sample(), "встроенный пример"
	if path := a.cfg.KBCSV; path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, "", fmt.Errorf("KB_CSV: %w", err)
		}
		defer f.Close()
		articles, err = kb.Parse(f)
		if err != nil {
			return nil, "", fmt.Errorf("KB_CSV %s: %w", path, err)
		}
		origin = path
	}
	// The in-memory copy is rebuilt at every start, so it is not embedded: no API calls at
	// start-up; lexical search serves it.
	lib := library.New(docstore.NewMemory(), nil, a.kbOptions())
	if _, _, err := kb.Ingest(ctx, lib, articles); err != nil {
		return nil, "", fmt.Errorf("knowledge base: %w", err)
	}
	return lib, origin + ", " + ru.Count(len(articles), "статья", "статьи", "статей"), nil
}

// IngestKnowledgeBase replaces the knowledge base in Redis with articles; it takes effect at
// the next start. degraded names the articles that could not be embedded (only lexical search
// finds them).
func (a *App) IngestKnowledgeBase(ctx context.Context, articles []kb.Article) (chunks int, degraded []string, err error) {
	if !a.durableDocs {
		return 0, nil, errors.New("the knowledge base is stored in Redis, and REDIS_URL is not set; without Redis set KB_CSV instead")
	}
	lib := library.New(a.store, a.embedder, a.kbOptions())
	return kb.Ingest(ctx, lib, articles)
}
