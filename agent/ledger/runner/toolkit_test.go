package runner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// The main organization: BP keeps it in each user's settings, which no query reads, and
// Организации.Предопределенный is false for every organization. With several organizations and
// none configured the lane asks; configured (by INN or name) it answers for that one; a contract
// brings its own.
func TestMainOrganization(t *testing.T) {
	d, l := demo(t)
	srv := onectest.NewServer(t, d) // over the wire, as with a real base
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	trade := l.Organizations[1] // ООО «Северный ветер Трейд», second by name
	tests := []struct {
		name, org string
		d         Decomposition
		wantOrg   string // "" = the lane asks which
	}{
		{"several, none configured", "", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), ""},
		{"configured by INN", mainOrg, ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), "ООО «Северный ветер»"},
		{"configured by name", trade.Name, ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), trade.Name},
		{"configured but unknown", "0000000000", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), ""},
		{"named in the question", "", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31", Organization: "Северный ветер Трейд"}), trade.Name},
		{"a contract's own", "", ask(recipe.DocumentsByContract, recipe.Filters{Contract: "П-90/2024", PeriodFrom: "2024-01-01", PeriodTo: "2026-03-31"}), trade.Name},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := NewLane(proxy, Options{Now: fixedNow, Organization: tt.org}).Run(t.Context(), tt.d)
			if tt.wantOrg == "" {
				var names []string
				for _, c := range res.Candidates {
					names = append(names, c.Name)
				}
				if res.ResultMode != Limited || res.AnchorType != "organization" {
					t.Fatalf("%s %q, want the question which organization", res.ResultMode, res.Message)
				}
				if diff := cmp.Diff([]string{"ООО «Северный ветер Трейд»", "ООО «Северный ветер»"}, names, cmpSorted); diff != "" {
					t.Errorf("candidates (-want +got):\n%s", diff)
				}
				return
			}
			if res.ResultMode == Limited || res.Organization != tt.wantOrg {
				t.Errorf("%s %q for %q, want figures for %q", res.ResultMode, res.Message, res.Organization, tt.wantOrg)
			}
		})
	}
}

var cmpSorted = cmp.Transformer("sorted", func(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

// A base with one organization needs no configuration: BP itself takes the only one
// (Справочники.Организации.ОрганизацияПоУмолчанию).
func TestMainOrganizationTheOnlyOne(t *testing.T) {
	only := []recipe.Entity{{Ref: "1", Name: "ООО «Одна»", INN: "7700000001"}}
	two := append(only, recipe.Entity{Ref: "2", Name: "ООО «Вторая»", INN: "7700000002"})
	l := NewLane(nil, Options{})
	if got := l.mainOrganization(t.Context(), only); got.Ref != "1" {
		t.Errorf("one organization: %+v", got)
	}
	if got := l.mainOrganization(t.Context(), two); got.Ref != "" {
		t.Errorf("two organizations, none configured: %+v, want none", got)
	}
	l = NewLane(nil, Options{Organization: "ооо «вторая»"})
	if got := l.mainOrganization(t.Context(), two); got.Ref != "2" {
		t.Errorf("configured by name, another case: %+v", got)
	}
}

// A catalog longer than one query's row limit is read in pages: with a limit of 20 rows the 33
// counterparties and 51 contracts take 2 and 3 pages, and a question about the last of them is
// answered exactly as with no limit at all.
func TestCatalogsBeyondOnePage(t *testing.T) {
	d, _ := demo(t)
	full := NewLane(d, Options{Now: fixedNow, Organization: mainOrg})
	src := &recordingSource{Source: d}
	paged := NewLane(src, Options{Now: fixedNow, Organization: mainOrg, MaxRows: 20})
	for _, q := range []Decomposition{
		ask(recipe.DocumentsByContract, recipe.Filters{Contract: "П-44/2024", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}),
		ask(recipe.DocumentsByParty, recipe.Filters{Counterparty: "Универсал", PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}),
	} {
		want, got := full.Run(t.Context(), q), paged.Run(t.Context(), q)
		if got.ResultMode == Limited || got.Markdown() != want.Markdown() {
			t.Errorf("%s with 20-row pages:\n%s\nwant:\n%s", q.Intent, got.Markdown(), want.Markdown())
		}
	}
	cpText, _ := onec.Query("catalog.counterparties")
	ctrText, _ := onec.Query("catalog.contracts")
	var cpPages, ctrPages int
	for _, q := range src.queries {
		switch q {
		case cpText:
			cpPages++
		case ctrText:
			ctrPages++
		}
	}
	if cpPages != 2 || ctrPages != 3 {
		t.Errorf("pages read: %d of counterparties, %d of contracts; want 2 and 3", cpPages, ctrPages)
	}
}

// A result as long as the row limit may have been cut (the toolkit says nothing): the lane says
// so instead of a total of the rows that came.
func TestCutResultShowsNoTotal(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: mainOrg, MaxRows: 18})
	for _, q := range []Decomposition{
		ask(recipe.DocumentsFormBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "62"}),
		ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}), // 18 counterparties owe: a full page
		ask(recipe.DocumentsByParty, recipe.Filters{Counterparty: "Альфе", PeriodFrom: "2024-01-01", PeriodTo: "2026-03-31"}),
		// 25 contracts in debt, then 18 counterparties: cut by contract, and by counterparty too
		ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-03-31"}),
	} {
		res := lane.Run(t.Context(), q)
		if res.ResultMode != Limited || res.LimitedReason != ReasonVisibilityGap || !strings.Contains(res.Message, "обрезан на 18 строк") ||
			res.Summary.TotalAmount != 0 || len(res.Rows) != 0 {
			t.Errorf("%s: %s %s %q, total %s, %d rows", q.Intent, res.ResultMode, res.LimitedReason, res.Message, res.Summary.TotalAmount, len(res.Rows))
		}
	}
	// Under the limit the same question has its figures.
	if res := NewLane(d, Options{Now: fixedNow, Organization: mainOrg}).Run(t.Context(), ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"})); res.ResultMode == Limited {
		t.Errorf("receivables without a limit: %s %q", res.ResultMode, res.Message)
	}
}

// Each template the lane runs answers in the family of typed rows the lane reads from it: a
// recipe moved to a template of another family would read no rows at all, silently.
func TestTemplatesAnswerInTheRowsTheLaneReads(t *testing.T) {
	want := map[string]onec.RowKind{
		idChart: onec.RowsAccount, idOpenItemsParty: onec.RowsBalance, idOpenItemsTreaty: onec.RowsBalance,
		idRegisterRecords: onec.RowsMovement, qSheetByAccount: onec.RowsSheet, qSheetByCounterparty: onec.RowsSheet,
		qSheetByContract: onec.RowsSheet, qCardMovements: onec.RowsMovement, qCardBalances: onec.RowsCardTotals,
		"catalog.organizations": onec.RowsOrganization, "catalog.counterparties": onec.RowsCounterparty,
		"catalog.contracts": onec.RowsContract, "catalog.bank_accounts": onec.RowsBankAccount,
		qFirstPosting: onec.RowsFirstPosting, "catalog.nomenclature": onec.RowsItem,
	}
	for _, r := range recipe.Specs {
		switch r.Name {
		case recipe.Receivables, recipe.Payables, recipe.AccountBalance, recipe.DocumentsFormBalance,
			recipe.OpenItemsByParty, recipe.OpenItemsByContract, recipe.OpenContracts:
			want[r.ID] = onec.RowsBalance
		case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
			want[r.ID] = onec.RowsDocument
		case recipe.ReceivablesAging, recipe.PayablesAging:
			want[r.ID] = onec.RowsAging
		case recipe.ReconciliationAct:
			want[r.ID], want[idReconcileBalances] = onec.RowsReconciliation, onec.RowsCardTotals
		case recipe.OffsetCandidates:
			want[r.ID] = onec.RowsBalance
		case recipe.CounterpartyCard:
			// the card runs the templates of the recipes above, none of its own
		case recipe.StockBalance:
			want[r.ID] = onec.RowsStock
		}
	}
	for id, kind := range want {
		if got, ok := onec.RowKindOf(id); !ok || got != kind {
			t.Errorf("%s answers in row family %d, the lane reads %d", id, got, kind)
		}
	}
	if len(want) < len(onec.QueryIDs()) {
		t.Errorf("%d templates checked of %d", len(want), len(onec.QueryIDs()))
	}
}

// A restricted 1C user: the templates select РАЗРЕШЕННЫЕ, and 1C then drops what the user may
// not see without a trace. Over the toolkit's stand-in of such a user — RLS confines them to
// ООО «Северный ветер Трейд», the other organization's records, documents, contracts and bank
// accounts hidden, and a query without РАЗРЕШЕННЫЕ fails with 1C's «Нарушение прав доступа!» —
// every recipe answers with the figures of what the user may see, exactly those that full
// rights give for that organization, and no query is refused; with ONEC_RESTRICTED_USER
// (Options.RestrictedRights, a channel's «restricted») every factual answer says its figures
// cover only what this user may see; a user with full rights' answers do not.
func TestRestrictedRightsAreStated(t *testing.T) {
	d, l := demo(t)
	for _, id := range onec.QueryIDs() {
		if q, _ := onec.Query(id); !strings.Contains(q, "\nВЫБРАТЬ РАЗРЕШЕННЫЕ") {
			t.Errorf("%s: the first selection is not РАЗРЕШЕННЫЕ", id)
		}
	}
	trade := l.Organizations[1] // ООО «Северный ветер Трейд»
	rls := onectest.NewRestricted(l, trade.Ref)
	srv := onectest.NewServer(t, rls)
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	// Every recipe, asked of the organization the user may see: the only one its catalog shows,
	// so the lane needs no main organization configured.
	questions := []Decomposition{
		ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}),
		ask(recipe.Payables, recipe.Filters{AsOfDate: "2026-03-31"}),
		ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "62"}),
		ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2025-06-30", Counterparty: "Альфе", Status: "open"}),
		ask(recipe.OpenItemsByContract, recipe.Filters{AsOfDate: "2025-06-30", Contract: "П-77/2024", Status: "open"}),
		ask(recipe.OpenContracts, recipe.Filters{AsOfDate: "2026-03-31", Status: "open"}),
		ask(recipe.DocumentsByParty, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2026-03-31", Counterparty: "Альфе"}),
		ask(recipe.DocumentsByContract, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2026-03-31", Contract: "П-77/2024"}),
		ask(recipe.BankOpsByParty, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2026-03-31", Counterparty: "Альфе"}),
		ask(recipe.DocumentsFormBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "62"}),
		ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"}),
		ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31", Account: "62"}),
		ask(recipe.ReceivablesAging, recipe.Filters{AsOfDate: "2026-03-31"}),
		ask(recipe.PayablesAging, recipe.Filters{AsOfDate: "2026-03-31"}),
		ask(recipe.ReconciliationAct, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2026-03-31", Counterparty: "Альфе"}),
		ask(recipe.CounterpartyCard, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Альфа"}),
	}
	// ООО «Северный ветер Трейд» has no counterparty on both sides on any day: the offsets of a
	// restricted user are checked on the other organization (TestRestrictedOffsets). The default
	// base keeps no quantities: the stock is asked of the realistic one (TestRestrictedStock).
	covered := map[recipe.Name]bool{recipe.OffsetCandidates: true, recipe.StockBalance: true}
	for _, q := range questions {
		covered[q.Intent] = true
	}
	for _, r := range recipe.Specs {
		if !covered[r.Name] {
			t.Errorf("recipe %s is not asked", r.Name)
		}
	}
	fullRights := NewLane(d, Options{Now: fixedNow, Organization: trade.INN})
	for _, restricted := range []bool{true, false} {
		lane := NewLane(proxy, Options{Now: fixedNow, RestrictedRights: restricted})
		for _, q := range questions {
			t.Run(fmt.Sprintf("%s restricted=%v", q.Intent, restricted), func(t *testing.T) {
				res := lane.Run(t.Context(), q)
				if res.ResultMode != FactualList && res.ResultMode != FactualSummary {
					t.Fatalf("%s %s %q; want figures", res.ResultMode, res.LimitedReason, res.Message)
				}
				if res.Organization != trade.Name {
					t.Errorf("answered for %q, want %q", res.Organization, trade.Name)
				}
				if got := slices.Contains(res.Notes, RightsNote); got != restricted {
					t.Errorf("rights note %v, notes %q", got, res.Notes)
				}
				want := fullRights.Run(t.Context(), q)
				if diff := cmp.Diff(want.Summary, res.Summary); diff != "" {
					t.Errorf("total (-full rights +restricted):\n%s", diff)
				}
				if diff := cmp.Diff(want.All, res.All); diff != "" {
					t.Errorf("rows (-full rights +restricted):\n%s", diff)
				}
				if res.Act != nil && strings.Contains(res.Act.Source, RightsNote) != restricted {
					t.Errorf("the act's files say %q", res.Act.Source)
				}
			})
		}
	}
	if refused := rls.Refused(); len(refused) != 0 {
		t.Errorf("%d queries refused for want of РАЗРЕШЕННЫЕ: %.200q", len(refused), refused)
	}
	if len(srv.Queries()) == 0 {
		t.Fatal("no query reached the stand-in")
	}
}

// TestRestrictedOffsets: a 1C user confined to ООО «Северный ветер» sees ООО «Универсал» on both
// sides on 31.03.2026 — the offsets and the card of a user with full rights for it, the rights
// note said; one confined to ООО «Северный ветер Трейд» sees nobody on both sides, as full rights
// for it do, and no query is refused.
func TestRestrictedOffsets(t *testing.T) {
	d, l := demo(t)
	for _, org := range l.Organizations {
		rls := onectest.NewRestricted(l, org.Ref)
		srv := onectest.NewServer(t, rls)
		proxy, err := onec.NewProxy(onec.ProxyOptions{URL: srv.URL})
		if err != nil {
			t.Fatal(err)
		}
		lane := NewLane(proxy, Options{Now: fixedNow, RestrictedRights: true})
		full := NewLane(d, Options{Now: fixedNow, Organization: org.INN})
		for _, q := range []Decomposition{
			ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: "2026-03-31"}),
			ask(recipe.CounterpartyCard, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Универсал"}),
		} {
			t.Run(org.Name+" "+string(q.Intent), func(t *testing.T) {
				res, want := lane.Run(t.Context(), q), full.Run(t.Context(), q)
				if res.Organization != org.Name {
					t.Errorf("answered for %q, want %q", res.Organization, org.Name)
				}
				if res.ResultMode != want.ResultMode || res.LimitedReason != want.LimitedReason || res.Message != want.Message {
					t.Fatalf("restricted %s %s %q; full rights %s %s %q", res.ResultMode, res.LimitedReason, res.Message,
						want.ResultMode, want.LimitedReason, want.Message)
				}
				if diff := cmp.Diff(want.Summary, res.Summary); diff != "" {
					t.Errorf("total (-full rights +restricted):\n%s", diff)
				}
				if diff := cmp.Diff(want.All, res.All); diff != "" {
					t.Errorf("rows (-full rights +restricted):\n%s", diff)
				}
				if diff := cmp.Diff(want.Offsets, res.Offsets); diff != "" {
					t.Errorf("offsets (-full rights +restricted):\n%s", diff)
				}
				if want.PartyCard != nil {
					w, g := *want.PartyCard, *res.PartyCard
					w.Sources, g.Sources = CardSources{}, CardSources{} // they name the base
					if diff := cmp.Diff(w, g); diff != "" {
						t.Errorf("card (-full rights +restricted):\n%s", diff)
					}
				}
				if res.ResultMode != Limited && !slices.Contains(res.Notes, RightsNote) {
					t.Errorf("no rights note: %q", res.Notes)
				}
			})
		}
		if refused := rls.Refused(); len(refused) != 0 {
			t.Errorf("%d queries refused for want of РАЗРЕШЕННЫЕ", len(refused))
		}
	}
}
