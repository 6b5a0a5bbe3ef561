package qlang_test

import (
	"errors"
	"testing"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// FuzzParse feeds the parser every whitelisted template and mutations of them. Parse never
// panics and fails only with a *SyntaxError; on a text it accepts, Walk, Format, Params and
// Fields never panic and Fields fails only with unresolved paths.
func FuzzParse(f *testing.F) {
	for _, text := range templates(f) {
		f.Add(text)
	}
	for _, s := range []string{
		"ВЫБРАТЬ 1", "SELECT * FROM Catalog.A AS A", `ВЫБРАТЬ "a""b"`, "ВЫБРАТЬ 1; УНИЧТОЖИТЬ ВТ",
		"ВЫБРАТЬ ВЫРАЗИТЬ(А.Б КАК Справочник.В).Г ИЗ Т КАК А", "ВЫБРАТЬ 1 ИЗ Р.Х.Остатки(, , ,) КАК О",
		"ВЫБРАТЬ А.Б ПОМЕСТИТЬ ВТ ИЗ Т КАК А ИНДЕКСИРОВАТЬ ПО Б; ВЫБРАТЬ * ИЗ ВТ",
		"ВЫБРАТЬ 1 ГДЕ НЕ &А В ИЕРАРХИИ (ВЫБРАТЬ 1) И &Б НЕ МЕЖДУ 1 И 2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		b, err := qlang.Parse(src)
		if err != nil {
			var se *qlang.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error %T is not a *SyntaxError: %v", err, err)
			}
			return
		}
		qlang.Walk(b, func(n qlang.Node) bool {
			_ = n.Position()
			if e, ok := n.(qlang.Expr); ok {
				_ = qlang.Format(e)
			}
			return true
		})
		_ = qlang.Params(b)
		if _, err := qlang.Fields(b); err != nil && !errors.Is(err, qlang.ErrUnresolved) {
			t.Fatalf("Fields error does not wrap ErrUnresolved: %v", err)
		}
	})
}
