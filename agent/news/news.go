// Package news is the web news skill: finance news found by a search engine (Tavily). One
// search ([Skill.Search]) is read two ways: Facts, for the planner's fetch_finance_news tool
// ([Skill.Fetch]), and Reply, the numbered list with footnotes the agent shows for "/news
// <query>". The Bank of Russia's own news are the rates skill's.
package news

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/ru"
)

// Searcher finds finance news on the web. *tavily.Client satisfies it.
type Searcher interface {
	Search(ctx context.Context, q tavily.Query) (tavily.Response, error)
	Configured() bool
}

// Options tune the skill.
type Options struct {
	// Now is the clock that dates «за март»; time.Now when nil.
	Now func() time.Time
	// Bank lists the Bank of Russia's recent news after a note: what a message naming no
	// subject, or an installation without the web search, is answered with. nil = no Bank of
	// Russia either.
	Bank func(ctx context.Context, note string) skill.Reply
}

// Skill searches finance news. It is safe for concurrent use.
type Skill struct {
	web  Searcher // nil = not configured
	now  func() time.Time
	bank func(ctx context.Context, note string) skill.Reply
}

// New is the skill over web.
func New(web Searcher, o Options) *Skill {
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Skill{web: web, now: o.Now, bank: o.Bank}
}

// Configured reports whether the search can run (it has its key).
func (s *Skill) Configured() bool { return s.web != nil && s.web.Configured() }

// maxItems is how many news items one answer lists.
const maxItems = 5

// snippetRunes bounds a news item's text in the facts (the chat list shows 160; the answer LLM
// may use more).
const snippetRunes = 300

// filler are the words that ask for news rather than name its subject.
var filler = map[string]bool{
	"последние": true, "свежие": true, "новые": true, "главные": true, "финансовые": true, "какие": true,
	"есть": true, "ли": true, "покажи": true, "найди": true, "расскажи": true, "дай": true, "мне": true,
	"пожалуйста": true, "про": true, "о": true, "об": true, "обо": true, "по": true, "насчет": true,
	"на": true, "тему": true, "в": true, "мире": true, "за": true, "сегодня": false,
}

// Query strips the words that ask for news: «новости про НДС» → «НДС»; "" when nothing else
// is said.
func Query(text string) string {
	words := strings.Fields(text)
	i := 0
	for i < len(words) {
		w := strings.ReplaceAll(strings.ToLower(strings.Trim(words[i], ",.:;!?—-«»\"'")), "ё", "е")
		switch {
		case filler[w] || strings.HasPrefix(w, "новост") || w == "":
			i++
		case w == "что" && i+1 < len(words) && strings.HasPrefix(strings.ToLower(words[i+1]), "нов"):
			i += 2
		default:
			return strings.Trim(strings.Join(words[i:], " "), " ,.:;!?—-")
		}
	}
	return ""
}

// Request is a news search.
type Request struct {
	// Query is what to search, the words that ask for news stripped ([Query]).
	Query  string
	UserID int64
	// Limit is how many items to ask for and list; 0 is five.
	Limit int
	// Question is the message the search answers: a period it names («за март») bounds the
	// search, a week otherwise.
	Question string
	// Heading is what the reply's heading calls the search; "" = Query. A query the planner
	// wrote is searched but never shown: the heading is the user's own words.
	Heading string
}

// Found is what a search found.
type Found struct {
	Query   string
	Heading string // what the reply calls the search: the user's words, at most 80 characters
	Limit   int
	tavily.Response
	// Err is why the search failed.
	Err   error
	Calls []skill.Call
}

// Search searches the web for the news req asks for.
func (s *Skill) Search(ctx context.Context, req Request) Found {
	if req.Limit <= 0 {
		req.Limit = maxItems
	}
	q := tavily.Query{Text: req.Query, Topic: "news", MaxResults: req.Limit, TimeRange: "week", UserID: req.UserID}
	if p, ok, err := ru.ParsePeriod(req.Question, s.now()); err == nil && ok && !p.Single() {
		q.TimeRange, q.StartDate, q.EndDate = "", p.From.Format(time.DateOnly), p.To.Format(time.DateOnly)
	}
	res, err := s.web.Search(ctx, q)
	call := skill.Call{Source: "tavily.Search", Args: req.Query, Rows: len(res.Results), Result: "ok"}
	if err != nil {
		call.Result = "error: " + err.Error()
	} else if res.Cached {
		call.Result = "cached"
	}
	heading := ru.Truncate(cmp.Or(strings.TrimSpace(req.Heading), req.Query), 80)
	return Found{Query: req.Query, Heading: heading, Limit: req.Limit, Response: res, Err: err, Calls: []skill.Call{call}}
}

// Reply is the numbered list of the news found, each with its date, a snippet and its
// footnote; a failure says precisely why.
func (f Found) Reply() skill.Reply {
	r := skill.Reply{Calls: f.Calls}
	if f.Err != nil {
		r.Text = problem(f.Err)
		r.Degraded = []string{"news_unavailable"}
		return r
	}
	if len(f.Results) == 0 {
		r.Text = fmt.Sprintf("По запросу «%s» свежих новостей не нашлось. Попробуйте сформулировать шире.", md.Escape(f.Heading))
		return r
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**Новости: %s**\n\n", md.Escape(f.Heading))
	for i, res := range f.Results {
		if i == f.Limit {
			break
		}
		fmt.Fprintf(&b, "%d. %s", i+1, md.Escape(res.Title))
		if d := publishedDay(res.PublishedDate); d != "" {
			fmt.Fprintf(&b, " (%s)", d)
		}
		if s := skill.Snippet(res.Content, 160); s != "" {
			fmt.Fprintf(&b, " — %s", md.Escape(s))
		}
		fmt.Fprintf(&b, " [%d]\n", i+1)
		r.Sources = append(r.Sources, facts.Source{Title: skill.SourceTitle(res.Title, res.URL), URL: res.URL})
	}
	r.Text = strings.TrimSpace(b.String())
	return r
}

// Facts are the news found as fetch_finance_news returns them; an ErrUnavailable when the
// search failed.
func (f Found) Facts() (facts.Payload, error) {
	if f.Err != nil {
		return facts.Payload{}, skill.Unavailable("news search", f.Err)
	}
	p := facts.Payload{Coverage: 1}
	for i, r := range f.Results {
		if i == f.Limit {
			break
		}
		it := facts.Item{Section: facts.External, Kind: "news", Title: r.Title, Text: skill.Snippet(r.Content, snippetRunes),
			Source: p.AddSource(facts.Source{Title: skill.SourceTitle(r.Title, r.URL), URL: r.URL})}
		if d := publishedDay(r.PublishedDate); d != "" {
			it.Fields = []facts.Field{{Name: "Дата", Value: d}}
		}
		p.Items = append(p.Items, it)
	}
	if len(p.Items) == 0 {
		return facts.Payload{}, nil
	}
	p.Found = true
	return p, nil
}

// Fetch is the planner's fetch_finance_news tool: the news of args.Query, in the period
// question names.
func (s *Skill) Fetch(ctx context.Context, userID int64, question string, args plan.FetchFinanceNewsArgs) (facts.Payload, error) {
	query := Query(args.Query)
	if query == "" {
		query = strings.TrimSpace(args.Query)
	}
	if query == "" {
		return facts.Payload{}, skill.BadArgs("fetch_finance_news: empty query")
	}
	limit := args.MaxResults
	if limit <= 0 || limit > 10 {
		limit = maxItems
	}
	f := s.Search(ctx, Request{Query: query, UserID: userID, Limit: limit, Question: question})
	if f.Err != nil && ctx.Err() != nil {
		return facts.Payload{}, ctx.Err()
	}
	return f.Facts()
}

// problem says precisely why the news search failed.
func problem(err error) string {
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
