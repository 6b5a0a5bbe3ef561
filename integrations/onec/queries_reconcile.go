package onec

import "strings"

// The act of reconciliation («акт сверки взаиморасчётов») with one counterparty (optionally one
// of its contracts) over a period, as BP 3.0's document АктСверкиВзаиморасчетов fills «По данным
// организации» (kassya20/buh, BP 3.0.198.19: Documents/АктСверкиВзаиморасчетов ManagerModule,
// ПодготовитьДанныеДляЗаполнения; the query is CommonModules/УчетВзаиморасчетов,
// ТекстЗапросаРасчетыСКонтрагентами):
//
//   - the accounts are the settlement accounts BP lists for the act
//     (УчетВзаиморасчетов.ПолучитьТаблицуСчетовУчетаВзаиморасчетов: the accounts of 58, 60, 62,
//     66, 67, 76 that carry both Контрагенты and Договоры, 76.НА, 76.07.1 and 76.07.9 excluded):
//     those and their sub-accounts (reconcileAccountRoots), on the lines whose Субконто1 is the
//     counterparty and Субконто2 a contract (76.АВ/76.ВА carry a VAT invoice there and drop out),
//     all currencies in roubles (BP's act in the regulated currency reads СуммаОстаток and
//     СуммаОборот, not ВалютнаяСумма);
//   - the opening balance is Остатки at the start of the period (BP: Остатки(&ДатаНачала, …)),
//     net, Дт − Кт over those lines; the closing one at its end, the same way;
//   - a line of the act is one registrar of the period with its movements on those lines: our
//     debit (the counterparty's debt to us grows: a sale, our payment to them) and our credit
//     (a payment from them, a purchase from them). A record with both sides on the
//     counterparty's settlement lines (an advance offset 62.02 → 62.01, 60.01 → 60.02, a debt
//     netting between its 60 and 62) moves nothing between the two companies and is left out,
//     as BP leaves out a turnover whose КорСчет is a settlement account and КорСубконто1 the
//     counterparty (with a contract asked: and КорСубконто2 that contract);
//   - a return to a supplier and a correction of a purchase (ВозвратТоваровПоставщику,
//     КорректировкаПоступления) are a negative credit, never a debit, as BP prints them: the
//     supplier's act has them as a negative sale.
//
// So the closing balance is the opening one plus the lines' debit less their credit, exactly:
// a record left out moves nothing on the act's lines taken together. The lane checks it.
//
// Dates. НачалоПериода is 00:00:00 of the first day, КонецПериода 23:59:59 of the last; Остатки
// of ОстаткиИОбороты' start excludes records at НачалоПериода itself, and both ends of the
// turnovers and ДвиженияССубконто are inclusive.

// Query IDs of the act of reconciliation (the lane's recipe reconciliation_act runs both).
const (
	idReconcileBalances = "address.reconciliation.balances"
	idReconcileLines    = "address.reconciliation.lines"
)

// reconcileParams are the parameters of the act's templates.
var reconcileParams = []paramSpec{pFrom, pTo, pOrg, pCp, pCtrOpt}

// reconcileAccountRoots are the settlement accounts of BP's act
// (УчетВзаиморасчетов.ПолучитьТаблицуСчетовУчетаВзаиморасчетов): the hierarchies of 58
// (ФинансовыеВложения: 58.03 ПредоставленныеЗаймы carries the counterparty and the contract), 60,
// 62, 66 and 67 (loans and credits received, their interest), 76 (АрендныеПлатежи 76.07.2 among
// its sub-accounts). Only the accounts that carry both Контрагенты and Договоры are BP's: here the
// lines whose Субконто1 is the counterparty and Субконто2 a contract.
var reconcileAccountRoots = []string{"58", "60", "62", "66", "67", "76"}

// reconcileExcluded are BP's exclusions (СписокСчетовИсключить): 76.НА, the VAT of a tax agent;
// 76.07.1 АрендныеОбязательства and 76.07.9 НДСпоАренднымОбязательствам, the lease liability.
var reconcileExcluded = []string{"76.НА", "76.07.1", "76.07.9"}

// reconcileAccountCondition is the condition on an account code acc: one of the roots or under
// one, not excluded.
func reconcileAccountCondition(acc, indent string) string {
	var roots, like []string
	for _, r := range reconcileAccountRoots {
		roots = append(roots, `"`+r+`"`)
		like = append(like, acc+` ПОДОБНО "`+r+`.%"`)
	}
	var ex []string
	for _, e := range reconcileExcluded {
		ex = append(ex, `"`+e+`"`)
	}
	return `(` + acc + ` В (` + strings.Join(roots, ", ") + `)
` + indent + `ИЛИ ` + strings.Join(like, "\n"+indent+"ИЛИ ") + `)
` + indent[:len(indent)-1] + `И НЕ ` + acc + ` В (` + strings.Join(ex, ", ") + `)`
}

// reconcileAccounts is the act's account condition on the virtual tables' УсловиеСчета.
var reconcileAccounts = reconcileAccountCondition("Счет.Код", "\t\t\t\t\t")

// reconcileSide is a record's side (Дт or Кт) on the act: a settlement account of the act, the
// counterparty in its Субконто1, a contract (the one asked, if any) in its Субконто2.
func reconcileSide(side string) string {
	acc := `Движения.Счет` + side + `.Код`
	return reconcileAccountCondition(acc, "\t\t\t\t\t") + `
				И Движения.Субконто` + side + `1 = &Контрагент
				И Движения.Субконто` + side + `2 ССЫЛКА Справочник.ДоговорыКонтрагентов
				И (&Договор ЕСТЬ NULL
					ИЛИ Движения.Субконто` + side + `2 = &Договор)`
}

// reconcileRecords is the condition of ДвиженияССубконто on one side of a record: a settlement
// account of the act with the counterparty in its first subconto (the rest is reconcileSide's,
// in ГДЕ).
func reconcileRecords(side string) string {
	return reconcileAccountCondition(`Счет`+side+`.Код`, "\t\t\t\t\t\t\t\t") + `
							И Субконто` + side + `1 = &Контрагент`
}

// reconcileBalancesText: the act's opening and closing balance, net (Дт − Кт: positive, the
// counterparty owes us), in the columns of the account card's totals. Its turnovers are the
// lines' gross ones, internal offsets included: the act's turnovers are its lines'.
var reconcileBalancesText = `// finbot: address.reconciliation.balances
ВЫБРАТЬ
	ЕСТЬNULL(СУММА(Строки.НачальноеСальдо), 0) КАК НачальноеСальдо,
	ЕСТЬNULL(СУММА(Строки.ОборотДт), 0) КАК ОборотДт,
	ЕСТЬNULL(СУММА(Строки.ОборотКт), 0) КАК ОборотКт,
	ЕСТЬNULL(СУММА(Строки.КонечноеСальдо), 0) КАК КонечноеСальдо
ИЗ
	(ВЫБРАТЬ
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
				` + reconcileAccounts + `,
				,
				` + vtOrgCondition + `
					И Субконто1 = &Контрагент
					И (&Договор ЕСТЬ NULL
						ИЛИ Субконто2 = &Договор)) КАК ОиО
	ГДЕ
		ОиО.Субконто2 ССЫЛКА Справочник.ДоговорыКонтрагентов) КАК Строки`

// incomingTypes are the registrars whose number and date are the counterparty's (BP 3.0's
// НомерВходящегоДокумента and ДатаВходящегоДокумента, both attributes of the type in the
// metadata extract): a purchase and its correction (the supplier's invoice or UPD), a bank
// receipt or payment (the payment order's). BP prints them on the act
// (ДанныеПервичныхДокументов.Номер and .Дата, which BP fills from those attributes); an empty
// one falls back to ours.
var incomingTypes = []string{"ПоступлениеТоваровУслуг", "КорректировкаПоступления", "ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета"}

// incomingField is the attribute field of a registrar of incomingTypes, NULL for the others.
func incomingField(field string) string {
	var b strings.Builder
	b.WriteString("ВЫБОР")
	for _, t := range incomingTypes {
		b.WriteString(`
			КОГДА Строки.Регистратор ССЫЛКА Документ.` + t + `
				ТОГДА ВЫРАЗИТЬ(Строки.Регистратор КАК Документ.` + t + `).` + field)
	}
	b.WriteString(`
		КОНЕЦ`)
	return b.String()
}

// reconcileLinesText: one row per registrar of the period — its date (the record's Период, as
// BP's act dates a line), its number, the settlement account it moved, its debit and credit
// on the act, and the incoming number and date of a document that has them (NULL otherwise). The conditions on the account and the counterparty stand in the virtual table's
// parameter, so 1C reads only the counterparty's settlement records.
var reconcileLinesText = `// finbot: address.reconciliation.lines
ВЫБРАТЬ
	Строки.Регистратор КАК Регистратор,
	МИНИМУМ(Строки.Период) КАК Дата,
	Строки.Регистратор.Номер КАК Номер,
	МАКСИМУМ(Строки.Счет) КАК Счет,
	СУММА(Строки.Дебет) КАК Дебет,
	СУММА(Строки.Кредит) КАК Кредит,
	МАКСИМУМ(` + incomingField("НомерВходящегоДокумента") + `) КАК НомерВходящегоДокумента,
	МАКСИМУМ(` + incomingField("ДатаВходящегоДокумента") + `) КАК ДатаВходящегоДокумента
ИЗ
	(ВЫБРАТЬ
		Записи.Регистратор КАК Регистратор,
		Записи.Период КАК Период,
		ВЫБОР
			КОГДА Записи.НаДебете = 1
				ТОГДА Записи.СчетДт
			ИНАЧЕ Записи.СчетКт
		КОНЕЦ КАК Счет,
		ВЫБОР
			КОГДА Записи.НаДебете = 1
					И Записи.Возврат = 0
				ТОГДА Записи.Сумма
			ИНАЧЕ 0
		КОНЕЦ КАК Дебет,
		ВЫБОР
			КОГДА Записи.НаКредите = 1
				ТОГДА Записи.Сумма
			КОГДА Записи.Возврат = 1
				ТОГДА -Записи.Сумма
			ИНАЧЕ 0
		КОНЕЦ КАК Кредит
	ИЗ
		(ВЫБРАТЬ
			Движения.Регистратор КАК Регистратор,
			Движения.Период КАК Период,
			Движения.СчетДт.Код КАК СчетДт,
			Движения.СчетКт.Код КАК СчетКт,
			Движения.Сумма КАК Сумма,
			ВЫБОР
				КОГДА ` + reconcileSide("Дт") + `
					ТОГДА 1
				ИНАЧЕ 0
			КОНЕЦ КАК НаДебете,
			ВЫБОР
				КОГДА ` + reconcileSide("Кт") + `
					ТОГДА 1
				ИНАЧЕ 0
			КОНЕЦ КАК НаКредите,
			ВЫБОР
				КОГДА Движения.Регистратор ССЫЛКА Документ.ВозвратТоваровПоставщику
						ИЛИ Движения.Регистратор ССЫЛКА Документ.КорректировкаПоступления
					ТОГДА 1
				ИНАЧЕ 0
			КОНЕЦ КАК Возврат
		ИЗ
			РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(
					&НачалоПериода,
					&КонецПериода,
					` + vtOrgCondition + `
						И (` + reconcileRecords("Дт") + `
							ИЛИ ` + reconcileRecords("Кт") + `),
					,
					) КАК Движения) КАК Записи
	ГДЕ
		Записи.НаДебете + Записи.НаКредите = 1) КАК Строки
СГРУППИРОВАТЬ ПО
	Строки.Регистратор,
	Строки.Регистратор.Номер
ИМЕЮЩИЕ
	СУММА(Строки.Дебет) <> 0
	ИЛИ СУММА(Строки.Кредит) <> 0
УПОРЯДОЧИТЬ ПО
	Дата,
	Регистратор`
