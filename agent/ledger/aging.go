package ledger

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/chart"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The aging (runner/aging.go) beyond the runner's answer: its facts for the planner's
// ledger_query — a row's debt, its intervals and its term; the total by interval, amounts exact
// — and its chart.

// agingItem is one row of an aging: a counterparty (or a contract) and its debt by interval.
func agingItem(res runner.Result, row runner.Row, it facts.Item) facts.Item {
	add := func(name, value string) {
		if value != "" {
			it.Fields = append(it.Fields, facts.Field{Name: name, Value: value})
		}
	}
	it.Title = row.Name
	if row.Deal != "" {
		it.Title += ", " + row.Deal
	}
	a := row.Ages
	if a == nil || res.Aging == nil {
		it.Text = fmt.Sprintf("%s — долг %s", it.Title, row.Amount)
		return it
	}
	names := runner.IntervalNames(res.Aging.Bounds)
	var parts []string
	for i, v := range a.Intervals {
		if v != 0 {
			parts = append(parts, fmt.Sprintf("%s — %s", strings.ToLower(names[i]), v))
		}
	}
	it.Text = fmt.Sprintf("%s — долг %s, просрочено %s (%s)", it.Title, row.Amount, a.Overdue(), strings.Join(parts, "; "))
	add("Контрагент", row.Party)
	add("Договор", row.Deal)
	add("Долг", row.Amount.String())
	add("Просрочено", a.Overdue().String())
	for i, v := range a.Intervals {
		add(names[i], v.String())
	}
	if row.Deal != "" {
		term := "по умолчанию"
		if a.OwnTerm {
			term = "по договору"
		}
		add("Срок оплаты, дней", strconv.Itoa(a.TermDays)+" ("+term+")")
	}
	if row.Count > 0 {
		add("Документов", strconv.Itoa(row.Count))
	}
	add("Самый ранний срок оплаты", row.Date)
	return it
}

// agingTotal is the aging's total: the debt, what of it is overdue, by interval.
func agingTotal(res runner.Result, it facts.Item) facts.Item {
	ag := res.Aging
	if ag == nil {
		it.Text = fmt.Sprintf("Всего: %s.", ru.Count(res.Summary.Rows, "строка", "строки", "строк"))
		return it
	}
	names := runner.IntervalNames(ag.Bounds)
	parts := make([]string, len(names))
	it.Fields = []facts.Field{{Name: "Долг", Value: res.Summary.TotalAmount.String()}, {Name: "Просрочено", Value: ag.Overdue.String()}}
	for i, name := range names {
		parts[i] = fmt.Sprintf("%s — %s", strings.ToLower(name), ag.Totals[i])
		it.Fields = append(it.Fields, facts.Field{Name: name, Value: ag.Totals[i].String()})
	}
	it.Text = fmt.Sprintf("Итого долг %s, из него просрочено %s: %s; %s.", res.Summary.TotalAmount, ag.Overdue, strings.Join(parts, "; "),
		ru.Count(ag.Parties, "контрагент", "контрагента", "контрагентов"))
	it.Fields = append(it.Fields, facts.Field{Name: "Контрагентов", Value: strconv.Itoa(ag.Parties)})
	return it
}

// agingChart is the aging's intervals as a bar chart (agent/chart): what is not yet due in
// blue, the overdue in red, each bar's figure above it; nil when it cannot be drawn (the
// answer's text holds every figure anyway).
func agingChart(res runner.Result) *skill.Chart {
	ag := res.Aging
	if ag == nil || res.ResultMode == runner.Limited {
		return nil
	}
	var top onec.Kopecks
	for _, v := range ag.Totals {
		top = max(top, v)
	}
	unit, div := "₽", 100.0 // plotting only: the figures are the labels, from kopecks
	switch {
	case top >= 1_000_000_00:
		unit, div = "млн ₽", 1_000_000_00
	case top >= 1_000_00:
		unit, div = "тыс ₽", 1_000_00
	}
	names := runner.IntervalNames(ag.Bounds)
	names[0] = "Не наступил"
	bars := make([]chart.Bar, len(names))
	for i, v := range ag.Totals {
		bars[i] = chart.Bar{Label: names[i], Value: float64(v) / div, Alert: i > 0}
		if v != 0 {
			bars[i].Text = strings.TrimSuffix(ru.Approx(int64(v)), "\u00a0₽")
		}
	}
	title := "Дебиторка по срокам долга " + res.When()
	if ag.Payables {
		title = "Кредиторка по срокам долга " + res.When()
	}
	if res.Party != "" {
		title += " — " + res.Party
	}
	png, err := chart.BarsPNG(chart.BarSpec{Title: title, YLabel: unit, Bars: bars})
	if err != nil {
		return nil
	}
	caption := fmt.Sprintf("Просрочено %s из %s %s. Источник: %s.", ag.Overdue, res.Summary.TotalAmount, res.When(), res.SourceTitle())
	return &skill.Chart{PNG: png, Caption: md.Escape(caption), Bytes: len(png)}
}
