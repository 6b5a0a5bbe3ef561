package rates

import (
	"context"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// Answer answers a rates or key-rate question from the decision's currencies, nominal and date
// or period (today when none is named), and a plan of the Bank of Russia's news alone.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if q.Plan != nil {
		if len(q.Plan.ToolCalls) == 1 && q.Plan.ToolCalls[0].Tool == plan.ToolFetchCBRData &&
			q.Plan.ToolCalls[0].CBRMode() == understand.RateNews {
			return s.RecentNews(ctx, ""), nil
		}
		return skill.Reply{Unanswered: true}, nil
	}
	d := q.Decision
	if d.DateError != "" {
		return DateError(d.DateError), nil
	}
	if d.Kind == understand.KindKeyRate {
		r := s.KeyRate(ctx, s.period(d)).Reply()
		if d.Forecast {
			r.Text = forecastNote + "\n\n" + r.Text
		}
		return r, nil
	}
	r := Request{Codes: d.Currencies.Value, Period: s.period(d), Amount: d.Nominal.Value, Cross: d.Cross}
	if d.Forecast {
		r.Notes = append(r.Notes, forecastNote)
	}
	for _, u := range d.UnknownCurrencies {
		msg := fmt.Sprintf("«%s» — не валюта, курс которой устанавливает Банк России.", md.Escape(u))
		if sug := ru.Suggest(u); len(sug) > 0 {
			var names []string
			for _, c := range sug {
				names = append(names, fmt.Sprintf("%s (%s)", c.Code, md.Escape(ru.LowerFirst(c.Name))))
			}
			msg += " Возможно, вы имели в виду: " + strings.Join(names, ", ") + "."
		}
		r.Notes = append(r.Notes, msg)
	}
	if len(r.Codes) == 0 {
		if len(r.Notes) > 0 {
			return skill.Text(strings.Join(r.Notes, "\n\n")), nil
		}
		r.Codes = DefaultCurrencies
	}
	return s.Rates(ctx, r), nil
}

// forecastNote goes before the figures when a question asks what a rate will be: the Bank sets
// rates and decides the key rate, nobody's forecast is a source.
const forecastNote = "_Прогнозов я не даю: источник — только то, что Банк России уже установил\\. Вот последние данные:_"

// DateError is the answer to a question about a day that does not exist («31.02»).
func DateError(why string) skill.Reply {
	return skill.Text(md.Escape(why) + " Укажите дату в формате ДД.ММ.ГГГГ, например 15.01.2026.")
}

// Facts is the planner's fetch_cbr_data tool.
func (s *Skill) Facts(ctx context.Context, _ skill.Query, call plan.ToolCall) (facts.Payload, error) {
	var args understand.RateArgs
	if err := call.Decode(&args); err != nil {
		return facts.Payload{}, fmt.Errorf("%w: %s: %v", skill.ErrArgs, call.Tool, err)
	}
	return s.Fetch(ctx, args)
}

// period is the date or period of a question: today when none is named.
func (s *Skill) period(d understand.Decision) ru.Period {
	switch {
	case d.Period.Set:
		return d.Period.Value
	case d.Date.Set:
		return ru.Period{From: d.Date.Value, To: d.Date.Value, Kind: ru.KindDay, Text: d.Date.Text}
	}
	t := s.today()
	return ru.Period{From: t, To: t, Kind: ru.KindDay}
}
