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
	"sync"
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
	// Cross asks for the first currency in the second (Codes has two), computed from the two
	// rates the Bank set.
	Cross bool
}

// Rates answers a rates request: the rates on its day, or their dynamics over its period.
func (s *Skill) Rates(ctx context.Context, req Request) skill.Reply {
	if req.Period.Single() {
		d := s.Day(ctx, req.Codes, req.Period.From)
		r := d.Reply(req.Amount, req.Notes)
		if line, ok := d.cross(req); ok {
			r.Text += "\n\n" + line
		}
		return r
	}
	return s.Series(ctx, req.Codes, req.Period).Reply(req.Notes)
}

// notYet is the answer about rates asked for a day after tomorrow.
func notYet(on time.Time) string {
	return fmt.Sprintf("Курсов на %s ещё нет: Банк России устанавливает курс не раньше чем накануне, после 15:30 МСК.", day(on))
}

// ---- the rates on a day ----

// Day is the Bank of Russia's rates of some currencies in force on a day.
type Day struct {
	Codes []string
	// On is the day asked for.
	On    time.Time
	today time.Time
	// Daily is the publication in force on On (on tomorrow, for a later day); its OnDate is
	// earlier after a weekend or a holiday. Prev is the publication before it, for the change
	// (empty when unknown).
	Daily, Prev cbr.Daily
	// Earlier are the rates in force on On of the codes Daily lacks (an empty table, a currency
	// not quoted that day): the latest each had before, from its history.
	Earlier map[string]Earlier
	// Missing are the codes with no rate in force on On, and why.
	Missing map[string]Missing
	// Err is why the Bank gave no rates.
	Err   error
	Calls []skill.Call
}

// future reports a day the Bank has not set rates for yet as of today: it sets them the day
// before, so a day after tomorrow surely, and tomorrow until the afternoon.
func (d Day) future() bool { return d.On.After(d.today) }

// upTo is the last day whose rates may be set already: On, or tomorrow for a later day.
func (d Day) upTo() time.Time {
	if tomorrow := d.today.AddDate(0, 0, 1); d.On.After(tomorrow) {
		return tomorrow
	}
	return d.On
}

// Day asks for the rates of codes in force on a day: the day's publication, the publication
// before it (for the change), and, for each code the publication lacks, the latest rate it
// had before, searched back in its history.
func (s *Skill) Day(ctx context.Context, codes []string, on time.Time) Day {
	d := Day{Codes: codes, On: on, today: s.today()}
	upTo := d.upTo()
	d.Daily, d.Err = s.bank.DailyRates(ctx, upTo)
	d.Calls = []skill.Call{callRecord("cbr.DailyRates", day(upTo), len(d.Daily.Rates), d.Daily.Meta, d.Err)}
	if d.Err != nil {
		return d
	}
	if d.Daily.OnDate.After(upTo) { // never claim a rate for a day before it was set
		d.Daily.Rates = nil
	}
	// The codes the publication lacks are searched at once, each in its own history.
	type search struct {
		e     Earlier
		m     Missing
		calls []skill.Call
	}
	found := make([]*search, len(codes))
	var wg sync.WaitGroup
	for i, code := range codes {
		if _, ok := d.Daily.Find(code); ok {
			continue
		}
		found[i] = &search{}
		wg.Go(func() { found[i].e, found[i].m, found[i].calls = s.earlier(ctx, code, upTo) })
	}
	wg.Wait()
	for i, code := range codes {
		if found[i] == nil {
			continue
		}
		e, m := found[i].e, found[i].m
		d.Calls = append(d.Calls, found[i].calls...)
		if e.On.IsZero() {
			if d.Missing == nil {
				d.Missing = map[string]Missing{}
			}
			d.Missing[code] = m
			continue
		}
		if d.Earlier == nil {
			d.Earlier = map[string]Earlier{}
		}
		d.Earlier[code] = e
	}
	if len(d.Daily.Rates) == 0 {
		return d
	}
	// The previous publication, for the change; best effort.
	if p, err := s.bank.DailyRates(ctx, d.Daily.OnDate.AddDate(0, 0, -1)); err == nil && len(p.Rates) > 0 && p.OnDate.Before(d.Daily.OnDate) {
		d.Prev = p
	}
	return d
}

// quote is one currency's rate in force on the day asked, wherever it was found.
type quote struct {
	rate cbr.Rate
	// on is the date the rate was set for.
	on time.Time
	// prevUnit is the unit rate set on prevOn, the publication before; zero prevOn: unknown.
	prevUnit decimal.Decimal
	prevOn   time.Time
}

// quote is code's rate in force on On: from the day's publication, or the latest before it.
func (d Day) quote(code string) (quote, bool) {
	if r, ok := d.Daily.Find(code); ok {
		q := quote{rate: r, on: d.Daily.OnDate}
		if pr, ok := d.Prev.Find(code); ok {
			q.prevUnit, q.prevOn = pr.UnitRate, d.Prev.OnDate
		}
		return q, true
	}
	if e, ok := d.Earlier[code]; ok {
		q := quote{rate: e.Rate, on: e.On}
		if !e.Prev.Date.IsZero() {
			q.prevUnit, q.prevOn = e.Prev.UnitRate, e.Prev.Date
		}
		return q, true
	}
	return quote{}, false
}

// change is a rate's change against the publication before: per its nominal, and in per cent.
func (q quote) change() (diff, pct decimal.Decimal, ok bool) {
	if q.prevOn.IsZero() || q.prevUnit.IsZero() {
		return decimal.Decimal{}, decimal.Decimal{}, false
	}
	diff = q.rate.UnitRate.Sub(q.prevUnit).Mul(decimal.NewFromInt(int64(q.rate.Nominal)))
	pct = q.rate.UnitRate.Sub(q.prevUnit).Div(q.prevUnit).Mul(decimal.NewFromInt(100))
	return diff, pct, true
}

// setOn is the one date every rate shown was set for; zero when they differ or none is shown.
func (d Day) setOn() time.Time {
	var on time.Time
	for _, code := range d.Codes {
		q, ok := d.quote(code)
		switch {
		case !ok:
		case on.IsZero():
			on = q.on
		case !sameDay(on, q.on):
			return time.Time{}
		}
	}
	return on
}

// stale reports that a figure shown is the last known one, served because the Bank failed.
func (d Day) stale() (cbr.Meta, bool) {
	if d.Daily.Stale && len(d.Daily.Rates) > 0 {
		return d.Daily.Meta, true
	}
	for _, code := range d.Codes {
		if e, ok := d.Earlier[code]; ok && e.Stale {
			return e.Meta, true
		}
	}
	return cbr.Meta{}, false
}

// notes say which day the rates shown were set for when it is not the day asked.
func (d Day) notes() []string {
	on := d.setOn()
	if on.IsZero() && len(d.Daily.Rates) > 0 {
		on = d.Daily.OnDate
	}
	switch {
	case on.IsZero(), sameDay(on, d.On):
		return nil
	case d.future():
		return []string{fmt.Sprintf("Курс на %s Банк России ещё не установил (он устанавливает курс накануне, после 15:30 МСК); последний установленный — на %s.",
			day(d.On), dayWithWeekday(on))}
	case len(d.Earlier) == 0:
		return []string{fmt.Sprintf("На %s новых курсов нет — действуют курсы, установленные на %s.", dayWithWeekday(d.On), dayWithWeekday(on))}
	}
	return []string{fmt.Sprintf("Курс на %s не устанавливался; действует курс от %s.", day(d.On), day(on))}
}

// since is the Markdown-free remark after a rate set for another day than the heading's.
func (d Day) since(q quote, heading time.Time) string {
	if !heading.IsZero() && sameDay(q.on, heading) {
		return ""
	}
	if d.future() {
		return fmt.Sprintf("курс от %s: на %s ещё не установлен", day(q.on), day(d.On))
	}
	return fmt.Sprintf("курс от %s: на %s не устанавливался", day(q.on), day(d.On))
}

// Reply is the rates as the chat shows them, each with its change, after notes; amount > 1
// adds the price of that many units.
func (d Day) Reply(amount int, notes []string) skill.Reply {
	r := skill.Reply{Sources: []facts.Source{ratesOnSource(d.On)}, Calls: d.Calls}
	if d.Err != nil {
		r.Text = sourceDown("курсы валют", d.Err) + checkOnSite
		r.Degraded = []string{"cbr_unavailable"}
		return r
	}
	heading := d.setOn()
	var b strings.Builder
	switch {
	case !heading.IsZero():
		r.Sources = []facts.Source{ratesOnSource(heading)}
		fmt.Fprintf(&b, "**Курсы Банка России на %s** [1]\n\n", day(heading))
	case len(d.Daily.Rates) > 0:
		heading = d.Daily.OnDate
		r.Sources = []facts.Source{ratesOnSource(heading)}
		fmt.Fprintf(&b, "**Курсы Банка России на %s** [1]\n\n", day(heading))
	default:
		r.Sources = []facts.Source{DailySource}
		fmt.Fprintf(&b, "**Курсы Банка России, действующие на %s** [1]\n\n", day(d.On))
	}
	for _, n := range d.notes() {
		b.WriteString("_" + n + "_\n\n")
	}
	for _, n := range notes {
		b.WriteString(n + "\n\n")
	}
	for _, code := range d.Codes {
		q, ok := d.quote(code)
		if !ok {
			fmt.Fprintf(&b, "- **%s**: %s\n", code, md.Escape(d.missing(code)))
			continue
		}
		rt := q.rate
		fmt.Fprintf(&b, "- **%s** — %s: **%s ₽**", rt.CharCode, md.Escape(ru.LowerFirst(rt.Name)), formatRate(rt.Value))
		if rt.Nominal != 1 {
			fmt.Fprintf(&b, " за %d (%s ₽ за 1)", rt.Nominal, formatRate(rt.UnitRate))
		}
		if amount > 1 {
			price := rt.UnitRate.Mul(decimal.NewFromInt(int64(amount))).Round(2)
			fmt.Fprintf(&b, "; %d %s = **%s ₽**", amount, rt.CharCode, formatDecimal(price, 2))
		}
		if diff, pct, ok := q.change(); ok {
			fmt.Fprintf(&b, " %s %s ₽ (%s%%) к %s", arrow(diff), formatSigned(diff, 4), formatSigned(pct, 2), day(q.prevOn))
		}
		if s := d.since(q, heading); s != "" {
			fmt.Fprintf(&b, " _(%s)_", s)
		}
		b.WriteString("\n")
	}
	if m, ok := d.stale(); ok {
		b.WriteString(staleNote(m, "Банк России"))
	}
	if d.setOn().IsZero() && len(d.Daily.Rates) == 0 && len(d.Earlier) == 0 {
		b.WriteString("\n" + strings.TrimSpace(checkOnSite))
	}
	r.Text = strings.TrimSpace(b.String())
	return r
}

// missing says why code has no rate in force on On.
func (d Day) missing(code string) string {
	m, ok := d.Missing[code]
	if !ok { // not searched: the publication lacks it and nothing more is known
		return notQuoted(code, "на "+day(d.On))
	}
	return missingText(code, d.On, m)
}

// Facts are the rates as fetch_cbr_data returns them, each with its change against the
// previous publication; an error when the Bank failed.
func (d Day) Facts() (facts.Payload, error) {
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(DailySource)
	if d.Err != nil {
		return facts.Payload{}, cbrErr("cbr daily rates", d.Err)
	}
	if m, ok := d.stale(); ok {
		p.Limitations = append(p.Limitations, staleLimitation(m))
	}
	p.Limitations = append(p.Limitations, d.notes()...)
	for _, code := range d.Codes {
		q, ok := d.quote(code)
		if !ok {
			p.Items = append(p.Items, factItem(code, d.missing(code), src))
			continue
		}
		r := q.rate
		it := facts.Item{Section: facts.General, Kind: "rate", Title: r.CharCode, Source: src, Fields: []facts.Field{
			{Name: "Валюта", Value: r.Name},
			{Name: "Курс", Value: formatRate(r.Value) + roubleSign},
			{Name: "Дата", Value: day(q.on)},
		}}
		text := fmt.Sprintf("Официальный курс %s (%s) на %s: %s%s", r.CharCode, ru.LowerFirst(r.Name), day(q.on), formatRate(r.Value), roubleSign)
		if r.Nominal != 1 {
			text += fmt.Sprintf(" за %d (%s%s за 1)", r.Nominal, formatRate(r.UnitRate), roubleSign)
			it.Fields = append(it.Fields, facts.Field{Name: "Номинал", Value: strconv.Itoa(r.Nominal)},
				facts.Field{Name: "За 1 единицу", Value: formatRate(r.UnitRate) + roubleSign})
		}
		if diff, pct, ok := q.change(); ok {
			change := fmt.Sprintf("%s%s (%s%%) к %s", formatSigned(diff, 4), roubleSign, formatSigned(pct, 2), day(q.prevOn))
			text += ", изменение " + change
			it.Fields = append(it.Fields, facts.Field{Name: "Изменение", Value: change})
		}
		if _, earlier := d.Earlier[code]; earlier {
			text += " (" + d.since(q, time.Time{}) + ")"
		}
		it.Text = text + "."
		p.Items = append(p.Items, it)
		p.Found = true
	}
	return p, nil
}

// cross is the line of a cross rate — the first currency of req in the second, from the two
// rates per unit the Bank set on the same day, to four decimals — when req asks one and both
// rates are there.
func (d Day) cross(req Request) (string, bool) {
	if !req.Cross || len(req.Codes) != 2 || d.Err != nil {
		return "", false
	}
	a, okA := d.quote(req.Codes[0])
	b, okB := d.quote(req.Codes[1])
	if !okA || !okB || b.rate.UnitRate.IsZero() {
		return "", false
	}
	x := a.rate.UnitRate.DivRound(b.rate.UnitRate, 4)
	return fmt.Sprintf("Кросс-курс %s/%s по курсам Банка России: %s ₽ ÷ %s ₽ = **%s** (расчёт: 1 %s = %s %s) [1]",
		a.rate.CharCode, b.rate.CharCode, formatRate(a.rate.UnitRate), formatRate(b.rate.UnitRate), formatDecimal(x, 4),
		a.rate.CharCode, formatDecimal(x, 4), b.rate.CharCode), true
}
