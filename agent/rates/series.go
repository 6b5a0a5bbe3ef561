package rates

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/chart"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// Series is the dynamics of some currencies' rates over a period.
type Series struct {
	// Period is the period asked for, bounded by today and maxRatePeriodDays; Notes say how.
	Period ru.Period
	Notes  []string
	// Each is a currency's series, in the order asked, up to the first that failed.
	Each  []Dynamic
	Calls []skill.Call
	early bool
	log   *slog.Logger
}

// Dynamic is one currency's series.
type Dynamic struct {
	Code string
	cbr.Dynamic
	// Err is cbr.ErrUnknownCurrency for a code the Bank does not quote, or why it failed.
	Err error
}

// Series asks for the dynamics of codes over a period, bounded as one answer can show it; the
// first failure stops it.
func (s *Skill) Series(ctx context.Context, codes []string, p ru.Period) Series {
	today := s.today()
	sr := Series{Period: p, log: s.log}
	if p.From.After(today.AddDate(0, 0, 1)) {
		sr.early = true
		return sr
	}
	if p.To.After(today) {
		p.To = today
		sr.Notes = append(sr.Notes, fmt.Sprintf("Период ограничен сегодняшним днём (%s).", day(today)))
	}
	if p.Days() > maxRatePeriodDays {
		p.From = p.To.AddDate(0, 0, -(maxRatePeriodDays - 1))
		sr.Notes = append(sr.Notes, fmt.Sprintf("Период слишком длинный: показываю последние %s, с %s.", ru.Count(maxRatePeriodDays, "день", "дня", "дней"), day(p.From)))
	}
	sr.Period = p
	for _, code := range codes {
		if _, ok := ru.LookupCurrency(code); !ok {
			sr.Each = append(sr.Each, Dynamic{Code: code, Err: cbr.ErrUnknownCurrency})
			continue
		}
		dyn, err := s.bank.Dynamic(ctx, code, p.From, p.To)
		sr.Calls = append(sr.Calls, callRecord("cbr.Dynamic", code+" "+day(p.From)+"–"+day(p.To), len(dyn.Points), dyn.Meta, err))
		sr.Each = append(sr.Each, Dynamic{Code: code, Dynamic: dyn, Err: err})
		if err != nil && !errors.Is(err, cbr.ErrUnknownCurrency) {
			break
		}
	}
	return sr
}

// Reply is each series summarised — start, end, minimum, maximum, change — after notes and
// the bounds' notes, with a chart of the first.
func (sr Series) Reply(notes []string) skill.Reply {
	p := sr.Period
	if sr.early {
		return skill.Reply{Text: notYet(p.From)}
	}
	r := skill.Reply{Sources: []facts.Source{ratesPeriodSource(p)}, Calls: sr.Calls}
	var b strings.Builder
	fmt.Fprintf(&b, "**Курсы Банка России за %s – %s** [1]\n\n", day(p.From), day(p.To))
	for _, n := range append(notes[:len(notes):len(notes)], sr.Notes...) {
		b.WriteString(n + "\n\n")
	}
	var meta cbr.Meta
	for _, d := range sr.Each {
		switch {
		case errors.Is(d.Err, cbr.ErrUnknownCurrency):
			fmt.Fprintf(&b, "**%s**: Банк России не устанавливает курс этой валюты.\n\n", d.Code)
			continue
		case d.Err != nil:
			r.Text = sourceDown("динамику курса", d.Err) + checkOnSite
			r.Degraded = []string{"cbr_unavailable"}
			return r
		case len(d.Points) == 0:
			fmt.Fprintf(&b, "**%s**: за этот период Банк России курсов не публиковал.\n\n", d.Code)
			continue
		}
		if d.Stale {
			meta = d.Meta
		}
		s := summarize(d.Points)
		fmt.Fprintf(&b, "**%s**, ₽ за 1 единицу (публикаций: %d)\n", d.Code, len(d.Points))
		fmt.Fprintf(&b, "- начало: **%s** (%s)\n- конец: **%s** (%s)\n", formatRate(s.first.UnitRate), day(s.first.Date), formatRate(s.last.UnitRate), day(s.last.Date))
		fmt.Fprintf(&b, "- минимум: %s (%s)\n- максимум: %s (%s)\n", formatRate(s.min.UnitRate), day(s.min.Date), formatRate(s.max.UnitRate), day(s.max.Date))
		fmt.Fprintf(&b, "- изменение: %s %s ₽ (%s%%)\n\n", arrow(s.change), formatSigned(s.change, 4), formatSigned(s.changePct, 2))
		if r.Chart == nil && len(d.Points) >= 2 {
			r.Chart = sr.chart(d.Code, d.Points, s)
		}
	}
	b.WriteString(staleNote(meta, "Банк России"))
	r.Text = strings.TrimSpace(b.String())
	return r
}

// Facts are each series summarised as fetch_cbr_data returns it; an error when the Bank failed.
func (sr Series) Facts() (facts.Payload, error) {
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(DailySource)
	per := sr.Period
	if sr.early {
		p.Items = []facts.Item{factItem("Курсы валют", notYet(per.From), src)}
		return p, nil
	}
	p.Limitations = append(p.Limitations, sr.Notes...)
	stale := false
	for _, d := range sr.Each {
		code := d.Code
		switch {
		case errors.Is(d.Err, cbr.ErrUnknownCurrency):
			p.Items = append(p.Items, factItem(code, notQuoted(code, ""), src))
			continue
		case d.Err != nil:
			return facts.Payload{}, cbrErr("cbr dynamic "+code, d.Err)
		case len(d.Points) == 0:
			p.Items = append(p.Items, factItem(code, fmt.Sprintf("За %s – %s Банк России курс %s не публиковал.", day(per.From), day(per.To), code), src))
			continue
		}
		if d.Stale && !stale {
			stale = true
			p.Limitations = append(p.Limitations, staleLimitation(d.Meta))
		}
		st := summarize(d.Points)
		at := func(pt cbr.Point) string {
			return fmt.Sprintf("%s%s (%s)", formatRate(pt.UnitRate), roubleSign, day(pt.Date))
		}
		p.Items = append(p.Items, facts.Item{Section: facts.General, Kind: "rate", Title: code, Source: src,
			Text: fmt.Sprintf("Официальный курс %s за %s – %s, ₽ за 1 единицу: с %s%s до %s%s.", code, day(per.From), day(per.To),
				formatRate(st.first.UnitRate), roubleSign, formatRate(st.last.UnitRate), roubleSign),
			Fields: []facts.Field{
				{Name: "Начало", Value: at(st.first)},
				{Name: "Конец", Value: at(st.last)},
				{Name: "Минимум", Value: at(st.min)},
				{Name: "Максимум", Value: at(st.max)},
				{Name: "Изменение", Value: fmt.Sprintf("%s%s (%s%%)", formatSigned(st.change, 4), roubleSign, formatSigned(st.changePct, 2))},
				{Name: "Публикаций", Value: strconv.Itoa(len(d.Points))},
			}})
	}
	p.Found = true
	return p, nil
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

func (sr Series) chart(code string, pts []cbr.Point, s seriesStats) *skill.Chart {
	p := sr.Period
	cp := make([]chart.Point, len(pts))
	for i, pt := range pts {
		cp[i] = chart.Point{Date: pt.Date, Value: pt.UnitRate.InexactFloat64()} // plotting only
	}
	png, err := chart.PNG(chart.Spec{Title: fmt.Sprintf("Курс %s, ₽ за 1 единицу — %s – %s", code, day(p.From), day(p.To)), YLabel: "₽", Points: cp})
	if err != nil {
		sr.log.Warn("rate chart failed", "code", code, "err", err)
		return nil
	}
	caption := fmt.Sprintf("%s, %s – %s: %s → %s ₽ (%s%%). Источник: Банк России.",
		code, day(s.first.Date), day(s.last.Date), formatRate(s.first.UnitRate), formatRate(s.last.UnitRate), formatSigned(s.changePct, 2))
	return &skill.Chart{PNG: png, Caption: caption, Bytes: len(png)}
}
