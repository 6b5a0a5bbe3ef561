package documents

// The planner's tools over the user's documents: search_user_documents and load_documents_full.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// FullContextChars is the most text of selected documents answered in full (S3); above it
// the answer is built from retrieved passages (S4).
const FullContextChars = passages.FullContextChars

const (
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
// args name; p reads what the query asks, which chooses the clauses quoted.
func Search(ctx context.Context, lib *library.Library, s Scope, args plan.SearchUserDocumentsArgs, p *understand.Parser) (facts.Payload, error) {
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
		ids = passages.IDs(ms)
	}
	return passages.Search(ctx, lib, s.Owner, library.Query{Text: query, DocIDs: ids, TopK: args.TopK}, passages.Asking(p.Asks(query)), false)
}

// LoadFull is the load_documents_full tool: it returns the named documents (default: the
// selection) whole when they fit FullContextChars together, else their passages that answer
// question (S4).
func LoadFull(ctx context.Context, lib *library.Library, s Scope, question passages.Question, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
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
		query := strings.TrimSpace(question.Text)
		if query == "" {
			return facts.Payload{}, skill.BadArgs("load_documents_full: documents too large and no question to search them with")
		}
		p, err := passages.Search(ctx, lib, s.Owner, library.Query{Text: query, DocIDs: passages.IDs(ms), TopK: fullFallbackTopK}, question.Asking, false)
		if err != nil {
			return facts.Payload{}, err
		}
		p.Limitations = append(p.Limitations, fmt.Sprintf("Документы слишком велики, чтобы прочитать их целиком (%s при пределе %s): ответ основан на самых подходящих фрагментах.",
			ru.Count(chars, "знак", "знака", "знаков"), ru.Number(FullContextChars)))
		return p, nil
	}
	full, err := lib.Full(ctx, s.Owner, passages.IDs(ms))
	if err != nil {
		return facts.Payload{}, skill.Unavailable("documents", err)
	}
	p := facts.Payload{Coverage: 1}
	for _, d := range full {
		src := p.AddSource(facts.Source{Title: d.Meta.Title}) // as the agent's full-context answer titles them
		p.Items = append(p.Items, facts.Item{Section: facts.UserDocuments, Kind: "document", Title: d.Meta.Title,
			Text: passages.Serialize(d), Source: src})
	}
	p.Found = len(p.Items) > 0
	return p, nil
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
