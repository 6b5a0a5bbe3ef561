package qlang_test

import (
	"errors"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{
			name: "virtual table with empty positional parameters",
			src: `ВЫБРАТЬ Ост.Счет.Код КАК Счет, Ост.СуммаОстатокДт
				ИЗ РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату, Счет.Код = &СчетКод, , Организация = &Организация) КАК Ост`,
			want: []string{
				"select",
				"  item Ост.Счет.Код as Счет",
				"  item Ост.СуммаОстатокДт",
				"  from РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату; (Счет.Код = &СчетКод); _; (Организация = &Организация)) as Ост",
			},
		},
		{
			name: "all positions empty, and no parameters at all",
			src:  `ВЫБРАТЬ 1 ИЗ РегистрБухгалтерии.Хозрасчетный.Обороты(, , , , , , , ) КАК О, РегистрБухгалтерии.Хозрасчетный.Остатки() КАК Д`,
			want: []string{
				"select",
				"  item 1",
				"  from РегистрБухгалтерии.Хозрасчетный.Обороты(_; _; _; _; _; _; _; _) as О",
				"  from РегистрБухгалтерии.Хозрасчетный.Остатки() as Д",
			},
		},
		{
			name: "English keywords",
			src: `SELECT DISTINCT TOP 10 C.Ref AS Ref FROM Catalog.Counterparties AS C
				WHERE NOT C.DeletionMark AND C.Description LIKE "%a%" ORDER BY Ref DESC`,
			want: []string{
				"select distinct top 10",
				"  item C.Ref as Ref",
				"  from Catalog.Counterparties as C",
				`  where ((НЕ C.DeletionMark) И (C.Description ПОДОБНО "%a%"))`,
				"order Ref desc",
			},
		},
		{
			name: "union all and order by columns",
			src: `ВЫБРАТЬ РАЗРЕШЕННЫЕ Д.Дата КАК Дата ИЗ Документ.А КАК Д
				ОБЪЕДИНИТЬ ВСЕ ВЫБРАТЬ Д.Дата ИЗ Документ.Б КАК Д
				ОБЪЕДИНИТЬ ВЫБРАТЬ Д.Дата ИЗ Документ.В Д
				УПОРЯДОЧИТЬ ПО Дата УБЫВ, Номер ВОЗР АВТОУПОРЯДОЧИВАНИЕ`,
			want: []string{
				"select allowed", "  item Д.Дата as Дата", "  from Документ.А as Д",
				"union all", "select", "  item Д.Дата", "  from Документ.Б as Д",
				"union", "select", "  item Д.Дата", "  from Документ.В as Д",
				"order Дата desc", "order Номер",
			},
		},
		{
			name: "joins",
			src: `ВЫБРАТЬ С.Код ИЗ ПланСчетов.Хозрасчетный КАК С
				ЛЕВОЕ СОЕДИНЕНИЕ ПланСчетов.Хозрасчетный.ВидыСубконто КАК В1 ПО (В1.Ссылка = С.Ссылка) И (В1.НомерСтроки = 1)
				ВНУТРЕННЕЕ СОЕДИНЕНИЕ Справочник.X КАК X ПО X.Ссылка = С.Ссылка
				ПОЛНОЕ ВНЕШНЕЕ СОЕДИНЕНИЕ Справочник.Y КАК Y ПО ИСТИНА
				LEFT OUTER JOIN Catalog.Z AS Z ON Z.Ref = С.Ссылка
				ПРАВОЕ СОЕДИНЕНИЕ Справочник.W ПО ЛОЖЬ`,
			want: []string{
				"select", "  item С.Код", "  from ПланСчетов.Хозрасчетный as С",
				"    join ЛЕВОЕ ПланСчетов.Хозрасчетный.ВидыСубконто as В1",
				"      on ((В1.Ссылка = С.Ссылка) И (В1.НомерСтроки = 1))",
				"    join ВНУТРЕННЕЕ Справочник.X as X", "      on (X.Ссылка = С.Ссылка)",
				"    join ПОЛНОЕ Справочник.Y as Y", "      on ИСТИНА",
				"    join ЛЕВОЕ Catalog.Z as Z", "      on (Z.Ref = С.Ссылка)",
				"    join ПРАВОЕ Справочник.W as W", "      on ЛОЖЬ",
			},
		},
		{
			name: "nested query with its own virtual table",
			src:  `ВЫБРАТЬ Т.Счет ИЗ (ВЫБРАТЬ О.Счет КАК Счет ИЗ РегистрБухгалтерии.Хозрасчетный.Обороты(, ДОБАВИТЬКДАТЕ(&НаДату, СЕКУНДА, -1), , , , Организация = &Организация, , ) КАК О) КАК Т`,
			want: []string{
				"select", "  item Т.Счет", "  from ( as Т",
				"    select", "      item О.Счет as Счет",
				"      from РегистрБухгалтерии.Хозрасчетный.Обороты(_; ДОБАВИТЬКДАТЕ(&НаДату, СЕКУНДА, -1); _; _; _; (Организация = &Организация); _; _) as О",
				"  )",
			},
		},
		{
			name: "predicates",
			src: `ВЫБРАТЬ 1 ИЗ Справочник.К КАК К ГДЕ
				К.А ЕСТЬ NULL И К.Б ЕСТЬ НЕ NULL И &П ЕСТЬ NULL
				И К.В ССЫЛКА Справочник.Контрагенты И К.Г НЕ ССЫЛКА Документ.Х
				И К.Д В (1, 2, "три") И К.Е НЕ В (&Список) И К.Ж В ИЕРАРХИИ (&Группа)
				И К.З В (ВЫБРАТЬ Т.Ссылка ИЗ Справочник.Т КАК Т)
				И К.И ПОДОБНО "6_.%" СПЕЦСИМВОЛ "~" И К.Й НЕ ПОДОБНО &М
				И К.Дата МЕЖДУ &Н И &К И К.Сумма НЕ МЕЖДУ 0 И 10
				И К.А <> К.Б И К.А < 1 И К.А <= 1 И К.А > 1 И К.А >= 1`,
			want: []string{
				"select", "  item 1", "  from Справочник.К as К",
				"  where ((((((((((((((((((К.А ЕСТЬ NULL) И (К.Б ЕСТЬ НЕ NULL)) И (&П ЕСТЬ NULL))" +
					" И (К.В ССЫЛКА Справочник.Контрагенты)) И (К.Г НЕ ССЫЛКА Документ.Х))" +
					` И (К.Д В (1, 2, "три"))) И (К.Е НЕ В (&Список))) И (К.Ж В ИЕРАРХИИ (&Группа)))` +
					" И (К.З В (ВЫБРАТЬ …))) И (К.И ПОДОБНО \"6_.%\" СПЕЦСИМВОЛ \"~\")) И (К.Й НЕ ПОДОБНО &М))" +
					" И (К.Дата МЕЖДУ &Н И &К)) И (К.Сумма НЕ МЕЖДУ 0 И 10))" +
					" И (К.А <> К.Б)) И (К.А < 1)) И (К.А <= 1)) И (К.А > 1)) И (К.А >= 1))",
			},
		},
		{
			name: "precedence: ИЛИ below И below НЕ below comparison below arithmetic",
			src:  `ВЫБРАТЬ 1 ГДЕ &А = НЕОПРЕДЕЛЕНО ИЛИ НЕ &Б И &В + 1 * 2 > -&Г - 3 / 4`,
			want: []string{
				"select", "  item 1",
				"  where ((&А = НЕОПРЕДЕЛЕНО) ИЛИ ((НЕ &Б) И ((&В + (1 * 2)) > (-&Г - (3 / 4)))))",
			},
		},
		{
			name: "values, types, casts, functions, case",
			src: `ВЫБРАТЬ
				ВЫБОР КОГДА К.Вид = ЗНАЧЕНИЕ(Перечисление.ВидыДоговоров.СПокупателем) ТОГДА "п" КОГДА К.Вид = ЗНАЧЕНИЕ(ВидСчета.Активный) ТОГДА "а" ИНАЧЕ NULL КОНЕЦ КАК Вид,
				ВЫБОР К.А КОГДА 1 ТОГДА ИСТИНА КОНЕЦ,
				ТИПЗНАЧЕНИЯ(К.С) = ТИП(Справочник.Контрагенты),
				ВЫРАЗИТЬ(К.С КАК Справочник.Контрагенты).ИНН,
				ВЫРАЗИТЬ(К.Н КАК Строка(100)),
				ВЫРАЗИТЬ(К.Ч КАК Число(15, 2)),
				СУММА(К.Сумма), КОЛИЧЕСТВО(РАЗЛИЧНЫЕ К.Ссылка), КОЛИЧЕСТВО(*), ТЕКУЩАЯДАТА(),
				ЕСТЬNULL(К.Банк.Наименование, ""),
				НАЧАЛОПЕРИОДА(&Д, МЕСЯЦ), РАЗНОСТЬДАТ(&Д, &Е, ДЕНЬ), ДОБАВИТЬКДАТЕ(&Д, Минута, 1),
				К.Значение, К.Тип, Значение, Ссылка
			ИЗ Справочник.К КАК К`,
			want: []string{
				"select",
				`  item ВЫБОР КОГДА (К.Вид = ЗНАЧЕНИЕ(Перечисление.ВидыДоговоров.СПокупателем)) ТОГДА "п" КОГДА (К.Вид = ЗНАЧЕНИЕ(ВидСчета.Активный)) ТОГДА "а" ИНАЧЕ NULL КОНЕЦ as Вид`,
				"  item ВЫБОР К.А КОГДА 1 ТОГДА ИСТИНА КОНЕЦ",
				"  item (ТИПЗНАЧЕНИЯ(К.С) = ТИП(Справочник.Контрагенты))",
				"  item ВЫРАЗИТЬ(К.С КАК Справочник.Контрагенты).ИНН",
				"  item ВЫРАЗИТЬ(К.Н КАК Строка(100))",
				"  item ВЫРАЗИТЬ(К.Ч КАК Число(15, 2))",
				"  item СУММА(К.Сумма)", "  item КОЛИЧЕСТВО(РАЗЛИЧНЫЕ К.Ссылка)", "  item КОЛИЧЕСТВО(*)", "  item ТЕКУЩАЯДАТА()",
				`  item ЕСТЬNULL(К.Банк.Наименование, "")`,
				"  item НАЧАЛОПЕРИОДА(&Д, МЕСЯЦ)", "  item РАЗНОСТЬДАТ(&Д, &Е, ДЕНЬ)", "  item ДОБАВИТЬКДАТЕ(&Д, Минута, 1)",
				"  item К.Значение", "  item К.Тип", "  item Значение", "  item Ссылка",
				"  from Справочник.К as К",
			},
		},
		{
			name: "group by and having",
			src:  `ВЫБРАТЬ О.Счет, СУММА(О.Сумма) КАК С ИЗ Р.О КАК О СГРУППИРОВАТЬ ПО О.Счет ИМЕЮЩИЕ СУММА(О.Сумма) <> 0`,
			want: []string{
				"select", "  item О.Счет", "  item СУММА(О.Сумма) as С", "  from Р.О as О",
				"  group О.Счет", "  having (СУММА(О.Сумма) <> 0)",
			},
		},
		{
			name: "batch with temporary tables",
			src: `ВЫБРАТЬ К.Ссылка КАК Ссылка ПОМЕСТИТЬ ВТ ИЗ Справочник.К КАК К ИНДЕКСИРОВАТЬ ПО Ссылка;
				ВЫБРАТЬ ВТ.Ссылка ИЗ ВТ КАК ВТ;
				УНИЧТОЖИТЬ ВТ;
				ВЫБРАТЬ 1 ИЗ ВТ;`,
			want: []string{
				"select into ВТ", "  item К.Ссылка as Ссылка", "  from Справочник.К as К", "index Ссылка",
				"select", "  item ВТ.Ссылка", "  from ВТ [temp] as ВТ",
				"drop ВТ",
				"select", "  item 1", "  from ВТ as ВТ",
			},
		},
		{
			name: "nested joins, a parenthesised group, a value table parameter",
			src: `ВЫБРАТЬ 1 ИЗ С.А КАК А
				ЛЕВОЕ СОЕДИНЕНИЕ С.Б КАК Б
					ВНУТРЕННЕЕ СОЕДИНЕНИЕ С.В КАК Вв ПО Вв.Х = Б.Х
				ПО Б.Х = А.Х
				ЛЕВОЕ СОЕДИНЕНИЕ (С.Г КАК Г ЛЕВОЕ СОЕДИНЕНИЕ &Таблица КАК Т ПО Т.Х = Г.Х) ПО Г.Х = А.Х`,
			want: []string{
				"select", "  item 1", "  from С.А as А",
				"    join ЛЕВОЕ С.Б as Б",
				"      join ВНУТРЕННЕЕ С.В as Вв", "        on (Вв.Х = Б.Х)",
				"      on (Б.Х = А.Х)",
				"    join ЛЕВОЕ С.Г as Г",
				"      join ЛЕВОЕ &Таблица as Т", "        on (Т.Х = Г.Х)",
				"      on (Г.Х = А.Х)",
			},
		},
		{
			name: "totals",
			src: `ВЫБРАТЬ О.Счет КАК Счет, О.Период КАК Период, О.СуммаОборот КАК Сумма ИЗ Р.О КАК О
				ИТОГИ СУММА(Сумма) ПО ОБЩИЕ, Счет ИЕРАРХИЯ, Счет ТОЛЬКО ИЕРАРХИЯ, Период ПЕРИОДАМИ(МЕСЯЦ, &Н, &К)`,
			want: []string{
				"select", "  item О.Счет as Счет", "  item О.Период as Период", "  item О.СуммаОборот as Сумма", "  from Р.О as О",
				"totals СУММА(Сумма) overall by Счет ИЕРАРХИЯ by Счет ТОЛЬКО ИЕРАРХИЯ by Период periods МЕСЯЦ &Н &К",
			},
		},
		{
			name: "row values, order by hierarchy, a tabular section's nested table",
			src: `ВЫБРАТЬ Д.Ссылка, Д.Товары.(Номенклатура, Количество КАК К) ИЗ Документ.Д КАК Д
				ГДЕ (Д.Ссылка, Д.Дата) НЕ В (ВЫБРАТЬ Т.С, Т.Д ИЗ Т КАК Т)
				УПОРЯДОЧИТЬ ПО Д.Ссылка ИЕРАРХИЯ УБЫВ`,
			want: []string{
				"select", "  item Д.Ссылка", "  item Д.Товары.(Номенклатура, Количество КАК К)", "  from Документ.Д as Д",
				"  where ((Д.Ссылка, Д.Дата) НЕ В (ВЫБРАТЬ …))", "order Д.Ссылка hierarchy desc",
			},
		},
		{
			name: "soft keywords are names where an operand is expected",
			src:  `ВЫБРАТЬ Изменения.Ссылка, Итоги.Индекс, СУММА(Итоги.Конец) ИЗ Р.Изменения КАК Изменения, Р.Итоги КАК Итоги`,
			want: []string{"select", "  item Изменения.Ссылка", "  item Итоги.Индекс", "  item СУММА(Итоги.Конец)",
				"  from Р.Изменения as Изменения", "  from Р.Итоги as Итоги"},
		},
		{
			name: "star and qualified star, alias without КАК, comments",
			src:  "// finbot: x\nВЫБРАТЬ *, К.* ИЗ Справочник.К К // tail\nДЛЯ ИЗМЕНЕНИЯ Справочник.К",
			want: []string{"select", "  item *", "  item К.*", "  from Справочник.К as К"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := qlang.Parse(tt.src)
			if err != nil {
				t.Fatalf("Parse() error: %v", err)
			}
			if diff := gocmp.Diff(tt.want, describe(b)); diff != "" {
				t.Errorf("Parse() (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"empty", " // only a comment", "(1, 19): the query text is empty"},
		{"no select", "ИЗ Справочник.К", `(1, 1): expected ВЫБРАТЬ/SELECT, found "ИЗ"`},
		{"dangling comma", "ВЫБРАТЬ К.А, ИЗ Справочник.К КАК К", `(1, 14): expected an expression, found "ИЗ"`},
		{"unclosed virtual table", "ВЫБРАТЬ 1 ИЗ Р.Х.Остатки(&Д, ", "(1, 30): expected an expression, found end of query"},
		{"join without condition", "ВЫБРАТЬ 1 ИЗ С.А КАК А ЛЕВОЕ СОЕДИНЕНИЕ С.Б КАК Б ГДЕ ИСТИНА", `expected ПО/ON, found "ГДЕ"`},
		{"nested join without its outer condition", "ВЫБРАТЬ 1 ИЗ С.А ЛЕВОЕ СОЕДИНЕНИЕ С.Б ЛЕВОЕ СОЕДИНЕНИЕ С.В ПО ИСТИНА", "expected ПО/ON, found end of query"},
		{"МЕЖДУ without И", "ВЫБРАТЬ 1 ГДЕ &А МЕЖДУ 1 ИЛИ 2", `expected И/AND in МЕЖДУ/BETWEEN, found "ИЛИ"`},
		{"ЕСТЬ without NULL", "ВЫБРАТЬ 1 ГДЕ &А ЕСТЬ 1", `expected NULL, found "1"`},
		{"case without when", "ВЫБРАТЬ ВЫБОР ИНАЧЕ 1 КОНЕЦ", `expected КОГДА/WHEN, found "ИНАЧЕ"`},
		{"case without end", "ВЫБРАТЬ ВЫБОР КОГДА ИСТИНА ТОГДА 1", "expected КОНЕЦ/END, found end of query"},
		{"totals without groupings", "ВЫБРАТЬ 1 ИТОГИ СУММА(1)", `expected ПО/BY, found end of query`},
		{"braces", "ВЫБРАТЬ 1 {ГДЕ ИСТИНА}", `unexpected character '{'`},
		{"row value outside В", "ВЫБРАТЬ (1, 2) + 1", "a row value (a, b) must be followed by В/IN"},
		{"unclosed join group", "ВЫБРАТЬ 1 ИЗ (С.А КАК А ЛЕВОЕ СОЕДИНЕНИЕ С.Б КАК Б ПО ИСТИНА", `expected ")", found end of query`},
		{"trailing garbage", "ВЫБРАТЬ 1 КАК А Б", `expected ";" or the end of the query, found "Б"`},
		{"keyword as expression", "ВЫБРАТЬ ГДЕ", `expected an expression, found "ГДЕ"`},
		{"top without number", "ВЫБРАТЬ ПЕРВЫЕ &Н 1", "the number of rows after ПЕРВЫЕ/TOP"},
		{"unclosed parenthesis", "ВЫБРАТЬ (1 + 2", `expected ")", found end of query`},
		{"too deep", "ВЫБРАТЬ " + strings.Repeat("(", 2000) + "1" + strings.Repeat(")", 2000), "deeper than 1000"},
		{"too many signs", "ВЫБРАТЬ " + strings.Repeat("-", 2000) + "1", "deeper than 1000"},
		{"too many НЕ", "ВЫБРАТЬ 1 ГДЕ " + strings.Repeat("НЕ ", 2000) + "ИСТИНА", "deeper than 1000"},
		{"too long a chain of И", "ВЫБРАТЬ 1 ГДЕ ИСТИНА" + strings.Repeat(" И ИСТИНА", 2000), "deeper than 1000"},
		{"too long a sum", "ВЫБРАТЬ 1" + strings.Repeat("+1", 2000), "deeper than 1000"},
		{"too long a product", "ВЫБРАТЬ 1" + strings.Repeat("*1", 2000), "deeper than 1000"},
		{"too long a disjunction", "ВЫБРАТЬ 1 ГДЕ ЛОЖЬ" + strings.Repeat(" ИЛИ ЛОЖЬ", 2000), "deeper than 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := qlang.Parse(tt.src)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want an error", tt.src, describe(b))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%q) error = %q, want it to contain %q", tt.src, err, tt.want)
			}
			var se *qlang.SyntaxError
			if !errors.As(err, &se) || !errors.Is(err, qlang.ErrSyntax) {
				t.Errorf("Parse(%q) error %T is not a *SyntaxError wrapping ErrSyntax", tt.src, err)
			}
		})
	}
}
