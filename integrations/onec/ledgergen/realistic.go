package ledgergen

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// The realistic demo base (ONEC_DEMO=realistic): the demo company at a real base's size, with
// what real BP 3.0 bases have and the default demo lacks, so that the templates meet them
// before a customer's base does. It is the default company at RealisticScale (over 1,500
// counterparties, balances past the toolkit's 1,000-row cap), reshaped by seeded passes:
//
//   - an обособленное подразделение on its own balance: an organization of its own with the
//     head's INN, its own KPP and bank account, holding a tenth of the head's contracts;
//   - 19.03 carries the received VAT invoice (СФПолученные) as its second subconto, as BP's
//     chart does, and most of it is deducted quarterly (Дт 68.02 Кт 19.03);
//   - 76.АВ / 76.ВА: VAT on advances received and issued, restored when the advance is offset;
//   - currency contracts (USD, EUR) settled on 60.21 / 62.21 and the currency account 52, with
//     ВалютнаяСумма and Валюта, and exchange differences on 91;
//   - quantity accounts («Количественный»): 41.01 by item with Количество, materials on 10.01
//     written off to 20.01, the items a catalog (Справочник.Номенклатура) with units of measure,
//     each item's quantity kept consistent with its purchases and sales (stock.go);
//   - storno: corrections posted as negative amounts (and quantities);
//   - one organization (the second) keeps no settlement documents: its 60/62/76 records carry
//     no ДокументыРасчетовСКонтрагентами (1C's empty reference there).
//
// Everything is drawn from seed (math/rand/v2's PCG), so a seed gives the same base every time.

// RealisticScale is the copies of the counterparty catalog in the realistic base: 48 gives
// 1,537 counterparties and about 2,000 open settlement documents on 62.01.
const RealisticScale = 48

// Chart additions of the realistic base (BP 3.0's codes and names).
const (
	acc19     = "19.03"
	acc76AV   = "76.АВ"
	acc76VA   = "76.ВА"
	kindSFIn  = "СФПолученные"
	kindSFOut = "СФВыданные"
	kindItem  = "Номенклатура"
)

var realisticAccounts = []onec.Account{
	{Code: "10.01", Name: "Сырье и материалы", Type: "active", Subconto: []string{kindItem}, Quantity: true},
	{Code: "20.01", Name: "Основное производство", Type: "active", Subconto: []string{"Номенклатурные группы"}},
	{Code: "52", Name: "Валютные счета", Type: "active", Subconto: []string{"БанковскиеСчета"}, Currency: true},
	{Code: "60.21", Name: "Расчеты с поставщиками и подрядчиками (в валюте)", Type: "active_passive", Subconto: settlementKinds(), Currency: true},
	{Code: "62.21", Name: "Расчеты с покупателями и заказчиками (в валюте)", Type: "active_passive", Subconto: settlementKinds(), Currency: true},
	{Code: acc76AV, Name: "НДС по авансам и предоплатам полученным", Type: "active", Subconto: []string{"Контрагенты", kindSFOut}},
	{Code: acc76VA, Name: "НДС по авансам и предоплатам выданным", Type: "passive", Subconto: []string{"Контрагенты", kindSFIn}},
	{Code: "91.01", Name: "Прочие доходы", Type: "passive", Subconto: []string{"ПрочиеДоходыИРасходы"}},
	{Code: "91.02", Name: "Прочие расходы", Type: "active", Subconto: []string{"ПрочиеДоходыИРасходы"}},
}

// Realistic returns the realistic demo base drawn from seed.
func Realistic(seed uint64) *onec.Ledger {
	base := Generate(RealisticScale, seed)
	r := &reshaper{l: base, rnd: rand.New(rand.NewPCG(seed, 0x1C0FF1CE))}
	r.index()
	r.chart()
	r.branch()
	r.invoices()
	r.advanceVAT()
	r.currency()
	r.quantities()
	r.storno()
	r.noSettlementDocuments()
	r.stock(seed)
	r.loans(seed)
	r.sort()
	r.incoming(seed)
	return base
}

type reshaper struct {
	l   *onec.Ledger
	rnd *rand.Rand

	docAt   map[string]int   // document ref → index
	movesOf map[string][]int // recorder ref → movement indexes
	cpAt    map[string]int
	items   []string // Номенклатура refs

	// materials pairs each purchase of materials on 10.01 with its write-off to 20.01 (-1:
	// none), by record index; stornoOf maps a storno record to the record it corrects. The
	// pass stock (stock.go) reads them to keep an item's quantities consistent.
	materials [][2]int
	stornoOf  map[int]int
}

func (r *reshaper) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(r.rnd.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (r *reshaper) index() {
	r.docAt = make(map[string]int, len(r.l.Documents))
	for i, d := range r.l.Documents {
		r.docAt[d.Ref] = i
	}
	// The passes add about a fifth to the records and a third to the documents.
	r.l.Movements = slices.Grow(r.l.Movements, len(r.l.Movements)/4)
	r.l.Documents = slices.Grow(r.l.Documents, len(r.l.Documents)/2)
	r.movesOf = make(map[string][]int, len(r.l.Documents))
	for i, m := range r.l.Movements {
		r.movesOf[m.RecorderRef] = append(r.movesOf[m.RecorderRef], i)
	}
	r.cpAt = make(map[string]int, len(r.l.Counterparties))
	for i, c := range r.l.Counterparties {
		r.cpAt[c.Ref] = i
	}
	for range 60 {
		r.items = append(r.items, r.uuid())
	}
}

// chart gives 19.03 BP's subconto and adds the accounts the passes post to.
func (r *reshaper) chart() {
	for i := range r.l.Accounts {
		switch r.l.Accounts[i].Code {
		case acc19:
			r.l.Accounts[i].Subconto = []string{"Контрагенты", kindSFIn}
		case "41.01":
			r.l.Accounts[i].Quantity = true // BP's chart: 41 and its sub-accounts are «Количественный»
		}
	}
	for _, a := range realisticAccounts {
		a.Subconto = slices.Clone(a.Subconto)
		r.l.Accounts = append(r.l.Accounts, a)
	}
	slices.SortStableFunc(r.l.Accounts, func(a, b onec.Account) int { return strings.Compare(a.Code, b.Code) })
}

// addDoc appends a posted document and returns its index.
func (r *reshaper) addDoc(typ string, when time.Time, org string, cp, ctr string, amount, vat onec.Kopecks, purpose string) int {
	journal := map[string]string{"КорректировкаРеализации": "ДокументыПокупателей", "КорректировкаПоступления": "ДокументыПоставщиков",
		"ПоступлениеТоваровУслуг": "ДокументыПоставщиков", "РеализацияТоваровУслуг": "ДокументыПокупателей",
		"ПоступлениеНаРасчетныйСчет": "БанковскиеВыписки", "СписаниеСРасчетногоСчета": "БанковскиеВыписки"}[typ]
	d := onec.Document{Ref: r.uuid(), Type: typ, Number: "Р" + strconv.Itoa(len(r.l.Documents)+1), Date: onec.LocalTime{Time: when},
		Posted: true, OrganizationRef: org, CounterpartyRef: cp, ContractRef: ctr, Amount: amount, VATAmount: vat, Purpose: purpose}
	if journal != "" {
		d.Journal = &journal
	}
	r.l.Documents = append(r.l.Documents, d)
	r.docAt[d.Ref] = len(r.l.Documents) - 1
	return len(r.l.Documents) - 1
}

// addMove appends a record of document i after its last line.
func (r *reshaper) addMove(i int, m onec.Movement) *onec.Movement {
	d := &r.l.Documents[i]
	m.Period, m.RecorderRef, m.RecorderType, m.OrganizationRef = d.Date, d.Ref, d.Type, d.OrganizationRef
	m.Line = 1
	for _, mi := range r.movesOf[d.Ref] { // the generator's lines have gaps (no line 1 without an advance)
		m.Line = max(m.Line, r.l.Movements[mi].Line+1)
	}
	if m.SubcontoDr == nil {
		m.SubcontoDr = []onec.Subconto{}
	}
	if m.SubcontoCr == nil {
		m.SubcontoCr = []onec.Subconto{}
	}
	r.l.Movements = append(r.l.Movements, m)
	r.movesOf[d.Ref] = append(r.movesOf[d.Ref], len(r.l.Movements)-1)
	return &r.l.Movements[len(r.l.Movements)-1]
}

// branch makes the обособленное подразделение and moves a tenth of the head's contracts, with
// their documents and records, to it.
func (r *reshaper) branch() {
	head := r.l.Organizations[0]
	br := onec.Organization{Ref: r.uuid(), Name: "ООО «Северный ветер» (Казанский филиал)", INN: head.INN, KPP: "165543001", HeadRef: head.Ref}
	r.l.Organizations = append(r.l.Organizations, br)
	bank := "40702810" + strconv.FormatInt(100_000_000_000+r.rnd.Int64N(899_999_999_999), 10)
	moved := map[string]bool{}
	for i := range r.l.Contracts {
		if c := &r.l.Contracts[i]; c.OrganizationRef == head.Ref && r.rnd.IntN(10) == 0 {
			c.OrganizationRef = br.Ref
			moved[c.Ref] = true
		}
	}
	for i := range r.l.Documents {
		d := &r.l.Documents[i]
		if !moved[d.ContractRef] {
			continue
		}
		d.OrganizationRef = br.Ref
		if d.BankAccount != nil {
			d.BankAccount = &bank
		}
		for _, mi := range r.movesOf[d.Ref] {
			r.l.Movements[mi].OrganizationRef = br.Ref
		}
	}
}

// vatOf is the VAT inside a gross amount at the year's rate, rounded half up to the kopeck.
func vatOf(gross onec.Kopecks, year int) onec.Kopecks {
	p := int64(20)
	if year >= 2026 {
		p = 22
	}
	num, den := int64(gross)*p, 100+p
	if num < 0 {
		return -onec.Kopecks((-2*num + den) / (2 * den))
	}
	return onec.Kopecks((2*num + den) / (2 * den))
}

// quarterEnd is the last second of the quarter of t: when BP's «Формирование записей книги
// покупок» deducts the quarter's VAT.
func quarterEnd(t time.Time) time.Time {
	q := (int(t.Month())-1)/3*3 + 3
	return time.Date(t.Year(), time.Month(q)+1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second)
}

// bookDoc is the purchase-book document of an organization's quarter, made on first use.
func (r *reshaper) bookDoc(books map[string]int, org string, when time.Time) int {
	end := quarterEnd(when)
	key := org + end.Format(time.DateOnly)
	if i, ok := books[key]; ok {
		return i
	}
	i := r.addDoc("ФормированиеЗаписейКнигиПокупок", end.Add(-time.Hour), org, "", "", 0, 0, "Формирование записей книги покупок")
	books[key] = i
	return i
}

// invoices gives each receipt's 19.03 record its received VAT invoice and deducts 85 % of them
// in the quarter (those of the last quarter stay on 19.03, as in a real base before closing).
func (r *reshaper) invoices() {
	books := map[string]int{}
	n := len(r.l.Movements)
	for mi := 0; mi < n; mi++ {
		m := r.l.Movements[mi]
		if m.AccountDr != acc19 {
			continue
		}
		rec := r.l.Documents[r.docAt[m.RecorderRef]]
		sf := r.addDoc("СчетФактураПолученный", rec.Date.Time, rec.OrganizationRef, rec.CounterpartyRef, rec.ContractRef,
			rec.Amount, rec.VATAmount, "Счет-фактура полученный к "+rec.Number)
		r.l.Documents[sf].Posted = true
		sub := []onec.Subconto{{Kind: "Контрагенты", Ref: rec.CounterpartyRef}, {Kind: kindSFIn, Ref: r.l.Documents[sf].Ref}}
		r.l.Movements[mi].SubcontoDr = sub
		if quarterEnd(rec.Date.Time).After(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) || r.rnd.IntN(100) >= 85 {
			continue
		}
		b := r.bookDoc(books, rec.OrganizationRef, rec.Date.Time)
		r.addMove(b, onec.Movement{AccountDr: "68.02", AccountCr: acc19, SubcontoCr: slices.Clone(sub), Amount: m.Amount, Content: "НДС к вычету"})
	}
}

// advanceVAT charges VAT on every advance received (Дт 76.АВ Кт 68.02, by the issued advance
// invoice) and deducts it on every advance issued (Дт 68.02 Кт 76.ВА); an offset restores it.
func (r *reshaper) advanceVAT() {
	books := map[string]int{}
	type adv struct {
		sf  string
		vat onec.Kopecks
	}
	byAdvanceDoc := map[string]adv{} // settlement document of the advance → its invoice
	n := len(r.l.Movements)
	for mi := 0; mi < n; mi++ {
		m := r.l.Movements[mi]
		received := m.AccountCr == "62.02" && m.AccountDr == "51"
		issued := m.AccountDr == "60.02" && m.AccountCr == "51"
		if !received && !issued {
			continue
		}
		pay := r.l.Documents[r.docAt[m.RecorderRef]]
		vat := vatOf(m.Amount, pay.Date.Year())
		if received {
			sf := r.addDoc("СчетФактураВыданный", pay.Date.Add(time.Minute), pay.OrganizationRef, pay.CounterpartyRef, pay.ContractRef,
				m.Amount, vat, "Счет-фактура на аванс к "+pay.Number)
			ref := r.l.Documents[sf].Ref
			r.addMove(sf, onec.Movement{AccountDr: acc76AV, AccountCr: "68.02",
				SubcontoDr: []onec.Subconto{{Kind: "Контрагенты", Ref: pay.CounterpartyRef}, {Kind: kindSFOut, Ref: ref}}, Amount: vat, Content: "НДС с аванса"})
			byAdvanceDoc[docOf(m.SubcontoCr)] = adv{ref, vat}
			continue
		}
		sf := r.addDoc("СчетФактураПолученный", pay.Date.Add(time.Minute), pay.OrganizationRef, pay.CounterpartyRef, pay.ContractRef,
			m.Amount, vat, "Счет-фактура на аванс от поставщика к "+pay.Number)
		ref := r.l.Documents[sf].Ref
		b := r.bookDoc(books, pay.OrganizationRef, pay.Date.Time)
		r.addMove(b, onec.Movement{AccountDr: "68.02", AccountCr: acc76VA,
			SubcontoCr: []onec.Subconto{{Kind: "Контрагенты", Ref: pay.CounterpartyRef}, {Kind: kindSFIn, Ref: ref}}, Amount: vat, Content: "НДС с аванса выданного к вычету"})
		byAdvanceDoc[docOf(m.SubcontoDr)] = adv{ref, vat}
	}
	for mi := 0; mi < n; mi++ {
		m := r.l.Movements[mi]
		var a adv
		var ok bool
		switch {
		case m.AccountDr == "62.02" && m.AccountCr == "62.01":
			if a, ok = byAdvanceDoc[docOf(m.SubcontoDr)]; ok {
				cp := r.l.Documents[r.docAt[m.RecorderRef]].CounterpartyRef
				r.addMove(r.docAt[m.RecorderRef], onec.Movement{AccountDr: "68.02", AccountCr: acc76AV,
					SubcontoCr: []onec.Subconto{{Kind: "Контрагенты", Ref: cp}, {Kind: kindSFOut, Ref: a.sf}}, Amount: a.vat, Content: "НДС с аванса к вычету при отгрузке"})
			}
		case m.AccountDr == "60.01" && m.AccountCr == "60.02":
			if a, ok = byAdvanceDoc[docOf(m.SubcontoCr)]; ok {
				cp := r.l.Documents[r.docAt[m.RecorderRef]].CounterpartyRef
				r.addMove(r.docAt[m.RecorderRef], onec.Movement{AccountDr: acc76VA, AccountCr: "68.02",
					SubcontoDr: []onec.Subconto{{Kind: "Контрагенты", Ref: cp}, {Kind: kindSFIn, Ref: a.sf}}, Amount: a.vat, Content: "Восстановление НДС с аванса"})
			}
		}
	}
}

func docOf(subs []onec.Subconto) string {
	for _, s := range subs {
		if s.Kind == "ДокументыРасчетовСКонтрагентами" {
			return s.Ref
		}
	}
	return ""
}

// rate is the seeded exchange rate of a currency on a day, in 1/10,000 of a rouble.
type rates struct {
	base  map[string]int64
	daily map[string]map[string]int64
	rnd   *rand.Rand
}

func (x *rates) on(cur string, day time.Time) int64 {
	d := day.Format(time.DateOnly)
	if v, ok := x.daily[cur][d]; ok {
		return v
	}
	if x.daily[cur] == nil {
		x.daily[cur] = map[string]int64{}
	}
	v := x.base[cur] + x.rnd.Int64N(160_000) - 80_000 // ±8 roubles around the base
	x.daily[cur][d] = v
	return v
}

// roubles converts a currency amount at a rate, half up.
func roubles(cur onec.Kopecks, rate int64) onec.Kopecks {
	return onec.Kopecks((int64(cur)*rate + 5_000) / 10_000)
}

// currency adds foreign-trade contracts with their deals: sales on 62.21, purchases on 60.21,
// paid through the currency account 52, exchange differences on 91.01 / 91.02.
func (r *reshaper) currency() {
	x := &rates{base: map[string]int64{"USD": 900_000, "EUR": 980_000}, daily: map[string]map[string]int64{}, rnd: r.rnd}
	head := r.l.Organizations[0].Ref
	usd := "40702840" + strconv.FormatInt(100_000_000_000+r.rnd.Int64N(899_999_999_999), 10)
	eur := "40702978" + strconv.FormatInt(100_000_000_000+r.rnd.Int64N(899_999_999_999), 10)
	for k := range 60 {
		cp := &r.l.Counterparties[r.rnd.IntN(len(r.l.Counterparties)-1)]
		customer := k%2 == 0
		cur, bank := "USD", usd
		if k%3 == 0 {
			cur, bank = "EUR", eur
		}
		kind, acc, title := "with_supplier", "60.21", "Импортный контракт"
		if customer {
			kind, acc, title = "with_customer", "62.21", "Экспортный контракт"
		}
		start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, r.rnd.IntN(60))
		num := "ВЭД-" + strconv.Itoa(k+1) + "/" + strconv.Itoa(start.Year())
		ctr := onec.Contract{Ref: r.uuid(), OwnerRef: cp.Ref, OrganizationRef: head, Number: num, Date: start.Format(time.DateOnly),
			Name: title + " № " + num + " (" + cur + ")", Kind: kind, Currency: cur}
		r.l.Contracts = append(r.l.Contracts, ctr)
		day := start
		for range 4 + r.rnd.IntN(6) {
			day = day.AddDate(0, 0, 10+r.rnd.IntN(40))
			if day.After(time.Date(2026, 3, 20, 0, 0, 0, 0, time.UTC)) {
				break
			}
			amountCur := onec.Kopecks(100_000 + r.rnd.Int64N(5_000_000)) // 1,000 … 51,000 units
			when := day.Add(time.Duration(9+r.rnd.IntN(9)) * time.Hour)
			rateDoc := x.on(cur, when)
			rub := roubles(amountCur, rateDoc)
			sub := func(doc string) []onec.Subconto {
				return []onec.Subconto{{Kind: "Контрагенты", Ref: cp.Ref}, {Kind: "ДоговорыКонтрагентов", Ref: ctr.Ref}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: doc}}
			}
			typ := "ПоступлениеТоваровУслуг"
			if customer {
				typ = "РеализацияТоваровУслуг"
			}
			i := r.addDoc(typ, when, head, cp.Ref, ctr.Ref, rub, 0, title+" "+num+": "+amountCur.Decimal()+" "+cur)
			ref := r.l.Documents[i].Ref
			if customer {
				r.addMove(i, onec.Movement{AccountDr: acc, AccountCr: "90.01.1", SubcontoDr: sub(ref), Amount: rub, Content: "Выручка (экспорт)",
					CurrencyDr: cur, CurrencyAmountDr: amountCur})
			} else {
				r.addMove(i, onec.Movement{AccountDr: "41.01", AccountCr: acc, SubcontoDr: r.item(), SubcontoCr: sub(ref), Amount: rub, Content: "Товары (импорт)",
					CurrencyCr: cur, CurrencyAmountCr: amountCur, QuantityDr: onec.Units(1 + int64(rub)/500_000)})
			}
			if r.rnd.IntN(5) == 0 { // unpaid yet
				continue
			}
			payDay := when.AddDate(0, 0, 5+r.rnd.IntN(30))
			if payDay.After(time.Date(2026, 3, 31, 18, 0, 0, 0, time.UTC)) {
				continue
			}
			ratePay := x.on(cur, payDay)
			rubPay := roubles(amountCur, ratePay)
			diff := rubPay - rub
			if customer {
				p := r.addDoc("ПоступлениеНаРасчетныйСчет", payDay, head, cp.Ref, ctr.Ref, rubPay, 0, "Оплата по контракту "+num+" ("+cur+")")
				r.l.Documents[p].BankAccount = &bank
				// The receivable is revalued to the payment day's rate first, then closed.
				r.exchange(p, acc, sub(ref), cur, diff, true)
				r.addMove(p, onec.Movement{AccountDr: "52", AccountCr: acc, SubcontoCr: sub(ref), Amount: rubPay, Content: "Оплата от покупателя (валюта)",
					CurrencyDr: cur, CurrencyAmountDr: amountCur, CurrencyCr: cur, CurrencyAmountCr: amountCur})
				continue
			}
			p := r.addDoc("СписаниеСРасчетногоСчета", payDay, head, cp.Ref, ctr.Ref, rubPay, 0, "Оплата по контракту "+num+" ("+cur+")")
			r.l.Documents[p].BankAccount = &bank
			r.exchange(p, acc, sub(ref), cur, diff, false)
			r.addMove(p, onec.Movement{AccountDr: acc, AccountCr: "52", SubcontoDr: sub(ref), Amount: rubPay, Content: "Оплата поставщику (валюта)",
				CurrencyDr: cur, CurrencyAmountDr: amountCur, CurrencyCr: cur, CurrencyAmountCr: amountCur})
		}
	}
}

// exchange posts the exchange difference of a settlement (diff: the rouble value's change):
// a receivable that grew is income, a payable that grew an expense. The settlement side keeps
// the contract's Валюта with no ВалютнаяСумма, as BP's revaluation does: the debt in currency
// is unchanged, only its rouble value moves (a record without the currency would be a line of
// its own in Остатки, Валюта being a dimension of the register).
func (r *reshaper) exchange(doc int, acc string, sub []onec.Subconto, cur string, diff onec.Kopecks, receivable bool) {
	switch {
	case diff == 0:
	case receivable && diff > 0:
		r.addMove(doc, onec.Movement{AccountDr: acc, AccountCr: "91.01", SubcontoDr: sub, Amount: diff, Content: "Курсовая разница", CurrencyDr: cur})
	case receivable:
		r.addMove(doc, onec.Movement{AccountDr: "91.02", AccountCr: acc, SubcontoCr: sub, Amount: -diff, Content: "Курсовая разница", CurrencyCr: cur})
	case diff > 0:
		r.addMove(doc, onec.Movement{AccountDr: "91.02", AccountCr: acc, SubcontoCr: sub, Amount: diff, Content: "Курсовая разница", CurrencyCr: cur})
	default:
		r.addMove(doc, onec.Movement{AccountDr: acc, AccountCr: "91.01", SubcontoDr: sub, Amount: -diff, Content: "Курсовая разница", CurrencyDr: cur})
	}
}

func (r *reshaper) item() []onec.Subconto {
	return []onec.Subconto{{Kind: kindItem, Ref: r.items[r.rnd.IntN(len(r.items))]}}
}

// quantities gives 41.01's records an item and a quantity (a unit price of 500 to 5,000
// roubles), and adds materials bought on 10.01 and written off to production. Its draws are
// the base's stream — their number and order fix every later pass (storno's picks among them)
// and the materials' amounts — so they stay as they were when the items were placeholders;
// the pass stock (stock.go) then gives every 41.01 and 10.01 record its item and quantity
// from the catalog, consistently, with a stream of its own.
func (r *reshaper) quantities() {
	n := len(r.l.Movements)
	for mi := 0; mi < n; mi++ {
		m := &r.l.Movements[mi]
		price := int64(50_000 + r.rnd.IntN(450_000))
		q := onec.Units(max(1, int64(m.Amount)/price))
		switch {
		case m.AccountDr == "41.01" && m.QuantityDr == 0:
			m.SubcontoDr, m.QuantityDr = r.item(), q
		case m.AccountCr == "41.01":
			m.SubcontoCr, m.QuantityCr = r.item(), q
		}
	}
	head := r.l.Organizations[0].Ref
	var suppliers []onec.Contract
	for _, c := range r.l.Contracts {
		if c.Kind == "with_supplier" && c.OrganizationRef == head && c.Currency == "RUB" {
			suppliers = append(suppliers, c)
		}
	}
	for k := range 400 {
		c := suppliers[r.rnd.IntN(len(suppliers))]
		when := time.Date(2025, 1, 3, 10, 0, 0, 0, time.UTC).AddDate(0, 0, k)
		if when.After(time.Date(2026, 3, 31, 0, 0, 0, 0, time.UTC)) {
			break
		}
		qty := int64(10 + r.rnd.IntN(500))
		price := onec.Kopecks(5_000 + r.rnd.Int64N(200_000))
		amount := onec.Kopecks(qty) * price
		i := r.addDoc("ПоступлениеТоваровУслуг", when, head, c.OwnerRef, c.Ref, amount, 0, "Материалы по договору "+c.Number)
		ref := r.l.Documents[i].Ref
		mat := r.item()
		r.addMove(i, onec.Movement{AccountDr: "10.01", AccountCr: "60.01", SubcontoDr: mat,
			SubcontoCr: []onec.Subconto{{Kind: "Контрагенты", Ref: c.OwnerRef}, {Kind: "ДоговорыКонтрагентов", Ref: c.Ref}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: ref}},
			Amount:     amount, Content: "Материалы", QuantityDr: onec.Units(qty)})
		pair := [2]int{len(r.l.Movements) - 1, -1}
		used := qty * int64(30+r.rnd.IntN(70)) / 100
		if used == 0 {
			r.materials = append(r.materials, pair)
			continue
		}
		w := r.addDoc("ТребованиеНакладная", when.AddDate(0, 0, 2), head, "", "", onec.Kopecks(used)*price, 0, "Списание материалов в производство")
		r.addMove(w, onec.Movement{AccountDr: "20.01", AccountCr: "10.01", SubcontoCr: slices.Clone(mat), Amount: onec.Kopecks(used) * price,
			Content: "Материалы в производство", QuantityCr: onec.Units(used)})
		pair[1] = len(r.l.Movements) - 1
		r.materials = append(r.materials, pair)
	}
}

// storno corrects about 2 % of sales and purchases downwards the way BP posts a correction
// of an earlier period: the original entry again, with negative amount and quantity.
func (r *reshaper) storno() {
	n := len(r.l.Movements)
	for mi := 0; mi < n; mi++ {
		m := r.l.Movements[mi]
		sale := m.AccountDr == "62.01" && m.AccountCr == "90.01.1"
		buy := m.AccountDr == "41.01" && m.AccountCr == "60.01"
		if (!sale && !buy) || r.rnd.IntN(50) != 0 {
			continue
		}
		src := r.l.Documents[r.docAt[m.RecorderRef]]
		cut := -m.Amount * onec.Kopecks(10+r.rnd.IntN(21)) / 100
		typ := "КорректировкаРеализации"
		if buy {
			typ = "КорректировкаПоступления"
		}
		i := r.addDoc(typ, src.Date.AddDate(0, 0, 3+r.rnd.IntN(20)), src.OrganizationRef, src.CounterpartyRef, src.ContractRef, cut, 0,
			"Корректировка к "+src.Number)
		c := m
		c.SubcontoDr, c.SubcontoCr = slices.Clone(m.SubcontoDr), slices.Clone(m.SubcontoCr)
		c.Amount, c.Content = cut, "Сторно: "+m.Content
		if c.QuantityDr != 0 {
			c.QuantityDr = -max(onec.Units(1), c.QuantityDr/5)
		}
		r.addMove(i, c)
		if r.stornoOf == nil {
			r.stornoOf = map[int]int{}
		}
		r.stornoOf[len(r.l.Movements)-1] = mi
	}
}

// settlementAccount: the accounts whose third subconto is the settlement document.
func settlementAccount(code string) bool {
	for _, p := range []string{"60", "62", "76"} {
		if code == p || strings.HasPrefix(code, p+".") {
			return code != acc76AV && code != acc76VA
		}
	}
	return false
}

// noSettlementDocuments drops the settlement document from the second organization's
// settlement records: a base (or, here, an organization) that keeps settlements by contract only.
func (r *reshaper) noSettlementDocuments() {
	org := r.l.Organizations[1].Ref
	drop := func(acc string, subs []onec.Subconto) []onec.Subconto {
		if !settlementAccount(acc) {
			return subs
		}
		return slices.DeleteFunc(subs, func(s onec.Subconto) bool {
			return s.Kind == "ДокументыРасчетовСКонтрагентами"
		})
	}
	for i := range r.l.Movements {
		m := &r.l.Movements[i]
		if m.OrganizationRef == org {
			m.SubcontoDr, m.SubcontoCr = drop(m.AccountDr, m.SubcontoDr), drop(m.AccountCr, m.SubcontoCr)
		}
	}
}

// sort orders the records as the generator does: documents by date and number, movements by
// period, recorder and line.
func (r *reshaper) sort() {
	slices.SortStableFunc(r.l.Documents, func(a, b onec.Document) int {
		return cmp.Or(a.Date.Compare(b.Date.Time), strings.Compare(a.Number, b.Number))
	})
	slices.SortStableFunc(r.l.Movements, func(a, b onec.Movement) int {
		return cmp.Or(a.Period.Compare(b.Period.Time), strings.Compare(a.RecorderRef, b.RecorderRef), a.Line-b.Line)
	})
}

// Demo bases by their ONEC_DEMO name.
const (
	DemoDefault   = "default"
	DemoRealistic = "realistic"
)

// DemoNames lists the demo bases.
var DemoNames = []string{DemoDefault, DemoRealistic}

// Base returns a demo base by name: the embedded default one, or the realistic one generated
// from DefaultSeed.
func Base(name string) (*onec.Ledger, error) {
	switch name {
	case DemoDefault, "":
		l, err := onec.LoadDemo()
		if err != nil {
			return nil, fmt.Errorf("ledgergen: %w", err)
		}
		return l, nil
	case DemoRealistic:
		return Realistic(DefaultSeed), nil
	}
	return nil, fmt.Errorf("ledgergen: no demo base %q (%s)", name, strings.Join(DemoNames, ", "))
}

// RealisticName is how the realistic base's answers name their source.
const RealisticName = "демо-база 1С (реалистичная)"
