package rates

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/chart"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// keyRateLookback is how far back the current rate's start date is searched for: the key
// rate has never stayed unchanged longer than that.
const keyRateLookback = 3 * 366

// maxKeyRateChanges bounds the list of decisions printed for a period.
const maxKeyRateChanges = 30

// keyRateSourceFor is the footnote of the key rate on a day or over a period: the Bank of
// Russia's table for those dates.
func keyRateSourceFor(p ru.Period) facts.Source {
	title := "Банк России, ключевая ставка на " + day(p.From)
	if !p.Single() {
		title = fmt.Sprintf("Банк России, ключевая ставка за %s – %s", day(p.From), day(p.To))
	}
	return facts.Source{Title: title, URL: fmt.Sprintf("https://www.cbr.ru/hd_base/KeyRate/?UniDbQuery.Posted=True&UniDbQuery.From=%s&UniDbQuery.To=%s",
		day(p.From), day(p.To))}
}

// KeyRates is the key rate on a day, or over a period.
type KeyRates struct {
	// Period is the day or period asked for, ending today at the latest.
	Period ru.Period
	// Rates are the daily rows from keyRateLookback before the period to its end.
	Rates cbr.KeyRates
	// Err is why the Bank gave no rates.
	Err   error
	Calls []skill.Call
	today time.Time
	log   *slog.Logger
}

// early reports a period that starts after today: the rate is not decided yet.
func (k KeyRates) early() bool { return k.Period.From.After(k.today) }

// KeyRate asks for the key rate over p, and far enough back to know when the rate at its
// start took effect.
func (s *Skill) KeyRate(ctx context.Context, p ru.Period) KeyRates {
	k := KeyRates{Period: p, today: s.today(), log: s.log}
	if k.early() {
		return k
	}
	if p.To.After(k.today) {
		p.To = k.today
	}
	k.Period = p
	k.Rates, k.Err = s.bank.KeyRate(ctx, p.From.AddDate(0, 0, -keyRateLookback), p.To)
	k.Calls = []skill.Call{callRecord("cbr.KeyRate", day(p.From)+"–"+day(p.To), len(k.Rates.Points), k.Rates.Meta, k.Err)}
	return k
}

// Current is the key rate in force on the day asked (the period's first), and the day it took
// effect; ok is false when the Bank gave none.
func (k KeyRates) Current() (rate decimal.Decimal, since time.Time, ok bool) {
	if k.Err != nil || k.early() {
		return decimal.Decimal{}, time.Time{}, false
	}
	run, ok := runAt(keyRateRuns(k.Rates.Points), k.Period.From)
	return run.rate, run.since, ok
}

// notDecided is the answer about the key rate asked for a day after today.
func notDecided(on time.Time) string {
	return fmt.Sprintf("На %s ключевой ставки ещё нет: Банк России объявляет её решением совета директоров, будущее значение неизвестно.", day(on))
}

// Reply is the rate on the day with the date it took effect and the value before, or the
// rate at the period's start and each change within it, with a chart.
func (k KeyRates) Reply() skill.Reply {
	p := k.Period
	if k.early() {
		return skill.Reply{Text: notDecided(p.From)}
	}
	r := skill.Reply{Sources: []facts.Source{keyRateSourceFor(p)}, Calls: k.Calls}
	if k.Err != nil {
		r.Text = sourceDown("ключевую ставку", k.Err) + checkOnSite
		r.Degraded = []string{"cbr_unavailable"}
		return r
	}
	if len(k.Rates.Points) == 0 {
		r.Text = fmt.Sprintf("За период до %s у Банка России нет данных о ключевой ставке [1].", day(p.To))
		return r
	}
	runs := keyRateRuns(k.Rates.Points)
	var b strings.Builder
	if p.Single() {
		run, ok := runAt(runs, p.From)
		if !ok {
			r.Text = fmt.Sprintf("На %s у Банка России нет данных о ключевой ставке [1].", day(p.From))
			return r
		}
		if sameDay(p.From, k.today) {
			fmt.Fprintf(&b, "**Ключевая ставка Банка России на %s: %s%%** [1] — действует с %s.", day(p.From), formatDecimal(run.rate, 2), day(run.since))
		} else {
			fmt.Fprintf(&b, "**Ключевая ставка Банка России на %s: %s%%** [1] (действовала с %s).", day(p.From), formatDecimal(run.rate, 2), day(run.since))
		}
		if prev, ok := runAt(runs, run.since.AddDate(0, 0, -1)); ok {
			fmt.Fprintf(&b, "\n\nДо этого — %s%% (с %s).", formatDecimal(prev.rate, 2), day(prev.since))
		}
	} else {
		fmt.Fprintf(&b, "**Ключевая ставка Банка России за %s – %s** [1]\n\n", day(p.From), day(p.To))
		start, ok := runAt(runs, p.From)
		if ok {
			fmt.Fprintf(&b, "- на %s: **%s%%** (с %s)\n", day(p.From), formatDecimal(start.rate, 2), day(start.since))
		}
		changes := 0
		for _, run := range runs {
			if run.since.After(p.From) && !run.since.After(p.To) {
				if changes++; changes <= maxKeyRateChanges {
					fmt.Fprintf(&b, "- с %s: **%s%%**\n", day(run.since), formatDecimal(run.rate, 2))
				}
			}
		}
		switch {
		case changes == 0:
			b.WriteString("\nЗа период ставка не менялась.")
		case changes > maxKeyRateChanges:
			fmt.Fprintf(&b, "- … ещё %s\n", ru.Count(changes-maxKeyRateChanges, "изменение", "изменения", "изменений"))
		}
		r.Chart = k.chart()
	}
	b.WriteString(staleNote(k.Rates.Meta, "Банк России"))
	r.Text = strings.TrimSpace(b.String())
	return r
}

// Facts are the key rate as fetch_cbr_data returns it: on the day (with the date it took effect
// and the value before), and for a period every change within it; an error when the Bank failed.
func (k KeyRates) Facts() (facts.Payload, error) {
	per := k.Period
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(KeyRateSource)
	const title = "Ключевая ставка"
	if k.early() {
		p.Items = []facts.Item{factItem(title, notDecided(per.From), src)}
		return p, nil
	}
	if k.Err != nil {
		return facts.Payload{}, cbrErr("cbr key rate", k.Err)
	}
	if k.Rates.Stale {
		p.Limitations = append(p.Limitations, staleLimitation(k.Rates.Meta))
	}
	runs := keyRateRuns(k.Rates.Points)
	r, ok := runAt(runs, per.From)
	if !ok {
		p.Items = []facts.Item{factItem(title, fmt.Sprintf("На %s у Банка России нет данных о ключевой ставке.", day(per.From)), src)}
		return p, nil
	}
	rate := func(r keyRateRun) string { return formatDecimal(r.rate, 2) + "%" }
	it := facts.Item{Section: facts.General, Kind: "key_rate", Title: title, Source: src,
		Text:   fmt.Sprintf("Ключевая ставка Банка России на %s: %s годовых, действует с %s.", day(per.From), rate(r), day(r.since)),
		Fields: []facts.Field{{Name: "Ставка", Value: rate(r)}, {Name: "На дату", Value: day(per.From)}, {Name: "Действует с", Value: day(r.since)}}}
	if prev, ok := runAt(runs, r.since.AddDate(0, 0, -1)); ok {
		it.Fields = append(it.Fields, facts.Field{Name: "Предыдущее значение", Value: fmt.Sprintf("%s (с %s)", rate(prev), day(prev.since))})
	}
	p.Items = append(p.Items, it)
	if !per.Single() {
		changes := 0
		for _, c := range runs {
			if !c.since.After(per.From) || c.since.After(per.To) {
				continue
			}
			if changes++; changes <= maxKeyRateChanges {
				p.Items = append(p.Items, facts.Item{Section: facts.General, Kind: "key_rate", Title: title, Source: src,
					Text:   fmt.Sprintf("С %s ключевая ставка — %s годовых.", day(c.since), rate(c)),
					Fields: []facts.Field{{Name: "Ставка", Value: rate(c)}, {Name: "Действует с", Value: day(c.since)}}})
			}
		}
		if changes == 0 {
			p.Limitations = append(p.Limitations, fmt.Sprintf("За %s – %s ставка не менялась.", day(per.From), day(per.To)))
		}
		p.Total = 1 + changes
	}
	p.Found = true
	return p, nil
}

// keyRateRun is a stretch of days with one key rate.
type keyRateRun struct {
	since time.Time
	rate  decimal.Decimal
}

// keyRateRuns collapses daily rows into the dates the rate changed.
func keyRateRuns(pts []cbr.KeyRatePoint) []keyRateRun {
	var runs []keyRateRun
	for _, p := range pts {
		if len(runs) > 0 && runs[len(runs)-1].rate.Equal(p.Rate) {
			continue
		}
		runs = append(runs, keyRateRun{since: p.Date, rate: p.Rate})
	}
	return runs
}

// runAt is the run in force on day t.
func runAt(runs []keyRateRun, t time.Time) (keyRateRun, bool) {
	for i := len(runs) - 1; i >= 0; i-- {
		if !runs[i].since.After(t) {
			return runs[i], true
		}
	}
	return keyRateRun{}, false
}

func (k KeyRates) chart() *skill.Chart {
	p := k.Period
	var cp []chart.Point
	for _, pt := range k.Rates.Points {
		if pt.Date.Before(p.From) {
			cp = []chart.Point{{Date: p.From, Value: pt.Rate.InexactFloat64()}} // the value in force at the start
			continue
		}
		if !pt.Date.After(p.To) {
			cp = append(cp, chart.Point{Date: pt.Date, Value: pt.Rate.InexactFloat64()})
		}
	}
	if len(cp) == 0 {
		return nil
	}
	if last := cp[len(cp)-1]; last.Date.Before(p.To) {
		cp = append(cp, chart.Point{Date: p.To, Value: last.Value}) // hold the last value to the end
	}
	png, err := chart.PNG(chart.Spec{Title: fmt.Sprintf("Ключевая ставка Банка России, %% — %s – %s", day(p.From), day(p.To)), YLabel: "%", Points: cp, Step: true})
	if err != nil {
		k.log.Warn("key rate chart failed", "err", err)
		return nil
	}
	caption := fmt.Sprintf("Ключевая ставка, %s – %s. Источник: Банк России.", day(p.From), day(p.To))
	return &skill.Chart{PNG: png, Caption: caption, Bytes: len(png)}
}
