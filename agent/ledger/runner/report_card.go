package runner

import (
	"context"
	"fmt"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// The account card (see report.go): the postings of the period with their running balance,
// and the balances from 1C.
// card runs the account card: its balances and its postings.
func (l *Lane) card(ctx context.Context, res *Result, cats *catalogs, f recipe.Filters, a anchors, params onec.Params) Result {
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
	bal, err := l.exec(ctx, &res.Debug, qCardBalances, params)
	if err != nil {
		return l.failed(ctx, res, qCardBalances, err)
	}
	if bal.Fetched != 1 {
		return l.failed(ctx, res, qCardBalances, fmt.Errorf("%d rows, want one", bal.Fetched))
	}
	if len(bal.CardTotals) != 1 {
		return l.failed(ctx, res, qCardBalances, fmt.Errorf("unreadable sums (columns %v)", bal.Columns))
	}
	sums := bal.CardTotals[0]
	open, dt, kt, closing := sums.Opening, sums.Debit, sums.Credit, sums.Closing
	q, err := l.exec(ctx, &res.Debug, qCardMovements, params)
	if err != nil {
		return l.failed(ctx, res, qCardMovements, err)
	}
	fetched := q.Fetched + 1
	// A posting the card cannot read is a row of unknown shape, whatever onec found missing.
	drops := map[string]int{}
	for _, n := range q.Dropped {
		drops[DropUnknownShape] += n
	}
	postings := q.Movements
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
		onDt := accountMatches(p.AccountDr, f.Account) && (a.party.Ref == "" || p.PartyDr.UUID == a.party.Ref)
		onKt := accountMatches(p.AccountCr, f.Account) && (a.party.Ref == "" || p.PartyCr.UUID == a.party.Ref)
		row := Row{Ref: p.Registrar.UUID, Name: p.Registrar.Presentation, Type: p.Registrar.Kind(), Number: p.Number, Date: day(p.Period)}
		own, other := p.PartyDr, p.PartyCr
		switch {
		case onDt && onKt: // within the account: 62.02 against 62.01
			row.Account, row.Corr = p.AccountDr, p.AccountCr
			row.Debit, row.Credit = p.Amount, p.Amount
		case onDt:
			row.Account, row.Corr, row.Debit = p.AccountDr, p.AccountCr, p.Amount
		case onKt:
			row.Account, row.Corr, row.Credit = p.AccountCr, p.AccountDr, p.Amount
			own, other = p.PartyCr, p.PartyDr
		default:
			continue // 1C's condition already holds; a row off the account is no posting of the card
		}
		if own.UUID == "" { // the counterparty of a bank or goods account is on the other side
			own = other
		}
		row.Party, row.PartyID = own.Presentation, own.UUID
		if qty := postingQuantity(p, onDt, onKt); qty != nil {
			row.Qty, row.Item = qty, p.ItemDr.Presentation
			if !onDt {
				row.Item = p.ItemCr.Presentation
			}
		}
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
	case l.truncated(q) && (sumDt != dt || sumKt != kt):
		rep.Cut = true
		res.Limitations = append(res.Limitations, fmt.Sprintf("Проводок за период больше %d — предела одного запроса к 1С: показаны первые %d. "+
			"Обороты и сальдо на конец — по всем проводкам, из остатков и оборотов 1С.", l.opts.MaxRows, len(rows)))
		res.Debug.RuntimeReadiness = ReadyLiveLimited
	case sumDt != dt || sumKt != kt || running != closing:
		res.Limitations = append(res.Limitations, "Проводки карточки не сходятся с оборотами и остатками 1С — проверьте карточку в 1С; итоги взяты из остатков.")
	}
	for _, row := range rows {
		if row.Qty != nil {
			rep.Quantities++
		}
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

// postingQuantity is a card posting's quantity on the account's side: what comes in on the
// debit, what leaves (negative) on the credit; within the account (Дт and Кт both) the two
// cancel. nil where the side keeps no quantity.
func postingQuantity(p onec.MovementRow, onDt, onKt bool) *Qty {
	switch {
	case onDt && onKt:
		if !p.QtyKeptDr || !p.QtyKeptCr {
			return nil
		}
		return &Qty{Value: p.QtyDr - p.QtyCr, Unit: p.UnitDr}
	case onDt && p.QtyKeptDr:
		return &Qty{Value: p.QtyDr, Unit: p.UnitDr}
	case onKt && p.QtyKeptCr:
		return &Qty{Value: -p.QtyCr, Unit: p.UnitCr}
	}
	return nil
}
