package onec_test

import (
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// register.first_posting is МИНИМУМ(Период) over the register's own table: one row, the first
// record's Период in the toolkit's date form, and NULL ("" on the wire) over an empty register,
// as 1C answers an aggregate without grouping. Records of unposted documents do not exist in 1C
// and do not count.
func TestFirstPosting(t *testing.T) {
	_, demo, _ := fixture(t)
	empty := onec.NewDemo(&onec.Ledger{Organizations: []onec.Organization{{Ref: orgUUID, Name: "ООО «Тест»", Default: true}}})
	tests := []struct {
		name string
		d    *onec.Demo
		wire string
		want time.Time
	}{
		{"the demo ledger: its opening balances", demo, "2024-12-31T23:59:59Z", time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC)},
		{"an unposted document's earlier record does not count", onec.NewDemo(edgeLedger(t)), "2025-01-31T23:59:59Z",
			time.Date(2025, 1, 31, 23, 59, 59, 0, time.UTC)},
		{"an empty register: NULL", empty, onec.WireNull, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows := run(t, tt.d, "register.first_posting", nil)
			if diff := gocmp.Diff([]map[string]any{{"Период": tt.wire}}, rows); diff != "" {
				t.Errorf("wire rows (-want +got):\n%s", diff)
			}
			srv := onectest.NewServer(t, tt.d)
			proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range []onec.Source{tt.d, proxy} {
				res, err := src.Query(t.Context(), "register.first_posting", onec.Params{}, onec.MaxProxyRows)
				if err != nil {
					t.Fatalf("%s: %v", src.Name(), err)
				}
				if len(res.FirstPosting) != 1 || !res.FirstPosting[0].Period.Equal(tt.want) || len(res.Dropped) != 0 {
					t.Errorf("%s: %+v, dropped %v; want one row of %s", src.Name(), res.FirstPosting, res.Dropped, tt.want)
				}
			}
		})
	}
}

// A row that is neither a date nor NULL is no answer: dropped, not read as an empty register.
func TestDecodeFirstPosting(t *testing.T) {
	for _, tt := range []struct {
		name string
		row  map[string]any
		ok   bool
	}{
		{"a date", map[string]any{"Период": "2024-12-31T23:59:59Z"}, true},
		{"NULL", map[string]any{"Период": ""}, true},
		{"the column missing", map[string]any{"Дата": "2024-12-31T23:59:59Z"}, false},
		{"not a date", map[string]any{"Период": "вчера"}, false},
		{"the empty date", map[string]any{"Период": "Z"}, false},
	} {
		res, err := onec.Decode("register.first_posting", []map[string]any{tt.row})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(res.FirstPosting) == 1 && len(res.Dropped) == 0; got != tt.ok {
			t.Errorf("%s: %+v, dropped %v; readable = %v, want %v", tt.name, res.FirstPosting, res.Dropped, got, tt.ok)
		}
	}
}
