package rates

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// bank is a Bank of two publications: Friday 13.03.2026 and Saturday 14.03.2026, whose rates
// stand on Sunday.
type bank struct {
	calls int
	down  bool
}

func msk(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, ru.Moscow) }

func (b *bank) DailyRates(_ context.Context, on time.Time) (cbr.Daily, error) {
	b.calls++
	if b.down {
		return cbr.Daily{}, errors.Join(cbr.ErrUnavailable, errors.New("dial tcp: refused"))
	}
	onDate, usd := on, "80.5534"
	switch {
	case on.Equal(msk(2026, 3, 15)):
		onDate = msk(2026, 3, 14)
		usd = "81.1134"
	case on.Equal(msk(2026, 3, 14)):
		usd = "81.1134"
	}
	v := decimal.RequireFromString(usd)
	return cbr.Daily{Requested: on, OnDate: onDate, Rates: []cbr.Rate{{CharCode: "USD", Name: "Доллар США", Nominal: 1, Value: v, UnitRate: v}}}, nil
}

func (b *bank) Dynamic(context.Context, string, time.Time, time.Time) (cbr.Dynamic, error) {
	return cbr.Dynamic{}, cbr.ErrUnknownCurrency
}

func (b *bank) KeyRate(context.Context, time.Time, time.Time) (cbr.KeyRates, error) {
	return cbr.KeyRates{}, nil
}

func (b *bank) News(context.Context, time.Time, time.Time) (cbr.News, error) { return cbr.News{}, nil }

func sunday() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, ru.Moscow) }

// One question to the Bank is read two ways, and both say the same figures.
func TestDayReadTwoWays(t *testing.T) {
	b := &bank{}
	s := New(b, Options{Now: sunday})
	d := s.Day(t.Context(), []string{"USD"}, msk(2026, 3, 15))
	if b.calls != 2 { // the day and the publication before it
		t.Errorf("DailyRates calls = %d, want 2", b.calls)
	}
	r := d.Reply(100, nil)
	for _, want := range []string{"**Курсы Банка России на 14.03.2026** [1]", "**81,1134 ₽**", "▲ +0,5600 ₽", "100 USD = **8\u00a0111,34 ₽**"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("Reply text lacks %q:\n%s", want, r.Text)
		}
	}
	if len(r.Sources) != 1 || !strings.Contains(r.Sources[0].URL, "UniDbQuery.To=14.03.2026") || len(r.Calls) != 1 {
		t.Errorf("Reply sources %v, calls %v; want the page of 14.03.2026 and one call", r.Sources, r.Calls)
	}
	p, err := d.Facts()
	if err != nil {
		t.Fatalf("Facts() error: %v", err)
	}
	if len(p.Items) != 1 || !strings.Contains(p.Items[0].Text, "81,1134\u00a0₽") || !strings.Contains(p.Items[0].Text, "+0,5600\u00a0₽") {
		t.Errorf("Facts items = %+v, want the USD rate and its change", p.Items)
	}
}

// A Bank that is down: the reply says so and is degraded, the tool fails as unavailable.
func TestDayDown(t *testing.T) {
	s := New(&bank{down: true}, Options{Now: sunday})
	d := s.Day(t.Context(), []string{"USD"}, msk(2026, 3, 15))
	if r := d.Reply(0, nil); !strings.Contains(r.Text, "сервис Банка России сейчас недоступен") || len(r.Degraded) != 1 {
		t.Errorf("Reply = %+v, want the outage said and cbr_unavailable", r)
	}
	if _, err := d.Facts(); !errors.Is(err, skill.ErrUnavailable) || !errors.Is(err, cbr.ErrUnavailable) {
		t.Errorf("Facts() error = %v, want skill.ErrUnavailable wrapping cbr.ErrUnavailable", err)
	}
}

func TestFetchRefusesBadArguments(t *testing.T) {
	s := New(&bank{}, Options{Now: sunday})
	for _, args := range []understand.RateArgs{
		{Mode: "rates"},
		{Mode: understand.RateCurrency, Date: "15.03.2026"},
		{Mode: understand.RateDynamic, To: "2026-03-01"},
		{Mode: understand.RateKeyRate, From: "2026-03-10", To: "2026-03-01"},
	} {
		if _, err := s.Fetch(t.Context(), args); !errors.Is(err, skill.ErrArgs) {
			t.Errorf("Fetch(%+v) error = %v, want skill.ErrArgs", args, err)
		}
	}
}

// No news is said plainly, with no footnote: nothing found has nothing to source.
func TestNoNewsHasNoSources(t *testing.T) {
	r := New(&bank{}, Options{Now: sunday}).RecentNews(t.Context(), "")
	if len(r.Sources) != 0 || strings.Contains(r.Text, "[1]") || r.Text != "За последние 14 дней Банк России новостей не публиковал." {
		t.Errorf("no news: %q, sources %+v", r.Text, r.Sources)
	}
}
