package ledgergen

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// Loans of the realistic base: what BP's act of reconciliation reads besides 60, 62 and 76
// (УчетВзаиморасчетов.ПолучитьТаблицуСчетовУчетаВзаиморасчетов: 58, 66, 67 with the
// counterparty and the contract as subconto). The head organization
//
//   - borrows short-term from one counterparty (66.03, ПоступлениеНаРасчетныйСчет), accrues the
//     interest at each month's end (66.04, ОперацияБух against 91.02), pays it at each quarter's
//     end and returns half of the loan;
//   - borrows long-term from another (67.03, 67.04 the same way, nothing returned yet);
//   - lends to a third (58.03, СписаниеСРасчетногоСчета) and gets part of it back.
//
// Each loan has its contract («Договор займа № …», ВидДоговора Прочее). The pass draws from a
// stream of its own after every other pass, so no amount drawn before it changed.

// loanKinds are the subconto of the loan accounts in BP's chart: the counterparty and the contract.
func loanKinds() []string {
	return []string{"Контрагенты", "ДоговорыКонтрагентов"}
}

// loanAccounts are the chart's loan accounts the pass posts to.
var loanAccounts = []onec.Account{
	{Code: "58.03", Name: "Предоставленные займы", Type: "active", Subconto: loanKinds()},
	{Code: "66.03", Name: "Краткосрочные займы", Type: "passive", Subconto: loanKinds()},
	{Code: "66.04", Name: "Проценты по краткосрочным займам", Type: "passive", Subconto: loanKinds()},
	{Code: "67.03", Name: "Долгосрочные займы", Type: "passive", Subconto: loanKinds()},
	{Code: "67.04", Name: "Проценты по долгосрочным займам", Type: "passive", Subconto: loanKinds()},
}

// loan is one loan of the pass.
type loan struct {
	body, interest string // the accounts: 66.03 and 66.04; 58.03 and "" for a loan given
	start          time.Time
	amount         onec.Kopecks
	ratePct        int64     // the annual rate, per cent
	repay          time.Time // half returned that day; zero: nothing
	number         string    // the contract's number
}

func (r *reshaper) loans(seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, 0x10A45))
	for _, a := range loanAccounts {
		a.Subconto = slices.Clone(a.Subconto)
		r.l.Accounts = append(r.l.Accounts, a)
	}
	slices.SortStableFunc(r.l.Accounts, func(a, b onec.Account) int { return strings.Compare(a.Code, b.Code) })
	head := r.l.Organizations[0].Ref
	var parties []string
	for _, c := range r.l.Counterparties {
		if !c.DeletionMark {
			parties = append(parties, c.Ref)
		}
	}
	day := func(m time.Month, d int) time.Time { return time.Date(2025, m, d, 10, 0, 0, 0, time.UTC) }
	loans := []loan{
		{body: "66.03", interest: "66.04", start: day(2, 10), amount: onec.Kopecks(2_000_000_00 + rnd.Int64N(50)*1_000_00), ratePct: 14,
			repay: day(8, 11), number: "З-1/2025"},
		{body: "67.03", interest: "67.04", start: day(4, 15), amount: onec.Kopecks(5_000_000_00 + rnd.Int64N(50)*1_000_00), ratePct: 12,
			number: "З-2/2025"},
		{body: "58.03", start: day(3, 3), amount: onec.Kopecks(800_000_00 + rnd.Int64N(50)*1_000_00), repay: day(12, 1), number: "ЗВ-1/2025"},
	}
	for i, ln := range loans {
		cp := parties[(i*7+rnd.IntN(5))%len(parties)]
		ctr := onec.Contract{Ref: r.uuid(), OwnerRef: cp, OrganizationRef: head, Number: ln.number,
			Date: ln.start.Format(time.DateOnly), Name: "Договор займа № " + ln.number + " от " + ln.start.Format("02.01.2006"),
			Kind: "other", Currency: "RUB"}
		r.l.Contracts = append(r.l.Contracts, ctr)
		sub := []onec.Subconto{{Kind: "Контрагенты", Ref: cp}, {Kind: "ДоговорыКонтрагентов", Ref: ctr.Ref}}
		given := ln.interest == ""
		if given {
			out := r.addDoc("СписаниеСРасчетногоСчета", ln.start, head, cp, ctr.Ref, ln.amount, 0, "Выдача займа по договору № "+ln.number)
			r.bank(out, head)
			r.addMove(out, onec.Movement{AccountDr: ln.body, AccountCr: "51", SubcontoDr: sub, Amount: ln.amount, Content: "Выдача займа"})
			back := r.addDoc("ПоступлениеНаРасчетныйСчет", ln.repay, head, cp, ctr.Ref, ln.amount/2, 0, "Возврат займа по договору № "+ln.number)
			r.bank(back, head)
			r.addMove(back, onec.Movement{AccountDr: "51", AccountCr: ln.body, SubcontoCr: sub, Amount: ln.amount / 2, Content: "Возврат займа"})
			continue
		}
		in := r.addDoc("ПоступлениеНаРасчетныйСчет", ln.start, head, cp, ctr.Ref, ln.amount, 0, "Получение займа по договору № "+ln.number)
		r.bank(in, head)
		r.addMove(in, onec.Movement{AccountDr: "51", AccountCr: ln.body, SubcontoCr: sub, Amount: ln.amount, Content: "Получение займа"})
		body, owed := ln.amount, onec.Kopecks(0)
		for from := ln.start; ; {
			end := time.Date(from.Year(), from.Month()+1, 1, 18, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
			if end.After(time.Date(2026, 3, 31, 23, 0, 0, 0, time.UTC)) {
				break
			}
			if !ln.repay.IsZero() && ln.repay.Before(end) && !ln.repay.Before(from) {
				out := r.addDoc("СписаниеСРасчетногоСчета", ln.repay, head, cp, ctr.Ref, body/2, 0, "Возврат части займа по договору № "+ln.number)
				r.bank(out, head)
				r.addMove(out, onec.Movement{AccountDr: ln.body, AccountCr: "51", SubcontoDr: sub, Amount: body / 2, Content: "Возврат займа"})
				body -= body / 2
			}
			days := int64(end.Sub(from).Hours()/24) + 1
			pct := onec.Kopecks((int64(body)*ln.ratePct*days + 18_250) / 36_500)
			acc := r.addDoc("ОперацияБух", end, head, "", "", pct, 0, "Начисление процентов по договору № "+ln.number)
			r.addMove(acc, onec.Movement{AccountDr: "91.02", AccountCr: ln.interest, SubcontoCr: sub, Amount: pct, Content: "Проценты по займу"})
			owed += pct
			if end.Month()%3 == 0 {
				pay := r.addDoc("СписаниеСРасчетногоСчета", end, head, cp, ctr.Ref, owed, 0, "Уплата процентов по договору № "+ln.number)
				r.bank(pay, head)
				r.addMove(pay, onec.Movement{AccountDr: ln.interest, AccountCr: "51", SubcontoDr: sub, Amount: owed, Content: "Уплата процентов"})
				owed = 0
			}
			from = end.AddDate(0, 0, 1).Truncate(24 * time.Hour)
		}
	}
}

// bank gives a bank document the organization's account, as the generator's have.
func (r *reshaper) bank(doc int, org string) {
	for _, d := range r.l.Documents {
		if d.OrganizationRef == org && d.BankAccount != nil && d.Type == r.l.Documents[doc].Type {
			acc := *d.BankAccount
			r.l.Documents[doc].BankAccount = &acc
			return
		}
	}
}

// incomingTypes are the documents that carry the counterparty's number and date
// (НомерВходящегоДокумента, ДатаВходящегоДокумента) and BP's act prints them by.
var incomingTypes = map[string]bool{"ПоступлениеТоваровУслуг": true, "КорректировкаПоступления": true,
	"ПоступлениеНаРасчетныйСчет": true, "СписаниеСРасчетногоСчета": true}

// incoming gives the documents of incomingTypes their incoming number and date, as a real base
// has them: a supplier's invoice or UPD its number (digits, now and then with the supplier's
// prefix) and date, up to three days before ours; a bank receipt the payer's payment order
// number and its date, a day before or the same; our payment its payment order's number, one
// sequence per organization, the same day. One purchase in twenty is left without, as a base
// has them (BP then prints our number). A stream of its own, after every other pass.
func (r *reshaper) incoming(seed uint64) {
	rnd := rand.New(rand.NewPCG(seed, 0x1AC0))
	orders := map[string]int{}
	dateOnly := func(t time.Time, back int) *onec.LocalTime {
		y, m, d := t.AddDate(0, 0, -back).Date()
		return &onec.LocalTime{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
	}
	prefixes := []string{"УТ-", "А", "ТД-", "К/"}
	for i := range r.l.Documents {
		d := &r.l.Documents[i]
		if !incomingTypes[d.Type] {
			continue
		}
		switch d.Type {
		case "ПоступлениеТоваровУслуг", "КорректировкаПоступления":
			if rnd.IntN(20) == 0 {
				continue
			}
			n := strconv.Itoa(1 + rnd.IntN(4999))
			if rnd.IntN(4) == 0 {
				n = prefixes[rnd.IntN(len(prefixes))] + n
			}
			d.IncomingNumber, d.IncomingDate = n, dateOnly(d.Date.Time, rnd.IntN(4))
		case "ПоступлениеНаРасчетныйСчет":
			d.IncomingNumber, d.IncomingDate = strconv.Itoa(1+rnd.IntN(999)), dateOnly(d.Date.Time, rnd.IntN(2))
		case "СписаниеСРасчетногоСчета":
			orders[d.OrganizationRef]++
			d.IncomingNumber, d.IncomingDate = strconv.Itoa(orders[d.OrganizationRef]), dateOnly(d.Date.Time, 0)
		}
	}
}
