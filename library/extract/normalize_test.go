package extract

import "testing"

func TestNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"  \n\n ", ""},
		{"a\r\nb\rc\u2028d", "a\nb\nc\nd"},
		{"стои\u00ADмость\u200B \u200Dтовара", "стоимость товара"},
		{"сто-\nимость", "стоимость"},
		{"сто-\n\nимость", "сто-\n\nимость"},
		{"П-\n15/2025", "П-\n15/2025"},
		{"Северо-\nЗапад", "Северо-\nЗапад"},
		{"1\u00A0250\u202F000,00   руб.", "1 250 000,00 руб."},
		{"  отступ\t\tтаб  \n", "отступ\tтаб"},
		{"абзац\n\n\n\nследующий", "абзац\n\nследующий"},
		{"строка  \n  вторая", "строка\nвторая"},
		{"е\u0308ж", "ёж"},     // NFC
		{"e\u200B\u0301", "é"}, // invisible removed before NFC
		{"ctrl\x00\x07char\x1b", "ctrlchar"},
		{"\xff\xfeбитые", "\uFFFDбитые"},
		{"a\fb\vc", "a\nb\nc"},
		{"п1\u2029п2", "п1\n\nп2"},
	}
	for _, c := range cases {
		if got := Normalize(c.in); got != c.want {
			t.Errorf("Normalize(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := Normalize(c.want); got != c.want {
			t.Errorf("not idempotent on %q: %q", c.want, got)
		}
	}
}
