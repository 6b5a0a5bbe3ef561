package onec

import "strings"

// Templates over РегистрБухгалтерии.Хозрасчетный. In BP 3.0 the settlement accounts (60, 62,
// 76 and their sub-accounts) carry Субконто1 = Контрагенты, Субконто2 = Договоры and, where the
// base keeps settlements per document, Субконто3 = ДокументыРасчетовСКонтрагентами (the lane
// reads which from catalog.accounts, УчетПоДокументамРасчетов); 19.xx carries Контрагенты and
// СФПолученные (a received VAT invoice, not a settlement document; the embedded demo ledger
// gives its 19.03 a settlement document instead). The ВЫБОР expressions below pick the three
// analytics by kind, so every row has the same columns whatever the account.
//
// Optional anchors (a counterparty, a contract) are passed as JSON null when absent; the
// toolkit hands 1C a Null (never Неопределено), which equals nothing, so every such filter is
// guarded as (&Параметр ЕСТЬ NULL ИЛИ …).
//
// Order: only by selected columns (names of the organization, counterparty and contract, the
// settlement document's date and number), never by a field of a select alias.
//
// Boundaries: Остатки(&НаДату) is the balance at the start of the moment НаДату (the runtime
// passes 00:00:00 of the day after the as-of date). Обороты and ДвиженияССубконто include their
// end moment, so they end one second earlier: every template sees exactly the records with
// Период < НаДату.

// partyColumns open the selection of a settlement template from its nested query Т: the
// account, the organization, the counterparty and the contract, with the names it is ordered by.
const partyColumns = `
ВЫБРАТЬ
	Т.Счет КАК Счет,
	Т.Организация КАК Организация,
	Т.Организация.Наименование КАК ОрганизацияНаименование,
	Т.Контрагент КАК Контрагент,
	Т.Контрагент.Наименование КАК КонтрагентНаименование,
	Т.Договор КАК Договор,
	Т.Договор.Наименование КАК ДоговорНаименование,`

// settlementColumns reads the nested query Т of a settlement template: the references, the
// names and settlement-document details it is ordered by, the two sums, and the currency of
// the line with its two sums in that currency (currencyColumns).
func settlementColumns(dtKey, ktKey string) string {
	return partyColumns + `
	Т.ДокументРасчетов КАК ДокументРасчетов,
	Т.ДокументРасчетов.Дата КАК ДокументРасчетовДата,
	Т.ДокументРасчетов.Номер КАК ДокументРасчетовНомер,
	Т.` + dtKey + ` КАК ` + dtKey + `,
	Т.` + ktKey + ` КАК ` + ktKey + `,` + currencyColumns + `
ИЗ`
}

// currencyColumns are a settlement row's currency: Валюта and its balance in that currency,
// ВалютнаяСуммаОстатокДт and …Кт, read from the nested query Т. Валюта is a dimension of
// Хозрасчетный and ВалютнаяСумма a resource, both with the признак учёта «Валютный» of the
// chart: on 60.21, 62.21, 52 (an account that keeps currency accounting) a line is per
// currency and carries its amount in it, as BP's own reports show it beside the roubles (ОСВ
// по счёту with the indicator «Валютная сумма»); on every other account all three are NULL.
const currencyColumns = `
	Т.Валюта КАК Валюта,
	Т.ВалютнаяСуммаОстатокДт КАК ВалютнаяСуммаОстатокДт,
	Т.ВалютнаяСуммаОстатокКт КАК ВалютнаяСуммаОстатокКт`

const settlementOrder = `
УПОРЯДОЧИТЬ ПО
	Счет,
	ОрганизацияНаименование,
	КонтрагентНаименование,
	ДоговорНаименование,
	ДокументРасчетовДата,
	ДокументРасчетовНомер`

// balanceNested picks the three settlement analytics of Остатки by kind; where the account
// lacks one, the column is NULL.
var balanceNested = `
	(ВЫБРАТЬ
		Ост.Счет.Код КАК Счет,
		Ост.Организация КАК Организация,
		ВЫБОР
			КОГДА Ост.Субконто1 ССЫЛКА Справочник.Контрагенты
				ТОГДА Ост.Субконто1
			ИНАЧЕ NULL
		КОНЕЦ КАК Контрагент,
		ВЫБОР
			КОГДА Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
				ТОГДА Ост.Субконто2
			ИНАЧЕ NULL
		КОНЕЦ КАК Договор,
		ВЫБОР
			КОГДА Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
				ТОГДА Ост.Субконто3
			КОГДА Ост.Субконто1 ССЫЛКА Справочник.Контрагенты
				ТОГДА Ост.Субконто2
			ИНАЧЕ NULL
		КОНЕЦ КАК ДокументРасчетов,
		Ост.СуммаОстатокДт КАК СуммаОстатокДт,
		Ост.СуммаОстатокКт КАК СуммаОстатокКт,
		Ост.Валюта КАК Валюта,
		Ост.ВалютнаяСуммаОстатокДт КАК ВалютнаяСуммаОстатокДт,
		Ост.ВалютнаяСуммаОстатокКт КАК ВалютнаяСуммаОстатокКт
	ИЗ
		РегистрБухгалтерии.Хозрасчетный.Остатки(
				&НаДату,
				Счет.Код = &СчетКод
					ИЛИ Счет.Код ПОДОБНО &СчетМаска,
				,
				` + vtOrgCondition + `) КАК Ост`

var balanceColumns = settlementColumns("СуммаОстатокДт", "СуммаОстатокКт")

// partyBalance is Остатки of the account asked (its code or its sub-accounts) for the
// organization, on the lines whose first subconto is a counterparty.
var partyBalance = `
				РегистрБухгалтерии.Хозрасчетный.Остатки(
						&НаДату,
						Счет.Код = &СчетКод
							ИЛИ Счет.Код ПОДОБНО &СчетМаска,
						,
						` + vtOrgCondition + `) КАК Ост
			ГДЕ
				Ост.Субконто1 ССЫЛКА Справочник.Контрагенты`

// openDocuments counts the open settlement documents of each counterparty and currency (Валюта
// NULL on a rouble account): Остатки grouped by counterparty, document and currency, a
// document counting when its balance over the account's lines is not zero, in roubles or in
// its currency. The counterparty totals and the balance snapshot join it to their lines by
// counterparty and currency (NULL with NULL: a comparison with NULL is never true).
var openDocuments = ` (ВЫБРАТЬ
			Открытые.Контрагент КАК Контрагент,
			Открытые.Валюта КАК Валюта,
			КОЛИЧЕСТВО(Открытые.ДокументРасчетов) КАК Количество
		ИЗ
			(ВЫБРАТЬ
				Ост.Субконто1 КАК Контрагент,
				Ост.Субконто3 КАК ДокументРасчетов,
				Ост.Валюта КАК Валюта
			ИЗ` + partyBalance + `
				И Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
				И НЕ Ост.Субконто3.Дата ЕСТЬ NULL
			СГРУППИРОВАТЬ ПО
				Ост.Субконто1,
				Ост.Субконто3,
				Ост.Валюта
			ИМЕЮЩИЕ
				СУММА(Ост.СуммаОстатокДт) <> СУММА(Ост.СуммаОстатокКт)
				ИЛИ СУММА(Ост.ВалютнаяСуммаОстатокДт) <> СУММА(Ост.ВалютнаяСуммаОстатокКт)) КАК Открытые
		СГРУППИРОВАТЬ ПО
			Открытые.Контрагент,
			Открытые.Валюта) КАК Документы`

// cellSplit places a cell's net — its balance per sub-account and contract (and currency) —
// in Дт when positive and in Кт when negative, as BP's expanded balance does; net NULL (a
// rouble line's ВалютнаяСумма) stays NULL in both.
func cellSplit(net, dtKey, ktKey string) string {
	return `
		ВЫБОР
			КОГДА ` + net + ` < 0
				ТОГДА 0
			ИНАЧЕ ` + net + `
		КОНЕЦ КАК ` + dtKey + `,
		ВЫБОР
			КОГДА ` + net + ` > 0
				ТОГДА 0
			ИНАЧЕ 0 - ` + net + `
		КОНЕЦ КАК ` + ktKey
}

// partyTotalsText: one row per counterparty, grouped in 1C (a real 60 or 62 has thousands of
// open settlement documents; one row each was cut at the toolkit's 1,000 rows). СуммаОстатокДт
// and СуммаОстатокКт are BP's expanded balance per sub-account and contract (ОСВ по счёту with
// «развёрнутое сальдо» by Контрагенты and Договоры): the debit balances of the counterparty's
// (account, contract) lines added up, and the credit ones, so Дт − Кт is its settlement balance
// over all its contracts and the two columns are the debt and the advances of «Задолженность
// покупателей / поставщикам». КоличествоДокументов is the number of its open settlement
// documents: Остатки grouped by counterparty and document (a document counts when its balance
// over the account's lines is not zero), counted; none where the base keeps no documents
// (Субконто3 is then NULL, or an empty reference, whose Дата is NULL).
func partyTotalsText(id string) string {
	return `// finbot: ` + id + `
ВЫБРАТЬ
	&СчетКод КАК Счет,
	Линии.Организация КАК Организация,
	Линии.Организация.Наименование КАК ОрганизацияНаименование,
	Линии.Контрагент КАК Контрагент,
	Линии.Контрагент.Наименование КАК КонтрагентНаименование,
	NULL КАК Договор,
	NULL КАК ДоговорНаименование,
	NULL КАК ДокументРасчетов,
	NULL КАК ДокументРасчетовДата,
	NULL КАК ДокументРасчетовНомер,
	СУММА(Линии.СуммаОстатокДт) КАК СуммаОстатокДт,
	СУММА(Линии.СуммаОстатокКт) КАК СуммаОстатокКт,
	Линии.Валюта КАК Валюта,
	СУММА(Линии.ВалютнаяСуммаОстатокДт) КАК ВалютнаяСуммаОстатокДт,
	СУММА(Линии.ВалютнаяСуммаОстатокКт) КАК ВалютнаяСуммаОстатокКт,
	МАКСИМУМ(ЕСТЬNULL(Документы.Количество, 0)) КАК КоличествоДокументов
ИЗ
	(ВЫБРАТЬ
		` + askedOrganization("Сальдо.Организация") + ` КАК Организация,
		Сальдо.Контрагент КАК Контрагент,
		Сальдо.Валюта КАК Валюта,` + cellSplit("Сальдо.Сумма", "СуммаОстатокДт", "СуммаОстатокКт") + `,` +
		cellSplit("Сальдо.ВалютнаяСумма", "ВалютнаяСуммаОстатокДт", "ВалютнаяСуммаОстатокКт") + `
	ИЗ
		(ВЫБРАТЬ
			Ост.Организация КАК Организация,
			Ост.Субконто1 КАК Контрагент,
			Ост.Валюта КАК Валюта,
			СУММА(Ост.СуммаОстатокДт) - СУММА(Ост.СуммаОстатокКт) КАК Сумма,
			СУММА(Ост.ВалютнаяСуммаОстатокДт) - СУММА(Ост.ВалютнаяСуммаОстатокКт) КАК ВалютнаяСумма
		ИЗ` + partyBalance + `
		СГРУППИРОВАТЬ ПО
			Ост.Счет,
			Ост.Организация,
			Ост.Субконто1,
			Ост.Субконто2,
			Ост.Валюта) КАК Сальдо) КАК Линии
		ЛЕВОЕ СОЕДИНЕНИЕ` + openDocuments + `
		ПО Линии.Контрагент = Документы.Контрагент
			И (Линии.Валюта = Документы.Валюта
				ИЛИ Линии.Валюта ЕСТЬ NULL
					И Документы.Валюта ЕСТЬ NULL)
СГРУППИРОВАТЬ ПО
	Линии.Организация,
	Линии.Организация.Наименование,
	Линии.Контрагент,
	Линии.Контрагент.Наименование,
	Линии.Валюта
УПОРЯДОЧИТЬ ПО
	ОрганизацияНаименование,
	КонтрагентНаименование,
	Валюта`
}

// receivablesText: per counterparty, the balance of the account (62 by default).
var receivablesText = partyTotalsText("address.receivables.counterparty_totals")

// payablesText: the same over the suppliers' account (60 by default).
var payablesText = partyTotalsText("address.payables.counterparty_totals")

// balanceSnapshotText: the account's balance, summed in 1C so that it fits the toolkit's 1,000
// rows on a real base. A line with a counterparty (60, 62, 76, 19.xx: Субконто1) is summed per
// counterparty — one row each, its СуммаОстатокДт and СуммаОстатокКт BP's expanded balance per
// sub-account and contract (the debit cells added up, the credit ones apart; «развёрнутое
// сальдо», see queries_reports.go), so Дт − Кт is its balance over all its sub-accounts and
// contracts — with КоличествоДокументов, its open settlement documents (Субконто3 where
// Субконто2 is a contract, a non-zero balance). A line without one (51, 41, 10) is summed per
// sub-account and organization, its Дт and Кт columns as Остатки gives them. Not one row per
// settlement document or VAT invoice («остаток по 19» had one per received invoice), nor per
// contract: «остаток по 62» on the realistic base had 2,061 rows (sub-account, counterparty,
// contract) and was always cut; grouped so it is one row per counterparty and currency (874
// rows, 862 counterparties, for the head with its обособленное подразделение: a counterparty and
// a sub-account are one row over both, askedOrganization).
var balanceSnapshotText = `// finbot: address.account.balance_snapshot
ВЫБРАТЬ
	Линии.Счет КАК Счет,
	Линии.Организация КАК Организация,
	Линии.Организация.Наименование КАК ОрганизацияНаименование,
	Линии.Контрагент КАК Контрагент,
	Линии.Контрагент.Наименование КАК КонтрагентНаименование,
	NULL КАК Договор,
	NULL КАК ДоговорНаименование,
	NULL КАК ДокументРасчетов,
	NULL КАК ДокументРасчетовДата,
	NULL КАК ДокументРасчетовНомер,
	СУММА(Линии.СуммаОстатокДт) КАК СуммаОстатокДт,
	СУММА(Линии.СуммаОстатокКт) КАК СуммаОстатокКт,
	Линии.Валюта КАК Валюта,
	СУММА(Линии.ВалютнаяСуммаОстатокДт) КАК ВалютнаяСуммаОстатокДт,
	СУММА(Линии.ВалютнаяСуммаОстатокКт) КАК ВалютнаяСуммаОстатокКт,
	МАКСИМУМ(ЕСТЬNULL(Документы.Количество, 0)) КАК КоличествоДокументов
ИЗ
	(ВЫБРАТЬ
		ВЫБОР
			КОГДА Ячейки.Контрагент ЕСТЬ NULL
				ТОГДА Ячейки.Счет
			ИНАЧЕ &СчетКод
		КОНЕЦ КАК Счет,
		` + askedOrganization("Ячейки.Организация") + ` КАК Организация,
		Ячейки.Контрагент КАК Контрагент,
		Ячейки.Валюта КАК Валюта,` + cellColumns("СуммаОстатокДт", "СуммаОстатокКт") + `,` + cellColumns("ВалютнаяСуммаОстатокДт", "ВалютнаяСуммаОстатокКт") + `
	ИЗ
		(ВЫБРАТЬ
			Т.Счет КАК Счет,
			Т.Организация КАК Организация,
			Т.Контрагент КАК Контрагент,
			Т.Договор КАК Договор,
			Т.Валюта КАК Валюта,
			СУММА(Т.СуммаОстатокДт) КАК СуммаОстатокДт,
			СУММА(Т.СуммаОстатокКт) КАК СуммаОстатокКт,
			СУММА(Т.ВалютнаяСуммаОстатокДт) КАК ВалютнаяСуммаОстатокДт,
			СУММА(Т.ВалютнаяСуммаОстатокКт) КАК ВалютнаяСуммаОстатокКт
		ИЗ` + nest(balanceNested, 2) + `) КАК Т
		СГРУППИРОВАТЬ ПО
			Т.Счет,
			Т.Организация,
			Т.Контрагент,
			Т.Договор,
			Т.Валюта) КАК Ячейки) КАК Линии
		ЛЕВОЕ СОЕДИНЕНИЕ` + openDocuments + `
		ПО Линии.Контрагент = Документы.Контрагент
			И (Линии.Валюта = Документы.Валюта
				ИЛИ Линии.Валюта ЕСТЬ NULL
					И Документы.Валюта ЕСТЬ NULL)
СГРУППИРОВАТЬ ПО
	Линии.Счет,
	Линии.Организация,
	Линии.Организация.Наименование,
	Линии.Контрагент,
	Линии.Контрагент.Наименование,
	Линии.Валюта
УПОРЯДОЧИТЬ ПО
	Счет,
	ОрганизацияНаименование,
	КонтрагентНаименование,
	Валюта`

// cellColumns split a cell of the balance snapshot (a sub-account, counterparty, contract and
// currency): a line with a counterparty nets its Дт and Кт and puts the net on its side, as
// BP's expanded balance does; a line without one (51, 52, 41) keeps the columns Остатки gives.
// A NULL pair (a rouble line's ВалютнаяСумма) stays NULL.
func cellColumns(dtKey, ktKey string) string {
	side := func(key, a, b string) string {
		return `
		ВЫБОР
			КОГДА Ячейки.Контрагент ЕСТЬ NULL
					ИЛИ Ячейки.` + a + ` ЕСТЬ NULL
				ТОГДА Ячейки.` + a + `
			КОГДА Ячейки.` + a + ` > Ячейки.` + b + `
				ТОГДА Ячейки.` + a + ` - Ячейки.` + b + `
			ИНАЧЕ 0
		КОНЕЦ КАК ` + key
	}
	return side(dtKey, dtKey, ktKey) + `,` + side(ktKey, ktKey, dtKey)
}

// settlementAccounts is the account condition (УсловиеСчета) of the settlement templates: 60,
// 62, 76 and their sub-accounts. It stands in the virtual table's parameters, so 1C reads only
// those accounts' totals; a condition in ГДЕ would make it read every account the
// counterparty has (19.xx with received VAT invoices, 58, 66/67, off-balance 001/003/005/011)
// first. 76.АВ/76.ВА match the mask but carry Контрагенты and a VAT invoice, not a contract: the
// templates keep only rows whose Субконто2 is a contract.
const settlementAccounts = `Счет.Код В ("60", "62", "76")
					ИЛИ Счет.Код ПОДОБНО "60.%"
					ИЛИ Счет.Код ПОДОБНО "62.%"
					ИЛИ Счет.Код ПОДОБНО "76.%"`

// openItemsNested reads Остатки per settlement document of the settlement accounts: only what is
// open at the moment (1C leaves a zero balance out of Остатки), never a closed document of the
// base's whole history. The settlement document is Субконто3 where Субконто2 is a contract (BP's
// order on 60, 62, 76.05, 76.09 …), NULL where the base keeps no documents; never Субконто2,
// which on 19.xx or 76.АВ is a VAT invoice. Its condition (the virtual table's fourth
// parameter) follows.
const openItemsNested = `
	(ВЫБРАТЬ
		Ост.Счет.Код КАК Счет,
		Ост.Организация КАК Организация,
		Ост.Субконто1 КАК Контрагент,
		Ост.Субконто2 КАК Договор,
		Ост.Субконто3 КАК ДокументРасчетов,
		Ост.СуммаОстатокДт КАК СуммаОстатокДт,
		Ост.СуммаОстатокКт КАК СуммаОстатокКт,
		Ост.Валюта КАК Валюта,
		Ост.ВалютнаяСуммаОстатокДт КАК ВалютнаяСуммаОстатокДт,
		Ост.ВалютнаяСуммаОстатокКт КАК ВалютнаяСуммаОстатокКт
	ИЗ
		РегистрБухгалтерии.Хозрасчетный.Остатки(
				&НаДату,
				` + settlementAccounts + `,
				,`

// openItemsRows keeps the rows whose second subconto is a contract (see settlementAccounts).
const openItemsRows = `) КАК Ост
	ГДЕ
		Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов) КАК Т`

// openItemsByPartyText: the open settlement documents of a counterparty (optionally of one of
// its contracts) on 60, 62, 76 and their sub-accounts; the runtime scopes the accounts asked.
var openItemsByPartyText = `// finbot: address.open_items.by_counterparty` + balanceColumns + openItemsNested + `
				` + vtOrgCondition + `
					И Субконто1 = &Контрагент
					И (&Договор ЕСТЬ NULL
						ИЛИ Субконто2 = &Договор)` + openItemsRows + settlementOrder

// openItemsByContractText: the same for one contract.
var openItemsByContractText = `// finbot: address.open_items.by_contract` + balanceColumns + openItemsNested + `
				` + vtOrgCondition + `
					И Субконто2 = &Договор
					И (&Контрагент ЕСТЬ NULL
						ИЛИ Субконто1 = &Контрагент)` + openItemsRows + settlementOrder

// openContractsText: balances per contract (not per document) on 60, 62, 76 and their
// sub-accounts at the moment, summed in 1C over the contract's settlement documents: Остатки,
// so only contracts with something open come back (Обороты from the base's start returned every
// contract ever used). The settlement-document columns are NULL.
var openContractsText = `// finbot: address.open_contracts.by_asof` + partyColumns + `
	NULL КАК ДокументРасчетов,
	NULL КАК ДокументРасчетовДата,
	NULL КАК ДокументРасчетовНомер,
	Т.СуммаОстатокДт КАК СуммаОстатокДт,
	Т.СуммаОстатокКт КАК СуммаОстатокКт,` + currencyColumns + `
ИЗ
	(ВЫБРАТЬ
		Ост.Счет.Код КАК Счет,
		Ост.Организация КАК Организация,
		Ост.Субконто1 КАК Контрагент,
		Ост.Субконто2 КАК Договор,
		Ост.Валюта КАК Валюта,
		СУММА(Ост.СуммаОстатокДт) КАК СуммаОстатокДт,
		СУММА(Ост.СуммаОстатокКт) КАК СуммаОстатокКт,
		СУММА(Ост.ВалютнаяСуммаОстатокДт) КАК ВалютнаяСуммаОстатокДт,
		СУММА(Ост.ВалютнаяСуммаОстатокКт) КАК ВалютнаяСуммаОстатокКт
	ИЗ
		РегистрБухгалтерии.Хозрасчетный.Остатки(
				&НаДату,
				` + settlementAccounts + `,
				,
				` + vtOrgCondition + `
					И (&Контрагент ЕСТЬ NULL
						ИЛИ Субконто1 = &Контрагент)) КАК Ост
	ГДЕ
		Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
		И Ост.Субконто2 <> ЗНАЧЕНИЕ(Справочник.ДоговорыКонтрагентов.ПустаяСсылка)
	СГРУППИРОВАТЬ ПО
		Ост.Счет.Код,
		Ост.Организация,
		Ост.Субконто1,
		Ост.Субконто2,
		Ост.Валюта) КАК Т
УПОРЯДОЧИТЬ ПО
	Счет,
	ОрганизацияНаименование,
	КонтрагентНаименование,
	ДоговорНаименование,
	Валюта`

// movementColumns open the selection of a ДвиженияССубконто template (Движения): the record,
// its accounts and amount, and the counterparty of each side, picked by kind from whichever
// subconto holds it (Субконто1 on 60, 62, 76; Субконто2 on 98.01, 002, 004.02, 012.02).
var movementColumns = `
ВЫБРАТЬ
	Движения.Период КАК Период,
	Движения.Регистратор КАК Регистратор,
	Движения.Регистратор.Номер КАК РегистраторНомер,
	Движения.НомерСтроки КАК НомерСтроки,
	Движения.СчетДт.Код КАК СчетДт,
	Движения.СчетКт.Код КАК СчетКт,
	Движения.Сумма КАК Сумма,` + sideCounterparty("Дт") + `,` + sideCounterparty("Кт")

// sideCounterparty is the column Контрагент<side> of a record: the first of the side's three
// subconto that is a counterparty, NULL when none is.
func sideCounterparty(side string) string {
	c := `
	ВЫБОР`
	for _, n := range []string{"1", "2", "3"} {
		c += `
		КОГДА Движения.Субконто` + side + n + ` ССЫЛКА Справочник.Контрагенты
			ТОГДА Движения.Субконто` + side + n
	}
	return c + `
		ИНАЧЕ NULL
	КОНЕЦ КАК Контрагент` + side
}

// sideCondition is the condition on one side of a record (Дт or Кт) inside a ДвиженияССубконто
// parameter: the account asked on that side and, when given, the counterparty (and the
// contract) in any of that side's subconto — a counterparty is Субконто1 on 60, 62, 76 but
// Субконто2 on 98.01, 002, 004.02, 012.02, and BP's own card filters by any subconto
// (Reports/КарточкаСчета: Субконто1, Субконто2, Субконто3 of ДвиженияССубконто). An anchor of
// another type equals no subconto.
func sideCondition(side, indent string, anchors ...string) string {
	c := `(Счет` + side + `.Код = &СчетКод
` + indent + `		ИЛИ Счет` + side + `.Код ПОДОБНО &СчетМаска)`
	for _, a := range anchors {
		c += `
` + indent + `	И (&` + a + ` ЕСТЬ NULL`
		for _, n := range []string{"1", "2", "3"} {
			c += `
` + indent + `		ИЛИ Субконто` + side + n + ` = &` + a
		}
		c += `)`
	}
	return c
}

// drilldownText: the documents that form an account's balance, as BP reads them — the open
// settlement documents, Остатки by the third subconto, with the account condition, the
// organization, the counterparty and the contract in the virtual table's parameters (not
// registrars with a non-zero net movement over the whole history, filtered in ГДЕ). On an
// account without settlement documents the rows are its balances per analytics; on 19.xx the
// second subconto, the received VAT invoice, is the document behind its balance.
var drilldownText = `// finbot: address.balance.drilldown_documents` + balanceColumns + strings.Replace(balanceNested,
	vtOrgCondition+") КАК Ост", vtOrgCondition+`
					И (&Контрагент ЕСТЬ NULL
						ИЛИ Субконто1 = &Контрагент)
					И (&Договор ЕСТЬ NULL
						ИЛИ Субконто2 = &Договор)) КАК Ост`, 1) + `) КАК Т` + settlementOrder

// idRegisterRecords are the register records of an account up to a moment (the lane's probes
// query_movements and drilldown_related_objects read them).
const idRegisterRecords = "register.movements"

// registerRecordsText: every register record that touches the account on either side, newest
// first. The account, counterparty and contract conditions stand in the virtual table's
// condition parameter, so 1C selects only the account's records before ordering them; the
// counterparty and contract anchors apply to the side of the matched account, in any of its
// subconto. Records of one moment are ordered by their registrar (a reference: its type's
// order), not by its number: Регистратор.Номер is each document type's own numbering.
var registerRecordsText = `// finbot: register.movements` + movementColumns + `,
	ВЫБОР
		КОГДА Движения.СубконтоДт2 ССЫЛКА Справочник.ДоговорыКонтрагентов
			ТОГДА Движения.СубконтоДт2
		ИНАЧЕ NULL
	КОНЕЦ КАК ДоговорДт,
	ВЫБОР
		КОГДА Движения.СубконтоКт2 ССЫЛКА Справочник.ДоговорыКонтрагентов
			ТОГДА Движения.СубконтоКт2
		ИНАЧЕ NULL
	КОНЕЦ КАК ДоговорКт
ИЗ
	РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(
			,
			ДОБАВИТЬКДАТЕ(&НаДату, СЕКУНДА, -1),
			` + vtOrgCondition + `
				И (` + sideCondition("Дт", "\t\t\t\t\t", "Контрагент", "Договор") + `
					ИЛИ ` + sideCondition("Кт", "\t\t\t\t\t", "Контрагент", "Договор") + `),
			,
			) КАК Движения
УПОРЯДОЧИТЬ ПО
	Период УБЫВ,
	Регистратор УБЫВ,
	НомерСтроки`

// idFirstPosting is the date of the register's first record, which the lane reads with the
// catalogs: a balance asked for before it, or a period that ends before it, is outside the
// base's accounting (BP bases usually begin with «Ввод остатков» on the eve of a year), and an
// empty answer there must not read as «нет долгов».
const idFirstPosting = "register.first_posting"

// firstPostingText reads the register's own table, not a virtual one: the least Период of its
// active records (the virtual tables leave inactive ones out too), over every organization. An
// aggregate without grouping is one row even over no records, its Период NULL for an empty
// register (the toolkit sends "").
const firstPostingText = `// finbot: register.first_posting
ВЫБРАТЬ
	МИНИМУМ(Хозрасчетный.Период) КАК Период
ИЗ
	РегистрБухгалтерии.Хозрасчетный КАК Хозрасчетный
ГДЕ
	Хозрасчетный.Активность`
