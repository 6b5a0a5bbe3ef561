package runner

import (
	"errors"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// goldenDrillCodes is every code drilldown data has ever carried and the recipe it names. A
// button under an old answer carries its code for as long as the chat keeps it: a code never
// changes meaning and is never reused. A new drilldown target gets a new line here; a recipe that
// goes keeps its line, marked retired.
var goldenDrillCodes = map[string]string{
	"op": "address.open_items.by_counterparty",
	"oc": "address.open_items.by_contract",
	"dp": "address.documents.by_counterparty",
	"dc": "address.documents.by_contract",
	"bd": "address.balance.drilldown_documents",
	"ac": "address.account_card.movements",
	"ar": "address.aging.receivables",
	"ap": "address.aging.payables",
	"cp": "card.counterparty",
}

// TestDrillCodes: every recipe a drilldown can open (any recipe's Drilldowns, and the turnover
// sheet's account card) has one code, of two lower-case letters, that means what it always
// meant.
func TestDrillCodes(t *testing.T) {
	for code, id := range goldenDrillCodes {
		if got, ok := drillCodes[code]; !ok || got != id {
			t.Errorf("code %q names %q, it always named %q: a code never changes meaning (give the target a new one)", code, got, id)
		}
	}
	for code, id := range drillCodes {
		if _, ok := goldenDrillCodes[code]; !ok {
			t.Errorf("code %q (%s) is not in goldenDrillCodes: add it there", code, id)
		}
		if !regexp.MustCompile(`^[a-z]{2}$`).MatchString(code) {
			t.Errorf("code %q: want two lower-case letters", code)
		}
		if _, ok := recipe.ByID(id); !ok {
			t.Errorf("code %q names %q, which is not in the catalog", code, id)
		}
	}
	ids := slices.Collect(maps.Values(drillCodes))
	slices.Sort(ids)
	if len(slices.Compact(ids)) != len(drillCodes) {
		t.Errorf("two codes name one recipe: %v", drillCodes)
	}
	targets := map[string]bool{}
	for _, r := range recipe.Specs {
		for _, id := range r.Drilldowns {
			targets[id] = true
		}
	}
	card, _ := recipe.For(recipe.AccountCard) // sheetDrills
	targets[card.ID] = true
	for id := range targets {
		if _, ok := recipe.ByID(id); !ok {
			t.Errorf("drilldown target %q is not in the catalog", id)
		}
		if drillCode(id) == "" {
			t.Errorf("drilldown target %q has no code in drillCodes", id)
		}
	}
}

// withOrganizations is the demo ledger, loaded afresh, with orgs added to its catalog of
// organizations, and a lane over it.
func withOrganizations(t *testing.T, orgs ...onec.Organization) *Lane {
	t.Helper()
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	l.Organizations = append(l.Organizations, orgs...)
	d := onec.NewDemo(l)
	return NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
}

func orgCatalog(t *testing.T, l *Lane) []recipe.Entity {
	t.Helper()
	cats, err := l.catalogsFor(t.Context(), &Debug{})
	if err != nil {
		t.Fatal(err)
	}
	return cats.orgs
}

// A drilldown opens the organization its answer was of, whatever 1C's catalog of organizations
// became since: here a new organization, sorted before the others, shifts every position. Data
// naming the organization by position would open the wrong one's figures.
func TestDrillSurvivesNewOrganization(t *testing.T) {
	before, _ := newTestLane(t)
	after := withOrganizations(t, onec.Organization{Ref: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", Name: "ООО «Альфа Холдинг»", INN: "7701000010", KPP: "770101001"})
	was, now := orgCatalog(t, before), orgCatalog(t, after)
	if len(now) != len(was)+1 || now[0].Name != "ООО «Альфа Холдинг»" {
		t.Fatalf("organizations after: %+v", now)
	}
	for _, tt := range []struct {
		name string
		d    Decomposition
	}{
		{"receivables of the main organization", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"})},
		{"receivables of Трейд", ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31", Organization: "Северный ветер Трейд"})},
		{"payables of Трейд", ask(recipe.Payables, recipe.Filters{AsOfDate: "2025-12-31", Organization: "Северный ветер Трейд"})},
		{"turnover sheet of Трейд", ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31", Organization: "Северный ветер Трейд"})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := before.Run(t.Context(), tt.d)
			drills := res.Drills()
			if len(drills) == 0 {
				t.Fatalf("%s: no drilldowns (%s %s)", tt.name, res.ResultMode, res.Message)
			}
			if i := slices.IndexFunc(was, func(e recipe.Entity) bool { return e.Ref == res.OrgRef }); now[i].Ref == res.OrgRef {
				t.Fatalf("the organization kept its position %d: the test proves nothing", i)
			}
			for _, d := range drills {
				want, err := before.Drill(t.Context(), d.Data)
				if err != nil {
					t.Fatalf("Drill(%q) before: %v", d.Data, err)
				}
				got, err := after.Drill(t.Context(), d.Data)
				if err != nil {
					t.Fatalf("Drill(%q) after: %v", d.Data, err)
				}
				if got.Organization != res.Organization || got.OrgRef != res.OrgRef || got.ResultMode == Limited {
					t.Errorf("Drill(%q) after the new organization: %q (%s %s), want %q", d.Data, got.Organization, got.ResultMode, got.Message, res.Organization)
				}
				if got.Intent != want.Intent || got.Summary.TotalAmount != want.Summary.TotalAmount || got.Summary.Rows != want.Summary.Rows {
					t.Errorf("Drill(%q): %s %s in %d rows after, %s %s in %d rows before", d.Data,
						got.Intent, got.Summary.TotalAmount, got.Summary.Rows, want.Intent, want.Summary.TotalAmount, want.Summary.Rows)
				}
			}
		})
	}
}

// The organization's prefix must name exactly one organization of the catalog: one gone from
// 1C, or two no longer told apart by the prefix, refuse the button rather than pick one.
func TestDrillOrganizationMustBeOne(t *testing.T) {
	l, _ := newTestLane(t)
	res := l.Run(t.Context(), ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31", Organization: "Северный ветер Трейд"}))
	drills := res.Drills()
	if len(drills) == 0 {
		t.Fatalf("no drilldowns: %s", res.Message)
	}
	data := drills[0].Data
	parts := strings.Split(data, ":")
	if len(parts) != 6 || parts[4] != res.OrgRef[:refPrefixLen] {
		t.Fatalf("data %q does not carry the organization's prefix %q", data, res.OrgRef[:refPrefixLen])
	}
	with := func(org string) string { p := slices.Clone(parts); p[4] = org; return strings.Join(p, ":") }

	twin := withOrganizations(t, onec.Organization{Ref: res.OrgRef[:refPrefixLen] + "0-4000-8000-000000000000", Name: "ООО «Двойник»", INN: "7701000027", KPP: "770101001"})
	if _, err := l.Drill(t.Context(), data); err != nil {
		t.Fatalf("Drill(%q): %v", data, err)
	}
	if _, err := twin.Drill(t.Context(), data); !errors.Is(err, ErrBadDrill) {
		t.Errorf("the prefix names two organizations: Drill(%q) = %v, want ErrBadDrill", data, err)
	}
	for _, forged := range []string{
		with("000000000000"),  // none
		with(""),              // none named
		with(res.OrgRef[:7]),  // too short to tell
		with(res.OrgRef[:13]), // longer than data carries
		with(res.OrgRef),      // the whole reference: more than the data carries
		with("1"),             // a position, as the old data had it
		with(strings.ToUpper(res.OrgRef[:refPrefixLen])), // references are compared as 1C gives them
	} {
		if _, err := l.Drill(t.Context(), forged); !errors.Is(err, ErrBadDrill) {
			t.Errorf("Drill(%q) = %v, want ErrBadDrill", forged, err)
		}
	}
}

// Data of the format of before ("a:", positions) is refused as stale, however well formed.
func TestLegacyDrillIsStale(t *testing.T) {
	l, _ := newTestLane(t)
	res := l.Run(t.Context(), ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31"}))
	ref := res.Rows[0].Ref[:refPrefixLen]
	for _, old := range []string{"a:4:" + ref + ":20260331:0:", "a:4:" + ref + ":20260331:1:", "a:11:p20260101:20260331:0:62", "a:", "a:x"} {
		if _, err := l.Drill(t.Context(), old); !errors.Is(err, ErrStaleDrill) || !errors.Is(err, ErrBadDrill) {
			t.Errorf("Drill(%q) = %v, want ErrStaleDrill (an ErrBadDrill)", old, err)
		}
	}
	for _, d := range res.Drills() {
		if _, err := l.Drill(t.Context(), d.Data); errors.Is(err, ErrStaleDrill) {
			t.Errorf("fresh data %q refused as stale", d.Data)
		}
	}
}

// TestDrillDataFits: every drilldown the demo ledger offers — each recipe with drilldowns, for
// each organization — fits Telegram's 64 bytes and comes back; so does the longest data the
// format can hold.
func TestDrillDataFits(t *testing.T) {
	l, _ := newTestLane(t)
	orgs := orgCatalog(t, l)
	questions := []Decomposition{
		ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31", Limit: recipe.MaxLimit}),
		ask(recipe.Payables, recipe.Filters{AsOfDate: "2025-12-31", Limit: recipe.MaxLimit}),
		ask(recipe.Receivables, recipe.Filters{AsOfDate: "2026-03-31", Account: "62.01"}),
		ask(recipe.OpenContracts, recipe.Filters{AsOfDate: "2026-03-31", Status: "open"}),
		ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "62"}),
		ask(recipe.AccountBalance, recipe.Filters{AsOfDate: "2026-03-31", Account: "90.01.1"}),
		ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Альфе", Status: "open"}),
		ask(recipe.OpenItemsByContract, recipe.Filters{AsOfDate: "2026-03-31", Contract: "П-77/2024", Status: "open"}),
		ask(recipe.DocumentsByParty, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Counterparty: "Альфа"}),
		ask(recipe.DocumentsByContract, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Contract: "П-77/2024"}),
		ask(recipe.BankOpsByParty, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2026-04-30", Counterparty: "Альфа Поставка"}),
		ask(recipe.DocumentsFormBalance, recipe.Filters{AsOfDate: "2025-01-31", Account: "62"}),
		ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31"}),
		ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31", Account: "60"}),
	}
	offered := map[recipe.Name]int{}
	for _, org := range orgs {
		for _, q := range questions {
			q.Filters.Organization = org.Name
			res := l.Run(t.Context(), q)
			for _, d := range res.Drills() {
				offered[q.Intent]++
				if len(d.Data) > maxDrillData || !IsDrill(d.Data) {
					t.Errorf("%s of %s: data %q (%d bytes)", q.Intent, org.Name, d.Data, len(d.Data))
				}
				got, err := l.Drill(t.Context(), d.Data)
				if err != nil {
					t.Errorf("%s of %s: Drill(%q): %v", q.Intent, org.Name, d.Data, err)
					continue
				}
				if got.OrgRef != org.Ref {
					t.Errorf("%s of %s: Drill(%q) opened %q", q.Intent, org.Name, d.Data, got.Organization)
				}
			}
		}
	}
	// A settlement account names its organization (bank.go): its drilldowns keep it.
	bank := l.Run(t.Context(), withBank(ask(recipe.AccountBalance, recipe.Filters{Account: "51", AsOfDate: "2026-03-31"}), tradeAccount))
	if bank.Organization != tradeOrgName || len(bank.Drills()) == 0 {
		t.Errorf("balance of %s: %q, drills %+v", tradeAccount, bank.Organization, bank.Drills())
	}
	for _, d := range bank.Drills() {
		if got, err := l.Drill(t.Context(), d.Data); err != nil || got.Organization != tradeOrgName || len(d.Data) > maxDrillData {
			t.Errorf("balance of %s: Drill(%q) = %q, %v", tradeAccount, d.Data, got.Organization, err)
		}
	}
	for _, i := range []recipe.Name{recipe.Receivables, recipe.Payables, recipe.AccountBalance, recipe.OpenItemsByParty, recipe.DocumentsByParty, recipe.TurnoverSheet} {
		if offered[i] == 0 {
			t.Errorf("%s offered no drilldown for any organization: %v", i, offered)
		}
	}
	// The longest of each field: a code, an account anchor of the longest account, a date, an
	// organization's prefix, the longest account.
	longest := drillData("address.balance.drilldown_documents", "acct-000.00.00", time.Date(2099, 12, 31, 0, 0, 0, 0, time.UTC),
		orgs[0].Ref, "000.00.00")
	if longest == "" || len(longest) > maxDrillData || !accountCode.MatchString("000.00.00") {
		t.Errorf("the longest data %q is %d bytes", longest, len(longest))
	}
	// An organization with no reference the catalog holds gets no drilldown rather than another's.
	res := l.Run(t.Context(), questions[0])
	res.OrgRef = ""
	if d := res.Drills(); len(d) != 0 {
		t.Errorf("drills without an organization: %+v", d)
	}
}
