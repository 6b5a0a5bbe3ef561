// Package rates is the Bank of Russia skill: the official exchange rates on a day and their
// dynamics over a period, the key rate, and the Bank's own news.
//
// Each question is asked of the Bank once — [Skill.Day], [Skill.Series], [Skill.KeyRate],
// [Skill.News] — and what came back is read two ways: Facts, for the planner's
// fetch_cbr_data tool ([Skill.Fetch]), and Reply, the deterministic answer the agent shows
// ([Skill.Answer], [Skill.RecentNews]). Every figure is written as people read it («92,5000 ₽»,
// «16,50%», «15.01.2026»), because the post-check accepts an answer's number only when the
// facts' text contains it.
package rates

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// Bank is the Bank of Russia. *cbr.Client satisfies it.
type Bank interface {
	DailyRates(ctx context.Context, day time.Time) (cbr.Daily, error)
	Dynamic(ctx context.Context, charCode string, from, to time.Time) (cbr.Dynamic, error)
	KeyRate(ctx context.Context, from, to time.Time) (cbr.KeyRates, error)
	News(ctx context.Context, from, to time.Time) (cbr.News, error)
}

// Options tune the skill.
type Options struct {
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Logger receives the charts that failed to render; discarded when nil.
	Logger *slog.Logger
}

// Skill answers questions to the Bank of Russia. It is safe for concurrent use.
type Skill struct {
	bank Bank
	now  func() time.Time
	log  *slog.Logger
}

// New is the skill over bank.
func New(bank Bank, o Options) *Skill {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Skill{bank: bank, now: o.Now, log: o.Logger}
}

// DefaultCurrencies answer "/rate" and "курс" without a currency.
var DefaultCurrencies = []string{"USD", "EUR", "CNY"}

// maxRatePeriodDays is the longest series one answer covers; longer periods are clamped and
// the answer says so.
const maxRatePeriodDays = 2 * 366

// The footnotes of the facts: the Bank of Russia's pages.
var (
	DailySource   = facts.Source{Title: "Банк России — официальные курсы валют (cbr.ru)", URL: "https://www.cbr.ru/currency_base/daily/"}
	KeyRateSource = facts.Source{Title: "Банк России — ключевая ставка (cbr.ru)", URL: "https://www.cbr.ru/hd_base/KeyRate/"}
	NewsSource    = facts.Source{Title: "Банк России — новости (cbr.ru)", URL: "https://www.cbr.ru/news/"}
)

// ratesOnSource is the footnote of the rates set on a day: the Bank of Russia's page of that
// day, so that a figure can be checked where it was published.
func ratesOnSource(on time.Time) facts.Source {
	return facts.Source{Title: "Банк России, курсы на " + day(on),
		URL: "https://www.cbr.ru/currency_base/daily/?UniDbQuery.Posted=True&UniDbQuery.To=" + day(on)}
}

// ratesPeriodSource is the footnote of rate series over a period.
func ratesPeriodSource(p ru.Period) facts.Source {
	return facts.Source{Title: fmt.Sprintf("Банк России, динамика курсов за %s – %s", day(p.From), day(p.To)),
		URL: "https://www.cbr.ru/currency_base/dynamics/"}
}

// checkOnSite follows an answer that has no figures because the Bank of Russia did not give
// them: where to look, marked with the footnote of the page.
const checkOnSite = " Официальные данные — на сайте Банка России [1]."

// roubleSign follows a formatted amount: a no-break space and the sign, as onec.Kopecks writes it.
const roubleSign = "\u00a0₽"

// Today is the date of now at midnight in Moscow, where the Bank of Russia sets its rates.
func Today(now time.Time) time.Time {
	n := now.In(ru.Moscow)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, ru.Moscow)
}

func (s *Skill) today() time.Time { return Today(s.now()) }

func day(t time.Time) string { return t.In(ru.Moscow).Format("02.01.2006") }

var weekdays = [...]string{"воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"}

func dayWithWeekday(t time.Time) string {
	return fmt.Sprintf("%s (%s)", day(t), weekdays[t.In(ru.Moscow).Weekday()])
}

// Request is what a rates question asks for.
type Request struct {
	// Codes are the currencies' ISO codes.
	Codes []string
	// Period is a day (the rates on it) or a period (their dynamics).
	Period ru.Period
	// Notes are Markdown lines said before the figures (unknown currencies).
	Notes []string
	// Amount is how many units the question asks about («почём 100 тенге»): the answer also
	// gives their price in roubles, to the kopeck. 0 or 1: the rate alone.
	Amount int
}

// Answer answers a rates request: the rates on its day, or their dynamics over its period.
func (s *Skill) Answer(ctx context.Context, req Request) skill.Reply {
	if req.Period.Single() {
		return s.Day(ctx, req.Codes, req.Period.From).Reply(req.Amount, req.Notes)
	}
	return s.Series(ctx, req.Codes, req.Period).Reply(req.Notes)
}

// notYet is the answer about rates asked for a day after tomorrow.
func notYet(on time.Time) string {
	return fmt.Sprintf("Курсов на %s ещё нет: Банк России устанавливает курс не раньше чем накануне, после 15:30 МСК.", day(on))
}

// ---- the rates on a day ----

// Day is the Bank of Russia's rates of some currencies on a day.
type Day struct {
	Codes []string
	// On is the day asked for.
	On    time.Time
	today time.Time
	// Daily is the publication in force on On; its OnDate is earlier after a weekend or a
	// holiday. Prev is the publication before it, for the change (empty when unknown).
	Daily, Prev cbr.Daily
	// Err is why the Bank gave no rates.
	Err   error
	Calls []skill.Call
}

// early reports a day after tomorrow: no rates set yet, none asked for.
func (d Day) early() bool { return d.On.After(d.today.AddDate(0, 0, 1)) }

// Day asks for the rates of codes on a day, and for the publication before, for the change.
func (s *Skill) Day(ctx context.Context, codes []string, on time.Time) Day {
	d := Day{Codes: codes, On: on, today: s.today()}
	if d.early() {
		return d
	}
	d.Daily, d.Err = s.bank.DailyRates(ctx, on)
	d.Calls = []skill.Call{callRecord("cbr.DailyRates", day(on), len(d.Daily.Rates), d.Daily.Meta, d.Err)}
	if d.Err != nil || len(d.Daily.Rates) == 0 {
		return d
	}
	// The previous publication, for the change; best effort.
	if p, err := s.bank.DailyRates(ctx, d.Daily.OnDate.AddDate(0, 0, -1)); err == nil && len(p.Rates) > 0 && p.OnDate.Before(d.Daily.OnDate) {
		d.Prev = p
	}
	return d
}

// Reply is the rates as the chat shows them, each with its change, after notes; amount > 1
// adds the price of that many units.
func (d Day) Reply(amount int, notes []string) skill.Reply {
	if d.early() {
		return skill.Reply{Text: notYet(d.On)}
	}
	r := skill.Reply{Sources: []facts.Source{ratesOnSource(d.On)}, Calls: d.Calls}
	if d.Err != nil {
		r.Text = sourceDown("курсы валют", d.Err) + checkOnSite
		r.Degraded = []string{"cbr_unavailable"}
		return r
	}
	if len(d.Daily.Rates) == 0 {
		if d.On.After(d.today) {
			r.Text = fmt.Sprintf("Курсы на %s Банк России ещё не установил: обычно они появляются после 15:30 МСК накануне.", day(d.On)) + checkOnSite
		} else {
			r.Text = fmt.Sprintf("На %s у Банка России нет опубликованных курсов [1].", day(d.On))
		}
		return r
	}
	r.Sources = []facts.Source{ratesOnSource(d.Daily.OnDate)}
	var b strings.Builder
	fmt.Fprintf(&b, "**Курсы Банка России на %s** [1]\n\n", day(d.Daily.OnDate))
	if !sameDay(d.Daily.OnDate, d.On) {
		fmt.Fprintf(&b, "_На %s новых курсов нет — действуют курсы, установленные на %s._\n\n", dayWithWeekday(d.On), dayWithWeekday(d.Daily.OnDate))
	}
	for _, n := range notes {
		b.WriteString(n + "\n\n")
	}
	for _, code := range d.Codes {
		rt, ok := d.Daily.Find(code)
		if !ok {
			fmt.Fprintf(&b, "- **%s**: Банк России не устанавливал курс на эту дату.\n", code)
			continue
		}
		fmt.Fprintf(&b, "- **%s** — %s: **%s ₽**", rt.CharCode, md.Escape(ru.LowerFirst(rt.Name)), formatRate(rt.Value))
		if rt.Nominal != 1 {
			fmt.Fprintf(&b, " за %d (%s ₽ за 1)", rt.Nominal, formatRate(rt.UnitRate))
		}
		if amount > 1 {
			price := rt.UnitRate.Mul(decimal.NewFromInt(int64(amount))).Round(2)
			fmt.Fprintf(&b, "; %d %s = **%s ₽**", amount, rt.CharCode, formatDecimal(price, 2))
		}
		if diff, pct, ok := d.change(code, rt); ok {
			fmt.Fprintf(&b, " %s %s ₽ (%s%%) к %s", arrow(diff), formatSigned(diff, 4), formatSigned(pct, 2), day(d.Prev.OnDate))
		}
		b.WriteString("\n")
	}
	b.WriteString(staleNote(d.Daily.Meta, "Банк России"))
	r.Text = strings.TrimSpace(b.String())
	return r
}

// change is a rate's change against the previous publication: per its nominal, and in per cent.
func (d Day) change(code string, r cbr.Rate) (diff, pct decimal.Decimal, ok bool) {
	pr, ok := d.Prev.Find(code)
	if !ok || pr.UnitRate.IsZero() {
		return decimal.Decimal{}, decimal.Decimal{}, false
	}
	diff = r.UnitRate.Sub(pr.UnitRate).Mul(decimal.NewFromInt(int64(r.Nominal)))
	pct = r.UnitRate.Sub(pr.UnitRate).Div(pr.UnitRate).Mul(decimal.NewFromInt(100))
	return diff, pct, true
}

// Facts are the rates as fetch_cbr_data returns them, each with its change against the
// previous publication; an error when the Bank failed.
func (d Day) Facts() (facts.Payload, error) {
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(DailySource)
	if d.early() {
		p.Items = []facts.Item{factItem("Курсы валют", notYet(d.On), src)}
		return p, nil
	}
	if d.Err != nil {
		return facts.Payload{}, cbrErr("cbr daily rates", d.Err)
	}
	if d.Daily.Stale {
		p.Limitations = append(p.Limitations, staleLimitation(d.Daily.Meta))
	}
	if len(d.Daily.Rates) == 0 {
		text := fmt.Sprintf("На %s у Банка России нет опубликованных курсов.", day(d.On))
		if d.On.After(d.today) {
			text = fmt.Sprintf("Курсы на %s Банк России ещё не установил: обычно они появляются после 15:30 МСК накануне.", day(d.On))
		}
		p.Items = []facts.Item{factItem("Курсы валют", text, src)}
		return p, nil
	}
	if !sameDay(d.Daily.OnDate, d.On) {
		p.Limitations = append(p.Limitations, fmt.Sprintf("На %s новых курсов нет — действуют курсы, установленные на %s.",
			dayWithWeekday(d.On), dayWithWeekday(d.Daily.OnDate)))
	}
	for _, code := range d.Codes {
		r, ok := d.Daily.Find(code)
		if !ok {
			p.Items = append(p.Items, factItem(code, notQuoted(code, "на "+day(d.Daily.OnDate)), src))
			continue
		}
		it := facts.Item{Section: facts.General, Kind: "rate", Title: r.CharCode, Source: src, Fields: []facts.Field{
			{Name: "Валюта", Value: r.Name},
			{Name: "Курс", Value: formatRate(r.Value) + roubleSign},
			{Name: "Дата", Value: day(d.Daily.OnDate)},
		}}
		text := fmt.Sprintf("Официальный курс %s (%s) на %s: %s%s", r.CharCode, ru.LowerFirst(r.Name), day(d.Daily.OnDate), formatRate(r.Value), roubleSign)
		if r.Nominal != 1 {
			text += fmt.Sprintf(" за %d (%s%s за 1)", r.Nominal, formatRate(r.UnitRate), roubleSign)
			it.Fields = append(it.Fields, facts.Field{Name: "Номинал", Value: strconv.Itoa(r.Nominal)},
				facts.Field{Name: "За 1 единицу", Value: formatRate(r.UnitRate) + roubleSign})
		}
		if diff, pct, ok := d.change(code, r); ok {
			change := fmt.Sprintf("%s%s (%s%%) к %s", formatSigned(diff, 4), roubleSign, formatSigned(pct, 2), day(d.Prev.OnDate))
			text += ", изменение " + change
			it.Fields = append(it.Fields, facts.Field{Name: "Изменение", Value: change})
		}
		it.Text = text + "."
		p.Items = append(p.Items, it)
	}
	p.Found = true
	return p, nil
}
