package rates

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/cbr/cbrtest"
)

// thursday is 15.01.2026, noon in Moscow: the first working days of 2026 are behind.
func thursday() time.Time { return time.Date(2026, 1, 15, 12, 0, 0, 0, cbrtest.Moscow) }

// bankOfRussia is the SOAP stand-in with the history of these tests, and a real client of it.
//
//	30.12.2025, 31.12.2025  USD EUR CNY
//	01.01.2026              GetCursOnDate answers an empty table
//	13.01.2026              USD EUR CNY
//	14.01.2026              USD EUR KZT (CNY not quoted that day; KZT quoted from that day on)
//	15.01.2026              USD
//	31.05.2023, 01.06.2023  TRY (its last rates: a long gap since)
func bankOfRussia(t *testing.T) (*cbrtest.Server, *cbr.Client) {
	s := cbrtest.New(t)
	q := func(code, v string) cbrtest.Quote { return cbrtest.Quote{Code: code, Nominal: 1, Value: v} }
	s.Publish(msk(2025, 12, 30), q("USD", "78.0000"), q("EUR", "91.5000"), q("CNY", "11.0000"))
	s.Publish(msk(2025, 12, 31), q("USD", "78.2000"), q("EUR", "91.9000"), q("CNY", "11.0500"))
	s.Empty(msk(2026, 1, 1))
	s.Publish(msk(2026, 1, 13), q("USD", "79.0000"), q("EUR", "92.0000"), q("CNY", "11.2000"))
	s.Publish(msk(2026, 1, 14), q("USD", "79.1000"), q("EUR", "92.1000"), cbrtest.Quote{Code: "KZT", Nominal: 100, Value: "15.5000"})
	s.Publish(msk(2026, 1, 15), q("USD", "79.3000"))
	s.Publish(msk(2023, 5, 31), cbrtest.Quote{Code: "TRY", Nominal: 10, Value: "25.1000"})
	s.Publish(msk(2023, 6, 1), cbrtest.Quote{Code: "TRY", Nominal: 10, Value: "25.3000"})
	c := cbr.New(cbr.Options{BaseURL: s.URL, HTTPClient: s.Client, Timeout: 5 * time.Second, Now: thursday})
	return s, c
}

func dynamicCalls(s *cbrtest.Server) []string {
	var out []string
	for _, c := range s.Calls() {
		if strings.HasPrefix(c, "GetCursDynamic") {
			out = append(out, c)
		}
	}
	return out
}

func wantAll(t *testing.T, text string, want, avoid []string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("lacks %q:\n%s", w, text)
		}
	}
	for _, w := range avoid {
		if strings.Contains(text, w) {
			t.Errorf("has %q:\n%s", w, text)
		}
	}
}

// A day whose GetCursOnDate table is empty: the rates in force are the last set before it,
// found in the history, and the answer gives their date, never the day asked as theirs.
func TestStandInEmptyTableDay(t *testing.T) {
	srv, c := bankOfRussia(t)
	s := New(c, Options{Now: thursday})
	d := s.Day(t.Context(), DefaultCurrencies, msk(2026, 1, 1))
	r := d.Reply(0, nil)
	wantAll(t, r.Text, []string{
		"**Курсы Банка России на 31.12.2025** [1]",
		"_Курс на 01.01.2026 не устанавливался; действует курс от 31.12.2025._",
		"**USD** — доллар США: **78,2000 ₽** ▲ +0,2000 ₽ (+0,26%) к 30.12.2025",
		"**EUR** — евро: **91,9000 ₽**",
		"**CNY** — китайский юань: **11,0500 ₽**",
	}, []string{"на 01.01.2026** [1]", "нет опубликованных курсов"})
	if len(r.Sources) != 1 || !strings.Contains(r.Sources[0].URL, "UniDbQuery.To=31.12.2025") {
		t.Errorf("sources = %+v, want the page of 31.12.2025", r.Sources)
	}
	// One window of two weeks per currency was enough.
	got := dynamicCalls(srv)
	slices.Sort(got) // the currencies are searched at once
	if !slices.Equal(got, []string{
		"GetCursDynamic 2025-12-18T00:00:00 2026-01-01T00:00:00 R01235", "GetCursDynamic 2025-12-18T00:00:00 2026-01-01T00:00:00 R01239", "GetCursDynamic 2025-12-18T00:00:00 2026-01-01T00:00:00 R01375",
	}) {
		t.Errorf("dynamics asked = %q", got)
	}
	p, err := d.Facts()
	if err != nil {
		t.Fatal(err)
	}
	if !p.Found || len(p.Items) != 3 || p.Items[0].Text != "Официальный курс USD (доллар США) на 31.12.2025: 78,2000\u00a0₽, изменение +0,2000\u00a0₽ (+0,26%) к 30.12.2025 (курс от 31.12.2025: на 01.01.2026 не устанавливался)." {
		t.Errorf("facts = %+v", p.Items)
	}
	if !slices.Contains(p.Limitations, "Курс на 01.01.2026 не устанавливался; действует курс от 31.12.2025.") {
		t.Errorf("limitations = %q", p.Limitations)
	}
}

// The holidays the service carries the last rates over need no search: the publication says
// its own date.
func TestStandInHoliday(t *testing.T) {
	srv, c := bankOfRussia(t)
	s := New(c, Options{Now: thursday})
	r := s.Day(t.Context(), []string{"USD"}, msk(2026, 1, 5)).Reply(0, nil)
	wantAll(t, r.Text, []string{
		"**Курсы Банка России на 31.12.2025** [1]",
		"_На 05.01.2026 (понедельник) новых курсов нет — действуют курсы, установленные на 31.12.2025 (среда)._",
		"**USD** — доллар США: **78,2000 ₽** ▲ +0,2000 ₽ (+0,26%) к 30.12.2025",
	}, nil)
	if got := dynamicCalls(srv); len(got) != 0 {
		t.Errorf("dynamics asked on a holiday: %q", got)
	}
}

// A currency the day's table lacks is found on its own day; a currency quoted only from a later
// day has no rate in force, and the answer says how far back it looked; a long gap is found by
// widening the range.
func TestStandInCurrencyNotQuotedThatDay(t *testing.T) {
	srv, c := bankOfRussia(t)
	s := New(c, Options{Now: thursday})
	r := s.Day(t.Context(), []string{"USD", "CNY", "TRY"}, msk(2026, 1, 14)).Reply(0, nil)
	wantAll(t, r.Text, []string{
		"**Курсы Банка России на 14.01.2026** [1]",
		"**USD** — доллар США: **79,1000 ₽** ▲ +0,1000 ₽ (+0,13%) к 13.01.2026\n",
		"**CNY** — китайский юань: **11,2000 ₽** ▲ +0,1500 ₽ (+1,36%) к 31.12.2025 _(курс от 13.01.2026: на 14.01.2026 не устанавливался)_",
		"**TRY** — турецкая лира: **25,3000 ₽** за 10 (2,5300 ₽ за 1) ▲ +0,2000 ₽ (+0,80%) к 31.05.2023 _(курс от 01.06.2023: на 14.01.2026 не устанавливался)_",
	}, nil)
	// TRY: two weeks, three months, a year, three years: found in the fourth window.
	var try []string
	for _, c := range dynamicCalls(srv) {
		if strings.HasSuffix(c, "R01700J") {
			try = append(try, c)
		}
	}
	if !slices.Equal(try, []string{
		"GetCursDynamic 2025-12-31T00:00:00 2026-01-14T00:00:00 R01700J", "GetCursDynamic 2025-10-14T00:00:00 2025-12-30T00:00:00 R01700J",
		"GetCursDynamic 2025-01-14T00:00:00 2025-10-13T00:00:00 R01700J", "GetCursDynamic 2023-01-14T00:00:00 2025-01-13T00:00:00 R01700J",
	}) {
		t.Errorf("TRY dynamics asked = %q", try)
	}

	r = s.Day(t.Context(), []string{"USD", "KZT"}, msk(2026, 1, 13)).Reply(0, nil)
	wantAll(t, r.Text, []string{
		"**Курсы Банка России на 13.01.2026** [1]",
		`**KZT**: Курса KZT, действовавшего на 13\.01\.2026, не нашлось: Банк России не устанавливал его с 13\.01\.2016 \(глубже 10 лет назад поиск не идёт\)\.`,
	}, []string{"15,5000"})
}

// A date before the Bank's first rates asks no history; a date after tomorrow gives the latest
// rates set, with their date.
func TestStandInFarBackAndFuture(t *testing.T) {
	srv, c := bankOfRussia(t)
	s := New(c, Options{Now: thursday})
	r := s.Day(t.Context(), []string{"USD"}, msk(1991, 5, 10)).Reply(0, nil)
	wantAll(t, r.Text, []string{`Курса USD на 10\.05\.1991 у Банка России нет: его официальные курсы начинаются с 01\.07\.1992\.`}, []string{"₽"})
	if got := dynamicCalls(srv); len(got) != 0 {
		t.Errorf("dynamics asked for 1991: %q", got)
	}

	r = s.Day(t.Context(), []string{"USD", "EUR"}, msk(2026, 1, 20)).Reply(0, nil)
	wantAll(t, r.Text, []string{
		"_Курс на 20.01.2026 Банк России ещё не установил (он устанавливает курс накануне, после 15:30 МСК); последний установленный — на 15.01.2026 (четверг)._",
		"**USD** — доллар США: **79,3000 ₽**",
		"**EUR** — евро: **92,1000 ₽** ▲ +0,1000 ₽ (+0,11%) к 13.01.2026 _(курс от 14.01.2026: на 20.01.2026 ещё не установлен)_",
	}, []string{"на 20.01.2026** [1]"})
}

// With the Bank down and the breaker open: what was fetched stands; a rate never fetched is
// not guessed, and the answer says the service is down.
func TestStandInBreakerOpen(t *testing.T) {
	srv, c := bankOfRussia(t)
	s := New(c, Options{Now: thursday})
	before := s.Day(t.Context(), []string{"USD", "TRY"}, msk(2026, 1, 14)).Reply(0, nil).Text
	srv.Down(true)
	for i := range 6 {
		s.Day(t.Context(), []string{"USD"}, msk(2025, 11, 1+i))
	}
	if c.State() != "open" {
		t.Fatalf("breaker %s, want open", c.State())
	}
	n := len(srv.Calls())
	if after := s.Day(t.Context(), []string{"USD", "TRY"}, msk(2026, 1, 14)).Reply(0, nil).Text; after != before {
		t.Errorf("cached answer changed with the breaker open:\n%s\nwas\n%s", after, before)
	}
	r := s.Day(t.Context(), []string{"USD", "CNY"}, msk(2026, 1, 14)).Reply(0, nil)
	wantAll(t, r.Text, []string{
		"**USD** — доллар США: **79,1000 ₽**",
		`**CNY**: Курс CNY на 14\.01\.2026 Банк России не устанавливал, а найти более ранний не удалось: сервис Банка России сейчас недоступен\.`,
	}, []string{"11,2000"})
	r = s.Day(t.Context(), []string{"USD"}, msk(2025, 12, 1)).Reply(0, nil)
	wantAll(t, r.Text, []string{"сервис Банка России сейчас недоступен"}, []string{"₽"})
	if got := len(srv.Calls()); got != n {
		t.Errorf("%d requests reached the Bank with the breaker open", got-n)
	}
}
