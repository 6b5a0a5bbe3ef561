package postcheck

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/facts"
)

func TestSettled(t *testing.T) {
	tests := []struct{ partial, want string }{
		{"", ""},
		{"Курс", ""},
		{"Курс доллара", "Курс"},
		{"Курс доллара ", "Курс доллара"},
		// A number and the words that may still join it wait for more words.
		{"Итого 120 ", "Итого"},
		{"Итого 120 000,00 ", "Итого"},
		{"Итого 120 000,00 ₽ по трём документам", "Итого 120 000,00 ₽ по трём"},
		{"Итого 120\u00a0000,00\u00a0₽ по трём документам", "Итого 120\u00a0000,00\u00a0₽ по трём"},
		{"с 1 по 31 марта", "с"},
		{"с 1 по 31 марта 2026 г. курс", "с"},
		{"с 1 по 31 марта 2026 г. курс доллара вырос", "с 1 по 31 марта 2026 г. курс доллара"},
		{"1,5 млн", ""},
		// A line break ends a number.
		{"Итого 120 000,00\nДа", "Итого 120 000,00"},
		{"- USD — 90,5\n- EUR", "- USD — 90,5\n-"},
		{"- USD — 90,5\n- EUR — 98,", "- USD — 90,5\n- EUR —"},
		// A footnote mark ends a number.
		{"доллар — 90,5 ₽ [1], евро — 98,12 ₽", "доллар — 90,5 ₽ [1], евро —"},
	}
	for _, tt := range tests {
		if got := Settled(tt.partial); got != tt.want {
			t.Errorf("Settled(%q) = %q, want %q", tt.partial, got, tt.want)
		}
		if got := Settled(tt.partial); !strings.HasPrefix(tt.partial, got) {
			t.Errorf("Settled(%q) = %q is not a prefix", tt.partial, got)
		}
	}
}

// Every partial text of a correct answer, rune by rune, passes: a number, date or range cut by
// the stream is never judged before it is whole.
func TestPartialOfCorrectAnswers(t *testing.T) {
	for _, tt := range []struct {
		name     string
		payload  facts.Payload
		question string
		answer   string
	}{
		{"rates", ratesPayload(), ratesQuestion, ratesOK},
		{"ledger", ledgerPayload(), ledgerQuestion, ledgerOK},
		{"lease", leasePayload(), leaseQuestion, leaseOK},
		{"range", ratesPayload(), "курс доллара с 1 по 31 марта 2026", "С 1 по 31 марта 2026 г. доллар стоил 90,5012 ₽ [1]. Итого 3 курса."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if vs := Check(tt.answer, tt.payload, tt.question); vs != nil {
				t.Fatalf("the whole answer fails: %q", vs)
			}
			c := New(tt.payload, tt.question)
			r := []rune(tt.answer)
			for i := 1; i <= len(r); i++ {
				if settled := Settled(string(r[:i])); c.CheckPartial(settled) != nil {
					t.Fatalf("partial %q: settled %q refused: %q", string(r[:i]), settled, c.CheckPartial(settled))
				}
			}
		})
	}
}

// An invented figure is refused as soon as it is settled, and no settled text before that
// holds any part of it.
func TestPartialRefusesInventedFigure(t *testing.T) {
	answer := "Курсы на 31 марта 2026 года: доллар — 90,5012 ₽ [1], евро — 123 456,78 ₽ [1], юань — 12,45 ₽ [1]. Курсы установил Банк России."
	c := New(ratesPayload(), ratesQuestion)
	r := []rune(answer)
	refused := false
	for i := 1; i <= len(r) && !refused; i++ {
		settled := Settled(string(r[:i]))
		vs := c.CheckPartial(settled)
		if vs != nil {
			refused = true
			if vs[0].Kind != InventedNumber || !strings.Contains(vs[0].Detail, "123 456,78") {
				t.Errorf("CheckPartial(%q) = %q, want the invented 123 456,78", settled, vs)
			}
			continue
		}
		if strings.Contains(settled, "123") {
			t.Fatalf("settled %q passed with part of the invented figure", settled)
		}
	}
	if !refused {
		t.Fatal("the invented figure was never refused")
	}
}

// The other rules judge partial text as well: an artifact is refused once its word is whole.
func TestPartialRefusesArtifact(t *testing.T) {
	c := New(ratesPayload(), ratesQuestion)
	if vs := c.CheckPartial(Settled("Курс доллара 90,5012 ₽ [1] (confidence: 0.93) по данным Банка России")); len(vs) == 0 || vs[0].Kind != Artifact {
		t.Errorf("artifact in a partial: %q, want an artifact violation", vs)
	}
	if vs := c.CheckPartial(Settled("Курс")); vs != nil {
		t.Errorf("nothing settled, yet %q", vs)
	}
}
