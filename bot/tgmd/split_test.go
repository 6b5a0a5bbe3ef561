package tgmd

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func texts(parts []Message) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p.Text)
	}
	return out
}

func TestSplitCutPoints(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		limit int
		want  []string
	}{
		{"fits", "  abc  ", 10, []string{"abc"}},
		{"empty", "", 10, nil},
		{"blank", " \n\n ", 10, nil},
		{"blank line preferred", "aaaa bbbb\n\ncc\ndd ee", 16, []string{"aaaa bbbb", "cc\ndd ee"}},
		{"latest blank line", "aa\n\nbb\n\ncc\n\ndd", 11, []string{"aa\n\nbb\n\ncc", "dd"}},
		{"newline over space", "aaaa bbbb\ncc dd ee", 15, []string{"aaaa bbbb", "cc dd ee"}},
		{"latest newline", "a\nbb\ncc\ndddddd", 8, []string{"a\nbb\ncc", "dddddd"}},
		{"space", "aaaa bbbb cccc dddd", 12, []string{"aaaa bbbb", "cccc dddd"}},
		{"early blank line loses to late newline", "a\n\nbbbbbbbbb\ncccc", 14, []string{"a\n\nbbbbbbbbb", "cccc"}},
		{"early blank line beats hard cut", "a\n\nbbbbbbbbbbbbbbbbbb", 10, []string{"a", "bbbbbbbbbb", "bbbbbbbb"}},
		{"hard cut", "abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"emoji not broken", "a😀😀😀", 4, []string{"a😀", "😀😀"}},
		{"only emoji", "😀😀😀", 3, []string{"😀", "😀", "😀"}},
		{"tiny limit", "😀x", 1, []string{"😀", "x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Message{Text: tt.text}
			parts := Split(m, tt.limit)
			if diff := cmp.Diff(tt.want, texts(parts)); diff != "" {
				t.Errorf("Split(%q, %d) mismatch (-want +got):\n%s", tt.text, tt.limit, diff)
			}
			checkParts(t, m, parts, max(tt.limit, 2))
		})
	}
}

func TestSplitEntities(t *testing.T) {
	// "Итого: 📈 рост\n\nвторой абзац" with bold over "Итого: 📈 рост\n\nвторой".
	m := Message{
		Text:     "Итого: 📈 рост\n\nвторой абзац",
		Entities: []Entity{ent("bold", 0, 22), {Type: "text_link", Offset: 10, Length: 4, URL: "https://a.ru"}},
	}
	got := Split(m, 16)
	want := []Message{
		{Text: "Итого: 📈 рост", Entities: []Entity{ent("bold", 0, 14), {Type: "text_link", Offset: 10, Length: 4, URL: "https://a.ru"}}},
		{Text: "второй абзац", Entities: []Entity{ent("bold", 0, 6)}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Split mismatch (-want +got):\n%s", diff)
	}
	checkParts(t, m, got, 16)
}

func TestSplitBlankLineInsidePre(t *testing.T) {
	m := Convert("Код:\n\n```go\na := 1\n\nb := 2\n```\nпосле кода текст")
	// The only blank line outside pre is right after "Код:"; the one inside
	// pre must not be chosen, so the first cut falls at a line break.
	parts := Split(m, 22)
	checkParts(t, m, parts, 22)
	for _, p := range parts {
		for _, e := range p.Entities {
			if e.Type == "pre" && e.Language != "go" {
				t.Errorf("pre part lost its language: %+v", e)
			}
		}
	}
	if diff := cmp.Diff([]string{"Код:\n\na := 1\n\nb := 2", "после кода текст"}, texts(parts)); diff != "" {
		t.Errorf("parts mismatch (-want +got):\n%s", diff)
	}
}

func TestSplitBigPre(t *testing.T) {
	var code strings.Builder
	for i := range 300 {
		code.WriteString("fmt.Println(\"строка ")
		code.WriteString(strings.Repeat("x", i%40))
		code.WriteString("\")\n")
	}
	m := Convert("Программа:\n\n```go\n" + code.String() + "```\n\nКонец.")
	const limit = 1000
	parts := Split(m, limit)
	checkParts(t, m, parts, limit)
	pres := 0
	for _, p := range parts {
		for _, e := range p.Entities {
			if e.Type != "pre" {
				continue
			}
			pres++
			if e.Language != "go" {
				t.Errorf("pre part has language %q, want go", e.Language)
			}
		}
	}
	if pres < 10 {
		t.Errorf("got %d pre pieces over %d parts, want the code spread over many parts", pres, len(parts))
	}
}

func TestSplitEmojiAtBoundary(t *testing.T) {
	// Every possible position of the cut relative to an emoji.
	for prefix := range 6 {
		text := strings.Repeat("a", prefix) + strings.Repeat("💶", 10)
		m := Message{Text: text, Entities: []Entity{ent("bold", prefix, 20)}}
		for limit := 2; limit <= 7; limit++ {
			parts := Split(m, limit)
			checkParts(t, m, parts, limit)
			for _, p := range parts {
				if strings.ContainsRune(p.Text, '\uFFFD') {
					t.Fatalf("prefix %d limit %d: broken emoji in %q", prefix, limit, p.Text)
				}
			}
		}
	}
}

func TestSplitArbitraryEntities(t *testing.T) {
	// Entities not produced by Convert: out of range, inside a surrogate pair.
	m := Message{Text: "😀 abc 😀 def", Entities: []Entity{
		ent("bold", -3, 5), ent("italic", 1, 4), ent("code", 9, 100), ent("bold", 50, 2), ent("italic", 2, 0),
	}}
	for _, limit := range []int{3, 5, 100} {
		for i, p := range Split(m, limit) {
			if err := p.Validate(); err != nil {
				t.Errorf("limit %d part %d: %v", limit, i, err)
			}
		}
	}
}

// randomMarkdown builds Markdown-ish text from fragments that exercise every
// construct, including long words and emoji that force hard cuts.
func randomMarkdown(r *rand.Rand) string {
	frags := []string{
		"Итого", "сумма", "ООО «Рога_и*Копыта»", "word", "📈", "💶", "👨‍👩‍👧", " ", " ", " ", "\n", "\n\n",
		"**", "*", "_", "~~", "`", "\\", "&amp;", "<b>", "</b>", "# ", "## ", "- ", "1. ", "> ", "- [x] ",
		"```go\n", "\n```\n", "    ", "[ссылка](https://a.ru)", "[x](javascript:1)", "<https://b.ru>",
		"| a | b |\n|---|--:|\n| 1 | 2 |\n", "| Контрагент | ИНН | Сумма | Комментарий длинный |\n|---|---|---|---|\n| ООО | 77 | 1 000 | нет |\n",
		"---\n", strings.Repeat("я", 70), strings.Repeat("😀", 30), "a\xffb", "1+1=2!", "{}.!|#",
	}
	var sb strings.Builder
	for range r.IntN(400) {
		sb.WriteString(frags[r.IntN(len(frags))])
	}
	return sb.String()
}

func TestSplitProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		md := randomMarkdown(r)
		m := Convert(md)
		if err := m.Validate(); err != nil {
			t.Fatalf("case %d: Convert(%q): %v", i, md, err)
		}
		if m.Text != strings.TrimSpace(m.Text) {
			t.Fatalf("case %d: Convert result not trimmed: %q", i, m.Text)
		}
		for _, limit := range []int{50, 100, 4096} {
			parts := Split(m, limit)
			checkParts(t, m, parts, limit)
			if UTF16Len(m.Text) <= limit && len(parts) > 1 {
				t.Fatalf("case %d: message of %d units split into %d parts at limit %d",
					i, UTF16Len(m.Text), len(parts), limit)
			}
		}
	}
}

func TestJoin(t *testing.T) {
	a := Message{Text: "📈 Курс", Entities: []Entity{ent("bold", 3, 4)}}
	b := Message{Text: "евро", Entities: []Entity{ent("italic", 0, 4)}}
	empty := Message{Text: "", Entities: []Entity{ent("bold", 0, 1)}}
	tests := []struct {
		name  string
		sep   string
		parts []Message
		want  Message
	}{
		{"none", "\n", nil, Message{}},
		{"one", "\n", []Message{a}, a},
		{"two", "\n\n", []Message{a, b}, Message{
			Text:     "📈 Курс\n\nевро",
			Entities: []Entity{ent("bold", 3, 4), ent("italic", 9, 4)},
		}},
		{"emoji separator", " 💶 ", []Message{b, a}, Message{
			Text:     "евро 💶 📈 Курс",
			Entities: []Entity{ent("italic", 0, 4), ent("bold", 11, 4)},
		}},
		{"empty parts skipped", "|", []Message{empty, a, empty, b, empty}, Message{
			Text:     "📈 Курс|евро",
			Entities: []Entity{ent("bold", 3, 4), ent("italic", 8, 4)},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Join(tt.sep, tt.parts...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Join mismatch (-want +got):\n%s", diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestSplitJoinRoundTrip(t *testing.T) {
	m := Convert(generateLong())
	parts := Split(m, 500)
	joined := Join("\n\n", parts...)
	if err := joined.Validate(); err != nil {
		t.Fatal(err)
	}
	// Re-splitting the joined text at the same limit gives the same parts.
	if diff := cmp.Diff(parts, Split(joined, 500)); diff != "" {
		t.Errorf("split of joined parts differs (-want +got):\n%s", diff)
	}
}
