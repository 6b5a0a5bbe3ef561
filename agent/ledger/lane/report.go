package lane

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

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

// Breakdowns of the turnover sheet (Filters.Detail).
const (
	DetailCounterparty = "counterparty"
	DetailContract     = "contract"
)

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
	// Detail is the sheet's breakdown: DetailCounterparty, DetailContract, or "" (accounts).
	Detail string `json:"detail,omitempty"`
	// Red are the lines whose balance runs against their account's kind, in Russian.
	Red []string `json:"red_balances,omitempty"`
	// OffBalance are the off-balance accounts' lines: outside the total, as in 1C.
	OffBalance []Row `json:"off_balance,omitempty"`
	// Postings is how many postings of the card 1C returned; Cut is set when they stop at the
	// row limit before the period's end.
	Postings int  `json:"postings,omitempty"`
	Cut      bool `json:"cut,omitempty"`
}

// report runs the turnover sheet or the account card.
func (l *Lane) report(ctx context.Context, res *Result, cats *catalogs, r Recipe, f Filters, a anchors) Result {
	dbg := &res.Debug
	from, okFrom := parseDay(f.PeriodFrom)
	to, okTo := parseDay(f.PeriodTo)
	today := l.today()
	switch {
	case !okFrom || !okTo:
		return res.limited(ReasonMissingFilters, askFor(r, []string{FilterPeriodFrom}))
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
	params := map[string]any{
		"НачалоПериода": onec.PeriodStartParam(from), "КонецПериода": onec.PeriodEndParam(to),
		"Организация": refParam(a.org, refOrg), "СчетКод": f.Account, "СчетМаска": f.Account + ".%",
		"Контрагент": refParam(a.party, refParty),
	}
	if f.Account == "" {
		params["СчетМаска"] = "%" // the whole chart
	}
	if r.Intent == IntentAccountCard {
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
func (l *Lane) truncated(raw []map[string]any) bool { return len(raw) >= l.opts.MaxRows }

// --- the turnover sheet ---

// sheetAccount is a row of address.turnover_sheet.by_account: a sub-account as the register
// keeps it, its balances split by cell.
type sheetAccount struct {
	code       string
	offBalance bool
	t          Turnover
}

// sheetTurnover reads the six sums of a sheet row.
func sheetTurnover(r map[string]any) (Turnover, bool) {
	var t Turnover
	ok := true
	for _, c := range []struct {
		key string
		dst *onec.Kopecks
	}{
		{"НачальныйОстатокДт", &t.OpenDebit}, {"НачальныйОстатокКт", &t.OpenCredit}, {"ОборотДт", &t.Debit},
		{"ОборотКт", &t.Credit}, {"КонечныйОстатокДт", &t.CloseDebit}, {"КонечныйОстатокКт", &t.CloseCredit},
	} {
		v, good := money(r[c.key])
		*c.dst, ok = v, ok && good
	}
	return t, ok
}

// expandedAccount reports the accounts whose balance the sheet expands, as BP's preset does:
// 60, 62, 76 and their sub-accounts.
func expandedAccount(code string) bool {
	for _, root := range []string{"60", "62", "76"} {
		if accountMatches(code, root) {
			return true
		}
	}
	return false
}

// sheet runs the turnover sheet: by account, or one account by counterparty or contract.
func (l *Lane) sheet(ctx context.Context, res *Result, cats *catalogs, f Filters, a anchors, params map[string]any) Result {
	detail := f.Detail
	if a.party.Ref != "" && f.Account != "" && detail == "" {
		detail = DetailContract // «осв по 62 по Гранит»: that counterparty's contracts
	}
	if a.party.Ref != "" && f.Account == "" {
		detail = "" // «осв по Гранит»: the accounts of that counterparty
	}
	if detail != "" && f.Account == "" {
		return res.limited(ReasonMissingFilters, "Чтобы показать ОСВ по контрагентам или договорам, уточните счёт — например, 60, 62 или 76.")
	}
	if detail != "" && !cats.partySubconto(f.Account) {
		return res.limited(ReasonUnsupported, fmt.Sprintf("У счёта %s нет субконто «Контрагенты», поэтому ОСВ по контрагентам по нему не строится. "+
			"Могу показать ОСВ по счёту %s без разреза.", f.Account, f.Account))
	}
	raw, err := l.exec(ctx, &res.Debug, qSheetByAccount, params)
	if err != nil {
		return l.failed(ctx, res, qSheetByAccount, err)
	}
	var accounts []sheetAccount
	drops := map[string]int{}
	for _, r := range raw {
		t, ok := sheetTurnover(r)
		code := str(r["Счет"])
		if !ok || code == "" {
			drops[DropUnknownShape]++
			continue
		}
		accounts = append(accounts, sheetAccount{code: code, offBalance: boolOf(r["Забалансовый"]), t: t})
	}
	res.Debug.MaterializationDropReason = dominantDrop(drops)
	rep := &Report{Detail: detail}
	rows, total := sheetLines(accounts, f.Account, cats, rep)
	fetched := len(raw)
	if l.truncated(raw) {
		res.Limitations = append(res.Limitations, fmt.Sprintf("Счетов с оборотами больше %d — предела одного запроса к 1С: ведомость неполная, уточните счёт.", l.opts.MaxRows))
		res.Debug.RuntimeReadiness = ReadyLiveLimited
	} else if f.Account == "" && a.party.Ref == "" &&
		(total.OpenDebit != total.OpenCredit || total.Debit != total.Credit || total.CloseDebit != total.CloseCredit) {
		res.Limitations = append(res.Limitations, "Итоги по дебету и кредиту не сходятся — такого при двойной записи быть не должно; проверьте ведомость в 1С.")
	}
	if len(rows) == 0 && len(rep.OffBalance) == 0 {
		return l.empty(res, fetched, sheetEmptyMessage(res, f))
	}
	rep.Total = total
	if detail != "" {
		id, cut := qSheetByCounterparty, false
		if detail == DetailContract {
			id = qSheetByContract
		}
		raw, err := l.exec(ctx, &res.Debug, id, params)
		if err != nil {
			return l.failed(ctx, res, id, err)
		}
		fetched += len(raw)
		if l.truncated(raw) {
			cut = true
			what := map[string]string{DetailCounterparty: "контрагентов", DetailContract: "договоров"}[detail]
			res.Limitations = append(res.Limitations, fmt.Sprintf("В ответе 1С первые %d %s по алфавиту — это предел одного запроса; "+
				"итог по счёту полный, из ведомости по счетам.", l.opts.MaxRows, what))
			res.Debug.RuntimeReadiness = ReadyLiveLimited
		}
		rows = partyLines(raw, f.Account, detail, cats, rep)
		if !cut {
			var sum Turnover
			for _, r := range rows {
				sum.add(*r.Sheet)
			}
			if sum.OpenNet() != total.OpenNet() || sum.Debit != total.Debit || sum.Credit != total.Credit {
				res.Limitations = append(res.Limitations, "Строки по контрагентам не сходятся с итогом по счёту — проверьте ведомость в 1С.")
			}
		}
	}
	res.Report = rep
	res.All = rows
	shown := rows
	if f.Account == "" && a.party.Ref == "" { // the whole chart: the synthetic accounts, the sub-accounts in the export
		shown = slices.DeleteFunc(slices.Clone(rows), func(r Row) bool { return r.Level > 0 })
	}
	if len(shown) > f.Limit {
		shown = shown[:f.Limit]
	}
	res.Rows = shown
	res.Summary = Summary{Rows: len(rows), TotalAmount: total.CloseNet(), Currency: "RUB"}
	l.matched(res, fetched, len(rows))
	return *res
}

// sheetEmptyMessage says that the period has nothing for the sheet.
func sheetEmptyMessage(res *Result, f Filters) string {
	what := "ни по одному счёту"
	if f.Account != "" {
		what = "по счёту " + f.Account
	}
	if res.Party != "" {
		what += " по " + res.Party
	}
	return fmt.Sprintf("За %s – %s %s нет ни остатков, ни оборотов.", ruDay(res.From), ruDay(res.To), what)
}

// hasAccount reports whether the chart has the account or a sub-account of it: a synthetic
// account («90») is asked about by its sub-accounts' figures even where the chart lists only them.
func (c *catalogs) hasAccount(code string) bool {
	for have := range c.accounts {
		if accountMatches(have, code) {
			return true
		}
	}
	return false
}

// partySubconto reports whether an account (or a sub-account of it) carries Контрагенты.
func (c *catalogs) partySubconto(token string) bool {
	for code, a := range c.accounts {
		if accountMatches(code, token) && a.partySubconto {
			return true
		}
	}
	return false
}

// kindOf is an account's kind from the chart; a synthetic account the chart lacks takes its
// sub-accounts' kind when they share one, else it is active-passive.
func (c *catalogs) kindOf(code string, subs []string) string {
	if a, ok := c.accounts[code]; ok && a.kind != "" {
		return a.kind
	}
	kind := ""
	for _, s := range subs {
		k := c.accounts[s].kind
		if k == "" || kind != "" && k != kind {
			return kindBoth
		}
		kind = k
	}
	if kind == "" {
		return kindBoth
	}
	return kind
}

// sheetLines builds the sheet's account lines: per synthetic account (or per the account
// asked for) its line, then its sub-accounts' lines (Level 1); off-balance accounts go to
// rep.OffBalance. total adds the synthetic lines.
func sheetLines(accounts []sheetAccount, token string, cats *catalogs, rep *Report) (rows []Row, total Turnover) {
	group := func(code string) string {
		if token != "" {
			return token
		}
		top, _, _ := strings.Cut(code, ".")
		return top
	}
	var order []string
	subs := map[string][]sheetAccount{}
	for _, a := range accounts {
		g := group(a.code)
		if _, seen := subs[g]; !seen {
			order = append(order, g)
		}
		subs[g] = append(subs[g], a)
	}
	slices.Sort(order)
	for _, g := range order {
		var codes []string
		var sum Turnover
		off := false
		for _, a := range subs[g] {
			codes = append(codes, a.code)
			sum.add(a.t)
			off = off || a.offBalance
		}
		leafOnly := len(codes) == 1 && codes[0] == g // the account has no sub-accounts
		line := func(code string, t Turnover, level int, leaves []string) Row {
			if expandedAccount(code) {
				rep.Expanded = true
			} else {
				kind := cats.kindOf(code, leaves)
				t = t.collapsed(kind)
				if level > 0 || leafOnly { // a red sub-account is named once, not again as its synthetic account
					rep.Red = append(rep.Red, redBalances(code, kind, t)...)
				}
			}
			return Row{Account: code, Name: accountName(code, cats), Sheet: &t, Debit: t.Debit, Credit: t.Credit, Amount: t.CloseNet(), Level: level}
		}
		head := line(g, sum, 0, codes)
		if off {
			rep.OffBalance = append(rep.OffBalance, head)
			continue
		}
		total.add(*head.Sheet)
		rows = append(rows, head)
		if leafOnly {
			continue
		}
		for _, a := range subs[g] {
			if !a.t.zero() {
				rows = append(rows, line(a.code, a.t, 1, nil))
			}
		}
	}
	return rows, total
}

// redBalances names a line's balances that run against the account's kind.
func redBalances(code, kind string, t Turnover) []string {
	var out []string
	for _, b := range []struct {
		when          string
		debit, credit onec.Kopecks
	}{{"на начало", t.OpenDebit, t.OpenCredit}, {"на конец", t.CloseDebit, t.CloseCredit}} {
		switch {
		case kind == kindActive && b.debit < 0:
			out = append(out, fmt.Sprintf("%s %s: дебет %s (активный счёт с кредитовым остатком)", code, b.when, b.debit))
		case kind == kindPassive && b.credit < 0:
			out = append(out, fmt.Sprintf("%s %s: кредит %s (пассивный счёт с дебетовым остатком)", code, b.when, b.credit))
		}
	}
	return out
}

// standardNames are the names of the synthetic accounts of the chart of accounts (Приказ
// Минфина № 94н), for a base whose chart lacks the synthetic account itself.
var standardNames = map[string]string{
	"01": "Основные средства", "02": "Амортизация основных средств", "08": "Вложения во внеоборотные активы",
	"10": "Материалы", "19": "НДС по приобретенным ценностям", "20": "Основное производство", "26": "Общехозяйственные расходы",
	"41": "Товары", "44": "Расходы на продажу", "50": "Касса", "51": "Расчетные счета", "52": "Валютные счета",
	"57": "Переводы в пути", "58": "Финансовые вложения", "60": "Расчеты с поставщиками и подрядчиками",
	"62": "Расчеты с покупателями и заказчиками", "66": "Расчеты по краткосрочным кредитам и займам",
	"67": "Расчеты по долгосрочным кредитам и займам", "68": "Расчеты по налогам и сборам",
	"69": "Расчеты по социальному страхованию и обеспечению", "70": "Расчеты с персоналом по оплате труда",
	"71": "Расчеты с подотчетными лицами", "76": "Расчеты с разными дебиторами и кредиторами", "80": "Уставный капитал",
	"84": "Нераспределенная прибыль (непокрытый убыток)", "90": "Продажи", "91": "Прочие доходы и расходы",
	"97": "Расходы будущих периодов", "99": "Прибыли и убытки",
}

// accountName is the chart's name of an account, or the standard name of a synthetic one.
func accountName(code string, cats *catalogs) string {
	if a, ok := cats.accounts[code]; ok && a.name != "" {
		return a.name
	}
	return standardNames[code]
}

// partyLines reads the sheet by counterparty or contract. For 60, 62 and 76 a line is BP's
// expanded balance (each contract of each sub-account on its side); for another account the
// counterparty's balance is collapsed and placed by the account's kind. Largest closing
// balances first.
func partyLines(raw []map[string]any, token, detail string, cats *catalogs, rep *Report) []Row {
	kind := cats.kindOf(token, nil)
	var rows []Row
	for _, r := range raw {
		t, ok := sheetTurnover(r)
		if !ok || t.zero() {
			continue
		}
		if expandedAccount(token) {
			rep.Expanded = true
		} else {
			t = t.collapsed(kind)
		}
		party, _ := refOf(r["Контрагент"])
		row := Row{Account: token, Party: party.Name, PartyID: party.ID, Name: party.Name, Sheet: &t, Debit: t.Debit, Credit: t.Credit,
			Amount: t.CloseNet()}
		if party.ID == "" {
			row.Name, row.Party = "без контрагента", "без контрагента"
		}
		if detail == DetailContract {
			deal, _ := refOf(r["Договор"])
			row.Deal, row.DealID = deal.Name, deal.ID
			if deal.ID == "" {
				row.Deal = "без договора"
			}
			row.Name = row.Party + ", " + row.Deal
		}
		rows = append(rows, row)
	}
	abs := func(k onec.Kopecks) onec.Kopecks { return max(k, -k) }
	slices.SortStableFunc(rows, func(x, y Row) int {
		return cmp.Or(
			cmp.Compare(abs(y.Sheet.CloseDebit)+abs(y.Sheet.CloseCredit), abs(x.Sheet.CloseDebit)+abs(x.Sheet.CloseCredit)),
			cmp.Compare(y.Sheet.Debit+y.Sheet.Credit, x.Sheet.Debit+x.Sheet.Credit),
			cmp.Compare(x.Name, y.Name),
		)
	})
	return rows
}

// --- the account card ---

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

// sideAmount writes a collapsed balance on its side: «Дт 1 234,56 ₽», «Кт 78,00 ₽», «0,00 ₽».
func sideAmount(net onec.Kopecks) string {
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
