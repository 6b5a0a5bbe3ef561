package tavily_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/tavily"
)

// fakeClock is a settable clock for the cache's notion of freshness.
type fakeClock struct{ now atomic.Int64 }

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.now.Store(time.Date(2025, time.July, 25, 13, 30, 0, 0, time.UTC).UnixNano())
	return c
}

func (c *fakeClock) Now() time.Time          { return time.Unix(0, c.now.Load()) }
func (c *fakeClock) Advance(d time.Duration) { c.now.Add(int64(d)) }

func TestSearchCache(t *testing.T) {
	const user, other = 1001, 2002
	steps := []struct {
		name       string
		q          tavily.Query
		wantCalls  int // total so far
		wantCached bool
	}{
		{"first search", tavily.Query{Text: "ключевая ставка ЦБ", UserID: user}, 1, false},
		{"identical repeat", tavily.Query{Text: "ключевая ставка ЦБ", UserID: user}, 1, true},
		{"differs only in case and spacing", tavily.Query{Text: "  КЛЮЧЕВАЯ   ставка\tцб ", UserID: user}, 1, true},
		{"explicit defaults", tavily.Query{Text: "ключевая ставка ЦБ", Topic: "finance", MaxResults: 5, UserID: user}, 1, true},
		{"another user", tavily.Query{Text: "ключевая ставка ЦБ", UserID: other}, 2, false},
		{"another topic", tavily.Query{Text: "ключевая ставка ЦБ", Topic: "news", UserID: user}, 3, false},
		{"another time range", tavily.Query{Text: "ключевая ставка ЦБ", TimeRange: "day", UserID: user}, 4, false},
		{"another result count", tavily.Query{Text: "ключевая ставка ЦБ", MaxResults: 3, UserID: user}, 5, false},
		{"another user, repeated", tavily.Query{Text: "ключевая ставка цб", UserID: other}, 5, true},
	}
	s := newStandIn(t)
	c := newClient(s, tavily.Options{})
	for _, st := range steps {
		got, err := c.Search(t.Context(), st.q)
		if err != nil {
			t.Fatalf("%s: Search error: %v", st.name, err)
		}
		if got.Cached != st.wantCached {
			t.Errorf("%s: Cached = %t, want %t", st.name, got.Cached, st.wantCached)
		}
		if s.Calls() != st.wantCalls {
			t.Errorf("%s: upstream calls = %d, want %d", st.name, s.Calls(), st.wantCalls)
		}
		if len(got.Results) == 0 {
			t.Errorf("%s: no results", st.name)
		}
	}
}

func TestSearchCacheReturnsCopies(t *testing.T) {
	s := newStandIn(t)
	c := newClient(s, tavily.Options{})
	q := tavily.Query{Text: "ключевая ставка ЦБ"}
	first, err := c.Search(t.Context(), q)
	if err != nil {
		t.Fatalf("Search error: %v", err)
	}
	first.Results[0].Title = "changed by a caller"
	second, err := c.Search(t.Context(), q)
	if err != nil {
		t.Fatalf("Search error: %v", err)
	}
	if diff := cmp.Diff(okResults, second.Results); diff != "" {
		t.Errorf("cached results mismatch (-want +got):\n%s", diff)
	}
}

func TestSearchCacheExpires(t *testing.T) {
	s := newStandIn(t)
	c := newClient(s, tavily.Options{CacheTTL: 5 * time.Minute})
	clock := newFakeClock()
	tavily.SetNow(c, clock.Now)
	q := tavily.Query{Text: "ключевая ставка ЦБ", UserID: 7}
	steps := []struct {
		advance    time.Duration
		wantCalls  int
		wantCached bool
	}{
		{0, 1, false},
		{4*time.Minute + 59*time.Second, 1, true},
		{time.Second, 2, false}, // exactly 5m after the first fetch: stale
		{time.Minute, 2, true},
	}
	for i, st := range steps {
		clock.Advance(st.advance)
		got, err := c.Search(t.Context(), q)
		if err != nil {
			t.Fatalf("step %d: Search error: %v", i+1, err)
		}
		if got.Cached != st.wantCached || s.Calls() != st.wantCalls {
			t.Errorf("step %d: Cached = %t, calls = %d; want %t, %d", i+1, got.Cached, s.Calls(), st.wantCached, st.wantCalls)
		}
	}
}

func TestSearchCachesOnlySuccesses(t *testing.T) {
	s := newStandIn(t, reply{status: 500, fixture: "error_500.json"}, reply{status: 432, fixture: "error_432.json"}, reply{fixture: "search_ok.json"})
	c := newClient(s, tavily.Options{MaxAttempts: 1})
	q := tavily.Query{Text: "ключевая ставка ЦБ"}
	for i, want := range []error{tavily.ErrUnavailable, tavily.ErrQuota, nil, nil} {
		_, err := c.Search(t.Context(), q)
		if !errors.Is(err, want) || (want == nil && err != nil) {
			t.Fatalf("search %d: error = %v, want %v", i+1, err, want)
		}
	}
	if s.Calls() != 3 {
		t.Errorf("upstream calls = %d, want 3", s.Calls())
	}
}

func TestSearchConcurrentIdenticalQueriesCallOnce(t *testing.T) {
	s := newStandIn(t)
	release := s.hold() // the first call waits until every goroutine has started
	c := newClient(s, tavily.Options{})
	const n = 100
	var started, wg sync.WaitGroup
	started.Add(n)
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			started.Done()
			got, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка ЦБ", UserID: 42})
			if err == nil && len(got.Results) != len(okResults) {
				err = errors.New("wrong number of results")
			}
			errs <- err
		})
	}
	started.Wait()
	<-s.arrived
	release()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Search error: %v", err)
		}
	}
	if s.Calls() != 1 {
		t.Errorf("upstream calls = %d, want 1", s.Calls())
	}
}

// A caller who gives up must not fail the others waiting on the same flight.
func TestSearchSharedFlightSurvivesLeaderCancel(t *testing.T) {
	s := newStandIn(t)
	release := s.hold()
	c := newClient(s, tavily.Options{})
	q := tavily.Query{Text: "ключевая ставка ЦБ"}

	leaderCtx, cancelLeader := context.WithCancel(t.Context())
	leader := make(chan error, 1)
	go func() {
		_, err := c.Search(leaderCtx, q)
		leader <- err
	}()
	<-s.arrived // the leader's request is in flight and held

	follower := make(chan error, 1)
	go func() {
		_, err := c.Search(t.Context(), q)
		follower <- err
	}()
	cancelLeader()
	if err := <-leader; !errors.Is(err, context.Canceled) {
		t.Errorf("leader error = %v, want context.Canceled", err)
	}
	release()
	if err := <-follower; err != nil {
		t.Errorf("follower error = %v, want success", err)
	}
}
