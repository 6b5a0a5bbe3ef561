package onec

import "strings"

// Templates over documents and catalogs.

// documentsWhereByParty, documentsWhereByContract and bankOpsWhere are the filters of the
// document templates; every branch of the ОБЪЕДИНИТЬ ВСЕ repeats them.
const (
	documentsWhereByParty = `
	И Док.Дата МЕЖДУ &НачалоПериода И &КонецПериода
	И Док.Организация = &Организация
	И Док.Контрагент = &Контрагент`

	documentsWhereByContract = `
	И Док.Дата МЕЖДУ &НачалоПериода И &КонецПериода
	И Док.Организация = &Организация
	И Док.ДоговорКонтрагента = &Договор`

	bankOpsWhere = `
	И (&НачалоПериода = НЕОПРЕДЕЛЕНО
			ИЛИ Док.Дата >= &НачалоПериода)
	И (&КонецПериода = НЕОПРЕДЕЛЕНО
			ИЛИ Док.Дата <= &КонецПериода)
	И Док.Организация = &Организация
	И Док.Контрагент = &Контрагент`
)

var (
	documentsByPartyText    = documentsText(idDocumentsByParty, documentTypes, documentsWhereByParty, true)
	documentsByContractText = documentsText(idDocumentsByTreaty, documentTypes, documentsWhereByContract, true)
	bankOpsByPartyText      = documentsText(idBankOpsByParty, bankDocumentTypes, bankOpsWhere, false)
)

// documentsText builds one ОБЪЕДИНИТЬ ВСЕ branch per document type. Deletion-marked documents
// are left out; unposted ones stay, with Проведен = ЛОЖЬ. Bank documents have a bank account
// and a payment purpose; for the others the comment stands in for the purpose.
func documentsText(id string, types []string, where string, byType bool) string {
	var b strings.Builder
	b.WriteString("// finbot: " + id)
	for i, typ := range types {
		if i > 0 {
			b.WriteString("\n\nОБЪЕДИНИТЬ ВСЕ\n")
		}
		account, purpose := "NULL", "Док.Комментарий"
		if isBankDocument(typ) {
			account, purpose = "Док.СчетОрганизации.НомерСчета", "Док.НазначениеПлатежа"
		}
		b.WriteString(`
ВЫБРАТЬ
	Док.Ссылка КАК Ссылка,
	Док.Номер КАК Номер,
	Док.Дата КАК Дата,
	Док.Проведен КАК Проведен,
	Док.ПометкаУдаления КАК ПометкаУдаления,
	Док.Организация КАК Организация,
	Док.Контрагент КАК Контрагент,
	Док.ДоговорКонтрагента КАК Договор,
	Док.СуммаДокумента КАК СуммаДокумента,
	` + account + ` КАК БанковскийСчет,
	` + purpose + ` КАК НазначениеПлатежа
ИЗ
	Документ.` + typ + ` КАК Док
ГДЕ
	НЕ Док.ПометкаУдаления` + where)
		if byType {
			b.WriteString(`
	И (&ТипДокумента = ""
			ИЛИ &ТипДокумента = "` + typ + `")`)
		}
	}
	b.WriteString(`
УПОРЯДОЧИТЬ ПО
	Дата УБЫВ,
	Номер УБЫВ`)
	return b.String()
}

// organizationsText: our legal entities. BP keeps the main organization as a user setting; in
// this base it is the predefined element, and the runtime uses it when a question names none.
const organizationsText = `// finbot: catalog.organizations
ВЫБРАТЬ
	Организации.Ссылка КАК Ссылка,
	Организации.Наименование КАК Наименование,
	Организации.ИНН КАК ИНН,
	Организации.КПП КАК КПП,
	Организации.Предопределенный КАК Основная
ИЗ
	Справочник.Организации КАК Организации
ГДЕ
	НЕ Организации.ПометкаУдаления
УПОРЯДОЧИТЬ ПО
	Наименование`

// counterpartiesText: all counterparties, deletion-marked ones included and flagged, so that a
// name resolver can say why it skipped one.
const counterpartiesText = `// finbot: catalog.counterparties
ВЫБРАТЬ
	Контрагенты.Ссылка КАК Ссылка,
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
УПОРЯДОЧИТЬ ПО
	Наименование`

// contractsText: all contracts with their owner and organization.
const contractsText = `// finbot: catalog.contracts
ВЫБРАТЬ
	Договоры.Ссылка КАК Ссылка,
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
	Договоры.ПометкаУдаления КАК ПометкаУдаления
ИЗ
	Справочник.ДоговорыКонтрагентов КАК Договоры
ГДЕ
	НЕ Договоры.ЭтоГруппа
УПОРЯДОЧИТЬ ПО
	Договоры.Владелец.Наименование,
	Дата,
	Номер`

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
	Счета.ПометкаУдаления КАК ПометкаУдаления
ИЗ
	Справочник.БанковскиеСчета КАК Счета
ГДЕ
	Счета.Владелец ССЫЛКА Справочник.Организации
УПОРЯДОЧИТЬ ПО
	Счета.Владелец.Наименование,
	НомерСчета`

// accountsText: the chart of accounts with its analytics kinds joined by commas.
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
		КОНЕЦ КАК ВидыСубконто
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
