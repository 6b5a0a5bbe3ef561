package onec

import (
	"context"
	"encoding/json"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// The register's Количество as the evaluator reads it, on the hand-made ledger of
// quantity_fixture_test.go: per side on the records, in the virtual tables per account, item
// and warehouse, NULL on an account without quantity accounting, three decimals exact.
func TestQuantityFieldsOfTheRegister(t *testing.T) {
	d := NewDemo(QuantityLedger())
	tpl := templateByID[idStockBalance]
	params := map[string]any{"НаДату": "2025-03-01T00:00:00", "Организация": Ref{UUID: qOrg, Type: TypeOrganization}.Param()}
	run := func(t *testing.T, text string) []map[string]any {
		t.Helper()
		rows, err := d.query(context.Background(), tpl, text, params, MaxDemoRows)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	pres := func(v any) any { // a reference as its presentation; NULL as is
		if r, ok := RefOf(v); ok {
			return r.Presentation
		}
		return v
	}
	num := func(s string) json.Number { return json.Number(s) }
	tests := []struct {
		name, text string
		cols       []string
		want       [][]any
	}{
		{"Остатки per account, item and warehouse", `ВЫБРАТЬ
	Ост.Счет.Код КАК Счет,
	Ост.Организация.Наименование КАК Организация,
	Ост.Субконто1 КАК Номенклатура,
	Ост.Субконто2 КАК Склад,
	Ост.СуммаОстаток КАК Сумма,
	Ост.КоличествоОстаток КАК Количество,
	Ост.КоличествоОстатокДт КАК КоличествоДт,
	Ост.КоличествоОстатокКт КАК КоличествоКт
ИЗ
	РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату, , , ) КАК Ост
ГДЕ
	Ост.Счет.Код В ("10.01", "41.01", "51")
УПОРЯДОЧИТЬ ПО
	Счет,
	Организация,
	Номенклатура,
	Склад`,
			[]string{"Счет", "Организация", "Номенклатура", "Склад", "Сумма", "Количество", "КоличествоДт", "КоличествоКт"},
			[][]any{
				{"10.01", "ООО «Склад»", "Цемент М500", WireNull, num("3120"), num("0.4"), num("0.4"), num("0")},
				{"41.01", "ООО «Другая»", "Цемент М500", nil, num("8775"), num("1.125"), num("1.125"), num("0")},
				{"41.01", "ООО «Склад»", "Бумага А4", "Основной склад", num("28000"), num("80"), num("80"), num("0")},
				// 3 packs received at no value: a balance of quantity alone is still a balance
				{"41.01", "ООО «Склад»", "Бумага А4", "Склад № 2", num("17500"), num("53"), num("53"), num("0")},
				{"41.01", "ООО «Склад» (филиал)", "Кабель ВВГ 3х2,5", "Основной склад", num("9547.5"), num("100.5"), num("100.5"), num("0")},
				// 51 keeps no quantity: NULL, the record's 5 dropped
				{"51", "ООО «Склад»", WireNull, WireNull, num("1000"), WireNull, WireNull, WireNull},
			}},
		{"the Субконто parameter sums the warehouses; the account condition reads Количественный", `ВЫБРАТЬ
	Ост.Счет.Код КАК Счет,
	Ост.Субконто1 КАК Номенклатура,
	Ост.Субконто1.ЕдиницаИзмерения.Наименование КАК Единица,
	Ост.Субконто1.ЕдиницаИзмерения.НаименованиеПолное КАК ЕдиницаПолная,
	Ост.Субконто2 КАК Второе,
	Ост.КоличествоОстаток КАК Количество
ИЗ
	РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату, Счет.Количественный, ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.Номенклатура),
		Организация = &Организация) КАК Ост
УПОРЯДОЧИТЬ ПО
	Счет,
	Номенклатура`,
			[]string{"Счет", "Номенклатура", "Единица", "ЕдиницаПолная", "Второе", "Количество"},
			[][]any{
				{"10.01", "Цемент М500", "т", "Тонна", WireNull, num("0.4")},
				{"41.01", "Бумага А4", "пачк", "Пачка", WireNull, num("133")},
			}},
		{"ОстаткиИОбороты of February", `ВЫБРАТЬ
	Ост.Субконто1 КАК Номенклатура,
	Ост.КоличествоНачальныйОстаток КАК Начало,
	Ост.КоличествоОборотДт КАК Приход,
	Ост.КоличествоОборотКт КАК Расход,
	Ост.КоличествоКонечныйОстаток КАК Конец,
	Ост.СуммаКонечныйОстаток КАК Сумма
ИЗ
	РегистрБухгалтерии.Хозрасчетный.ОстаткиИОбороты(ДОБАВИТЬКДАТЕ(&НаДату, МЕСЯЦ, -1), ДОБАВИТЬКДАТЕ(&НаДату, СЕКУНДА, -1), , , Счет.Код = "41.01",
		ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.Номенклатура), Организация = &Организация) КАК Ост
УПОРЯДОЧИТЬ ПО
	Номенклатура`,
			[]string{"Номенклатура", "Начало", "Приход", "Расход", "Конец", "Сумма"},
			[][]any{
				{"Бумага А4", num("130"), num("3"), num("0"), num("133"), num("45500")},
				// bought and sold within the month: turnovers, no balance
				{"Стол письменный", num("0"), num("1"), num("1"), num("0"), num("0")},
			}},
		{"the register's own records", `ВЫБРАТЬ
	Д.СчетДт.Код КАК СчетДт,
	Д.СчетКт.Код КАК СчетКт,
	Д.КоличествоДт КАК КоличествоДт,
	Д.КоличествоКт КАК КоличествоКт,
	Д.Сумма КАК Сумма
ИЗ
	РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(ДОБАВИТЬКДАТЕ(&НаДату, ДЕНЬ, -40), ДОБАВИТЬКДАТЕ(&НаДату, ДЕНЬ, -33), Организация = &Организация) КАК Д
УПОРЯДОЧИТЬ ПО
	Сумма`,
			[]string{"СчетДт", "СчетКт", "КоличествоДт", "КоличествоКт", "Сумма"},
			[][]any{
				{"20.01", "10.01", WireNull, num("0.1"), num("780")},
				{"51", "62.01", WireNull, WireNull, num("1000")},
				{"10.01", "60.01", num("0.5"), WireNull, num("3900")},
				{"90.02.1", "41.01", WireNull, num("20"), num("7000")},
			}},
		{"the chart's «Количественный»", `ВЫБРАТЬ
	С.Код КАК Код,
	С.Количественный КАК Количественный
ИЗ
	ПланСчетов.Хозрасчетный КАК С
ГДЕ
	С.Код В ("10.01", "41.01", "51")
УПОРЯДОЧИТЬ ПО
	Код`,
			[]string{"Код", "Количественный"},
			[][]any{{"10.01", true}, {"41.01", true}, {"51", false}}},
		{"the nomenclature and its units", `ВЫБРАТЬ
	Н.Код КАК Код,
	Н.Наименование КАК Наименование,
	Н.ЕдиницаИзмерения КАК Единица,
	Н.ПометкаУдаления КАК Удален
ИЗ
	Справочник.Номенклатура КАК Н
ГДЕ
	Н.ЕдиницаИзмерения ССЫЛКА Справочник.КлассификаторЕдиницИзмерения
		ИЛИ Н.ПометкаУдаления
УПОРЯДОЧИТЬ ПО
	Код`,
			[]string{"Код", "Наименование", "Единица", "Удален"},
			[][]any{
				{"00-00000001", "Бумага А4", "пачк", false},
				{"00-00000002", "Кабель ВВГ 3х2,5", "м", false},
				{"00-00000003", "Цемент М500", "т", false},
				{"00-00000004", "Стол письменный", "шт", false},
				{"00-00000005", "Бумага А4 (старая)", nil, true}, // no unit: the empty reference
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [][]any
			for _, r := range run(t, tt.text) {
				row := make([]any, len(tt.cols))
				for i, c := range tt.cols {
					row[i] = pres(r[c])
				}
				got = append(got, row)
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// address.stock.balance, decoded: per quantity account and item, over the head and its
// division, narrowed to an account or an item.
func TestStockBalanceTemplate(t *testing.T) {
	d := NewDemo(QuantityLedger())
	org := func(ref string) any { return Ref{UUID: ref, Type: TypeOrganization}.Param() }
	item := func(ref string) any { return Ref{UUID: ref, Type: TypeItem}.Param() }
	type line struct {
		Account, Item, Unit string
		Amount              Kopecks
		Quantity            Quantity
	}
	all, mask := StockAllAccounts()
	tests := []struct {
		name   string
		params Params
		want   []line
	}{
		{"every quantity account of the head with its division", Params{"Организация": org(qOrg), "СчетКод": all, "СчетМаска": mask, "Номенклатура": nil},
			[]line{{"10.01", "Цемент М500", "т", 312_000, 400}, {"41.01", "Бумага А4", "пачк", 4_550_000, 133_000},
				{"41.01", "Кабель ВВГ 3х2,5", "м", 954_750, 100_500}}},
		{"41 and its sub-accounts", Params{"Организация": org(qOrg), "СчетКод": "41", "СчетМаска": "41.%", "Номенклатура": nil},
			[]line{{"41.01", "Бумага А4", "пачк", 4_550_000, 133_000}, {"41.01", "Кабель ВВГ 3х2,5", "м", 954_750, 100_500}}},
		{"one item", Params{"Организация": org(qOrg), "СчетКод": all, "СчетМаска": mask, "Номенклатура": item(qCement)},
			[]line{{"10.01", "Цемент М500", "т", 312_000, 400}}},
		{"the division alone", Params{"Организация": org(qBranch), "СчетКод": all, "СчетМаска": mask, "Номенклатура": nil},
			[]line{{"41.01", "Кабель ВВГ 3х2,5", "м", 954_750, 100_500}}},
		{"an account that keeps no quantity has no line", Params{"Организация": org(qOrg), "СчетКод": "51", "СчетМаска": "51.%", "Номенклатура": nil},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.params["НаДату"] = "2025-03-01T00:00:00"
			res, err := d.Query(context.Background(), idStockBalance, tt.params, MaxDemoRows)
			if err != nil {
				t.Fatal(err)
			}
			var got []line
			for _, r := range res.Stock {
				if !r.Counted {
					t.Errorf("%s %s: the quantity is NULL", r.Account, r.Item.Presentation)
				}
				got = append(got, line{r.Account, r.Item.Presentation, r.Unit, r.Amount, r.Quantity})
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// catalog.nomenclature in pages of its Код, deletion-marked items flagged.
func TestItemsCatalog(t *testing.T) {
	d := NewDemo(QuantityLedger())
	res, err := d.Query(context.Background(), idCatalogItems, Params{"ПослеКода": "00-00000002"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := []ItemRow{
		{Ref: Ref{UUID: qCement, Type: TypeItem, Presentation: "Цемент М500"}, Code: "00-00000003", Name: "Цемент М500", FullName: "Цемент М500", Unit: "т"},
		{Ref: Ref{UUID: qDesk, Type: TypeItem, Presentation: "Стол письменный"}, Code: "00-00000004", Name: "Стол письменный", FullName: "Стол письменный", Unit: "шт"},
	}
	if diff := gocmp.Diff(want, res.Items); diff != "" {
		t.Errorf("the page after 00-00000002 (-want +got):\n%s", diff)
	}
	res, err = d.Query(context.Background(), idCatalogItems, Params{"ПослеКода": "00-00000004"}, 2)
	if err != nil || len(res.Items) != 1 || !res.Items[0].Deleted || res.Items[0].Unit != "" {
		t.Errorf("the last page: %+v %v; want the deletion-marked item without a unit", res.Items, err)
	}
}

// Quantities are exact to the thousandth, as 1C's Число(15, 3): read, written and summed.
func TestQuantityDecimal(t *testing.T) {
	for _, tt := range []struct {
		in, decimal, ru string
	}{
		{"15.3", "15.3", "15,3"}, {"-2", "-2", "−2"}, {"0.125", "0.125", "0,125"}, {"1200", "1200", "1\u00a0200"},
		{"100.500", "100.5", "100,5"}, {"0", "0", "0"}, {"+7.", "7", "7"},
	} {
		q, err := ParseQuantity(tt.in)
		if err != nil || q.Decimal() != tt.decimal || q.String() != tt.ru {
			t.Errorf("%q: %v %v, Decimal %q, String %q; want %q, %q", tt.in, q, err, q.Decimal(), q.String(), tt.decimal, tt.ru)
		}
	}
	for _, bad := range []string{"", "1.0001", "1,5", "x", "-", "1e3"} {
		if _, err := ParseQuantity(bad); err == nil {
			t.Errorf("%q read as a quantity", bad)
		}
	}
	var m Movement
	if err := json.Unmarshal([]byte(`{"quantity_dr": 15.3, "quantity_cr": 2}`), &m); err != nil || m.QuantityDr != 15_300 || m.QuantityCr != 2_000 {
		t.Errorf("ledger quantities %+v %v", m, err)
	}
	for v, want := range map[any]Quantity{json.Number("0.001"): 1, "": 0, nil: 0, json.Number("-3"): -3_000} {
		if q, _, ok := quantity(v); !ok || q != want {
			t.Errorf("quantity(%v) = %v %v, want %v", v, q, ok, want)
		}
	}
	if _, null, _ := quantity(WireNull); !null {
		t.Error("NULL not told from 0")
	}
}

// The account card's postings carry each side's item, unit and quantity on a quantity account,
// NULL on the others.
func TestCardQuantities(t *testing.T) {
	d := NewDemo(QuantityLedger())
	org := Ref{UUID: qOrg, Type: TypeOrganization}.Param()
	card := func(acc string) []MovementRow {
		t.Helper()
		res, err := d.Query(context.Background(), idCardMovements, Params{"НачалоПериода": "2025-01-01T00:00:00", "КонецПериода": "2025-01-31T23:59:59",
			"Организация": org, "СчетКод": acc, "СчетМаска": acc + ".%", "Контрагент": nil}, MaxDemoRows)
		if err != nil {
			t.Fatal(err)
		}
		return res.Movements
	}
	type side struct {
		Item, Unit string
		Qty        Quantity
		Kept       bool
	}
	var got [][2]side
	for _, m := range card("41.01") {
		got = append(got, [2]side{{m.ItemDr.Presentation, m.UnitDr, m.QtyDr, m.QtyKeptDr}, {m.ItemCr.Presentation, m.UnitCr, m.QtyCr, m.QtyKeptCr}})
	}
	want := [][2]side{
		{{"Бумага А4", "пачк", 100_000, true}, {"", "", 0, false}},
		{{"Бумага А4", "пачк", 50_000, true}, {"", "", 0, false}},
		{{"Кабель ВВГ 3х2,5", "м", 100_500, true}, {"", "", 0, false}}, // the division's, in the head's card
		{{"", "", 0, false}, {"Бумага А4", "пачк", 20_000, true}},
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("41.01's card (-want +got):\n%s", diff)
	}
	for _, m := range card("51") {
		if m.QtyKeptDr || m.QtyKeptCr || m.ItemDr.UUID != "" {
			t.Errorf("51's card has a quantity: %+v", m)
		}
	}
}
