package runner

import (
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/google/go-cmp/cmp"
)

func TestMissingFilters(t *testing.T) {
	tests := []struct {
		intent recipe.Name
		f      recipe.Filters
		want   []string
	}{
		{recipe.Receivables, recipe.Filters{}, []string{recipe.FilterAsOfDate}},
		{recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}, []string{}},
		{recipe.AccountBalance, recipe.Filters{}, []string{recipe.FilterAccount, recipe.FilterAsOfDate}},
		{recipe.OpenItemsByParty, recipe.Filters{INN: "7707083893", AsOfDate: "2026-03-31"}, []string{}},
		{recipe.DocumentsByContract, recipe.Filters{Contract: "П-1/2026"}, []string{recipe.FilterPeriodFrom, recipe.FilterPeriodTo}},
		{recipe.BankOpsByParty, recipe.Filters{}, []string{recipe.FilterCounterparty}},
		{recipe.Unknown, recipe.Filters{}, []string{}},
	}
	for _, tt := range tests {
		got := recipe.MissingFilters(tt.intent, tt.f)
		if diff := cmp.Diff(tt.want, got); diff != "" || got == nil {
			t.Errorf("MissingFilters(%s, %+v) mismatch (-want +got):\n%s", tt.intent, tt.f, diff)
		}
	}
}
