package reconcile

// Our side of the tests' acts, computed from a demo ledger's raw data (the default base embedded
// in integrations/onec, the realistic one ledgergen draws), independently of any 1C template:
// the settlement accounts' movements with the counterparty, by document.

import (
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// defaultLedger is the default demo base, read from the embedded files.
func defaultLedger(t *testing.T) *onec.Ledger {
	t.Helper()
	l := &onec.Ledger{}
	for name, into := range map[string]any{"organizations.json": &l.Organizations, "counterparties.json": &l.Counterparties,
		"documents.json": &l.Documents, "movements.json": &l.Movements, "contracts.json": &l.Contracts} {
		b, err := fs.ReadFile(onec.DemoFiles(), name)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, into); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return l
}

// demoKinds name the demo's documents as an act lists them.
var demoKinds = map[string]string{
	"РеализацияТоваровУслуг":     "Реализация (акт, накладная)",
	"ПоступлениеТоваровУслуг":    "Поступление (акт, накладная)",
	"ПоступлениеНаРасчетныйСчет": "Поступление на расчётный счёт",
	"СписаниеСРасчетногоСчета":   "Списание с расчётного счёта",
}

// demoAct is our act with the counterparty named party, for our organization of INN org, over
// [from, to], in the default demo base.
func demoAct(t *testing.T, org, party string, from, to time.Time) Act {
	t.Helper()
	return actFrom(t, defaultLedger(t), org, party, from, to)
}

// settlementAccount reports whether an act counts the account: 60, 62, 76 and their
// sub-accounts, without the VAT on advances (76.АВ, 76.ВА) and 76.НА, which are no settlements.
func settlementAccount(acc string) bool {
	root, sub, _ := strings.Cut(acc, ".")
	if root != "60" && root != "62" && root != "76" {
		return false
	}
	return sub != "АВ" && sub != "ВА" && sub != "НА"
}

// actFrom is our act with the counterparty named party (or of that INN), for our organization of
// INN org (the head, not a division), over [from, to]: the settlement accounts' movements whose
// counterparty is party — a debit increases their debt to us —, before from into the opening
// balance, within the period summed by document; a movement between two of these accounts of
// the same counterparty (an advance offset) moves nothing.
func actFrom(t *testing.T, l *onec.Ledger, org, party string, from, to time.Time) Act {
	t.Helper()
	var us onec.Organization
	for _, o := range l.Organizations {
		if o.INN == org && o.HeadRef == "" {
			us = o
		}
	}
	var them onec.Counterparty
	for _, c := range l.Counterparties {
		if c.Name == party || c.INN == party {
			them = c
			break
		}
	}
	if us.Ref == "" || them.Ref == "" {
		t.Fatalf("demo: no organization %s or counterparty %s", org, party)
	}
	docs := map[string]onec.Document{}
	for _, d := range l.Documents {
		docs[d.Ref] = d
	}
	settles := func(acc string, sub []onec.Subconto) bool {
		return settlementAccount(acc) && slices.ContainsFunc(sub, func(s onec.Subconto) bool { return s.Kind == "Контрагенты" && s.Ref == them.Ref })
	}
	act := Act{Ours: Party{Name: us.Name, INN: us.INN, KPP: us.KPP}, Theirs: Party{Name: them.Name, INN: them.INN, KPP: them.KPP}, From: from, To: to}
	type key struct {
		day time.Time
		ref string
	}
	lines := map[key]*Line{}
	var order []key
	end := to.AddDate(0, 0, 1)
	for _, m := range l.Movements {
		if m.OrganizationRef != us.Ref {
			continue
		}
		dr, cr := settles(m.AccountDr, m.SubcontoDr), settles(m.AccountCr, m.SubcontoCr)
		if dr == cr {
			continue
		}
		d := mskDay(m.Period.Year(), m.Period.Month(), m.Period.Day())
		switch {
		case d.Before(from):
			if dr {
				act.Opening += m.Amount
			} else {
				act.Opening -= m.Amount
			}
			continue
		case !d.Before(end):
			continue
		}
		k := key{d, m.RecorderRef}
		ln, ok := lines[k]
		if !ok {
			doc := docs[m.RecorderRef]
			ln = &Line{Date: d, Kind: cmpOr(demoKinds[doc.Type], doc.Type), Number: doc.Number}
			lines[k] = ln
			order = append(order, k)
		}
		if dr {
			ln.Debit += m.Amount
		} else {
			ln.Credit += m.Amount
		}
	}
	slices.SortStableFunc(order, func(a, b key) int { return a.day.Compare(b.day) })
	for _, k := range order {
		act.Lines = append(act.Lines, *lines[k])
	}
	d, c := act.Turnovers()
	act.Closing = act.Opening + d - c
	return act
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
