package ledgergen

import (
	"strconv"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// Amounts follow generate.py's arithmetic in float64, rounded to kopecks where it rounds
// (Python's round(x, 2): the exact binary value, ties to even, which is what
// strconv.FormatFloat does), so that every figure equals the Python generator's.

// round2 is Python's round(x, 2).
func round2(x float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', 2, 64), 64) // cannot fail
	return v
}

// kopecks is the exact amount of a float already rounded to two decimals.
func kopecks(x float64) onec.Kopecks {
	k, err := onec.ParseKopecks(strconv.FormatFloat(x, 'f', 2, 64))
	if err != nil {
		panic(err) // a formatted float64 always parses
	}
	return k
}

func (g *gen) number(docType string, org, year int) string {
	k := seqKey{docType, org, year}
	g.seq[k]++
	return []string{"СВ", "СТ"}[org] + "00-" + pad(g.seq[k], 6)
}

// addDoc records a document and returns its index.
func (g *gen) addDoc(docType string, when time.Time, org int, cp *onec.Counterparty, contract *onec.Contract,
	amount, vat float64, posted, deletionMark bool, purpose string) int {
	d := onec.Document{
		Ref: g.rnd.uuid4(), Type: docType, Number: g.number(docType, org, when.Year()),
		Date: onec.LocalTime{Time: when}, Posted: posted && !deletionMark, DeletionMark: deletionMark,
		OrganizationRef: g.orgs[org].Ref, Amount: kopecks(round2(amount)), VATAmount: kopecks(round2(vat)), Purpose: purpose,
	}
	if j, ok := journals[docType]; ok {
		d.Journal = &j
	}
	if cp != nil {
		d.CounterpartyRef = cp.Ref
	}
	if contract != nil {
		d.ContractRef = contract.Ref
	}
	if docType == "ПоступлениеНаРасчетныйСчет" || docType == "СписаниеСРасчетногоСчета" {
		acc := g.bankAccounts[org]
		d.BankAccount = &acc
	}
	g.documents = append(g.documents, d)
	return len(g.documents) - 1
}

// move records a register line of document i; unposted documents have none.
func (g *gen) move(i, line int, dr, cr string, amount float64, sdr, scr []onec.Subconto, content string) {
	d := &g.documents[i]
	if !d.Posted {
		return
	}
	if sdr == nil {
		sdr = []onec.Subconto{}
	}
	if scr == nil {
		scr = []onec.Subconto{}
	}
	g.movements = append(g.movements, onec.Movement{
		Period: d.Date, RecorderRef: d.Ref, RecorderType: d.Type, Line: line, OrganizationRef: d.OrganizationRef,
		AccountDr: dr, AccountCr: cr, SubcontoDr: sdr, SubcontoCr: scr, Amount: kopecks(round2(amount)), Content: content,
	})
}

// settle is the subconto of a settlement: counterparty, contract, settlement document.
func settle(cp *onec.Counterparty, contract *onec.Contract, docRef string) []onec.Subconto {
	return []onec.Subconto{
		{Kind: "Контрагенты", Ref: cp.Ref}, {Kind: "ДоговорыКонтрагентов", Ref: contract.Ref},
		{Kind: "ДокументыРасчетовСКонтрагентами", Ref: docRef},
	}
}

// businessTime is a random time between 9:00 and 18:59 of day, moved past a weekend.
func (g *gen) businessTime(day time.Time) time.Time {
	for day.Weekday() == time.Saturday || day.Weekday() == time.Sunday {
		day = day.AddDate(0, 0, 1)
	}
	h := g.rnd.randint(9, 18)
	m := g.rnd.randint(0, 59)
	s := g.rnd.randint(0, 59)
	return time.Date(day.Year(), day.Month(), day.Day(), h, m, s, 0, time.UTC)
}

func (g *gen) makeOperations() {
	start, end := date(2025, 1, 1), date(2026, 3, 31)
	// Opening balances on 2024-12-31 for some contracts.
	for ci := range g.contracts {
		if g.rnd.random() >= 0.25 {
			continue
		}
		contract := &g.contracts[ci]
		cp := &g.counterparties[g.cpIndex[contract.OwnerRef]]
		amt := round2(g.rnd.uniform(10_000, 400_000))
		i := g.addDoc("ВводОстатков", time.Date(2024, 12, 31, 23, 59, 59, 0, time.UTC), g.contractOrg[ci], cp, contract, amt, 0,
			true, false, "Ввод начальных остатков по расчетам")
		ref := g.documents[i].Ref
		if contract.Kind == "with_customer" {
			g.move(i, 1, "62.01", "000", amt, settle(cp, contract, ref), nil, "Ввод остатков")
		} else {
			g.move(i, 1, "000", "60.01", amt, nil, settle(cp, contract, ref), "Ввод остатков")
		}
	}
	for day := start; !day.After(end); day = day.AddDate(0, 0, choice(g.rnd, []int{1, 1, 2, 3})) {
		for range g.rnd.randint(1, 4) * g.scale {
			ci := g.rnd.randbelow(len(g.contracts))
			contract := &g.contracts[ci]
			if contract.Date > day.Format(time.DateOnly) {
				continue
			}
			g.deal(ci, &g.counterparties[g.cpIndex[contract.OwnerRef]], day, end)
		}
	}
}

func (g *gen) deal(ci int, cp *onec.Counterparty, day, end time.Time) {
	contract, org := &g.contracts[ci], g.contractOrg[ci]
	rate := vatRate(day.Year())
	gross := round2(g.rnd.uniform(5_000, 900_000))
	vat := round2(float64(gross*rate) / (1 + rate))
	when := g.businessTime(day)
	vatLabel := strconv.Itoa(int(float64(rate*100))) + "%"
	roll := g.rnd.random()
	posted := roll > 0.03
	deletion := 0.01 < roll && roll <= 0.02
	prepaid := g.rnd.random() < 0.15
	adv := -1
	if contract.Kind == "with_customer" {
		if prepaid { // an advance from the customer first
			adv = g.addDoc("ПоступлениеНаРасчетныйСчет", g.businessTime(day), org, cp, contract, gross, 0, true, false,
				"Предоплата по договору "+contract.Number+", в т.ч. НДС "+vatLabel)
			g.move(adv, 1, "51", "62.02", gross, nil, settle(cp, contract, g.documents[adv].Ref), "Аванс получен")
			when = g.businessTime(day.AddDate(0, 0, g.rnd.randint(2, 20)))
		}
		i := g.addDoc("РеализацияТоваровУслуг", when, org, cp, contract, gross, vat, posted, deletion,
			"Реализация по договору "+contract.Number)
		ref := g.documents[i].Ref
		if prepaid {
			g.move(i, 1, "62.02", "62.01", gross, settle(cp, contract, g.documents[adv].Ref), settle(cp, contract, ref), "Зачет аванса")
		}
		g.move(i, 2, "62.01", "90.01.1", gross, settle(cp, contract, ref), nil, "Выручка")
		g.move(i, 3, "90.03", "68.02", vat, nil, nil, "НДС")
		cost := round2(float64((gross - vat) * g.rnd.uniform(0.55, 0.8)))
		g.move(i, 4, "90.02.1", "41.01", cost, nil, nil, "Себестоимость")
		if !prepaid && g.documents[i].Posted {
			g.pay(i, ci, cp, org, gross, end, true)
		}
		if g.rnd.random() < 0.05 {
			g.addDoc("АктСверкиВзаиморасчетов", g.businessTime(day.AddDate(0, 0, 30)), org, cp, contract, 0, 0, false, false,
				"Акт сверки взаиморасчетов")
		}
		return
	}
	if prepaid {
		adv = g.addDoc("СписаниеСРасчетногоСчета", g.businessTime(day), org, cp, contract, gross, 0, true, false,
			"Предоплата по договору "+contract.Number+", в т.ч. НДС "+vatLabel)
		g.move(adv, 1, "60.02", "51", gross, settle(cp, contract, g.documents[adv].Ref), nil, "Аванс выдан")
		when = g.businessTime(day.AddDate(0, 0, g.rnd.randint(2, 20)))
	}
	i := g.addDoc("ПоступлениеТоваровУслуг", when, org, cp, contract, gross, vat, posted, deletion,
		"Поступление по договору "+contract.Number)
	ref := g.documents[i].Ref
	if prepaid {
		g.move(i, 1, "60.01", "60.02", gross, settle(cp, contract, ref), settle(cp, contract, g.documents[adv].Ref), "Зачет аванса")
	}
	g.move(i, 2, "41.01", "60.01", gross-vat, nil, settle(cp, contract, ref), "Товары")
	g.move(i, 3, "19.03", "60.01", vat,
		[]onec.Subconto{{Kind: "Контрагенты", Ref: cp.Ref}, {Kind: "ДокументыРасчетовСКонтрагентами", Ref: ref}},
		settle(cp, contract, ref), "НДС")
	if !prepaid && g.documents[i].Posted {
		g.pay(i, ci, cp, org, gross, end, false)
	}
}

// pay settles document i in parts (or not at all, or with an overpayment that becomes an
// advance), none after end.
func (g *gen) pay(i, ci int, cp *onec.Counterparty, org int, gross float64, end time.Time, incoming bool) {
	contract := &g.contracts[ci]
	d := g.documents[i]
	day := date(d.Date.Year(), d.Date.Month(), d.Date.Day())
	parts := choice(g.rnd, [][]float64{{1.0}, {1.0}, {1.0}, {0.5, 0.5}, {0.3}, {1.1}, {}})
	for k, share := range parts {
		payDay := day.AddDate(0, 0, g.rnd.randint(3, 75)+10*k)
		if payDay.After(end) {
			return
		}
		amount := round2(float64(gross * share))
		what := "поступлению"
		if incoming {
			what = "реализации"
		}
		purpose := "Оплата по " + what + " № " + d.Number + " от " + d.Date.Format(time.DateOnly) +
			", в т.ч. НДС " + strconv.Itoa(int(float64(vatRate(payDay.Year())*100))) + "%"
		docType := "СписаниеСРасчетногоСчета"
		if incoming {
			docType = "ПоступлениеНаРасчетныйСчет"
		}
		p := g.addDoc(docType, g.businessTime(payDay), org, cp, contract, amount, 0, true, false, purpose)
		pref := g.documents[p].Ref
		over := 0.0
		if share > 1 {
			over = round2(amount - gross)
		}
		if incoming {
			g.move(p, 1, "51", "62.01", amount-over, nil, settle(cp, contract, d.Ref), "Оплата от покупателя")
			if over > 0 {
				g.move(p, 2, "51", "62.02", over, nil, settle(cp, contract, pref), "Аванс получен")
			}
		} else {
			g.move(p, 1, "60.01", "51", amount-over, settle(cp, contract, d.Ref), nil, "Оплата поставщику")
			if over > 0 {
				g.move(p, 2, "60.02", "51", over, settle(cp, contract, pref), nil, "Аванс выдан")
			}
		}
	}
}
