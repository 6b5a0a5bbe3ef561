// Package qlang reads the 1C:Enterprise query language: the text of a query as 1C:Бухгалтерия
// receives it, in Russian or English keywords (ВЫБРАТЬ/SELECT, ИЗ/FROM …), into a syntax tree.
//
// It exists so that a query can be checked without a 1C base: which objects and virtual tables
// it reads and with which positional parameters, which attribute every field path names, what it
// orders by, and what its boolean conditions say. Parse returns the tree; Walk visits every node
// of it; Fields resolves each field path to the data source it reads; Conjuncts, Disjuncts and the
// condition node types let a caller evaluate a WHERE or a virtual table's condition parameter.
//
// The package reads the language the way the platform does: keywords are case-insensitive and
// reserved, except after a dot or КАК/AS, where a keyword such as Ссылка or Значение is a name;
// a function is a name followed by "(" (so Количество is a field and КОЛИЧЕСТВО(…) an aggregate);
// ЕСТЬNULL is a function, ЕСТЬ NULL an operator.
//
// Not supported (Parse reports an error): data composition extensions in braces ({ГДЕ …}) and
// row-value comparisons ((А, Б) В (ВЫБРАТЬ …)).
package qlang
