package bpmeta

import (
	"errors"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The onec package's metadata test runs Check over the real extract; these cases use the tiny
// dump of build_test.go for what that test does not reach.
func TestCheck(t *testing.T) {
	x, err := Build(readDump(dump), testSpec)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, query string
		want        []string
	}{
		{"a value table parameter is not checked", `ВЫБРАТЬ Т.Что.Угодно ИЗ &Таблица КАК Т`, nil},
		{"a temporary table's columns",
			`ВЫБРАТЬ К.Ссылка КАК Ссылка ПОМЕСТИТЬ ВТ ИЗ Справочник.Контрагенты КАК К; ВЫБРАТЬ ВТ.Ссылка.ИНН, ВТ.Код ИЗ ВТ`,
			[]string{"ВТ.Код: временная таблица ВТ has no column Код"}},
		{"a tabular section's nested table", `ВЫБРАТЬ А.Строки.(Сумма, Цена) ИЗ Документ.Акт КАК А`,
			[]string{"Цена: Документ.Акт.Строки has no field Цена"}},
		{"a tabular section whose columns are left out", `ВЫБРАТЬ П.Сумма ИЗ Документ.Акт.Прочее КАК П`,
			[]string{"Документ.Акт.Прочее: the columns of tabular section Прочее are not in the extract: add it to the list in cmd/bpmeta and regenerate"}},
		{"the recorder is any document", `ВЫБРАТЬ Д.Регистратор.Номер, Д.Регистратор.Контрагент
			ИЗ РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(, , Счет В (&С) И Валюта = &В, , ) КАК Д`,
			[]string{"Д.Регистратор.Контрагент: no type the extract has in full has Контрагент, and Документ.* is extracted with " +
				"standard attributes only or not at all: narrow the type (ССЫЛКА, ВЫРАЗИТЬ) or add it to the list in cmd/bpmeta"}},
		{"a document has no predefined values", `ВЫБРАТЬ ЗНАЧЕНИЕ(Документ.Акт.Основной), ЗНАЧЕНИЕ(Документ.Акт.ПустаяСсылка)`,
			[]string{"ЗНАЧЕНИЕ(Документ.Акт.Основной): Документ.Акт has no predefined values; only ПустаяСсылка"}},
		{"a kind that is not one", `ВЫБРАТЬ 1 ИЗ Справочники.Контрагенты КАК К`,
			[]string{"Справочники.Контрагенты: Справочники is not a kind of metadata object"}},
		{"English spelling", `SELECT C.Ref FROM Catalog.Контрагенты AS C WHERE C.Ref REFS Catalog.Договоры`, nil},
		{"parameters of a table that takes none", `ВЫБРАТЬ 1 ИЗ Справочник.Контрагенты(&Х) КАК К`,
			[]string{"Справочник.Контрагенты: only a virtual table takes parameters"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			vs, err := Check(x, tt.query)
			if err != nil {
				t.Fatalf("Check() error: %v", err)
			}
			var got []string
			for _, v := range vs {
				got = append(got, v.String())
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Check() (-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Check(x, "ВЫБРАТЬ ИЗ"); !errors.Is(err, qlang.ErrSyntax) {
		t.Errorf("Check(bad text) error = %v, want a syntax error", err)
	}
}
