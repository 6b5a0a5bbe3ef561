package runner

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// The turnover sheet (see report.go): the accounts' lines, the synthetic accounts, the total,
// and one account's breakdown by counterparty or contract.
// sheetAccount is a row of address.turnover_sheet.by_account: a sub-account as the register
// keeps it, its balances split by cell.
type sheetAccount struct {
	code       string
	offBalance bool
	t          Turnover
}

// sheetTurnover is the six sums of a sheet row.
func sheetTurnover(r onec.SheetRow) Turnover {
	return Turnover{OpenDebit: r.OpenDebit, OpenCredit: r.OpenCredit, Debit: r.Debit, Credit: r.Credit,
		CloseDebit: r.CloseDebit, CloseCredit: r.CloseCredit}
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

// subcontoExpanded reports the accounts whose balance BP's preset «развёрнутое сальдо» expands
// by all their subconto — taxes and contributions by kind of payment, staff by employee: 68, 69,
// 70, 71, 73.03 and their sub-accounts (68.04.1, 68.10 …). 1C sums the per-subconto balances by
// sign (address.turnover_sheet.by_account), so the lane shows them as they come.
func subcontoExpanded(code string) bool {
	for _, root := range []string{"68", "69", "70", "71", "73.03"} {
		if accountMatches(code, root) {
			return true
		}
	}
	return false
}

// bothSides: a balance of the line is on both sides, which only an expanded balance gives.
func (t Turnover) bothSides() bool {
	return t.OpenDebit != 0 && t.OpenCredit != 0 || t.CloseDebit != 0 && t.CloseCredit != 0
}

// sheet runs the turnover sheet: by account, or one account by counterparty or contract.
func (l *Lane) sheet(ctx context.Context, res *Result, cats *catalogs, f recipe.Filters, a anchors, params onec.Params) Result {
	detail := f.Detail
	if a.party.Ref != "" && f.Account != "" && detail == "" {
		detail = recipe.DetailContract // «осв по 62 по Гранит»: that counterparty's contracts
	}
	if a.contract.Ref != "" { // «осв по 62 по договору П-77/2024»: that contract's line only
		if f.Account == "" {
			return res.limited(ReasonMissingFilters, fmt.Sprintf("ОСВ по договору %s строится по счёту расчётов — уточните счёт: 60, 62 или 76.", md.Escape(a.contract.Name)))
		}
		detail = recipe.DetailContract
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
	q, err := l.exec(ctx, &res.Debug, qSheetByAccount, params)
	if err != nil {
		return l.failed(ctx, res, qSheetByAccount, err)
	}
	var accounts []sheetAccount
	drops := maps.Clone(q.Dropped)
	if drops == nil {
		drops = map[string]int{}
	}
	for _, r := range q.Sheet {
		if r.Account == "" {
			drops[DropUnknownShape]++
			continue
		}
		accounts = append(accounts, sheetAccount{code: r.Account, offBalance: r.OffBalance, t: sheetTurnover(r)})
	}
	res.Debug.MaterializationDropReason = dominantDrop(drops)
	rep := &Report{Detail: detail}
	rows, total := sheetLines(accounts, f.Account, cats, rep)
	fetched := q.Fetched
	if l.truncated(q) {
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
		if detail == recipe.DetailContract {
			id = qSheetByContract
		}
		q, err := l.exec(ctx, &res.Debug, id, params)
		if err != nil {
			return l.failed(ctx, res, id, err)
		}
		fetched += q.Fetched
		if l.truncated(q) {
			cut = true
			what := map[string]string{recipe.DetailCounterparty: "контрагентов", recipe.DetailContract: "договоров"}[detail]
			res.Limitations = append(res.Limitations, fmt.Sprintf("В ответе 1С первые %d %s по алфавиту — это предел одного запроса; "+
				"итог по счёту полный, из ведомости по счетам.", l.opts.MaxRows, what))
			res.Debug.RuntimeReadiness = ReadyLiveLimited
		}
		rows = partyLines(q.Sheet, f.Account, detail, cats, rep)
		if a.contract.Ref != "" {
			rows = slices.DeleteFunc(rows, func(r Row) bool { return r.DealID != a.contract.Ref })
			if len(rows) == 0 {
				return l.empty(res, fetched, fmt.Sprintf("За %s – %s по счёту %s по договору %s нет ни остатков, ни оборотов.",
					ruDay(res.From), ruDay(res.To), f.Account, md.Escape(a.contract.Name)))
			}
			var sum Turnover
			for _, r := range rows {
				sum.add(*r.Sheet)
			}
			rep.Total, total, cut = sum, sum, true // the total is the contract's; no check against the account's
			res.Notes = append(res.Notes, "Итог — по одному договору ("+a.contract.Name+"), не по всему счёту.")
		}
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
func sheetEmptyMessage(res *Result, f recipe.Filters) string {
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
			switch {
			case expandedAccount(code):
				rep.Expanded = true
			case subcontoExpanded(code):
				rep.ExpandedSubconto = rep.ExpandedSubconto || t.bothSides()
			default:
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
func partyLines(lines []onec.SheetRow, token, detail string, cats *catalogs, rep *Report) []Row {
	kind := cats.kindOf(token, nil)
	var rows []Row
	for _, r := range lines {
		t := sheetTurnover(r)
		if t.zero() {
			continue
		}
		switch {
		case expandedAccount(token):
			rep.Expanded = true
		case subcontoExpanded(token):
			rep.ExpandedSubconto = rep.ExpandedSubconto || t.bothSides()
		default:
			t = t.collapsed(kind)
		}
		party := r.Counterparty
		row := Row{Account: token, Party: party.Presentation, PartyID: party.UUID, Name: party.Presentation, Sheet: &t, Debit: t.Debit, Credit: t.Credit,
			Amount: t.CloseNet()}
		if party.UUID == "" {
			row.Name, row.Party = "без контрагента", "без контрагента"
		}
		if detail == recipe.DetailContract {
			deal := r.Contract
			row.Deal, row.DealID = deal.Presentation, deal.UUID
			if deal.UUID == "" {
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
