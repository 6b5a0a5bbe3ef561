package agent

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/docs"
	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/ru"
)

// The tools of the planned path (issue #6). Each runs one plan.ToolCall against one source and
// returns its findings as facts: every figure already written as people read it («1 250 000,00 ₽»,
// «92,5000 ₽», «16,50%», «15.01.2026»), in Item.Text or a Field value, because the post-check
// accepts an answer's number only when the facts' text contains it.

// Relevance floors of docs.Library.Search (its minOverlap and minDense): a passage that clears
// one of them answers the question; one let in only by the lower floor of selected documents
// (selectedOverlap) may not.
const (
	libraryMinOverlap = 0.5
	libraryMinDense   = 0.55
)

const (
	// lowCoverage is a payload's coverage when no passage clears the library's floor.
	lowCoverage = 0.3
	// fullFallbackTopK is how many passages stand in for documents too large to load whole.
	fullFallbackTopK = 8
	// selectedTitleRunes is how long a selected document's title is when the planner sees it.
	selectedTitleRunes = 80
)

// tools returns the executor's registry for one question of req: only the tools this
// installation has (a nil dependency = the tool is absent from the map).
func (a *Agent) tools(req Request, s docScope, question string) executor.Registry {
	reg := executor.Registry{}
	if a.docs != nil {
		reg[plan.ToolSearchUserDocuments] = typedTool(func(ctx context.Context, args plan.SearchUserDocumentsArgs) (facts.Payload, error) {
			return a.searchUserDocuments(ctx, s, args)
		})
		reg[plan.ToolLoadDocumentsFull] = typedTool(func(ctx context.Context, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
			return a.loadDocumentsFull(ctx, s, question, args)
		})
	}
	if a.kb != nil {
		reg[plan.ToolSearchGeneralKB] = typedTool(a.searchKB)
	}
	if a.rates != nil {
		reg[plan.ToolFetchCBRData] = typedTool(a.rates.Fetch)
	}
	if a.news != nil && a.news.Configured() {
		reg[plan.ToolFetchFinanceNews] = typedTool(func(ctx context.Context, args plan.FetchFinanceNewsArgs) (facts.Payload, error) {
			return a.news.Fetch(ctx, req.UserID, question, args)
		})
	}
	if a.lane != nil {
		reg[plan.ToolAddressQuery] = typedTool(func(ctx context.Context, args plan.AddressQueryArgs) (facts.Payload, error) {
			return a.addressQuery(ctx, req, question, args)
		})
	}
	return reg
}

// typedTool adapts a typed tool to the executor: it decodes the call's arguments strictly (as the
// planner's validation does: unknown fields refused, missing arguments an empty object).
func typedTool[A any](run func(ctx context.Context, args A) (facts.Payload, error)) executor.Tool {
	return func(ctx context.Context, call plan.ToolCall) (facts.Payload, error) {
		var args A
		if err := call.Decode(&args); err != nil {
			return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
		}
		return run(ctx, args)
	}
}

// ---- documents and the knowledge base ----

// searchUserDocuments searches the owner's documents, or only those args name.
func (a *Agent) searchUserDocuments(ctx context.Context, s docScope, args plan.SearchUserDocumentsArgs) (facts.Payload, error) {
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return facts.Payload{}, skill.BadArgs("search_user_documents: empty query")
	}
	var ids []string
	if len(args.DocumentIDs) > 0 {
		ms, err := a.resolveDocs(ctx, s, args.DocumentIDs)
		if err != nil {
			return facts.Payload{}, skill.Unavailable("documents", err)
		}
		if len(ms) == 0 { // none of them is the owner's: the selection, else everything
			ms = s.selected
		}
		ids = docIDs(ms)
	}
	return a.passages(ctx, a.docs, s.owner, docs.Query{Text: query, DocIDs: ids, TopK: args.TopK}, false)
}

// loadDocumentsFull returns the named documents (default: the selection) whole when they fit
// FullContextChars together, else their passages that answer question (S4).
func (a *Agent) loadDocumentsFull(ctx context.Context, s docScope, question string, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
	ms, err := a.resolveDocs(ctx, s, args.DocumentIDs)
	if err != nil {
		return facts.Payload{}, skill.Unavailable("documents", err)
	}
	if len(ms) == 0 {
		ms = s.selected
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
		p, err := a.passages(ctx, a.docs, s.owner, docs.Query{Text: query, DocIDs: docIDs(ms), TopK: fullFallbackTopK}, false)
		if err != nil {
			return facts.Payload{}, err
		}
		p.Limitations = append(p.Limitations, fmt.Sprintf("Документы слишком велики, чтобы прочитать их целиком (%s при пределе %s): ответ основан на самых подходящих фрагментах.",
			ru.Count(chars, "знак", "знака", "знаков"), ru.Number(FullContextChars)))
		return p, nil
	}
	full, err := a.docs.Full(ctx, s.owner, docIDs(ms))
	if err != nil {
		return facts.Payload{}, skill.Unavailable("documents", err)
	}
	p := facts.Payload{Coverage: 1}
	for _, d := range full {
		src := p.AddSource(facts.Source{Title: d.Meta.Title}) // as fullContextAnswer titles them
		p.Items = append(p.Items, facts.Item{Section: facts.UserDocuments, Kind: "document", Title: d.Meta.Title,
			Text: serialize(d), Source: src})
	}
	p.Found = len(p.Items) > 0
	return p, nil
}

// searchKB searches the company knowledge base.
func (a *Agent) searchKB(ctx context.Context, args plan.SearchGeneralKBArgs) (facts.Payload, error) {
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return facts.Payload{}, skill.BadArgs("search_general_kb: empty query")
	}
	// The same gate as kbAnswer, the query read as the planner wrote it.
	q := docs.Query{Text: query, TopK: args.TopK, MinEvidence: kbGate(a.parser.Parse(understand.Input{Text: query, Now: a.now()}))}
	if t := strings.TrimSpace(args.Topic); t != "" {
		q.Expansions = []string{t} // widens recall; relevance is still judged against the query
	}
	return a.passages(ctx, a.kb, docs.KBOwner, q, true)
}

// passages runs a library search and turns its passages into facts: the excerpts the
// extractive answers quote, titled and footnoted as passageSources does.
func (a *Agent) passages(ctx context.Context, lib *docs.Library, own string, q docs.Query, kb bool) (facts.Payload, error) {
	q.TopK = min(max(q.TopK, 0), 20) // 0: the library's default
	if len(q.DocIDs) > 0 {
		q.MinOverlap = selectedOverlap // as passageAnswer: the answer is expected in these documents
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
	srcs, numbers := passageSources(found, kb)
	p := facts.Payload{Coverage: lowCoverage}
	var shown []string
	for i, ps := range found {
		text := passageExcerpt(ps, q.Text, kb)
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
		if ps.Overlap >= libraryMinOverlap || ps.Dense >= libraryMinDense {
			p.Coverage = 1
		}
	}
	p.Found = len(p.Items) > 0
	return p, nil
}

// passageExcerpt is what an extractive answer quotes of a passage: the clause of a document
// that answers query, the sentences of a knowledge-base article (passageQuote).
func passageExcerpt(p docs.Passage, query string, kb bool) string {
	q, _ := passageQuote(p, query, kb)
	return q.Text
}

// resolveDocs returns the owner's documents that refs name, by id or by title as the planner
// lists them (whole or cut to selectedTitleRunes), ignoring case; a title shared by several
// documents means the selected one. Refs that name nothing of the owner's are dropped: only
// the owner's own list is ever consulted, so another owner's id or title resolves to nothing.
func (a *Agent) resolveDocs(ctx context.Context, s docScope, refs []string) ([]docstore.Meta, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	all, err := a.docs.List(ctx, s.owner)
	if err != nil {
		return nil, err
	}
	var ordered []docstore.Meta // the selection first, and only what the owner's list holds
	for _, m := range s.selected {
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

func docIDs(ms []docstore.Meta) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}
