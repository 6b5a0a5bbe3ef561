package passages

import (
	"testing"
	"time"

	"github.com/finbot/finbot/library"
)

func TestWhatIf(t *testing.T) {
	for _, c := range []struct {
		q    string
		want bool
	}{
		{"грузчики 2 чел на 2 часа почем", true},
		{"страхование товара на складе на 8 млн в мес сколько", true},
		{"а если было бы 5,2 млн", true},
		{"задолжали 240 000 на 12 дней сколько пени", true},
		{"вывезти 3 паллеты — во что обойдётся", true},
		{"акт 1187 на какую сумму", false},
		{"сколько по упд № 1452 к оплате", false},
		{"сколько платим в месяц за склад", false},
		{"проценты за 3 квартал по займу до какого числа", false},
		{"сколько займа возвращать в 2027", false},
		{"кто займодавец по займу на 15 млн", false},
		{"до какого числа оплатить акт 1187, если подписали 03.12", false},
		{"сколько стоит п. 4.2 по допнику 2", false},
	} {
		if got := whatIf(c.q); got != c.want {
			t.Errorf("whatIf(%q) = %v, want %v", c.q, got, c.want)
		}
	}
}

func TestRenewedTo(t *testing.T) {
	day := func(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		clause     string
		start, end time.Time
		how        string
		next       time.Time
	}{
		{"Договор считается продлённым на следующий календарный год.", time.Time{}, day(2026, 12, 31), "на следующий год", day(2027, 12, 31)},
		{"Договор считается продлённым на тот же срок.", day(2026, 2, 1), day(2026, 12, 31), "на тот же срок", day(2027, 11, 30)},
		{"Договор считается продлённым на тот же срок.", time.Time{}, day(2026, 12, 31), "на тот же срок", time.Time{}},
		{"Договор продлевается на 6 (шесть) месяцев.", time.Time{}, day(2026, 6, 30), "на 6 месяцев", day(2026, 12, 31)},
		{"Договор продлевается на 1 (один) год.", time.Time{}, day(2026, 2, 28), "на 1 год", day(2027, 2, 28)},
	} {
		how, next := renewedTo(library.Term{Start: c.start, End: c.end, Renewal: &library.Unit{Text: c.clause}})
		if how != c.how || !next.Equal(c.next) {
			t.Errorf("%q from %v to %v: %q %v, want %q %v", c.clause, c.start, c.end, how, next, c.how, c.next)
		}
	}
}

func TestTermMonth(t *testing.T) {
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		q    string
		want string // «01.2006»; "" = none
	}{
		{"январскую аренду подольск когда платим", "01.2027"},
		{"декабрьский платёж по займу до какого", "12.2026"},
		{"за ноябрьскую поставку когда платить", "11.2026"},
		{"аренда за январь когда платим", "01.2027"},
		{"за ноябрь значит когда", "11.2026"},
		{"аренда за январь 2026 когда платили", "01.2026"},
		{"июньский платёж", "06.2026"},
		{"февральскую аренду когда платить", "02.2027"},
		{"за апрель до какого", "04.2026"},
		{"когда платим аренду", ""},
	} {
		p, ok := termMonth(c.q, now)
		got := ""
		if ok {
			got = p.From.Format("01.2006")
		}
		if got != c.want {
			t.Errorf("termMonth(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

func TestDatedEvent(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"отчет за ноябрь придет 07.12, утвердим в последний день — крайний срок оплаты агенту", "receive"},
		{"отчет утвердили 10.12 — до какого числа платить", "approve"},
		{"акт подписали 03.12 до какого оплатить", "sign"},
		{"до какого числа платить аренду", ""},
	} {
		if got := datedEvent(c.q); got != c.want {
			t.Errorf("datedEvent(%q) = %q, want %q", c.q, got, c.want)
		}
	}
	if got := clauseAnchor(" с даты утверждения отчёта Агента Принципалом."); got != "approve" {
		t.Errorf("clauseAnchor = %q", got)
	}
	units := []library.Unit{{Text: "4.6. Вознаграждение выплачивается в течение 10 (десяти) рабочих дней с даты утверждения отчёта."},
		{Text: "5.3. Принципал в течение 5 (пяти) рабочих дней с даты получения отчёта утверждает его либо направляет возражения."}}
	if m, u, ok := chainStep(units, "approve", "receive"); !ok || u.Text != units[1].Text || m[1] != "5" {
		t.Errorf("chainStep: %v %q %v", m, u.Text, ok)
	}
	if _, _, ok := chainStep(units, "approve", "sign"); ok {
		t.Error("chainStep from signing found a step")
	}
}
