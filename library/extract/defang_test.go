package extract

import (
	"regexp"
	"testing"
)

// clickable finds what Telegram would render as a link or a mention in plain text: a scheme's
// "://", a host name with a letter after its last dot (bare domains, t.me/…), an IPv4 address,
// an @username, an e-mail address, a bot command. Looser than Telegram (it knows no list of
// top-level domains but a document's extension at the end), so text it finds nothing in is
// safe.
func clickable(s string) string {
	s = docExtension.ReplaceAllString(s, "")
	return linkLike.FindString(s)
}

var (
	linkLike     = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*[:：][/／]{2}|[\pL\pN_-]+[.．。｡][\pL][\pL\pN-]*|\d{1,3}(\.\d{1,3}){3}|[@＠][a-z0-9_]{2,}|(^|[\s(«"])[/／][a-z]`)
	docExtension = regexp.MustCompile(`(?i)\.(pdf|docx|txt)$`)
)

func TestDefang(t *testing.T) {
	tests := []struct{ in, want string }{
		// The file name, and the forms of a link Telegram reads.
		{"pay at evil-bank.ru or t.me/phish @phish_bot", "pay at evil-bank[.]ru or t[.]me/phish [@]phish_bot"},
		{"https://evil.example/pay?x=1", "https[:]//evil[.]example/pay?x=1"},
		{"tg://resolve?domain=phish_bot", "tg[:]//resolve?domain=phish_bot"},
		{"ftp://files.evil.io", "ftp[:]//files[.]evil[.]io"},
		{"mailto:boss@evil.ru", "mailto:boss[@]evil[.]ru"},
		{"оплата на сайте банк.рф", "оплата на сайте банк[.]рф"},
		{"xn--80ak6aa92e.com", "xn--80ak6aa92e[.]com"},
		{"http://10.0.0.1:8080/pay", "http[:]//10[.]0[.]0[.]1:8080/pay"},
		{"сервер 192.168.1.10", "сервер 192[.]168[.]1[.]10"},
		{"/start@phish_bot", "[/]start[@]phish_bot"},
		{"нажмите /pay_now", "нажмите [/]pay_now"},
		// Lookalikes that normalisation turns into the real thing.
		{"evil-bank．ru ＠phish_bot", "evil-bank[.]ru [@]phish_bot"},
		{"evil-bank。ru ／start", "evil-bank[.]ru [/]start"},
		{"tg：//resolve", "tg[:]//resolve"},
		// Titles accountants write stay as they are.
		{"Договор поставки № П-15/2025 от 01.02.2026", "Договор поставки № П-15/2025 от 01.02.2026"},
		{"Акт сверки 1/2, ставка 7.5%", "Акт сверки 1/2, ставка 7.5%"},
		{"Версия 1.2.3.4.5", "Версия 1.2.3.4.5"},
		{"Раздел 2.1.3", "Раздел 2.1.3"},
		{"Счёт 60.01 и 62.02", "Счёт 60.01 и 62.02"},
		{"Итоги: выручка / расходы", "Итоги: выручка / расходы"},
		{"#НДС $USD", "#НДС $USD"},
		{"報告書。第一章", "報告書。第一章"},
		// A file name's extension, when it is a document format's and no domain.
		{"evil-bank.ru @phish_bot.pdf", "evil-bank[.]ru [@]phish_bot.pdf"},
		{"oneline.TXT", "oneline.TXT"},
		{"evil.zip", "evil[.]zip"},
		{"evil.md", "evil[.]md"},
		{"pdf.evil.com", "pdf[.]evil[.]com"},
		{"", ""},
	}
	for _, tt := range tests {
		got := Defang(tt.in)
		if got != tt.want {
			t.Errorf("Defang(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if again := Defang(got); again != got {
			t.Errorf("Defang is not idempotent on %q: %q", got, again)
		}
		if got != tt.in {
			if clickable(tt.in) == "" {
				t.Errorf("clickable finds nothing in %q: the check below would prove nothing", tt.in)
			}
			if m := clickable(got); m != "" {
				t.Errorf("Defang(%q) = %q still has %q clickable", tt.in, got, m)
			}
		}
	}
}

// A title made from the file name, the metadata or the first heading is defanged.
func TestTitlesAreDefanged(t *testing.T) {
	for _, tt := range []struct{ name, text, want string }{
		{"pay at evil-bank.ru or t.me or @phish_bot.txt", "Оплатите счёт.", "pay at evil-bank[.]ru or t[.]me or [@]phish_bot"},
		// A '/' in the name ends a folder: the title is what follows it.
		{"pay at evil-bank.ru or t.me/phish @phish_bot.txt", "Оплатите счёт.", "phish [@]phish_bot"},
		{"x.docx.txt", "Оплатите счёт.", "x.docx"},
		{"evil.zip.txt", "Оплатите счёт.", "evil[.]zip"},
		{"a.md", "# Оплата: https://evil.example/pay\n\nТекст.", "Оплата: https[:]//evil[.]example/pay"},
	} {
		d := mustExtract(t, tt.name, []byte(tt.text))
		if d.Title != tt.want {
			t.Errorf("Extract(%q).Title = %q, want %q", tt.name, d.Title, tt.want)
		}
	}
}
