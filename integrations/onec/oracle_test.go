package onec_test

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// The oracle computes every figure straight from shared/demo-ledger/README.md by looping over
// the ledger's movements and documents. It shares no code with the engine: no indexes, no
// ПОДОБНО, no Остатки boundary; just "period on or before the end of day D" and "an account
// code matches itself and its sub-accounts".

type oracle struct {
	l      *onec.Ledger
	posted map[string]bool
	docs   map[string]onec.Document
	chart  map[string]onec.Account
	sides  [][2]side // per movement, computed once
}

var (
	ledgerOnce sync.Once
	ledger     *onec.Ledger
	demo       *onec.Demo
	ledgerErr  error
)

// fixture loads the embedded ledger and its Demo once for all tests.
func fixture(t testing.TB) (*onec.Ledger, *onec.Demo, *oracle) {
	t.Helper()
	ledgerOnce.Do(func() {
		ledger, ledgerErr = onec.LoadDemo()
		if ledgerErr == nil {
			demo = onec.NewDemo(ledger)
		}
	})
	if ledgerErr != nil {
		t.Fatal(ledgerErr)
	}
	o := &oracle{l: ledger, posted: map[string]bool{}, docs: map[string]onec.Document{}, chart: map[string]onec.Account{}}
	for _, d := range ledger.Documents {
		o.posted[d.Ref] = d.Posted
		o.docs[d.Ref] = d
	}
	for _, a := range ledger.Accounts {
		o.chart[a.Code] = a
	}
	for _, m := range ledger.Movements {
		o.sides = append(o.sides, sides(m))
	}
	return ledger, demo, o
}

// accountMatches: "62 matches 62, 62.01, 62.02; 62.01 matches 62.01 only (and 62.01.x)".
func accountMatches(code, token string) bool {
	return code == token || strings.HasPrefix(code, token+".")
}

// onOrBefore: "period on or before the end of day D".
func onOrBefore(t, day time.Time) bool {
	end := time.Date(day.Year(), day.Month(), day.Day(), 23, 59, 59, 0, time.UTC)
	return !t.After(end)
}

func subconto(subs []onec.Subconto, kind string) string {
	for _, s := range subs {
		if s.Kind == kind {
			return s.Ref
		}
	}
	return ""
}

// side is one side of a movement.
type side struct {
	acc          string
	cp, ctr, doc string
	sign         onec.Kopecks // +1 debit, -1 credit
}

func sides(m onec.Movement) [2]side {
	return [2]side{
		{m.AccountDr, subconto(m.SubcontoDr, "Контрагенты"), subconto(m.SubcontoDr, "ДоговорыКонтрагентов"), subconto(m.SubcontoDr, "ДокументыРасчетовСКонтрагентами"), 1},
		{m.AccountCr, subconto(m.SubcontoCr, "Контрагенты"), subconto(m.SubcontoCr, "ДоговорыКонтрагентов"), subconto(m.SubcontoCr, "ДокументыРасчетовСКонтрагентами"), -1},
	}
}

// counts says whether a movement belongs to org's balance at D: a posted document's, on or
// before D.
func (o *oracle) counts(m onec.Movement, org string, day time.Time) bool {
	posted, known := o.posted[m.RecorderRef]
	return (posted || !known) && m.OrganizationRef == org && onOrBefore(m.Period.Time, day)
}

// settlement is one analytics combination of an account.
type settlement struct{ Acc, Org, Cp, Ctr, Doc string }

// split places a net balance in the Дт or Кт column by the account's type in the raw chart, as
// the platform does: active always Дт (a red balance negative), passive always Кт, active-passive
// (and an account the chart lacks) by sign. A zero net is no row.
func (o *oracle) split(acc string, net onec.Kopecks) (turnover, bool) {
	switch {
	case net == 0:
		return turnover{}, false
	case o.chart[acc].Type == "active":
		return turnover{Dt: net}, true
	case o.chart[acc].Type == "passive":
		return turnover{Kt: -net}, true
	case net > 0:
		return turnover{Dt: net}, true
	}
	return turnover{Kt: -net}, true
}

// balanceSums: net (debit − credit) per account and analytics, for accounts matching token.
func (o *oracle) balanceSums(org string, day time.Time, token string) map[settlement]onec.Kopecks {
	out := map[settlement]onec.Kopecks{}
	for i, m := range o.l.Movements {
		if !o.counts(m, org, day) {
			continue
		}
		for _, s := range o.sides[i] {
			if accountMatches(s.acc, token) {
				out[settlement{s.acc, org, s.cp, s.ctr, s.doc}] += s.sign * m.Amount
			}
		}
	}
	return out
}

// counterpartySaldo is the README's "counterparty saldo" at D on the account token.
func (o *oracle) counterpartySaldo(org string, day time.Time, token string) (saldo map[string]onec.Kopecks, docSaldo map[[2]string]onec.Kopecks) {
	saldo, docSaldo = map[string]onec.Kopecks{}, map[[2]string]onec.Kopecks{}
	for i, m := range o.l.Movements {
		if !o.counts(m, org, day) {
			continue
		}
		for _, s := range o.sides[i] {
			if accountMatches(s.acc, token) && s.cp != "" {
				saldo[s.cp] += s.sign * m.Amount
				if s.doc != "" {
					docSaldo[[2]string{s.cp, s.doc}] += s.sign * m.Amount
				}
			}
		}
	}
	return saldo, docSaldo
}

// turnover is debit and credit turnover of one settlement.
type turnover struct{ Dt, Kt onec.Kopecks }

// snap is one row of the balance snapshot: its Дт and Кт and its open settlement documents.
type snap struct {
	Dt, Kt onec.Kopecks
	Docs   int
}

// snapshot is the account's balance as the snapshot template sums it in 1C, computed from the
// records: a counterparty's lines are one row under the account asked (token), its net per
// sub-account and contract put in Дт when positive and in Кт when negative and added up (BP's
// expanded balance), with the number of its settlement documents (under a contract) whose net
// over the accounts is not zero; lines without a counterparty are one row per sub-account, each
// document's (or line's) balance placed in Дт or Кт by the account's type and added up column
// by column, as СУММА over Остатки does.
func (o *oracle) snapshot(org string, day time.Time, token string) map[settlement]snap {
	out := map[settlement]snap{}
	cells := map[[3]string]onec.Kopecks{} // sub-account, counterparty, contract
	docs := map[[2]string]onec.Kopecks{}  // counterparty, document
	for k, net := range o.balanceSums(org, day, token) {
		if k.Cp == "" {
			v, ok := o.split(k.Acc, net)
			if !ok {
				continue
			}
			key := settlement{Acc: k.Acc, Org: org}
			r := out[key]
			r.Dt += v.Dt
			r.Kt += v.Kt
			out[key] = r
			continue
		}
		cells[[3]string{k.Acc, k.Cp, k.Ctr}] += net
		if k.Ctr != "" && k.Doc != "" {
			docs[[2]string{k.Cp, k.Doc}] += net
		}
	}
	for c, net := range cells {
		key := settlement{Acc: token, Org: org, Cp: c[1]}
		r := out[key]
		if net > 0 {
			r.Dt += net
		} else {
			r.Kt -= net
		}
		out[key] = r
	}
	for d, net := range docs {
		key := settlement{Acc: token, Org: org, Cp: d[0]}
		if r, ok := out[key]; ok && net != 0 {
			r.Docs++
			out[key] = r
		}
	}
	maps.DeleteFunc(out, func(k settlement, r snap) bool { return k.Cp != "" && r == snap{} })
	return out
}

// turnovers per account and analytics of the sides that keep(side) accepts.
func (o *oracle) turnovers(org string, day time.Time, keep func(s side) bool, perContract bool) map[settlement]turnover {
	out := map[settlement]turnover{}
	for i, m := range o.l.Movements {
		if !o.counts(m, org, day) {
			continue
		}
		for _, s := range o.sides[i] {
			if !keep(s) {
				continue
			}
			k := settlement{s.acc, org, s.cp, s.ctr, s.doc}
			if perContract {
				k.Doc = ""
			}
			t := out[k]
			if s.sign > 0 {
				t.Dt += m.Amount
			} else {
				t.Kt += m.Amount
			}
			out[k] = t
		}
	}
	return out
}

// balances are the oracle's Остатки: per settlement (account and analytics) of the kept sides
// the net before the day, zero ones left out, each placed in Дт or Кт by the account's type
// (split); with perContract the documents' rows are summed per contract column by column, as
// СУММА over the virtual table's Дт and Кт does.
func (o *oracle) balances(org string, day time.Time, keep func(s side) bool, perContract bool) map[settlement]turnover {
	out := map[settlement]turnover{}
	for k, v := range o.turnovers(org, day, keep, false) {
		b, ok := o.split(k.Acc, v.Dt-v.Kt)
		if !ok {
			continue
		}
		if perContract {
			k.Doc = ""
		}
		t := out[k]
		t.Dt += b.Dt
		t.Kt += b.Kt
		out[k] = t
	}
	return out
}

// --- reading result rows ---

// toolkitNumber is a number as the toolkit writes it: Формат(Ч, "ЧРД=.; ЧН=; ЧГ="), a point and
// no trailing zeros ("1000.5", "100", "0").
var toolkitNumber = regexp.MustCompile(`^-?(0|[1-9]\d*)(\.\d?[1-9])?$`)

// money reads an amount, insisting on a json.Number in the toolkit's form.
func money(t testing.TB, v any) onec.Kopecks {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok || !toolkitNumber.MatchString(n.String()) {
		t.Fatalf("amount %#v is not a json.Number in the toolkit's form", v)
	}
	k, err := onec.AmountOf(n)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// uuidOf reads a reference column ("" for an empty reference, JSON null, and for the query's
// NULL, the toolkit's ""), checking its type.
func uuidOf(t testing.TB, v any, wantType string) string {
	t.Helper()
	if v == nil || v == onec.WireNull {
		return ""
	}
	r, ok := onec.RefOf(v)
	if !ok || r.Presentation == "" {
		t.Fatalf("value %#v is not a reference with a presentation", v)
	}
	if wantType != "" && r.Type != wantType && !(wantType == onec.TypeDocumentPrefix && strings.HasPrefix(r.Type, wantType)) {
		t.Fatalf("reference %#v has type %q, want %q", v, r.Type, wantType)
	}
	return r.UUID
}

func settlementOf(t testing.TB, row map[string]any) settlement {
	t.Helper()
	return settlement{
		Acc: row["Счет"].(string),
		Org: uuidOf(t, row["Организация"], onec.TypeOrganization),
		Cp:  uuidOf(t, row["Контрагент"], onec.TypeCounterparty),
		Ctr: uuidOf(t, row["Договор"], onec.TypeContract),
		Doc: uuidOf(t, row["ДокументРасчетов"], onec.TypeDocumentPrefix),
	}
}

// sortedKeys sorts a list of expected keys.
func sortedKeys(keys []string) []string { return slices.Sorted(slices.Values(keys)) }

// rowKeys lists a row's keys, sorted.
func rowKeys(row map[string]any) []string {
	keys := make([]string, 0, len(row))
	for k := range row {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
