package passages

import (
	"strings"
	"testing"
	"time"

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
		{"задолженность по займу на 1 октября", "", []string{"1"}, "последний срок до этой даты — 30\\.09\\.2026"},
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
