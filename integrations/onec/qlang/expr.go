package qlang

// Expr is an expression of the query language. The condition nodes (Binary with And or Or, Not,
// Compare, IsNull, Refs, In, Like, Between) make a WHERE, ИМЕЮЩИЕ, ПО or a virtual table's
// condition parameter a tree that a caller can evaluate; the others are values.
type Expr interface {
	// Position returns where the expression starts in the query text.
	Position() Pos
	expr()
}

// Path is a field path (Alias.Field.SubField, or a bare Field) or, inside ЗНАЧЕНИЕ and ТИП, the
// dotted name of a metadata object.
type Path struct {
	Pos   Pos
	Parts []string
}

// ParamRef is a query parameter, &Name.
type ParamRef struct {
	Pos  Pos
	Name string
}

// LiteralKind is the kind of a Literal.
type LiteralKind int

// Literal kinds.
const (
	LitNumber    LiteralKind = iota // Value is the digits as written
	LitString                       // Value is the unquoted text
	LitTrue                         // ИСТИНА
	LitFalse                        // ЛОЖЬ
	LitNull                         // NULL
	LitUndefined                    // НЕОПРЕДЕЛЕНО
	LitUnit                         // a date-part argument of a date function: СЕКУНДА, ДЕНЬ, МЕСЯЦ …
)

// Literal is a constant.
type Literal struct {
	Pos   Pos
	Kind  LiteralKind
	Value string
}

// Op is an operator of Binary, Unary and Compare.
type Op string

// Operators.
const (
	And Op = "И"
	Or  Op = "ИЛИ"
	Add Op = "+"
	Sub Op = "-"
	Mul Op = "*"
	Div Op = "/"
	Eq  Op = "="
	Ne  Op = "<>"
	Lt  Op = "<"
	Le  Op = "<="
	Gt  Op = ">"
	Ge  Op = ">="
)

// Binary is X Op Y for And, Or and the arithmetic operators.
type Binary struct {
	Pos  Pos
	Op   Op
	X, Y Expr
}

// Unary is a sign: -X or +X.
type Unary struct {
	Pos Pos
	Op  Op // Add or Sub
	X   Expr
}

// Not is НЕ X.
type Not struct {
	Pos Pos
	X   Expr
}

// Compare is X Op Y for =, <>, <, <=, >, >=.
type Compare struct {
	Pos  Pos
	Op   Op
	X, Y Expr
}

// IsNull is X ЕСТЬ [НЕ] NULL.
type IsNull struct {
	Pos Pos
	X   Expr
	Not bool
}

// Refs is X [НЕ] ССЫЛКА Table: true when X is a reference to an object of that table.
type Refs struct {
	Pos   Pos
	X     Expr
	Table []string // e.g. [Справочник Контрагенты]
	Not   bool
}

// In is X [НЕ] В [ИЕРАРХИИ] (list) or X [НЕ] В [ИЕРАРХИИ] (nested query). Exactly one of List and
// Subquery is set.
type In struct {
	Pos       Pos
	X         Expr
	List      []Expr
	Subquery  *Query
	Hierarchy bool
	Not       bool
}

// Like is X [НЕ] ПОДОБНО Pattern [СПЕЦСИМВОЛ Escape].
type Like struct {
	Pos     Pos
	X       Expr
	Pattern Expr
	Escape  Expr // nil when absent
	Not     bool
}

// Between is X [НЕ] МЕЖДУ Lo И Hi.
type Between struct {
	Pos    Pos
	X      Expr
	Lo, Hi Expr
	Not    bool
}

// Case is ВЫБОР [Operand] КОГДА … ТОГДА … [ИНАЧЕ …] КОНЕЦ. Else is nil when absent (the result is
// then NULL).
type Case struct {
	Pos     Pos
	Operand Expr // nil for the searched form, the only one BP uses
	Whens   []*When
	Else    Expr
}

// When is one КОГДА Cond ТОГДА Result branch of a Case.
type When struct {
	Cond, Result Expr
}

// Call is a function call: an aggregate (СУММА, КОЛИЧЕСТВО …) or a built-in function
// (ЕСТЬNULL, ДОБАВИТЬКДАТЕ, ПРЕДСТАВЛЕНИЕ …). Name is as written.
type Call struct {
	Pos      Pos
	Name     string
	Distinct bool // КОЛИЧЕСТВО(РАЗЛИЧНЫЕ …)
	Args     []Expr
	Star     bool // КОЛИЧЕСТВО(*)
}

// Value is ЗНАЧЕНИЕ(Name): a predefined value, enum value, system enum value or empty reference,
// e.g. [Перечисление ВидыДоговоровКонтрагентов СПокупателем] or [ВидСчета Активный].
type Value struct {
	Pos  Pos
	Name []string
}

// TypeOf is ТИП(Name), e.g. [Справочник Контрагенты] or [Строка].
type TypeOf struct {
	Pos  Pos
	Name []string
}

// Cast is ВЫРАЗИТЬ(X КАК Type), and the fields read through the result:
// ВЫРАЗИТЬ(Субконто1 КАК Справочник.Контрагенты).ИНН has Fields [ИНН].
type Cast struct {
	Pos    Pos
	X      Expr
	Type   TypeSpec
	Fields []string
}

// TypeSpec is a type in ВЫРАЗИТЬ: a dotted name (Справочник.Контрагенты, Строка) and its
// qualifiers (Строка(100), Число(15, 2)) as written.
type TypeSpec struct {
	Name []string
	Args []string
}

// Star is * or Alias.* in a select list.
type Star struct {
	Pos       Pos
	Qualifier []string // nil for a bare *
}

// Tuple is a row value, (А, Б), the left side of В with a nested query: (А, Б) В (ВЫБРАТЬ …).
type Tuple struct {
	Pos   Pos
	Items []Expr
}

// TabularSelect selects columns of a tabular section as a nested table:
// Док.Товары.(Номенклатура, Количество КАК Количество). The items' paths are relative to the
// tabular section.
type TabularSelect struct {
	Pos   Pos
	Path  *Path // Док.Товары
	Items []*SelectItem
}

// SubqueryExpr is a nested query used as a value, the right side of В excepted (see In).
type SubqueryExpr struct {
	Pos   Pos
	Query *Query
}

// Position returns where the Path starts.
func (e *Path) Position() Pos { return e.Pos }

// Position returns where the ParamRef starts.
func (e *ParamRef) Position() Pos { return e.Pos }

// Position returns where the Literal starts.
func (e *Literal) Position() Pos { return e.Pos }

// Position returns where the Binary starts.
func (e *Binary) Position() Pos { return e.Pos }

// Position returns where the Unary starts.
func (e *Unary) Position() Pos { return e.Pos }

// Position returns where the Not starts.
func (e *Not) Position() Pos { return e.Pos }

// Position returns where the Compare starts.
func (e *Compare) Position() Pos { return e.Pos }

// Position returns where the IsNull starts.
func (e *IsNull) Position() Pos { return e.Pos }

// Position returns where the Refs starts.
func (e *Refs) Position() Pos { return e.Pos }

// Position returns where the In starts.
func (e *In) Position() Pos { return e.Pos }

// Position returns where the Like starts.
func (e *Like) Position() Pos { return e.Pos }

// Position returns where the Between starts.
func (e *Between) Position() Pos { return e.Pos }

// Position returns where the Case starts.
func (e *Case) Position() Pos { return e.Pos }

// Position returns where the Call starts.
func (e *Call) Position() Pos { return e.Pos }

// Position returns where the Value starts.
func (e *Value) Position() Pos { return e.Pos }

// Position returns where the TypeOf starts.
func (e *TypeOf) Position() Pos { return e.Pos }

// Position returns where the Cast starts.
func (e *Cast) Position() Pos { return e.Pos }

// Position returns where the Star starts.
func (e *Star) Position() Pos { return e.Pos }

// Position returns where the Tuple starts.
func (e *Tuple) Position() Pos { return e.Pos }

// Position returns where the TabularSelect starts.
func (e *TabularSelect) Position() Pos { return e.Pos }

// Position returns where the SubqueryExpr starts.
func (e *SubqueryExpr) Position() Pos { return e.Pos }

func (*Path) expr()          {}
func (*ParamRef) expr()      {}
func (*Literal) expr()       {}
func (*Binary) expr()        {}
func (*Unary) expr()         {}
func (*Not) expr()           {}
func (*Compare) expr()       {}
func (*IsNull) expr()        {}
func (*Refs) expr()          {}
func (*In) expr()            {}
func (*Like) expr()          {}
func (*Between) expr()       {}
func (*Case) expr()          {}
func (*Call) expr()          {}
func (*Value) expr()         {}
func (*TypeOf) expr()        {}
func (*Cast) expr()          {}
func (*Star) expr()          {}
func (*SubqueryExpr) expr()  {}
func (*Tuple) expr()         {}
func (*TabularSelect) expr() {}
