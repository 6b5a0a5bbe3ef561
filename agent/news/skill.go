package news

import (
	"cmp"
	"context"
	"fmt"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
)

// Answer answers «новости про НДС» and "/news <query>" with a web search; a message that names
// no subject, or an installation without the search, gets the Bank of Russia's own news
// (Options.Bank). A plan of one news search with a query is answered the same way.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	text, heading := q.Text, ""
	if q.Plan != nil {
		if len(q.Plan.ToolCalls) != 1 || q.Plan.ToolCalls[0].Tool != plan.ToolFetchFinanceNews || q.Plan.ToolCalls[0].Query() == "" {
			return skill.Reply{Unanswered: true}, nil
		}
		// The planner's query is searched; the heading says what the user asked, in their words.
		text, heading = "новости "+q.Plan.ToolCalls[0].Query(), cmp.Or(Query(q.Text), "по вашему вопросу")
	}
	query := Query(text)
	if query == "" {
		return s.bankNews(ctx, ""), nil
	}
	if !s.Configured() {
		return s.bankNews(ctx, "Поиск новостей в интернете не настроен, поэтому показываю новости Банка России."), nil
	}
	return s.Search(ctx, Request{Query: query, UserID: q.UserID, Question: text, Heading: heading}).Reply(), nil
}

// bankNews lists the Bank of Russia's recent news after an optional note.
func (s *Skill) bankNews(ctx context.Context, note string) skill.Reply {
	if s.bank == nil {
		return skill.Text("Новости сейчас недоступны: ни поиск новостей, ни Банк России в этой установке не подключены.")
	}
	return s.bank(ctx, note)
}

// Facts is the planner's fetch_finance_news tool.
func (s *Skill) Facts(ctx context.Context, q skill.Query, call plan.ToolCall) (facts.Payload, error) {
	if !s.Configured() {
		return facts.Payload{}, skill.Unavailable("fetch_finance_news", fmt.Errorf("news search is not configured"))
	}
	var args plan.FetchFinanceNewsArgs
	if err := call.Decode(&args); err != nil {
		return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
	}
	return s.Fetch(ctx, q.UserID, q.Text, args)
}

// Offers reports whether the planner may search the web news: the search is configured.
func (s *Skill) Offers(context.Context, skill.Query) bool { return s.Configured() }
