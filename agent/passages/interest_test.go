package passages

import (
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

func TestInterestFor(t *testing.T) {
	us := library.Units(`1.1. Займодавец передаёт Заёмщику заём в размере 15 000 000,00 рублей.
3.1. За пользование займом Заёмщик уплачивает проценты по ставке, равной ключевой ставке Банка России, увеличенной на 1,5 (одну целую пять десятых) процентного пункта годовых.
4.1. Заёмщик возвращает Сумму займа частями в соответствии со следующим графиком:
№ | Срок возврата (не позднее) | Сумма, руб. | Остаток после платежа, руб.
1 | 30.09.2026 | 4 000 000,00 | 11 000 000,00
2 | 31.12.2026 | 4 000 000,00 | 7 000 000,00`)
	cds := []library.ClauseDoc{library.NewClauseDoc("loan", "Договор займа", us)}
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, ru.Moscow)
	place := func(u library.Unit, _ int) string { return "п. " + u.Number }
	tests := []struct {
		q, want string
	}{
		{"сколько процентов по займу за ноябрь 2026, если ключевая 16 %", "11\u00a0000\u00a0000,00\u00a0₽ × 17,5 % × 30/365 = **158\u00a0219,18\u00a0₽**"},
		{"проценты по займу за август 2026 при ключевой 16", "15\u00a0000\u00a0000,00\u00a0₽ × 17,5 % × 31/365 = **222\u00a0945,21\u00a0₽**"}, // before the first repayment: the whole loan
		{"сколько процентов по займу за ноябрь", ""},                                                                                          // no key rate given: the Bank of Russia's is not guessed
		{"ключевая 16 %, сколько процентов по займу", ""},                                                                                     // no period
	}
	for _, tt := range tests {
		hits := library.RankClauses(cds, library.ClauseQuestion{Text: tt.q})
		got := interestFor(Question{Text: tt.q, Now: now}, hits, cds, place)
		if tt.want == "" && got != "" || !strings.Contains(strings.ReplaceAll(got, "\\", ""), tt.want) {
			t.Errorf("interestFor(%q) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
