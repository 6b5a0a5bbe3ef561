package onec

import (
	"slices"
	"strings"
)

// The whitelist: the only 1C query texts finbot ever sends. Each is read-only 1C:Enterprise
// query language for BP 3.0 with bound &Parameters only; its first line names it
// ("// finbot: <id>"), so 1C's logs show which template ran. The texts are assembled from the
// fragments below once, at package initialisation, and never change afterwards: a template is
// recognised by its exact bytes.

// orgCondition is every template's organization condition, as BP 3.0's reports build it when
// «Включать обособленные подразделения» is on (kassya20/buh, BP 3.0.198.19,
// CommonModules/БухгалтерскиеОтчетыВызовСервера, ДобавитьОтборПоОрганизации: a group ИЛИ of
// Организация = the organization and Организация.ГоловнаяОрганизация = the organization; the
// same condition stands in Хозрасчетный.Обороты's Условие in CommonModules/УчетОС). BP fills
// ГоловнаяОрганизация always — a head organization refers to itself, an обособленное
// подразделение on its own balance to its head (Catalogs/Организации, ПередЗаписью) — so a head
// organization covers itself and its divisions, and a division only itself. field is the
// organization field the condition reads (Организация in a virtual table's Условие, Док.Организация
// in ГДЕ).
func orgCondition(field string) string {
	return `(` + field + ` = &Организация
				ИЛИ ` + field + `.ГоловнаяОрганизация = &Организация)`
}

// vtOrgCondition is orgCondition inside a register virtual table's Условие.
var vtOrgCondition = orgCondition("Организация")

// askedOrganization is the organization asked for a row of field's organization: the row's own
// when it is that one, else its head (a division's rows under the head asked). The counterparty
// totals and the balance snapshot sum a counterparty (or a sub-account) over the head and its
// divisions into one row, as BP's report on the head «с обособленными подразделениями» shows it.
func askedOrganization(field string) string {
	return `ВЫБОР
			КОГДА ` + field + ` = &Организация
				ТОГДА ` + field + `
			ИНАЧЕ ` + field + `.ГоловнаяОрганизация
		КОНЕЦ`
}

// paramKind is the value type a template parameter must have.
type paramKind int

const (
	kindDate   paramKind = iota // a string exactly YYYY-MM-DDTHH:MM:SS (the toolkit makes it a Дата)
	kindRef                     // an object reference of refType
	kindString                  // a string
	kindNumber                  // a whole number (JSON number; the toolkit hands it to 1C as a Число)
)

// paramSpec is one &Parameter of a template.
type paramSpec struct {
	name     string
	kind     paramKind
	refType  string // for kindRef
	nullable bool   // the runtime may pass JSON null, 1C's Null (the template guards it with ЕСТЬ NULL)
}

// Template parameters, shared by several templates.
var (
	pAsOf     = paramSpec{name: "НаДату", kind: kindDate}
	pFrom     = paramSpec{name: "НачалоПериода", kind: kindDate}
	pTo       = paramSpec{name: "КонецПериода", kind: kindDate}
	pFromOpt  = paramSpec{name: "НачалоПериода", kind: kindDate, nullable: true}
	pToOpt    = paramSpec{name: "КонецПериода", kind: kindDate, nullable: true}
	pOrg      = paramSpec{name: "Организация", kind: kindRef, refType: TypeOrganization}
	pCp       = paramSpec{name: "Контрагент", kind: kindRef, refType: TypeCounterparty}
	pCpOpt    = paramSpec{name: "Контрагент", kind: kindRef, refType: TypeCounterparty, nullable: true}
	pCtr      = paramSpec{name: "Договор", kind: kindRef, refType: TypeContract}
	pCtrOpt   = paramSpec{name: "Договор", kind: kindRef, refType: TypeContract, nullable: true}
	pAccCode  = paramSpec{name: "СчетКод", kind: kindString}
	pAccMask  = paramSpec{name: "СчетМаска", kind: kindString}
	pDocTypes = paramSpec{name: "ТипДокумента", kind: kindString}
	pAfter    = paramSpec{name: "ПослеКода", kind: kindString} // a page of a catalog: the last code of the one before
)

// template is one whitelisted query.
type template struct {
	id     string
	text   string
	params []paramSpec
	rows   RowKind // the family of typed rows it answers in (rows.go)
}

// Recipe and catalog query IDs (recipe IDs are those of agent/ledger/runner/catalog.go).
const (
	idOpenContracts     = "address.open_contracts.by_asof"
	idPayables          = "address.payables.counterparty_totals"
	idReceivables       = "address.receivables.counterparty_totals"
	idBalanceSnapshot   = "address.account.balance_snapshot"
	idOpenItemsByParty  = "address.open_items.by_counterparty"
	idOpenItemsByTreaty = "address.open_items.by_contract"
	idDocumentsByParty  = "address.documents.by_counterparty"
	idBankOpsByParty    = "address.bank_ops.by_counterparty"
	idDocumentsByTreaty = "address.documents.by_contract"
	idBalanceDrilldown  = "address.balance.drilldown_documents"
	idCatalogOrgs       = "catalog.organizations"
	idCatalogParties    = "catalog.counterparties"
	idCatalogContracts  = "catalog.contracts"
	idCatalogAccounts   = "catalog.accounts"
	idCatalogBanks      = "catalog.bank_accounts"
)

// templates in the order QueryIDs reports them: the recipe catalog's order, then the catalogs,
// then the reports' templates, then the date of the first posting.
var templates = []template{
	{idOpenContracts, allowed(openContractsText), []paramSpec{pAsOf, pOrg, pCpOpt}, RowsBalance},
	{idPayables, allowed(payablesText), []paramSpec{pAsOf, pOrg, pAccCode, pAccMask}, RowsBalance},
	{idReceivables, allowed(receivablesText), []paramSpec{pAsOf, pOrg, pAccCode, pAccMask}, RowsBalance},
	{idBalanceSnapshot, allowed(balanceSnapshotText), []paramSpec{pAsOf, pOrg, pAccCode, pAccMask}, RowsBalance},
	{idOpenItemsByParty, allowed(openItemsByPartyText), []paramSpec{pAsOf, pOrg, pCp, pCtrOpt}, RowsBalance},
	{idOpenItemsByTreaty, allowed(openItemsByContractText), []paramSpec{pAsOf, pOrg, pCtr, pCpOpt}, RowsBalance},
	{idDocumentsByParty, allowed(documentsByPartyText), []paramSpec{pFrom, pTo, pOrg, pCp, pDocTypes}, RowsDocument},
	{idBankOpsByParty, allowed(bankOpsByPartyText), []paramSpec{pFromOpt, pToOpt, pOrg, pCp}, RowsDocument},
	{idDocumentsByTreaty, allowed(documentsByContractText), []paramSpec{pFrom, pTo, pOrg, pCtr, pDocTypes}, RowsDocument},
	{idBalanceDrilldown, allowed(drilldownText), []paramSpec{pAsOf, pOrg, pAccCode, pAccMask, pCpOpt, pCtrOpt}, RowsBalance},
	{idCatalogOrgs, allowed(organizationsText), nil, RowsOrganization},
	{idCatalogParties, allowed(counterpartiesText), []paramSpec{pAfter}, RowsCounterparty},
	{idCatalogContracts, allowed(contractsText), []paramSpec{pAfter}, RowsContract},
	{idCatalogAccounts, allowed(accountsText), nil, RowsAccount},
	{idCatalogBanks, allowed(bankAccountsText), nil, RowsBankAccount},
	{idSheetByAccount, allowed(sheetByAccountText), reportParams, RowsSheet}, // the reports: queries_reports.go
	{idSheetByCounterparty, allowed(sheetByCounterpartyText), reportParams, RowsSheet},
	{idSheetByContract, allowed(sheetByContractText), reportParams, RowsSheet},
	{idCardMovements, allowed(cardMovementsText), reportParams, RowsMovement},
	{idCardBalances, allowed(cardBalancesText), reportParams, RowsCardTotals},
	{idFirstPosting, allowed(firstPostingText), nil, RowsFirstPosting}, // the first posting: queries_register.go
	{idRegisterRecords, allowed(registerRecordsText), []paramSpec{pAsOf, pOrg, pAccCode, pAccMask, pCpOpt, pCtrOpt}, RowsMovement},
	{idAgingReceivables, allowed(agingReceivablesText), agingParams, RowsAging}, // aging: queries_aging.go
	{idAgingPayables, allowed(agingPayablesText), agingParams, RowsAging},
	{idReconcileBalances, allowed(reconcileBalancesText), reconcileParams, RowsCardTotals}, // the act of reconciliation: queries_reconcile.go
	{idReconcileLines, allowed(reconcileLinesText), reconcileParams, RowsReconciliation},
	{idOffsets, allowed(offsetsText), []paramSpec{pAsOf, pOrg, pCpOpt}, RowsBalance},                               // offsets: queries_offsets.go
	{idStockBalance, allowed(stockBalanceText), []paramSpec{pAsOf, pOrg, pAccCode, pAccMask, pItemOpt}, RowsStock}, // quantities: queries_stock.go
	{idCatalogItems, allowed(itemsText), []paramSpec{pAfter}, RowsItem},
}

// allowed makes a template's first selection ВЫБРАТЬ РАЗРЕШЕННЫЕ: a 1C user whose rights
// (RLS, by organization in BP) hide some records gets the records it may see instead of a
// query error. 1C says nothing about what it left out — no count, no flag — so the lane states
// under a figure that it covers only what this user may see whenever the operator says the
// user is restricted (runner.Options.RestrictedRights); the demo has no restrictions.
func allowed(text string) string {
	return strings.Replace(text, "\nВЫБРАТЬ", "\nВЫБРАТЬ РАЗРЕШЕННЫЕ", 1)
}

// param returns the template's declaration of a parameter (names are case-insensitive).
func (t *template) param(name string) (paramSpec, bool) {
	for _, p := range t.params {
		if foldName(p.name) == foldName(name) {
			return p, true
		}
	}
	return paramSpec{}, false
}

var (
	templateByID   = indexTemplates(func(t *template) string { return t.id })
	templateByText = indexTemplates(func(t *template) string { return t.text })
)

func indexTemplates(key func(*template) string) map[string]*template {
	m := make(map[string]*template, len(templates))
	for i := range templates {
		m[key(&templates[i])] = &templates[i]
	}
	return m
}

// Query returns the text of a whitelisted query.
func Query(id string) (text string, ok bool) {
	t, ok := templateByID[id]
	if !ok {
		return "", false
	}
	return t.text, true
}

// QueryIDs lists the whitelisted queries: the ten recipes of agent/ledger/runner, the five
// catalog lookups, the five templates of the turnover sheet and the account card, the date of
// the register's first posting, the register records, the two aging templates, the two of the
// act of reconciliation, the offset candidates, then the balance of the quantity accounts and
// the nomenclature.
func QueryIDs() []string {
	ids := make([]string, len(templates))
	for i, t := range templates {
		ids[i] = t.id
	}
	return ids
}

// QueryID recognises a whitelisted query by its exact text.
func QueryID(text string) (id string, ok bool) {
	t, ok := templateByText[text]
	if !ok {
		return "", false
	}
	return t.id, true
}

// QueryParams lists the &Parameters of a whitelisted query. The runtime passes every one of
// them; an optional anchor is passed as nil (JSON null).
//
// catalog.counterparties, catalog.contracts and catalog.nomenclature are read in pages of
// CatalogPage rows:
// ПослеКода is "" for the first page, then the Код of the last row of the page before.
func QueryParams(id string) (names []string, ok bool) {
	t, ok := templateByID[id]
	if !ok {
		return nil, false
	}
	names = make([]string, len(t.params))
	for i, p := range t.params {
		names[i] = p.name
	}
	return names, true
}

// documentTypes are the document types the document templates read (agent/recipe's
// DocumentTypes), in the order of their ОБЪЕДИНИТЬ ВСЕ branches: BP 3.0's documents of
// settlements with a counterparty — payments by bank and cash, sales and purchases, their
// returns and corrections, debt corrections, VAT invoices, acts of reconciliation and opening
// balances.
var documentTypes = []string{
	"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета", "РеализацияТоваровУслуг",
	"ПоступлениеТоваровУслуг", reconciliationType, openingBalancesType,
	"ПриходныйКассовыйОрдер", "РасходныйКассовыйОрдер", "ВозвратТоваровОтПокупателя", "ВозвратТоваровПоставщику",
	"КорректировкаРеализации", "КорректировкаПоступления", debtCorrectionType, "СчетФактураВыданный",
	"СчетФактураПолученный",
}

// The two document types whose settlement data is not in the header (see documentsText).
const (
	reconciliationType  = "АктСверкиВзаиморасчетов"
	openingBalancesType = "ВводНачальныхОстатков"
)

// bankDocumentTypes are the types of bank operations.
// CatalogPage is the page size of the paged catalogs (their ВЫБРАТЬ ПЕРВЫЕ).
const CatalogPage = catalogPage

var bankDocumentTypes = []string{"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета"}

func isBankDocument(typ string) bool { return slices.Contains(bankDocumentTypes, typ) }

// paymentDocumentTypes are the payments whose decoding РасшифровкаПлатежа names the contracts
// paid under: by bank and by cash.
var paymentDocumentTypes = append(slices.Clone(bankDocumentTypes), "ПриходныйКассовыйОрдер", "РасходныйКассовыйОрдер")

func hasPaymentLines(typ string) bool { return slices.Contains(paymentDocumentTypes, typ) }
