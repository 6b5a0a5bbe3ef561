package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
	"github.com/finbot/finbot/ru"
)

// The counterparty card and the offset candidates against a calculation written here, from the
// definitions of BP 3.0 the docs state (docs/onec.md, «Карточка контрагента», «Взаимозачёт»),
// with plain loops over the ledger's raw records and documents: no template, no query
// language, no code of the lane.
//
//   - A settlement line is one account (60, 62, 76 and their sub-accounts), contract and
//     currency of the counterparty; its balance at the end of the day is the sum of its debits
//     less its credits over the organization's records (and its обособленные подразделения's).
//   - A debit line of 62 or 76 is their debt to us, of 60 our advance (or overpayment); a
//     credit line of 60 or 76 is our debt, of 62 their advance (or overpayment).
//   - An offset pairs a debt to us on one contract (62, 76, no advance sub-account, roubles) with
//     ours on another (60, 76, the same): the pair nets the smaller; the counterparty nets the
//     smaller of its sides' totals.
//   - The card's aging: a settlement document's debit balance on 62 (credit on 60) is due on the
//     document's date plus the contract's term (its own when set, else the default); overdue
//     past it, in intervals of 30, 60, 90 days.
//   - Payments are the posted bank receipts and payments of the counterparty up to the day,
//     newest first; documents every document of it up to the day that is not deletion-marked.

// calcLine is a settlement line of the calculation.
type calcLine struct{ account, contract, currency string }

// cardCalc is the calculation's view of one base.
type cardCalc struct {
	l        *onec.Ledger
	heads    map[string]string // an обособленное подразделение → its head
	docs     map[string]onec.Document
	contract map[string]onec.Contract
}

func newCardCalc(l *onec.Ledger) *cardCalc {
	c := &cardCalc{l: l, heads: map[string]string{}, docs: map[string]onec.Document{}, contract: map[string]onec.Contract{}}
	for _, o := range l.Organizations {
		if o.HeadRef != "" {
			c.heads[o.Ref] = o.HeadRef
		}
	}
	for _, d := range l.Documents {
		c.docs[d.Ref] = d
	}
	for _, k := range l.Contracts {
		c.contract[k.Ref] = k
	}
	return c
}

func (c *cardCalc) in(org, asked string) bool { return org == asked || c.heads[org] == asked }

func under(code, token string) bool { return code == token || strings.HasPrefix(code, token+".") }

// side reads a record's side: its counterparty, contract, settlement document.
func side(subs []onec.Subconto) (party, contract, doc string) {
	for _, s := range subs {
		switch s.Kind {
		case "Контрагенты":
			party = s.Ref
		case "ДоговорыКонтрагентов":
			contract = s.Ref
		case "ДокументыРасчетовСКонтрагентами":
			doc = s.Ref
		}
	}
	return party, contract, doc
}

// lines are the settlement lines of org at the end of day (party "" for every counterparty),
// per counterparty; byDoc the same per settlement document too.
func (c *cardCalc) lines(org string, day time.Time, party string) (map[string]map[calcLine]onec.Kopecks, map[[4]string]onec.Kopecks) {
	last := day.Format(time.DateOnly) // the records of the day count: 1C's local times, compared as dates
	out := map[string]map[calcLine]onec.Kopecks{}
	byDoc := map[[4]string]onec.Kopecks{}
	for _, m := range c.l.Movements {
		if !c.in(m.OrganizationRef, org) || m.Period.Format(time.DateOnly) > last {
			continue
		}
		for i, acc := range []string{m.AccountDr, m.AccountCr} {
			if !under(acc, "60") && !under(acc, "62") && !under(acc, "76") {
				continue
			}
			subs, cur, sign := m.SubcontoDr, m.CurrencyDr, onec.Kopecks(1)
			if i == 1 {
				subs, cur, sign = m.SubcontoCr, m.CurrencyCr, -1
			}
			p, k, doc := side(subs)
			if p == "" || k == "" || party != "" && p != party {
				continue
			}
			if out[p] == nil {
				out[p] = map[calcLine]onec.Kopecks{}
			}
			out[p][calcLine{acc, k, cur}] += sign * m.Amount
			byDoc[[4]string{p, acc, k, doc}] += sign * m.Amount
		}
	}
	return out, byDoc
}

// calcCard is the calculation's card of one counterparty.
type calcCard struct {
	theyOwe, advanced, weOwe, prepaid, net onec.Kopecks
	lines                                  map[[2]string]onec.Kopecks // (account, contract) → net
	recv, pay                              []onec.Kopecks             // debt, then the intervals: not due, 1–30, 31–60, 61–90, over 90
	in, out, documents                     []string                   // «type number date amount», newest first
	inCount, outCount, docCount            int
	undated                                int // debt lines without a settlement document, not aged here
}

func (c *cardCalc) card(org, party string, day time.Time, defaultDays int) calcCard {
	per, byDoc := c.lines(org, day, party)
	cc := calcCard{lines: map[[2]string]onec.Kopecks{}}
	for l, v := range per[party] {
		if v == 0 {
			continue
		}
		cc.lines[[2]string{l.account, l.contract}] += v
		cc.net += v
		switch {
		case v > 0 && under(l.account, "60"):
			cc.advanced += v
		case v > 0:
			cc.theyOwe += v
		case under(l.account, "62"):
			cc.prepaid -= v
		default:
			cc.weOwe -= v
		}
	}
	// the aging of each side, per settlement document
	bounds := []int{30, 60, 90}
	interval := func(days int) int {
		if days <= 0 {
			return 0
		}
		for i, b := range bounds {
			if days <= b {
				return i + 1
			}
		}
		return len(bounds) + 1
	}
	cc.recv, cc.pay = make([]onec.Kopecks, 6), make([]onec.Kopecks, 6)
	for k, v := range byDoc {
		acc, contract, doc := k[1], k[2], k[3]
		var sideOf []onec.Kopecks
		switch {
		case under(acc, "62") && v > 0:
			sideOf = cc.recv
		case under(acc, "60") && v < 0:
			sideOf, v = cc.pay, -v
		default:
			continue
		}
		d, ok := c.docs[doc]
		if !ok {
			cc.undated++ // no settlement document: aged by its increases (ledgergen's calculation), not here
			continue
		}
		term := defaultDays
		if kk := c.contract[contract]; kk.PaymentTermSet {
			term = kk.PaymentTermDays
		}
		y, mo, dd := d.Date.Date()
		due := time.Date(y, mo, dd, 0, 0, 0, 0, ru.Moscow).AddDate(0, 0, term)
		days := int(day.Sub(due).Hours()/24 + 0.5)
		sideOf[0] += v
		sideOf[1+interval(days)] += v
	}
	// payments and documents
	type docAt struct {
		day, number, ref, text string
		typ                    string
		posted                 bool
	}
	var all []docAt
	for _, d := range c.l.Documents {
		if d.CounterpartyRef != party || !c.in(d.OrganizationRef, org) || d.DeletionMark || d.Date.Format(time.DateOnly) > day.Format(time.DateOnly) {
			continue
		}
		typ := d.Type
		if typ == "ВводОстатков" {
			typ = "ВводНачальныхОстатков" // BP's type of the demo's opening balances
		}
		all = append(all, docAt{day: d.Date.Format(time.DateOnly), number: d.Number, ref: d.Ref, typ: typ, posted: d.Posted,
			text: fmt.Sprintf("%s %s %s %s", typ, d.Number, d.Date.Format(time.DateOnly), d.Amount)})
	}
	slices.SortFunc(all, func(x, y docAt) int {
		return cmp.Or(cmp.Compare(y.day, x.day), cmp.Compare(y.number, x.number), cmp.Compare(x.ref, y.ref))
	})
	for _, d := range all {
		cc.docCount++
		if len(cc.documents) < CardDocuments {
			cc.documents = append(cc.documents, d.text)
		}
		if !d.posted {
			continue
		}
		switch d.typ {
		case "ПоступлениеНаРасчетныйСчет":
			cc.inCount++
			if len(cc.in) < CardPayments {
				cc.in = append(cc.in, d.text)
			}
		case "СписаниеСРасчетногоСчета":
			cc.outCount++
			if len(cc.out) < CardPayments {
				cc.out = append(cc.out, d.text)
			}
		}
	}
	return cc
}

// rowText is a card row as the calculation writes it.
func rowText(x Row) string { return fmt.Sprintf("%s %s %s %s", x.Type, x.Number, x.Date, x.Amount) }

// checkCard compares the lane's card of party with the calculation's.
func checkCard(t *testing.T, lane *Lane, c *cardCalc, org, party, day string) {
	t.Helper()
	res := lane.Run(context.Background(), ask(recipe.CounterpartyCard, recipe.Filters{Counterparty: party, AsOfDate: day, Organization: org}))
	asOf, _ := time.ParseInLocation(time.DateOnly, day, ru.Moscow)
	want := c.card(org, party, asOf, 0)
	if res.ResultMode == Limited {
		if want.net != 0 || want.docCount != 0 {
			t.Fatalf("%s %q; the calculation has figures", res.LimitedReason, res.Message)
		}
		return
	}
	pc := res.PartyCard
	got := calcCard{theyOwe: pc.TheyOwe, advanced: pc.Advanced, weOwe: pc.WeOwe, prepaid: pc.Prepaid, net: pc.Net,
		lines: map[[2]string]onec.Kopecks{}, recv: make([]onec.Kopecks, 6), pay: make([]onec.Kopecks, 6),
		inCount: pc.InCount, outCount: pc.OutCount, docCount: pc.DocCount}
	for _, x := range res.All {
		got.lines[[2]string{x.Account, x.DealID}] += x.Amount
	}
	for _, s := range []struct {
		a   *CardAging
		dst []onec.Kopecks
	}{{pc.Receivable, got.recv}, {pc.Payable, got.pay}} {
		if s.a != nil {
			s.dst[0] = s.a.Debt
			copy(s.dst[1:], s.a.Totals)
		}
	}
	for _, x := range pc.In {
		got.in = append(got.in, rowText(x))
	}
	for _, x := range pc.Out {
		got.out = append(got.out, rowText(x))
	}
	for _, x := range pc.Documents {
		got.documents = append(got.documents, rowText(x))
	}
	if diff := gocmp.Diff(want, got, gocmp.AllowUnexported(calcCard{})); diff != "" {
		t.Errorf("card of %s on %s (-calculation +lane):\n%s", party, day, diff)
	}
	if sum := pc.TheyOwe + pc.Advanced - pc.WeOwe - pc.Prepaid; sum != pc.Net {
		t.Errorf("the sides %s do not make the net %s", sum, pc.Net)
	}
}

// TestPartyCardAgainstCalculation: the card of every counterparty of the default base on three
// days, against the calculation.
func TestPartyCardAgainstCalculation(t *testing.T) {
	d, l := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	c := newCardCalc(l)
	for _, org := range l.Organizations {
		for _, day := range []string{"2025-03-31", "2025-12-31", "2026-03-31"} {
			for _, p := range l.Counterparties {
				if p.DeletionMark {
					continue
				}
				t.Run(fmt.Sprintf("%s %s %s", org.Name, p.Name, day), func(t *testing.T) {
					checkCard(t, lane, c, org.Ref, p.Ref, day)
				})
			}
		}
	}
}

// calcOffsets is the calculation's offsets: per counterparty its sides, what it nets, its
// advances and currency lines, and its pairs «receivable contract → payable contract: netted».
type calcOffsets map[string]calcOffset

type calcOffset struct {
	recv, pay, netted, advanced, prepaid onec.Kopecks
	currency                             int
	pairs                                map[[2]string]onec.Kopecks
}

var advanceCodes = []string{"60.02", "60.22", "60.32", "62.02", "62.22", "62.32"}

func (c *cardCalc) offsets(org string, day time.Time, party string) calcOffsets {
	per, _ := c.lines(org, day, party)
	out := calcOffsets{}
	for p, lines := range per {
		o := calcOffset{pairs: map[[2]string]onec.Kopecks{}}
		recv, pay := map[string]onec.Kopecks{}, map[string]onec.Kopecks{}
		for l, v := range lines {
			switch {
			case v == 0:
			case l.currency != "":
				o.currency++
			case slices.Contains(advanceCodes, l.account) && v > 0, v > 0 && under(l.account, "60"):
				o.advanced += v
			case slices.Contains(advanceCodes, l.account), v < 0 && under(l.account, "62"):
				o.prepaid -= v
			case v > 0:
				recv[l.contract] += v
			default:
				pay[l.contract] -= v
			}
		}
		if len(recv) == 0 || len(pay) == 0 {
			continue
		}
		for r, a := range recv {
			o.recv += a
			for q, b := range pay {
				o.pairs[[2]string{r, q}] = min(a, b)
			}
		}
		for _, b := range pay {
			o.pay += b
		}
		o.netted = min(o.recv, o.pay)
		out[p] = o
	}
	return out
}

// laneOffsets reads the lane's offsets in the calculation's form.
func laneOffsets(t *testing.T, res Result) calcOffsets {
	t.Helper()
	out := calcOffsets{}
	if res.ResultMode == Limited {
		if res.LimitedReason != ReasonEmptyMatch {
			t.Fatalf("%s %q", res.LimitedReason, res.Message)
		}
		return out
	}
	for _, p := range res.Offsets.Parties {
		out[p.Ref] = calcOffset{recv: p.Receivable, pay: p.Payable, netted: p.Netted, advanced: p.Advanced, prepaid: p.Prepaid,
			currency: p.Currency, pairs: map[[2]string]onec.Kopecks{}}
	}
	var total onec.Kopecks
	for _, x := range res.All {
		out[x.PartyID].pairs[[2]string{x.Offset.Receivable.Ref, x.Offset.Payable.Ref}] = x.Offset.Netted
	}
	for _, p := range res.Offsets.Parties {
		total += p.Netted
	}
	if total != res.Offsets.Total || res.Summary.TotalAmount != total {
		t.Errorf("total %s, summary %s; the counterparties net %s", res.Offsets.Total, res.Summary.TotalAmount, total)
	}
	return out
}

// TestOffsetsAgainstCalculation: the offset candidates of both organizations of the default
// base on every month's end and on 31.03.2026 (ООО «Универсал» is both our customer and our
// supplier from February 2025), and of one counterparty, against the calculation.
func TestOffsetsAgainstCalculation(t *testing.T) {
	d, l := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	c := newCardCalc(l)
	found := 0
	for _, org := range l.Organizations {
		for day := time.Date(2025, 1, 31, 0, 0, 0, 0, ru.Moscow); !day.After(time.Date(2026, 4, 30, 0, 0, 0, 0, ru.Moscow)); day = time.Date(day.Year(), day.Month()+2, 0, 0, 0, 0, 0, ru.Moscow) {
			t.Run(org.Name+" "+day.Format(time.DateOnly), func(t *testing.T) {
				res := lane.Run(context.Background(), ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: day.Format(time.DateOnly), Organization: org.Ref}))
				want := c.offsets(org.Ref, day, "")
				if diff := gocmp.Diff(want, laneOffsets(t, res), gocmp.AllowUnexported(calcOffset{})); diff != "" {
					t.Errorf("(-calculation +lane):\n%s", diff)
				}
				found += len(want)
			})
		}
	}
	if found == 0 {
		t.Fatal("no day with a counterparty on both sides: the test proves nothing")
	}
	// One counterparty: ООО «Универсал» on both sides, ООО «Альфа» on one only.
	universal, alfa := partyRef(t, l, "ООО «Универсал»"), partyRef(t, l, "ООО «Альфа»")
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)
	main := l.DefaultOrganization().Ref
	for _, p := range []string{universal, alfa} {
		res := lane.Run(context.Background(), ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: p}))
		if diff := gocmp.Diff(c.offsets(main, day, p), laneOffsets(t, res), gocmp.AllowUnexported(calcOffset{})); diff != "" {
			t.Errorf("%s (-calculation +lane):\n%s", p, diff)
		}
	}
}

func partyRef(t *testing.T, l *onec.Ledger, name string) string {
	t.Helper()
	for _, p := range l.Counterparties {
		if p.Name == name {
			return p.Ref
		}
	}
	t.Fatalf("no counterparty %s", name)
	return ""
}

// TestOffsetsAnswer: what the answer says on the day ООО «Универсал» is on both sides, and on a
// day nobody is — with the figures of the calculation (TestOffsetsAgainstCalculation).
func TestOffsetsAnswer(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	res := lane.Run(context.Background(), ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: "2026-03-31"}))
	md := strings.ReplaceAll(strings.ReplaceAll(res.Markdown(), `\`, ""), "\u00a0", " ")
	for _, want := range []string{"На 31.03.2026 встречные долги есть у 1 контрагента: зачесть можно до **1 330 424,57 ₽**.",
		"Универсал: У-82/2024 ↔ П-44/2024 | 1 330 424,57", "должен нам 2 131 029,84 ₽, мы ему 1 330 424,57 ₽",
		"выданный аванс 63 389,76 ₽, полученный аванс 100 522,91 ₽", "по соглашению обеих сторон"} {
		if !strings.Contains(md, want) {
			t.Errorf("the answer lacks %q:\n%s", want, md)
		}
	}
	none := lane.Run(context.Background(), ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: "2025-01-31"}))
	if none.LimitedReason != ReasonEmptyMatch || !strings.Contains(none.Message, "встречных долгов нет") {
		t.Errorf("%s %q; want «встречных долгов нет»", none.LimitedReason, none.Message)
	}
	data, err := res.XLSX()
	if err != nil || len(data) == 0 {
		t.Fatalf("export: %v", err)
	}
	if got := res.ExportName(); got != "Взаимозачёт на 31.03.2026.xlsx" {
		t.Errorf("export name %q", got)
	}
	drills := res.Drills()
	if len(drills) != 1 || strings.ReplaceAll(drills[0].Text, "\u00a0", " ") != "Универсал 1,3 млн" {
		t.Fatalf("drills %+v", drills)
	}
	card, err := lane.Drill(context.Background(), drills[0].Data)
	if err != nil || card.PartyCard == nil || card.Party != "ООО «Универсал»" || !card.AsOf.Equal(time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)) {
		t.Errorf("the drill opens %s %q on %s (%v)", card.Intent, card.Party, card.AsOf, err)
	}
}

// TestPartyCardAnswer: the card's text cites each part, says both sides, the overdue by
// interval, the open contracts' terms, the latest payments and documents; its drills open each
// side's aging of the counterparty; the export has a sheet per part.
func TestPartyCardAnswer(t *testing.T) {
	d, _ := demo(t)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	res := lane.Run(context.Background(), ask(recipe.CounterpartyCard, recipe.Filters{Counterparty: "Универсал", AsOfDate: "2026-03-31"}))
	if res.PartyCard == nil {
		t.Fatalf("%s %q", res.LimitedReason, res.Message)
	}
	text, titles := res.CardMarkdown()
	text = strings.ReplaceAll(strings.ReplaceAll(text, `\`, ""), "\u00a0", " ")
	for _, want := range []string{
		"**ООО «Универсал»**, ИНН 5214649585 на 31.03.2026: в целом должен нам **763 472,12 ₽** (сальдо расчётов). [1]",
		"- Должен нам: 2 131 029,84 ₽; наш аванс ему (или переплата) 63 389,76 ₽",
		"- Мы должны: 1 330 424,57 ₽; его аванс нам (или переплата) 100 522,91 ₽",
		"- Наш долг: просрочено **597 487,04 ₽** из 1 330 424,57 ₽ — более 90 дн. 597 487,04 ₽", "[3]",
		"№ П-44/2024 от 03.10.2024 — в их пользу 1 267 034,81 ₽ (сч. 60.01, 60.02); срок оплаты 30 дней по договору",
		"срок оплаты в договоре не задан (в просрочке — 0 дней по умолчанию)",
		"От них — последние 3 из 18:", "Мы им — последние 3 из 11:", "**Последние документы** [5] — 5 из 59:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the card lacks %q:\n%s", want, text)
		}
	}
	wantTitles := []string{"Незакрытые договоры", "Дебиторка по срокам долга", "Кредиторка по срокам долга", "Банковские операции контрагента", "Документы контрагента"}
	if len(titles) != len(wantTitles) {
		t.Fatalf("footnotes %q", titles)
	}
	for i, w := range wantTitles {
		if !strings.HasPrefix(titles[i], "1С: "+w+", ООО «Северный ветер»") {
			t.Errorf("footnote [%d] %q, want %s", i+1, titles[i], w)
		}
	}
	drills := res.Drills()
	if len(drills) != 2 || drills[0].Text != "Просрочка: их долг" || drills[1].Text != "Просрочка: наш долг" {
		t.Fatalf("drills %+v", drills)
	}
	for i, want := range []recipe.Name{recipe.ReceivablesAging, recipe.PayablesAging} {
		got, err := lane.Drill(context.Background(), drills[i].Data)
		if err != nil || got.Intent != want || got.Party != "ООО «Универсал»" || got.Aging == nil {
			t.Errorf("drill %d opens %s %q (%v); want %s of Универсал", i, got.Intent, got.Party, err, want)
		}
	}
	if _, err := res.XLSX(); err != nil {
		t.Fatal(err)
	}
	// Nothing at all with the counterparty: said so, no figures.
	empty := lane.Run(context.Background(), ask(recipe.CounterpartyCard, recipe.Filters{Counterparty: "Универсал", AsOfDate: "2024-06-30"}))
	if empty.ResultMode != Limited || empty.LimitedReason != ReasonEmptyMatch {
		t.Errorf("before the base's data: %s %q", empty.LimitedReason, empty.Message)
	}
}

// On the realistic base: the offsets of each organization (the head with its обособленное
// подразделение, past the toolkit's 1,000 rows of open contracts) and the cards of the companies
// on both sides, against the calculation over the exported files; the card's aging is the aging
// recipe's for the company (checked against its own calculation in ledgergen).
func TestRealisticOffsetsAndCards(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	l := ledgergen.Realistic(ledgergen.DefaultSeed)
	d := onec.NewNamedDemo(l, ledgergen.RealisticName)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: onec.MaxProxyRows})
	c := newCardCalc(l)
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)
	for _, org := range l.Organizations {
		t.Run(org.Name, func(t *testing.T) {
			res := lane.Run(context.Background(), ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: "2026-03-31", Organization: org.Ref}))
			want := c.offsets(org.Ref, day, "")
			if diff := gocmp.Diff(want, laneOffsets(t, res), gocmp.AllowUnexported(calcOffset{})); diff != "" {
				t.Fatalf("(-calculation +lane):\n%s", diff)
			}
			t.Logf("%d counterparties on both sides, %s to net", len(want), res.Summary.TotalAmount)
			if org.HeadRef == "" && len(want) == 0 && org.Ref == l.DefaultOrganization().Ref {
				t.Fatal("the head organization has nobody on both sides: the test proves little")
			}
			n := 0
			for _, p := range res.Offsets.Parties {
				if n == 3 {
					break
				}
				n++
				card := lane.Run(context.Background(), ask(recipe.CounterpartyCard, recipe.Filters{Counterparty: p.Ref, AsOfDate: "2026-03-31", Organization: org.Ref}))
				if card.PartyCard == nil {
					t.Fatalf("card of %s: %s %q", p.Name, card.LimitedReason, card.Message)
				}
				pc := card.PartyCard
				want := c.card(org.Ref, p.Ref, day, 0)
				if pc.TheyOwe != want.theyOwe || pc.WeOwe != want.weOwe || pc.Advanced != want.advanced || pc.Prepaid != want.prepaid ||
					pc.Net != want.net || pc.InCount != want.inCount || pc.OutCount != want.outCount || pc.DocCount != want.docCount {
					t.Errorf("card of %s: lane %+v; calculation %+v", p.Name, *pc, want)
				}
				for i, x := range pc.In {
					if rowText(x) != want.in[i] {
						t.Errorf("card of %s: payment in %d %q, want %q", p.Name, i, rowText(x), want.in[i])
					}
				}
				if p.Receivable > pc.TheyOwe || p.Payable > pc.WeOwe {
					t.Errorf("%s: offsets' sides %s, %s exceed the card's debts %s, %s", p.Name, p.Receivable, p.Payable, pc.TheyOwe, pc.WeOwe)
				}
				aging := lane.Run(context.Background(), ask(recipe.ReceivablesAging, recipe.Filters{Counterparty: p.Ref, AsOfDate: "2026-03-31", Organization: org.Ref}))
				if pc.Receivable == nil || aging.Aging == nil || pc.Receivable.Overdue != aging.Aging.Overdue || pc.Receivable.Debt != aging.Summary.TotalAmount {
					t.Errorf("card of %s: receivable aging %+v; the aging recipe's %+v", p.Name, pc.Receivable, aging.Aging)
				}
			}
		})
	}
}

// On 76 both ways: the default base keeps no other settlements than 60 and 62, so a hand-made
// ledger adds them — ООО «Альфа», our customer, is owed 150 000,00 on a contract on 76.05 (an
// agency fee), and ООО «Техснаб», our supplier, owes us 200 000,00 on 76.05 (a claim). Both are
// then on both sides; the offsets and the cards against the calculation.
func TestOffsetsOn76(t *testing.T) {
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	org := l.DefaultOrganization().Ref
	alfa, tekhsnab := partyRef(t, l, "ООО «Альфа»"), partyRef(t, l, "ООО «Техснаб»")
	const agency, claim, recorder = "00000000-0000-4000-8000-00000000a076", "00000000-0000-4000-8000-00000000b076", "00000000-0000-4000-8000-00000000c076"
	l.Contracts = append(l.Contracts,
		onec.Contract{Ref: agency, OwnerRef: alfa, OrganizationRef: org, Number: "АГ-1/2025", Date: "2025-01-10", Name: "Агентский договор № АГ-1/2025 от 10.01.2025", Kind: "other", Currency: "RUB"},
		onec.Contract{Ref: claim, OwnerRef: tekhsnab, OrganizationRef: org, Number: "ПР-7/2025", Date: "2025-02-01", Name: "Претензия № ПР-7/2025 от 01.02.2025", Kind: "other", Currency: "RUB"})
	on76 := func(party, contract string) []onec.Subconto {
		return []onec.Subconto{{Kind: "Контрагенты", Ref: party}, {Kind: "ДоговорыКонтрагентов", Ref: contract}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: recorder}}
	}
	at, _ := time.Parse(time.DateTime, "2025-02-15 12:00:00")
	l.Movements = append(l.Movements,
		onec.Movement{Period: onec.LocalTime{Time: at}, RecorderRef: recorder, RecorderType: "ОперацияБух", Line: 1, OrganizationRef: org,
			AccountDr: "000", AccountCr: "76.05", SubcontoCr: on76(alfa, agency), Amount: 15000000},
		onec.Movement{Period: onec.LocalTime{Time: at}, RecorderRef: recorder, RecorderType: "ОперацияБух", Line: 2, OrganizationRef: org,
			AccountDr: "76.05", SubcontoDr: on76(tekhsnab, claim), AccountCr: "000", Amount: 20000000})
	d := onec.NewDemo(l)
	lane := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	c := newCardCalc(l)
	day := time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)
	res := lane.Run(context.Background(), ask(recipe.OffsetCandidates, recipe.Filters{AsOfDate: "2026-03-31"}))
	want := c.offsets(org, day, "")
	got := laneOffsets(t, res)
	if diff := gocmp.Diff(want, got, gocmp.AllowUnexported(calcOffset{})); diff != "" {
		t.Fatalf("(-calculation +lane):\n%s", diff)
	}
	for _, p := range []string{alfa, tekhsnab} {
		if _, ok := got[p]; !ok {
			t.Errorf("%s is on both sides through 76 and not among the offsets: %v", p, got)
		}
	}
	if got[alfa].pay != 15000000 || got[tekhsnab].recv != 20000000 {
		t.Errorf("76.05: Альфа owed %s, Техснаб owes %s; want 150 000,00 and 200 000,00", got[alfa].pay, got[tekhsnab].recv)
	}
	for _, p := range []string{alfa, tekhsnab} {
		checkCard(t, lane, c, org, p, "2026-03-31")
	}
}
