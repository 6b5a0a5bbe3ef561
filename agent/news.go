package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/ru"
)

// maxNewsItems is how many news items one answer lists.
const maxNewsItems = 5

// newsFiller are the words that ask for news rather than name its subject.
var newsFiller = map[string]bool{
	"последние": true, "свежие": true, "новые": true, "главные": true, "финансовые": true, "какие": true,
	"есть": true, "ли": true, "покажи": true, "найди": true, "расскажи": true, "дай": true, "мне": true,
	"пожалуйста": true, "про": true, "о": true, "об": true, "обо": true, "по": true, "насчет": true,
	"на": true, "тему": true, "в": true, "мире": true, "за": true, "сегодня": false,
}

// newsQuery strips the words that ask for news: «новости про НДС» → «НДС».
func newsQuery(text string) string {
	words := strings.Fields(text)
	i := 0
	for i < len(words) {
		w := strings.ReplaceAll(strings.ToLower(strings.Trim(words[i], ",.:;!?—-«»\"'")), "ё", "е")
		switch {
		case newsFiller[w] || strings.HasPrefix(w, "новост") || w == "":
			i++
		case w == "что" && i+1 < len(words) && strings.HasPrefix(strings.ToLower(words[i+1]), "нов"):
			i += 2
		default:
			return strings.Trim(strings.Join(words[i:], " "), " ,.:;!?—-")
		}
	}
	return ""
}

// news answers "/news <query>" with a web search, and "/news" alone (or a search that cannot
// run) with the Bank of Russia's own news.
func (a *Agent) news(ctx context.Context, userID int64, text string) (Answer, error) {
	query := newsQuery(text)
	if query == "" {
		return a.cbrNews(ctx, "")
	}
	if a.search == nil || !a.search.Configured() {
		return a.cbrNews(ctx, "Поиск новостей в интернете не настроен, поэтому показываю новости Банка России.")
	}
	q := tavily.Query{Text: query, Topic: "news", MaxResults: maxNewsItems, TimeRange: "week", UserID: userID}
	if p, ok, err := ru.ParsePeriod(text, a.now()); err == nil && ok && !p.Single() {
		q.TimeRange, q.StartDate, q.EndDate = "", p.From.Format("2006-01-02"), p.To.Format("2006-01-02")
	}
	res, err := a.search.Search(ctx, q)
	call := Call{Source: "tavily.Search", Args: query, Rows: len(res.Results), Result: "ok"}
	if err != nil {
		call.Result = "error: " + err.Error()
	} else if res.Cached {
		call.Result = "cached"
	}
	if err != nil {
		ans := Answer{Text: newsProblem(err)}
		ans.Debug.Calls = []Call{call}
		ans.Debug.Degraded = []string{"news_unavailable"}
		return ans, nil
	}
	ans := Answer{}
	ans.Debug.Calls = []Call{call}
	if len(res.Results) == 0 {
		ans.Text = fmt.Sprintf("По запросу «%s» свежих новостей не нашлось. Попробуйте сформулировать шире.", EscapeMarkdown(query))
		return ans, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Новости: %s**\n\n", EscapeMarkdown(query))
	for i, r := range res.Results {
		if i == maxNewsItems {
			break
		}
		fmt.Fprintf(&b, "%d. %s", i+1, EscapeMarkdown(r.Title))
		if d := publishedDay(r.PublishedDate); d != "" {
			fmt.Fprintf(&b, " (%s)", d)
		}
		if s := skill.Snippet(r.Content, 160); s != "" {
			fmt.Fprintf(&b, " — %s", EscapeMarkdown(s))
		}
		fmt.Fprintf(&b, " [%d]\n", i+1)
		ans.Sources = append(ans.Sources, Source{Title: skill.SourceTitle(r.Title, r.URL), URL: r.URL})
	}
	ans.Text = strings.TrimSpace(b.String())
	return ans, nil
}

// newsProblem says precisely why the news search failed.
func newsProblem(err error) string {
	switch {
	case errors.Is(err, tavily.ErrNotConfigured):
		return "Поиск новостей не настроен. Новости Банка России — команда /news без слов."
	case errors.Is(err, tavily.ErrUnauthorized):
		return "Сервис поиска новостей не принял ключ доступа — сообщите администратору бота. Новости Банка России — /news без слов."
	case errors.Is(err, tavily.ErrQuota):
		return "Исчерпан лимит запросов к сервису поиска новостей. Новости Банка России по-прежнему доступны: /news без слов."
	case errors.Is(err, tavily.ErrRateLimited):
		return "Сервис поиска новостей перегружен запросами. Попробуйте через минуту."
	case errors.Is(err, tavily.ErrBadRequest):
		return "Сервис поиска новостей не принял запрос. Попробуйте сформулировать его иначе."
	default:
		return "Сервис поиска новостей сейчас недоступен. Попробуйте позже или посмотрите новости Банка России: /news без слов."
	}
}

func publishedDay(s string) string {
	for _, layout := range []string{"2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05", "2006-01-02", "Mon, 02 Jan 2006 15:04:05 MST", "Mon, 02 Jan 2006 15:04:05 -0700"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.In(ru.Moscow).Format("02.01.2006")
		}
	}
	return ""
}
