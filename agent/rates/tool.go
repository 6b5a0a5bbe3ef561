package rates

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// Fetch is the planner's fetch_cbr_data tool: rates on a day, a rate's dynamics, the key
// rate, the news. Arguments that make no request fail with skill.ErrArgs, a Bank that is down
// with skill.ErrUnavailable.
func (s *Skill) Fetch(ctx context.Context, args understand.RateArgs) (facts.Payload, error) {
	today := s.today()
	switch args.Mode {
	case understand.RateCurrency:
		on, err := argDate("date", args.Date, today)
		if err != nil {
			return facts.Payload{}, err
		}
		return s.Day(ctx, codes(args.Codes), on).Facts()
	case understand.RateDynamic:
		from, err := argDate("from", args.From, time.Time{})
		if err != nil {
			return facts.Payload{}, err
		}
		to, err := argDate("to", args.To, today)
		if err != nil {
			return facts.Payload{}, err
		}
		if from.IsZero() {
			return facts.Payload{}, skill.BadArgs("fetch_cbr_data: mode dynamic needs from")
		}
		if err := ordered(from, to); err != nil {
			return facts.Payload{}, err
		}
		return s.Series(ctx, codes(args.Codes), ru.Period{From: from, To: to, Kind: ru.KindRange}).Facts()
	case understand.RateKeyRate:
		if args.From == "" && args.To == "" {
			on, err := argDate("date", args.Date, today)
			if err != nil {
				return facts.Payload{}, err
			}
			return s.KeyRate(ctx, ru.Period{From: on, To: on, Kind: ru.KindDay}).Facts()
		}
		from, err := argDate("from", args.From, today)
		if err != nil {
			return facts.Payload{}, err
		}
		to, err := argDate("to", args.To, today)
		if err != nil {
			return facts.Payload{}, err
		}
		if err := ordered(from, to); err != nil {
			return facts.Payload{}, err
		}
		return s.KeyRate(ctx, ru.Period{From: from, To: to, Kind: ru.KindRange}).Facts()
	case understand.RateNews:
		from, to := today.AddDate(0, 0, -recentNewsDays), today
		var err error
		if args.Date != "" {
			if from, err = argDate("date", args.Date, today); err != nil {
				return facts.Payload{}, err
			}
			to = from
		} else {
			if from, err = argDate("from", args.From, from); err != nil {
				return facts.Payload{}, err
			}
			if to, err = argDate("to", args.To, to); err != nil {
				return facts.Payload{}, err
			}
		}
		if err := ordered(from, to); err != nil {
			return facts.Payload{}, err
		}
		return s.News(ctx, from, to).Facts()
	}
	return facts.Payload{}, skill.BadArgs("fetch_cbr_data: unknown mode %q", args.Mode)
}

// argDate parses a "YYYY-MM-DD" argument as midnight in Moscow; empty is def.
func argDate(name, s string, def time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	t, err := time.ParseInLocation(time.DateOnly, s, ru.Moscow)
	if err != nil {
		return time.Time{}, skill.BadArgs("fetch_cbr_data: %s %q is not a date YYYY-MM-DD", name, s)
	}
	return t, nil
}

// ordered refuses a period that ends before it starts.
func ordered(from, to time.Time) error {
	if to.Before(from) {
		return skill.BadArgs("fetch_cbr_data: from %s is after to %s", day(from), day(to))
	}
	return nil
}

// codes are the requested currency codes, upper-case and each once; the major ones if none.
func codes(in []string) []string {
	var out []string
	for _, c := range in {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return DefaultCurrencies
	}
	return out
}
