package onec

import "strings"

// Offset candidates («взаимозачёт», «встречные долги»): the counterparties that at a date are
// both our debtor and our creditor — what BP 3.0 nets with «Корректировка долга», its operation
// «Зачет взаимных требований» (Документ.КорректировкаДолга, tables ДебиторскаяЗадолженность and
// КредиторскаяЗадолженность, each line a contract and its settlement account). The template
// reads the settlement balances per account and contract, as address.open_contracts.by_asof
// does — Остатки(&НаДату) over 60, 62, 76 and their sub-accounts, the organization (with its
// обособленные подразделения) and optionally one counterparty in the virtual table's
// parameters, summed in 1C per account, organization, counterparty, contract and currency —
// and keeps only the lines of the counterparties that have both:
//
//   - a line that is their debt to us: a debit balance (Дт > Кт) of a contract on 62 or 76 and
//     their sub-accounts;
//   - a line that is our debt to them: a credit balance (Кт > Дт) of a contract on 60 or 76.
//
// Neither side counts an advance sub-account (60.02, 62.02 and their currency and у.е. twins
// 60.22, 60.32, 62.22, 62.32: an advance is settled by the delivery it paid for, not netted as
// a debt) nor a line with a currency (Валюта not NULL: 60.21, 62.21, the у.е. accounts — a
// currency debt is netted at the rate of the act's day, which no balance holds). The lines
// returned are every settlement line of those counterparties, the advances and currency lines
// among them, so that the lane shows them apart; which of them pair is the lane's
// (agent/ledger/runner/offsets.go). On a real base the head organization's open contracts are
// more than one answer of the toolkit (the realistic base: 3,886 lines on 60, 62, 76), while
// the counterparties on both sides are a few dozen: the filter runs in 1C.

// idOffsets is the offset candidates' template (the lane's recipe offset_candidates).
const idOffsets = "address.offsets.candidates"

// advanceAccounts are the advance sub-accounts of BP 3.0's chart (ПланСчетов.Хозрасчетный:
// РасчетыПоАвансамВыданным 60.02, …Вал 60.22, …УЕ 60.32; РасчетыПоАвансамПолученным 62.02,
// 62.22, 62.32), which no side of an offset counts.
var advanceAccounts = []string{"60.02", "60.22", "60.32", "62.02", "62.22", "62.32"}

// AdvanceAccount reports whether code is an advance sub-account (advanceAccounts).
func AdvanceAccount(code string) bool {
	for _, a := range advanceAccounts {
		if code == a {
			return true
		}
	}
	return false
}

// contractLinesNested is the nested query of settlement balances per account, organization,
// counterparty, contract and currency (address.open_contracts.by_asof's Т).
var contractLinesNested = `(ВЫБРАТЬ
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
	Ост.Субконто1 ССЫЛКА Справочник.Контрагенты
	И Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
	И Ост.Субконто2 <> ЗНАЧЕНИЕ(Справочник.ДоговорыКонтрагентов.ПустаяСсылка)
СГРУППИРОВАТЬ ПО
	Ост.Счет.Код,
	Ост.Организация,
	Ост.Субконто1,
	Ост.Субконто2,
	Ост.Валюта)`

// offsetSide is the condition of a line of Встречные that is one side of an offset: a rouble
// line, not an advance, of the accounts given, whose balance is on the side given (Дт: their
// debt to us; Кт: ours to them).
func offsetSide(side string, accounts ...string) string {
	other := map[string]string{"Дт": "Кт", "Кт": "Дт"}[side]
	var acc []string
	for _, a := range accounts {
		acc = append(acc, `Встречные.Счет = "`+a+`"
						ИЛИ Встречные.Счет ПОДОБНО "`+a+`.%"`)
	}
	return `ВЫБОР
				КОГДА Встречные.Валюта ЕСТЬ NULL
						И НЕ Встречные.Счет В ("` + strings.Join(advanceAccounts, `", "`) + `")
						И (` + strings.Join(acc, `
						ИЛИ `) + `)
						И Встречные.СуммаОстаток` + side + ` > Встречные.СуммаОстаток` + other + `
					ТОГДА 1
				ИНАЧЕ 0
			КОНЕЦ`
}

// offsetsText: the settlement lines of the counterparties that are both our debtor and our
// creditor at the date.
var offsetsText = `// finbot: ` + idOffsets + partyColumns + `
	NULL КАК ДокументРасчетов,
	NULL КАК ДокументРасчетовДата,
	NULL КАК ДокументРасчетовНомер,
	Т.СуммаОстатокДт КАК СуммаОстатокДт,
	Т.СуммаОстатокКт КАК СуммаОстатокКт,` + currencyColumns + `
ИЗ
	` + nest(contractLinesNested, 1) + ` КАК Т
ГДЕ
	Т.Контрагент В
		(ВЫБРАТЬ
			Встречные.Контрагент
		ИЗ
			` + nest(contractLinesNested, 3) + ` КАК Встречные
		СГРУППИРОВАТЬ ПО
			Встречные.Контрагент
		ИМЕЮЩИЕ
			СУММА(` + offsetSide("Дт", "62", "76") + `) > 0
			И СУММА(` + offsetSide("Кт", "60", "76") + `) > 0)
УПОРЯДОЧИТЬ ПО
	КонтрагентНаименование,
	Счет,
	ДоговорНаименование,
	Валюта`
