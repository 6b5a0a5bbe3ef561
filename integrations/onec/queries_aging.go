package onec

import (
	"strconv"
	"strings"
)

// Aging of receivables and payables («задолженность по срокам долга», «старение дебиторки»): the
// debt at a date split by how long it is overdue, as BP 3.0's reports «Задолженность
// покупателей по срокам долга» and «Задолженность поставщикам по срокам долга» split it
// (kassya20/buh, Reports/ЗадолженностьПокупателейПоСрокамДолга and CommonModules/
// СрокиОплатыДокументов, ПросроченнаяЗадолженность):
//
//   - the debt is Остатки at the date (&НаДату, 00:00:00 of the next day: the whole as-of day
//     counted), so only what was posted up to that day counts — a payment made after the date
//     does not reduce it. Per account, counterparty, contract and settlement document, the
//     debit balances of 62 (the credit ones of 60): BP's СуммаРазвернутыйОстатокДт (…Кт). An
//     advance or an overpaid document is no debt and is not aged;
//   - the due date of a settlement document is its date plus the contract's payment term:
//     Справочник.ДоговорыКонтрагентов.СрокОплаты (days) when its УстановленСрокОплаты («Установлен
//     срок оплаты по договору») is set, else the base's default, &СрокОплатыПоУмолчанию (BP's
//     constants СрокОплатыПокупателей, СрокОплатыПоставщикам; the lane passes
//     ONEC_DEFAULT_PAYMENT_DAYS). BP's per-document terms (РегистрСведений.СрокиОплатыДокументов)
//     and a contract's fixed payment date (ДатаОплаты) are not read;
//   - a document is overdue when its due date is before the as-of day (BP: СрокОплаты <
//     НачалоДня(ДатаЗадолженности)); the intervals are bounded by &Граница0 (00:00:00 of the
//     as-of day) and &Граница1…&Граница6 (that day less each bound of days, the longest last):
//     Интервал0 is not yet due, Интервал1 overdue 1 to the first bound of days, Интервал2 up to
//     the second, …, Интервал7 more than the last one. Fewer bounds are passed as the last bound
//     repeated: the intervals between are empty;
//   - where the base keeps no settlement document on a line (Субконто3 empty: an organization
//     that does not keep settlements per document), BP dates the debt by its increases: the
//     newest debits of the line (credits of 60) make up the debt, FIFO — the debt less what was
//     added within a bound is older than it (ТекстЗапросаПодсчетПросроченногоДолгаБезДокументов).
//     The template does the same with the line's records up to the date: Нарастающий0…6 add the
//     increases due no earlier than each bound, and the line's debt is placed in the intervals
//     up to them, the rest in Интервал7. An increase is a record on the debt's side with a
//     positive amount; a storno there (a correction posted as a negative amount) lowers the
//     debt as a payment does and is no increase — counted as a negative increase, as BP's
//     netted turnover counts it, it made intervals negative on the realistic base.
//
// The rows are per counterparty and contract, summed in 1C; with &Разрез other than
// "Договоры", per counterparty (a real base has more open contracts than the toolkit's 1,000
// rows: the realistic base's head organization has 1,178 contracts in debt on 62 and 796
// counterparties). КоличествоДокументов counts the open debt documents, СамыйРаннийСрок is the
// earliest due date among them (the longest overdue), СрокОплатыДней the term applied and
// СрокПоДоговору 1 where it is the contract's own.

// Query IDs of the aging templates (the lane's recipes receivables_aging and payables_aging).
const (
	idAgingReceivables = "address.aging.receivables"
	idAgingPayables    = "address.aging.payables"
)

// AgingBounds is how many bounds of days overdue the aging templates take (&Граница1…6): up to
// six overdue intervals and the one past the last bound.
const AgingBounds = 6

// AgingColumns are the intervals of an aging row: not yet due, then overdue up to each bound,
// then past the last one.
const AgingColumns = AgingBounds + 2

// AgingByContract is the &Разрез of an aging template that keeps the contracts apart; any other
// value sums a counterparty's contracts.
const AgingByContract = "Договоры"

var (
	pDefaultDays = paramSpec{name: "СрокОплатыПоУмолчанию", kind: kindNumber}
	pBreakdown   = paramSpec{name: "Разрез", kind: kindString}
)

// agingParams are the parameters of the aging templates.
var agingParams = func() []paramSpec {
	ps := []paramSpec{pAsOf, pOrg, pAccCode, pAccMask, pCpOpt, pDefaultDays, pBreakdown}
	for i := range AgingBounds + 1 {
		ps = append(ps, paramSpec{name: agingBound(i), kind: kindDate})
	}
	return ps
}()

// agingBound is the name of the i-th bound parameter (Граница0 is the as-of day itself).
func agingBound(i int) string { return "Граница" + strconv.Itoa(i) }

// AgingBoundParam is the name of the i-th bound parameter of the aging templates.
func AgingBoundParam(i int) string { return agingBound(i) }

var (
	agingReceivablesText = agingText(idAgingReceivables, "Дт")
	agingPayablesText    = agingText(idAgingPayables, "Кт")
)

// agingText is the aging template over the side of the debt: Дт for receivables (62: what the
// customers owe is a debit balance, their debt grows by debits), Кт for payables (60).
func agingText(id, side string) string {
	var b strings.Builder
	b.WriteString(`// finbot: ` + id + `
ВЫБРАТЬ
	Долги.Контрагент КАК Контрагент,
	Долги.Контрагент.Наименование КАК КонтрагентНаименование,
	Долги.Договор КАК Договор,
	Долги.Договор.Наименование КАК ДоговорНаименование,
	МАКСИМУМ(Долги.СрокОплатыДней) КАК СрокОплатыДней,
	МАКСИМУМ(Долги.СрокПоДоговору) КАК СрокПоДоговору,
	СУММА(Долги.Долг) КАК Долг,`)
	for i := range AgingColumns {
		b.WriteString(`
	СУММА(Долги.Интервал` + strconv.Itoa(i) + `) КАК Интервал` + strconv.Itoa(i) + `,`)
	}
	b.WriteString(`
	СУММА(Долги.Документов) КАК КоличествоДокументов,
	МИНИМУМ(Долги.СрокОплаты) КАК СамыйРаннийСрок
ИЗ
	(ВЫБРАТЬ
		Строки.Контрагент КАК Контрагент,
		ВЫБОР
			КОГДА &Разрез = "` + AgingByContract + `"
				ТОГДА Строки.Договор
			ИНАЧЕ NULL
		КОНЕЦ КАК Договор,
		Строки.СрокОплатыДней КАК СрокОплатыДней,
		Строки.СрокПоДоговору КАК СрокПоДоговору,
		Строки.Долг КАК Долг,`)
	for i := range AgingColumns {
		n := strconv.Itoa(i)
		b.WriteString(`
		Строки.Интервал` + n + ` КАК Интервал` + n + `,`)
	}
	b.WriteString(`
		Строки.Документов КАК Документов,
		Строки.СрокОплаты КАК СрокОплаты
	ИЗ
		(` + nest(agingByDocument(side), 2) + `

		ОБЪЕДИНИТЬ ВСЕ

		` + nest(agingByIncrease(side), 2) + `) КАК Строки) КАК Долги
СГРУППИРОВАТЬ ПО
	Долги.Контрагент,
	Долги.Контрагент.Наименование,
	Долги.Договор,
	Долги.Договор.Наименование
УПОРЯДОЧИТЬ ПО
	КонтрагентНаименование,
	ДоговорНаименование`)
	return b.String()
}

// agingTerm is the payment term of a contract (the expression of its reference), in days: its
// own when BP's «Установлен срок оплаты по договору» is set, else the default.
func agingTerm(contract string) string {
	return `ВЫБОР
	КОГДА ` + contract + `.УстановленСрокОплаты
		ТОГДА ` + contract + `.СрокОплаты
	ИНАЧЕ &СрокОплатыПоУмолчанию
КОНЕЦ`
}

// agingOwnTerm is 1 where the contract has its own term, else 0.
func agingOwnTerm(contract string) string {
	return `ВЫБОР
	КОГДА ` + contract + `.УстановленСрокОплаты
		ТОГДА 1
	ИНАЧЕ 0
КОНЕЦ`
}

// agingLines are the lines of Остатки in debt on the side asked — per account, counterparty,
// contract and settlement document — whose document is (documented) or is not there.
func agingLines(side string, documented bool) string {
	doc := `НЕ Ост.Субконто3.Дата ЕСТЬ NULL`
	if !documented {
		doc = `Ост.Субконто3.Дата ЕСТЬ NULL`
	}
	return `(ВЫБРАТЬ
	Ост.Счет КАК Счет,
	Ост.Субконто1 КАК Контрагент,
	Ост.Субконто2 КАК Договор,
	Ост.Субконто3.Дата КАК ДатаДокумента,
	` + nest(agingTerm("Ост.Субконто2"), 1) + ` КАК СрокОплатыДней,
	` + nest(agingOwnTerm("Ост.Субконто2"), 1) + ` КАК СрокПоДоговору,
	Ост.СуммаОстаток` + side + ` КАК Долг
ИЗ
	РегистрБухгалтерии.Хозрасчетный.Остатки(
			&НаДату,
			Счет.Код = &СчетКод
				ИЛИ Счет.Код ПОДОБНО &СчетМаска,
			,
			` + vtOrgCondition + `
				И (&Контрагент ЕСТЬ NULL
					ИЛИ Субконто1 = &Контрагент)) КАК Ост
ГДЕ
	Ост.Субконто1 ССЫЛКА Справочник.Контрагенты
	И Ост.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов
	И ` + doc + `
	И Ост.СуммаОстаток` + side + ` > 0)`
}

// agingByDocument places each open debt document in its interval by its due date.
func agingByDocument(side string) string {
	var b strings.Builder
	b.WriteString(`ВЫБРАТЬ
	Документы.Контрагент КАК Контрагент,
	Документы.Договор КАК Договор,
	Документы.СрокОплатыДней КАК СрокОплатыДней,
	Документы.СрокПоДоговору КАК СрокПоДоговору,
	Документы.Долг КАК Долг,`)
	for i := range AgingColumns {
		var cond string
		switch {
		case i == 0:
			cond = `Документы.СрокОплаты >= &` + agingBound(0)
		case i == AgingColumns-1:
			cond = `Документы.СрокОплаты < &` + agingBound(i-1)
		default:
			cond = `Документы.СрокОплаты < &` + agingBound(i-1) + `
				И Документы.СрокОплаты >= &` + agingBound(i)
		}
		b.WriteString(`
	ВЫБОР
		КОГДА ` + cond + `
			ТОГДА Документы.Долг
		ИНАЧЕ 0
	КОНЕЦ КАК Интервал` + strconv.Itoa(i) + `,`)
	}
	b.WriteString(`
	1 КАК Документов,
	Документы.СрокОплаты КАК СрокОплаты
ИЗ
	(ВЫБРАТЬ
		Линии.Контрагент КАК Контрагент,
		Линии.Договор КАК Договор,
		Линии.СрокОплатыДней КАК СрокОплатыДней,
		Линии.СрокПоДоговору КАК СрокПоДоговору,
		Линии.Долг КАК Долг,
		ДОБАВИТЬКДАТЕ(Линии.ДатаДокумента, ДЕНЬ, Линии.СрокОплатыДней) КАК СрокОплаты
	ИЗ
		` + nest(agingLines(side, true), 2) + ` КАК Линии) КАК Документы`)
	return b.String()
}

// agingByIncrease places the debt of a line without settlement documents by its increases,
// newest first (BP's method for debts without documents).
func agingByIncrease(side string) string {
	var b strings.Builder
	b.WriteString(`ВЫБРАТЬ
	Доли.Контрагент,
	Доли.Договор,
	Доли.СрокОплатыДней,
	Доли.СрокПоДоговору,
	Доли.Долг,
	Доли.Доля0,`)
	for i := 1; i < AgingColumns-1; i++ {
		b.WriteString(`
	Доли.Доля` + strconv.Itoa(i) + ` - Доли.Доля` + strconv.Itoa(i-1) + `,`)
	}
	b.WriteString(`
	Доли.Долг - Доли.Доля` + strconv.Itoa(AgingColumns-2) + `,
	0,
	NULL
ИЗ
	(ВЫБРАТЬ
		Линии.Контрагент КАК Контрагент,
		Линии.Договор КАК Договор,
		Линии.СрокОплатыДней КАК СрокОплатыДней,
		Линии.СрокПоДоговору КАК СрокПоДоговору,
		Линии.Долг КАК Долг,`)
	for i := range AgingColumns - 1 {
		n := strconv.Itoa(i)
		added := `ЕСТЬNULL(Приросты.Нарастающий` + n + `, 0)`
		b.WriteString(`
		ВЫБОР
			КОГДА ` + added + ` < Линии.Долг
				ТОГДА ` + added + `
			ИНАЧЕ Линии.Долг
		КОНЕЦ КАК Доля` + n)
		if i < AgingColumns-2 {
			b.WriteString(`,`)
		}
	}
	b.WriteString(`
	ИЗ
		` + nest(agingLines(side, false), 2) + ` КАК Линии
			ЛЕВОЕ СОЕДИНЕНИЕ (ВЫБРАТЬ
				Записи.Счет КАК Счет,
				Записи.Контрагент КАК Контрагент,
				Записи.Договор КАК Договор,`)
	for i := range AgingColumns - 1 {
		n := strconv.Itoa(i)
		b.WriteString(`
				СУММА(ВЫБОР
						КОГДА Записи.СрокОплаты >= &` + agingBound(i) + `
							ТОГДА Записи.Сумма
						ИНАЧЕ 0
					КОНЕЦ) КАК Нарастающий` + n)
		if i < AgingColumns-2 {
			b.WriteString(`,`)
		}
	}
	b.WriteString(`
			ИЗ
				(ВЫБРАТЬ
					Движения.Счет` + side + ` КАК Счет,
					Движения.Субконто` + side + `1 КАК Контрагент,
					Движения.Субконто` + side + `2 КАК Договор,
					Движения.Сумма КАК Сумма,
					ДОБАВИТЬКДАТЕ(Движения.Период, ДЕНЬ, ` + nest(agingTerm("Движения.Субконто"+side+"2"), 5) + `) КАК СрокОплаты
				ИЗ
					РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(
							,
							ДОБАВИТЬКДАТЕ(&НаДату, СЕКУНДА, -1),
							` + vtOrgCondition + `
								И (Счет` + side + `.Код = &СчетКод
									ИЛИ Счет` + side + `.Код ПОДОБНО &СчетМаска)
								И (&Контрагент ЕСТЬ NULL
									ИЛИ Субконто` + side + `1 = &Контрагент),
							,
							) КАК Движения
				ГДЕ
					Движения.Субконто` + side + `2 ССЫЛКА Справочник.ДоговорыКонтрагентов
					И Движения.Субконто` + side + `3.Дата ЕСТЬ NULL
					И Движения.Сумма > 0) КАК Записи
			СГРУППИРОВАТЬ ПО
				Записи.Счет,
				Записи.Контрагент,
				Записи.Договор) КАК Приросты
			ПО Линии.Счет = Приросты.Счет
				И Линии.Контрагент = Приросты.Контрагент
				И Линии.Договор = Приросты.Договор) КАК Доли`)
	return b.String()
}
