package lane

import (
	"context"
	"fmt"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/onec"
)

// The account card (see report.go): the postings of the period with their running balance,
// and the balances from 1C.
// cardPosting is a row of address.account_card.movements.
type cardPosting struct {
	period               time.Time
	registrar            Ref
	number               string
	accountDr, accountCr string
	partyDr, partyCr     Ref
	amount               onec.Kopecks
}

// card runs the account card: its balances and its postings.
func (l *Lane) card(ctx context.Context, res *Result, cats *catalogs, f Filters, a anchors, params map[string]any) Result {
	if f.Contract != "" { // the card's templates select by account and counterparty only
		what := "контрагенту"
		switch {
		case a.party.Name != "":
			what = a.party.Name
		case res.ContractParty != "":
			what = res.ContractParty
		}
		return res.limited(ReasonUnsupported, fmt.Sprintf("Карточку счёта по отдельному договору не строю — только по счёту или по контрагенту. "+
			"Могу показать карточку счёта %s по %s или ОСВ по счёту %s по договору за период.", f.Account, md.Escape(what), f.Account))
	}
	if a.party.Ref != "" && !cats.partySubconto(f.Account) {
		return res.limited(ReasonUnsupported, fmt.Sprintf("У счёта %s нет субконто «Контрагенты», поэтому карточку по %s 1С не строит. "+
			"Могу показать всю карточку счёта %s или банковские операции контрагента за период.", f.Account, a.party.Name, f.Account))
	}
	rawBal, err := l.exec(ctx, &res.Debug, qCardBalances, params)
	if err != nil {
		return l.failed(ctx, res, qCardBalances, err)
	}
	var open, dt, kt, closing onec.Kopecks
	if len(rawBal) != 1 {
		return l.failed(ctx, res, qCardBalances, fmt.Errorf("%d rows, want one", len(rawBal)))
	}
	var ok [4]bool
	open, ok[0] = money(rawBal[0]["НачальноеСальдо"])
	dt, ok[1] = money(rawBal[0]["ОборотДт"])
	kt, ok[2] = money(rawBal[0]["ОборотКт"])
	closing, ok[3] = money(rawBal[0]["КонечноеСальдо"])
	if ok != [4]bool{true, true, true, true} {
		return l.failed(ctx, res, qCardBalances, fmt.Errorf("unreadable sums %v", rawBal[0]))
	}
	raw, err := l.exec(ctx, &res.Debug, qCardMovements, params)
	if err != nil {
		return l.failed(ctx, res, qCardMovements, err)
	}
	fetched := len(raw) + 1
	var postings []cardPosting
	drops := map[string]int{}
	for _, r := range raw {
		p := cardPosting{number: str(r["РегистраторНомер"]), accountDr: str(r["СчетДт"]), accountCr: str(r["СчетКт"])}
		var okPeriod, okReg, okAmount bool
		p.period, okPeriod = dateOf(r["Период"])
		p.registrar, okReg = refOf(r["Регистратор"])
		p.amount, okAmount = money(r["Сумма"])
		if !okPeriod || !okReg || !okAmount {
			drops[DropUnknownShape]++
			continue
		}
		p.partyDr, _ = refOf(r["КонтрагентДт"])
		p.partyCr, _ = refOf(r["КонтрагентКт"])
		postings = append(postings, p)
	}
	res.Debug.MaterializationDropReason = dominantDrop(drops)
	if open == 0 && dt == 0 && kt == 0 && len(postings) == 0 {
		of := ""
		if a.party.Ref != "" {
			of = " по " + a.party.Name
		}
		return l.empty(res, fetched, fmt.Sprintf("За %s – %s по счёту %s%s нет ни остатков, ни проводок.", ruDay(res.From), ruDay(res.To), f.Account, of))
	}
	rows := make([]Row, 0, len(postings))
	running := open
	var sumDt, sumKt onec.Kopecks
	for _, p := range postings {
		onDt := accountMatches(p.accountDr, f.Account) && (a.party.Ref == "" || p.partyDr.ID == a.party.Ref)
		onKt := accountMatches(p.accountCr, f.Account) && (a.party.Ref == "" || p.partyCr.ID == a.party.Ref)
		row := Row{Ref: p.registrar.ID, Name: p.registrar.Name, Type: p.registrar.Kind(), Number: p.number, Date: day(p.period)}
		own, other := p.partyDr, p.partyCr
		switch {
		case onDt && onKt: // within the account: 62.02 against 62.01
			row.Account, row.Corr = p.accountDr, p.accountCr
			row.Debit, row.Credit = p.amount, p.amount
		case onDt:
			row.Account, row.Corr, row.Debit = p.accountDr, p.accountCr, p.amount
		case onKt:
			row.Account, row.Corr, row.Credit = p.accountCr, p.accountDr, p.amount
			own, other = p.partyCr, p.partyDr
		default:
			continue // 1C's condition already holds; a row off the account is no posting of the card
		}
		if own.ID == "" { // the counterparty of a bank or goods account is on the other side
			own = other
		}
		row.Party, row.PartyID = own.Name, own.ID
		running += row.Debit - row.Credit
		sumDt += row.Debit
		sumKt += row.Credit
		row.Amount = running
		rows = append(rows, row)
	}
	rep := &Report{Postings: len(rows)}
	rep.Total.OpenDebit, rep.Total.OpenCredit = place(kindBoth, open)
	rep.Total.Debit, rep.Total.Credit = dt, kt
	rep.Total.CloseDebit, rep.Total.CloseCredit = place(kindBoth, closing)
	switch {
	case l.truncated(raw) && (sumDt != dt || sumKt != kt):
		rep.Cut = true
		res.Limitations = append(res.Limitations, fmt.Sprintf("Проводок за период больше %d — предела одного запроса к 1С: показаны первые %d. "+
			"Обороты и сальдо на конец — по всем проводкам, из остатков и оборотов 1С.", l.opts.MaxRows, len(rows)))
		res.Debug.RuntimeReadiness = ReadyLiveLimited
	case sumDt != dt || sumKt != kt || running != closing:
		res.Limitations = append(res.Limitations, "Проводки карточки не сходятся с оборотами и остатками 1С — проверьте карточку в 1С; итоги взяты из остатков.")
	}
	res.Report = rep
	res.All = rows
	shown := rows
	if len(shown) > f.Limit {
		shown = shown[:f.Limit]
	}
	res.Rows = shown
	res.Summary = Summary{Rows: len(rows), TotalAmount: closing, Currency: "RUB"}
	l.matched(res, fetched, len(rows))
	return *res
}
