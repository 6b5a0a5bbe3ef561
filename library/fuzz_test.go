package library

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzExcerpt: any text and question give a valid UTF-8 excerpt within the budget (plus the
// two ellipses), and never panic; so do a clause quote (Clause) and an article's (ArticleQuote).
func FuzzExcerpt(f *testing.F) {
	f.Add("1. Оплата. Покупатель оплачивает товар в течение 20 дней. 2. Пени 0,1%.", "пени", 30)
	f.Add("п. 5.2 ст. 330 ГК РФ; руб. 00 коп. Итого: 1 250 000,00 руб.", "итого", 10)
	f.Add("", "", 0)
	f.Add("\xff\xfe. A. B", "a", 1)
	f.Add("1. Оплата\n1.1. Покупатель оплачивает товар в течение 20 дней. 1.2. Пени 0,1% по п. 5.2. Договора.", "срок оплаты", 40)
	f.Add("Сроки\n\nОсновные\n| Отчёт | Срок |\n|---|---|\n| 6-НДФЛ | до 25 февраля |\n\nИтог\n- a:\n- b;", "когда сдавать 6-ндфл", 30)
	f.Fuzz(func(t *testing.T, text, query string, n int) {
		// What the question asks, from n's low bits: every reading of it.
		a := Asking{When: n&1 != 0, Term: n&2 != 0, Deadline: n&4 != 0, Amount: n&8 != 0}
		n = max(1, n%2000)
		for _, got := range []string{Excerpt(text, query, n), Clause(text, query, a, n).Text, ArticleQuote(text, "Статья", "", query, a, n).Text} {
			if !utf8.ValidString(got) && utf8.ValidString(text) {
				t.Fatalf("invalid UTF-8 excerpt %q", got)
			}
			body := strings.TrimSuffix(strings.TrimPrefix(got, "…"), "…")
			if utf8.ValidString(text) && utf8.RuneCountInString(body) > n && utf8.RuneCountInString(strings.Join(strings.Fields(text), " ")) > n {
				t.Fatalf("excerpt %q of %d runes over a budget of %d", got, utf8.RuneCountInString(body), n)
			}
		}
	})
}

// FuzzPlainText never panics and never grows the text by more than its list markers.
func FuzzPlainText(f *testing.F) {
	f.Add("## h\n- **a**\n> q")
	f.Add("***__``")
	f.Fuzz(func(t *testing.T, s string) {
		if got := PlainText(s); len(got) > len(s)*4+8 {
			t.Fatalf("PlainText grew %d → %d bytes", len(s), len(got))
		}
	})
}
