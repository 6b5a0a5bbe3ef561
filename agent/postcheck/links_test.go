package postcheck

import (
	"testing"

	"github.com/finbot/finbot/agent/facts"
)

func TestDropForeignLinks(t *testing.T) {
	p := facts.Payload{
		Sources: []facts.Source{{Title: "Банк России", URL: "https://www.cbr.ru/currency_base/daily/?UniDbQuery.To=31.03.2026"}},
		Items:   []facts.Item{{Text: "Подробнее: https://nalog.gov.ru/rn77/taxation/ ."}},
	}
	c := New(p, "курс доллара, см. http://example.org/q")
	tests := []struct{ in, want string }{
		{"Курс — 81,23 ₽ [1].", "Курс — 81,23 ₽ [1]."},
		{"См. [сайт Банка России](https://www.cbr.ru/currency_base/daily/?UniDbQuery.To=31.03.2026).",
			"См. [сайт Банка России](https://www.cbr.ru/currency_base/daily/?UniDbQuery.To=31.03.2026)."},
		{"См. [сайт Банка России](https://cbr-rates.example.com/usd).", "См. сайт Банка России."},
		{"Подробнее: https://evil.example/phish и всё.", "Подробнее: и всё."},
		{"ФНС: https://nalog.gov.ru/rn77/taxation/.", "ФНС: https://nalog.gov.ru/rn77/taxation/."},
		{"Из вопроса: http://example.org/q", "Из вопроса: http://example.org/q"},
		{"Заходите на www.bank-of-russia.example.", "Заходите на ."},
		{"[ссылка](javascript:alert(1))", "ссылка"},
	}
	for _, tt := range tests {
		if got := c.DropForeignLinks(tt.in); got != tt.want {
			t.Errorf("DropForeignLinks(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
