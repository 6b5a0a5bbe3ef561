package qlang_test

import (
	"errors"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// tokens renders tokens compactly: kind:text, keywords marked with their canonical number.
func tokens(toks []qlang.Token) []string {
	kinds := map[qlang.TokenKind]string{qlang.EOF: "eof", qlang.Word: "w", qlang.Param: "p", qlang.Number: "n",
		qlang.String: "s", qlang.Punct: "."}
	var out []string
	for _, t := range toks {
		s := kinds[t.Kind] + ":" + t.Text
		if t.Keyword != qlang.KwNone {
			s = "kw:" + strings.ToUpper(t.Text)
		}
		out = append(out, s)
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"keywords both languages and any case", "выбрать Select ИЗ from", []string{"kw:ВЫБРАТЬ", "kw:SELECT", "kw:ИЗ", "kw:FROM", "eof:"}},
		{"names and dots", "Док.Ссылка.Наименование", []string{"w:Док", ".:.", "kw:ССЫЛКА", ".:.", "w:Наименование", "eof:"}},
		{"parameter", "&НаДату&X1", []string{"p:НаДату", "p:X1", "eof:"}},
		{"numbers", "1 2.50 3.", []string{"n:1", "n:2.50", "n:3", ".:.", "eof:"}},
		{"string with doubled quotes", `"ООО ""Альфа""" ""`, []string{`s:ООО "Альфа"`, "s:", "eof:"}},
		{"multi-line string", "\"a\nb\"", []string{"s:a\nb", "eof:"}},
		{"comments dropped", "// finbot: x\nВЫБРАТЬ // tail\n1", []string{"kw:ВЫБРАТЬ", "n:1", "eof:"}},
		{"operators", "<><=>=<>=+-*/(),;", []string{".:<>", ".:<=", ".:>=", ".:<>", ".:=", ".:+", ".:-", ".:*", ".:/", ".:(", ".:)", ".:,", ".:;", "eof:"}},
		{"lone < and >", "a<b>c", []string{"w:a", ".:<", "w:b", ".:>", "w:c", "eof:"}},
		{"ЕСТЬNULL is a name, ЕСТЬ NULL two keywords", "ЕСТЬNULL ЕСТЬ NULL", []string{"w:ЕСТЬNULL", "kw:ЕСТЬ", "kw:NULL", "eof:"}},
		{"Ё reads as Е", "ИЕРАРХИИ", []string{"kw:ИЕРАРХИИ", "eof:"}},
		{"byte order mark", "\uFEFFВЫБРАТЬ", []string{"kw:ВЫБРАТЬ", "eof:"}},
		{"empty", "  \n\t", []string{"eof:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, err := qlang.Tokenize(tt.src)
			if err != nil {
				t.Fatalf("Tokenize(%q) error: %v", tt.src, err)
			}
			if diff := gocmp.Diff(tt.want, tokens(toks)); diff != "" {
				t.Errorf("Tokenize(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}

func TestTokenizePositions(t *testing.T) {
	toks, err := qlang.Tokenize("ВЫБРАТЬ\n\tДок.Дата")
	if err != nil {
		t.Fatal(err)
	}
	want := []qlang.Pos{{Offset: 0, Line: 1, Col: 1}, {Offset: 16, Line: 2, Col: 2}, {Offset: 22, Line: 2, Col: 5},
		{Offset: 23, Line: 2, Col: 6}, {Offset: 31, Line: 2, Col: 10}}
	var got []qlang.Pos
	for _, tk := range toks {
		got = append(got, tk.Pos)
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
}

func TestTokenizeErrors(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		{`"unterminated`, "(1, 1): unterminated string literal"},
		{"ВЫБРАТЬ &", "(1, 9): a parameter name must follow &"},
		{"ВЫБРАТЬ 1 # 2", `(1, 11): unexpected character '#'`},
		{"ВЫБРАТЬ {1}", `(1, 9): unexpected character '{'`},
		{"1abc", "(1, 1): a name cannot start with a digit"},
		{"ВЫБРАТЬ \xff", "(1, 9): invalid UTF-8"},
	}
	for _, tt := range tests {
		_, err := qlang.Tokenize(tt.src)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Tokenize(%q) error = %v, want %q", tt.src, err, tt.want)
		}
		if !errors.Is(err, qlang.ErrSyntax) {
			t.Errorf("Tokenize(%q) error does not wrap ErrSyntax", tt.src)
		}
	}
}
