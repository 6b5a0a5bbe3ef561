package passages

import (
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

func TestNetOfVAT(t *testing.T) {
	unit := func(text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "3.2", Text: text}}
	}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	lease := unit("3.2. Ежемесячная арендная плата составляет 185 760,00 (сто восемьдесят пять тысяч семьсот шестьдесят) рублей 00 копеек, в том числе НДС 22 % — 33 497,70 рубля.")
	tests := []struct {
		q    string
		hits []library.ClauseHit
		want string
	}{
		{"аренда без ндс в месяц", []library.ClauseHit{lease},
			"Без НДС: 185\u00a0760,00\u00a0₽ − 33\u00a0497,70\u00a0₽ = **152\u00a0262,30\u00a0₽** (расчёт по п\\. 3\\.2)\\."},
		{"аренда в месяц", []library.ClauseHit{lease}, ""},                 // not asked
		{"какие позиции в прайсе без ндс", []library.ClauseHit{lease}, ""}, // which items, not an amount
		{"без ндс сколько", []library.ClauseHit{unit("3.1. Цена 100,00 руб. без НДС.")}, ""},
		{"без ндс", []library.ClauseHit{unit("Сумма 97 600,00 руб., в т.ч. НДС 17 600,00 руб.")},
			"Без НДС: 97\u00a0600,00\u00a0₽ − 17\u00a0600,00\u00a0₽ = **80\u00a0000,00\u00a0₽** (расчёт по п\\. 3\\.2)\\."},
	}
	for _, tt := range tests {
		if got := netOfVAT(Question{Text: tt.q}, tt.hits, place); got != tt.want {
			t.Errorf("netOfVAT(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestPenaltyFor(t *testing.T) {
	loan := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "6.1",
		Text: "6.1. За просрочку возврата Суммы займа Заёмщик уплачивает пени в размере 0,03 % от просроченной суммы за каждый день просрочки."}}
	supply := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "7.1",
		Text: "7.1. За просрочку оплаты Покупатель уплачивает пени 0,05 % от неоплаченной суммы за каждый день просрочки, но не более 5 % от неоплаченной суммы."}}
	// the rate and its cap in words beside the figures, no «%» sign
	worded := library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "7.3",
		Text: "7.3. За просрочку оплаты Заказчик уплачивает неустойку в размере 0,05 (ноль целых пять сотых) процента от неоплаченной суммы за каждый день просрочки, но не более 5 (пяти) процентов от неоплаченной суммы."}}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	tests := []struct {
		q    string
		hit  library.ClauseHit
		want string
	}{
		{"неустойка за 200 дней просрочки оплаты 100 тыс", worded,
			"Пени: 100\u00a0000,00\u00a0₽ × 0,05 % × 200 дн\\. = 10\u00a0000,00\u00a0₽, но не более 5 % — **5\u00a0000,00\u00a0₽** \\(расчёт по п\\. 7\\.3\\)\\."},
		{"пени по займу если просрочим 2 млн на 7 дн", loan, // «дн» without its ending
			"Пени: 2\u00a0000\u00a0000,00\u00a0₽ × 0,03 % × 7 дн\\. = **4\u00a0200,00\u00a0₽** \\(расчёт по п\\. 6\\.1\\)\\."},
		{"просрочим платеж 4 млн по займу на 10 дней сколько пени", loan,
			"Пени: 4\u00a0000\u00a0000,00\u00a0₽ × 0,03 % × 10 дн\\. = **12\u00a0000,00\u00a0₽** \\(расчёт по п\\. 6\\.1\\)\\."},
		{"пени за 200 дней просрочки оплаты 100 тыс", supply,
			"Пени: 100\u00a0000,00\u00a0₽ × 0,05 % × 200 дн\\. = 10\u00a0000,00\u00a0₽, но не более 5 % — **5\u00a0000,00\u00a0₽** \\(расчёт по п\\. 7\\.1\\)\\."},
		{"какие пени по займу", loan, ""},                   // no amount, no days
		{"пени за 10 дней просрочки в 2026 году", loan, ""}, // a year is no amount
		{"сколько пени за 10 дней", loan, ""},               // no amount
		{"сколько будет 4 млн на 10 дней", loan, ""},        // no penalty asked
	}
	for _, tt := range tests {
		if got := penaltyOnly(Question{Text: tt.q}, []library.ClauseHit{tt.hit}, place, nil); got != tt.want {
			t.Errorf("penaltyFor(%q) =\n%q, want\n%q", tt.q, got, tt.want)
		}
	}
}

func TestDeadlineFor(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, ru.Moscow)
	unit := func(text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "4.3", Text: text}}
	}
	pay := unit("4.3. Заказчик оплачивает работы в течение 10 (десяти) рабочих дней с даты подписания акта.")
	report := unit("7.1. Авансовый отчёт представляется в течение 3 рабочих дней после возвращения из командировки.")
	claim := unit("9.1. Ответ на претензию направляется в течение 30 календарных дней с даты её получения.")
	advance := unit("3.1. Аванс выдаётся работнику не позднее чем за 2 (два) рабочих дня до даты выезда.")
	lend := unit("2.1. Займодавец перечисляет Сумму займа в течение 3 (трёх) банковских дней с даты подписания Договора.")
	renewal := unit("3.2. Не позднее чем за 30 (тридцать) календарных дней до окончания срока лицензии Лицензиат направляет счёт на продление.")
	notice := unit("3.3. О желании заключить договор на новый срок Арендатор уведомляет не позднее чем за 45 (сорок пять) календарных дней до окончания срока аренды.")
	giveBack := unit("7.2.6. возвратить Помещение по акту в течение 2 (двух) рабочих дней после окончания срока аренды.")
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	tests := []struct {
		q    string
		hit  library.ClauseHit
		want string // the date, bold
	}{
		{"акт подписали 3 декабря, до какого числа оплатить", pay, "**17\\.12\\.2026**"},
		{"вернулся 10 декабря до какого числа сдать отчёт", report, "**15\\.12\\.2026**"},
		{"подписали акт 28 декабря, до какого числа платить", unit("Оплата в течение 5 рабочих дней с даты подписания."), "**12\\.01\\.2027**"}, // the New Year holidays
		{"получили претензию 6 декабря, до какого числа ответить", claim, "**05\\.01\\.2027**"},
		{"до какого числа оплатить акт", pay, ""},                                            // no day named
		{"акт подписали 3 декабря, какие работы оплачиваем", pay, ""},                        // no deadline asked
		{"а если вернулся в пятницу 11.12 то до", report, "**16\\.12\\.2026**"},              // the date written, not last Friday
		{"а выезд 14.12 тогда до какого", advance, "не позднее **10\\.12\\.2026**"},          // two working days before
		{"до какого числа займодавец должен перечислить деньги", lend, "**19\\.02\\.2026**"}, // from the contract's date
		{"до какого числа вернуть аванс", advance, ""},                                       // before an event the question does not date
		// counted from the end of the contract's term (31.01.2027, a Sunday)
		{"счёт на продление когда пришлют", renewal, "не позднее **01\\.01\\.2027**"},
		{"до какого числа сказать что продлеваем", notice, "не позднее **17\\.12\\.2026**"},
		{"когда вернуть помещение", giveBack, "**02\\.02\\.2027**"},
		{"когда оплатить акт", pay, ""},                                                              // a bare «когда» and a period from an event: no day to count from
		{"до какого числа отказаться от продления на 27й", renewal, "не позднее **01\\.01\\.2027**"}, // «27й» is the year, and the term's end counts
	}
	signed := func(library.ClauseHit) (time.Time, bool) { return time.Date(2026, 2, 16, 0, 0, 0, 0, ru.Moscow), true }
	ends := func(library.ClauseHit) (time.Time, string, bool) {
		return time.Date(2027, 1, 31, 0, 0, 0, 0, ru.Moscow), "п. 3.1", true
	}
	// «когда платить» of a lease: the monthly rent's clause answers best; the deposit's «в течение
	// 5 банковских дней с даты подписания Договора» below it is no deadline of the rent
	rent := unit("3.5. Арендная плата вносится ежемесячно не позднее 5-го числа текущего месяца.")
	rent.Score = 3
	deposit := unit("3.6. Обеспечительный платёж вносится в течение 5 (пяти) банковских дней с даты подписания Договора.")
	deposit.Score = 2
	if got, _ := deadlineFor(Question{Text: "когда платить", Now: now}, []library.ClauseHit{rent, deposit}, place, signed, ends, nil); got != "" {
		t.Errorf("the deposit's deadline given for the rent: %q", got)
	}
	for _, tt := range tests {
		got, _ := deadlineFor(Question{Text: tt.q, Now: now}, []library.ClauseHit{tt.hit}, place, signed, ends, nil)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("deadlineFor(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}

func TestYearlyFor(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, ru.Moscow)
	unit := func(text string) library.ClauseHit {
		return library.ClauseHit{Unit: library.Unit{Kind: library.UnitClause, Number: "7.2", Text: text}}
	}
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	tests := []struct {
		q, text, want string
	}{
		{"инвентаризация когда", "7.2. Инвентаризация проводится ежегодно по состоянию на 31 декабря.", "**31\\.12\\.2026**"},
		{"до какого числа сдать отчёт о расходах", "7.2. Отчёт о расходах представляется ежегодно не позднее 1 марта.", "**01\\.03\\.2027**"}, // this year's has passed
		{"когда сдать отчёт", "7.2. Отчёт представляется не позднее 15 января каждого года.", "**15\\.01\\.2027**"},
		{"инвентаризация что проверяет", "7.2. Инвентаризация проводится ежегодно по состоянию на 31 декабря.", ""}, // no «когда»
		{"когда инвентаризация", "7.2. Инвентаризация проведена по состоянию на 31 декабря.", ""},                   // not yearly
	}
	for _, tt := range tests {
		got, _ := yearlyFor(Question{Text: tt.q, Now: now}, []library.ClauseHit{unit(tt.text)}, place)
		if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
			t.Errorf("yearlyFor(%q, %q) = %q, want %q", tt.q, tt.text, got, tt.want)
		}
	}
}

// penaltyOnly is penaltyFor's line.
func penaltyOnly(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string, monthly func(doc int) (int64, string, string, bool)) string {
	line, _ := penaltyFor(q, hits, place, monthly)
	return line
}

// An amount that bounds something is no sum a clause states: a threshold of a revenue, a cap.
func TestBound(t *testing.T) {
	for text, want := range map[string]bool{
		"4.1.2. при выручке за месяц свыше 2 500 000,00 рублей — 7 (семь) процентов от всей суммы выручки за месяц.": true,
		"5.6. Ответственность ограничена суммой не более 3 000 000,00 рублей.":                                       true,
		"4.1.1. при выручке за месяц до 2 500 000,00 рублей включительно — 6 процентов;":                             true,
		"3.1. Цена Договора составляет 4 860 000,00 рублей, в том числе НДС 22 % — 876 393,44 рубля.":                false,
		"3.2. Ежемесячная арендная плата составляет 185 760,00 рублей.":                                              false,
	} {
		if got := bound(text); got != want {
			t.Errorf("bound(%q) = %v, want %v", text, got, want)
		}
	}
}
