package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The counterparty card («карточка контрагента», «что у нас с бетой», «досье на ромашку»): one
// counterparty at a date, put together from the whitelisted templates of the recipes that
// already answer each part — no template of its own:
//
//   - its settlements by account and contract: address.open_contracts.by_asof with the
//     counterparty (Остатки of 60, 62, 76 per account and contract). A line's net Дт − Кт on 62
//     or 76 is their debt to us, on 60 an advance we paid them (or what we overpaid); a credit
//     one on 60 or 76 is our debt to them, on 62 their advance to us (or their overpayment) —
//     BP's expanded balance by Контрагенты and Договоры, as «Задолженность покупателей» and
//     «Задолженность поставщикам» split it. The net is the sum of the lines;
//   - its overdue on each side: address.aging.receivables and address.aging.payables with the
//     counterparty, by contract, in the intervals of Options.AgingBounds (aging.go);
//   - its latest bank operations: address.bank_ops.by_counterparty up to the date, the posted
//     receipts from it and payments to it, the newest first;
//   - its latest documents: address.documents.by_counterparty up to the date, deletion-marked
//     ones never, unposted ones marked;
//   - its open contracts with their payment terms: the contracts of the first part, their
//     УстановленСрокОплаты and СрокОплаты from catalog.contracts.
//
// Each part is cited with the recipe it comes from. A part 1C failed to answer fails the card:
// a card without one of its parts would read as complete.

// CardShown bounds the card's lists: the latest payments each way and the latest documents.
const (
	CardPayments  = 3
	CardDocuments = 5
)

// PartyCard is what a counterparty card states besides its rows (the settlement lines).
type PartyCard struct {
	// Ref is the counterparty's reference; INN its ИНН from the catalog.
	Ref string `json:"ref"`
	INN string `json:"inn,omitempty"`
	// TheyOwe is their debt to us (debit lines of 62 and 76), Advanced what we paid them ahead
	// (debit lines of 60: advances and overpayments); WeOwe our debt to them (credit lines of 60
	// and 76), Prepaid what they paid us ahead (credit lines of 62). Net is Дт − Кт of every
	// line: positive in our favour.
	TheyOwe  onec.Kopecks `json:"they_owe"`
	Advanced onec.Kopecks `json:"advanced,omitempty"`
	WeOwe    onec.Kopecks `json:"we_owe"`
	Prepaid  onec.Kopecks `json:"prepaid,omitempty"`
	Net      onec.Kopecks `json:"net"`
	// Receivable and Payable are the aging of each side; nil where there is no debt on it.
	Receivable *CardAging `json:"receivable_aging,omitempty"`
	Payable    *CardAging `json:"payable_aging,omitempty"`
	Bounds     []int      `json:"bounds"`
	// In are the latest posted receipts from them, Out our latest posted payments to them,
	// the newest first (at most CardPayments each); InCount and OutCount count all of them.
	In       []Row `json:"payments_in,omitempty"`
	Out      []Row `json:"payments_out,omitempty"`
	InCount  int   `json:"payments_in_count,omitempty"`
	OutCount int   `json:"payments_out_count,omitempty"`
	// Contracts are the contracts with a balance, with their terms.
	Contracts []CardContract `json:"contracts,omitempty"`
	// Documents are the latest documents (at most CardDocuments), newest first; DocCount counts
	// all of them over DocsFrom…AsOf (DocsFrom zero: the whole history).
	Documents []Row     `json:"documents,omitempty"`
	DocCount  int       `json:"documents_count,omitempty"`
	DocsFrom  time.Time `json:"-"`
	PaysFrom  time.Time `json:"-"`
	// Sources name each part's recipe for its footnote (CardSources).
	Sources CardSources `json:"sources"`
	// DefaultDays is the term the aging applies to a contract without its own.
	DefaultDays int `json:"default_payment_days"`
}

// CardSources are the footnote titles of a card's parts; "" for a part with nothing to cite.
type CardSources struct {
	Balances, Receivable, Payable, Payments, Documents string
}

// CardAging is one side's debt by days overdue (the aging recipe's total for the counterparty)
// and its rows by contract.
type CardAging struct {
	Debt      onec.Kopecks   `json:"debt"`
	Overdue   onec.Kopecks   `json:"overdue"`
	Totals    []onec.Kopecks `json:"totals"`
	Earliest  string         `json:"earliest_due,omitempty"`
	Documents int            `json:"documents"`
	Rows      []Row          `json:"rows"`
}

// CardContract is an open contract of the card: its balance and its payment term.
type CardContract struct {
	Ref, Name, Number string
	Date              string // YYYY-MM-DD
	// Net is its balance over its accounts (Дт − Кт: positive in our favour); Accounts the
	// accounts it is on.
	Net      onec.Kopecks
	Accounts []string
	TermSet  bool
	TermDays int
	Currency string // the currency of its lines, when they keep one
}

// partyCard runs the card's parts for the counterparty a names at the date of f.
func (l *Lane) partyCard(ctx context.Context, res *Result, cats *catalogs, f recipe.Filters, a anchors) Result {
	dbg := &res.Debug
	asOf, _ := parseDay(f.AsOfDate)
	res.AsOf = asOf
	res.Account = "60, 62, 76"
	dbg.AccountTokenNormalized = []string{"60", "62", "76"}
	dbg.AccountScopeMatchStrategy = "code_or_subaccount"
	pc := &PartyCard{Ref: a.party.Ref, INN: a.party.INN, Bounds: slices.Clone(l.agingBounds()), DefaultDays: l.opts.DefaultPaymentDays}
	fetched := 0

	// Settlements per account and contract.
	open, _ := recipe.For(recipe.OpenContracts)
	q, err := l.exec(ctx, dbg, open.ID, onec.Params{"НаДату": boundary(asOf), "Организация": refParam(a.org, refOrg),
		"Контрагент": refParam(a.party, refParty)})
	if err != nil {
		return l.failed(ctx, res, open.ID, err)
	}
	if l.truncated(q) {
		return l.cut(res)
	}
	fetched += q.Fetched
	lines := cardLines(q.Balances, a.party.Ref)
	for _, x := range lines {
		switch n := x.Amount; {
		case n > 0 && underAccount(x.Account, "60"):
			pc.Advanced += n
		case n > 0:
			pc.TheyOwe += n
		case n < 0 && underAccount(x.Account, "62"):
			pc.Prepaid -= n
		case n < 0:
			pc.WeOwe -= n
		}
		pc.Net += x.Amount
	}
	pc.Contracts = cardContracts(lines, cats)
	if len(lines) > 0 {
		pc.Sources.Balances = l.partTitle(res, recipe.OpenContracts)
	}

	// The overdue of each side, by contract.
	for _, side := range []recipe.Name{recipe.ReceivablesAging, recipe.PayablesAging} {
		sub, rc := l.part(res, side)
		sub.Party = res.Party
		got := l.aging(ctx, &sub, rc, recipe.Filters{AsOfDate: f.AsOfDate, Limit: recipe.MaxLimit}, a)
		dbg.QueriesSent = append(dbg.QueriesSent, sub.Debug.QueriesSent...)
		switch {
		case got.ResultMode == Limited && got.LimitedReason == ReasonEmptyMatch:
			continue
		case got.ResultMode == Limited:
			return l.partFailed(res, got)
		}
		fetched += got.Debug.RowsFetched
		ca := &CardAging{Debt: got.Summary.TotalAmount, Overdue: got.Aging.Overdue, Totals: got.Aging.Totals,
			Earliest: got.Aging.Earliest, Documents: got.Aging.Documents, Rows: got.All}
		pc.Bounds = got.Aging.Bounds
		if side == recipe.ReceivablesAging {
			pc.Receivable, pc.Sources.Receivable = ca, got.SourceTitle()
		} else {
			pc.Payable, pc.Sources.Payable = ca, got.SourceTitle()
		}
	}

	// The latest payments each way and the latest documents, up to the date: the whole history
	// first, a shorter window when that passes one answer of 1C.
	pays, from, err := l.latest(ctx, res, cats, recipe.BankOpsByParty, f, a)
	if err != nil {
		return l.partFailed(res, pays)
	}
	pc.PaysFrom = from
	for _, x := range pays.All {
		if x.Posted != nil && !*x.Posted {
			continue // an unposted payment moved nothing
		}
		switch x.Type {
		case "ПоступлениеНаРасчетныйСчет":
			pc.InCount++
			if len(pc.In) < CardPayments {
				pc.In = append(pc.In, x)
			}
		case "СписаниеСРасчетногоСчета":
			pc.OutCount++
			if len(pc.Out) < CardPayments {
				pc.Out = append(pc.Out, x)
			}
		}
	}
	if pc.InCount+pc.OutCount > 0 {
		pc.Sources.Payments = pays.SourceTitle()
	}
	fetched += pays.Debug.RowsFetched
	docs, from, err := l.latest(ctx, res, cats, recipe.DocumentsByParty, f, a)
	if err != nil {
		return l.partFailed(res, docs)
	}
	pc.DocsFrom, pc.DocCount = from, len(docs.All)
	pc.Documents = docs.All[:min(len(docs.All), CardDocuments)]
	if len(pc.Documents) > 0 {
		pc.Sources.Documents = docs.SourceTitle()
	}
	fetched += docs.Debug.RowsFetched

	if len(lines) == 0 && pc.Receivable == nil && pc.Payable == nil && pc.InCount+pc.OutCount == 0 && pc.DocCount == 0 {
		return l.empty(res, fetched, fmt.Sprintf("На %s по %s в 1С нет ни расчётов, ни документов.", ruDay(asOf), res.Party))
	}
	res.PartyCard = pc
	res.Rows, res.All = lines, lines
	res.Summary = Summary{Rows: len(lines), TotalAmount: pc.Net, Currency: "RUB"}
	l.matched(res, fetched, len(lines))
	res.ResultMode = FactualList // one counterparty: its card is whole, whatever its lines
	dbg.ResponseType = res.ResultMode
	return *res
}

// underAccount reports whether code is token or one of its sub-accounts.
func underAccount(code, token string) bool {
	return code == token || strings.HasPrefix(code, token+".")
}

// cardLines are the counterparty's settlement lines per account and contract (and currency),
// their net in Amount, Дт and Кт as 1C summed them; zero nets left out.
func cardLines(rows []onec.BalanceRow, party string) []Row {
	var out []Row
	for _, r := range rows {
		if r.Counterparty.UUID != party || r.Contract.UUID == "" {
			continue
		}
		net := r.Debit - r.Credit
		cur := currencySums{}
		cur.add(r)
		if net == 0 && len(cur.list(false)) == 0 {
			continue
		}
		out = append(out, Row{Ref: r.Contract.UUID, Name: r.Contract.Presentation, Account: r.Account, Debit: r.Debit, Credit: r.Credit,
			Amount: net, Party: r.Counterparty.Presentation, PartyID: r.Counterparty.UUID, Deal: r.Contract.Presentation, DealID: r.Contract.UUID,
			Currencies: cur.list(false)})
	}
	slices.SortStableFunc(out, func(x, y Row) int {
		return cmp.Or(cmp.Compare(x.Deal, y.Deal), cmp.Compare(x.Account, y.Account))
	})
	return out
}

// cardContracts are the contracts of the lines, with their balance and their term from the
// catalog, the largest balance first.
func cardContracts(lines []Row, cats *catalogs) []CardContract {
	by := map[string]*CardContract{}
	var order []string
	for _, x := range lines {
		c := by[x.DealID]
		if c == nil {
			e := entityByRef(cats.contracts, x.DealID)
			c = &CardContract{Ref: x.DealID, Name: x.Deal, Number: e.Number, Date: e.Date, TermSet: e.TermSet, TermDays: e.TermDays}
			by[x.DealID] = c
			order = append(order, x.DealID)
		}
		c.Net += x.Amount
		c.Accounts = append(c.Accounts, x.Account)
		if len(x.Currencies) > 0 {
			c.Currency = x.Currencies[0].Currency
		}
	}
	out := make([]CardContract, 0, len(order))
	for _, id := range order {
		out = append(out, *by[id])
	}
	abs := func(k onec.Kopecks) onec.Kopecks { return max(k, -k) }
	slices.SortStableFunc(out, func(x, y CardContract) int {
		return cmp.Or(cmp.Compare(abs(y.Net), abs(x.Net)), cmp.Compare(x.Name, y.Name))
	})
	return out
}

// part is a result of recipe name about the card's counterparty, organization and base: what
// runs one part of the card.
func (l *Lane) part(res *Result, name recipe.Name) (Result, recipe.Spec) {
	rc, _ := recipe.For(name)
	return Result{QuestionMode: res.QuestionMode, Intent: name, RecipeID: rc.ID, Source: res.Source, Organization: res.Organization,
		OrgDefaulted: res.OrgDefaulted, OrgRef: res.OrgRef, Divisions: res.Divisions, Party: res.Party,
		Summary: Summary{Currency: "RUB"}, Limitations: []string{}, AsOf: res.AsOf}, rc
}

// partTitle is the footnote title of a part of the card read with recipe name.
func (l *Lane) partTitle(res *Result, name recipe.Name) string {
	p, _ := l.part(res, name)
	return p.SourceTitle()
}

// latest runs a documents recipe of the counterparty up to the card's date, newest first: over
// the whole history, else (past one answer of 1C) over the last year, then the last quarter.
// from is the window's start, zero for the whole history; err is set when 1C failed (the
// result then says so).
func (l *Lane) latest(ctx context.Context, res *Result, cats *catalogs, name recipe.Name, f recipe.Filters, a anchors) (Result, time.Time, error) {
	asOf, _ := parseDay(f.AsOfDate)
	var got Result
	for _, from := range []time.Time{{}, asOf.AddDate(-1, 0, 0), asOf.AddDate(0, -3, 0)} {
		sub, rc := l.part(res, name)
		sub.AsOf = time.Time{}
		g := recipe.Filters{PeriodTo: f.AsOfDate, Limit: recipe.MaxLimit, Sort: "date_desc"}
		if !from.IsZero() {
			g.PeriodFrom = from.Format(time.DateOnly)
		} else {
			g.PeriodFrom = "2000-01-01"
		}
		got = l.execute(ctx, &sub, cats, rc, g, a)
		res.Debug.QueriesSent = append(res.Debug.QueriesSent, sub.Debug.QueriesSent...)
		switch {
		case got.ResultMode == Limited && got.LimitedReason == ReasonVisibilityGap:
			continue // cut at the toolkit's limit: a shorter window
		case got.ResultMode == Limited && got.LimitedReason == ReasonEmptyMatch:
			got.All = nil
			return got, from, nil
		case got.ResultMode == Limited:
			return got, from, fmt.Errorf("%s: %s", rc.ID, got.LimitedReason)
		}
		slices.SortStableFunc(got.All, func(x, y Row) int {
			return cmp.Or(cmp.Compare(y.Date, x.Date), cmp.Compare(y.Number, x.Number), cmp.Compare(x.Ref, y.Ref))
		})
		return got, from, nil
	}
	return got, time.Time{}, fmt.Errorf("%s: cut at %d rows over a quarter", name, l.opts.MaxRows)
}

// cut ends a card whose part passed one answer of 1C: its figures would be partial.
func (l *Lane) cut(res *Result) Result {
	res.Debug.RuntimeReadiness = ReadyLiveLimited
	return res.limited(ReasonVisibilityGap, fmt.Sprintf("Расчёты с %s — больше %s одного ответа 1С: карточка по обрезанной выборке была бы неверной. "+
		"Спросите долг по договору или документы за период.", res.Party, ru.Count(l.opts.MaxRows, "строки", "строк", "строк")))
}

// partFailed ends a card whose part 1C did not answer: the part's own reason.
func (l *Lane) partFailed(res *Result, part Result) Result {
	res.Debug.MCPCallStatus, res.Debug.MCPCallStatusLegacy = StageError, StageError
	res.Debug.MatchFailureStage, res.Debug.MatchFailureReason = "execute", string(part.Intent)+": "+part.LimitedReason
	if part.LimitedReason == ReasonVisibilityGap {
		return l.cut(res)
	}
	return res.limited(cmp.Or(part.LimitedReason, ReasonExecutionError), cmp.Or(part.Message, sourceDown(l.src.Name())))
}
