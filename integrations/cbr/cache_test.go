package cbr

import (
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/sony/gobreaker/v2"
)

// failWith makes the stand-in answer every request with status and a plain body.
func failWith(s *standIn, status int) {
	s.setReply(func(w http.ResponseWriter, _ *http.Request, _ soapCall) bool {
		serveBytes(w, status, "text/plain", []byte(http.StatusText(status)))
		return true
	})
}

func TestDailyRatesConcurrentCallsShareOneRequest(t *testing.T) {
	s := newStandIn(t)
	release := make(chan struct{})
	s.setReply(func(http.ResponseWriter, *http.Request, soapCall) bool {
		<-release // hold the first request until every caller is waiting
		return false
	})
	c, _ := newTestClient(t, s)
	const callers = 1000
	var started, done sync.WaitGroup
	errs := make(chan error, callers)
	for range callers {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			started.Done()
			d, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
			if err == nil && len(d.Rates) != 9 {
				err = errors.New("wrong number of rates")
			}
			errs <- err
		}()
	}
	started.Wait()
	close(release)
	done.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("DailyRates error: %v", err)
		}
	}
	if n := s.count("GetCursOnDate"); n != 1 {
		t.Errorf("upstream calls after %d concurrent DailyRates = %d, want 1", callers, n)
	}
	if _, err := c.DailyRates(t.Context(), day(2026, time.March, 15)); err != nil {
		t.Fatal(err)
	}
	if n := s.count("GetCursOnDate"); n != 1 {
		t.Errorf("upstream calls after a repeat within FreshTTL = %d, want 1", n)
	}
}

func TestCallersCannotModifyTheCache(t *testing.T) {
	c, _ := newTestClient(t, newStandIn(t))
	d, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
	if err != nil {
		t.Fatal(err)
	}
	d.Rates[0].CharCode = "XXX"
	again, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
	if err != nil {
		t.Fatal(err)
	}
	if again.Rates[0].CharCode != "AUD" {
		t.Errorf("cached rate changed to %q by a caller", again.Rates[0].CharCode)
	}
}

func TestCacheTTLs(t *testing.T) {
	s := newStandIn(t)
	c, clk := newTestClient(t, s) // FreshTTL 15m, PastTTL 7 days
	yesterday, today := day(2026, time.March, 14), day(2026, time.March, 15)
	get := func() {
		t.Helper()
		for _, d := range []time.Time{yesterday, today} {
			if _, err := c.DailyRates(t.Context(), d); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := c.KeyRate(t.Context(), day(2026, time.January, 1), today); err != nil {
			t.Fatal(err)
		}
	}
	get()
	if n := s.count(""); n != 3 {
		t.Fatalf("upstream calls = %d, want 3", n)
	}
	clk.Advance(20 * time.Minute)
	get()
	if n := s.count("GetCursOnDate"); n != 3 {
		t.Errorf("GetCursOnDate calls after 20 min = %d, want 3 (yesterday cached, today refetched)", n)
	}
	if got := s.params("GetCursOnDate", "On_date"); !cmp.Equal(got, []string{"2026-03-14T00:00:00", "2026-03-15T00:00:00", "2026-03-15T00:00:00"}) {
		t.Errorf("On_date sent = %q", got)
	}
	if n := s.count("KeyRate"); n != 2 {
		t.Errorf("KeyRate calls after 20 min = %d, want 2 (range reaches today)", n)
	}
	clk.Advance(7 * 24 * time.Hour)
	if _, err := c.DailyRates(t.Context(), yesterday); err != nil {
		t.Fatal(err)
	}
	if n := s.count("GetCursOnDate"); n != 4 {
		t.Errorf("GetCursOnDate calls after PastTTL = %d, want 4", n)
	}
}

func TestBreakerOpensAfterFiveFailures(t *testing.T) {
	s := newStandIn(t)
	failWith(s, http.StatusServiceUnavailable)
	c, _ := newTestClient(t, s)
	for i := range 5 {
		if _, err := c.DailyRates(t.Context(), day(2026, time.March, 15)); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("call %d: error = %v, want ErrUnavailable", i+1, err)
		}
	}
	if st := c.State(); st != "open" {
		t.Fatalf("State() = %q after 5 failures, want open", st)
	}
	for range 3 {
		_, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
		if !errors.Is(err, ErrUnavailable) || !errors.Is(err, gobreaker.ErrOpenState) {
			t.Errorf("error with the breaker open = %v, want ErrUnavailable and ErrOpenState", err)
		}
	}
	if n := s.count(""); n != 5 {
		t.Errorf("upstream calls = %d, want 5: the open breaker must not call the service", n)
	}
}

func TestClientFaultsDoNotTripTheBreaker(t *testing.T) {
	s := newStandIn(t)
	s.setReply(func(w http.ResponseWriter, _ *http.Request, _ soapCall) bool {
		serveFixture(w, http.StatusInternalServerError, "fault_client.xml")
		return true
	})
	c, _ := newTestClient(t, s)
	for range 8 {
		var f *FaultError
		if _, err := c.DailyRates(t.Context(), day(2026, time.March, 15)); !errors.As(err, &f) {
			t.Fatalf("error = %v, want a *FaultError", err)
		}
	}
	if st := c.State(); st != "closed" {
		t.Errorf("State() = %q after soap:Client faults, want closed", st)
	}
	if n := s.count(""); n != 8 {
		t.Errorf("upstream calls = %d, want 8", n)
	}
}

func TestStaleIfError(t *testing.T) {
	ignoreCause := cmpopts.IgnoreFields(Meta{}, "Cause")
	today := day(2026, time.March, 15)

	t.Run("same key", func(t *testing.T) {
		s := newStandIn(t)
		c, clk := newTestClient(t, s)
		if _, err := c.DailyRates(t.Context(), today); err != nil {
			t.Fatal(err)
		}
		clk.Advance(20 * time.Minute)
		failWith(s, http.StatusBadGateway)
		for i := range 7 { // the last ones meet an open breaker
			got, err := c.DailyRates(t.Context(), today)
			if err != nil {
				t.Fatalf("call %d: error %v, want the stale value", i+1, err)
			}
			want := wantDaily()
			want.Meta = Meta{Stale: true, FetchedAt: testNow}
			if diff := cmp.Diff(want, got, ignoreCause); diff != "" {
				t.Errorf("call %d: mismatch (-want +got):\n%s", i+1, diff)
			}
			if !errors.Is(got.Cause, ErrUnavailable) {
				t.Errorf("call %d: Meta.Cause = %v, want ErrUnavailable", i+1, got.Cause)
			}
		}
		if n := s.count(""); n != 6 {
			t.Errorf("upstream calls = %d, want 6 (1 success, 5 failures, then the breaker is open)", n)
		}
	})

	t.Run("nothing known", func(t *testing.T) {
		s := newStandIn(t)
		failWith(s, http.StatusServiceUnavailable)
		c, _ := newTestClient(t, s)
		got, err := c.DailyRates(t.Context(), today)
		if !errors.Is(err, ErrUnavailable) {
			t.Errorf("error = %v, want ErrUnavailable", err)
		}
		if diff := cmp.Diff(Daily{}, got); diff != "" {
			t.Errorf("value with an error (-want +got):\n%s", diff)
		}
	})

	t.Run("today from yesterday's publication", func(t *testing.T) {
		s := newStandIn(t)
		c, clk := newTestClient(t, s)
		if _, err := c.DailyRates(t.Context(), day(2026, time.March, 14)); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Minute)
		failWith(s, http.StatusServiceUnavailable)
		got, err := c.DailyRates(t.Context(), today)
		if err != nil {
			t.Fatalf("error %v, want yesterday's publication", err)
		}
		want := wantDaily() // Requested 15 March, OnDate 14 March
		want.Meta = Meta{Stale: true, FetchedAt: testNow}
		if diff := cmp.Diff(want, got, ignoreCause); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
		// Nothing known on or before 10 March: a later publication is never served for it.
		if _, err := c.DailyRates(t.Context(), day(2026, time.March, 10)); !errors.Is(err, ErrUnavailable) {
			t.Errorf("DailyRates(2026-03-10) error = %v, want ErrUnavailable", err)
		}
	})

	t.Run("key rate from the last fetched range", func(t *testing.T) {
		s := newStandIn(t)
		c, _ := newTestClient(t, s)
		first, err := c.KeyRate(t.Context(), day(2025, time.January, 1), today)
		if err != nil {
			t.Fatal(err)
		}
		failWith(s, http.StatusServiceUnavailable)
		got, err := c.KeyRate(t.Context(), day(2026, time.January, 1), today)
		if err != nil {
			t.Fatalf("error %v, want the last fetched key rates", err)
		}
		want := first
		want.Meta = Meta{Stale: true, FetchedAt: testNow}
		if diff := cmp.Diff(want, got, ignoreCause); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
}

func TestDynamicResolvesCurrencyOnce(t *testing.T) {
	s := newStandIn(t)
	c, _ := newTestClient(t, s)
	from, to := day(2026, time.February, 14), day(2026, time.March, 14)
	for _, code := range []string{"USD", "eur", " BYN ", "USD"} {
		if _, err := c.Dynamic(t.Context(), code, from, to); err != nil {
			t.Fatalf("Dynamic(%q) error: %v", code, err)
		}
	}
	if n := s.count("EnumValutes"); n != 1 {
		t.Errorf("EnumValutes calls = %d, want 1", n)
	}
	if got := s.params("EnumValutes", "Seld"); !cmp.Equal(got, []string{"false"}) {
		t.Errorf("Seld = %q, want [false]", got)
	}
	if got := s.params("GetCursDynamic", "ValutaCode"); !cmp.Equal(got, []string{"R01235", "R01239", "R01090B"}) {
		t.Errorf("ValutaCode sent = %q, want [R01235 R01239 R01090B] (the repeat is cached)", got)
	}
	if got := s.params("GetCursDynamic", "FromDate"); len(got) == 0 || got[0] != "2026-02-14T00:00:00" {
		t.Errorf("FromDate sent = %q", got)
	}

	for _, code := range []string{"XYZ", "", "R01235"} {
		_, err := c.Dynamic(t.Context(), code, from, to)
		if !errors.Is(err, ErrUnknownCurrency) {
			t.Errorf("Dynamic(%q) error = %v, want ErrUnknownCurrency", code, err)
		}
	}
	if n := s.count("GetCursDynamic"); n != 3 {
		t.Errorf("GetCursDynamic calls = %d, want 3: unknown currencies must not reach it", n)
	}
}
