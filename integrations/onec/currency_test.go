package onec

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// A hand-made ledger with currency settlements: an export contract in USD and one in EUR on
// 62.21, the currency account 52 and a rouble contract on 62.01. The chart marks 52 and 62.21
// «Валютный»; 62.01 keeps no currency.
const (
	cuOrg     = "00000000-0000-0000-0000-00000000c0a1"
	cuParty   = "00000000-0000-0000-0000-00000000c0c1"
	cuUSD     = "00000000-0000-0000-0000-00000000c0d1"
	cuEUR     = "00000000-0000-0000-0000-00000000c0d2"
	cuRUB     = "00000000-0000-0000-0000-00000000c0d3"
	cuSaleUSD = "00000000-0000-0000-0000-00000000c0b1"
	cuSaleEUR = "00000000-0000-0000-0000-00000000c0b2"
	cuSaleRUB = "00000000-0000-0000-0000-00000000c0b3"
	cuPayUSD  = "00000000-0000-0000-0000-00000000c0b4"
	cuPayEUR  = "00000000-0000-0000-0000-00000000c0b5"
)

func currencyLedger() *Ledger {
	at := func(s string) LocalTime {
		t, err := time.Parse("2006-01-02T15:04:05", s)
		if err != nil {
			panic(err)
		}
		return LocalTime{t}
	}
	settle := func(ctr, doc string) []Subconto {
		return []Subconto{{Kind: "Контрагенты", Ref: cuParty}, {Kind: "ДоговорыКонтрагентов", Ref: ctr},
			{Kind: "ДокументыРасчетовСКонтрагентами", Ref: doc}}
	}
	doc := func(ref, typ, date, ctr string, amount Kopecks) Document {
		return Document{Ref: ref, Type: typ, Number: "В-" + ref[len(ref)-2:], Date: at(date), Posted: true, OrganizationRef: cuOrg,
			CounterpartyRef: cuParty, ContractRef: ctr, Amount: amount}
	}
	return &Ledger{
		Organizations:  []Organization{{Ref: cuOrg, Name: "ООО «Экспорт»", INN: "7700000002", Default: true}},
		Counterparties: []Counterparty{{Ref: cuParty, Name: "Global Trade LLC", Kind: "legal"}},
		Contracts: []Contract{
			{Ref: cuUSD, OwnerRef: cuParty, OrganizationRef: cuOrg, Number: "ВЭД-1", Name: "Контракт ВЭД-1 (USD)", Kind: "with_customer", Currency: "USD"},
			{Ref: cuEUR, OwnerRef: cuParty, OrganizationRef: cuOrg, Number: "ВЭД-2", Name: "Контракт ВЭД-2 (EUR)", Kind: "with_customer", Currency: "EUR"},
			{Ref: cuRUB, OwnerRef: cuParty, OrganizationRef: cuOrg, Number: "Р-1", Name: "Договор Р-1", Kind: "with_customer", Currency: "RUB"},
		},
		Accounts: []Account{
			{Code: "52", Name: "Валютные счета", Type: "active", Currency: true},
			{Code: "62.01", Name: "Расчеты с покупателями и заказчиками", Type: "active_passive", Subconto: settlementKinds},
			{Code: "62.21", Name: "Расчеты с покупателями и заказчиками (в валюте)", Type: "active_passive", Subconto: settlementKinds, Currency: true},
			{Code: "90.01.1", Name: "Выручка", Type: "passive"},
			{Code: "91.01", Name: "Прочие доходы", Type: "passive"},
		},
		Documents: []Document{
			doc(cuSaleUSD, "РеализацияТоваровУслуг", "2025-02-10T10:00:00", cuUSD, 9_000_000),
			doc(cuSaleEUR, "РеализацияТоваровУслуг", "2025-02-11T10:00:00", cuEUR, 4_900_000),
			doc(cuSaleRUB, "РеализацияТоваровУслуг", "2025-02-12T10:00:00", cuRUB, 1_000_000),
			doc(cuPayUSD, "ПоступлениеНаРасчетныйСчет", "2025-03-03T10:00:00", cuUSD, 3_680_000),
			doc(cuPayEUR, "ПоступлениеНаРасчетныйСчет", "2025-03-04T10:00:00", cuEUR, 5_000_000),
		},
		Movements: []Movement{
			// 1 000,00 USD sold at 90: 90 000,00 ₽.
			{Period: at("2025-02-10T10:00:00"), RecorderRef: cuSaleUSD, RecorderType: "РеализацияТоваровУслуг", Line: 1, OrganizationRef: cuOrg,
				AccountDr: "62.21", SubcontoDr: settle(cuUSD, cuSaleUSD), AccountCr: "90.01.1", Amount: 9_000_000,
				CurrencyDr: "USD", CurrencyAmountDr: 100_000},
			// 500,00 EUR sold at 98: 49 000,00 ₽.
			{Period: at("2025-02-11T10:00:00"), RecorderRef: cuSaleEUR, RecorderType: "РеализацияТоваровУслуг", Line: 1, OrganizationRef: cuOrg,
				AccountDr: "62.21", SubcontoDr: settle(cuEUR, cuSaleEUR), AccountCr: "90.01.1", Amount: 4_900_000,
				CurrencyDr: "EUR", CurrencyAmountDr: 50_000},
			// A rouble sale: its records name a currency the account does not keep, which 1C drops.
			{Period: at("2025-02-12T10:00:00"), RecorderRef: cuSaleRUB, RecorderType: "РеализацияТоваровУслуг", Line: 1, OrganizationRef: cuOrg,
				AccountDr: "62.01", SubcontoDr: settle(cuRUB, cuSaleRUB), AccountCr: "90.01.1", Amount: 1_000_000,
				CurrencyDr: "USD", CurrencyAmountDr: 12_345},
			// 400,00 USD received at 92: the receivable revalued by 800,00 ₽ (its currency kept,
			// no currency amount), then closed by 36 800,00 ₽ — 600,00 USD stay owed.
			{Period: at("2025-03-03T10:00:00"), RecorderRef: cuPayUSD, RecorderType: "ПоступлениеНаРасчетныйСчет", Line: 1, OrganizationRef: cuOrg,
				AccountDr: "62.21", SubcontoDr: settle(cuUSD, cuSaleUSD), AccountCr: "91.01", Amount: 80_000, CurrencyDr: "USD"},
			{Period: at("2025-03-03T10:00:00"), RecorderRef: cuPayUSD, RecorderType: "ПоступлениеНаРасчетныйСчет", Line: 2, OrganizationRef: cuOrg,
				AccountDr: "52", AccountCr: "62.21", SubcontoCr: settle(cuUSD, cuSaleUSD), Amount: 3_680_000,
				CurrencyDr: "USD", CurrencyAmountDr: 40_000, CurrencyCr: "USD", CurrencyAmountCr: 40_000},
			// 250,00 EUR received for 50 000,00 ₽ with no revaluation: the contract is overpaid in
			// roubles (Кт 1 000,00) while 250,00 EUR are still owed (Дт).
			{Period: at("2025-03-04T10:00:00"), RecorderRef: cuPayEUR, RecorderType: "ПоступлениеНаРасчетныйСчет", Line: 1, OrganizationRef: cuOrg,
				AccountDr: "52", AccountCr: "62.21", SubcontoCr: settle(cuEUR, cuSaleEUR), Amount: 5_000_000,
				CurrencyDr: "EUR", CurrencyAmountDr: 25_000, CurrencyCr: "EUR", CurrencyAmountCr: 25_000},
		},
	}
}

var settlementKinds = []string{"Контрагенты", "ДоговорыКонтрагентов", "ДокументыРасчетовСКонтрагентами"}

// The register's Валюта and ВалютнаяСумма as the query language reads them: a dimension and a
// resource with the признак учёта «Валютный», kept on 52 and 62.21 per currency and NULL on
// 62.01 (BP's own queries: ЕСТЬNULL(Остатки.Валюта, …), ВЫБОР КОГДА Счет.Валютный ТОГДА
// ВалютнаяСуммаОстаток); each resource's Дт and Кт placed by its own balance.
func TestCurrencyFieldsOfTheRegister(t *testing.T) {
	d := NewDemo(currencyLedger())
	tpl := templateByID[idBalanceSnapshot]
	params := map[string]any{"НаДату": "2025-04-01T00:00:00", "Организация": Ref{UUID: cuOrg, Type: TypeOrganization}.Param(),
		"СчетКод": "62", "СчетМаска": "62.%"}
	run := func(t *testing.T, text string) []map[string]any {
		t.Helper()
		rows, err := d.query(context.Background(), tpl, text, params, MaxDemoRows)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	currency := func(v any) any { // a reference as its type and presentation; NULL as is
		if r, ok := RefOf(v); ok {
			return r.Type + " " + r.Presentation
		}
		return v
	}
	num := func(s string) json.Number { return json.Number(s) }
	tests := []struct {
		name, text string
		cols       []string
		want       [][]any
	}{
		{"Остатки per account and currency", `ВЫБРАТЬ
	Ост.Счет.Код КАК Счет,
	Ост.Субконто2.Наименование КАК Договор,
	Ост.Валюта КАК Валюта,
	Ост.СуммаОстатокДт КАК СуммаДт,
	Ост.СуммаОстатокКт КАК СуммаКт,
	Ост.ВалютнаяСуммаОстаток КАК Вал,
	Ост.ВалютнаяСуммаОстатокДт КАК ВалДт,
	Ост.ВалютнаяСуммаОстатокКт КАК ВалКт
ИЗ
	РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату, Счет.Код В ("52", "62.01", "62.21"), , Организация = &Организация) КАК Ост
УПОРЯДОЧИТЬ ПО
	Счет,
	Договор`,
			[]string{"Счет", "Договор", "Валюта", "СуммаДт", "СуммаКт", "Вал", "ВалДт", "ВалКт"},
			[][]any{
				// 52 is active: both currencies' balances in Дт
				{"52", WireNull, "СправочникСсылка.Валюты EUR", num("50000"), num("0"), num("250"), num("250"), num("0")},
				{"52", WireNull, "СправочникСсылка.Валюты USD", num("36800"), num("0"), num("400"), num("400"), num("0")},
				// 62.01 keeps no currency: NULL, the record's «USD» dropped
				{"62.01", "Договор Р-1", WireNull, num("10000"), num("0"), WireNull, WireNull, WireNull},
				// 90 000 + 800 − 36 800 = 54 000,00 ₽ for 600,00 USD
				{"62.21", "Контракт ВЭД-1 (USD)", "СправочникСсылка.Валюты USD", num("54000"), num("0"), num("600"), num("600"), num("0")},
				// roubles overpaid (Кт), euros still owed (Дт): each resource by its own sign
				{"62.21", "Контракт ВЭД-2 (EUR)", "СправочникСсылка.Валюты EUR", num("0"), num("1000"), num("250"), num("250"), num("0")},
			}},
		{"Валюта in the condition of Остатки", `ВЫБРАТЬ
	Ост.Счет.Код КАК Счет,
	Ост.СуммаОстаток КАК Сумма
ИЗ
	РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату, , , Валюта ЕСТЬ NULL) КАК Ост
ГДЕ
	Ост.Счет.Код ПОДОБНО "62%"`,
			[]string{"Счет", "Сумма"},
			[][]any{{"62.01", num("10000")}}},
		{"ОстаткиИОбороты of March", `ВЫБРАТЬ
	Ост.Счет.Код КАК Счет,
	Ост.Валюта КАК Валюта,
	Ост.ВалютнаяСуммаНачальныйОстаток КАК Начало,
	Ост.ВалютнаяСуммаОборотДт КАК ОборотДт,
	Ост.ВалютнаяСуммаОборотКт КАК ОборотКт,
	Ост.ВалютнаяСуммаКонечныйОстатокДт КАК КонецДт,
	Ост.СуммаКонечныйОстаток КАК Сумма
ИЗ
	РегистрБухгалтерии.Хозрасчетный.ОстаткиИОбороты(ДОБАВИТЬКДАТЕ(&НаДату, МЕСЯЦ, -1), ДОБАВИТЬКДАТЕ(&НаДату, СЕКУНДА, -1), , , Счет.Код = "62.21", , ) КАК Ост
УПОРЯДОЧИТЬ ПО
	Валюта`,
			[]string{"Счет", "Валюта", "Начало", "ОборотДт", "ОборотКт", "КонецДт", "Сумма"},
			[][]any{
				{"62.21", "СправочникСсылка.Валюты EUR", num("500"), num("0"), num("250"), num("250"), num("-1000")},
				// the revaluation moves roubles only: a Дт turnover of 0 USD
				{"62.21", "СправочникСсылка.Валюты USD", num("1000"), num("0"), num("400"), num("600"), num("54000")},
			}},
		{"the register's own records", `ВЫБРАТЬ
	Д.СчетДт.Код КАК СчетДт,
	Д.СчетКт.Код КАК СчетКт,
	Д.ВалютаДт КАК ВалютаДт,
	Д.ВалютнаяСуммаДт КАК ВалДт,
	Д.ВалютаКт КАК ВалютаКт,
	Д.ВалютнаяСуммаКт КАК ВалКт,
	Д.Сумма КАК Сумма
ИЗ
	РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(ДОБАВИТЬКДАТЕ(&НаДату, МЕСЯЦ, -1), , ) КАК Д
УПОРЯДОЧИТЬ ПО
	Сумма`,
			[]string{"СчетДт", "СчетКт", "ВалютаДт", "ВалДт", "ВалютаКт", "ВалКт", "Сумма"},
			[][]any{
				// the revaluation: 62.21 keeps USD with no amount, 91.01 no currency at all
				{"62.21", "91.01", "СправочникСсылка.Валюты USD", num("0"), WireNull, WireNull, num("800")},
				{"52", "62.21", "СправочникСсылка.Валюты USD", num("400"), "СправочникСсылка.Валюты USD", num("400"), num("36800")},
				{"52", "62.21", "СправочникСсылка.Валюты EUR", num("250"), "СправочникСсылка.Валюты EUR", num("250"), num("50000")},
			}},
		{"the chart's «Валютный»", `ВЫБРАТЬ
	С.Код КАК Код,
	С.Валютный КАК Валютный
ИЗ
	ПланСчетов.Хозрасчетный КАК С
УПОРЯДОЧИТЬ ПО
	Код`,
			[]string{"Код", "Валютный"},
			[][]any{{"52", true}, {"62.01", false}, {"62.21", true}, {"90.01.1", false}, {"91.01", false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [][]any
			for _, r := range run(t, tt.text) {
				row := make([]any, len(tt.cols))
				for i, c := range tt.cols {
					row[i] = currency(r[c])
				}
				got = append(got, row)
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}
