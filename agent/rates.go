package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/chart"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// defaultCurrencies answer "/rate" and "курс" without a currency.
var defaultCurrencies = []string{"USD", "EUR", "CNY"}

// maxRatePeriodDays is the longest series one answer covers; longer periods are clamped and
// the answer says so.
const maxRatePeriodDays = 2 * 366

var (
	ratesSource   = Source{Title: "Банк России — официальные курсы валют (cbr.ru)", URL: "https://www.cbr.ru/currency_base/daily/"}
	keyRateSource = Source{Title: "Банк России — ключевая ставка (cbr.ru)", URL: "https://www.cbr.ru/hd_base/KeyRate/"}
	cbrNewsSource = Source{Title: "Банк России — новости (cbr.ru)", URL: "https://www.cbr.ru/news/"}
)

// ratesOnSource is the footnote of the rates set on a day: the Bank of Russia's page of that
// day, so that a figure can be checked where it was published.
func ratesOnSource(on time.Time) Source {
	return Source{Title: "Банк России, курсы на " + day(on),
		URL: "https://www.cbr.ru/currency_base/daily/?UniDbQuery.Posted=True&UniDbQuery.To=" + day(on)}
}

// ratesPeriodSource is the footnote of rate series over a period.
func ratesPeriodSource(p ru.Period) Source {
	return Source{Title: fmt.Sprintf("Банк России, динамика курсов за %s – %s", day(p.From), day(p.To)),
		URL: "https://www.cbr.ru/currency_base/dynamics/"}
}

// keyRateSourceFor is the footnote of the key rate on a day or over a period: the Bank of
// Russia's table for those dates.
func keyRateSourceFor(p ru.Period) Source {
	title := "Банк России, ключевая ставка на " + day(p.From)
	if !p.Single() {
		title = fmt.Sprintf("Банк России, ключевая ставка за %s – %s", day(p.From), day(p.To))
	}
	return Source{Title: title, URL: fmt.Sprintf("https://www.cbr.ru/hd_base/KeyRate/?UniDbQuery.Posted=True&UniDbQuery.From=%s&UniDbQuery.To=%s",
		day(p.From), day(p.To))}
}

// checkOnSite follows an answer that has no figures because the Bank of Russia did not give
// them: where to look, marked with the footnote of the page.
const checkOnSite = " Официальные данные — на сайте Банка России [1]."

// today is the current date at midnight in Moscow, where the Bank of Russia sets its rates.
func (a *Agent) today() time.Time {
	n := a.now().In(ru.Moscow)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, ru.Moscow)
}

func day(t time.Time) string { return t.In(ru.Moscow).Format("02.01.2006") }

var weekdays = [...]string{"воскресенье", "понедельник", "вторник", "среда", "четверг", "пятница", "суббота"}

func dayWithWeekday(t time.Time) string {
	return fmt.Sprintf("%s (%s)", day(t), weekdays[t.In(ru.Moscow).Weekday()])
}

// rateRequest is what a rates question asks for, parsed from Russian text.
type rateRequest struct {
	codes  []string
	period ru.Period
	dated  bool     // the text named a date or period
	notes  []string // Markdown lines said before the figures (unknown currencies, clamping)
	// amount is how many units the question asks about («почём 100 тенге»): the answer also
	// gives their price in roubles, to the kopeck. 0 or 1: the rate alone.
	amount int
}

// dateProblem explains an invalid date.
func dateProblem(err error) string {
	var de *ru.DateError
	if errors.As(err, &de) {
		return fmt.Sprintf("«%s» — такой даты нет: %s. Укажите дату в формате ДД.ММ.ГГГГ, например 15.01.2026.",
			EscapeMarkdown(de.Text), de.Reason)
	}
	return "Не понял дату. Укажите её в формате ДД.ММ.ГГГГ, например 15.01.2026."
}

// answerRates answers a parsed rates request (from text, a plan or a follow-up).
func (a *Agent) answerRates(ctx context.Context, req rateRequest) (Answer, error) {
	if a.cbr == nil {
		return Answer{Text: "Курсы Банка России в этой установке не подключены."}, nil
	}
	today := a.today()
	tomorrow := today.AddDate(0, 0, 1)
	p := req.period
	if p.From.After(tomorrow) {
		return Answer{Text: fmt.Sprintf("Курсов на %s ещё нет: Банк России устанавливает курс не раньше чем накануне, после 15:30 МСК.", day(p.From))}, nil
	}
	if p.Single() {
		return a.ratesOnDay(ctx, req, p.From)
	}
	if p.To.After(today) {
		p.To = today
		req.notes = append(req.notes, fmt.Sprintf("Период ограничен сегодняшним днём (%s).", day(today)))
	}
	if p.Days() > maxRatePeriodDays {
		p.From = p.To.AddDate(0, 0, -(maxRatePeriodDays - 1))
		req.notes = append(req.notes, fmt.Sprintf("Период слишком длинный: показываю последние %d дней, с %s.", maxRatePeriodDays, day(p.From)))
	}
	return a.ratesOverPeriod(ctx, req.codes, p, req.notes)
}

func (a *Agent) ratesOnDay(ctx context.Context, req rateRequest, on time.Time) (Answer, error) {
	codes, notes := req.codes, req.notes
	ans := Answer{Sources: []Source{ratesOnSource(on)}}
	d, err := a.cbr.DailyRates(ctx, on)
	ans.Debug.Calls = append(ans.Debug.Calls, callRecord("cbr.DailyRates", day(on), len(d.Rates), d.Meta, err))
	if err != nil {
		ans.Text = sourceDown("курсы валют", err) + checkOnSite
		ans.Debug.Degraded = []string{"cbr_unavailable"}
		return ans, nil
	}
	if len(d.Rates) == 0 {
		if on.After(a.today()) {
			ans.Text = fmt.Sprintf("Курсы на %s Банк России ещё не установил: обычно они появляются после 15:30 МСК накануне.", day(on)) + checkOnSite
		} else {
			ans.Text = fmt.Sprintf("На %s у Банка России нет опубликованных курсов [1].", day(on))
		}
		return ans, nil
	}
	ans.Sources = []Source{ratesOnSource(d.OnDate)}
	// The previous publication, for the change; best effort.
	var prev cbr.Daily
	if p, err := a.cbr.DailyRates(ctx, d.OnDate.AddDate(0, 0, -1)); err == nil && len(p.Rates) > 0 && p.OnDate.Before(d.OnDate) {
		prev = p
	}

	var b strings.Builder
	fmt.Fprintf(&b, "**Курсы Банка России на %s** [1]\n\n", day(d.OnDate))
	if !sameDay(d.OnDate, on) {
		fmt.Fprintf(&b, "_На %s новых курсов нет — действуют курсы, установленные на %s._\n\n", dayWithWeekday(on), dayWithWeekday(d.OnDate))
	}
	for _, n := range notes {
		b.WriteString(n + "\n\n")
	}
	for _, code := range codes {
		r, ok := d.Find(code)
		if !ok {
			fmt.Fprintf(&b, "- **%s**: Банк России не устанавливал курс на эту дату.\n", code)
			continue
		}
		fmt.Fprintf(&b, "- **%s** — %s: **%s ₽**", r.CharCode, EscapeMarkdown(lowerFirst(r.Name)), formatRate(r.Value))
		if r.Nominal != 1 {
			fmt.Fprintf(&b, " за %d (%s ₽ за 1)", r.Nominal, formatRate(r.UnitRate))
		}
		if req.amount > 1 {
			price := r.UnitRate.Mul(decimal.NewFromInt(int64(req.amount))).Round(2)
			fmt.Fprintf(&b, "; %d %s = **%s ₽**", req.amount, r.CharCode, formatDecimal(price, 2))
		}
		if pr, ok := prev.Find(code); ok && !pr.UnitRate.IsZero() {
			diff := r.UnitRate.Sub(pr.UnitRate).Mul(decimal.NewFromInt(int64(r.Nominal)))
			pct := r.UnitRate.Sub(pr.UnitRate).Div(pr.UnitRate).Mul(decimal.NewFromInt(100))
			fmt.Fprintf(&b, " %s %s ₽ (%s%%) к %s", arrow(diff), formatSigned(diff, 4), formatSigned(pct, 2), day(prev.OnDate))
		}
		b.WriteString("\n")
	}
	b.WriteString(staleNote(d.Meta, "Банк России"))
	ans.Text = strings.TrimSpace(b.String())
	return ans, nil
}

func (a *Agent) ratesOverPeriod(ctx context.Context, codes []string, p ru.Period, notes []string) (Answer, error) {
	ans := Answer{Sources: []Source{ratesPeriodSource(p)}}
	var b strings.Builder
	fmt.Fprintf(&b, "**Курсы Банка России за %s – %s** [1]\n\n", day(p.From), day(p.To))
	for _, n := range notes {
		b.WriteString(n + "\n\n")
	}
	var meta cbr.Meta
	for _, code := range codes {
		dyn, err := a.cbr.Dynamic(ctx, code, p.From, p.To)
		ans.Debug.Calls = append(ans.Debug.Calls, callRecord("cbr.Dynamic", code+" "+day(p.From)+"–"+day(p.To), len(dyn.Points), dyn.Meta, err))
		switch {
		case errors.Is(err, cbr.ErrUnknownCurrency):
			fmt.Fprintf(&b, "**%s**: Банк России не устанавливает курс этой валюты.\n\n", code)
			continue
		case err != nil:
			ans.Text = sourceDown("динамику курса", err) + checkOnSite
			ans.Debug.Degraded = []string{"cbr_unavailable"}
			return ans, nil
		case len(dyn.Points) == 0:
			fmt.Fprintf(&b, "**%s**: за этот период Банк России курсов не публиковал.\n\n", code)
			continue
		}
		if dyn.Stale {
			meta = dyn.Meta
		}
		s := summarize(dyn.Points)
		fmt.Fprintf(&b, "**%s**, ₽ за 1 единицу (публикаций: %d)\n", code, len(dyn.Points))
		fmt.Fprintf(&b, "- начало: **%s** (%s)\n- конец: **%s** (%s)\n", formatRate(s.first.UnitRate), day(s.first.Date), formatRate(s.last.UnitRate), day(s.last.Date))
		fmt.Fprintf(&b, "- минимум: %s (%s)\n- максимум: %s (%s)\n", formatRate(s.min.UnitRate), day(s.min.Date), formatRate(s.max.UnitRate), day(s.max.Date))
		fmt.Fprintf(&b, "- изменение: %s %s ₽ (%s%%)\n\n", arrow(s.change), formatSigned(s.change, 4), formatSigned(s.changePct, 2))
		if ans.Chart == nil && len(dyn.Points) >= 2 {
			ans.Chart = a.rateChart(code, p, dyn.Points, s)
		}
	}
	b.WriteString(staleNote(meta, "Банк России"))
	ans.Text = strings.TrimSpace(b.String())
	return ans, nil
}

// seriesStats summarises a rate series by unit rate.
type seriesStats struct {
	first, last, min, max cbr.Point
	change, changePct     decimal.Decimal
}

func summarize(pts []cbr.Point) seriesStats {
	s := seriesStats{first: pts[0], last: pts[len(pts)-1], min: pts[0], max: pts[0]}
	for _, p := range pts[1:] {
		if p.UnitRate.LessThan(s.min.UnitRate) {
			s.min = p
		}
		if p.UnitRate.GreaterThan(s.max.UnitRate) {
			s.max = p
		}
	}
	s.change = s.last.UnitRate.Sub(s.first.UnitRate)
	if !s.first.UnitRate.IsZero() {
		s.changePct = s.change.Div(s.first.UnitRate).Mul(decimal.NewFromInt(100))
	}
	return s
}

func (a *Agent) rateChart(code string, p ru.Period, pts []cbr.Point, s seriesStats) *Chart {
	cp := make([]chart.Point, len(pts))
	for i, pt := range pts {
		cp[i] = chart.Point{Date: pt.Date, Value: pt.UnitRate.InexactFloat64()} // plotting only
	}
	png, err := chart.PNG(chart.Spec{Title: fmt.Sprintf("Курс %s, ₽ за 1 единицу — %s – %s", code, day(p.From), day(p.To)), YLabel: "₽", Points: cp})
	if err != nil {
		a.log.Warn("rate chart failed", "code", code, "err", err)
		return nil
	}
	caption := fmt.Sprintf("%s, %s – %s: %s → %s ₽ (%s%%). Источник: Банк России.",
		code, day(s.first.Date), day(s.last.Date), formatRate(s.first.UnitRate), formatRate(s.last.UnitRate), formatSigned(s.changePct, 2))
	return &Chart{PNG: png, Caption: caption, Bytes: len(png)}
}

// formatRate prints a rate with 4 decimals, or more for currencies worth under a kopeck's
// hundredth of a rouble per unit (unit rates such as 0,218342).
func formatRate(d decimal.Decimal) string {
	if d.Abs().LessThan(decimal.NewFromInt(1)) {
		return formatDecimal(d, 6)
	}
	return formatDecimal(d, 4)
}

func arrow(d decimal.Decimal) string {
	switch d.Sign() {
	case 1:
		return "▲"
	case -1:
		return "▼"
	default:
		return "="
	}
}

// staleNote says that figures come from the last known value because the source failed now.
func staleNote(m cbr.Meta, source string) string {
	if !m.Stale {
		return ""
	}
	return fmt.Sprintf("\n⚠️ _%s сейчас недоступен: показаны последние полученные данные (получены %s МСК)._",
		source, m.FetchedAt.In(ru.Moscow).Format("02.01.2006 15:04"))
}

// sourceDown is the answer when the Bank of Russia failed and nothing is cached.
func sourceDown(what string, err error) string {
	var fault *cbr.FaultError
	if errors.As(err, &fault) && !errors.Is(err, cbr.ErrUnavailable) {
		return fmt.Sprintf("Банк России не принял запрос на %s. Проверьте дату и валюту.", what)
	}
	return fmt.Sprintf("Не удалось получить %s: сервис Банка России сейчас недоступен, а сохранённых данных нет. Попробуйте через несколько минут.", what)
}

func callRecord(source, args string, rows int, m cbr.Meta, err error) Call {
	c := Call{Source: source, Args: args, Rows: rows, Result: "ok"}
	switch {
	case err != nil:
		c.Result = "error: " + err.Error()
	case m.Stale:
		c.Result = "stale"
	case rows == 0:
		c.Result = "empty"
	}
	return c
}

func sameDay(a, b time.Time) bool {
	a, b = a.In(ru.Moscow), b.In(ru.Moscow)
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}

func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 1 && !(r[1] >= 'А' && r[1] <= 'Я') { // keep abbreviations such as "СДР"
		r[0] = []rune(strings.ToLower(string(r[0])))[0]
	}
	return string(r)
}
