package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// listMax is the largest result rendered in full (FACTUAL_LIST); longer ones become a
// FACTUAL_SUMMARY with the top rows.
const listMax = 15

const (
	refOrg      = "СправочникСсылка.Организации"
	refParty    = "СправочникСсылка.Контрагенты"
	refContract = "СправочникСсылка.ДоговорыКонтрагентов"
)

// anchors are the resolved references bound into the query parameters.
type anchors struct {
	org, party, contract recipe.Entity
	bank                 recipe.BankAccount
}

// resolveAnchors turns organization, counterparty and contract text into references. stop is
// true when the result is already decided (ambiguity, absence).
func (l *Lane) resolveAnchors(res *Result, cats *catalogs, r recipe.Spec, f recipe.Filters) (anchors, bool) {
	dbg := &res.Debug
	var a anchors
	note := func(rs Resolution) {
		dbg.AnchorType, dbg.AnchorValueRaw, dbg.AnchorValueResolved = rs.AnchorType, rs.Raw, rs.Resolved
		dbg.ResolverConfidence, dbg.AmbiguityCount = rs.Confidence, rs.AmbiguityCount
	}
	words := map[string][3]string{ // ambiguous list, "not found" noun, hint
		"организаций":  {"организаций. Выберите нужную:", "организацию", "Проверьте название нашей организации."},
		"контрагентов": {"контрагентов. Выберите нужного:", "контрагента", "Проверьте название или укажите ИНН."},
		"договоров":    {"договоров. Выберите нужный:", "договор", "Проверьте номер договора, например П-15/2025."},
	}
	stopWith := func(rs Resolution, what string) (anchors, bool) {
		note(rs)
		w := words[what]
		if rs.Ambiguous() {
			res.AnchorType, res.Candidates = rs.AnchorType, rs.Candidates
			*res = res.limited(ReasonMissingAnchor, fmt.Sprintf("Под «%s» подходит несколько %s", rs.Raw, w[0]))
			return a, true
		}
		if inn, ok := strings.CutPrefix(rs.Raw, "ИНН "); ok && what == "контрагентов" {
			*res = res.limited(ReasonMissingAnchor, fmt.Sprintf("Контрагента с ИНН %s в справочнике 1С нет. Проверьте ИНН или назовите контрагента.", inn))
			return a, true
		}
		*res = res.limited(ReasonMissingAnchor, fmt.Sprintf("Не нашёл в 1С %s «%s». %s", w[1], rs.Raw, w[2]))
		return a, true
	}
	uses := func(key string) bool { return slices.Contains(r.Required, key) || slices.Contains(r.Optional, key) }
	if f.Organization != "" {
		rs := ResolveOrganization(f.Organization, cats.orgs)
		if !rs.Found() {
			return stopWith(rs, "организаций")
		}
		a.org = entityByRef(cats.orgs, rs.ResolvedRef)
	} else if cats.defaultOrg.Ref != "" {
		a.org, res.OrgDefaulted = cats.defaultOrg, true
	} else if f.Contract == "" || !uses(recipe.FilterContract) {
		return askOrganization(res, cats) // the contract, when named, gives its own
	}
	res.Organization = a.org.Name
	defer func() {
		if slices.ContainsFunc(cats.orgs, func(e recipe.Entity) bool { return e.Ref == a.org.Ref }) {
			res.OrgRef = a.org.Ref // else no drilldown: its data could not name the organization
		}
	}()
	if uses(recipe.FilterCounterparty) && (f.Counterparty != "" || f.INN != "") {
		rs := ResolveCounterparty(f.Counterparty, f.INN, cats.parties)
		note(rs)
		if !rs.Found() {
			return stopWith(rs, "контрагентов")
		}
		a.party = entityByRef(cats.parties, rs.ResolvedRef)
		res.Party = a.party.Name
	}
	if uses(recipe.FilterContract) && f.Contract != "" {
		rs := ResolveContract(f.Contract, cats.contracts, a.party.Ref)
		note(rs)
		if !rs.Found() {
			return stopWith(rs, "договоров")
		}
		a.contract = entityByRef(cats.contracts, rs.ResolvedRef)
		res.Contract, res.ContractNumber, res.ContractDate = a.contract.Name, a.contract.Number, a.contract.Date
		res.ContractParty = entityByRef(cats.parties, a.contract.OwnerRef).Name
		// A contract belongs to one of our organizations: unless the user named another, that
		// organization is the scope (not the default one, which would find nothing).
		if f.Organization == "" && a.contract.OrgRef != "" && a.contract.OrgRef != a.org.Ref {
			a.org, res.OrgDefaulted = entityByRef(cats.orgs, a.contract.OrgRef), false
			res.Organization = a.org.Name
		}
	}
	if a.org.Ref == "" { // a contract without an organization, and no main one
		return askOrganization(res, cats)
	}
	res.Divisions = divisionsOf(a.org, cats.orgs)
	return a, false
}

// divisionsOf names the обособленные подразделения of org (those whose ГоловнаяОрганизация it
// is): every template's organization condition covers them on a question about the head, as
// BP's reports do with «Включать обособленные подразделения» (onec's orgCondition), so the
// answer says so. A division has none: a question naming it covers only it.
func divisionsOf(org recipe.Entity, orgs []recipe.Entity) []string {
	var out []string
	for _, o := range orgs {
		if o.HeadRef != "" && o.HeadRef == org.Ref && o.Ref != org.Ref {
			out = append(out, o.Name)
		}
	}
	return out
}

// askOrganization ends a run that names no organization when the base has several and none is
// the main one (Options.Organization): picking one would answer for the wrong company.
func askOrganization(res *Result, cats *catalogs) (anchors, bool) {
	res.AnchorType, res.Candidates = "organization", slices.Clip(cats.orgs[:min(len(cats.orgs), resolveMaxCandidates)])
	res.Debug.AnchorType = "organization"
	*res = res.limited(ReasonMissingAnchor, "В 1С несколько организаций, и основная не задана. Уточните, по какой организации показать:")
	return anchors{}, true
}

func entityByRef(list []recipe.Entity, ref string) recipe.Entity {
	for _, e := range list {
		if e.Ref == ref {
			return e
		}
	}
	return recipe.Entity{Ref: ref}
}

// refParam is the parameter form of an anchor: its reference, or nil (JSON null, 1C's Null)
// when it is absent.
func refParam(e recipe.Entity, typ string) any {
	if e.Ref == "" {
		return nil
	}
	return onec.Ref{UUID: e.Ref, Type: typ}.Param()
}

// execute runs the recipe's template and the runtime stages.
func (l *Lane) execute(ctx context.Context, res *Result, cats *catalogs, r recipe.Spec, f recipe.Filters, a anchors) Result {
	if r.Name == recipe.TurnoverSheet || r.Name == recipe.AccountCard {
		return l.report(ctx, res, cats, r, f, a) // report.go
	}
	if r.Name == recipe.ReceivablesAging || r.Name == recipe.PayablesAging {
		return l.aging(ctx, res, r, f, a) // aging.go
	}
	if r.Name == recipe.ReconciliationAct {
		return l.act(ctx, res, cats, r, f, a) // act.go
	}
	switch r.Name {
	case recipe.CounterpartyCard:
		return l.partyCard(ctx, res, cats, f, a) // party_card.go
	case recipe.OffsetCandidates:
		return l.offsets(ctx, res, f, a) // offsets.go
	case recipe.StockBalance:
		return l.stock(ctx, res, cats, f, a) // stock.go
	}
	dbg := &res.Debug
	params := onec.Params{"Организация": refParam(a.org, refOrg)}
	asOf, _ := parseDay(f.AsOfDate)
	res.AsOf = asOf
	var tokens []string
	var fields []string
	switch r.Name {
	case recipe.Receivables, recipe.Payables, recipe.AccountBalance, recipe.DocumentsFormBalance:
		token := f.Account
		if token == "" {
			token = map[recipe.Name]string{recipe.Receivables: "62", recipe.Payables: "60"}[r.Name]
		}
		tokens = []string{token}
		params["НаДату"], params["СчетКод"], params["СчетМаска"] = boundary(asOf), token, token+".%"
		fields = []string{"Счет"}
		if r.Name == recipe.DocumentsFormBalance {
			params["Контрагент"], params["Договор"] = refParam(a.party, refParty), refParam(a.contract, refContract)
		}
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract, recipe.OpenContracts:
		params["НаДату"] = boundary(asOf)
		params["Контрагент"] = refParam(a.party, refParty)
		tokens = []string{"60", "62"}
		if r.Name == recipe.OpenContracts {
			tokens = []string{"60", "62", "76"}
		} else {
			params["Договор"] = refParam(a.contract, refContract)
		}
		if f.Account != "" {
			tokens = []string{f.Account}
		}
		fields = []string{"Счет"}
	case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
		params["НачалоПериода"], params["КонецПериода"] = nil, nil
		if from, ok := parseDay(f.PeriodFrom); ok {
			params["НачалоПериода"] = from.Format("2006-01-02T15:04:05")
			res.From = from
		}
		if to, ok := parseDay(f.PeriodTo); ok {
			params["КонецПериода"] = to.Format("2006-01-02") + "T23:59:59"
			res.To = to
		}
		if r.Name == recipe.DocumentsByContract {
			params["Договор"] = refParam(a.contract, refContract)
		} else {
			params["Контрагент"] = refParam(a.party, refParty)
		}
		if r.Name != recipe.BankOpsByParty {
			params["ТипДокумента"] = f.DocumentType
		}
	}
	if len(tokens) > 0 {
		res.Account = strings.Join(tokens, ", ")
	}
	dbg.AccountTokenRaw = f.Account
	dbg.AccountTokenNormalized = tokens
	dbg.AccountScopeFieldsChecked = fields
	if len(tokens) > 0 {
		dbg.AccountScopeMatchStrategy = "code_or_subaccount"
	} else {
		dbg.AccountScopeMatchStrategy = "not_applicable"
	}

	q, err := l.exec(ctx, dbg, r.ID, params)
	if err != nil {
		l.opts.Logger.WarnContext(ctx, "1C recipe failed", "recipe", r.ID, "err", err)
		dbg.MCPCallStatus, dbg.MCPCallStatusLegacy = StageError, StageError
		dbg.MatchFailureStage, dbg.MatchFailureReason = "execute", err.Error()
		dbg.RuntimeReadiness = ReadyUnknown
		return res.limited(ReasonExecutionError, sourceDown(l.src.Name()))
	}
	dbg.RowsFetched = q.Fetched
	dbg.RawRowsReceived = q.Received
	if q.Received > 0 {
		dbg.RawRowKeysSample = q.Columns
	}
	if q.Fetched >= l.opts.MaxRows {
		// The toolkit stops reading at the limit and says nothing (no count, no flag): a full
		// page may be a cut one. Totals and lists of a cut result would be wrong, so none is shown.
		dbg.RuntimeReadiness = ReadyLiveLimited
		dbg.MCPCallStatus, dbg.MCPCallStatusLegacy = StageMatched, legacyStatus(StageMatched)
		rows := ru.Count(l.opts.MaxRows, "строку", "строки", "строк")
		if r.Name == recipe.AccountBalance {
			// already one row per counterparty, summed in 1C: only a narrower account helps (the
			// message is plain text, escaped where it is rendered)
			return res.limited(ReasonVisibilityGap, fmt.Sprintf("Результат обрезан на %s: остаток по счёту %s 1С сложила по контрагентам, "+
				"и контрагентов с остатком больше — это предел одного запроса к 1С. Итог по обрезанной выборке был бы неверным, поэтому я его "+
				"не показываю. Уточните субсчёт, например %s.01.", rows, tokens[0], tokens[0]))
		}
		return res.limited(ReasonVisibilityGap, fmt.Sprintf("Результат обрезан на %s — это предел одного запроса к 1С, "+
			"и итоги по обрезанной выборке были бы неверными, поэтому я их не показываю. Уточните период, счёт, контрагента или договор.", rows))
	}
	mode := r.Scope
	if f.Account != "" {
		mode = recipe.ScopeStrict // an account the user named is never silently widened
	}
	dbg.AccountScopeMode = mode
	// The rows onec decoded (a row it could not read is in q.Dropped), in the account scope.
	var (
		balances []onec.BalanceRow
		docs     []onec.DocumentRow
	)
	switch r.Name {
	case recipe.Receivables, recipe.Payables, recipe.AccountBalance, recipe.DocumentsFormBalance,
		recipe.OpenItemsByParty, recipe.OpenItemsByContract, recipe.OpenContracts:
		balances = scope(dbg, mode, q.Balances, fields, tokens, settlementAccount)
	case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
		docs = scope(dbg, mode, q.Documents, fields, tokens, noAccount)
	}
	if dbg.AccountScopeFallbackApplied {
		res.Notes = append(res.Notes, fmt.Sprintf("По счетам %s строк нет — показываю по всем счетам расчётов.", res.Account))
		res.Account = "все счета расчётов"
	}

	var out []Row
	var matched, afterFilter int
	materialized := len(balances) + len(docs)
	drops := q.Dropped
	switch r.Name {
	case recipe.Receivables, recipe.Payables:
		var hidden []Row
		out, hidden, afterFilter = partyTotals(balances, r.Name == recipe.Payables)
		for _, note := range []string{splitNote(out, r.Name == recipe.Payables), hiddenDebtNote(hidden, r.Name == recipe.Payables)} {
			if note != "" {
				res.Notes = append(res.Notes, note)
			}
		}
	case recipe.AccountBalance:
		out, afterFilter = balanceSnapshot(balances, tokens[0], cats)
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract:
		out, afterFilter = openItems(balances, tokens, a, cats)
		if note := noDocumentsNote(out); note != "" {
			res.Notes = append(res.Notes, note)
		}
		if f.Status == "closed" || f.Status == "all" {
			// Остатки holds what is open at the moment: a closed document has no balance to read.
			res.Notes = append(res.Notes, "Закрытые документы расчётов не показываю: остатки 1С хранят только открытые.")
		}
	case recipe.OpenContracts:
		out, afterFilter = openContracts(balances, a)
	case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
		out, afterFilter = documents(docs, r.Name, a, f.DocumentType)
	case recipe.DocumentsFormBalance:
		// BP's documents forming a balance are its open settlement documents (the balances by
		// the third subconto), the open items of the account.
		out, afterFilter = openItems(balances, tokens, a, cats)
	}
	matched = len(out)
	dbg.RowsMaterialized, dbg.RowsAfterRecipeFilter, dbg.RowsMatched = materialized, afterFilter, matched
	if dbg.MaterializationDropReason == DropNone {
		dbg.MaterializationDropReason = dominantDrop(drops)
	}

	switch {
	case dbg.RawRowsReceived == 0:
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNoRawRows, "execute", "no rows for the filters"
	case materialized == 0:
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNotMaterialized, "materialize", dbg.MaterializationDropReason
	case afterFilter == 0:
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNotAnchorMatched, "anchor", "no rows of the anchor"
	case matched == 0:
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageFilteredOutByRecipe, "recipe_filter", "all rows balanced or filtered out"
	default:
		dbg.MCPCallStatus = StageMatched
	}
	dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
	if matched == 0 { // a factual answer needs rows_matched > 0
		return res.limited(ReasonEmptyMatch, emptyMessage(res, r, a))
	}
	sortRows(out, r, f.Sort)
	if res.AtLeast > 0 && (r.Name == recipe.Receivables || r.Name == recipe.Payables) {
		// «кто нам должен больше миллиона»: the debts that reach it; the whole list counted aside
		res.Everyone = &Summary{Rows: matched, Currency: "RUB"}
		for _, row := range out {
			res.Everyone.TotalAmount += row.Amount
		}
		top := out[0]
		out = slices.DeleteFunc(out, func(row Row) bool { return row.Amount < res.AtLeast })
		matched = len(out)
		if matched == 0 {
			return res.limited(ReasonEmptyMatch, fmt.Sprintf("Долгов от %s нет: самый крупный — %s, %s (всего %d %s на %s).",
				res.AtLeast, top.Name, top.Amount, res.Everyone.Rows, ru.Plural(res.Everyone.Rows, "контрагент", "контрагента", "контрагентов"),
				res.Everyone.TotalAmount))
		}
	}
	var total onec.Kopecks
	if !slices.Contains([]recipe.Name{recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty}, r.Name) {
		for _, row := range out { // document lists mix sales, payments and acts: no total for them
			total += row.Amount
		}
	}
	res.Summary = Summary{Rows: matched, TotalAmount: total, Currency: "RUB"}
	switch r.Name {
	case recipe.DocumentsByParty, recipe.DocumentsByContract, recipe.BankOpsByParty:
		res.Summary.Subtotals = typeSubtotals(out)
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract:
		names := map[string]string{}
		for code, acc := range cats.accounts {
			names[code] = acc.name
		}
		res.Summary.Subtotals = accountSubtotals(out, names)
	}
	if r.Name == recipe.AccountBalance {
		l.withStock(ctx, res, cats, tokens[0], a) // a quantity account's items: stock.go
	}
	res.ResultMode = FactualList
	if matched > listMax {
		res.ResultMode = FactualSummary
	}
	res.All = out
	if len(out) > f.Limit {
		out = out[:f.Limit]
	}
	res.Rows = out
	dbg.ResponseType = res.ResultMode
	dbg.Limitations = res.Limitations
	return *res
}

// scope applies the recipe's account scope to the rows' account columns (Счет, or СчетДт
// and СчетКт, read by accountOf): strict is a hard filter; preferred falls back to all the rows when the scope
// leaves none.
func scope[T any](dbg *Debug, mode recipe.ScopeMode, rows []T, fields, tokens []string, accountOf func(T, string) string) []T {
	if len(tokens) == 0 || len(fields) == 0 {
		dbg.RowsAfterAccountScope = len(rows)
		return rows
	}
	kept := make([]T, 0, len(rows))
	for _, row := range rows {
		for _, field := range fields {
			if anyAccountMatches(accountOf(row, field), tokens) {
				kept = append(kept, row)
				break
			}
		}
	}
	if dropped := len(rows) - len(kept); dropped > 0 {
		dbg.AccountScopeDropReason = DropByAccountScope
	}
	if len(kept) == 0 && len(rows) > 0 && mode == recipe.ScopePreferred {
		dbg.AccountScopeFallbackApplied = true
		dbg.RowsAfterAccountScope = len(rows)
		return rows
	}
	if len(kept) == 0 && len(rows) > 0 {
		dbg.MaterializationDropReason = DropByAccountScope
	}
	dbg.RowsAfterAccountScope = len(kept)
	return kept
}

// partyTotals is receivables (saldo > 0) or payables (−saldo > 0) per counterparty, with the
// number of its open settlement documents. The template groups in 1C: one row per
// counterparty, its Дт and Кт columns BP's expanded balance per sub-account and contract (debt
// and advances of «Задолженность покупателей / поставщикам»), its КоличествоДокументов the
// settlement documents whose own balance is not zero. The amount is the settlement balance of
// the demo ledger's definition: every account (62.01 with 62.02, 60.01 with 60.02) and contract
// of the counterparty netted, Дт − Кт. Each row carries BP's split too (Debt, Advance). hidden
// are the counterparties whose netted balance is not owed but who owe (or are owed) on some
// contract all the same — BP lists them, the netted list doesn't.
func partyTotals(rows []onec.BalanceRow, payables bool) (out, hidden []Row, filtered int) {
	type acc struct {
		party         Ref
		debit, credit onec.Kopecks
		documents     int
		currencies    currencySums
	}
	by := map[string]*acc{}
	var order []string
	for _, r := range rows {
		if r.Counterparty.UUID == "" {
			continue
		}
		filtered++
		a := by[r.Counterparty.UUID]
		if a == nil {
			a = &acc{party: r.Counterparty, currencies: currencySums{}}
			by[r.Counterparty.UUID] = a
			order = append(order, r.Counterparty.UUID)
		}
		// a row per counterparty and currency: its roubles add up, its currencies stay apart
		a.debit += r.Debit
		a.credit += r.Credit
		a.documents += r.Documents
		a.currencies.add(r)
	}
	for _, id := range order {
		a := by[id]
		amount, debt, advance := a.debit-a.credit, a.debit, a.credit
		if payables {
			amount, debt, advance = -amount, a.credit, a.debit
		}
		row := Row{Ref: a.party.UUID, Name: a.party.Presentation, Amount: amount, Count: a.documents,
			Currencies: a.currencies.list(payables)}
		if advance != 0 {
			row.Debt, row.Advance = debt, advance
		}
		switch {
		case amount > 0:
			out = append(out, row)
		case debt > 0:
			hidden = append(hidden, row)
		}
	}
	sort.SliceStable(hidden, func(i, j int) bool { return hidden[i].Debt > hidden[j].Debt })
	return out, hidden, filtered
}

// balanceSnapshot is the expanded balance for accounts with counterparty subconto and the
// collapsed balance otherwise. The template sums in 1C: a row per counterparty (its Дт and Кт
// columns BP's expanded balance per sub-account and contract, its open settlement documents
// counted) and a row per sub-account for the lines without one. Debit and Credit are the
// counterparties' nets split by sign; Debt and Advance BP's expansion per sub-account and
// contract where it differs; Count the open settlement documents.
func balanceSnapshot(rows []onec.BalanceRow, token string, cats *catalogs) ([]Row, int) {
	expanded := false
	for code, a := range cats.accounts {
		if accountMatches(code, token) && a.partySubconto {
			expanded = true
		}
	}
	var net, dt, kt onec.Kopecks
	parties := map[string]onec.Kopecks{}
	documents := 0
	// The balance in each currency: a counterparty's (one row per counterparty and currency)
	// split by its sign as the roubles are, a line without one by its own.
	currencies := currencySums{}
	for _, r := range rows {
		net += r.Net()
		parties[r.Counterparty.UUID] += r.Net()
		documents += r.Documents
		if v := r.CurrencyNet(); r.Currency != "" && v > 0 {
			currencies.addSplit(r.Currency, v, 0)
		} else if r.Currency != "" {
			currencies.addSplit(r.Currency, 0, -v)
		}
		if r.Counterparty.UUID != "" { // already split per sub-account and contract in 1C
			dt += r.Debit
			kt += r.Credit
		} else if v := r.Net(); v > 0 { // a sub-account's lines without a counterparty: one cell
			dt += v
		} else {
			kt -= v
		}
	}
	if len(rows) == 0 {
		return nil, 0
	}
	row := Row{Account: token, Name: cats.accounts[token].name, Count: documents, Currencies: currencies.list(false)}
	if expanded {
		for _, v := range parties {
			if v > 0 {
				row.Debit += v
			} else {
				row.Credit -= v
			}
		}
		// The turnover sheet expands 60, 62 and 76 per sub-account and contract, as BP's does;
		// where that differs from the per-counterparty figure, the row carries it too.
		if dt != row.Debit {
			row.Debt, row.Advance = dt, kt
		}
	} else if net > 0 {
		row.Debit = net
	} else {
		row.Credit = -net
	}
	row.Amount = row.Debit - row.Credit
	return []Row{row}, len(rows)
}

// openItems are the open settlement documents: the balances of Остатки per settlement document
// at the date, per account of tokens (60 and 62 are not netted against each other: a
// counterparty can be both a customer and a supplier; 60.01 and 60.02 are, as BP's «документ
// расчётов» is one debt whatever the sub-account). A row outside tokens (the scope fell back to
// every account) keeps its own account. Debit and Credit are the balance's Дт and Кт columns.
//
// On an account whose settlements the base does not keep per document (cats.byDocuments), the
// open items are its contracts: a row per contract, named so, never one unnamed document.
func openItems(rows []onec.BalanceRow, tokens []string, a anchors, cats *catalogs) ([]Row, int) {
	type acc struct {
		account       string
		doc           Ref
		date          time.Time
		number        string
		party, deal   Ref
		debit, credit onec.Kopecks
		currencies    currencySums
	}
	by := map[string]*acc{}
	var order []string
	anchored := 0
	for _, r := range rows {
		if a.party.Ref != "" && r.Counterparty.UUID != a.party.Ref {
			continue
		}
		if a.contract.Ref != "" && r.Contract.UUID != a.contract.Ref {
			continue
		}
		anchored++
		account := r.Account
		if i := slices.IndexFunc(tokens, func(t string) bool { return accountMatches(r.Account, t) }); i >= 0 {
			account = tokens[i]
		}
		doc, date, number := r.SettlementDocument, r.DocumentDate, r.DocumentNumber
		if !cats.byDocuments(r.Account) {
			doc, date, number = Ref{UUID: r.Contract.UUID, Presentation: r.Contract.Presentation, Type: "СправочникСсылка." + noDocumentsType}, time.Time{}, r.Contract.Presentation
		}
		key := account + "\x00" + r.Counterparty.UUID + "\x00" + doc.UUID
		x := by[key]
		if x == nil {
			x = &acc{account: account, doc: doc, date: date, number: number, party: r.Counterparty, deal: r.Contract, currencies: currencySums{}}
			by[key] = x
			order = append(order, key)
		}
		x.debit += r.Debit
		x.credit += r.Credit
		x.currencies.add(r)
	}
	var out []Row
	for _, key := range order {
		x := by[key]
		open := x.debit - x.credit
		cur := x.currencies.list(false)
		if open == 0 && len(cur) == 0 { // 60.01 and 60.02 of one document may cancel out
			continue
		}
		out = append(out, Row{Ref: x.doc.UUID, Name: x.doc.Presentation, Type: x.doc.Kind(), Number: x.number, Date: day(x.date),
			Debit: x.debit, Credit: x.credit, Amount: open, Party: x.party.Presentation, PartyID: x.party.UUID, Deal: x.deal.Presentation, DealID: x.deal.UUID,
			Account: x.account, Currencies: cur})
	}
	return out, anchored
}

// openContracts are contracts whose settlement balance is not zero (1C sums it per contract).
func openContracts(rows []onec.BalanceRow, a anchors) ([]Row, int) {
	type acc struct {
		deal, party   Ref
		debit, credit onec.Kopecks
		currencies    currencySums
	}
	by := map[string]*acc{}
	var order []string
	anchored := 0
	for _, r := range rows {
		if r.Contract.UUID == "" || (a.party.Ref != "" && r.Counterparty.UUID != a.party.Ref) {
			continue
		}
		anchored++
		x := by[r.Contract.UUID]
		if x == nil {
			x = &acc{deal: r.Contract, party: r.Counterparty, currencies: currencySums{}}
			by[r.Contract.UUID] = x
			order = append(order, r.Contract.UUID)
		}
		x.debit += r.Debit
		x.credit += r.Credit
		x.currencies.add(r)
	}
	var out []Row
	for _, id := range order {
		x := by[id]
		cur := x.currencies.list(false)
		if saldo := x.debit - x.credit; saldo != 0 || len(cur) > 0 {
			out = append(out, Row{Ref: id, Name: x.deal.Presentation, Debit: x.debit, Credit: x.credit, Amount: saldo, Party: x.party.Presentation,
				PartyID: x.party.UUID, DealID: id, Deal: x.deal.Presentation, Currencies: cur})
		}
	}
	return out, anchored
}

// documents lists documents of a counterparty or contract: deletion-marked ones never,
// unposted ones marked.
func documents(rows []onec.DocumentRow, intent recipe.Name, a anchors, docType string) ([]Row, int) {
	var out []Row
	anchored := 0
	for _, r := range rows {
		if intent == recipe.DocumentsByContract && r.Contract.UUID != a.contract.Ref {
			continue
		}
		if intent != recipe.DocumentsByContract && r.Counterparty.UUID != a.party.Ref {
			continue
		}
		anchored++
		kind := r.Ref.Kind()
		if r.Deleted || !slices.Contains(recipe.DocumentTypes, kind) || (docType != "" && kind != docType) {
			continue
		}
		if intent == recipe.BankOpsByParty && (!slices.Contains(recipe.BankDocumentTypes, kind) || a.bank.Number != "" && r.BankAccount != a.bank.Number) {
			continue
		}
		posted := r.Posted
		out = append(out, Row{Ref: r.Ref.UUID, Name: r.Ref.Presentation, Type: kind, Number: r.Number, Date: day(r.Date), Amount: r.Amount,
			Posted: &posted, Party: r.Counterparty.Presentation, PartyID: r.Counterparty.UUID, Deal: r.Contract.Presentation, DealID: r.Contract.UUID, Hint: r.BankAccount})
	}
	return out, anchored
}

// drilldown decomposes an account balance into the documents that form it.
func drilldown(rows []onec.MovementRow, tokens []string, a anchors) ([]Row, int) {
	type acc struct {
		reg           Ref
		date          time.Time
		number        string
		debit, credit onec.Kopecks
	}
	by := map[string]*acc{}
	var order []string
	anchored := 0
	for _, r := range rows {
		dr, cr := anyAccountMatches(r.AccountDr, tokens), anyAccountMatches(r.AccountCr, tokens)
		if a.party.Ref != "" && !(dr && r.PartyDr.UUID == a.party.Ref) && !(cr && r.PartyCr.UUID == a.party.Ref) {
			continue
		}
		if a.contract.Ref != "" && !(dr && r.ContractDr.UUID == a.contract.Ref) && !(cr && r.ContractCr.UUID == a.contract.Ref) {
			continue
		}
		anchored++
		x := by[r.Registrar.UUID]
		if x == nil {
			x = &acc{reg: r.Registrar, date: r.Period, number: r.Number}
			by[r.Registrar.UUID] = x
			order = append(order, r.Registrar.UUID)
		}
		if dr && (a.party.Ref == "" || r.PartyDr.UUID == a.party.Ref) {
			x.debit += r.Amount
		}
		if cr && (a.party.Ref == "" || r.PartyCr.UUID == a.party.Ref) {
			x.credit += r.Amount
		}
	}
	var out []Row
	for _, id := range order {
		x := by[id]
		if delta := x.debit - x.credit; delta != 0 {
			out = append(out, Row{Ref: id, Name: x.reg.Presentation, Type: x.reg.Kind(), Number: x.number, Date: day(x.date), Debit: x.debit, Credit: x.credit, Amount: delta})
		}
	}
	return out, anchored
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

// sortRows applies the requested sort, or the recipe's default; ties by name, then ref, so
// output is deterministic.
func sortRows(rows []Row, r recipe.Spec, requested string) {
	s := requested
	if s == "" {
		s = r.DefaultSort
	}
	abs := func(k onec.Kopecks) onec.Kopecks { return max(k, -k) }
	slices.SortStableFunc(rows, func(a, b Row) int {
		var c int
		switch s {
		case "date_desc", "document_date_desc":
			c = cmp.Compare(b.Date, a.Date)
		case "name_asc", "account_asc":
			c = cmp.Compare(a.Name+a.Account, b.Name+b.Account)
		case "saldo_desc":
			c = cmp.Compare(abs(b.Amount), abs(a.Amount))
		default: // amount_desc, receivable_amount_desc, payable_amount_desc
			c = cmp.Compare(b.Amount, a.Amount)
		}
		if c == 0 {
			c = cmp.Compare(a.Name, b.Name)
		}
		if c == 0 {
			c = cmp.Compare(a.Ref, b.Ref)
		}
		return c
	})
}
