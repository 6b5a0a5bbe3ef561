package qlang_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// refLine renders a FieldRef as "clause path -> alias|field" (a source) or "clause path -> column
// name|field" (a result column); a table parameter adds its position.
func refLine(r qlang.FieldRef) string {
	target := ""
	switch {
	case r.Source != nil && r.Clause == qlang.InTableParam:
		target = fmt.Sprintf("%s#%d", r.Source.Alias, r.Param)
	case r.Source != nil:
		target = r.Source.Alias
	case r.Column != nil:
		target = "column " + r.Column.Name()
	}
	return fmt.Sprintf("%s %s -> %s|%s", r.Clause, r.Path, target, strings.Join(r.Field, "."))
}

func TestFields(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		want    []string
		wantErr []string
	}{
		{
			name: "qualified, through references, in every clause",
			src: `ВЫБРАТЬ Д.Контрагент.ИНН КАК ИНН, СУММА(Д.Сумма) КАК Сумма
				ИЗ Документ.А КАК Д ЛЕВОЕ СОЕДИНЕНИЕ Справочник.К КАК К ПО К.Ссылка = Д.Контрагент
				ГДЕ Д.Дата МЕЖДУ &Н И &К СГРУППИРОВАТЬ ПО Д.Контрагент.ИНН ИМЕЮЩИЕ СУММА(Д.Сумма) > 0
				УПОРЯДОЧИТЬ ПО ИНН, К.Наименование`,
			want: []string{
				"ВЫБРАТЬ Д.Контрагент.ИНН -> Д|Контрагент.ИНН",
				"ВЫБРАТЬ Д.Сумма -> Д|Сумма",
				"СОЕДИНЕНИЕ ПО К.Ссылка -> К|Ссылка",
				"СОЕДИНЕНИЕ ПО Д.Контрагент -> Д|Контрагент",
				"ГДЕ Д.Дата -> Д|Дата",
				"СГРУППИРОВАТЬ ПО Д.Контрагент.ИНН -> Д|Контрагент.ИНН",
				"ИМЕЮЩИЕ Д.Сумма -> Д|Сумма",
				"УПОРЯДОЧИТЬ ПО ИНН -> column ИНН|",
				"УПОРЯДОЧИТЬ ПО К.Наименование -> К|Наименование",
			},
		},
		{
			name: "virtual-table parameters read the table itself",
			src: `ВЫБРАТЬ Ост.Счет.Код КАК Счет ИЗ РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату,
				Счет.Код = &СчетКод ИЛИ Счет.Код ПОДОБНО &СчетМаска, , Организация = &Организация) КАК Ост
				УПОРЯДОЧИТЬ ПО Счет, Ост.Организация.Наименование, Счет.Родитель`,
			want: []string{
				"параметр виртуальной таблицы Счет.Код -> Ост#1|Счет.Код",
				"параметр виртуальной таблицы Счет.Код -> Ост#1|Счет.Код",
				"параметр виртуальной таблицы Организация -> Ост#3|Организация",
				"ВЫБРАТЬ Ост.Счет.Код -> Ост|Счет.Код",
				"УПОРЯДОЧИТЬ ПО Счет -> column Счет|",
				"УПОРЯДОЧИТЬ ПО Ост.Организация.Наименование -> Ост|Организация.Наименование",
				"УПОРЯДОЧИТЬ ПО Счет.Родитель -> column Счет|Родитель",
			},
		},
		{
			name: "unqualified fields with one source, nested queries in their own scope",
			src: `ВЫБРАТЬ Наименование, Т.Х ИЗ (ВЫБРАТЬ К.Код КАК Х ИЗ Справочник.К КАК К ГДЕ К.Ссылка В (ВЫБРАТЬ Ссылка ИЗ Справочник.М)) КАК Т
				ГДЕ Т.Х ССЫЛКА Справочник.К И ДОБАВИТЬКДАТЕ(&Д, СЕКУНДА, 1) > Т.Дата`,
			want: []string{
				"ВЫБРАТЬ К.Код -> К|Код",
				"ГДЕ К.Ссылка -> К|Ссылка",
				"ВЫБРАТЬ Ссылка -> М|Ссылка",
				"ВЫБРАТЬ Наименование -> Т|Наименование",
				"ВЫБРАТЬ Т.Х -> Т|Х",
				"ГДЕ Т.Х -> Т|Х",
				"ГДЕ Т.Дата -> Т|Дата",
			},
		},
		{
			name: "union orders by columns only",
			src:  `ВЫБРАТЬ А.Дата КАК Дата ИЗ Документ.А КАК А ОБЪЕДИНИТЬ ВСЕ ВЫБРАТЬ Б.Дата ИЗ Документ.Б КАК Б УПОРЯДОЧИТЬ ПО Дата, А.Номер`,
			want: []string{
				"ВЫБРАТЬ А.Дата -> А|Дата",
				"ВЫБРАТЬ Б.Дата -> Б|Дата",
				"УПОРЯДОЧИТЬ ПО Дата -> column Дата|",
			},
			wantErr: []string{"(1, 116): А.Номер: the result of ОБЪЕДИНИТЬ has no column А: qlang: unresolved field path"},
		},
		{
			name: "unresolvable paths are reported, the rest still resolved",
			src:  `ВЫБРАТЬ Х.Код, Код, А.Код ИЗ Справочник.А КАК А, Справочник.Б КАК Б`,
			want: []string{"ВЫБРАТЬ А.Код -> А|Код"},
			wantErr: []string{
				"(1, 9): Х.Код: no data source is named Х: qlang: unresolved field path",
				"(1, 16): Код: an unqualified field with 2 data sources: qlang: unresolved field path",
			},
		},
		{
			name: "a tabular section's nested table, totals",
			src: `ВЫБРАТЬ Д.Товары.(Номенклатура.Код КАК Код, Количество) КАК Т, Д.Дата КАК Дата ИЗ Документ.Д КАК Д
				ИТОГИ СУММА(Дата) ПО Дата`,
			want: []string{
				"ВЫБРАТЬ Д.Товары -> Д|Товары",
				"ВЫБРАТЬ Номенклатура.Код -> Д|Товары.Номенклатура.Код",
				"ВЫБРАТЬ Количество -> Д|Товары.Количество",
				"ВЫБРАТЬ Д.Дата -> Д|Дата",
				"ИТОГИ Дата -> column Дата|",
				"ИТОГИ Дата -> column Дата|",
			},
		},
		{
			name:    "no source at all",
			src:     `ВЫБРАТЬ Код`,
			wantErr: []string{"(1, 9): Код: the query has no data source: qlang: unresolved field path"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := qlang.Parse(tt.src)
			if err != nil {
				t.Fatalf("Parse() error: %v", err)
			}
			refs, err := qlang.Fields(b)
			var got []string
			for _, r := range refs {
				got = append(got, refLine(r))
			}
			if diff := gocmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Fields() (-want +got):\n%s", diff)
			}
			var gotErr []string
			if err != nil {
				gotErr = strings.Split(err.Error(), "\n")
				if !errors.Is(err, qlang.ErrUnresolved) {
					t.Errorf("Fields() error does not wrap ErrUnresolved: %v", err)
				}
				var ue *qlang.UnresolvedError
				if !errors.As(err, &ue) || ue.Path == nil || ue.Reason == "" {
					t.Errorf("Fields() error holds no *UnresolvedError with its path and reason: %v", err)
				}
			}
			if diff := gocmp.Diff(tt.wantErr, gotErr); diff != "" {
				t.Errorf("Fields() error (-want +got):\n%s", diff)
			}
		})
	}
}
