package rates

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// The rate in force on a day the Bank of Russia's publication lacks (an empty table, a
// currency not quoted that day, a date before the currency's first rate) is the latest rate
// the Bank set before it. It is found in the currency's history (GetCursDynamic), asked over
// windows that widen back from the day until a rate turns up or the search horizon is reached.

// searchWindows are the starts of the widening windows, as years, months and days back from
// the day asked: the first window covers the two weeks up to the day, the next the rest of the
// three months before it, and so on. The last is the search horizon: a rate older than that is
// not looked for, and the answer says so.
var searchWindows = [][3]int{{0, 0, -14}, {0, -3, 0}, {-1, 0, 0}, {-3, 0, 0}, {-10, 0, 0}}

// searchHorizon names the horizon in the answers.
const searchHorizon = "10 лет"

// firstRates is the first day of the Bank of Russia's official rates: its series start there,
// and nothing earlier is asked.
var firstRates = time.Date(1992, time.July, 1, 0, 0, 0, 0, ru.Moscow)

// Earlier is a currency's rate in force on the day asked that the day's publication lacks:
// the latest rate the Bank set before, with the one before it for the change.
type Earlier struct {
	Rate cbr.Rate
	// On is the date the rate was set for; earlier than the day asked.
	On time.Time
	// Prev is the rate set before it (zero Date when unknown).
	Prev cbr.Point
	cbr.Meta
}

// Missing is why a currency has no rate in force on the day asked.
type Missing struct {
	// Since is how far back the history was searched, with nothing found from it to the day.
	Since time.Time
	// Horizon reports that the search stopped at its horizon, not at the Bank's first rates.
	Horizon bool
	// Err is why the history could not be read: a currency the Bank does not quote
	// (cbr.ErrUnknownCurrency) or a failure.
	Err error
}

// earlier finds the latest rate of code set on or before upTo in the currency's history.
func (s *Skill) earlier(ctx context.Context, code string, upTo time.Time) (Earlier, Missing, []skill.Call) {
	var calls []skill.Call
	var found []cbr.Point
	var meta cbr.Meta
	to := upTo
	if _, known := ru.LookupCurrency(code); !known { // no currency at all: nothing to search
		return Earlier{}, Missing{Err: cbr.ErrUnknownCurrency}, nil
	}
	for i, back := range searchWindows {
		from := upTo.AddDate(back[0], back[1], back[2])
		horizon := true
		if from.Before(firstRates) {
			from, horizon = firstRates, false
		}
		if to.Before(from) {
			return Earlier{}, Missing{Since: from, Horizon: horizon}, calls
		}
		dyn, err := s.bank.Dynamic(ctx, code, from, to)
		calls = append(calls, callRecord("cbr.Dynamic", fmt.Sprintf("%s %s–%s", code, day(from), day(to)), len(dyn.Points), dyn.Meta, err))
		if err != nil {
			return Earlier{}, Missing{Since: from, Err: err}, calls
		}
		found = slices.DeleteFunc(slices.Clone(dyn.Points), func(p cbr.Point) bool { return p.Date.After(upTo) || p.Value.IsZero() })
		meta = dyn.Meta
		if len(found) > 0 {
			break
		}
		if !horizon || i == len(searchWindows)-1 {
			return Earlier{}, Missing{Since: from, Horizon: horizon}, calls
		}
		to = from.AddDate(0, 0, -1)
	}
	last := found[len(found)-1]
	e := Earlier{On: last.Date, Meta: meta, Rate: cbr.Rate{CharCode: code, Nominal: last.Nominal, Value: last.Value, UnitRate: last.UnitRate}}
	if c, ok := ru.LookupCurrency(code); ok {
		e.Rate.Name = c.Name
	}
	if len(found) > 1 {
		e.Prev = found[len(found)-2]
	}
	return e, Missing{}, calls
}

// missingText says why code has no rate in force on a day.
func missingText(code string, on time.Time, m Missing) string {
	switch {
	case errors.Is(m.Err, cbr.ErrUnknownCurrency):
		return notQuoted(code, "")
	case m.Err != nil:
		return fmt.Sprintf("Курс %s на %s Банк России не устанавливал, а найти более ранний не удалось: %s", code, day(on), downReason(m.Err))
	case on.Before(firstRates):
		return fmt.Sprintf("Курса %s на %s у Банка России нет: его официальные курсы начинаются с %s.", code, day(on), day(firstRates))
	case m.Horizon:
		return fmt.Sprintf("Курса %s, действовавшего на %s, не нашлось: Банк России не устанавливал его с %s (глубже %s назад поиск не идёт).", code, day(on), day(m.Since), searchHorizon)
	}
	return fmt.Sprintf("Курса %s, действовавшего на %s, у Банка России нет: он не устанавливал его с %s, начала своих официальных курсов.", code, day(on), day(m.Since))
}

// downReason is a short why for a failed history read.
func downReason(err error) string {
	if errors.Is(err, cbr.ErrUnavailable) {
		return "сервис Банка России сейчас недоступен."
	}
	return "Банк России не принял запрос."
}
