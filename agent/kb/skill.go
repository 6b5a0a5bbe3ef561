package kb

import (
	"context"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// The knowledge-base skill: the articles are kept in the document library under
// library.KBOwner and read as the documents skill reads a user's documents.

// Ingest makes articles the whole knowledge base of lib (see library.Library.Ingest).
func Ingest(ctx context.Context, lib *library.Library, articles []Article) (chunks int, degraded []string, err error) {
	entries := make([]library.Entry, len(articles))
	for i, a := range articles {
		entries[i] = library.Entry{ID: a.ID, Title: a.Title, Content: a.Content, Topic: a.Topic,
			Jurisdiction: a.Jurisdiction, Updated: a.Updated}
	}
	return lib.Ingest(ctx, library.KBOwner, entries)
}

// Search is the search_general_kb tool: it searches the company knowledge base. gate is the
// evidence a passage needs to answer the query (library.Query.MinEvidence), as the agent's own
// knowledge-base answer judges it.
func Search(ctx context.Context, lib *library.Library, args plan.SearchGeneralKBArgs, gate func(query string) float64) (facts.Payload, error) {
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return facts.Payload{}, skill.BadArgs("search_general_kb: empty query")
	}
	// The same gate as the agent's knowledge-base answer, the query read as the planner wrote it.
	q := library.Query{Text: query, TopK: args.TopK, MinEvidence: gate(query)}
	if t := strings.TrimSpace(args.Topic); t != "" {
		q.Expansions = []string{t} // widens recall; relevance is still judged against the query
	}
	return documents.Passages(ctx, lib, library.KBOwner, q, true)
}

// maxTopics bounds the knowledge base's topics listed in a refusal.
const maxTopics = 12

// Topics lists the knowledge base's topics in the order of its articles, as Markdown; «» when
// it has none.
func Topics(ctx context.Context, lib *library.Library) (string, error) {
	metas, err := lib.List(ctx, library.KBOwner)
	if err != nil {
		return "", err
	}
	var topics []string
	for _, m := range metas {
		t := strings.TrimSpace(m.Topic)
		if t != "" && !slices.Contains(topics, ru.LowerFirst(t)) && len(topics) < maxTopics {
			topics = append(topics, ru.LowerFirst(t))
		}
	}
	return md.Escape(strings.Join(topics, ", ")), nil
}
