package qlang_test

import (
	"fmt"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// List the data sources of a query with their positional parameters, and the comparisons of a
// virtual table's condition parameter.
func Example() {
	b, err := qlang.Parse(`ВЫБРАТЬ Ост.Счет.Код КАК Счет, Ост.СуммаОстатокДт КАК Дт
		ИЗ РегистрБухгалтерии.Хозрасчетный.Остатки(&НаДату, Счет.Код = &СчетКод, ,
			Организация = &Организация И (&Контрагент ЕСТЬ NULL ИЛИ Субконто1 = &Контрагент)) КАК Ост
		УПОРЯДОЧИТЬ ПО Счет`)
	if err != nil {
		fmt.Println(err)
		return
	}
	src := b.Queries[0].Selects[0].From[0]
	fmt.Println(src.Name(), "as", src.Alias, "with", len(src.Params), "parameters")
	for _, c := range qlang.Conjuncts(src.Params[3]) {
		fmt.Println("condition:", qlang.Format(c))
	}
	refs, _ := qlang.Fields(b)
	for _, r := range refs {
		if r.Source != nil {
			fmt.Println(r.Clause, r.Path, "reads", r.Source.Alias, r.Field)
		}
	}
	// Output:
	// РегистрБухгалтерии.Хозрасчетный.Остатки as Ост with 4 parameters
	// condition: (Организация = &Организация)
	// condition: ((&Контрагент ЕСТЬ NULL) ИЛИ (Субконто1 = &Контрагент))
	// параметр виртуальной таблицы Счет.Код reads Ост [Счет Код]
	// параметр виртуальной таблицы Организация reads Ост [Организация]
	// параметр виртуальной таблицы Субконто1 reads Ост [Субконто1]
	// ВЫБРАТЬ Ост.Счет.Код reads Ост [Счет Код]
	// ВЫБРАТЬ Ост.СуммаОстатокДт reads Ост [СуммаОстатокДт]
}

// Evaluate a condition over known parameter values with 1C's three-valued logic: a comparison
// with NULL is unknown, and ИЛИ is true as soon as one side is.
func ExampleWalk() {
	b, _ := qlang.Parse(`ВЫБРАТЬ 1 ГДЕ &Договор = НЕОПРЕДЕЛЕНО ИЛИ &Договор ЕСТЬ NULL`)
	where := b.Queries[0].Selects[0].Where
	params := map[string]any{"Договор": nil} // JSON null arrives as Null
	for _, d := range qlang.Disjuncts(where) {
		fmt.Printf("%s: %s\n", qlang.Format(d), eval(d, params))
	}
	// Output:
	// (&Договор = НЕОПРЕДЕЛЕНО): unknown
	// (&Договор ЕСТЬ NULL): true
}

// eval is a tiny evaluator of two condition forms over parameters, nil standing for Null.
func eval(e qlang.Expr, params map[string]any) string {
	switch e := e.(type) {
	case *qlang.IsNull:
		if p, ok := e.X.(*qlang.ParamRef); ok {
			return fmt.Sprint((params[p.Name] == nil) != e.Not)
		}
	case *qlang.Compare:
		if p, ok := e.X.(*qlang.ParamRef); ok && params[p.Name] == nil {
			return "unknown"
		}
	}
	return "?"
}
