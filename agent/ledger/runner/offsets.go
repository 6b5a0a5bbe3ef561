package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Offset candidates («взаимозачёт», «кого можно зачесть», «встречные долги на 31.03»): the
// counterparties that at a date are both our debtor and our creditor, and what could be netted.
// The template (integrations/onec/queries_offsets.go) returns, per account and contract, the
// settlement lines of the counterparties that have both a debit line of 62 or 76 and a credit
// line of 60 or 76 (in roubles, no advance sub-account); here they are paired:
//
//   - their debt to us on a contract is its debit lines of 62 and 76 (not 62.02 and its twins);
//     our debt to them its credit lines of 60 and 76 (not 60.02 and its twins);
//   - a pair is a contract where they owe us and one where we owe them: it could net the
//     smaller of the two. One contract may be in several pairs, so a counterparty nets at most
//     the smaller of its two sides' totals, not the sum of its pairs;
//   - advances (60.02 debit, 62.02 credit), overpayments (a credit line of 62.01, a debit line
//     of 60.01) and currency lines are shown apart: none is a debt to net as it stands.
//
// An offset is a fact only when both parties agree it — BP posts it with «Корректировка долга»,
// «Зачет взаимных требований», on an act both sign; the answer says so.

// Offsets is what an offset answer states besides its rows (the pairs).
type Offsets struct {
	Parties []OffsetParty `json:"counterparties"`
	// Total is what all of them could net (each its smaller side); Receivable and Payable their
	// sides' totals.
	Total      onec.Kopecks `json:"total"`
	Receivable onec.Kopecks `json:"receivable"`
	Payable    onec.Kopecks `json:"payable"`
}

// OffsetParty is one counterparty on both sides.
type OffsetParty struct {
	Ref, Name string
	// Receivable is their debt to us, Payable ours to them; Netted the smaller of the two.
	Receivable, Payable, Netted onec.Kopecks
	// Advanced are the advances we paid them and our overpayments (debit lines of 60), Prepaid
	// theirs to us (credit lines of 62): shown, never netted.
	Advanced, Prepaid onec.Kopecks
	// Currency counts the lines in a currency, which are not paired.
	Currency int
	Pairs    int
}

// OffsetPair is one row of the answer: a contract where they owe us and one where we owe them.
type OffsetPair struct {
	Receivable OffsetSide   `json:"receivable"`
	Payable    OffsetSide   `json:"payable"`
	Netted     onec.Kopecks `json:"netted"`
}

// OffsetSide is one contract of a pair: its accounts and its debt on that side.
type OffsetSide struct {
	Ref, Name string
	Accounts  []string
	Amount    onec.Kopecks
}

// offsets runs the offset template at the date of f, for one counterparty when a names one.
func (l *Lane) offsets(ctx context.Context, res *Result, f recipe.Filters, a anchors) Result {
	dbg := &res.Debug
	asOf, _ := parseDay(f.AsOfDate)
	res.AsOf = asOf
	res.Account = "60, 62, 76"
	dbg.AccountTokenNormalized = []string{"60", "62", "76"}
	dbg.AccountScopeMatchStrategy = "code_or_subaccount"
	rc, _ := recipe.For(recipe.OffsetCandidates)
	q, err := l.exec(ctx, dbg, rc.ID, onec.Params{"НаДату": boundary(asOf), "Организация": refParam(a.org, refOrg),
		"Контрагент": refParam(a.party, refParty)})
	if err != nil {
		return l.failed(ctx, res, rc.ID, err)
	}
	if l.truncated(q) {
		dbg.RuntimeReadiness = ReadyLiveLimited
		return res.limited(ReasonVisibilityGap, fmt.Sprintf("Результат обрезан на %s: встречных расчётов больше — это предел одного запроса к 1С. "+
			"Итоги по обрезанной выборке были бы неверными, поэтому я их не показываю. Спросите по контрагенту.",
			ru.Count(l.opts.MaxRows, "строку", "строки", "строк")))
	}
	pairs, of := offsetPairs(q.Balances, a.party.Ref)
	l.matchedRows(res, q.Fetched, len(q.Balances), len(pairs))
	if len(pairs) == 0 {
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNoRawRows, "execute", "no counterparty on both sides"
		dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
		return res.limited(ReasonEmptyMatch, offsetsEmpty(res))
	}
	res.Offsets = of
	res.Summary = Summary{Rows: len(pairs), TotalAmount: of.Total, Currency: "RUB"}
	res.All = pairs
	res.Rows = pairs[:min(len(pairs), f.Limit)]
	res.ResultMode = FactualList
	if len(pairs) > listMax {
		res.ResultMode = FactualSummary
	}
	dbg.ResponseType = res.ResultMode
	return *res
}

// offsetsEmpty says that nobody (or the counterparty asked) is on both sides at the date.
func offsetsEmpty(res *Result) string {
	when := ruDay(res.AsOf)
	if res.Party != "" {
		return fmt.Sprintf("На %s встречных долгов с %s нет: одновременно долга перед нами (62, 76) и нашего долга перед ним (60, 76) в 1С нет — зачитывать нечего.", when, res.Party)
	}
	return fmt.Sprintf("На %s встречных долгов нет: ни один контрагент не должен нам (62, 76) и одновременно не ждёт оплаты от нас (60, 76) — зачитывать нечего.", when)
}

// offsetPairs pairs the lines of each counterparty on both sides (party: only that one, when
// not ""), the counterparty that nets most first.
func offsetPairs(rows []onec.BalanceRow, party string) ([]Row, *Offsets) {
	type contract struct {
		ref, name string
		accounts  []string
		amount    onec.Kopecks
	}
	type acc struct {
		party     OffsetParty
		recv, pay []*contract
	}
	by := map[string]*acc{}
	var order []string
	add := func(list *[]*contract, r onec.BalanceRow, amount onec.Kopecks) {
		for _, c := range *list {
			if c.ref == r.Contract.UUID {
				c.amount += amount
				if !slices.Contains(c.accounts, r.Account) {
					c.accounts = append(c.accounts, r.Account)
				}
				return
			}
		}
		*list = append(*list, &contract{ref: r.Contract.UUID, name: r.Contract.Presentation, accounts: []string{r.Account}, amount: amount})
	}
	for _, r := range rows {
		if r.Counterparty.UUID == "" || r.Contract.UUID == "" || party != "" && r.Counterparty.UUID != party {
			continue
		}
		x := by[r.Counterparty.UUID]
		if x == nil {
			x = &acc{party: OffsetParty{Ref: r.Counterparty.UUID, Name: r.Counterparty.Presentation}}
			by[r.Counterparty.UUID] = x
			order = append(order, r.Counterparty.UUID)
		}
		net := r.Debit - r.Credit
		switch {
		case net == 0:
		case r.Currency != "":
			x.party.Currency++
		case onec.AdvanceAccount(r.Account) && net > 0, net > 0 && underAccount(r.Account, "60"):
			x.party.Advanced += net
		case onec.AdvanceAccount(r.Account), net < 0 && underAccount(r.Account, "62"):
			x.party.Prepaid -= net
		case net > 0: // 62, 76: they owe us
			add(&x.recv, r, net)
		default: // 60, 76: we owe them
			add(&x.pay, r, -net)
		}
	}
	of := &Offsets{}
	var out []Row
	for _, id := range order {
		x := by[id]
		if len(x.recv) == 0 || len(x.pay) == 0 {
			continue
		}
		p := &x.party
		for _, c := range x.recv {
			p.Receivable += c.amount
		}
		for _, c := range x.pay {
			p.Payable += c.amount
		}
		p.Netted = min(p.Receivable, p.Payable)
		for _, rc := range x.recv {
			for _, pc := range x.pay {
				pair := &OffsetPair{Receivable: OffsetSide{Ref: rc.ref, Name: rc.name, Accounts: rc.accounts, Amount: rc.amount},
					Payable: OffsetSide{Ref: pc.ref, Name: pc.name, Accounts: pc.accounts, Amount: pc.amount}, Netted: min(rc.amount, pc.amount)}
				out = append(out, Row{Ref: p.Ref + ":" + rc.ref + ":" + pc.ref, Name: p.Name, Party: p.Name, PartyID: p.Ref,
					Deal: rc.name, DealID: rc.ref, Amount: pair.Netted, Debit: rc.amount, Credit: pc.amount, Offset: pair})
				p.Pairs++
			}
		}
		of.Parties = append(of.Parties, *p)
		of.Total += p.Netted
		of.Receivable += p.Receivable
		of.Payable += p.Payable
	}
	slices.SortStableFunc(of.Parties, func(x, y OffsetParty) int {
		return cmp.Or(cmp.Compare(y.Netted, x.Netted), cmp.Compare(x.Name, y.Name), cmp.Compare(x.Ref, y.Ref))
	})
	rank := map[string]int{}
	for i, p := range of.Parties {
		rank[p.Ref] = i
	}
	slices.SortStableFunc(out, func(x, y Row) int {
		return cmp.Or(cmp.Compare(rank[x.PartyID], rank[y.PartyID]), cmp.Compare(y.Amount, x.Amount), cmp.Compare(x.Ref, y.Ref))
	})
	return out, of
}

// Party is the counterparty of a row of the offsets.
func (o *Offsets) Party(ref string) (OffsetParty, bool) {
	for _, p := range o.Parties {
		if p.Ref == ref {
			return p, true
		}
	}
	return OffsetParty{}, false
}
