package runner

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMissingFilters(t *testing.T) {
	tests := []struct {
		intent Intent
		f      Filters
		want   []string
	}{
		{IntentReceivables, Filters{}, []string{FilterAsOfDate}},
		{IntentReceivables, Filters{AsOfDate: "2026-03-31"}, []string{}},
		{IntentAccountBalance, Filters{}, []string{FilterAccount, FilterAsOfDate}},
		{IntentOpenItemsByParty, Filters{INN: "7707083893", AsOfDate: "2026-03-31"}, []string{}},
		{IntentDocumentsByContract, Filters{Contract: "П-1/2026"}, []string{FilterPeriodFrom, FilterPeriodTo}},
		{IntentBankOpsByParty, Filters{}, []string{FilterCounterparty}},
		{IntentUnknown, Filters{}, []string{}},
	}
	for _, tt := range tests {
		got := MissingFilters(tt.intent, tt.f)
		if diff := cmp.Diff(tt.want, got); diff != "" || got == nil {
			t.Errorf("MissingFilters(%s, %+v) mismatch (-want +got):\n%s", tt.intent, tt.f, diff)
		}
	}
}
