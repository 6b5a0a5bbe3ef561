package onec

// Quantities: the resource Количество of РегистрБухгалтерии.Хозрасчетный on the accounts the
// chart keeps quantity accounting on. In BP 3.0 (kassya20/buh, 3.0.198.19) the register's
// resource Количество is Число(15, 3), not balanced, with the признак учёта Количественный of
// the account (AccountingFlag) and of its subconto (ExtDimensionAccountingFlag,
// AccountingRegisters/Хозрасчетный.xml); the chart sets Количественный on 10 and its
// sub-accounts, 41 (all but 41.12), 43 (ChartsOfAccounts/Хозрасчетный/Ext/Predefined.xml),
// the accounts whose first subconto is Номенклатура (Справочник.Номенклатура, with its unit of
// measure ЕдиницаИзмерения, a reference to Справочник.КлассификаторЕдиницИзмерения). On
// another account the quantity columns of the virtual tables are NULL, as BP's own queries
// read them (ВЫБОР КОГДА Счет.Количественный, CommonModules/ЗаполнениеФинОтчетностиВБанкиВыгрузка).
//
// The templates here read the quantity where it is kept: the balance of the quantity accounts
// (or one of them, with its sub-accounts) per account and item, and the nomenclature to find an
// item by its name. The account card reads КоличествоДт/Кт beside its amounts
// (queries_reports.go).

// Query IDs of the quantity templates.
const (
	idStockBalance   = "address.stock.balance"
	idCatalogItems   = "catalog.nomenclature"
	stockAccountsAll = "%" // СчетМаска of every quantity account
)

// pItemOpt is an item of the nomenclature, or null for all of them.
var pItemOpt = paramSpec{name: "Номенклатура", kind: kindRef, refType: TypeItem, nullable: true}

// stockBalanceText: the balance of the quantity accounts at &НаДату per account and item, the
// sum and the quantity summed in 1C over the organization and its обособленные подразделения,
// and over the item's other subconto (Склады, Партии: «остаток товара» is on all the
// warehouses). The Субконто parameter names Номенклатура, so Субконто1 is the item whatever its
// place among the account's subconto (BP's 10.01 and 41.01: Номенклатура, Партии, Склады).
// The account condition keeps the accounts with Количественный only: on another account there
// is no quantity, and its lines have no item. СчетКод and СчетМаска narrow it to an account
// and its sub-accounts («остаток по 41»), or ("" and "%") take every quantity account («сколько
// бумаги на складе»: goods on 41, materials on 10). &Номенклатура is null for every item.
var stockBalanceText = `// finbot: address.stock.balance
ВЫБРАТЬ
	Ост.Счет.Код КАК Счет,
	Ост.Субконто1 КАК Номенклатура,
	Ост.Субконто1.Наименование КАК НоменклатураНаименование,
	Ост.Субконто1.ЕдиницаИзмерения.Наименование КАК ЕдиницаИзмерения,
	СУММА(Ост.СуммаОстаток) КАК СуммаОстаток,
	СУММА(Ост.КоличествоОстаток) КАК КоличествоОстаток
ИЗ
	РегистрБухгалтерии.Хозрасчетный.Остатки(
			&НаДату,
			Счет.Количественный
				И (Счет.Код = &СчетКод
					ИЛИ Счет.Код ПОДОБНО &СчетМаска),
			ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.Номенклатура),
			` + vtOrgCondition + `
				И (&Номенклатура ЕСТЬ NULL
					ИЛИ Субконто1 = &Номенклатура)) КАК Ост
СГРУППИРОВАТЬ ПО
	Ост.Счет.Код,
	Ост.Субконто1,
	Ост.Субконто1.Наименование,
	Ост.Субконто1.ЕдиницаИзмерения.Наименование
УПОРЯДОЧИТЬ ПО
	Счет,
	НоменклатураНаименование`

// itemsText: the nomenclature, deletion-marked items included and flagged, with the short
// name of the unit (Справочник.КлассификаторЕдиницИзмерения.Наименование, «шт»; "" for none).
// A real catalog passes the toolkit's 1,000 rows: it is read in pages by Код, which BP keeps
// unique over the whole catalog (Catalogs/Номенклатура.xml: CheckUnique, CodeSeries
// WholeCatalog, a string of 11), like the counterparties. Groups (the catalog is hierarchical)
// are no items.
const itemsText = `// finbot: catalog.nomenclature
ВЫБРАТЬ ПЕРВЫЕ 1000
	Номенклатура.Ссылка КАК Ссылка,
	Номенклатура.Код КАК Код,
	Номенклатура.Наименование КАК Наименование,
	Номенклатура.НаименованиеПолное КАК НаименованиеПолное,
	ЕСТЬNULL(Номенклатура.ЕдиницаИзмерения.Наименование, "") КАК ЕдиницаИзмерения,
	Номенклатура.ПометкаУдаления КАК ПометкаУдаления
ИЗ
	Справочник.Номенклатура КАК Номенклатура
ГДЕ
	НЕ Номенклатура.ЭтоГруппа
	И (&ПослеКода = ""
			ИЛИ Номенклатура.Код > &ПослеКода)
УПОРЯДОЧИТЬ ПО
	Код`

// StockAllAccounts are the СчетКод and СчетМаска of address.stock.balance over every quantity
// account.
func StockAllAccounts() (code, mask string) { return "", stockAccountsAll }
