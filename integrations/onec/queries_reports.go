package onec

import (
	"strconv"
	"strings"
)

// The two reports accountants ask for most, as BP 3.0 builds them from
// РегистрБухгалтерии.Хозрасчетный: the turnover sheet (оборотно-сальдовая ведомость, «ОСВ»,
// «оборотка») and the account card (карточка счёта).
//
// Period. ОстаткиИОбороты(&НачалоПериода, &КонецПериода, Периодичность, МетодДополнения,
// УсловиеСчета, Субконто, Условие) and ДвиженияССубконто(&НачалоПериода, &КонецПериода,
// Условие, Порядок, Первые) take both ends of the period: the opening balance is the balance
// at the start of the moment НачалоПериода (records with Период < НачалоПериода), the
// turnovers and the movements are those with НачалоПериода <= Период <= КонецПериода, and the
// closing balance includes КонецПериода. The runtime passes 00:00:00 of the first day and
// 23:59:59 of the last day, so the period's last day is in it.
//
// Balances. The virtual table gives one row per account and analytics (counterparty, contract,
// settlement document). The templates net each row (Дт − Кт), sum the nets per account,
// counterparty and contract (the «cell»), and only then split them into a debit part (the sum
// of the positive cells) and a credit part (the sum of the negative ones). For 60, 62 and 76
// that is BP's «развёрнутое сальдо» by Контрагенты and Договоры (the preset «Настройка с
// развёрнутым сальдо» of the report ОборотноСальдоваяВедомость): a customer's debt and another
// customer's advance both show. For an account without those analytics there is one cell per
// account, its collapsed balance; the runtime places it by the account's kind (an active
// account's balance is always debit, negative when it is «red»). So every figure is
// aggregated in 1C: one row per account (or per counterparty, or contract), never one per
// settlement document, and the toolkit's 1,000-row cap is reached only by a base with that
// many accounts, counterparties or contracts moving in the period. On 68, 69, 70, 71 and 73.03
// (expandedAccounts) a cell is also each combination of the row's subconto (РазвернутоСубконто1–3),
// as BP's preset expands them too: two employees on 71, one owing and one owed, show on both
// sides instead of netting.
//
// The account filter is Код = &СчетКод ИЛИ Код ПОДОБНО &СчетМаска, as elsewhere; the whole
// chart is СчетМаска "%". The optional counterparty (the records that carry it in any of their
// subconto — first on 60/62/76, second on 98.01, 002, 004.02, 012.02: «ОСВ по Гранит») is null
// when absent and guarded as (&Контрагент ЕСТЬ NULL
// ИЛИ …): the toolkit passes a JSON null as 1C's Null, which equals nothing.

// Query IDs of the reports (the lane's recipes turnover_sheet and account_card run them).
const (
	idSheetByAccount      = "address.turnover_sheet.by_account"
	idSheetByCounterparty = "address.turnover_sheet.by_counterparty"
	idSheetByContract     = "address.turnover_sheet.by_contract"
	idCardMovements       = "address.account_card.movements"
	idCardBalances        = "address.account_card.balances"
)

// reportParams are the parameters of every report template.
var reportParams = []paramSpec{pFrom, pTo, pOrg, pAccCode, pAccMask, pCpOpt}

// periodRowsNested is the nested query Строки: the virtual table's rows, each netted, with the
// counterparty and the contract picked by kind (NULL where the account has none). The account
// card sums it whole; the turnover sheet sums it per cell (nest indents it to stand there).
var periodRowsNested = `
	(ВЫБРАТЬ
		ОиО.Счет.Код КАК Счет,
		ОиО.Счет.Забалансовый КАК Забалансовый,
		ВЫБОР
			КОГДА ОиО.Субконто1 ССЫЛКА Справочник.Контрагенты
				ТОГДА ОиО.Субконто1
			КОГДА ОиО.Субконто2 ССЫЛКА Справочник.Контрагенты
				ТОГДА ОиО.Субконто2
			КОГДА ОиО.Субконто3 ССЫЛКА Справочник.Контрагенты
				ТОГДА ОиО.Субконто3
			ИНАЧЕ NULL
		КОНЕЦ КАК Контрагент,
		ВЫБОР
			КОГДА ОиО.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
				ТОГДА ОиО.Субконто2
			КОГДА ОиО.Субконто3 ССЫЛКА Справочник.ДоговорыКонтрагентов
				ТОГДА ОиО.Субконто3
			ИНАЧЕ NULL
		КОНЕЦ КАК Договор,` + expandedSubconto(1) + expandedSubconto(2) + expandedSubconto(3) + `
		ЕСТЬNULL(ОиО.СуммаНачальныйОстатокДт, 0) - ЕСТЬNULL(ОиО.СуммаНачальныйОстатокКт, 0) КАК НачальноеСальдо,
		ЕСТЬNULL(ОиО.СуммаОборотДт, 0) КАК ОборотДт,
		ЕСТЬNULL(ОиО.СуммаОборотКт, 0) КАК ОборотКт,
		ЕСТЬNULL(ОиО.СуммаКонечныйОстатокДт, 0) - ЕСТЬNULL(ОиО.СуммаКонечныйОстатокКт, 0) КАК КонечноеСальдо
	ИЗ
		РегистрБухгалтерии.Хозрасчетный.ОстаткиИОбороты(
				&НачалоПериода,
				&КонецПериода,
				,
				,
				Счет.Код = &СчетКод
					ИЛИ Счет.Код ПОДОБНО &СчетМаска,
				,
				` + vtOrgCondition + `
					И (&Контрагент ЕСТЬ NULL
						ИЛИ Субконто1 = &Контрагент
						ИЛИ Субконто2 = &Контрагент
						ИЛИ Субконто3 = &Контрагент)) КАК ОиО) КАК Строки`

// expandedAccounts are the accounts BP's preset «развёрнутое сальдо» expands by all their
// subconto besides 60, 62 and 76 (which it expands by counterparty and contract): taxes and
// contributions (68, 69 and their sub-accounts, 68.04.1 and 68.10 among them), wages (70),
// accountable persons (71), other settlements with staff (73.03).
const expandedAccounts = `ОиО.Счет.Код ПОДОБНО "68%"
				ИЛИ ОиО.Счет.Код ПОДОБНО "69%"
				ИЛИ ОиО.Счет.Код ПОДОБНО "70%"
				ИЛИ ОиО.Счет.Код ПОДОБНО "71%"
				ИЛИ ОиО.Счет.Код ПОДОБНО "73.03%"`

// expandedSubconto is the column РазвернутоСубконтоN of Строки: the row's N-th subconto on the
// accounts whose balance BP expands by subconto, NULL elsewhere, so that a cell of the sheet
// is one subconto combination there and one counterparty and contract elsewhere.
func expandedSubconto(n int) string {
	i := strconv.Itoa(n)
	return `
		ВЫБОР
			КОГДА ` + expandedAccounts + `
				ТОГДА ОиО.Субконто` + i + `
			ИНАЧЕ NULL
		КОНЕЦ КАК РазвернутоСубконто` + i + `,`
}

// nest indents a nested query by tabs more, to stand inside another nested query.
func nest(query string, tabs int) string {
	return strings.ReplaceAll(query, "\n", "\n"+strings.Repeat("\t", tabs))
}

// sheetCellsNested is the nested query Ячейки: the nets summed per account, counterparty and contract.
var sheetCellsNested = `
	(ВЫБРАТЬ
		Строки.Счет КАК Счет,
		Строки.Забалансовый КАК Забалансовый,
		Строки.Контрагент КАК Контрагент,
		Строки.Договор КАК Договор,
		Строки.РазвернутоСубконто1 КАК РазвернутоСубконто1,
		Строки.РазвернутоСубконто2 КАК РазвернутоСубконто2,
		Строки.РазвернутоСубконто3 КАК РазвернутоСубконто3,
		СУММА(Строки.НачальноеСальдо) КАК НачальноеСальдо,
		СУММА(Строки.ОборотДт) КАК ОборотДт,
		СУММА(Строки.ОборотКт) КАК ОборотКт,
		СУММА(Строки.КонечноеСальдо) КАК КонечноеСальдо
	ИЗ` + nest(periodRowsNested, 2) + `
	СГРУППИРОВАТЬ ПО
		Строки.Счет,
		Строки.Забалансовый,
		Строки.Контрагент,
		Строки.Договор,
		Строки.РазвернутоСубконто1,
		Строки.РазвернутоСубконто2,
		Строки.РазвернутоСубконто3) КАК Ячейки`

// sheetSums are the six columns of a sheet row: each cell's net split into its debit and
// credit part, and the turnovers.
var sheetSums = `
	СУММА(ВЫБОР
			КОГДА Ячейки.НачальноеСальдо > 0
				ТОГДА Ячейки.НачальноеСальдо
			ИНАЧЕ 0
		КОНЕЦ) КАК НачальныйОстатокДт,
	СУММА(ВЫБОР
			КОГДА Ячейки.НачальноеСальдо < 0
				ТОГДА -Ячейки.НачальноеСальдо
			ИНАЧЕ 0
		КОНЕЦ) КАК НачальныйОстатокКт,
	СУММА(Ячейки.ОборотДт) КАК ОборотДт,
	СУММА(Ячейки.ОборотКт) КАК ОборотКт,
	СУММА(ВЫБОР
			КОГДА Ячейки.КонечноеСальдо > 0
				ТОГДА Ячейки.КонечноеСальдо
			ИНАЧЕ 0
		КОНЕЦ) КАК КонечныйОстатокДт,
	СУММА(ВЫБОР
			КОГДА Ячейки.КонечноеСальдо < 0
				ТОГДА -Ячейки.КонечноеСальдо
			ИНАЧЕ 0
		КОНЕЦ) КАК КонечныйОстатокКт
ИЗ` + sheetCellsNested

// sheetByAccountText: one row per account (the register keeps sub-accounts; the runtime adds
// the synthetic accounts and the total).
var sheetByAccountText = `// finbot: address.turnover_sheet.by_account
ВЫБРАТЬ
	Ячейки.Счет КАК Счет,
	Ячейки.Забалансовый КАК Забалансовый,` + sheetSums + `
СГРУППИРОВАТЬ ПО
	Ячейки.Счет,
	Ячейки.Забалансовый
УПОРЯДОЧИТЬ ПО
	Счет`

// sheetByCounterpartyText: one row per counterparty of the accounts (NULL: the records
// without one).
var sheetByCounterpartyText = `// finbot: address.turnover_sheet.by_counterparty
ВЫБРАТЬ
	Ячейки.Контрагент КАК Контрагент,
	Ячейки.Контрагент.Наименование КАК КонтрагентНаименование,` + sheetSums + `
СГРУППИРОВАТЬ ПО
	Ячейки.Контрагент,
	Ячейки.Контрагент.Наименование
УПОРЯДОЧИТЬ ПО
	КонтрагентНаименование`

// sheetByContractText: one row per counterparty and contract.
var sheetByContractText = `// finbot: address.turnover_sheet.by_contract
ВЫБРАТЬ
	Ячейки.Контрагент КАК Контрагент,
	Ячейки.Контрагент.Наименование КАК КонтрагентНаименование,
	Ячейки.Договор КАК Договор,
	Ячейки.Договор.Наименование КАК ДоговорНаименование,` + sheetSums + `
СГРУППИРОВАТЬ ПО
	Ячейки.Контрагент,
	Ячейки.Контрагент.Наименование,
	Ячейки.Договор,
	Ячейки.Договор.Наименование
УПОРЯДОЧИТЬ ПО
	КонтрагентНаименование,
	ДоговорНаименование`

// cardBalancesText: the card's opening balance, turnovers and closing balance, collapsed over
// the accounts (and the counterparty, when one is given): the sheet's rows Строки, summed whole.
// An aggregate without grouping is one row even over no records; ЕСТЬNULL makes its sums 0.
// It reads no quantity: summed over the account, the quantities of items in different units
// would add up nothing (a card's postings carry theirs, sideItem; a balance in units is per item,
// queries_stock.go).
var cardBalancesText = `// finbot: address.account_card.balances
ВЫБРАТЬ
	ЕСТЬNULL(СУММА(Строки.НачальноеСальдо), 0) КАК НачальноеСальдо,
	ЕСТЬNULL(СУММА(Строки.ОборотДт), 0) КАК ОборотДт,
	ЕСТЬNULL(СУММА(Строки.ОборотКт), 0) КАК ОборотКт,
	ЕСТЬNULL(СУММА(Строки.КонечноеСальдо), 0) КАК КонечноеСальдо
ИЗ` + periodRowsNested

// sideItem are the columns of a record side's item and quantity: НоменклатураДт (the first of the
// side's subconto that is an item of Справочник.Номенклатура, NULL when none is), its unit
// ЕдиницаДт, and КоличествоДт, the side's Количество (NULL off a quantity account).
func sideItem(side string) string {
	item, unit := `
	ВЫБОР`, `
	ВЫБОР`
	for _, n := range []string{"1", "2", "3"} {
		item += `
		КОГДА Движения.Субконто` + side + n + ` ССЫЛКА Справочник.Номенклатура
			ТОГДА Движения.Субконто` + side + n
		unit += `
		КОГДА Движения.Субконто` + side + n + ` ССЫЛКА Справочник.Номенклатура
			ТОГДА Движения.Субконто` + side + n + `.ЕдиницаИзмерения.Наименование`
	}
	return item + `
		ИНАЧЕ NULL
	КОНЕЦ КАК Номенклатура` + side + `,` + unit + `
		ИНАЧЕ NULL
	КОНЕЦ КАК Единица` + side + `,
	Движения.Количество` + side + ` КАК Количество` + side
}

// cardMovementsText: every register record of the period with the account on a side (and the
// counterparty in any subconto of that side, when one is given), in BP's card's order: by
// Период, then Регистратор, then НомерСтроки (Reports/КарточкаСчета, the schema's order
// Период, УточнениеПериода, Регистратор, НомерСтроки), oldest first, so the first rows of a cut
// result are the first of the period and their running balance is right. The conditions stand
// in the virtual table's parameter, so 1C reads the account's records only; ordering in ГДЕ's
// stead by Регистратор.Номер had 1C sort the organization's whole register of the period by a
// field of every document table it joins, and a number is each document type's own. On a
// quantity account (41.01, 10.01) each side brings its item and quantity (sideItem).
var cardMovementsText = `// finbot: address.account_card.movements` + movementColumns + `,` + sideItem("Дт") + `,` + sideItem("Кт") + `
ИЗ
	РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(
			&НачалоПериода,
			&КонецПериода,
			` + vtOrgCondition + `
				И (` + sideCondition("Дт", "\t\t\t\t\t", "Контрагент") + `
					ИЛИ ` + sideCondition("Кт", "\t\t\t\t\t", "Контрагент") + `),
			,
			) КАК Движения
УПОРЯДОЧИТЬ ПО
	Период,
	Регистратор,
	НомерСтроки`
