package qlang_test

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// whereOf parses one query and returns the WHERE of its first SELECT.
func whereOf(t *testing.T, src string) qlang.Expr {
	t.Helper()
	b, err := qlang.Parse(src)
	if err != nil {
		t.Fatalf("Parse(%q) error: %v", src, err)
	}
	return b.Queries[0].Selects[0].Where
}

func TestConjunctsDisjuncts(t *testing.T) {
	w := whereOf(t, `ВЫБРАТЬ 1 ГДЕ &А И (&Б ИЛИ &В ИЛИ (&Г И &Д)) И НЕ (&Е И &Ж)`)
	var got []string
	for _, c := range qlang.Conjuncts(w) {
		got = append(got, qlang.Format(c))
	}
	want := []string{"&А", "((&Б ИЛИ &В) ИЛИ (&Г И &Д))", "(НЕ (&Е И &Ж))"}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("Conjuncts (-want +got):\n%s", diff)
	}
	got = nil
	for _, d := range qlang.Disjuncts(qlang.Conjuncts(w)[1]) {
		got = append(got, qlang.Format(d))
	}
	want = []string{"&Б", "&В", "(&Г И &Д)"}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("Disjuncts (-want +got):\n%s", diff)
	}
	if got := qlang.Conjuncts(nil); got != nil {
		t.Errorf("Conjuncts(nil) = %v, want nil", got)
	}
}

func TestWalkAndParams(t *testing.T) {
	b, err := qlang.Parse(`ВЫБРАТЬ О.Субконто1 ИЗ РегистрБухгалтерии.Хозрасчетный.Обороты(, &КонецПериода, , , , Организация = &Организация
		И (&Контрагент ЕСТЬ NULL ИЛИ Субконто1 = &Контрагент), , ) КАК О
		ГДЕ О.Субконто2 В (ВЫБРАТЬ Д.Ссылка ИЗ Справочник.Д КАК Д ГДЕ Д.Владелец = &Контрагент И Д.Дата < &Граница)
		УПОРЯДОЧИТЬ ПО О.Субконто1.Наименование`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff([]string{"КонецПериода", "Организация", "Контрагент", "Граница"}, qlang.Params(b)); diff != "" {
		t.Errorf("Params (-want +got):\n%s", diff)
	}
	counts := map[string]int{}
	qlang.Walk(b, func(n qlang.Node) bool {
		switch n.(type) {
		case *qlang.Query:
			counts["query"]++
		case *qlang.Source:
			counts["source"]++
		case *qlang.IsNull:
			counts["isnull"]++
		case *qlang.In:
			counts["in"]++
		case *qlang.Path:
			counts["path"]++
		case *qlang.OrderItem:
			counts["order"]++
		}
		return true
	})
	want := map[string]int{"query": 2, "source": 2, "isnull": 1, "in": 1, "path": 8, "order": 1}
	if diff := gocmp.Diff(want, counts); diff != "" {
		t.Errorf("Walk counts (-want +got):\n%s", diff)
	}
	// Returning false skips a node's children: no nested query is entered.
	queries := 0
	qlang.Walk(b, func(n qlang.Node) bool {
		if _, ok := n.(*qlang.In); ok {
			return false
		}
		if _, ok := n.(*qlang.Query); ok {
			queries++
		}
		return true
	})
	if queries != 1 {
		t.Errorf("Walk visited %d queries past a pruned В, want 1", queries)
	}
}
