// Package documents is the documents skill: it reads the document library (library) — a
// user's or a group's documents — for one question, two ways. Search and LoadFull return facts
// for the planner's search_user_documents and load_documents_full tools; Sources, Quote and Extractive are how the
// agent's own document answers footnote and quote the same passages, and Extractive is the
// deterministic reply. Which documents a question is asked over (the selection, a reply to a
// receipt) is the agent's: it hands the skill a [Scope].
//
// The knowledge base (agent/kb) is read the same way, through Passages, Sources and Quote.
package documents

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// FullContextChars is the most text of selected documents answered in full (S3); above it
// the answer is built from retrieved passages (S4). Seed 002 §1.
const FullContextChars = 50_000

const (
	// lowCoverage is a payload's coverage when no passage clears the library's floor.
	lowCoverage = 0.3
	// fullFallbackTopK is how many passages stand in for documents too large to load whole.
	fullFallbackTopK = 8
	// selectedTitleRunes is how long a selected document's title is when the planner sees it.
	selectedTitleRunes = 80
)

// Scope is what documents a question is asked over: the owner's library and the documents
// selected in it.
type Scope struct {
	Owner    string
	Selected []docstore.Meta
}

// Search is the search_user_documents tool: it searches the owner's documents, or only those
// args name.
func Search(ctx context.Context, lib *library.Library, s Scope, args plan.SearchUserDocumentsArgs) (facts.Payload, error) {
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return facts.Payload{}, skill.BadArgs("search_user_documents: empty query")
	}
	var ids []string
	if len(args.DocumentIDs) > 0 {
		ms, err := resolve(ctx, lib, s, args.DocumentIDs)
		if err != nil {
			return facts.Payload{}, skill.Unavailable("documents", err)
		}
		if len(ms) == 0 { // none of them is the owner's: the selection, else everything
			ms = s.Selected
		}
		ids = IDs(ms)
	}
	return Passages(ctx, lib, s.Owner, library.Query{Text: query, DocIDs: ids, TopK: args.TopK}, false)
}

// LoadFull is the load_documents_full tool: it returns the named documents (default: the
// selection) whole when they fit FullContextChars together, else their passages that answer
// question (S4).
func LoadFull(ctx context.Context, lib *library.Library, s Scope, question string, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
	ms, err := resolve(ctx, lib, s, args.DocumentIDs)
	if err != nil {
		return facts.Payload{}, skill.Unavailable("documents", err)
	}
	if len(ms) == 0 {
		ms = s.Selected
	}
	if len(ms) == 0 {
		// Never Full(owner, nil): that would be every document of the owner.
		return facts.Payload{Limitations: []string{"Документы для чтения целиком не выбраны: выбрать их можно в /docs."}}, nil
	}
	chars := 0
	for _, m := range ms {
		chars += m.Chars
	}
	if chars > FullContextChars {
		query := strings.TrimSpace(question)
		if query == "" {
			return facts.Payload{}, skill.BadArgs("load_documents_full: documents too large and no question to search them with")
		}
		p, err := Passages(ctx, lib, s.Owner, library.Query{Text: query, DocIDs: IDs(ms), TopK: fullFallbackTopK}, false)
		if err != nil {
			return facts.Payload{}, err
		}
		p.Limitations = append(p.Limitations, fmt.Sprintf("Документы слишком велики, чтобы прочитать их целиком (%s при пределе %s): ответ основан на самых подходящих фрагментах.",
			ru.Count(chars, "знак", "знака", "знаков"), ru.Number(FullContextChars)))
		return p, nil
	}
	full, err := lib.Full(ctx, s.Owner, IDs(ms))
	if err != nil {
		return facts.Payload{}, skill.Unavailable("documents", err)
	}
	p := facts.Payload{Coverage: 1}
	for _, d := range full {
		src := p.AddSource(facts.Source{Title: d.Meta.Title}) // as the agent's full-context answer titles them
		p.Items = append(p.Items, facts.Item{Section: facts.UserDocuments, Kind: "document", Title: d.Meta.Title,
			Text: Serialize(d), Source: src})
	}
	p.Found = len(p.Items) > 0
	return p, nil
}

// Passages runs a library search and turns its passages into facts: the excerpts the
// extractive answers quote, titled and footnoted as Sources does.
func Passages(ctx context.Context, lib *library.Library, own string, q library.Query, kb bool) (facts.Payload, error) {
	q.TopK = min(max(q.TopK, 0), 20) // 0: the library's default
	if len(q.DocIDs) > 0 {
		q.MinOverlap = SelectedOverlap // as the agent's passage answer: the answer is expected in these documents
	}
	found, _, err := lib.Search(ctx, own, q)
	if err != nil {
		if ctx.Err() != nil {
			return facts.Payload{}, ctx.Err()
		}
		return facts.Payload{}, skill.Unavailable("search documents", err)
	}
	if len(found) == 0 {
		return facts.Payload{}, nil
	}
	srcs, numbers := Sources(found, kb)
	p := facts.Payload{Coverage: lowCoverage}
	var shown []string
	for i, ps := range found {
		text := excerpt(ps, q.Text, kb)
		if text == "" || repeats(text, shown) {
			continue
		}
		shown = append(shown, text)
		it := facts.Item{Section: facts.UserDocuments, Kind: "passage", Title: srcs[numbers[i]-1].Title, Text: text,
			Source: p.AddSource(facts.Source{Title: srcs[numbers[i]-1].Title})}
		if kb {
			it.Section, it.Kind, it.Title = facts.KnowledgeBase, "kb_article", ps.Title
			if !ps.Meta.Updated.IsZero() {
				it.Fields = append(it.Fields, facts.Field{Name: "Обновлено", Value: ps.Meta.Updated.Format("02.01.2006")})
			}
		}
		if h := lastLine(ps.Heading); h != "" && h != ps.Title {
			it.Fields = append(it.Fields, facts.Field{Name: "Раздел", Value: h})
		}
		p.Items = append(p.Items, it)
		if ps.Overlap >= library.MinOverlap || ps.Dense >= library.MinDense {
			p.Coverage = 1
		}
	}
	p.Found = len(p.Items) > 0
	return p, nil
}

// excerpt is what an extractive answer quotes of a passage: the clause of a document that
// answers query, the sentences of a knowledge-base article (Quote).
func excerpt(p library.Passage, query string, kb bool) string {
	q, _ := Quote(p, query, kb)
	return q.Text
}

// resolve returns the owner's documents that refs name, by id or by title as the planner
// lists them (whole or cut to selectedTitleRunes), ignoring case; a title shared by several
// documents means the selected one. Refs that name nothing of the owner's are dropped: only
// the owner's own list is ever consulted, so another owner's id or title resolves to nothing.
func resolve(ctx context.Context, lib *library.Library, s Scope, refs []string) ([]docstore.Meta, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	all, err := lib.List(ctx, s.Owner)
	if err != nil {
		return nil, err
	}
	var ordered []docstore.Meta // the selection first, and only what the owner's list holds
	for _, m := range s.Selected {
		if slices.ContainsFunc(all, func(o docstore.Meta) bool { return o.ID == m.ID }) {
			ordered = append(ordered, m)
		}
	}
	for _, m := range all {
		if !slices.ContainsFunc(ordered, func(o docstore.Meta) bool { return o.ID == m.ID }) {
			ordered = append(ordered, m)
		}
	}
	var out []docstore.Meta
	for _, ref := range refs {
		ref = strings.TrimSpace(strings.Trim(strings.TrimSpace(ref), "«»\"'"))
		if ref == "" {
			continue
		}
		i := slices.IndexFunc(ordered, func(m docstore.Meta) bool { return strings.EqualFold(m.ID, ref) })
		if i < 0 {
			i = slices.IndexFunc(ordered, func(m docstore.Meta) bool {
				return strings.EqualFold(m.Title, ref) || strings.EqualFold(ru.Truncate(m.Title, selectedTitleRunes), ref) ||
					m.FileName != "" && strings.EqualFold(m.FileName, ref)
			})
		}
		if i >= 0 && !slices.ContainsFunc(out, func(m docstore.Meta) bool { return m.ID == ordered[i].ID }) {
			out = append(out, ordered[i])
		}
	}
	return out, nil
}

// IDs are the ids of ms.
func IDs(ms []docstore.Meta) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}
