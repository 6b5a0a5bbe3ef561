package reconcile

// Our side of the tests' acts, computed from the demo ledger's raw data (integrations/onec's
// embedded demodata), independently of any 1C template: the settlement accounts' movements with
// the counterparty, by document.

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

type demoSubconto struct {
	Kind string `json:"kind"`
	Ref  string `json:"ref"`
}

type demoMovement struct {
	Period      string         `json:"period"`
	Recorder    string         `json:"recorder_ref"`
	Org         string         `json:"organization_ref"`
	AccountDr   string         `json:"account_dr"`
	AccountCr   string         `json:"account_cr"`
	SubcontoDr  []demoSubconto `json:"subconto_dr"`
	SubcontoCr  []demoSubconto `json:"subconto_cr"`
	Amount      json.Number    `json:"amount"`
	RecorderTyp string         `json:"recorder_type"`
}

type demoDoc struct {
	Ref    string `json:"ref"`
	Type   string `json:"type"`
	Number string `json:"number"`
}

type demoRef struct {
	Ref  string `json:"ref"`
	Name string `json:"name"`
	INN  string `json:"inn"`
	KPP  string `json:"kpp"`
}

func demoJSON[T any](t *testing.T, name string) []T {
	t.Helper()
	b, err := fs.ReadFile(onec.DemoFiles(), name)
	if err != nil {
		t.Fatal(err)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out []T
	if err := d.Decode(&out); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// demoKinds name the demo's documents as an act lists them.
var demoKinds = map[string]string{
	"РеализацияТоваровУслуг":     "Реализация (акт, накладная)",
	"ПоступлениеТоваровУслуг":    "Поступление (акт, накладная)",
	"ПоступлениеНаРасчетныйСчет": "Поступление на расчётный счёт",
	"СписаниеСРасчетногоСчета":   "Списание с расчётного счёта",
}

// demoAct is our act with the counterparty named party, for our organization of INN org, over
// [from, to]: the movements of accounts 60, 62 and 76 whose counterparty subconto is party — a
// debit increases their debt to us —, before from into the opening balance, within the period
// summed by document; a movement between two of these accounts of the same counterparty (an
// advance offset) moves nothing.
func demoAct(t *testing.T, org, party string, from, to time.Time) Act {
	t.Helper()
	var us, them demoRef
	for _, o := range demoJSON[demoRef](t, "organizations.json") {
		if o.INN == org {
			us = o
		}
	}
	for _, c := range demoJSON[demoRef](t, "counterparties.json") {
		if c.Name == party {
			them = c
		}
	}
	if us.Ref == "" || them.Ref == "" {
		t.Fatalf("demo: no organization %s or counterparty %s", org, party)
	}
	docs := map[string]demoDoc{}
	for _, d := range demoJSON[demoDoc](t, "documents.json") {
		docs[d.Ref] = d
	}
	settles := func(acc string, sub []demoSubconto) bool {
		root, _, _ := strings.Cut(acc, ".")
		if root != "60" && root != "62" && root != "76" {
			return false
		}
		return slices.ContainsFunc(sub, func(s demoSubconto) bool { return s.Kind == "Контрагенты" && s.Ref == them.Ref })
	}
	act := Act{Ours: Party{Name: us.Name, INN: us.INN, KPP: us.KPP}, Theirs: Party{Name: them.Name, INN: them.INN, KPP: them.KPP}, From: from, To: to}
	type key struct {
		day time.Time
		ref string
	}
	lines := map[key]*Line{}
	var order []key
	end := to.AddDate(0, 0, 1)
	for _, m := range demoJSON[demoMovement](t, "movements.json") {
		if m.Org != us.Ref {
			continue
		}
		dr, cr := settles(m.AccountDr, m.SubcontoDr), settles(m.AccountCr, m.SubcontoCr)
		if dr == cr {
			continue
		}
		at, err := time.ParseInLocation("2006-01-02T15:04:05", m.Period, time.UTC)
		if err != nil {
			t.Fatal(err)
		}
		d := mskDay(at.Year(), at.Month(), at.Day())
		k, err := onec.ParseKopecks(m.Amount.String())
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case d.Before(from):
			if dr {
				act.Opening += k
			} else {
				act.Opening -= k
			}
			continue
		case !d.Before(end):
			continue
		}
		kk := key{d, m.Recorder}
		l, ok := lines[kk]
		if !ok {
			doc := docs[m.Recorder]
			l = &Line{Date: d, Kind: demoKinds[doc.Type], Number: doc.Number}
			lines[kk] = l
			order = append(order, kk)
		}
		if dr {
			l.Debit += k
		} else {
			l.Credit += k
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
