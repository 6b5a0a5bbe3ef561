package onec_test

import (
	"fmt"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/internal/bpmeta"
)

// The BP 3.0 metadata extract (testdata/bp30-metadata.json, from the configuration dump
// kassya20/buh; regenerate with internal/bpmeta/cmd/bpmeta) is what every template is checked
// against: a template that names something BP 3.0 does not have would make 1C reject the whole
// query on a real base.

// knownDefects are the violations today's templates have. The test fails on any violation not
// listed and on a listed one that no longer occurs, so the list only shrinks.
var knownDefects = []string{}

func loadExtract(t *testing.T) *bpmeta.Extract {
	t.Helper()
	x, err := bpmeta.Load("testdata/bp30-metadata.json")
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// violations checks one query and renders its violations as "<id>: <violation>", each once,
// sorted.
func violations(t *testing.T, x *bpmeta.Extract, id, text string) []string {
	t.Helper()
	vs, err := bpmeta.Check(x, text)
	if err != nil {
		t.Fatalf("%s does not parse: %v", id, err)
	}
	var out []string
	for _, v := range vs {
		s := fmt.Sprintf("%s: %s", id, v)
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// TestTemplatesAgainstBP30Metadata parses every template the lane can send and checks each
// object, field path and virtual-table parameter against the BP 3.0 extract.
func TestTemplatesAgainstBP30Metadata(t *testing.T) {
	x := loadExtract(t)
	var got []string
	for _, id := range onec.QueryIDs() {
		text, ok := onec.Query(id)
		if !ok {
			t.Fatalf("Query(%q) not found", id)
		}
		got = append(got, violations(t, x, id, text)...)
	}
	added, fixed := compareDefects(got, knownDefects)
	for _, v := range added {
		t.Errorf("new violation: %q", v)
	}
	for _, v := range fixed {
		t.Errorf("fixed, remove it from knownDefects: %q", v)
	}
}

// compareDefects returns the violations not in known, and the known ones that no longer occur.
func compareDefects(got, known []string) (added, fixed []string) {
	for _, v := range got {
		if !slices.Contains(known, v) {
			added = append(added, v)
		}
	}
	for _, v := range known {
		if !slices.Contains(got, v) {
			fixed = append(fixed, v)
		}
	}
	return added, fixed
}

// TestCompareDefects: the list of known defects only shrinks.
func TestCompareDefects(t *testing.T) {
	tests := []struct {
		name              string
		got, known        []string
		wantAdd, wantFixd []string
	}{
		{"as listed", []string{"a", "b"}, []string{"a", "b"}, nil, nil},
		{"a new violation fails", []string{"a", "b", "c"}, []string{"a", "b"}, []string{"c"}, nil},
		{"a fixed one must leave the list", []string{"a"}, []string{"a", "b"}, nil, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			added, fixed := compareDefects(tt.got, tt.known)
			if diff := gocmp.Diff(tt.wantAdd, added); diff != "" {
				t.Errorf("added (-want +got):\n%s", diff)
			}
			if diff := gocmp.Diff(tt.wantFixd, fixed); diff != "" {
				t.Errorf("fixed (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMetadataCheckBites shows the check catches each kind of mistake, with the message it gives.
func TestMetadataCheckBites(t *testing.T) {
	x := loadExtract(t)
	const balance = "РегистрБухгалтерии.Хозрасчетный.Остатки"
	tests := []struct {
		name  string
		query string
		want  []string
	}{
		{"clean: the settlement lines of the opening-balance document",
			`ВЫБРАТЬ Р.Контрагент.ИНН КАК ИНН, Р.Сумма КАК Сумма, Р.Ссылка.Дата КАК Дата
			ИЗ Документ.ВводНачальныхОстатков.РасчетыСКонтрагентами КАК Р
			ГДЕ Р.Ссылка.Проведен И Р.СчетУчета.Код ПОДОБНО "62%" УПОРЯДОЧИТЬ ПО Дата`, nil},
		{"clean: subconto narrowed by ССЫЛКА, a nested query, a turnover table",
			`ВЫБРАТЬ Т.Контрагент.ИНН КАК ИНН, Т.Документ.Дата КАК Дата ИЗ (ВЫБРАТЬ
				ВЫБОР КОГДА О.Субконто1 ССЫЛКА Справочник.Контрагенты ТОГДА О.Субконто1 КОНЕЦ КАК Контрагент,
				О.Субконто3 КАК Документ, О.СуммаОборотДт КАК Дт
			ИЗ РегистрБухгалтерии.Хозрасчетный.Обороты(&Н, &К, Месяц, Счет.Код = "62.01", ,
				Организация = &О И (&К ЕСТЬ NULL ИЛИ Субконто1 = &К), , ) КАК О) КАК Т`, nil},
		{"unknown object", `ВЫБРАТЬ Т.Ссылка ИЗ Документ.ВводОстатков КАК Т`,
			[]string{"Документ.ВводОстатков: BP 3.0 has no Документ.ВводОстатков"}},
		{"object BP has but the extract leaves out", `ВЫБРАТЬ Т.Ссылка ИЗ Справочник.ВидыКонтактнойИнформации КАК Т`,
			[]string{"Справочник.ВидыКонтактнойИнформации: Справочник.ВидыКонтактнойИнформации is not in the extract: add it to the list in cmd/bpmeta and regenerate"}},
		{"an attribute of an object extracted with its standard attributes only", `ВЫБРАТЬ Т.ТипСклада, Т.Наименование ИЗ Справочник.Склады КАК Т`,
			[]string{"Т.ТипСклада: Справочник.Склады has no standard attribute ТипСклада, and only its standard attributes are in the extract"}},
		{"the nomenclature's unit, extracted in full", `ВЫБРАТЬ Т.Артикул, Т.ЕдиницаИзмерения.Наименование, Т.ЕдиницаИзмерения.НаименованиеПолное ИЗ Справочник.Номенклатура КАК Т`, nil},
		{"the quantity resource and the account's признак учёта", `ВЫБРАТЬ О.КоличествоОстаток, О.КоличествоОстатокДт, О.Счет.Количественный
			ИЗ ` + balance + `(&Д, Счет.Количественный, ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.Номенклатура), ) КАК О`, nil},
		{"no quantity column of a virtual table is made up", `ВЫБРАТЬ О.КоличествоОборотДт ИЗ ` + balance + `(&Д) КАК О`,
			[]string{"О.КоличествоОборотДт: РегистрБухгалтерии.Хозрасчетный.Остатки has no field КоличествоОборотДт"}},
		{"unknown attribute", `ВЫБРАТЬ Т.СуммаДокумента ИЗ Документ.АктСверкиВзаиморасчетов КАК Т`,
			[]string{"Т.СуммаДокумента: Документ.АктСверкиВзаиморасчетов has no field СуммаДокумента"}},
		{"standard attribute the object does not have", `ВЫБРАТЬ Т.Владелец ИЗ Справочник.Контрагенты КАК Т`,
			[]string{"Т.Владелец: Справочник.Контрагенты has no field Владелец"}},
		{"unknown attribute through a reference", `ВЫБРАТЬ Т.Владелец.СуммаДолга ИЗ Справочник.ДоговорыКонтрагентов КАК Т`,
			[]string{"Т.Владелец.СуммаДолга: Справочник.Контрагенты has no field СуммаДолга"}},
		{"a ВЫБОР narrowed by ССЫЛКА passes on only that type",
			`ВЫБРАТЬ Т.К.НомерСчета ИЗ (ВЫБРАТЬ ВЫБОР КОГДА О.Субконто1 ССЫЛКА Справочник.Контрагенты ТОГДА О.Субконто1 КОНЕЦ КАК К
			ИЗ ` + balance + `(&Д) КАК О) КАК Т`,
			[]string{"Т.К.НомерСчета: Справочник.Контрагенты has no field НомерСчета"}},
		{"a composite subconto passes an attribute any of its types has", `ВЫБРАТЬ О.Субконто1.Наименование, О.Субконто3.Дата ИЗ ` + balance + `(&Д) КАК О`, nil},
		{"a composite subconto and an attribute none of its types has",
			`ВЫБРАТЬ О.Субконто1.НетТакогоРеквизита ИЗ ` + balance + `(&Д) КАК О`,
			[]string{"О.Субконто1.НетТакогоРеквизита: no type the extract has in full has НетТакогоРеквизита, and " +
				"Справочник.ТранспортныеСредства, Документ.ОтчетПроизводстваЗаСмену, Документ.СписаниеОС and 90 more types " +
				"are extracted with standard attributes only or not at all: narrow the type (ССЫЛКА, ВЫРАЗИТЬ) or add them to the list in cmd/bpmeta"}},
		{"Предопределенный of an object without predefined items", `ВЫБРАТЬ О.Ссылка ИЗ Справочник.Организации КАК О ГДЕ О.Предопределенный`,
			[]string{"О.Предопределенный: Справочник.Организации has no predefined items in BP 3.0, so Предопределенный is always ЛОЖЬ"}},
		{"unknown tabular section", `ВЫБРАТЬ Т.Контрагент ИЗ Документ.ВводНачальныхОстатков.Расчеты КАК Т`,
			[]string{"Документ.ВводНачальныхОстатков.Расчеты: Документ.ВводНачальныхОстатков has no tabular section or virtual table Расчеты"}},
		{"unknown column of a tabular section", `ВЫБРАТЬ Т.СуммаДокумента ИЗ Документ.ВводНачальныхОстатков.РасчетыСКонтрагентами КАК Т`,
			[]string{"Т.СуммаДокумента: Документ.ВводНачальныхОстатков.РасчетыСКонтрагентами has no field СуммаДокумента"}},
		{"unknown virtual table", `ВЫБРАТЬ О.Счет ИЗ РегистрБухгалтерии.Хозрасчетный.ОстаткиНаДату(&Д) КАК О`,
			[]string{"РегистрБухгалтерии.Хозрасчетный.ОстаткиНаДату: РегистрБухгалтерии.Хозрасчетный has no tabular section or virtual table ОстаткиНаДату"}},
		{"unknown column of a virtual table", `ВЫБРАТЬ О.СуммаОборотДт ИЗ ` + balance + `(&Д) КАК О`,
			[]string{"О.СуммаОборотДт: РегистрБухгалтерии.Хозрасчетный.Остатки has no field СуммаОборотДт"}},
		{"wrong virtual-table parameter count", `ВЫБРАТЬ О.Счет ИЗ ` + balance + `(&Д, , , Организация = &О, ) КАК О`,
			[]string{balance + ": takes 4 parameters (Период, УсловиеСчета, Субконто, Условие), the query passes 5"}},
		{"a condition naming a resource", `ВЫБРАТЬ О.Счет ИЗ ` + balance + `(&Д, , , СуммаОстатокДт > 0) КАК О`,
			[]string{"СуммаОстатокДт: parameter Условие of " + balance + " cannot name СуммаОстатокДт (it may name Счет, Субконто1, Субконто2, Субконто3, Организация, Валюта, Подразделение)"}},
		{"an account condition naming a dimension", `ВЫБРАТЬ О.Счет ИЗ ` + balance + `(&Д, Организация = &О) КАК О`,
			[]string{"Организация: parameter УсловиеСчета of " + balance + " cannot name Организация (it may name Счет)"}},
		{"an unknown attribute inside a condition", `ВЫБРАТЬ О.Счет ИЗ ` + balance + `(&Д, Счет.Номер = "62") КАК О`,
			[]string{"Счет.Номер: ПланСчетов.Хозрасчетный has no field Номер"}},
		{"a field where a value goes", `ВЫБРАТЬ О.Счет ИЗ ` + balance + `(Счет) КАК О`,
			[]string{"Счет: parameter Период of " + balance + " takes a value, not a field"}},
		{"an unknown periodicity", `ВЫБРАТЬ О.Счет ИЗ РегистрБухгалтерии.Хозрасчетный.Обороты(, , Ежемесячно) КАК О`,
			[]string{"Ежемесячно: parameter Периодичность of РегистрБухгалтерии.Хозрасчетный.Обороты takes a periodicity " +
				"(Период, Регистратор, Запись, Авто, Секунда, Минута, Час, День, Неделя, Декада, Месяц, Квартал, Полугодие, Год)"}},
		{"order by a field of a selected column",
			`ВЫБРАТЬ Д.Владелец КАК Владелец, Д.Дата КАК Дата ИЗ Справочник.ДоговорыКонтрагентов КАК Д УПОРЯДОЧИТЬ ПО Владелец.Наименование, Дата`,
			[]string{"УПОРЯДОЧИТЬ ПО Владелец.Наименование: orders by a field of the selected column Владелец; order by a selected column"}},
		{"order by a source's field path is allowed",
			`ВЫБРАТЬ Д.Владелец КАК Владелец ИЗ Справочник.ДоговорыКонтрагентов КАК Д УПОРЯДОЧИТЬ ПО Д.Владелец.Наименование`, nil},
		{"unknown values", `ВЫБРАТЬ 1 ИЗ Справочник.ДоговорыКонтрагентов КАК Д ГДЕ
			Д.ВидДоговора = ЗНАЧЕНИЕ(Перечисление.ВидыДоговоровКонтрагентов.СКлиентом)
			ИЛИ Д.Ссылка = ЗНАЧЕНИЕ(Справочник.ДоговорыКонтрагентов.Основной)
			ИЛИ Д.Владелец = ЗНАЧЕНИЕ(Справочник.Контрагенты.РозничныйПокупатель)
			ИЛИ Д.Ссылка = ЗНАЧЕНИЕ(Справочник.ДоговорыКонтрагентов.ПустаяСсылка)
			ИЛИ Д.Организация = ЗНАЧЕНИЕ(ВидСчета.Активный)
			ИЛИ Д.Организация = ЗНАЧЕНИЕ(ВидСчета.Нейтральный)
			ИЛИ Д.Организация = ЗНАЧЕНИЕ(ПланСчетов.Хозрасчетный.РасчетыСПокупателями)
			ИЛИ Д.Организация = ЗНАЧЕНИЕ(ПланСчетов.Хозрасчетный.Счет62)`,
			[]string{
				"ЗНАЧЕНИЕ(ВидСчета.Нейтральный): ВидСчета has no value Нейтральный",
				"ЗНАЧЕНИЕ(Перечисление.ВидыДоговоровКонтрагентов.СКлиентом): Перечисление.ВидыДоговоровКонтрагентов has no value СКлиентом",
				"ЗНАЧЕНИЕ(ПланСчетов.Хозрасчетный.Счет62): ПланСчетов.Хозрасчетный has no predefined item Счет62",
				"ЗНАЧЕНИЕ(Справочник.ДоговорыКонтрагентов.Основной): Справочник.ДоговорыКонтрагентов has no predefined item Основной",
			}},
		{"unknown types in ССЫЛКА and ВЫРАЗИТЬ", `ВЫБРАТЬ ВЫРАЗИТЬ(О.Субконто1 КАК Справочник.Контрагент).ИНН
			ИЗ ` + balance + `(&Д) КАК О ГДЕ О.Субконто3 ССЫЛКА Документ.ВводОстатков`,
			[]string{
				"ВЫРАЗИТЬ(… КАК Справочник.Контрагент): BP 3.0 has no Справочник.Контрагент",
				"ССЫЛКА Документ.ВводОстатков: BP 3.0 has no Документ.ВводОстатков",
			}},
		{"unknown column of a nested query", `ВЫБРАТЬ Т.Наименование ИЗ (ВЫБРАТЬ К.Код КАК Код ИЗ Справочник.Контрагенты КАК К) КАК Т`,
			[]string{"Т.Наименование: вложенный запрос Т has no column Наименование"}},
		{"an alias no source has", `ВЫБРАТЬ Х.Код ИЗ Справочник.Контрагенты КАК К, Справочник.Банки КАК Б`,
			[]string{"Х.Код: no data source is named Х"}},
		{"with one source, an unknown alias reads as a field", `ВЫБРАТЬ Х.Код ИЗ Справочник.Контрагенты КАК К`,
			[]string{"Х.Код: Справочник.Контрагенты has no field Х"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, v := range violations(t, x, "q", tt.query) {
				got = append(got, v[len("q: "):])
			}
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("violations (-want +got):\n%s", diff)
			}
		})
	}
}
