package passages

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/library"
)

// kbArticles are three knowledge-base articles as the library stores their text, and a passage
// of each that a search found: the one on reports first, its passage on penalties.
var kbArticles = map[string]struct{ title, text, passage string }{
	"reports": {"Сроки сдачи отчётности", "Сроки сдачи отчётности\n\nОсновные сроки\n| Отчёт | Срок |\n|---|---|\n" +
		"| Декларация по НДС | до 25-го числа месяца после квартала |\n| 6-НДФЛ | до 25 февраля за год |\n" +
		"| Годовая бухгалтерская отчётность | не позднее 31 марта |\n\nШтрафы\n" +
		"- Если декларация или 6-НДФЛ не поданы в течение 20 рабочих дней после срока, счета блокируют.",
		"Штрафы\n- Если декларация или 6-НДФЛ не поданы в течение 20 рабочих дней после срока, счета блокируют."},
	"annual": {"Годовая бухгалтерская отчётность", "Годовая бухгалтерская отчётность\n\nКуда и когда сдавать\n" +
		"Отчётность сдают в налоговый орган не позднее 31 марта.",
		"Куда и когда сдавать\nОтчётность сдают в налоговый орган не позднее 31 марта."},
	"rates": {"Ставки НДС в 2026 году", "Ставки НДС в 2026 году\n\nС 1 января 2026 года основная ставка НДС составляет 22%.",
		"С 1 января 2026 года основная ставка НДС составляет 22%."},
}

func kbPassages(ids ...string) ([]library.Passage, map[string]string) {
	var ps []library.Passage
	texts := map[string]string{}
	for i, id := range ids {
		a := kbArticles[id]
		ps = append(ps, library.Passage{DocID: id, Title: a.title, Text: a.passage, N: i, Heading: a.title})
		texts[id] = a.text
	}
	return ps, texts
}

// TestExtractiveKB: a knowledge-base answer quotes the part of each article that answers —
// wherever it is in the article, under its own heading — and leaves out an article that names
// only part of what another names of the question; when no article states the time limit asked
// for what the question names, there is no answer.
func TestExtractiveKB(t *testing.T) {
	ps, texts := kbPassages("reports", "annual")
	r, ok := ExtractiveKB(ps, texts, "когда сдавать отчётность по НДС", asks("когда сдавать отчётность по НДС"))
	text := unescapeMD(r.Text)
	if !ok || !strings.Contains(text, "**Основные сроки**\n> Декларация по НДС — срок: до 25-го числа месяца после квартала [1]") ||
		strings.Contains(text, "31 марта") || strings.Contains(text, "Штрафы") || len(r.Sources) != 1 {
		t.Errorf("ExtractiveKB = %v, %d sources:\n%s\nwant the VAT row under its heading, one source", ok, len(r.Sources), text)
	}

	// Without the articles' texts the passages are quoted.
	r, ok = ExtractiveKB(ps[:1], nil, "в какой срок сдавать 6-ндфл", asks("в какой срок сдавать 6-ндфл"))
	if text := unescapeMD(r.Text); !ok || !strings.Contains(text, "**Штрафы**\n> Если декларация или 6-НДФЛ не поданы") {
		t.Errorf("ExtractiveKB without texts = %v:\n%s\nwant the passage's item", ok, text)
	}

	ps, texts = kbPassages("rates", "annual")
	if r, ok := ExtractiveKB(ps, texts, "когда платить усн за год", asks("когда платить усн за год")); ok || r.Text != "" {
		t.Errorf("ExtractiveKB(«когда платить усн за год») = %v:\n%s\nwant no answer", ok, r.Text)
	}
}

// asks is what the parser reads question to ask.
func asks(question string) library.Asking { return Asking(understand.NewParser().Asks(question)) }

// unescapeMD drops Markdown escapes.
func unescapeMD(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		if rs[i] == '\\' && i+1 < len(rs) {
			i++
		}
		b.WriteRune(rs[i])
	}
	return b.String()
}
