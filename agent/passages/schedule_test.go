package passages

import (
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

func TestScheduleFor(t *testing.T) {
	us := library.Units(`4.1. Заёмщик возвращает Сумму займа частями в соответствии со следующим графиком:
№ | Срок возврата (не позднее) | Сумма, руб. | Остаток после платежа, руб.
1 | 30.09.2026 | 4 000 000,00 | 11 000 000,00
2 | 31.12.2026 | 4 000 000,00 | 7 000 000,00
3 | 31.03.2027 | 3 500 000,00 | 3 500 000,00
4 | 30.06.2027 | 3 500 000,00 | 0,00
 | Итого | 15 000 000,00 | 
4.2. Окончательный срок возврата займа — не позднее 30 июня 2027 г.`)
	cds := []library.ClauseDoc{library.NewClauseDoc("loan", "Договор займа", us)}
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, ru.Moscow)
	tests := []struct {
		q, continues string
		rows         []string // the rows' numbers the answer quotes
		line         string   // a part of its first line
	}{
		{"сколько вернуть по займу в декабре", "", []string{"2"}, "01\\.12\\.2026–31\\.12\\.2026"}, // all of December, not up to today
		{"а в 2027", "сколько вернуть по займу в декабре", []string{"3", "4"}, "всего **7\u00a0000\u00a0000,00\u00a0₽**"},
		{"задолженность по займу на 1 октября", "", []string{"1"}, "остаток — **11\u00a0000\u00a0000,00\u00a0₽** после платежа 30\\.09\\.2026 \\(строка 1\\)"},
		// the balance column, a day named without its year (the January to come), a month's
		// payment named by its adjective, today
		{"остаток займа на 1 января", "", []string{"2"}, "На 01\\.01\\.2027 по графику \\(п\\. 4\\.1\\) остаток — **7\u00a0000\u00a0000,00\u00a0₽**"},
		{"остаток долга по займу после декабрьского платежа", "", []string{"2"}, "остаток — **7\u00a0000\u00a0000,00\u00a0₽**"},
		{"сколько осталось вернуть по займу", "", []string{"1"}, "На 06\\.12\\.2026 по графику \\(п\\. 4\\.1\\) остаток — **11\u00a0000\u00a0000,00\u00a0₽**"},
		{"остаток займа на конец года", "", []string{"2"}, "На 31\\.12\\.2026"}, // this year's end: a schedule runs ahead
		{"когда последний платеж по займу", "", []string{"4"}, "Последний срок по графику \\(п\\. 4\\.1\\) — 30\\.06\\.2027"},
		{"сумма очередного платежа по займу", "", []string{"2"}, "Ближайший срок по графику \\(п\\. 4\\.1\\) с 06\\.12\\.2026 — 31\\.12\\.2026"},
		{"что платить по займу до конца года", "", []string{"2"}, "06\\.12\\.2026–31\\.12\\.2026"},
		{"платежи по займу в мае 2026", "", nil, "сроков нет"},
	}
	for _, tt := range tests {
		hits := library.RankClauses(cds, library.ClauseQuestion{Text: tt.q + " график возврат", Context: tt.continues})
		s, ok := scheduleFor(Question{Text: tt.q, Continues: tt.continues, Now: now}, hits, cds)
		if !ok {
			t.Errorf("%q: no schedule", tt.q)
			continue
		}
		var got []string
		for _, u := range us {
			if s.rows[u.Index] {
				got = append(got, u.Number)
			}
		}
		if strings.Join(got, ",") != strings.Join(tt.rows, ",") || !strings.Contains(s.line, tt.line) {
			t.Errorf("%q: rows %v, line %q; want rows %v, a line with %q", tt.q, got, s.line, tt.rows, tt.line)
		}
	}
	if _, ok := scheduleFor(Question{Text: "сколько вернуть по займу", Now: now}, library.RankClauses(cds, library.ClauseQuestion{Text: "график возврата займа"}), cds); ok {
		t.Error("a question without a period gets the whole table, not a schedule's selection")
	}
}

func TestPerUnitFor(t *testing.T) {
	clause := func(n, text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: n, Text: text}}
	}
	row := library.ClauseHit{Unit: library.Unit{Kind: library.UnitRow, Number: "1", Lead: "№ | Вид работ | Ед. | Цена с НДС 22 %, руб.",
		Text: "1 | Выездные работы сверх 20 часов в месяц | час | 2 440,00"}}
	place := func(h library.ClauseHit) string {
		if h.Unit.Kind == library.UnitRow {
			return "таблица, строка " + h.Unit.Number
		}
		return "п. " + h.Unit.Number
	}
	perDiem := clause("4.1", "4.1. Суточные при командировках по территории Российской Федерации выплачиваются в размере 1 500 (одна тысяча пятьсот) рублей за каждый день нахождения в командировке.")
	limit := clause("4.7", "4.7. Суточные в части, превышающей 700 рублей за каждый день командировки по России и 2 500 рублей за каждый день заграничной командировки, облагаются НДФЛ.")
	tests := []struct {
		q    string
		hits []library.ClauseHit
		want string
	}{
		{"сколько суточных за 5 дней", []library.ClauseHit{perDiem}, "1\u00a0500,00\u00a0₽ × 5 = **7\u00a0500,00\u00a0₽** \\(расчёт по п\\. 4\\.1\\)\\."},
		{"сколько суточных за 5 дней", []library.ClauseHit{limit}, ""}, // a limit is no price
		{"сколько суточных", []library.ClauseHit{perDiem}, ""},         // no quantity
		{"выезд на 12 часов сколько", []library.ClauseHit{row}, "2\u00a0440,00\u00a0₽ × 12 = **29\u00a0280,00\u00a0₽** \\(расчёт: таблица, строка 1\\)\\."},
		{"выезд на 3 дня сколько", []library.ClauseHit{row}, ""}, // priced per hour, asked per day
		{"на машине 350 км в одну сторону сколько", []library.ClauseHit{clause("6.3", "6.3. При поездке на личном автомобиле возмещаются расходы на топливо из расчёта 12 (двенадцать) рублей за 1 км пути.")},
			"12,00\u00a0₽ × 350 = **4\u00a0200,00\u00a0₽**; туда и обратно: 12,00\u00a0₽ × 700 = **8\u00a0400,00\u00a0₽** \\(расчёт по п\\. 6\\.3\\)\\."},
	}
	for _, tt := range tests {
		if got := perUnitFor(Question{Text: tt.q}, tt.hits, place); got != tt.want {
			t.Errorf("perUnitFor(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestDueDayFor(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, ru.Moscow)
	interest := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "3.4",
		Text: "3.4. Проценты уплачиваются ежеквартально не позднее 15-го числа месяца, следующего за истекшим процентным периодом."}}
	rent := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "3.5",
		Text: "3.5. Арендная плата вносится не позднее 5-го (пятого) числа текущего (оплачиваемого) месяца."}}
	advance := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "4.3",
		Text: "4.3. Постоянная часть вносится ежемесячно авансом не позднее 25 (двадцать пятого) числа месяца, предшествующего оплачиваемому."}}
	report := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "3.2",
		Text: "3.2. Держатель карты представляет авансовый отчёт ежемесячно, не позднее 5-го рабочего дня месяца, следующего за отчётным."}}
	agentReport := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "5.1",
		Text: "5.1. Агент ежемесячно, не позднее 7 (седьмого) числа месяца, следующего за отчётным, представляет Принципалу отчёт."}}
	// «следующего месяца» without «за»; «каждого месяца»
	phone := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "4.2",
		Text: "4.2. Заказчик оплачивает услуги связи до 10 числа следующего месяца."}}
	lease := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "3.4",
		Text: "3.4. Лизинговые платежи уплачиваются не позднее 15-го числа каждого месяца."}}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	tests := []struct {
		q, continues string // continues: the question a follow-up continues
		hit          library.ClauseHit
		want         string
	}{
		{"проценты за 3 квартал до какого числа", "", interest, "**15\\.10\\.2026**"},
		{"проценты за 4 квартал 2025 до какого числа", "", interest, "**15\\.01\\.2026**"},
		{"до какого числа аренду за январь 2027", "", rent, "**05\\.01\\.2027** \\(5\\-е число месяца 01\\.2027; 05\\.01\\.2027 — выходной, по ст\\. 193 ГК РФ срок переносится на 11\\.01\\.2027"},
		{"до какого числа аренду за ноябрь", "", rent, "**05\\.11\\.2026**"},
		{"когда платить проценты за 4 кв по займу", "", interest, "**15\\.01\\.2027** \\(15\\-е число месяца, следующего за периодом"},
		{"проценты за 3 квартал", "", interest, ""}, // asks no deadline
		{"за январь 2027 аванс до какого числа", "", advance, "**25\\.12\\.2026** \\(25\\-е число месяца, предшествующего месяцу 01\\.2027"},
		{"отчет по карте за ноябрь до какого", "", report, "**07\\.12\\.2026** \\(5\\-й рабочий день"}, // 1–4 and 7 December
		{"отчет по карте за апрель до какого", "", report, "**08\\.05\\.2026**"},                       // 1 May a holiday, 2–3 May a weekend: 4–8 May
		// a follow-up names the period; the question it continues asked the deadline
		{"за ноябрь значит когда", "агентский отчет до какого числа сдают", agentReport, "**07\\.12\\.2026**"},
		{"а за декабрь значит до", "а до какого числа платим", rent, "05\\.12\\.2026 — выходной, по ст\\. 193 ГК РФ срок переносится на 07\\.12\\.2026"},
		{"за ноябрь значит когда", "сколько агенту за ноябрь", agentReport, ""}, // no deadline asked
		{"связь за ноябрь до какого числа оплатить", "", phone, "**10\\.12\\.2026** \\(10\\-е число месяца, следующего за периодом 01\\.11\\.2026–30\\.11\\.2026"},
		{"лизинг за октябрь до какого", "", lease, "**15\\.10\\.2026** \\(15\\-е число месяца 10\\.2026"},
	}
	for _, tt := range tests {
		got := dueDayFor(Question{Text: tt.q, Continues: tt.continues, Now: now}, []library.ClauseHit{tt.hit}, place, nil)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("dueDayFor(%q) = %q, want %q in it", tt.q, got, tt.want)
		}
	}
	// 15.01.2026 is a holiday (art. 112 of the Labour Code has 1–8 January; the 15th is a Thursday): no move.
	// 05.07.2026 is a Sunday: the deadline moves to Monday 06.07.2026.
	if got := dueDayFor(Question{Text: "до какого числа аренду за июль", Now: now}, []library.ClauseHit{rent}, place, nil); !strings.Contains(got, "06\\.07\\.2026") {
		t.Errorf("a Sunday's deadline moves to Monday: %q", got)
	}
}

func TestPerUnitForMonthsAndVAT(t *testing.T) {
	rent := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "3.2",
		Text: "3.2. Ежемесячная арендная плата (постоянная часть) составляет 185 760,00 (сто восемьдесят пять тысяч семьсот шестьдесят) рублей 00 копеек, в том числе НДС 22 % — 33 497,70 рубля."}}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	for q, want := range map[string]string{
		"сколько аренда за год":     "185\u00a0760,00\u00a0₽ × 12 мес\\. = **2\u00a0229\u00a0120,00\u00a0₽**",
		"ндс по аренде за квартал":  "НДС 33\u00a0497,70\u00a0₽ × 3 мес\\. = **100\u00a0493,10\u00a0₽**",
		"аренда за полгода без ндс": "без НДС 152\u00a0262,30\u00a0₽ × 6 мес\\. = **913\u00a0573,80\u00a0₽**",
		"аренда за 2 месяца":        "185\u00a0760,00\u00a0₽ × 2 мес\\. = **371\u00a0520,00\u00a0₽**",
		"сколько аренда в месяц":    "",
	} {
		got := perUnitFor(Question{Text: q}, []library.ClauseHit{rent}, place)
		if want == "" && got != "" || !strings.HasPrefix(got, want) {
			t.Errorf("perUnitFor(%q) = %q, want it to start %q", q, got, want)
		}
	}
}

func TestPenaltyFromTheMonthlyPayment(t *testing.T) {
	clause := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "7.1",
		Text: "7.1. За просрочку внесения арендной платы Арендатор уплачивает пени в размере 0,1 % от суммы задолженности за каждый календарный день просрочки."}}
	goods := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "7.2",
		Text: "7.2. За нарушение сроков поставки Поставщик уплачивает пени 0,2 % от стоимости непоставленного в срок товара за каждый день."}}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	monthly := func(int) (int64, string, string, bool) {
		return 18576000, "п. 3.2", "3.2. Ежемесячная арендная плата составляет 185 760,00 рублей.", true
	}
	got := penaltyOnly(Question{Text: "просрочили аренду на 4 дня сколько пени"}, []library.ClauseHit{clause}, place, monthly)
	if want := "Пени: 185\u00a0760,00\u00a0₽ × 0,1 % × 4 дн\\. = **743,04\u00a0₽** \\(расчёт по п\\. 7\\.1 — от ежемесячного платежа по п\\. 3\\.2\\)\\."; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := penaltyOnly(Question{Text: "опоздаем с поставкой на 4 дня сколько пени"}, []library.ClauseHit{goods}, place, monthly); got != "" {
		t.Errorf("a penalty on goods undelivered is not counted from a monthly payment: %q", got)
	}
	fee := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "7.2",
		Text: "7.2. За просрочку оплаты вознаграждения Сублицензиат уплачивает пени 0,05 % от неоплаченной суммы за каждый день просрочки."}}
	support := func(int) (int64, string, string, bool) {
		return 620500, "п. 5.3", "5.3. Стоимость поддержки составляет 6 205,00 рублей в месяц.", true
	}
	if got := penaltyOnly(Question{Text: "сколько пени если опоздаем с оплатой лицензии на 10 дней"}, []library.ClauseHit{fee}, place, support); got != "" {
		t.Errorf("a licence fee's penalty is not counted from the support's monthly fee: %q", got)
	}
}

func TestPiecesFor(t *testing.T) {
	row := func(text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitRow, Number: "3",
			Lead: "Наименование | Ед. изм. | Цена без НДС, руб. | Ставка НДС | Цена с НДС, руб.", Text: text}}
	}
	hp := row("Ноутбук HP ProBook 450 G10 (Core i5, 16 ГБ, SSD 512 ГБ) | шт | 74\u00a0500,00 | 22% | 90\u00a0890,00")
	monitor := row("Монитор 27\" AOC Q27P2Q | шт | 19\u00a0900,00 | 22% | 24\u00a0278,00")
	tariff := func(text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitRow, Number: "3",
			Lead: "Код | Услуга | Ед. изм. | Цена без НДС, руб. | Ставка НДС | Цена с НДС, руб. | Мин. заказ, ед.", Text: text}}
	}
	pallet := tariff("ХР-01 | Хранение паллеты на стеллаже | паллето-место в месяц | 780,00 | 22% | 951,60 | 20")
	codes := tariff("УП-03 | Нанесение кода маркировки | шт. | 4,10 | 22% | 5,00 | 500")
	place := func(h library.ClauseHit) string { return "строка " + h.Unit.Number }
	tests := []struct {
		q    string
		hit  library.ClauseHit
		want string
	}{
		{"5 ноутбуков hp без ндс", hp, "74\u00a0500,00\u00a0₽ × 5 = **372\u00a0500,00\u00a0₽** без НДС; с НДС 22 %: 454\u00a0450,00\u00a0₽ \\(расчёт: строка 3\\)\\."},
		{"стоимость 3 мониторов", monitor, "19\u00a0900,00\u00a0₽ × 3 = 59\u00a0700,00\u00a0₽ без НДС \\+ НДС 22 % 13\u00a0134,00\u00a0₽ = **72\u00a0834,00\u00a0₽** с НДС \\(расчёт: строка 3\\)\\."},
		{"монитор 27 aoc цена", monitor, ""}, // 27 is the monitor's size, not a count
		{"мониторы 2 шт сумма и ндс", monitor, "19\u00a0900,00\u00a0₽ × 2 = 39\u00a0800,00\u00a0₽ без НДС \\+ НДС 22 % 8\u00a0756,00\u00a0₽ = **48\u00a0556,00\u00a0₽** с НДС; в т\\.ч\\. НДС **8\u00a0756,00\u00a0₽** \\(расчёт: строка 3\\)\\."},
		// a tariff's row: the unit is of the word counted; the VAT of the whole net sum; a minimum order
		{"120 паллет на стеллаже в месяц сколько", pallet, "780,00\u00a0₽ × 120 = 93\u00a0600,00\u00a0₽ без НДС \\+ НДС 22 % 20\u00a0592,00\u00a0₽ = **114\u00a0192,00\u00a0₽** с НДС \\(расчёт: строка 3\\)\\."},
		{"нанести 7 000 кодов сколько будет", codes, "4,10\u00a0₽ × 7000 = 28\u00a0700,00\u00a0₽ без НДС \\+ НДС 22 % 6\u00a0314,00\u00a0₽ = **35\u00a0014,00\u00a0₽** с НДС \\(расчёт: строка 3\\)\\."}, // not 5,00 × 7000
		{"нанесение 300 кодов стоимость", codes, "Оплачивается минимальный заказ 500 вместо 300; 4,10\u00a0₽ × 500 = 2\u00a0050,00\u00a0₽ без НДС \\+ НДС 22 % 451,00\u00a0₽ = **2\u00a0501,00\u00a0₽** с НДС \\(расчёт: строка 3\\)\\."},
		// a row whose last cells are empty («Примечание»): cut short by the sheet, counted all the same
		{"собрать 150 шт поштучно сколько", library.ClauseHit{Unit: library.Unit{Kind: library.UnitRow, Number: "3",
			Lead: "Код | Услуга | Ед. изм. | Цена без НДС, руб. | Ставка НДС | Цена с НДС, руб. | Мин. заказ, ед. | Примечание",
			Text: "ОТ-02 | Комплектация заказа поштучно | шт. | 6,80 | 22% | 8,30 | 200"}}, "Оплачивается минимальный заказ 200 вместо 150; 6,80\u00a0₽ × 200 = 1\u00a0360,00\u00a0₽ без НДС \\+ НДС 22 % 299,20\u00a0₽ = **1\u00a0659,20\u00a0₽** с НДС \\(расчёт: строка 3\\)\\."},
		{"20 машин на хранение", pallet, ""}, // «машин» is not what the row counts
		{"в 40 футовике 1800 коробов сколько за разгрузку", tariff("ПР-03 | Разгрузка контейнера 40' навалом (до 1 500 коробов) | контейнер | 15 400,00 | 22% | 18 788,00 | 1"), ""}, // priced per container
		{"ноутбук hp за 5 дней", hp, ""}, // days count no goods
		// an hour of a machine or of a worker («маш.-час», «чел.-час») is an hour asked; people
		// and hours asked together are counted by neither alone
		{"трактор 5 часов сколько", tariff("СН-01 | Уборка снега трактором | маш.-час | 3\u00a0600,00 | 22% | 4\u00a0392,00 | 3"),
			"3\u00a0600,00\u00a0₽ × 5 = **18\u00a0000,00\u00a0₽** \\(расчёт: строка 3\\)\\. С НДС: 4\u00a0392,00\u00a0₽ × 5 = **21\u00a0960,00\u00a0₽**\\."},
		{"грузчики 2 чел на 4 часа сколько", tariff("ДП-01 | Работа грузчика | чел.-час | 720,00 | 22% | 878,40 | 2"), ""},
	}
	for _, tt := range tests {
		if got := perUnitFor(Question{Text: tt.q}, []library.ClauseHit{tt.hit}, place); got != tt.want {
			t.Errorf("perUnitFor(%q) =\n%q, want\n%q", tt.q, got, tt.want)
		}
	}
}

func TestMonthlyTotal(t *testing.T) {
	lease := library.NewClauseDoc("lease", "Договор аренды офиса", library.Units("3.2. Ежемесячная арендная плата составляет 185 760,00 (сто восемьдесят пять тысяч семьсот шестьдесят) рублей 00 копеек, в том числе НДС 22 % — 33 497,70 рубля."))
	it := library.NewClauseDoc("it", "Договор ИТ обслуживание", library.Units("3.1. Абонентская плата за Услуги составляет 97 600,00 (девяносто семь тысяч шестьсот) рублей 00 копеек в месяц, в том числе НДС 22 % — 17 600,00 рублей."))
	loan := library.NewClauseDoc("loan", "Договор займа", library.Units("1.1. Займодавец передаёт Заёмщику заём в размере 15 000 000,00 рублей."))
	cds := []library.ClauseDoc{lease, it, loan}
	docs := []docstore.Doc{{Meta: docstore.Meta{ID: "lease", Title: "Аренда"}}, {Meta: docstore.Meta{ID: "it", Title: "ИТ"}}, {Meta: docstore.Meta{ID: "loan", Title: "Заём"}}}
	read := func(cds []library.ClauseDoc) []*readDoc {
		var rds []*readDoc
		for _, cd := range cds {
			rds = append(rds, &readDoc{cd: cd, header: library.ReadHeader(cd.Units), amends: library.Amendments(cd.Units)})
		}
		return rds
	}
	ask := func(q string) (skill.Reply, bool) {
		return monthlyTotal(Question{Text: q}, library.RankClauses(cds, library.ClauseQuestion{Text: q}), read(cds), docs)
	}
	r, ok := ask("сколько всего в месяц за офис аренды и ит обслуживание")
	if !ok || !strings.HasPrefix(r.Text, "Всего в месяц: **283\u00a0360,00\u00a0₽**, в т\\.ч\\. НДС 51\u00a0097,70\u00a0₽") || len(r.Sources) != 2 {
		t.Errorf("the two named contracts' monthly payments added: %v %q %v", ok, r.Text, r.Sources)
	}
	if _, ok := ask("сколько в месяц аренда"); ok {
		t.Error("one contract asked, no total")
	}
	if _, ok := ask("сколько всего по займу"); ok {
		t.Error("no month asked, no monthly total")
	}
	// A supplementary agreement that sets the rent anew is no second contract: its rent and the
	// original are never added («сколько в месяц отдаём за склад вместе с тко»).
	store := library.NewClauseDoc("store", "Договор субаренды", library.Units("ДОГОВОР СУБАРЕНДЫ № СА-1/26\n"+
		"4.2. Постоянная часть составляет 555 283,00 (…) рублей 00 копеек в месяц, в том числе НДС 22 % — 100 133,00 рубля.\n"+
		"4.8. Плата за вывоз ТКО — 6 100,00 (…) рублей 00 копеек в месяц, в том числе НДС 22 % — 1 100,00 рубля."))
	agreement := library.NewClauseDoc("ds", "ДС 2", library.Units("ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2 к Договору субаренды № СА-1/26 от 18.02.2026\n"+
		"1. Пункт 4.2 Договора изложить в следующей редакции: «4.2. Постоянная часть составляет 600 118,00 (…) рублей 00 копеек в месяц, в том числе НДС 22 % — 108 218,00 рубля.»"))
	both := []library.ClauseDoc{store, agreement}
	bothDocs := []docstore.Doc{{Meta: docstore.Meta{ID: "store", Title: "Субаренда"}}, {Meta: docstore.Meta{ID: "ds", Title: "ДС 2"}}}
	q := "сколько всего в месяц отдаем за склад вместе с тко по всем договорам"
	if r, ok := monthlyTotal(Question{Text: q}, library.RankClauses(both, library.ClauseQuestion{Text: q}), read(both), bothDocs); ok {
		t.Errorf("a contract and its agreement added: %q", r.Text)
	}
}

func TestChangeOf(t *testing.T) {
	old := "2.2. Общая сумма Договора составляет 1 957 400,00 (один миллион…) рублей 00 копеек."
	amended := "2.2. Общая сумма Договора составляет 1 979 080,00 (один миллион…) рублей 00 копеек."
	got := changeOf(Question{Text: "на сколько изменилась сумма договора"}, old, amended, "ДС № 1")
	if want := "Изменение: 1\u00a0979\u00a0080,00\u00a0₽ − 1\u00a0957\u00a0400,00\u00a0₽ = **\\+21\u00a0680,00\u00a0₽** \\(по «ДС № 1»\\)\\."; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := changeOf(Question{Text: "на сколько снизили цену"}, amended, old, "ДС"); !strings.Contains(got, "**−21\u00a0680,00\u00a0₽**") {
		t.Errorf("a decrease: %q", got)
	}
	if got := changeOf(Question{Text: "какая сумма договора"}, old, amended, "ДС"); got != "" {
		t.Errorf("no change asked: %q", got)
	}
}
