package agent

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/big"
	"strings"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// demoMovement is one posting of the demo ledger's accounting register, as movements.json
// writes it: the tests below sum them themselves, not through any recipe.
type demoMovement struct {
	Period string      `json:"period"`
	Org    string      `json:"organization_ref"`
	Dr     string      `json:"account_dr"`
	Cr     string      `json:"account_cr"`
	Amount json.Number `json:"amount"`
	SubDr  []struct {
		Ref string `json:"ref"`
	} `json:"subconto_dr"`
	SubCr []struct {
		Ref string `json:"ref"`
	} `json:"subconto_cr"`
}

// demoMainOrg is ООО «Северный ветер», the demo's default organization.
const demoMainOrg = "34adc550-78a9-430a-b8d1-7baed6fe0d19"

// demoMovements reads the embedded demo ledger's postings.
func demoMovements(t *testing.T) []demoMovement {
	t.Helper()
	raw, err := fs.ReadFile(onec.DemoFiles(), "movements.json")
	if err != nil {
		t.Fatal(err)
	}
	var ms []demoMovement
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&ms); err != nil {
		t.Fatal(err)
	}
	return ms
}

// demoPostings sums what the main organization posted debit dr, credit cr (account prefixes;
// "" for any) from from to to, both inclusive («2026-03-01»), and counts the postings.
func demoPostings(t *testing.T, dr, cr, from, to string) (string, int) {
	t.Helper()
	sum, n := new(big.Rat), 0
	for _, m := range demoMovements(t) {
		if day := m.Period[:10]; m.Org != demoMainOrg || day < from || day > to || !strings.HasPrefix(m.Dr, dr) || !strings.HasPrefix(m.Cr, cr) {
			continue
		}
		a, ok := new(big.Rat).SetString(string(m.Amount))
		if !ok {
			t.Fatalf("amount %q", m.Amount)
		}
		sum.Add(sum, a)
		n++
	}
	return ru.Money(ru.Kopecks(sum)), n
}

// demoSum is demoPostings' sum alone.
func demoSum(t *testing.T, dr, cr, from, to string) string {
	s, _ := demoPostings(t, dr, cr, from, to)
	return s
}

// Sales and purchases of a period with no counterparty are the period's turnover — revenue
// (credit of 90.01), what suppliers delivered (credit of 60.01), sales by customer (debit of
// 62.01) — and the answer opens with it; the figures are summed here from the movements
// themselves.
func TestSalesAndPurchasesOfAPeriod(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 860, ChatID: 860}
	cases := []struct {
		q, rule, lead string
		want          string
	}{
		{"продажи за март", "turnover_of_period", "Выручка с НДС за 01.03.2026 – 31.03.2026: **", demoSum(t, "", "90.01", "2026-03-01", "2026-03-31")},
		{"на какую сумму продали в 1 квартале", "turnover_of_period", "Выручка с НДС за 01.01.2026 – 31.03.2026: **", demoSum(t, "", "90.01", "2026-01-01", "2026-03-31")},
		{"сколько закупили за 1 квартал", "purchases_of_period", "Поставлено поставщиками (с НДС) за 01.01.2026 – 31.03.2026: **", demoSum(t, "", "60.01", "2026-01-01", "2026-03-31")},
		{"реализации за март по контрагентам", "turnover_of_period", "Отгружено покупателям (с НДС) за 01.03.2026 – 31.03.2026: **", demoSum(t, "62.01", "", "2026-03-01", "2026-03-31")},
	}
	for _, c := range cases {
		got := ask(t, a, me, c.q)
		if got.Debug.Route.Rule != c.rule {
			t.Errorf("%q: rule %s/%s, want %s\n%s", c.q, got.Debug.Route.Kind, got.Debug.Route.Rule, c.rule, got.Text)
			continue
		}
		if first, _, _ := strings.Cut(got.Text, "\n"); !strings.HasPrefix(first, c.lead+c.want+"**") {
			t.Errorf("%q: first line %q, want it to open %q", c.q, first, c.lead+c.want)
		}
	}
	// the breakdown by customer: a table of who bought most, largest first
	got := ask(t, a, me, "реализации за март по контрагентам")
	if !strings.Contains(got.Text, "| Контрагент | Оборот Дт, ₽ |") {
		t.Errorf("no table of the turnover by customer:\n%s", got.Text)
	}
}

// «Сколько поступило с начала года», «платежи поставщикам за март»: the bank card's side asked
// — against the account named — opens the answer, summed here from the movements themselves.
func TestBankTurnoverAsked(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 920, ChatID: 920}
	in, nIn := demoPostings(t, "51", "", "2026-01-01", "2026-04-25")
	paid, nPaid := demoPostings(t, "60", "51", "2026-03-01", "2026-03-31")
	cases := []struct{ q, want string }{
		{"сколько поступило денег с начала года", "Поступило на счёт 51 за 01.01.2026 – 25.04.2026: **" + in + "** — " + fmt.Sprint(nIn) + " "},
		{"платежи поставщикам за март", "Перечислено поставщикам (сч. 51 — 60) за 01.03.2026 – 31.03.2026: **" + paid + "** — " + fmt.Sprint(nPaid) + " "},
	}
	for _, c := range cases {
		got := ask(t, a, me, c.q)
		if !strings.HasPrefix(nbspToSpace(got.Text), nbspToSpace(c.want)) {
			t.Errorf("%q:\n%s\nwant it to open %q", c.q, got.Text, c.want)
		}
	}
}

// «Когда вектор последний раз платил», «когда мы последний раз платили промпоставке»: the latest
// receipt from the company or payment to it opens the answer — found here in the movements
// themselves (the debit or credit of 51 against the company's subconto).
func TestLastPayment(t *testing.T) {
	ms := demoMovements(t)
	craw, _ := fs.ReadFile(onec.DemoFiles(), "counterparties.json")
	var cps []struct{ Ref, Name string }
	if err := json.Unmarshal(craw, &cps); err != nil {
		t.Fatal(err)
	}
	refOf := func(name string) string {
		for _, c := range cps {
			if c.Name == name {
				return c.Ref
			}
		}
		t.Fatalf("no %s", name)
		return ""
	}
	latest := func(name string, in bool) (string, string) {
		ref, day, amount := refOf(name), "", ""
		for _, m := range ms {
			subs, acc := m.SubCr, m.Dr // received: Дт 51, the company on the credit side
			if !in {
				subs, acc = m.SubDr, m.Cr
			}
			if m.Org != demoMainOrg || !strings.HasPrefix(acc, "51") || m.Period <= day {
				continue
			}
			for _, s := range subs {
				if s.Ref == ref {
					day, amount = m.Period, string(m.Amount)
				}
			}
		}
		a, _ := new(big.Rat).SetString(amount)
		return day[8:10] + "." + day[5:7] + "." + day[0:4], ru.Money(ru.Kopecks(a))
	}
	a := demoAgent(t, answersNow, "")
	me := Request{UserID: 940, ChatID: 940}
	for _, c := range []struct {
		q, name, lead string
		in            bool
	}{
		{"когда вектор последний раз платил", "АО «Вектор»", "Последний платёж от АО «Вектор»: **", true},
		{"когда мы последний раз платили промпоставке", "ООО «ПромПоставка»", "Последний платёж ООО «ПромПоставка» от нас: **", false},
	} {
		day, amount := latest(c.name, c.in)
		got := ask(t, a, me, c.q)
		if want := c.lead + amount + "** — " + day; !strings.HasPrefix(nbspToSpace(got.Text), nbspToSpace(want)) {
			t.Errorf("%q:\n%s\nwant it to open %q", c.q, got.Text, want)
		}
	}
}
