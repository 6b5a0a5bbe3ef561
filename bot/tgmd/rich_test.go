package tgmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/internal/fakes"
)

// richJSON is m as the bot sends it in rich_message, indented, "&" and "<" as they are.
func richJSON(t testing.TB, m RichMessage) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return buf.String()
}

// compactJSON is v marshalled without indentation or HTML escaping.
func compactJSON(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// TestConvertRichGolden: answers with tables as the rich messages they are sent as
// (testdata/*.rich.golden).
func TestConvertRichGolden(t *testing.T) {
	for _, name := range []string{"table_narrow", "table_wide", "rich_answer"} {
		t.Run(name, func(t *testing.T) {
			m, ok := ConvertRich(readFile(t, filepath.Join("testdata", name+".md")))
			if !ok {
				t.Fatal("ConvertRich: not ok for markdown with a table")
			}
			golden(t, filepath.Join("testdata", name+".rich.golden"), richJSON(t, m))
		})
	}
}

// TestConvertRich: what each construct becomes, by its blocks (or that there is no rich message).
func TestConvertRich(t *testing.T) {
	const table = "| A | B |\n|---|---|\n| x | 1 |\n"
	tests := []struct {
		name, md string
		want     string // the blocks' JSON; "" = not ok
	}{
		{"no table", "Нам должны **5 ₽**.\n\n- один\n- два", ""},
		{"empty", "", ""},
		{"table in code is no table", "```\n" + table + "```", ""},
		{"only a table", table,
			`[{"type":"table","cells":[[{"text":"A","is_header":true,"align":"left","valign":"top"},{"text":"B","is_header":true,"align":"right","valign":"top"}],[{"text":"x","align":"left","valign":"top"},{"text":"1","align":"right","valign":"top"}]],"is_bordered":true,"is_compact":true}]`},
		{"alignment as written beats numbers", "| A | B |\n|:-:|:--|\n| x | 1 |\n",
			`[{"type":"table","cells":[[{"text":"A","is_header":true,"align":"center","valign":"top"},{"text":"B","is_header":true,"align":"left","valign":"top"}],[{"text":"x","align":"center","valign":"top"},{"text":"1","align":"left","valign":"top"}]],"is_bordered":true,"is_compact":true}]`},
		{"short row filled with invisible cells", "| A | B |\n|---|---|\n| x |\n",
			`[{"type":"table","cells":[[{"text":"A","is_header":true,"align":"left","valign":"top"},{"text":"B","is_header":true,"align":"left","valign":"top"}],[{"text":"x","align":"left","valign":"top"},{"align":"left","valign":"top"}]],"is_bordered":true,"is_compact":true}]`},
		{"styles in a cell", "| A |\n|---|\n| **жирно** _курсив_ |\n",
			`[{"type":"table","cells":[[{"text":"A","is_header":true,"align":"left","valign":"top"}],[{"text":[{"type":"bold","text":"жирно"}," ",{"type":"italic","text":"курсив"}],"align":"left","valign":"top"}]],"is_bordered":true,"is_compact":true}]`},
		{"heading is a bold paragraph", "## Итоги\n\n" + table,
			`[{"type":"paragraph","text":{"type":"bold","text":"Итоги"}},` + tableJSON + `]`},
		{"soft break kept in the paragraph", "Первая строка\n_вторая_\n\n" + table,
			`[{"type":"paragraph","text":["Первая строка\n",{"type":"italic","text":"вторая"}]},` + tableJSON + `]`},
		{"escapes resolved", `ООО «Гранит\-М» \(основная\) &amp; Ко` + "\n\n" + table,
			`[{"type":"paragraph","text":"ООО «Гранит-М» (основная) & Ко"},` + tableJSON + `]`},
		{"link, nested bold", "[**Договор** № 5](https://example.com/d?a=1&b=2)\n\n" + table,
			`[{"type":"paragraph","text":{"type":"url","text":[{"type":"bold","text":"Договор"}," № 5"],"url":"https://example.com/d?a=1&b=2"}},` + tableJSON + `]`},
		{"link without a safe scheme is its text", "[нажми](javascript:alert(1))\n\n" + table,
			`[{"type":"paragraph","text":"нажми"},` + tableJSON + `]`},
		{"empty link shows its address", "[](https://example.com)\n\n" + table,
			`[{"type":"paragraph","text":{"type":"url","text":"https://example.com","url":"https://example.com"}},` + tableJSON + `]`},
		{"bare URL and e-mail made links", "см. https://example.com и buh@example.com\n\n" + table,
			`[{"type":"paragraph","text":["см. ",{"type":"url","text":"https://example.com","url":"https://example.com"}," и ",{"type":"url","text":"buh@example.com","url":"mailto:buh@example.com"}]},` + tableJSON + `]`},
		{"code span and strikethrough", "`62.01` ~~было~~\n\n" + table,
			`[{"type":"paragraph","text":[{"type":"code","text":"62.01"}," ",{"type":"strikethrough","text":"было"}]},` + tableJSON + `]`},
		{"image is its text", "![график](https://example.com/c.png)\n\n" + table,
			`[{"type":"paragraph","text":"график (https://example.com/c.png)"},` + tableJSON + `]`},
		{"code block", "```go\nx := 1\n```\n\n" + table,
			`[{"type":"pre","text":"x := 1","language":"go"},` + tableJSON + `]`},
		{"quote and divider", "> цитата\n\n---\n\n" + table,
			`[{"type":"blockquote","blocks":[{"type":"paragraph","text":"цитата"}]},{"type":"divider"},` + tableJSON + `]`},
		{"ordered list from its start", "7. семь\n8. восемь\n\n" + table,
			`[{"type":"list","items":[{"blocks":[{"type":"paragraph","text":"семь"}],"value":7,"type":"1"},{"blocks":[{"type":"paragraph","text":"восемь"}],"value":8,"type":"1"}]},` + tableJSON + `]`},
		{"task list", "- [x] готово\n- [ ] нет\n\n" + table,
			`[{"type":"list","items":[{"blocks":[{"type":"paragraph","text":"готово"}],"has_checkbox":true,"is_checked":true},{"blocks":[{"type":"paragraph","text":"нет"}],"has_checkbox":true}]},` + tableJSON + `]`},
		{"html kept as text", "<b>жирно?</b>\n\n" + table,
			`[{"type":"paragraph","text":"<b>жирно?</b>"},` + tableJSON + `]`},
		{"invalid UTF-8 replaced", "a\xffb\n\n" + table,
			`[{"type":"paragraph","text":"a` + "\uFFFD" + `b"},` + tableJSON + `]`},
		{"table in a quote", "> " + strings.ReplaceAll(strings.TrimSuffix(table, "\n"), "\n", "\n> ") + "\n",
			`[{"type":"blockquote","blocks":[` + tableJSON + `]}]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := ConvertRich(tt.md)
			if tt.want == "" {
				if ok {
					t.Fatalf("ConvertRich(%q) = %s, want not ok", tt.md, compactJSON(t, m))
				}
				return
			}
			if !ok {
				t.Fatalf("ConvertRich(%q): not ok", tt.md)
			}
			if !m.SkipEntityDetection {
				t.Error("skip_entity_detection is off: Telegram would turn names into links")
			}
			if got := compactJSON(t, m.Blocks); got != tt.want {
				t.Errorf("ConvertRich(%q) blocks:\n got %s\nwant %s", tt.md, got, tt.want)
			}
		})
	}
}

// tableJSON is the blocks' JSON of the table TestConvertRich appends to its cases.
const tableJSON = `{"type":"table","cells":[[{"text":"A","is_header":true,"align":"left","valign":"top"},{"text":"B","is_header":true,"align":"right","valign":"top"}],[{"text":"x","align":"left","valign":"top"},{"text":"1","align":"right","valign":"top"}]],"is_bordered":true,"is_compact":true}`

// TestRichTextJSON: the three shapes of RichText on the wire (types/richtext.md).
func TestRichTextJSON(t *testing.T) {
	tests := []struct {
		name string
		in   RichText
		want string
	}{
		{"plain is a string", RichText{Plain: "a"}, `"a"`},
		{"empty plain is an empty string", RichText{}, `""`},
		{"concatenation is an array", RichText{Parts: []RichText{{Plain: "a"}, {Type: RichBold, Plain: "b"}}}, `["a",{"type":"bold","text":"b"}]`},
		{"one part is the part", RichText{Parts: []RichText{{Type: RichItalic, Plain: "i"}}}, `{"type":"italic","text":"i"}`},
		{"formatted nests", RichText{Type: RichBold, Parts: []RichText{{Plain: "a "}, {Type: RichItalic, Plain: "b"}}}, `{"type":"bold","text":["a ",{"type":"italic","text":"b"}]}`},
		{"url", RichText{Type: RichURL, Plain: "сайт", URL: "https://example.com"}, `{"type":"url","text":"сайт","url":"https://example.com"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compactJSON(t, tt.in); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	nested := RichText{Parts: []RichText{{Plain: "a "}, {Type: RichBold, Parts: []RichText{{Plain: "b "}, {Type: RichURL, Plain: "c", URL: "https://x"}}}}}
	if got := nested.String(); got != "a b c" {
		t.Errorf("String() = %q, want %q", got, "a b c")
	}
}

// richTaken checks that the fake Bot API, which checks every field of a rich message against
// the Bot API's documentation, takes m as sendRichMessage's rich_message.
func richTaken(t *testing.T, md string, m RichMessage) {
	t.Helper()
	field, err := json.Marshal(m)
	if err != nil {
		t.Fatalf("ConvertRich(%q): marshal: %v", md, err)
	}
	if fakes.RichMessageText(string(field)) == "" {
		t.Fatalf("ConvertRich(%q) = %s: the fake Bot API refuses it", md, field)
	}
}

// TestConvertRichTaken: whatever the input, a rich message the conversion makes is one the
// Bot API takes (a panic surfaces: see init in convert_test.go).
func TestConvertRichTaken(t *testing.T) {
	inputs := []string{
		longMarkdown(t),
		readFile(t, filepath.Join("testdata", "rich_answer.md")),
		readFile(t, filepath.Join("testdata", "table_wide.md")),
		"| a |\n|--|\n" + strings.Repeat("> ", 200) + "x",
		strings.Repeat("- ", 300) + "x\n\n| a |\n|--|\n| b |",
		"| a | b |\n|---|---|\n" + strings.Repeat("| **x | y** |\n", 50),
		"| a |\n|--|\n|  |\n\n-\n\n1.\n\n>\n\n```\n```\n\n#\n\n[](<>)",
	}
	for _, in := range inputs {
		if m, ok := ConvertRich(in); ok {
			richTaken(t, in, m)
		}
	}
}

func FuzzConvertRich(f *testing.F) {
	for _, s := range []string{
		"| a | b |\n|---|--:|\n| 1 | 2 |", "| **a** |\n|:-:|\n| [x](https://a.ru) `c` |",
		"x\n\n| a |\n|--|\n\n- [ ] a\n  - b\n3. c", "> | a |\n> |--|\n> | b |",
		"| a |\n|--|\n| <b>x</b> &amp; \\* |", "| a\xff\x00b |\n|--|", "|  |\n|--|\n|  |",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		if m, ok := ConvertRich(md); ok {
			richTaken(t, md, m)
		}
	})
}
