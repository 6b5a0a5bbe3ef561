package bpmeta

import "strings"

// englishKinds maps the English spelling of an object kind in a query to the Russian one.
var englishKinds = map[string]string{
	"CATALOG": Catalog, "DOCUMENT": Document, "ENUM": Enum, "CHARTOFACCOUNTS": ChartOfAccounts,
	"CHARTOFCHARACTERISTICTYPES": ChartOfCharacteristic, "ACCOUNTINGREGISTER": AccountingRegister,
	"INFORMATIONREGISTER": "РегистрСведений", "ACCUMULATIONREGISTER": "РегистрНакопления",
}

// objectKinds are the kinds of metadata object a query can name, Russian spelling.
var objectKinds = []string{Catalog, Document, Enum, ChartOfAccounts, ChartOfCharacteristic, AccountingRegister,
	"РегистрСведений", "РегистрНакопления", "ПланОбмена", "ЖурналДокументов", "ПланВидовРасчета",
	"РегистрРасчета", "БизнесПроцесс", "Задача", "Последовательность", "Константа", "КритерийОтбора"}

// canonicalKind returns the Russian spelling of an object kind, or "" if the word is not one.
func canonicalKind(k string) string {
	if e, ok := englishKinds[strings.ToUpper(k)]; ok {
		return e
	}
	for _, r := range objectKinds {
		if equalNames(r, k) {
			return r
		}
	}
	return ""
}

// primitive reports whether a type name is not an object reference (Строка, Число, ВидСчета …).
func primitive(t string) bool { return !strings.Contains(t, ".") }

// documentStandard are the columns every document has, for the wildcard type Документ.* (an
// accounting register's Регистратор).
var documentStandard = map[string][]string{
	"ССЫЛКА": {Document + ".*"}, "ДАТА": {"Дата"}, "НОМЕР": {"Строка"}, "ПРОВЕДЕН": {"Булево"},
	"ПОМЕТКАУДАЛЕНИЯ": {"Булево"}, "ПРЕДСТАВЛЕНИЕ": {"Строка"}, "МОМЕНТВРЕМЕНИ": {"МоментВремени"},
	"ВЕРСИЯДАННЫХ": {"Строка"},
}

// periodicities are the words the Периодичность parameter takes.
var periodicities = []string{"Период", "Регистратор", "Запись", "Авто", "Секунда", "Минута", "Час", "День",
	"Неделя", "Декада", "Месяц", "Квартал", "Полугодие", "Год",
	"Period", "Recorder", "Record", "Auto", "Second", "Minute", "Hour", "Day", "Week", "TenDays", "Month",
	"Quarter", "HalfYear", "Year"}

// methods are the words МетодДополнения takes.
var methods = []string{"Движения", "ДвиженияИГраницыПериода", "Movements", "RegisterRecordsAndPeriodBoundaries"}

func oneOf(word string, words []string) bool {
	for _, w := range words {
		if equalNames(w, word) {
			return true
		}
	}
	return false
}

// englishFields maps the English names of standard columns to the Russian ones the extract
// records.
var englishFields = map[string]string{
	"REF": "Ссылка", "DELETIONMARK": "ПометкаУдаления", "PREDEFINED": "Предопределенный",
	"PREDEFINEDDATANAME": "ИмяПредопределенныхДанных", "CODE": "Код", "DESCRIPTION": "Наименование",
	"OWNER": "Владелец", "PARENT": "Родитель", "ISFOLDER": "ЭтоГруппа", "DATE": "Дата", "NUMBER": "Номер",
	"POSTED": "Проведен", "PRESENTATION": "Представление", "DATAVERSION": "ВерсияДанных",
	"POINTINTIME": "МоментВремени", "LINENUMBER": "НомерСтроки", "PERIOD": "Период", "RECORDER": "Регистратор",
	"ACTIVE": "Активность", "ACCOUNT": "Счет", "ACCOUNTDR": "СчетДт", "ACCOUNTCR": "СчетКт", "TYPE": "Вид",
	"OFFBALANCE": "Забалансовый", "ORDER": "Порядок", "VALUETYPE": "ТипЗначения",
}
