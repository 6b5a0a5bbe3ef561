package library

import (
	"strings"
	"testing"
)

// FuzzUnits reads any text as a document's units and ranks them for any question: no panic,
// every unit in the document's order, every hit a unit of the document with a coverage in [0, 1].
func FuzzUnits(f *testing.F) {
	f.Add(leaseText, "до какого числа платить аренду")
	f.Add(travelText, "суточные в турции")
	f.Add(priceText, "а hp")
	f.Add("4.1. Заём по графику:\n\n№\tСрок\n1\t30.09.2026\n«2.2. …»\n", "пункт 2.2 в редакции")
	f.Add("", "")
	f.Fuzz(func(t *testing.T, text, question string) {
		us := Units(text)
		for i, u := range us {
			if u.Index != i {
				t.Fatalf("unit %d has index %d", i, u.Index)
			}
		}
		_ = ReadHeader(us)
		_ = Amendments(us)
		for _, h := range RankClauses([]ClauseDoc{NewClauseDoc("d", "документ", us)}, ClauseQuestion{Text: question, Context: strings.ToUpper(question)}) {
			if h.Doc != 0 || h.Unit.Index < 0 || h.Unit.Index >= len(us) || h.Coverage < 0 || h.Coverage > 1.0000001 {
				t.Fatalf("hit %+v of %d units", h, len(us))
			}
		}
	})
}
