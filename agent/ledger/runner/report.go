package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The reports of a period: the turnover sheet (оборотно-сальдовая ведомость, «ОСВ»,
// «оборотка») and the account card (карточка счёта). Each runs several whitelisted templates
// (integrations/onec/queries_reports.go), all aggregated in 1C.
//
// The sheet follows BP 3.0's report ОборотноСальдоваяВедомость with its preset «с развёрнутым
// сальдо»: the balances of 60, 62 and 76 (and their sub-accounts) are expanded by counterparty
// and contract — the debit column sums the debit balances of every account, counterparty and
// contract, the credit column the credit ones — and a synthetic account's line sums its
// sub-accounts' lines. Every other account's balance is collapsed and placed as 1C places it by
// the account's kind: an active account's balance is always debit (negative when the account
// runs «red»), a passive account's always credit, an active-passive one's on its side. The
// total line adds the accounts' lines, so over the whole chart its debit and credit columns are
// equal (double entry). The card is BP's КарточкаСчета: the opening balance, every posting with
// its running balance (collapsed, on its side), the turnovers and the closing balance; the
// closing balance comes from 1C's balances, never from the sum of the postings shown.

// Template IDs of the reports (integrations/onec/queries_reports.go).
const (
	qSheetByAccount      = "address.turnover_sheet.by_account"
	qSheetByCounterparty = "address.turnover_sheet.by_counterparty"
	qSheetByContract     = "address.turnover_sheet.by_contract"
	qCardMovements       = "address.account_card.movements"
	qCardBalances        = "address.account_card.balances"
)

// Account kinds as catalog.accounts returns them.
const (
	kindActive  = "Активный"
	kindPassive = "Пассивный"
	kindBoth    = "АктивноПассивный"
)

// Turnover is one line of a turnover sheet: the opening balance, the period's turnovers and the
// closing balance, each balance as its debit and its credit part.
type Turnover struct {
	OpenDebit   onec.Kopecks `json:"opening_debit"`
	OpenCredit  onec.Kopecks `json:"opening_credit"`
	Debit       onec.Kopecks `json:"debit"`
	Credit      onec.Kopecks `json:"credit"`
	CloseDebit  onec.Kopecks `json:"closing_debit"`
	CloseCredit onec.Kopecks `json:"closing_credit"`
}

// OpenNet is the opening balance collapsed: debit minus credit.
func (t Turnover) OpenNet() onec.Kopecks { return t.OpenDebit - t.OpenCredit }

// CloseNet is the closing balance collapsed: debit minus credit.
func (t Turnover) CloseNet() onec.Kopecks { return t.CloseDebit - t.CloseCredit }

func (t Turnover) zero() bool { return t == Turnover{} }

func (t *Turnover) add(u Turnover) {
	t.OpenDebit += u.OpenDebit
	t.OpenCredit += u.OpenCredit
	t.Debit += u.Debit
	t.Credit += u.Credit
	t.CloseDebit += u.CloseDebit
	t.CloseCredit += u.CloseCredit
}

// collapsed places the line's net balances by the account's kind.
func (t Turnover) collapsed(kind string) Turnover {
	out := Turnover{Debit: t.Debit, Credit: t.Credit}
	out.OpenDebit, out.OpenCredit = place(kind, t.OpenNet())
	out.CloseDebit, out.CloseCredit = place(kind, t.CloseNet())
	return out
}

// place puts a net balance where 1C shows it: always debit for an active account, always
// credit for a passive one (either may be negative), on its side for an active-passive one.
func place(kind string, net onec.Kopecks) (debit, credit onec.Kopecks) {
	switch {
	case kind == kindActive:
		return net, 0
	case kind == kindPassive:
		return 0, -net
	case net > 0:
		return net, 0
	}
	return 0, -net
}

// Report is what a turnover sheet or an account card states besides its rows.
type Report struct {
	// Total is the sheet's total line; for the card, its opening balance, turnovers and closing
	// balance, the balances collapsed on their side.
	Total Turnover `json:"total"`
	// Expanded is set when a line of the sheet is BP's expanded balance (60, 62, 76).
	Expanded bool `json:"expanded_balance,omitempty"`
	// ExpandedSubconto is set when a line of 68, 69, 70, 71 or 73.03 has balances on both sides:
	// BP's expanded balance by subconto (employees, kinds of payment), not the netted account.
	ExpandedSubconto bool `json:"expanded_subconto,omitempty"`
	// Detail is the sheet's breakdown: recipe.DetailCounterparty, recipe.DetailContract, or "" (accounts).
	Detail string `json:"detail,omitempty"`
	// Red are the lines whose balance runs against their account's kind, in Russian.
	Red []string `json:"red_balances,omitempty"`
	// OffBalance are the off-balance accounts' lines: outside the total, as in 1C.
	OffBalance []Row `json:"off_balance,omitempty"`
	// Postings is how many postings of the card 1C returned; Cut is set when they stop at the
	// row limit before the period's end.
	Postings int  `json:"postings,omitempty"`
	Cut      bool `json:"cut,omitempty"`
	// Quantities is how many of the card's postings carry a quantity: its account keeps quantity
	// accounting (41.01, 10.01), and each posting says its item and what of it came or went
	// (report_card.go). The card adds no quantities up: over the account they would be of items
	// in different units.
	Quantities int `json:"postings_with_quantity,omitempty"`
}

// report runs the turnover sheet or the account card.
func (l *Lane) report(ctx context.Context, res *Result, cats *catalogs, r recipe.Spec, f recipe.Filters, a anchors) Result {
	dbg := &res.Debug
	from, okFrom := parseDay(f.PeriodFrom)
	to, okTo := parseDay(f.PeriodTo)
	today := l.today()
	switch {
	case !okFrom || !okTo:
		return res.limited(ReasonMissingFilters, askFor(r, []string{recipe.FilterPeriodFrom}))
	case from.After(to):
		return res.limited(ReasonMissingFilters, fmt.Sprintf("Начало периода %s позже его конца %s. Уточните период.", ruDay(from), ruDay(to)))
	case from.After(today):
		return res.limited(ReasonMissingFilters, fmt.Sprintf("Период с %s ещё не начался. Уточните период — например, «за март».", ruDay(from)))
	case to.After(today):
		res.Notes = append(res.Notes, fmt.Sprintf("Конец периода %s ещё не наступил: обороты — по документам, проведённым на сегодня.", ruDay(to)))
	}
	res.From, res.To = from, to
	res.Account = f.Account
	dbg.AccountTokenRaw = f.Account
	dbg.AccountScopeMatchStrategy = "code_or_subaccount"
	if f.Account != "" {
		dbg.AccountTokenNormalized = []string{f.Account}
	}
	params := onec.Params{
		"НачалоПериода": onec.PeriodStartParam(from), "КонецПериода": onec.PeriodEndParam(to),
		"Организация": refParam(a.org, refOrg), "СчетКод": f.Account, "СчетМаска": f.Account + ".%",
		"Контрагент": refParam(a.party, refParty),
	}
	if f.Account == "" {
		params["СчетМаска"] = "%" // the whole chart
	}
	if r.Name == recipe.AccountCard {
		return l.card(ctx, res, cats, f, a, params)
	}
	return l.sheet(ctx, res, cats, f, a, params)
}

// failed ends a report whose query 1C did not answer.
func (l *Lane) failed(ctx context.Context, res *Result, id string, err error) Result {
	l.opts.Logger.WarnContext(ctx, "1C report failed", "template", id, "err", err)
	dbg := &res.Debug
	dbg.MCPCallStatus, dbg.MCPCallStatusLegacy = StageError, StageError
	dbg.MatchFailureStage, dbg.MatchFailureReason = "execute", err.Error()
	dbg.RuntimeReadiness = ReadyUnknown
	return res.limited(ReasonExecutionError, sourceDown(l.src.Name()))
}

// matched fills the result's summary and debug counters of a report with rows.
func (l *Lane) matched(res *Result, fetched, rows int) {
	dbg := &res.Debug
	dbg.RowsFetched, dbg.RawRowsReceived, dbg.RowsAfterAccountScope = fetched, fetched, fetched
	dbg.RowsMaterialized, dbg.RowsAfterRecipeFilter, dbg.RowsMatched = rows, rows, rows
	dbg.MCPCallStatus = StageMatched
	dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
	res.ResultMode = FactualList
	if len(res.Rows) > listMax {
		res.ResultMode = FactualSummary
	}
	dbg.ResponseType = res.ResultMode
	dbg.Limitations = res.Limitations
}

// empty ends a report with nothing to show: no balance and no movement.
func (l *Lane) empty(res *Result, fetched int, message string) Result {
	dbg := &res.Debug
	dbg.RowsFetched, dbg.RawRowsReceived = fetched, fetched
	dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNoRawRows, "execute", "no balances or movements"
	dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
	return res.limited(ReasonEmptyMatch, message)
}

// truncated says that 1C's answer reached the row limit.
func (l *Lane) truncated(q *onec.Result) bool { return q.Fetched >= l.opts.MaxRows }

// SideAmount writes a collapsed balance on its side: «Дт 1 234,56 ₽», «Кт 78,00 ₽», «0,00 ₽».
func SideAmount(net onec.Kopecks) string {
	switch {
	case net > 0:
		return "Дт " + net.String()
	case net < 0:
		return "Кт " + (-net).String()
	}
	return onec.Kopecks(0).String()
}

// periodWords is «за 01.03.2026 – 31.03.2026», or «за 15.03.2026» for one day.
func periodWords(from, to time.Time) string {
	if from.Equal(to) {
		return "за " + ruDay(from)
	}
	return fmt.Sprintf("за %s – %s", ruDay(from), ruDay(to))
}

// postingsWord is «12 проводок».
func postingsWord(n int) string {
	return ru.Count(n, "проводка", "проводки", "проводок")
}
