package onec

import "strings"

// Templates over documents and catalogs.

// docFilter is one document template's filter, written once per ОБЪЕДИНИТЬ ВСЕ branch over the
// branch's own fields: head is the document (Док, or Стр.Ссылка for a tabular section), anchor
// the counterparty or contract field it is filtered by.
type docFilter func(head, party, contract string) string

func documentsByPartyWhere(head, party, _ string) string {
	return `
	И ` + head + `.Дата МЕЖДУ &НачалоПериода И &КонецПериода
	И ` + orgCondition(head+".Организация") + `
	И ` + party + ` = &Контрагент`
}

func documentsByContractWhere(head, _, contract string) string {
	return `
	И ` + head + `.Дата МЕЖДУ &НачалоПериода И &КонецПериода
	И ` + orgCondition(head+".Организация") + `
	И ` + contract + ` = &Договор`
}

// bankOpsWhere: a period bound not given is NULL (the toolkit passes JSON null as 1C's Null,
// never Неопределено), and ЕСТЬ NULL is the only test a Null passes.
func bankOpsWhere(head, party, _ string) string {
	return `
	И (&НачалоПериода ЕСТЬ NULL
			ИЛИ ` + head + `.Дата >= &НачалоПериода)
	И (&КонецПериода ЕСТЬ NULL
			ИЛИ ` + head + `.Дата <= &КонецПериода)
	И ` + orgCondition(head+".Организация") + `
	И ` + party + ` = &Контрагент`
}

var (
	documentsByPartyText    = documentsText(idDocumentsByParty, documentTypes, documentsByPartyWhere, true, false)
	documentsByContractText = documentsText(idDocumentsByTreaty, documentTypes, documentsByContractWhere, true, true)
	bankOpsByPartyText      = documentsText(idBankOpsByParty, bankDocumentTypes, bankOpsWhere, false, false)
)

// documentsText builds one ОБЪЕДИНИТЬ ВСЕ branch per document type. Deletion-marked documents
// are left out; unposted ones stay, with Проведен = ЛОЖЬ. Bank documents have a bank account
// and a payment purpose; for the others the comment stands in for the purpose. Two BP 3.0
// documents differ from the rest (kassya20/buh, Documents/*.xml):
//
//   - ВводНачальныхОстатков has no Контрагент, ДоговорКонтрагента or СуммаДокумента in its
//     header: the settlement balances are lines of its tabular section РасчетыСКонтрагентами,
//     with Сумма for a debit balance and СуммаКт for a credit one. The branch reads the lines
//     of the counterparty (or contract), one row per document, counterparty and contract.
//   - АктСверкиВзаиморасчетов has no СуммаДокумента: an act of reconciliation moves no money,
//     so its amount is 0 (never NULL, which the toolkit would send as "").
//   - КорректировкаДолга has neither Контрагент nor ДоговорКонтрагента nor СуммаДокумента: its
//     counterparties are КонтрагентДебитор (whose receivables it moves, lines of
//     ДебиторскаяЗадолженность) and КонтрагентКредитор (payables, КредиторскаяЗадолженность),
//     each line with its contract and Сумма. Two branches read the two sections, one row per
//     document, side and contract.
//
// byLines (the documents of a contract): a payment by bank or cash is read from its decoding
// РасшифровкаПлатежа, one row per document and contract with the amount paid under it, so
// that a payment split over several contracts is found by any of them, not only by the
// header's ДоговорКонтрагента (BP fills the header from the first line). BP's cash orders
// (ПриходныйКассовыйОрдер, РасходныйКассовыйОрдер) have the same section, with the same
// ДоговорКонтрагента and СуммаПлатежа, as the bank documents (kassya20/buh,
// Documents/ПриходныйКассовыйОрдер.xml, TabularSection РасшифровкаПлатежа).
func documentsText(id string, types []string, where docFilter, byType, byLines bool) string {
	var b strings.Builder
	b.WriteString("// finbot: " + id)
	for i, typ := range types {
		if i > 0 {
			b.WriteString("\n\nОБЪЕДИНИТЬ ВСЕ\n")
		}
		typeCond := ""
		if byType {
			typeCond = `
	И (&ТипДокумента = ""
			ИЛИ &ТипДокумента = "` + typ + `")`
		}
		switch {
		case typ == openingBalancesType:
			b.WriteString(openingBalancesBranch(where) + typeCond)
		case typ == debtCorrectionType:
			b.WriteString(debtBranch("ДебиторскаяЗадолженность", "КонтрагентДебитор", where) + typeCond)
			b.WriteString("\n\nОБЪЕДИНИТЬ ВСЕ\n")
			b.WriteString(debtBranch("КредиторскаяЗадолженность", "КонтрагентКредитор", where) + typeCond)
		case byLines && hasPaymentLines(typ):
			b.WriteString(paymentLinesBranch(typ, where) + typeCond)
		default:
			b.WriteString(documentBranch(typ, where) + typeCond)
		}
	}
	b.WriteString(`
УПОРЯДОЧИТЬ ПО
	Дата УБЫВ,
	Номер УБЫВ`)
	return b.String()
}

// documentBranch reads a document whose header carries the counterparty, the contract and the
// amount (or, for the act of reconciliation, no amount).
func documentBranch(typ string, where docFilter) string {
	account, purpose, amount := "NULL", "Док.Комментарий", "Док.СуммаДокумента"
	if isBankDocument(typ) {
		account, purpose = "Док.СчетОрганизации.НомерСчета", "Док.НазначениеПлатежа"
	}
	if typ == reconciliationType {
		amount = "0"
	}
	return `
ВЫБРАТЬ
	Док.Ссылка КАК Ссылка,
	Док.Номер КАК Номер,
	Док.Дата КАК Дата,
	Док.Проведен КАК Проведен,
	Док.ПометкаУдаления КАК ПометкаУдаления,
	Док.Организация КАК Организация,
	Док.Контрагент КАК Контрагент,
	Док.ДоговорКонтрагента КАК Договор,
	` + amount + ` КАК СуммаДокумента,
	` + account + ` КАК БанковскийСчет,
	` + purpose + ` КАК НазначениеПлатежа
ИЗ
	Документ.` + typ + ` КАК Док
ГДЕ
	НЕ Док.ПометкаУдаления` + where("Док", "Док.Контрагент", "Док.ДоговорКонтрагента")
}

// openingBalancesBranch reads ВводНачальныхОстатков: its settlement lines summed per document,
// counterparty and contract in a nested query (the header's Комментарий is an unlimited
// string, which cannot be grouped by), the header joined by dereference.
func openingBalancesBranch(where docFilter) string {
	return `
ВЫБРАТЬ
	Стр.Ссылка КАК Ссылка,
	Стр.Ссылка.Номер КАК Номер,
	Стр.Ссылка.Дата КАК Дата,
	Стр.Ссылка.Проведен КАК Проведен,
	Стр.Ссылка.ПометкаУдаления КАК ПометкаУдаления,
	Стр.Ссылка.Организация КАК Организация,
	Стр.Контрагент КАК Контрагент,
	Стр.Договор КАК Договор,
	Стр.Сумма КАК СуммаДокумента,
	NULL КАК БанковскийСчет,
	Стр.Ссылка.Комментарий КАК НазначениеПлатежа
ИЗ
	(ВЫБРАТЬ
		Строки.Ссылка КАК Ссылка,
		Строки.Контрагент КАК Контрагент,
		Строки.ДоговорКонтрагента КАК Договор,
		СУММА(Строки.Сумма + Строки.СуммаКт) КАК Сумма
	ИЗ
		Документ.` + openingBalancesType + `.РасчетыСКонтрагентами КАК Строки
	СГРУППИРОВАТЬ ПО
		Строки.Ссылка,
		Строки.Контрагент,
		Строки.ДоговорКонтрагента) КАК Стр
ГДЕ
	НЕ Стр.Ссылка.ПометкаУдаления` + where("Стр.Ссылка", "Стр.Контрагент", "Стр.Договор")
}

// debtBranch reads one tabular section of КорректировкаДолга, its lines summed per document and
// contract, the counterparty of that side from the header.
func debtBranch(section, party string, where docFilter) string {
	return `
ВЫБРАТЬ
	Стр.Ссылка КАК Ссылка,
	Стр.Ссылка.Номер КАК Номер,
	Стр.Ссылка.Дата КАК Дата,
	Стр.Ссылка.Проведен КАК Проведен,
	Стр.Ссылка.ПометкаУдаления КАК ПометкаУдаления,
	Стр.Ссылка.Организация КАК Организация,
	Стр.Ссылка.` + party + ` КАК Контрагент,
	Стр.Договор КАК Договор,
	Стр.Сумма КАК СуммаДокумента,
	NULL КАК БанковскийСчет,
	Стр.Ссылка.Комментарий КАК НазначениеПлатежа
ИЗ
	(ВЫБРАТЬ
		Строки.Ссылка КАК Ссылка,
		Строки.ДоговорКонтрагента КАК Договор,
		СУММА(Строки.Сумма) КАК Сумма
	ИЗ
		Документ.` + debtCorrectionType + `.` + section + ` КАК Строки
	СГРУППИРОВАТЬ ПО
		Строки.Ссылка,
		Строки.ДоговорКонтрагента) КАК Стр
ГДЕ
	НЕ Стр.Ссылка.ПометкаУдаления` + where("Стр.Ссылка", "Стр.Ссылка."+party, "Стр.Договор")
}

// paymentLinesBranch reads a payment by its decoding РасшифровкаПлатежа: the lines summed per
// document and contract (СуммаПлатежа), the header joined by dereference. A cash order has no
// bank account and no payment purpose (its comment stands in, as in documentBranch).
func paymentLinesBranch(typ string, where docFilter) string {
	account, purpose := "NULL", "Стр.Ссылка.Комментарий"
	if isBankDocument(typ) {
		account, purpose = "Стр.Ссылка.СчетОрганизации.НомерСчета", "Стр.Ссылка.НазначениеПлатежа"
	}
	return `
ВЫБРАТЬ
	Стр.Ссылка КАК Ссылка,
	Стр.Ссылка.Номер КАК Номер,
	Стр.Ссылка.Дата КАК Дата,
	Стр.Ссылка.Проведен КАК Проведен,
	Стр.Ссылка.ПометкаУдаления КАК ПометкаУдаления,
	Стр.Ссылка.Организация КАК Организация,
	Стр.Ссылка.Контрагент КАК Контрагент,
	Стр.Договор КАК Договор,
	Стр.Сумма КАК СуммаДокумента,
	` + account + ` КАК БанковскийСчет,
	` + purpose + ` КАК НазначениеПлатежа
ИЗ
	(ВЫБРАТЬ
		Строки.Ссылка КАК Ссылка,
		Строки.ДоговорКонтрагента КАК Договор,
		СУММА(Строки.СуммаПлатежа) КАК Сумма
	ИЗ
		Документ.` + typ + `.РасшифровкаПлатежа КАК Строки
	СГРУППИРОВАТЬ ПО
		Строки.Ссылка,
		Строки.ДоговорКонтрагента) КАК Стр
ГДЕ
	НЕ Стр.Ссылка.ПометкаУдаления` + where("Стр.Ссылка", "Стр.Ссылка.Контрагент", "Стр.Договор")
}

// organizationsText: our legal entities. BP keeps the main organization as a user setting in
// ХранилищеОбщихНастроек (Справочники.Организации.ОрганизацияПоУмолчанию), which no query
// reads; Организации has no predefined elements, so Предопределенный is always false. The
// runtime takes the only organization, or the one configured (see agent/ledger/runner).
// ГоловнаяОрганизация is the organization itself, or for an обособленное подразделение on its
// own balance its head: the runtime says which divisions an answer on the head includes
// (orgCondition).
const organizationsText = `// finbot: catalog.organizations
ВЫБРАТЬ
	Организации.Ссылка КАК Ссылка,
	Организации.Наименование КАК Наименование,
	Организации.ИНН КАК ИНН,
	Организации.КПП КАК КПП,
	Организации.ГоловнаяОрганизация КАК ГоловнаяОрганизация
ИЗ
	Справочник.Организации КАК Организации
ГДЕ
	НЕ Организации.ПометкаУдаления
УПОРЯДОЧИТЬ ПО
	Наименование`

// catalogPage is the page of the paged catalogs (ВЫБРАТЬ ПЕРВЫЕ), the toolkit's largest limit.
const catalogPage = 1000

// counterpartiesText: the counterparties, deletion-marked ones included and flagged, so that a
// name resolver can say why it skipped one. A real catalog passes the toolkit's 1,000 rows, so
// it is read in pages: by Код, which BP keeps unique over the whole catalog (CheckUnique,
// CodeSeries WholeCatalog in Catalogs/Контрагенты.xml), each page after the last code of the
// one before ("" for the first).
const counterpartiesText = `// finbot: catalog.counterparties
ВЫБРАТЬ ПЕРВЫЕ 1000
	Контрагенты.Ссылка КАК Ссылка,
	Контрагенты.Код КАК Код,
	Контрагенты.Наименование КАК Наименование,
	Контрагенты.НаименованиеПолное КАК НаименованиеПолное,
	Контрагенты.ИНН КАК ИНН,
	Контрагенты.КПП КАК КПП,
	ВЫБОР
		КОГДА Контрагенты.ЮридическоеФизическоеЛицо = ЗНАЧЕНИЕ(Перечисление.ЮридическоеФизическоеЛицо.ФизическоеЛицо)
			ТОГДА "ИндивидуальныйПредприниматель"
		ИНАЧЕ "ЮрЛицо"
	КОНЕЦ КАК ЮрФизЛицо,
	Контрагенты.ПометкаУдаления КАК ПометкаУдаления
ИЗ
	Справочник.Контрагенты КАК Контрагенты
ГДЕ
	НЕ Контрагенты.ЭтоГруппа
	И (&ПослеКода = ""
			ИЛИ Контрагенты.Код > &ПослеКода)
УПОРЯДОЧИТЬ ПО
	Код`

// contractsText: the contracts with their owner and organization, in pages by Код like the
// counterparties (Catalogs/ДоговорыКонтрагентов.xml: unique over the whole catalog), and their
// payment term as BP keeps it: УстановленСрокОплаты («Установлен срок оплаты по договору») and
// СрокОплаты in days, which the counterparty card shows beside an open contract (the aging
// reads the same two attributes in its own template).
const contractsText = `// finbot: catalog.contracts
ВЫБРАТЬ ПЕРВЫЕ 1000
	Договоры.Ссылка КАК Ссылка,
	Договоры.Код КАК Код,
	Договоры.Владелец КАК Владелец,
	Договоры.Организация КАК Организация,
	Договоры.Номер КАК Номер,
	Договоры.Дата КАК Дата,
	Договоры.Наименование КАК Наименование,
	ВЫБОР
		КОГДА Договоры.ВидДоговора = ЗНАЧЕНИЕ(Перечисление.ВидыДоговоровКонтрагентов.СПокупателем)
			ТОГДА "СПокупателем"
		КОГДА Договоры.ВидДоговора = ЗНАЧЕНИЕ(Перечисление.ВидыДоговоровКонтрагентов.СПоставщиком)
			ТОГДА "СПоставщиком"
		ИНАЧЕ "Прочее"
	КОНЕЦ КАК ВидДоговора,
	Договоры.ВалютаВзаиморасчетов.Наименование КАК ВалютаВзаиморасчетов,
	Договоры.ПометкаУдаления КАК ПометкаУдаления,
	Договоры.УстановленСрокОплаты КАК УстановленСрокОплаты,
	Договоры.СрокОплаты КАК СрокОплаты
ИЗ
	Справочник.ДоговорыКонтрагентов КАК Договоры
ГДЕ
	НЕ Договоры.ЭтоГруппа
	И (&ПослеКода = ""
			ИЛИ Договоры.Код > &ПослеКода)
УПОРЯДОЧИТЬ ПО
	Код`

// bankAccountsText: the settlement accounts of our own organizations (Справочник.БанковскиеСчета
// is owned by Организации, Контрагенты or ФизическиеЛица; only the first are read), deletion-
// marked ones included and flagged. The catalog is not hierarchical, so it has no groups. Банк
// is Справочник.Банки; an account entered without one gives "" rather than NULL.
const bankAccountsText = `// finbot: catalog.bank_accounts
ВЫБРАТЬ
	Счета.Ссылка КАК Ссылка,
	Счета.НомерСчета КАК НомерСчета,
	Счета.Владелец КАК Владелец,
	ЕСТЬNULL(Счета.Банк.Наименование, "") КАК Банк,
	ЕСТЬNULL(Счета.ВалютаДенежныхСредств.Наименование, "") КАК ВалютаДенежныхСредств,
	Счета.ПометкаУдаления КАК ПометкаУдаления,
	Счета.Владелец.Наименование КАК ВладелецНаименование
ИЗ
	Справочник.БанковскиеСчета КАК Счета
ГДЕ
	Счета.Владелец ССЫЛКА Справочник.Организации
УПОРЯДОЧИТЬ ПО
	ВладелецНаименование,
	НомерСчета`

// accountsText: the chart of accounts with its analytics kinds joined by commas, whether
// settlements on it are kept by settlement document, and whether it keeps quantities (the
// признак учёта Количественный: 10, 41, 43 in BP's chart). BP decides the latter the same way
// (БухгалтерскийУчет.НаСчетеВедетсяУчетПоДокументамРасчетов: one of the account's subconto
// kinds is ДокументыРасчетовСКонтрагентами); a base where the setting is off has no such kind on
// 60, 62 and 76, and 19.xx carries СФПолученные (received VAT invoices), never a settlement
// document.
const accountsText = `// finbot: catalog.accounts
ВЫБРАТЬ
	Счета.Код КАК Код,
	Счета.Наименование КАК Наименование,
	ВЫБОР
		КОГДА Счета.Вид = ЗНАЧЕНИЕ(ВидСчета.Активный)
			ТОГДА "Активный"
		КОГДА Счета.Вид = ЗНАЧЕНИЕ(ВидСчета.Пассивный)
			ТОГДА "Пассивный"
		ИНАЧЕ "АктивноПассивный"
	КОНЕЦ КАК Вид,
	ЕСТЬNULL(Субконто1.ВидСубконто.Наименование, "")
		+ ВЫБОР
			КОГДА Субконто2.ВидСубконто ЕСТЬ NULL
				ТОГДА ""
			ИНАЧЕ "," + Субконто2.ВидСубконто.Наименование
		КОНЕЦ
		+ ВЫБОР
			КОГДА Субконто3.ВидСубконто ЕСТЬ NULL
				ТОГДА ""
			ИНАЧЕ "," + Субконто3.ВидСубконто.Наименование
		КОНЕЦ КАК ВидыСубконто,
	ВЫБОР
		КОГДА Субконто1.ВидСубконто = ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.ДокументыРасчетовСКонтрагентами)
				ИЛИ Субконто2.ВидСубконто = ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.ДокументыРасчетовСКонтрагентами)
				ИЛИ Субконто3.ВидСубконто = ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.ДокументыРасчетовСКонтрагентами)
			ТОГДА ИСТИНА
		ИНАЧЕ ЛОЖЬ
	КОНЕЦ КАК УчетПоДокументамРасчетов,
	Счета.Количественный КАК Количественный
ИЗ
	ПланСчетов.Хозрасчетный КАК Счета
		ЛЕВОЕ СОЕДИНЕНИЕ ПланСчетов.Хозрасчетный.ВидыСубконто КАК Субконто1
		ПО (Субконто1.Ссылка = Счета.Ссылка)
			И (Субконто1.НомерСтроки = 1)
		ЛЕВОЕ СОЕДИНЕНИЕ ПланСчетов.Хозрасчетный.ВидыСубконто КАК Субконто2
		ПО (Субконто2.Ссылка = Счета.Ссылка)
			И (Субконто2.НомерСтроки = 2)
		ЛЕВОЕ СОЕДИНЕНИЕ ПланСчетов.Хозрасчетный.ВидыСубконто КАК Субконто3
		ПО (Субконто3.Ссылка = Счета.Ссылка)
			И (Субконто3.НомерСтроки = 3)
ГДЕ
	НЕ Счета.ПометкаУдаления
УПОРЯДОЧИТЬ ПО
	Код`
