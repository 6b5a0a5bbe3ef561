package ru

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// now is Sunday, 22 November 2026, 15:00 in Moscow.
var testNow = time.Date(2026, 11, 22, 15, 0, 0, 0, Moscow)

func d(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, Moscow) }

func day(t time.Time, text string) Period {
	return Period{From: t, To: t, Kind: KindDay, Text: text}
}

func per(from, to time.Time, kind, text string) Period {
	return Period{From: from, To: to, Kind: kind, Text: text}
}

func TestParsePeriod(t *testing.T) {
	mar := func(text string) Period { return per(d(2026, 3, 1), d(2026, 3, 31), KindMonth, text) }
	tests := []struct {
		in   string
		want Period
	}{
		// Named days.
		{"курс евро на вчера", day(d(2026, 11, 21), "на вчера")},
		{"КУРС ЕВРО НА ВЧЕРА", day(d(2026, 11, 21), "НА ВЧЕРА")},
		{"сегодня", day(d(2026, 11, 22), "сегодня")},
		{"позавчера", day(d(2026, 11, 20), "позавчера")},
		{"курс на завтра", day(d(2026, 11, 23), "на завтра")},
		{"на сегодняшний день", day(d(2026, 11, 22), "на сегодняшний день")},
		{"3 дня назад", day(d(2026, 11, 19), "3 дня назад")},

		// Day and month, numeric dates.
		{"сколько стоил доллар 1 марта", day(d(2026, 3, 1), "1 марта")},
		{"курс на 1-го марта", day(d(2026, 3, 1), "на 1-го марта")},
		{"на 1 марта 2026", day(d(2026, 3, 1), "на 1 марта 2026")},
		{"1 марта 2026 года", day(d(2026, 3, 1), "1 марта 2026 года")},
		{"на 1 МАРТА 2026 Г. пожалуйста", day(d(2026, 3, 1), "на 1 МАРТА 2026 Г.")},
		{"01.03.2026", day(d(2026, 3, 1), "01.03.2026")},
		{"1.3.2026", day(d(2026, 3, 1), "1.3.2026")},
		{"01.03.26", day(d(2026, 3, 1), "01.03.26")},
		{"2026-03-01", day(d(2026, 3, 1), "2026-03-01")},
		{"01/03/2026", day(d(2026, 3, 1), "01/03/2026")},
		{"/rate USD CNY 15.01.2026", day(d(2026, 1, 15), "15.01.2026")},
		{"25 декабря", day(d(2025, 12, 25), "25 декабря")},
		{"кто нам должен на 31 марта?", day(d(2026, 3, 31), "на 31 марта")},
		{"29 февраля", day(d(2024, 2, 29), "29 февраля")},
		{"Курс USD на 15 янв.", day(d(2026, 1, 15), "на 15 янв.")},
		{"по состоянию на 01.10.2026", day(d(2026, 10, 1), "по состоянию на 01.10.2026")},
		{"остатки на 31.12.2025 г.", day(d(2025, 12, 31), "на 31.12.2025 г.")},
		{"встреча в 10:30 15 марта", day(d(2026, 3, 15), "15 марта")},

		// Months.
		{"за март", mar("за март")},
		// A two-digit year after a month, where nothing makes it a day.
		{"что истекает в январе 27", per(d(2027, 1, 1), d(2027, 1, 31), KindMonth, "в январе 27")},
		{"выручка за март 25?", per(d(2025, 3, 1), d(2025, 3, 31), KindMonth, "за март 25")},
		{"долг на декабрь 25 г.", per(d(2025, 12, 1), d(2025, 12, 31), KindMonth, "на декабрь 25 г.")},
		{"динамика юаня за март", mar("за март")},
		{"в марте", mar("в марте")},
		{"март 2026", mar("март 2026")},
		{"март 2026 года", mar("март 2026 года")},
		{"/rate usd март 2026", mar("март 2026")},
		{"ЗА МАРТ", mar("ЗА МАРТ")},
		{"За Март 2026 Года", mar("За Март 2026 Года")},
		{"за март 2025", per(d(2025, 3, 1), d(2025, 3, 31), KindMonth, "за март 2025")},
		{"За Декабрь", per(d(2025, 12, 1), d(2025, 12, 31), KindMonth, "За Декабрь")},
		{"в ноябре", per(d(2026, 11, 1), d(2026, 11, 22), KindMonth, "в ноябре")},
		{"в мае 2025 года", per(d(2025, 5, 1), d(2025, 5, 31), KindMonth, "в мае 2025 года")},
		{"за прошлый месяц", per(d(2026, 10, 1), d(2026, 10, 31), KindMonth, "за прошлый месяц")},
		{"в позапрошлом месяце", per(d(2026, 9, 1), d(2026, 9, 30), KindMonth, "в позапрошлом месяце")},

		// Ranges.
		{"с 1 по 15 марта", per(d(2026, 3, 1), d(2026, 3, 15), KindRange, "с 1 по 15 марта")},
		{"с 1 марта по 15 апреля", per(d(2026, 3, 1), d(2026, 4, 15), KindRange, "с 1 марта по 15 апреля")},
		{"с 01.03.2026 по 15.03.2026", per(d(2026, 3, 1), d(2026, 3, 15), KindRange, "с 01.03.2026 по 15.03.2026")},
		{"/rate CNY 01.03.2026-31.03.2026", per(d(2026, 3, 1), d(2026, 3, 31), KindRange, "01.03.2026-31.03.2026")},
		{"01.03.2026 — 31.03.2026", per(d(2026, 3, 1), d(2026, 3, 31), KindRange, "01.03.2026 — 31.03.2026")},
		{"2026-03-01..2026-03-31", per(d(2026, 3, 1), d(2026, 3, 31), KindRange, "2026-03-01..2026-03-31")},
		{"с 1 декабря по 15 января", per(d(2025, 12, 1), d(2026, 1, 15), KindRange, "с 1 декабря по 15 января")},
		{"с 1 декабря по 15 января 2026", per(d(2025, 12, 1), d(2026, 1, 15), KindRange, "с 1 декабря по 15 января 2026")},
		{"1-15 марта", per(d(2026, 3, 1), d(2026, 3, 15), KindRange, "1-15 марта")},
		{"с марта по май", per(d(2026, 3, 1), d(2026, 5, 31), KindRange, "с марта по май")},
		{"курс с 1 марта", per(d(2026, 3, 1), d(2026, 11, 22), KindRange, "с 1 марта")},
		{"ставка с 2020 по 2025 год", per(d(2020, 1, 1), d(2025, 12, 31), KindRange, "с 2020 по 2025 год")},

		// Quarters.
		{"I квартал", per(d(2026, 1, 1), d(2026, 3, 31), KindQuarter, "I квартал")},
		{"1 квартал 2026", per(d(2026, 1, 1), d(2026, 3, 31), KindQuarter, "1 квартал 2026")},
		{"первый квартал", per(d(2026, 1, 1), d(2026, 3, 31), KindQuarter, "первый квартал")},
		{"за 2 кв. 2025", per(d(2025, 4, 1), d(2025, 6, 30), KindQuarter, "за 2 кв. 2025")},
		{"за прошлый квартал", per(d(2026, 7, 1), d(2026, 9, 30), KindQuarter, "за прошлый квартал")},
		{"в этом квартале", per(d(2026, 10, 1), d(2026, 11, 22), KindQuarter, "в этом квартале")},
		{"IV квартал 2025", per(d(2025, 10, 1), d(2025, 12, 31), KindQuarter, "IV квартал 2025")},
		{"четвёртый квартал", per(d(2026, 10, 1), d(2026, 11, 22), KindQuarter, "четвёртый квартал")},
		{"отчёт за 3-й квартал", per(d(2026, 7, 1), d(2026, 9, 30), KindQuarter, "за 3-й квартал")},
		{"за III кв. 2025 г.", per(d(2025, 7, 1), d(2025, 9, 30), KindQuarter, "за III кв. 2025 г.")},

		// Years.
		{"за 2025 год", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "за 2025 год")},
		{"2025 год", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "2025 год")},
		{"в 2025 году", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "в 2025 году")},
		{"в 2025-м году", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "в 2025-м году")},
		{"2025г.", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "2025г.")},
		{"2025", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "2025")},
		{"ключевая ставка за 2025", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "за 2025")},
		{"ИНН 7701234567 за 2025 год", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "за 2025 год")},
		{"за прошлый год", per(d(2025, 1, 1), d(2025, 12, 31), KindYear, "за прошлый год")},
		{"за текущий год", per(d(2026, 1, 1), d(2026, 11, 22), KindYear, "за текущий год")},
		{"с начала года", per(d(2026, 1, 1), d(2026, 11, 22), KindRelative, "с начала года")},

		// Relative.
		{"за последние 30 дней", per(d(2026, 10, 24), d(2026, 11, 22), KindRelative, "за последние 30 дней")},
		{"за последние две недели", per(d(2026, 11, 9), d(2026, 11, 22), KindRelative, "за последние две недели")},
		{"за последнюю неделю", per(d(2026, 11, 16), d(2026, 11, 22), KindRelative, "за последнюю неделю")},
		{"за неделю", per(d(2026, 11, 16), d(2026, 11, 22), KindRelative, "за неделю")},
		{"за месяц", per(d(2026, 10, 23), d(2026, 11, 22), KindRelative, "за месяц")},
		{"в течение 10 дней", per(d(2026, 11, 13), d(2026, 11, 22), KindRelative, "в течение 10 дней")},
		{"за прошлую неделю", per(d(2026, 11, 9), d(2026, 11, 15), KindRelative, "за прошлую неделю")},
		{"на этой неделе", per(d(2026, 11, 16), d(2026, 11, 22), KindRelative, "на этой неделе")},
		{"на конец февраля", day(d(2026, 2, 28), "на конец февраля")},
		{"на конец прошлого месяца", day(d(2026, 10, 31), "на конец прошлого месяца")},
		{"на начало года", day(d(2026, 1, 1), "на начало года")},
		{"на конец квартала", day(d(2026, 9, 30), "на конец квартала")}, // the most recent one that has ended
		{"на конец 2025 года", day(d(2025, 12, 31), "на конец 2025 года")},
		{"на 31 марта", day(d(2026, 3, 31), "на 31 марта")},

		// More spellings.
		{"январь-март 2026", per(d(2026, 1, 1), d(2026, 3, 31), KindRange, "январь-март 2026")},
		{"с 1-го по 15-е марта", per(d(2026, 3, 1), d(2026, 3, 15), KindRange, "с 1-го по 15-е марта")},
		{"01.01.2026 по 31.01.2026", per(d(2026, 1, 1), d(2026, 1, 31), KindRange, "01.01.2026 по 31.01.2026")},
		{"за 2025-2026 гг.", per(d(2025, 1, 1), d(2026, 12, 31), KindRange, "за 2025-2026 гг.")},
		{"за 2024-2025", per(d(2024, 1, 1), d(2025, 12, 31), KindRange, "за 2024-2025")},
		{"с 2025 года", per(d(2025, 1, 1), d(2026, 11, 22), KindRange, "с 2025 года")},
		{"Q1 2026", per(d(2026, 1, 1), d(2026, 3, 31), KindQuarter, "Q1 2026")},
		{"за четвертый квартал 2025", per(d(2025, 10, 1), d(2025, 12, 31), KindQuarter, "за четвертый квартал 2025")},
		{"в 1-м квартале", per(d(2026, 1, 1), d(2026, 3, 31), KindQuarter, "в 1-м квартале")},
		{"за 12 мес.", per(d(2025, 11, 23), d(2026, 11, 22), KindRelative, "за 12 мес.")},
		{"неделю назад", day(d(2026, 11, 15), "неделю назад")},
		{"на конец текущего квартала", day(d(2026, 12, 31), "на конец текущего квартала")},
		{"на 1 ма́рта", day(d(2026, 3, 1), "на 1 ма́рта")},

		// Other numbers around a date.
		{"Счёт 62.01, сумма 1 250 000 ₽, ИНН 7701234567, договор П-15/2025 от 01.03.2025",
			day(d(2025, 3, 1), "от 01.03.2025")},
		{"оплата 15 000 руб. в 12:40 за сентябрь", per(d(2026, 9, 1), d(2026, 9, 30), KindMonth, "за сентябрь")},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok, err := ParsePeriod(tt.in, testNow)
			if err != nil || !ok {
				t.Fatalf("ParsePeriod(%q) = ok %v, err %v; want a period", tt.in, ok, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParsePeriod(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if got.From.After(got.To) {
				t.Errorf("From %v after To %v", got.From, got.To)
			}
		})
	}
}

func TestParsePeriodInvalid(t *testing.T) {
	tests := []struct {
		in   string
		want *DateError
	}{
		{"31.02.2026", &DateError{Text: "31.02.2026", Reason: "в феврале 2026 года 28 дней"}},
		{"курс на 30 февраля", &DateError{Text: "на 30 февраля", Reason: "в феврале не больше 29 дней"}},
		{"31 апреля", &DateError{Text: "31 апреля", Reason: "в апреле 30 дней"}},
		{"29 февраля 2026", &DateError{Text: "29 февраля 2026", Reason: "в феврале 2026 года 28 дней"}},
		{"2026-13-01", &DateError{Text: "2026-13-01", Reason: "месяца с номером 13 нет: месяцы нумеруются от 1 до 12"}},
		{"00.01.2026", &DateError{Text: "00.01.2026", Reason: "числа 0 не бывает: дни месяца нумеруются с 1"}},
		{"32.01.2026", &DateError{Text: "32.01.2026", Reason: "в январе 2026 года 31 день"}},
		{"с 15.03.2026 по 01.03.2026", &DateError{Text: "с 15.03.2026 по 01.03.2026", Reason: "начало периода (15.03.2026) позже его конца (01.03.2026)"}},
		{"31.03.2026-01.03.2026", &DateError{Text: "31.03.2026-01.03.2026", Reason: "начало периода (31.03.2026) позже его конца (01.03.2026)"}},
		{"с 30 по 31 февраля", &DateError{Text: "с 30 по 31 февраля", Reason: "в феврале не больше 29 дней"}},
		{"за 5 квартал", &DateError{Text: "за 5 квартал", Reason: "в году четыре квартала, квартала 5 нет"}},
		{"с 01.12.2026", &DateError{Text: "с 01.12.2026", Reason: "начало периода (01.12.2026) позже сегодняшнего дня (22.11.2026)", Future: true}},
		{"01.03.1850", &DateError{Text: "01.03.1850", Reason: "год 1850 вне допустимого диапазона 1900–2100"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok, err := ParsePeriod(tt.in, testNow)
			if ok || !got.From.IsZero() {
				t.Errorf("ParsePeriod(%q) = %+v, ok %v; want not ok", tt.in, got, ok)
			}
			var de *DateError
			if !errors.As(err, &de) {
				t.Fatalf("ParsePeriod(%q) err = %v; want *DateError", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, de); diff != "" {
				t.Errorf("ParsePeriod(%q) error mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParsePeriodNone(t *testing.T) {
	for _, in := range []string{
		"",
		"привет",
		"курс доллара",
		"счёт 62.01",
		"ИНН 7701234567",
		"договор П-15/2025",
		"сумма 1 250 000 рублей",
		"встреча в 15:00",
		"купили за 2000 рублей",
		"за 2000-3000 рублей",
		"договор 2024-2025",
		"за 2025-2024",
		"оплатили 2025 рублей",
		"192.168.1.1",
		"10.20.30",
		"1.250.000,00",
		"с 1 по 15",
		"субсчёт 60.01.1",
		"за 1 доллар",
		"адрес: д 5 кв 12",
		"квартал",
		"15 числа",
	} {
		t.Run(in, func(t *testing.T) {
			got, ok, err := ParsePeriod(in, testNow)
			if ok || err != nil {
				t.Errorf("ParsePeriod(%q) = %+v, %v, %v; want no date", in, got, ok, err)
			}
		})
	}
}

// Every month in nominative, genitive and prepositional, any letter case.
func TestParsePeriodMonthForms(t *testing.T) {
	forms := [][3]string{
		{"январь", "января", "январе"}, {"февраль", "февраля", "феврале"}, {"март", "марта", "марте"},
		{"апрель", "апреля", "апреле"}, {"май", "мая", "мае"}, {"июнь", "июня", "июне"},
		{"июль", "июля", "июле"}, {"август", "августа", "августе"}, {"сентябрь", "сентября", "сентябре"},
		{"октябрь", "октября", "октябре"}, {"ноябрь", "ноября", "ноябре"}, {"декабрь", "декабря", "декабре"},
	}
	for i, f := range forms {
		m := time.Month(i + 1)
		for _, in := range []string{"за " + f[0] + " 2025", "ЗА " + f[0] + " 2025", "до " + f[1] + " 2025 года", "в " + f[2] + " 2025"} {
			got, ok, err := ParsePeriod(in, testNow)
			want := per(d(2025, m, 1), d(2025, m, daysIn(2025, m)), KindMonth, "")
			if !ok || err != nil || !got.From.Equal(want.From) || !got.To.Equal(want.To) || got.Kind != KindMonth {
				t.Errorf("ParsePeriod(%q) = %+v, %v, %v; want %v..%v month", in, got, ok, err, want.From, want.To)
			}
		}
		got, ok, err := ParsePeriod("10 "+f[1], testNow)
		wantYear := 2026
		if m > time.November {
			wantYear = 2025
		}
		if !ok || err != nil || !got.From.Equal(d(wantYear, m, 10)) {
			t.Errorf("ParsePeriod(%q) = %+v, %v, %v; want %d-%02d-10", "10 "+f[1], got, ok, err, wantYear, m)
		}
	}
}

// "Today" is decided in Moscow, whatever the zone of now.
func TestParsePeriodMoscowToday(t *testing.T) {
	now := time.Date(2026, 11, 22, 22, 30, 0, 0, time.UTC) // 01:30 on 23 November in Moscow
	got, ok, err := ParsePeriod("сегодня", now)
	if !ok || err != nil {
		t.Fatalf("ParsePeriod = %v, %v", ok, err)
	}
	if want := day(d(2026, 11, 23), "сегодня"); !cmp.Equal(want, got) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if got.From.Location() != Moscow {
		t.Errorf("location %v, want Moscow", got.From.Location())
	}
}

// Resolution of dates without a year depends on today.
func TestParsePeriodYearInference(t *testing.T) {
	tests := []struct {
		now  time.Time
		in   string
		want Period
	}{
		{d(2026, 1, 10), "декабрь", per(d(2025, 12, 1), d(2025, 12, 31), KindMonth, "декабрь")},
		{d(2026, 1, 10), "за январь", per(d(2026, 1, 1), d(2026, 1, 10), KindMonth, "за январь")},
		{d(2026, 1, 10), "за прошлый месяц", per(d(2025, 12, 1), d(2025, 12, 31), KindMonth, "за прошлый месяц")},
		{d(2026, 1, 10), "за прошлый квартал", per(d(2025, 10, 1), d(2025, 12, 31), KindQuarter, "за прошлый квартал")},
		{d(2026, 1, 10), "II квартал", per(d(2025, 4, 1), d(2025, 6, 30), KindQuarter, "II квартал")},
		{d(2026, 3, 31), "за месяц", per(d(2026, 3, 1), d(2026, 3, 31), KindRelative, "за месяц")},
		{d(2026, 3, 1), "1 марта", day(d(2026, 3, 1), "1 марта")},
		{d(2026, 2, 28), "1 марта", day(d(2025, 3, 1), "1 марта")},
		{d(2028, 3, 1), "на конец февраля", day(d(2028, 2, 29), "на конец февраля")},
		{d(2026, 11, 18), "за прошлую неделю", per(d(2026, 11, 9), d(2026, 11, 15), KindRelative, "за прошлую неделю")},
	}
	for _, tt := range tests {
		got, ok, err := ParsePeriod(tt.in, tt.now)
		if !ok || err != nil {
			t.Errorf("ParsePeriod(%q, %v) = %v, %v", tt.in, tt.now, ok, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ParsePeriod(%q, %v) mismatch (-want +got):\n%s", tt.in, tt.now.Format("2006-01-02"), diff)
		}
	}
}

func TestPeriodDaysSingle(t *testing.T) {
	tests := []struct {
		p      Period
		days   int
		single bool
	}{
		{Period{}, 0, true},
		{day(d(2026, 3, 1), ""), 1, true},
		{per(d(2026, 3, 1), d(2026, 3, 31), KindMonth, ""), 31, false},
		{per(d(2024, 1, 1), d(2024, 12, 31), KindYear, ""), 366, false},
		{per(d(2026, 3, 2), d(2026, 3, 1), KindRange, ""), 0, false},
	}
	for _, tt := range tests {
		if got := tt.p.Days(); got != tt.days {
			t.Errorf("%+v.Days() = %d, want %d", tt.p, got, tt.days)
		}
		if got := tt.p.Single(); got != tt.single {
			t.Errorf("%+v.Single() = %v, want %v", tt.p, got, tt.single)
		}
	}
}

func TestDateErrorMessage(t *testing.T) {
	e := &DateError{Text: "31.02.2026", Reason: "в феврале 2026 года 28 дней"}
	if got, want := e.Error(), "неверная дата «31.02.2026»: в феврале 2026 года 28 дней"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
