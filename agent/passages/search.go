// Package passages is answers quoted from passages of a library (library.Library): a user's
// documents or the company knowledge base. It is what the documents and knowledge-base skills
// share, so that neither imports the other: the search that turns passages into facts
// ([Search]), their footnotes ([Sources]), the quotes of the answer without an LLM
// ([Extractive], [ExtractiveKB]), the answer over passages with or without the answer LLM
// ([Answerer]) and the reply that the documents lack a standard clause ([MissingClause]).
package passages

import (
	"context"
	"fmt"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/library"
)

// FullContextChars is the most text of selected documents answered in full (S3); above it
// the answer is built from retrieved passages (S4).
const FullContextChars = 50_000

// lowCoverage is a payload's coverage when no passage clears the library's floor.
const lowCoverage = 0.3

// Owner is whose documents a request reads and writes: the group's shared set in a group, the
// user's private set otherwise. It is derived from who asks only, never from user input.
func Owner(userID, chatID int64, group bool) string {
	if group {
		return fmt.Sprintf("g:%d", chatID)
	}
	return fmt.Sprintf("u:%d", userID)
}

// Search runs a library search and turns its passages into facts: the excerpts the
// extractive answers quote, titled and footnoted as Sources does, chosen by what q.Text asks
// (a, as the parser read it).
func Search(ctx context.Context, lib *library.Library, own string, q library.Query, a library.Asking, kb bool) (facts.Payload, error) {
	q.TopK = min(max(q.TopK, 0), 20) // 0: the library's default
	if len(q.DocIDs) > 0 {
		q.MinOverlap = SelectedOverlap // as the skill's passage answer: the answer is expected in these documents
	}
	found, _, err := lib.Search(ctx, own, q)
	if err != nil {
		if ctx.Err() != nil {
			return facts.Payload{}, ctx.Err()
		}
		if msg := library.UserMessage(err); msg != "" {
			// A refusal the library explains (the documents are too many to search): that
			// explanation is the answer when no other call of the plan found anything.
			return facts.Payload{}, &skill.Answered{Err: err, Reply: skill.Text(msg)}
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
		text := excerpt(ps, q.Text, a, kb)
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
func excerpt(p library.Passage, query string, a library.Asking, kb bool) string {
	q, _ := Quote(p, query, a, kb)
	return q.Text
}

// Asking is what a question asks about as the library takes it: the parser's reading
// (understand.Decision.Asks, or understand.Parser.Asks of a query the planner wrote).
func Asking(a understand.Asks) library.Asking {
	return library.Asking{When: a.When, Term: a.Term, Deadline: a.Deadline, Amount: a.Amount, Subject: a.Subject}
}

// AskingOf is what q.Text asks about: its decision's reading (understand.Decision.Asks), or,
// when the planner planned the question, p's reading of the text, which may then be the
// planner's (a follow-up resolved into a whole question).
func AskingOf(q skill.Query, p *understand.Parser) library.Asking {
	if q.Plan != nil {
		return Asking(p.Asks(q.Text))
	}
	return Asking(q.Decision.Asks)
}

// Error is the reply to a library that failed: the user's message of a refusal the library
// explains (library.UserMessage), else skill.ErrUnavailable.
func Error(err error) (skill.Reply, error) {
	if msg := library.UserMessage(err); msg != "" {
		return skill.Reply{Text: msg}, nil
	}
	return skill.Reply{}, fmt.Errorf("%w: documents: %w", skill.ErrUnavailable, err)
}
