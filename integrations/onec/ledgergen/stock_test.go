package ledgergen_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// The quantity accounts of the realistic base against the independent calculation over the
// exported files: per account and item, the sum and the quantity summed with plain loops over
// the records (the chart's «quantity» flag and the nomenclature file read as written), beside
// what address.stock.balance answers when the demo runs its text — for every organization
// (a head with its division), several days, every quantity account or one, one item.

// stockLine is a balance line of the calculation: account and item.
type stockLine struct{ acc, item string }

type stockFigures struct {
	sum onec.Kopecks
	qty onec.Quantity
}

// stock is the calculation: the balance of the accounts under token (every quantity account
// for "") per account and item, of org's records (its divisions' too) before `to`, lines of
// all zeros left out.
func (c *calc) stock(org, token string, to time.Time) map[stockLine]stockFigures {
	quantity := map[string]bool{}
	for _, a := range c.l.Accounts {
		quantity[a.Code] = a.Quantity
	}
	out := map[stockLine]stockFigures{}
	add := func(acc string, subs []onec.Subconto, sum onec.Kopecks, qty onec.Quantity) {
		if !quantity[acc] || token != "" && !under(acc, token) {
			return
		}
		k := stockLine{acc: acc}
		for _, s := range subs {
			if s.Kind == "Номенклатура" {
				k.item = s.Ref
			}
		}
		f := out[k]
		f.sum, f.qty = f.sum+sum, f.qty+qty
		out[k] = f
	}
	for _, m := range c.l.Movements {
		if p, known := c.posted[m.RecorderRef]; (known && !p) || !c.in(m.OrganizationRef, org) || !m.Period.Before(to) {
			continue
		}
		add(m.AccountDr, m.SubcontoDr, m.Amount, m.QuantityDr)
		add(m.AccountCr, m.SubcontoCr, -m.Amount, -m.QuantityCr)
	}
	for k, f := range out {
		if f.sum == 0 && f.qty == 0 {
			delete(out, k)
		}
	}
	return out
}

func TestRealisticStockAgainstCalculation(t *testing.T) {
	l, d := realisticBase(t)
	c := newCalc(l)
	names, units := map[string]string{}, map[string]string{}
	for _, it := range l.Items {
		names[it.Ref], units[it.Ref] = it.Name, it.Unit
	}
	days := []time.Time{time.Date(2025, 1, 31, 0, 0, 0, 0, time.UTC), time.Date(2025, 9, 30, 0, 0, 0, 0, time.UTC), asOf}
	lines := 0
	for _, org := range organizations(l) {
		for _, day := range days {
			for _, token := range []string{"", "41", "10.01"} {
				t.Run(fmt.Sprintf("%s/%s/%s", org.Name, day.Format(time.DateOnly), token), func(t *testing.T) {
					code, mask := onec.StockAllAccounts()
					if token != "" {
						code, mask = token, token+".%"
					}
					res := ask(t, d, "address.stock.balance", onec.Params{"НаДату": onec.AsOfParam(day), "Организация": ref(org.Ref, onec.TypeOrganization),
						"СчетКод": code, "СчетМаска": mask, "Номенклатура": nil}, 0)
					got := map[stockLine]stockFigures{}
					for _, r := range res.Stock {
						if !r.Counted {
							t.Errorf("%s %s: the quantity is NULL on a quantity account", r.Account, r.Item.Presentation)
						}
						k := stockLine{r.Account, refID(r.Item)}
						if _, dup := got[k]; dup {
							t.Errorf("%v: two lines", k)
						}
						got[k] = stockFigures{r.Amount, r.Quantity}
						if r.Item.Presentation != names[k.item] || r.Unit != units[k.item] {
							t.Errorf("%v: named %q in %q, the catalog says %q in %q", k, r.Item.Presentation, r.Unit, names[k.item], units[k.item])
						}
					}
					want := c.stock(org.Ref, token, day.AddDate(0, 0, 1))
					if msg := stockDiff(got, want); msg != "" {
						t.Errorf("stock (got vs calculation):\n%s", msg)
					}
					lines += len(want)
				})
			}
		}
	}
	if lines < 500 {
		t.Errorf("%d stock lines in all: the calculation checks too little", lines)
	}
	// One item: the same line alone.
	paper := l.Items[0]
	res := ask(t, d, "address.stock.balance", onec.Params{"НаДату": onec.AsOfParam(asOf), "Организация": ref(l.Organizations[0].Ref, onec.TypeOrganization),
		"СчетКод": "", "СчетМаска": "%", "Номенклатура": ref(paper.Ref, onec.TypeItem)}, 0)
	want := c.stock(l.Organizations[0].Ref, "", asOfNext)
	if len(res.Stock) != 1 || res.Stock[0].Item.UUID != paper.Ref ||
		(stockFigures{res.Stock[0].Amount, res.Stock[0].Quantity}) != want[stockLine{"41.01", paper.Ref}] {
		t.Errorf("%s alone: %+v; the calculation %+v", paper.Name, res.Stock, want[stockLine{"41.01", paper.Ref}])
	}
}

// The stock is a real one: items in pieces whole, metres and kilograms to 0,1, tonnes to the
// kilogram; at the end of the data no item of the head is short (a negative quantity) or has a
// value without a quantity; the materials written off never exceed what was bought.
func TestRealisticStockIsConsistent(t *testing.T) {
	l, _ := realisticBase(t)
	c := newCalc(l)
	step := map[string]onec.Quantity{}
	for _, it := range l.Items {
		step[it.Ref] = map[string]onec.Quantity{"т": 1, "кг": 100, "м": 100, "л": 100, "м2": 100}[it.Unit]
		if step[it.Ref] == 0 {
			step[it.Ref] = 1000
		}
	}
	fractional := 0
	for _, m := range l.Movements {
		for _, side := range []struct {
			acc  string
			subs []onec.Subconto
			q    onec.Quantity
		}{{m.AccountDr, m.SubcontoDr, m.QuantityDr}, {m.AccountCr, m.SubcontoCr, m.QuantityCr}} {
			if side.acc != "41.01" && side.acc != "10.01" {
				if side.q != 0 {
					t.Errorf("a quantity on %s", side.acc)
				}
				continue
			}
			if len(side.subs) != 1 || side.subs[0].Kind != "Номенклатура" || step[side.subs[0].Ref] == 0 {
				t.Fatalf("a record of %s without an item of the catalog: %+v", side.acc, side.subs)
			}
			if side.q%step[side.subs[0].Ref] != 0 {
				t.Errorf("%s of %s: %s is not in its unit's step", side.acc, side.subs[0].Ref, side.q)
			}
			if side.q%onec.QuantityScale != 0 {
				fractional++
			}
		}
	}
	if fractional < 100 {
		t.Errorf("%d quantities with decimals: the base should carry 1C's Число(15, 3)", fractional)
	}
	var short []string
	for k, f := range c.stock(l.Organizations[0].Ref, "", asOfNext) {
		if f.qty < 0 || f.qty == 0 && f.sum != 0 || f.sum < 0 {
			short = append(short, fmt.Sprintf("%s %s: %s for %s", k.acc, k.item, f.qty, f.sum))
		}
	}
	slices.Sort(short)
	if len(short) > 0 {
		t.Errorf("items of the head short at %s:\n%s", asOf.Format(time.DateOnly), strings.Join(short, "\n"))
	}
}

func stockDiff(got, want map[stockLine]stockFigures) string {
	var out []string
	for k, w := range want {
		if got[k] != w {
			out = append(out, fmt.Sprintf("%v: got %s for %s, want %s for %s", k, got[k].qty, got[k].sum.Decimal(), w.qty, w.sum.Decimal()))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			out = append(out, fmt.Sprintf("%v: got %s for %s, not expected", k, g.qty, g.sum.Decimal()))
		}
	}
	slices.Sort(out)
	if len(out) > 5 {
		out = append(out[:5], fmt.Sprintf("… %d in all", len(out)))
	}
	return strings.Join(out, "\n")
}
