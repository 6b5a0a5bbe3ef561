package tgmd

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func init() {
	// A panic inside Convert is recovered for production safety; in tests
	// it must surface.
	onPanic = func(r any) { panic(r) }
}

func ent(typ string, off, length int) Entity { return Entity{Type: typ, Offset: off, Length: length} }

func TestConvert(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Message
	}{
		{"empty", "", Message{}},
		{"blank", " \n\n\t\n", Message{}},
		{"paragraphs", "a\n\n\n\nb\n", Message{Text: "a\n\nb"}},
		{"soft break kept", "строка 1\nстрока 2", Message{Text: "строка 1\nстрока 2"}},
		{"hard breaks", "a  \nb\\\nc", Message{Text: "a\nb\nc"}},
		{"heading", "# Итого\nтекст", Message{Text: "Итого\n\nтекст", Entities: []Entity{ent("bold", 0, 5)}}},
		{"emphasis", "*a* _b_ **c** __d__ ~~e~~ `f`", Message{Text: "a b c d e f", Entities: []Entity{
			ent("italic", 0, 1), ent("italic", 2, 1), ent("bold", 4, 1), ent("bold", 6, 1),
			ent("strikethrough", 8, 1), ent("code", 10, 1),
		}}},
		{"nested", "**жирный _курсив_**", Message{Text: "жирный курсив", Entities: []Entity{
			ent("bold", 0, 13), ent("italic", 7, 6),
		}}},
		{"same type not nested", "**a **b** c**", Message{Text: "a b c", Entities: []Entity{ent("bold", 0, 5)}}},
		{"bold split around code", "**a `b` c**", Message{Text: "a b c", Entities: []Entity{
			ent("bold", 0, 2), ent("code", 2, 1), ent("bold", 3, 2),
		}}},
		{"code drops inner markup", "`**x**`", Message{Text: "**x**", Entities: []Entity{ent("code", 0, 5)}}},
		{"code span newline", "`a\nb`", Message{Text: "a b", Entities: []Entity{ent("code", 0, 3)}}},
		{"whitespace-only style", "a *&#32;* b", Message{Text: "a   b"}},
		{"whitespace-only code", "a `  ` b", Message{Text: "a    b"}},
		{"escapes", `\*a\* \_b\_ \\ \[c\](d) a\(b)c`, Message{Text: `*a* _b_ \ [c](d) a(b)c`}},
		{"entities", "&amp; &lt;b&gt; &#1046; &#x1F4C8; &nosuch; \\&amp;", Message{Text: "& <b> Ж 📈 &nosuch; &amp;"}},
		{"raw html literal", "<b>x</b> <i>y</i>", Message{Text: "<b>x</b> <i>y</i>"}},
		{"html block literal", "<div>\n*x*\n</div>", Message{Text: "<div>\n*x*\n</div>"}},
		{"link", "[сайт](https://a.ru/x_y)", Message{Text: "сайт", Entities: []Entity{
			{Type: "text_link", Offset: 0, Length: 4, URL: "https://a.ru/x_y"},
		}}},
		{"link with bold", "[**a** b](http://a.ru)", Message{Text: "a b", Entities: []Entity{
			{Type: "text_link", Offset: 0, Length: 3, URL: "http://a.ru"}, ent("bold", 0, 1),
		}}},
		{"code inside link dropped", "[`x` y](https://a.ru)", Message{Text: "x y", Entities: []Entity{
			{Type: "text_link", Offset: 0, Length: 3, URL: "https://a.ru"},
		}}},
		{"link tg mailto", "[a](tg://user?id=1) [b](MAILTO:x@y.z)", Message{Text: "a b", Entities: []Entity{
			{Type: "text_link", Offset: 0, Length: 1, URL: "tg://user?id=1"},
			{Type: "text_link", Offset: 2, Length: 1, URL: "MAILTO:x@y.z"},
		}}},
		{"link escaped url", "[a](<https://a.ru/b c>)", Message{Text: "a", Entities: []Entity{
			{Type: "text_link", Offset: 0, Length: 1, URL: "https://a.ru/b%20c"},
		}}},
		{"unsafe links", "[a](javascript:alert(1)) [b](data:text/html,x) [c](/rel) [d](ftp://x) [e](http:x)",
			Message{Text: "a b c d e"}},
		{"empty link text", "[](https://a.ru)", Message{Text: "https://a.ru", Entities: []Entity{
			{Type: "text_link", Offset: 0, Length: 12, URL: "https://a.ru"},
		}}},
		{"autolinks", "<https://a.ru/?a=1&b=2> www.b.ru x@y.ru http://c.ru/d_e", Message{
			Text: "https://a.ru/?a=1&b=2 www.b.ru x@y.ru http://c.ru/d_e"}},
		{"images", "![граф](https://a.ru/g.png) ![лого](l.png) ![](http://a.ru/x.png)", Message{
			Text: "граф (https://a.ru/g.png) лого http://a.ru/x.png"}},
		{"bullets", "- a\n- b\n  - c\n    - d\n- e", Message{Text: "• a\n• b\n  • c\n    • d\n• e"}},
		{"ordered start", "7. a\n8. b", Message{Text: "7. a\n8. b"}},
		{"list in list item", "- - a\n  - b\n- c", Message{Text: "• • a\n  • b\n• c"}},
		{"loose list", "- a\n\n- b\n\n  b2\n", Message{Text: "• a\n• b\nb2"}},
		{"task list", "- [ ] a\n- [x] b\n1. [x] c", Message{Text: "☐ a\n☑ b\n\n1. ☑ c"}},
		{"list then paragraph", "- a\n\nтекст", Message{Text: "• a\n\nтекст"}},
		{"quote", "> a\n> **b**\n\nc", Message{Text: "a\nb\n\nc", Entities: []Entity{
			ent("blockquote", 0, 3), ent("bold", 2, 1),
		}}},
		{"nested quote one entity", "> a\n>> b", Message{Text: "a\n\nb", Entities: []Entity{ent("blockquote", 0, 4)}}},
		{"thematic break", "a\n\n***\n\nb", Message{Text: "a\n\n———\n\nb"}},
		{"fenced", "```go extra\nx := 1\n\n\ny()\n```", Message{Text: "x := 1\n\n\ny()", Entities: []Entity{
			{Type: "pre", Offset: 0, Length: 12, Language: "go"},
		}}},
		{"fenced trailing blank lines", "```\nx\n\n\n```\nпосле", Message{Text: "x\n\nпосле", Entities: []Entity{
			ent("pre", 0, 1),
		}}},
		{"indented code", "текст\n\n    a\n      b\n", Message{Text: "текст\n\na\n  b", Entities: []Entity{
			ent("pre", 7, 5),
		}}},
		{"emoji offsets", "📈 **Курс**", Message{Text: "📈 Курс", Entities: []Entity{ent("bold", 3, 4)}}},
		{"invalid utf8", "a\xff**b**\x00", Message{Text: "a\uFFFDb\uFFFD", Entities: []Entity{ent("bold", 2, 1)}}},
		{"crlf", "a\r\nb\r\n\r\nc", Message{Text: "a\nb\n\nc"}},
		{"narrow table", "| a | b |\n|---|---|\n| x | 10 |", Message{Text: "a │  b\n──┼───\nx │ 10", Entities: []Entity{
			ent("pre", 0, 20),
		}}},
		{"narrow table header only", "| a | b |\n|:-:|---|", Message{Text: "a │ b", Entities: []Entity{ent("pre", 0, 5)}}},
		{"wide table", "| Контрагент | Сумма | Комментарий |\n|---|---|---|\n| ООО «Ромашка» | 1 000 000 ₽ | просрочка |\n| ИП Иванов |  | |",
			Message{Text: "• ООО «Ромашка» — Сумма: 1 000 000 ₽; Комментарий: просрочка\n• ИП Иванов", Entities: []Entity{
				ent("bold", 2, 13), ent("bold", 63, 9),
			}}},
		{"wide table header only", "| Контрагент очень длинный | Сумма к оплате в рублях |\n|---|---|",
			Message{Text: "Контрагент очень длинный │ Сумма к оплате в рублях", Entities: []Entity{ent("bold", 0, 50)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Convert(tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Convert(%q) mismatch (-want +got):\n%s", tt.in, diff)
			}
			if err := got.Validate(); err != nil {
				t.Errorf("Validate: %v", err)
			}
		})
	}
}

func TestConvertDeepNesting(t *testing.T) {
	inputs := []string{
		strings.Repeat(">", 5000) + " x",
		strings.Repeat("- ", 5000) + "x",
		strings.Repeat("*", 5000) + "x" + strings.Repeat("*", 5000),
		strings.Repeat("[", 5000) + "x" + strings.Repeat("](http://a.ru)", 5000),
		strings.Repeat("**a `b` ", 2000),
	}
	for _, in := range inputs {
		m := Convert(in)
		if err := m.Validate(); err != nil {
			t.Fatalf("Validate: %v", err)
		}
		if len(m.Text) > 10*len(in) {
			t.Errorf("output of %d bytes for input of %d bytes", len(m.Text), len(in))
		}
	}
}

func TestConvertConcurrent(t *testing.T) {
	src := generateLong()
	want := Convert(src)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if diff := cmp.Diff(want, Convert(src)); diff != "" {
				t.Errorf("concurrent Convert differs:\n%s", diff)
			}
		})
	}
	wg.Wait()
}

func FuzzConvertSplit(f *testing.F) {
	seeds := []string{
		"", "**a**", "📈 **Курс** 💶 _евро_", "ООО «Рога_и*Копыта» [test](x) a\\(b)c 1+1=2!",
		"```go\nx\n\ny\n```", "| a | b |\n|---|--:|\n| 1 | 2 |", "- [ ] a\n  - b\n3. c",
		"> **q**\n>> r", "<b>x</b> &amp; \\*", "[a](javascript:x) <https://a.ru>", "a\xff\x00b",
	}
	for _, s := range seeds {
		f.Add(s, uint16(50))
	}
	f.Fuzz(func(t *testing.T, md string, lim uint16) {
		m := Convert(md)
		if err := m.Validate(); err != nil {
			t.Fatalf("Convert(%q): %v", md, err)
		}
		limit := 2 + int(lim%5000)
		for _, p := range Split(m, limit) {
			if err := p.Validate(); err != nil {
				t.Fatalf("Split part: %v", err)
			}
			if n := UTF16Len(p.Text); n > limit {
				t.Fatalf("part of %d units, limit %d", n, limit)
			}
		}
	})
}

func BenchmarkConvert(b *testing.B) {
	src := longMarkdown(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Convert(src)
	}
}

// TestTableFitsAPhone: a debts table is a pre block no wider than the phone's line at 32 and at
// 40 runes — the names wrapped (two lines at most, then cut with «…»), the amounts whole and
// right-aligned, the headers never cut.
func TestTableFitsAPhone(t *testing.T) {
	const table = "| Контрагент | Сумма, ₽ |\n|:--|--:|\n" +
		"| ООО «СтройМаркет» | 4 105 745,02 |\n" +
		"| ИП Смирнов Алексей Петрович | 1 805 695,68 |\n" +
		"| Общество с ограниченной ответственностью «Северсталь-Логистик Торговый Дом» | 980 696,00 |\n"
	for _, width := range []int{32, 40} {
		m := ConvertWidth(table, width)
		if len(m.Entities) != 1 || m.Entities[0].Type != "pre" {
			t.Fatalf("width %d: want one pre block, got %+v\n%s", width, m.Entities, m.Text)
		}
		lines := strings.Split(m.Text, "\n")
		for _, l := range lines {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: line of %d runes: %q", width, n, l)
			}
		}
		for _, want := range []string{"Контрагент", "Сумма, ₽", "4 105 745,02", "1 805 695,68", "980 696,00", "…"} {
			if !strings.Contains(m.Text, want) {
				t.Errorf("width %d: %q missing:\n%s", width, want, m.Text)
			}
		}
		if !strings.HasSuffix(lines[2], "4 105 745,02") {
			t.Errorf("width %d: amounts are not right-aligned: %q", width, lines[2])
		}
	}
	// Too many numbers for any phone: one line per row.
	wide := "| А | Б | В | Г |\n|--|--|--|--|\n| 1 111 111,11 | 2 222 222,22 | 3 333 333,33 | 4 444 444,44 |\n"
	if m := ConvertWidth(wide, 32); len(m.Entities) > 0 && m.Entities[0].Type == "pre" {
		t.Errorf("a table of four amounts fitted into 32 runes:\n%s", m.Text)
	}
}
