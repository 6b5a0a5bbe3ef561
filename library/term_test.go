package library

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestTermOf(t *testing.T) {
	day := func(s string) time.Time { d, _ := time.Parse("02.01.2006", s); return d }
	tests := []struct {
		name, text string
		want       Term
		renewal    bool
		start      string
	}{
		{"lease", "2.1. Срок аренды устанавливается с 01 февраля 2026 г. по 31 декабря 2026 г. включительно.\n2.3. Если ни одна из Сторон не заявит о прекращении, Договор считается продлённым на тот же срок.",
			Term{End: day("31.12.2026")}, true, "01.02.2026"},
		{"supply", "10.1. Договор вступает в силу с даты подписания и действует до 31 декабря 2026 г., а в части расчётов — до полного исполнения обязательств.",
			Term{End: day("31.12.2026")}, false, ""},
		{"services", "7.1. Договор вступает в силу с даты подписания и заключён на неопределённый срок.\n7.2. Каждая из Сторон вправе отказаться от Договора, письменно уведомив другую Сторону не менее чем за 30 (тридцать) календарных дней.", Term{Indefinite: true}, false, ""},
		{"loan", "4.2. Окончательный срок возврата займа — не позднее 30 июня 2027 г.\n7.1. Договор вступает в силу с даты его подписания и действует до полного исполнения Сторонами своих обязательств.",
			Term{Performance: true, End: day("30.06.2027")}, false, ""},
		{"agency", "8.1. Договор действует с 01 апреля 2026 г. по 31 марта 2027 г.", Term{End: day("31.03.2027")}, false, "01.04.2026"},
		{"sublease", "3.1. Срок субаренды — с 01 марта 2026 г. по 31 января 2027 г. включительно.", Term{End: day("31.01.2027")}, false, "01.03.2026"},
		{"licence", "3.1. Срок лицензии — 12 (двенадцать) месяцев: с 01 февраля 2026 г. по 31 января 2027 г. включительно.", Term{End: day("31.01.2027")}, false, "01.02.2026"},
		{"delivery", "3.1.2. Срок поставки второй партии — до 13 марта 2026 г.", Term{}, false, ""}, // a term of delivery, not of the contract
		// the period of service its term section states, under a heading that names itself a section
		{"outsourcing", "Раздел 7. Срок действия и прекращение Договора\n7.1. Договор вступает в силу с даты подписания. Услуги оказываются с 01 февраля 2026 г. по 31 января 2027 г.",
			Term{End: day("31.01.2027")}, false, "01.02.2026"},
		{"outsourcing, no term section", "Раздел 3. Порядок оказания услуг\n3.1. Услуги оказываются с 01 февраля 2026 г. по 31 января 2027 г.", Term{}, false, ""},
	}
	for _, tt := range tests {
		got, ok := TermOf(Units(tt.text))
		if tt.want == (Term{}) {
			if ok {
				t.Errorf("%s: %+v, want none", tt.name, got)
			}
			continue
		}
		if tt.start != "" && !got.Start.Equal(day(tt.start)) {
			t.Errorf("%s: starts %v, want %s", tt.name, got.Start, tt.start)
		}
		if !ok || !got.End.Equal(tt.want.End) || got.Indefinite != tt.want.Indefinite || got.Performance != tt.want.Performance || (got.Renewal != nil) != tt.renewal {
			t.Errorf("%s: %+v %v, want %+v (renewal %v)", tt.name, got, ok, tt.want, tt.renewal)
		}
	}
	if got, _ := TermOf(Units(tests[2].text)); got.Exit == nil || got.Exit.Number != "7.2" {
		t.Errorf("an indefinite contract's way out: %+v", got.Exit)
	}
	if _, ok := TermOf(Units("1.1. Арендатор платит аренду.")); ok {
		t.Error("a contract that states no term")
	}
}

// A company is named by its initials as accountants write them («итд» for «Ивановский
// Текстильный Дом»): runs of two to four capitalised words, three letters or more.
func TestAcronyms(t *testing.T) {
	for _, tt := range []struct {
		title string
		want  []string
	}{
		{"Прайс Ивановский Текстильный Дом с 01.11.2026.xlsx", []string{"пит", "питд", "итд"}},
		{"Договор ИТ аутсорсинг Кронверк 2026.docx", nil},
		{"Дом и сад", nil},
	} {
		got := Acronyms(tt.title)
		if len(got) != len(tt.want) {
			t.Errorf("%q: %q, want %q", tt.title, got, tt.want)
			continue
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%q: %q, want %q", tt.title, got, tt.want)
			}
		}
	}
	if a := companyTerms(Units("Поставщик: ООО «Ивановский Текстильный Дом», ИНН 3702123456.")); !a["итд"] {
		t.Errorf("a party's initials: %v", a)
	}
}

// A supplementary agreement that says from which payment its new wording applies («Новый срок
// применяется начиная с платы за декабрь 2026 г.», in the clause or the paragraph after it)
// gives the month: an earlier month is paid as the clause read before.
func TestAmendmentAppliesFrom(t *testing.T) {
	text := "к Договору аренды № 47-О/26 от 12.03.2026\n" +
		"3. Пункт 3.6 Договора изложить в следующей редакции: «3.6. Плата вносится не позднее 20-го числа месяца, предшествующего оплачиваемому».\n" +
		"Новый срок применяется начиная с платы за декабрь 2026 г. Плата за ноябрь 2026 г. вносится не позднее 05 ноября 2026 г.\n" +
		"4. Пункт 4.1 Договора изложить в следующей редакции: «4.1. Ставка индексируется на 5 процентов»."
	ams := Amendments(Units(text))
	if len(ams) != 2 {
		t.Fatalf("amendments: %+v", ams)
	}
	if want := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC); !ams[0].From.Equal(want) {
		t.Errorf("3.6 applies from %v, want %v", ams[0].From, want)
	}
	if !ams[1].From.IsZero() {
		t.Errorf("4.1 says no month, read %v", ams[1].From)
	}
}

// A new wording takes effect from the day the agreement names — before «пункт» or between
// «Договора» and «изложить» — and may hold a table, closing after its rows; a new penalty
// applies to delays «возникшим с» a day; «начиная с Постоянной части за ноябрь» names the month.
func TestAmendmentEffective(t *testing.T) {
	text := "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1\nк Договору аренды № 47-О/26 от 16.03.2026\n\n" +
		"1. С 01 октября 2026 г. пункт 4.2 Договора изложить в следующей редакции: «4.2. Постоянная часть составляет 600 118,00 рублей в месяц.»\n\n" +
		"2. Пункт 3.2 Договора с 01 ноября 2026 г. изложить в следующей редакции:\n«3.2. Базовая арендная плата составляет 257 970,00 рублей в месяц и рассчитывается так:\n\n" +
		"Помещение\tСумма в месяц, руб.\nОфис «Гранит»\t245190\nКладовая\t12780\n\n»\n\n" +
		"3. Пункт 4.3 Договора изложить в следующей редакции: «4.3. Вносится до 25 числа.»\nПункт 4.3 в новой редакции применяется начиная с Постоянной части за ноябрь 2026 г.\n\n" +
		"4. Пункт 8.1 Договора изложить в следующей редакции: «8.1. Пени 0,05 % в день.»\nПункт 8.1 в новой редакции применяется к просрочкам, возникшим с 01.10.2026.\n\n" +
		"5. Пункт 9.1 Договора изложить в следующей редакции: «9.1. Споры — в суде."
	ams := Amendments(Units(text))
	want := map[string]string{"4.2": "01.10.2026", "3.2": "01.11.2026", "4.3": "01.11.2026", "8.1": "01.10.2026"}
	if len(ams) != len(want) {
		t.Fatalf("amendments: %+v", ams)
	}
	for _, am := range ams {
		if got := am.From.Format("02.01.2006"); got != want[am.Clause] {
			t.Errorf("%s applies from %s, want %s", am.Clause, got, want[am.Clause])
		}
		if am.Clause == "3.2" && (!strings.Contains(am.Text, "257 970,00 рублей в месяц") || !strings.Contains(am.Text, "Кладовая") || !strings.Contains(am.Text, "Офис «Гранит»") || strings.HasSuffix(am.Text, "»")) {
			t.Errorf("3.2 with its table: %q", am.Text)
		}
	}
}

// An agreement may price a row of the contract's tariff anew («тариф по строке 4 «…» составляет
// 59,00 рубля»), from a day it names before: the row, its quoted name (quotes inside kept), the
// price and the day are read; a row named without a price, or a price of no row, is none.
func TestAmendmentOfRowPrice(t *testing.T) {
	text := "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2\nк Договору № КЛ-55/2026 от 26.01.2026\n\n" +
		"1. Внести изменения в Приложение № 2 к Договору:\n" +
		"1.1. с 01 ноября 2026 г. тариф по строке 4 «Дезинфекция холодильной камеры (цех «Север»)» составляет 59,00 рубля за 1 кв. м, в том числе НДС 22 %;\n" +
		"1.2. цену по строке 7 установить в размере 4 150,00 руб. за смену;\n" +
		"1.3. дополнить строкой 8: «Разовая уборка — по тарифу строки 3 со скидкой 10 процентов».\n" +
		"2. Стоимость Услуг составляет 1 000,00 рублей."
	ams := Amendments(Units(text))
	type row struct{ row, name, price, from string }
	var got []row
	for _, am := range ams {
		from := ""
		if !am.From.IsZero() {
			from = am.From.Format("02.01.2006")
		}
		got = append(got, row{am.Row, am.Name, am.Price, from})
		if am.Contract != "КЛ-55/2026" || am.Clause != "" {
			t.Errorf("%+v: contract %q, clause %q", am, am.Contract, am.Clause)
		}
	}
	want := []row{{"4", "Дезинфекция холодильной камеры (цех «Север»)", "59,00", "01.11.2026"}, {"7", "", "4 150,00", ""}}
	if !slices.Equal(got, want) {
		t.Errorf("row prices = %+v, want %+v", got, want)
	}
	if of := ams[0].Of(); of != "цену по строке 4 «Дезинфекция холодильной камеры (цех «Север»)»" {
		t.Errorf("Of() = %q", of)
	}
}
