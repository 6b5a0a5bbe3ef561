package agent

import (
	"context"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/ru"
)

// The handlers that answer from one skill with no answer LLM: the skill's reply is the answer.

// answer is a skill's reply as the agent's answer.
func answer(r skill.Reply) Answer {
	ans := Answer{Text: r.Text, Chart: r.Chart, Sources: sources(r.Sources)}
	for _, b := range r.Buttons {
		ans.Buttons = append(ans.Buttons, Button(b))
	}
	ans.Debug.Calls, ans.Debug.Degraded = r.Calls, r.Degraded
	return ans
}

// sources are a skill's footnotes as the answer's.
func sources(fs []facts.Source) []Source {
	var out []Source
	for _, s := range fs {
		out = append(out, Source(s))
	}
	return out
}

// answerKeyRate answers the key rate on a day or over a period.
func (a *Agent) answerKeyRate(ctx context.Context, p ru.Period) Answer {
	if a.rates == nil {
		return Answer{Text: "Данные Банка России в этой установке не подключены."}
	}
	return answer(a.rates.KeyRate(ctx, p).Reply())
}

// answerNews answers "/news <query>" with a web search, and "/news" alone (or a search that
// cannot run) with the Bank of Russia's own news.
func (a *Agent) answerNews(ctx context.Context, userID int64, text string) (Answer, error) {
	query := news.Query(text)
	if query == "" {
		return a.cbrNews(ctx, "")
	}
	if a.news == nil || !a.news.Configured() {
		return a.cbrNews(ctx, "Поиск новостей в интернете не настроен, поэтому показываю новости Банка России.")
	}
	return answer(a.news.Search(ctx, news.Request{Query: query, UserID: userID, Question: text}).Reply()), nil
}

// cbrNews lists the Bank of Russia's recent news, after an optional note.
func (a *Agent) cbrNews(ctx context.Context, note string) (Answer, error) {
	if a.rates == nil {
		return Answer{Text: "Новости сейчас недоступны: ни поиск новостей, ни Банк России в этой установке не подключены."}, nil
	}
	return answer(a.rates.RecentNews(ctx, note)), nil
}
