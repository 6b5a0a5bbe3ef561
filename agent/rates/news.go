package rates

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// recentNewsDays is how far back "/news" looks for the Bank of Russia's own news.
const recentNewsDays = 14

// maxNewsItems is how many news items one answer lists.
const maxNewsItems = 5

// News is the Bank of Russia's news over a period.
type News struct {
	cbr.News
	// Err is why the Bank gave no news.
	Err   error
	Calls []skill.Call
}

// News asks for the Bank of Russia's news from one day to another.
func (s *Skill) News(ctx context.Context, from, to time.Time) News {
	return s.news(ctx, from, to, day(from)+"–"+day(to))
}

// RecentNews is the answer to "/news": the Bank of Russia's news of the last two weeks, after
// an optional note.
func (s *Skill) RecentNews(ctx context.Context, note string) skill.Reply {
	today := s.today()
	return s.news(ctx, today.AddDate(0, 0, -recentNewsDays), today, ru.Count(recentNewsDays, "день", "дня", "дней")).Reply(note)
}

func (s *Skill) news(ctx context.Context, from, to time.Time, args string) News {
	n, err := s.bank.News(ctx, from, to)
	return News{News: n, Err: err, Calls: []skill.Call{callRecord("cbr.News", args, len(n.Items), n.Meta, err)}}
}

// Reply lists the newest items after note, each footnoted with its page.
func (n News) Reply(note string) skill.Reply {
	r := skill.Reply{Calls: n.Calls}
	if n.Err != nil {
		r.Text = sourceDown("новости", n.Err) + " Посмотреть их можно на сайте Банка России [1]."
		r.Sources = []facts.Source{NewsSource}
		r.Degraded = []string{"cbr_unavailable"}
		return r
	}
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n\n")
	}
	if len(n.Items) == 0 {
		// Nothing found: nothing to footnote.
		fmt.Fprintf(&b, "За последние %s Банк России новостей не публиковал.", ru.Count(recentNewsDays, "день", "дня", "дней"))
		r.Text = b.String()
		return r
	}
	b.WriteString("**Новости Банка России**\n\n")
	for i, item := range n.Items {
		if i == maxNewsItems {
			break
		}
		fmt.Fprintf(&b, "%d. %s — %s [%d]\n", i+1, day(item.Date), md.Escape(item.Title), i+1)
		r.Sources = append(r.Sources, facts.Source{Title: skill.SourceTitle(item.Title, item.URL), URL: item.URL})
	}
	b.WriteString(staleNote(n.Meta, "Банк России"))
	r.Text = strings.TrimSpace(b.String())
	return r
}

// Facts are the newest items as fetch_cbr_data returns them, each with its page; an error
// when the Bank failed.
func (n News) Facts() (facts.Payload, error) {
	if n.Err != nil {
		return facts.Payload{}, cbrErr("cbr news", n.Err)
	}
	if len(n.Items) == 0 {
		return facts.Payload{}, nil
	}
	p := facts.Payload{Coverage: 1, Total: len(n.Items)}
	if n.Stale {
		p.Limitations = append(p.Limitations, staleLimitation(n.Meta))
	}
	for i, item := range n.Items {
		if i == maxNewsItems {
			break
		}
		src := p.AddSource(facts.Source{Title: skill.SourceTitle(item.Title, item.URL), URL: item.URL})
		p.Items = append(p.Items, facts.Item{Section: facts.General, Kind: "news", Title: item.Title, Source: src,
			Text: fmt.Sprintf("%s — %s", day(item.Date), item.Title), Fields: []facts.Field{{Name: "Дата", Value: day(item.Date)}}})
	}
	p.Found = true
	return p, nil
}
