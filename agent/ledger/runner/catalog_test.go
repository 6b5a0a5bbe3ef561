package runner

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/golden"
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

// TestDemoCatalogsFile keeps agent/understand's copy of the demo ledger's catalogs (its corpus
// tests resolve names against them without importing the 1C skill) equal to what the runner
// loads through the whitelisted catalog queries. go test -update rewrites it.
func TestDemoCatalogsFile(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewLane(onec.NewDemo(l), Options{}).Catalogs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(c, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "../../understand/testdata/demo_catalogs.json", string(b)+"\n")
}
