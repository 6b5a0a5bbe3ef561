package agent

import (
	"context"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/ru"
)

// The handlers that answer from one skill with no answer LLM: the skill's reply is the answer.

// answer is a skill's reply as the agent's answer.
func answer(r skill.Reply) Answer {
	ans := Answer{Text: r.Text, Chart: r.Chart}
	for _, s := range r.Sources {
		ans.Sources = append(ans.Sources, Source{Title: s.Title, URL: s.URL})
	}
	ans.Debug.Calls, ans.Debug.Degraded = r.Calls, r.Degraded
	return ans
}

// answerKeyRate answers the key rate on a day or over a period.
func (a *Agent) answerKeyRate(ctx context.Context, p ru.Period) Answer {
	if a.rates == nil {
		return Answer{Text: "Данные Банка России в этой установке не подключены."}
	}
	return answer(a.rates.KeyRate(ctx, p).Reply())
}

// cbrNews lists the Bank of Russia's recent news, after an optional note.
func (a *Agent) cbrNews(ctx context.Context, note string) (Answer, error) {
	if a.rates == nil {
		return Answer{Text: "Новости сейчас недоступны: ни поиск новостей, ни Банк России в этой установке не подключены."}, nil
	}
	return answer(a.rates.RecentNews(ctx, note)), nil
}
