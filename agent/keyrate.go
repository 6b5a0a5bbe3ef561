package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/chart"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// keyRateLookback is how far back the current rate's start date is searched for: the key
// rate has never stayed unchanged longer than that.
const keyRateLookback = 3 * 366

// maxKeyRateChanges bounds the list of decisions printed for a period.
const maxKeyRateChanges = 30

// answerKeyRate answers the key rate on a day or over a period.
func (a *Agent) answerKeyRate(ctx context.Context, p ru.Period) (Answer, error) {
	if a.cbr == nil {
		return Answer{Text: "Данные Банка России в этой установке не подключены."}, nil
	}
	today := a.today()
	if p.From.After(today) {
		return Answer{Text: fmt.Sprintf("На %s ключевой ставки ещё нет: Банк России объявляет её решением совета директоров, будущее значение неизвестно.", day(p.From))}, nil
	}
	if p.To.After(today) {
		p.To = today
	}
	ans := Answer{Sources: []Source{keyRateSourceFor(p)}}
	kr, err := a.cbr.KeyRate(ctx, p.From.AddDate(0, 0, -keyRateLookback), p.To)
	ans.Debug.Calls = append(ans.Debug.Calls, callRecord("cbr.KeyRate", day(p.From)+"–"+day(p.To), len(kr.Points), kr.Meta, err))
	if err != nil {
		ans.Text = sourceDown("ключевую ставку", err) + checkOnSite
		ans.Debug.Degraded = []string{"cbr_unavailable"}
		return ans, nil
	}
	if len(kr.Points) == 0 {
		ans.Text = fmt.Sprintf("За период до %s у Банка России нет данных о ключевой ставке [1].", day(p.To))
		return ans, nil
	}
	runs := keyRateRuns(kr.Points)
	var b strings.Builder
	if p.Single() {
		r, ok := runAt(runs, p.From)
		if !ok {
			ans.Text = fmt.Sprintf("На %s у Банка России нет данных о ключевой ставке [1].", day(p.From))
			return ans, nil
		}
		if sameDay(p.From, today) {
			fmt.Fprintf(&b, "**Ключевая ставка Банка России на %s: %s%%** [1] — действует с %s.", day(p.From), formatDecimal(r.rate, 2), day(r.since))
		} else {
			fmt.Fprintf(&b, "**Ключевая ставка Банка России на %s: %s%%** [1] (действовала с %s).", day(p.From), formatDecimal(r.rate, 2), day(r.since))
		}
		if prev, ok := runAt(runs, r.since.AddDate(0, 0, -1)); ok {
			fmt.Fprintf(&b, "\n\nДо этого — %s%% (с %s).", formatDecimal(prev.rate, 2), day(prev.since))
		}
	} else {
		fmt.Fprintf(&b, "**Ключевая ставка Банка России за %s – %s** [1]\n\n", day(p.From), day(p.To))
		start, ok := runAt(runs, p.From)
		if ok {
			fmt.Fprintf(&b, "- на %s: **%s%%** (с %s)\n", day(p.From), formatDecimal(start.rate, 2), day(start.since))
		}
		changes := 0
		for _, r := range runs {
			if r.since.After(p.From) && !r.since.After(p.To) {
				if changes++; changes <= maxKeyRateChanges {
					fmt.Fprintf(&b, "- с %s: **%s%%**\n", day(r.since), formatDecimal(r.rate, 2))
				}
			}
		}
		switch {
		case changes == 0:
			b.WriteString("\nЗа период ставка не менялась.")
		case changes > maxKeyRateChanges:
			fmt.Fprintf(&b, "- … ещё %d изменений\n", changes-maxKeyRateChanges)
		}
		ans.Chart = a.keyRateChart(kr.Points, p)
	}
	b.WriteString(staleNote(kr.Meta, "Банк России"))
	ans.Text = strings.TrimSpace(b.String())
	return ans, nil
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

func (a *Agent) keyRateChart(pts []cbr.KeyRatePoint, p ru.Period) *Chart {
	var cp []chart.Point
	for _, pt := range pts {
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
		a.log.Warn("key rate chart failed", "err", err)
		return nil
	}
	caption := fmt.Sprintf("Ключевая ставка, %s – %s. Источник: Банк России.", day(p.From), day(p.To))
	return &Chart{PNG: png, Caption: caption, Bytes: len(png)}
}
