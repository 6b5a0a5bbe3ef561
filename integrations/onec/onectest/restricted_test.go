package onectest_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
	"github.com/finbot/finbot/integrations/onec/onectest"
)

// The stand-in of a 1C user restricted by RLS to ООО «Северный ветер Трейд», over the wire:
// every template, as it says ВЫБРАТЬ РАЗРЕШЕННЫЕ, gets that organization's records and no
// error; the same text without РАЗРЕШЕННЫЕ fails with 1C's access violation wherever it reads
// a table BP restricts by organization, and runs where it reads none (Контрагенты, the chart).
func TestRestrictedBaseOverTheWire(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	main, trade := l.Organizations[0], l.Organizations[1]
	if !strings.Contains(trade.Name, "Трейд") {
		t.Fatalf("organizations %+v: want the second to be ООО «Северный ветер Трейд»", l.Organizations)
	}
	var alfa, contract string
	for _, c := range l.Contracts {
		if c.OrganizationRef == trade.Ref && c.Number == "П-77/2024" {
			alfa, contract = c.OwnerRef, c.Ref
		}
	}
	base := onectest.NewRestricted(l, trade.Ref)
	proxy, err := onec.NewProxy(onec.ProxyOptions{URL: onectest.NewServer(t, base).URL})
	if err != nil {
		t.Fatal(err)
	}
	// The same base under a user with full rights, for the permitted organization's figures.
	full, err := onec.NewProxy(onec.ProxyOptions{URL: onectest.NewServer(t, onec.NewDemo(l)).URL})
	if err != nil {
		t.Fatal(err)
	}
	params := func(org string) map[string]any { // a template ignores the parameters it does not use
		p := map[string]any{"НаДату": "2026-04-01T00:00:00", "НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2026-03-31T23:59:59",
			"Организация": onec.Ref{UUID: org, Type: onec.TypeOrganization}.Param(),
			"Контрагент":  onec.Ref{UUID: alfa, Type: onec.TypeCounterparty}.Param(),
			"Договор":     onec.Ref{UUID: contract, Type: onec.TypeContract}.Param(),
			"СчетКод":     "62", "СчетМаска": "62.%", "ТипДокумента": "", "ПослеКода": "",
			"СрокОплатыПоУмолчанию": 0, "Разрез": onec.AgingByContract, "Номенклатура": nil}
		for i, d := range []string{"2026-03-31", "2026-03-01", "2026-01-30", "2025-12-31", "2025-12-31", "2025-12-31", "2025-12-31"} {
			p[onec.AgingBoundParam(i)] = d + "T00:00:00" // the aging's bounds: 30, 60, 90 days
		}
		return p
	}
	unrestricted := map[string]bool{"catalog.counterparties": true, "catalog.accounts": true, "catalog.nomenclature": true}
	withRows := 0
	for _, id := range onec.QueryIDs() {
		text, _ := onec.Query(id)
		t.Run(id, func(t *testing.T) {
			rows, err := proxy.Execute(t.Context(), text, params(trade.Ref), onec.MaxProxyRows)
			if err != nil {
				t.Fatalf("РАЗРЕШЕННЫЕ: %v", err)
			}
			for _, row := range rows {
				for col, v := range row {
					if r, ok := onec.RefOf(v); ok && r.Type == onec.TypeOrganization && r.UUID != trade.Ref {
						t.Fatalf("column %s holds %s, an organization the user may not see", col, r.Presentation)
					}
				}
			}
			if strings.HasPrefix(id, "address.") {
				// a recipe of the permitted organization reads what full rights would read
				want, err := full.Execute(t.Context(), text, params(trade.Ref), onec.MaxProxyRows)
				if err != nil {
					t.Fatal(err)
				}
				if diff := gocmp.Diff(want, rows); diff != "" {
					t.Errorf("the permitted organization's rows differ from full rights' (-full +restricted):\n%s", diff)
				}
				withRows += min(len(rows), 1)
			}
			// The organization the user may not see: nothing, and no error either.
			hidden, err := proxy.Execute(t.Context(), text, params(main.Ref), onec.MaxProxyRows)
			if err != nil {
				t.Fatalf("РАЗРЕШЕННЫЕ, another organization: %v", err)
			}
			for _, row := range hidden { // an aggregate without grouping is one row of zeros
				for col, v := range row {
					if n, ok := v.(json.Number); ok && strings.HasPrefix(id, "address.") && n != "0" {
						t.Errorf("%s = %s: a figure of %s, which the user may not see", col, n, main.Name)
					}
				}
			}

			stripped := strings.ReplaceAll(text, "ВЫБРАТЬ РАЗРЕШЕННЫЕ", "ВЫБРАТЬ")
			if stripped == text {
				t.Fatal("the template does not say ВЫБРАТЬ РАЗРЕШЕННЫЕ")
			}
			_, err = proxy.Execute(t.Context(), stripped, params(trade.Ref), onec.MaxProxyRows)
			var qe *onec.QueryError
			switch {
			case unrestricted[id] && err != nil:
				t.Errorf("without РАЗРЕШЕННЫЕ, reading no restricted table: %v", err)
			case !unrestricted[id] && (!errors.As(err, &qe) || qe.Message != onectest.AccessViolation):
				t.Errorf("without РАЗРЕШЕННЫЕ: %v, want 1C's %q", err, onectest.AccessViolation)
			}
		})
	}
	if withRows < 12 {
		t.Errorf("%d recipe templates answered rows for the permitted organization: pick other anchors", withRows)
	}
	if n := len(base.Refused()); n != len(onec.QueryIDs())-len(unrestricted) {
		t.Errorf("%d queries refused, want one per template that reads a restricted table", n)
	}
	orgs, err := proxy.Execute(t.Context(), mustQuery(t, "catalog.organizations"), nil, onec.MaxProxyRows)
	if err != nil || len(orgs) != 1 || orgs[0]["Наименование"] != trade.Name {
		t.Errorf("organizations the user sees: %v %v; want %s alone", orgs, err, trade.Name)
	}
}

func mustQuery(t *testing.T, id string) string {
	t.Helper()
	q, ok := onec.Query(id)
	if !ok {
		t.Fatalf("no template %s", id)
	}
	return q
}

// The quantity templates under the same restriction, on the realistic base (the default one
// keeps no quantities): the stock of ООО «Северный ветер Трейд» per account and item is what
// full rights read for it, the head organization's none, and the nomenclature (not restricted
// by organization in BP) is whole.
func TestRestrictedStockOverTheWire(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	l := ledgergen.Realistic(ledgergen.DefaultSeed)
	main, trade := l.Organizations[0], l.Organizations[1]
	restricted, err := onec.NewProxy(onec.ProxyOptions{URL: onectest.NewServer(t, onectest.NewRestricted(l, trade.Ref)).URL})
	if err != nil {
		t.Fatal(err)
	}
	full, err := onec.NewProxy(onec.ProxyOptions{URL: onectest.NewServer(t, onec.NewDemo(l)).URL})
	if err != nil {
		t.Fatal(err)
	}
	code, mask := onec.StockAllAccounts()
	stock := func(org string) onec.Params {
		return onec.Params{"НаДату": "2026-04-01T00:00:00", "Организация": onec.Ref{UUID: org, Type: onec.TypeOrganization}.Param(),
			"СчетКод": code, "СчетМаска": mask, "Номенклатура": nil}
	}
	got, err := restricted.Query(t.Context(), "address.stock.balance", stock(trade.Ref), onec.MaxProxyRows)
	if err != nil {
		t.Fatal(err)
	}
	want, err := full.Query(t.Context(), "address.stock.balance", stock(trade.Ref), onec.MaxProxyRows)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Stock) < 10 {
		t.Fatalf("%d stock lines of %s under full rights: the test proves nothing", len(want.Stock), trade.Name)
	}
	if diff := gocmp.Diff(want.Stock, got.Stock); diff != "" {
		t.Errorf("the permitted organization's stock (-full +restricted):\n%s", diff)
	}
	hidden, err := restricted.Query(t.Context(), "address.stock.balance", stock(main.Ref), onec.MaxProxyRows)
	if err != nil || len(hidden.Stock) != 0 {
		t.Errorf("%s's stock under the restricted user: %d lines, %v; want none", main.Name, len(hidden.Stock), err)
	}
	items, err := restricted.Query(t.Context(), "catalog.nomenclature", onec.Params{"ПослеКода": ""}, onec.MaxProxyRows)
	if err != nil || len(items.Items) != len(l.Items) {
		t.Errorf("the nomenclature the restricted user sees: %d items, %v; want all %d", len(items.Items), err, len(l.Items))
	}
}
