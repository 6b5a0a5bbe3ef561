package runner

import (
	"context"
	"slices"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// The turnover sheet's drilldown: a button per account line opens that account's card for the
// same period. Its callback data is "b:<card's code>:p<first day>:<last day>:<organization ref
// prefix>:<account>" — the anchor «p» carries the period's first day, the date field its last day.

// sheetDrills offers the cards of the sheet's first account lines.
func (r Result) sheetDrills() []Drill {
	card, ok := recipe.For(recipe.AccountCard)
	if !ok || r.From.IsZero() || r.Report == nil || r.Report.Detail != "" || r.Party != "" {
		return nil
	}
	var out []Drill
	for _, row := range r.Rows {
		if row.Account == "" || !accountCode.MatchString(row.Account) {
			continue
		}
		data := drillData(card.ID, "p"+r.From.Format("20060102"), r.To, r.OrgRef, row.Account)
		if data == "" {
			continue // no stable name for the organization
		}
		out = append(out, Drill{Text: ru.Truncate("Карточка счёта "+row.Account+" за период", maxLabel), Data: data})
		if len(out) == maxDrills {
			break
		}
	}
	return out
}

// periodDrill runs a drilldown whose anchor is a period's first day: the card of the account the
// data names, from that day to the date of the data.
func (l *Lane) periodDrill(ctx context.Context, rec recipe.Spec, d Decomposition, start string, end time.Time) (Result, error) {
	from, err := time.Parse("20060102", start)
	if err != nil || from.After(end) || from.Year() < 2000 || d.Filters.Account == "" || !slices.Contains(rec.Required, recipe.FilterPeriodFrom) {
		return Result{}, ErrBadDrill
	}
	d.Filters.PeriodFrom, d.Filters.PeriodTo = from.Format(time.DateOnly), end.Format(time.DateOnly)
	d.Missing = recipe.MissingFilters(d.Intent, d.Filters)
	return l.Run(ctx, d), nil
}
