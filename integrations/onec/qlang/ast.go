package qlang

import "strings"

// Batch is a query text: one or more queries separated by ";". The earlier ones usually fill
// temporary tables (ПОМЕСТИТЬ) that the later ones read.
type Batch struct {
	Queries []*Query
}

// Query is one query of a batch: one or more SELECTs joined by ОБЪЕДИНИТЬ [ВСЕ], then the
// ordering of the whole result. A nested query (a data source in parentheses, or the right side
// of В) is a Query too. A query that destroys a temporary table (УНИЧТОЖИТЬ) has no Selects and
// names the table in Drop.
type Query struct {
	Pos       Pos
	Selects   []*Select
	UnionAll  []bool // UnionAll[i-1]: Selects[i] joins with ВСЕ (duplicates kept)
	OrderBy   []*OrderItem
	AutoOrder bool    // АВТОУПОРЯДОЧИВАНИЕ
	Totals    *Totals // ИТОГИ; nil when absent
	Index     []Expr  // ИНДЕКСИРОВАТЬ ПО, for a query that fills a temporary table
	// ForUpdate is true for ДЛЯ ИЗМЕНЕНИЯ; ForUpdateOf lists the tables named after it.
	ForUpdate   bool
	ForUpdateOf [][]string
	Drop        string
}

// Columns returns the result's columns: those of the first SELECT, which name them for every
// branch of an ОБЪЕДИНИТЬ.
func (q *Query) Columns() []*SelectItem {
	if q == nil || len(q.Selects) == 0 {
		return nil
	}
	return q.Selects[0].Items
}

// Column returns the result column with the given name (its alias, or the last part of an
// unaliased field path), or nil.
func (q *Query) Column(name string) *SelectItem {
	for _, it := range q.Columns() {
		if EqualNames(it.Name(), name) {
			return it
		}
	}
	return nil
}

// Select is one SELECT of a query.
type Select struct {
	Pos      Pos
	Allowed  bool   // РАЗРЕШЕННЫЕ
	Distinct bool   // РАЗЛИЧНЫЕ
	Top      string // ПЕРВЫЕ n, as written; "" when absent
	Items    []*SelectItem
	Into     string // ПОМЕСТИТЬ: the temporary table the result goes to
	From     []*Source
	Where    Expr // nil when absent
	GroupBy  []Expr
	Having   Expr
}

// Sources returns the data sources of the SELECT in the order written: each FROM item and,
// after it, the sources joined to it (nested joins included).
func (s *Select) Sources() []*Source {
	var out []*Source
	var add func(*Source)
	add = func(src *Source) {
		out = append(out, src)
		for _, j := range src.Joins {
			add(j.Right)
		}
	}
	for _, src := range s.From {
		add(src)
	}
	return out
}

// Joins returns every join of the SELECT, nested ones included, in the order written.
func (s *Select) Joins() []*Join {
	var out []*Join
	for _, src := range s.Sources() {
		out = append(out, src.Joins...)
	}
	return out
}

// Source returns the data source of the SELECT with the given alias, or nil.
func (s *Select) Source(alias string) *Source {
	for _, src := range s.Sources() {
		if EqualNames(src.Alias, alias) {
			return src
		}
	}
	return nil
}

// SelectItem is one column of a SELECT: an expression and its alias.
type SelectItem struct {
	Pos   Pos
	Expr  Expr
	Alias string // after КАК; "" when none was written
}

// Name is the column's name: its alias, or the last part of an unaliased field path.
func (it *SelectItem) Name() string {
	if it.Alias != "" {
		return it.Alias
	}
	if p, ok := it.Expr.(*Path); ok {
		return p.Parts[len(p.Parts)-1]
	}
	return ""
}

// Source is one data source in FROM: a table (an object, its tabular section, a virtual table
// of a register, or a temporary table), a nested query, or a value table passed as a parameter
// (ИЗ &Таблица КАК Т), with its alias and the sources joined to it. A join nested in another
// (A СОЕДИНЕНИЕ B СОЕДИНЕНИЕ C ПО … ПО …) hangs off the source it is written after, here B; a
// parenthesised group of joins is read as if the parentheses were not there.
type Source struct {
	Pos Pos
	// Table is the table's dotted name as written, e.g. [РегистрБухгалтерии Хозрасчетный Остатки]
	// or [Документ ВводНачальныхОстатков РасчетыСКонтрагентами], or one name for a temporary
	// table. Nil for a nested query.
	Table []string
	// HasParams is true when the table name is followed by parentheses: a virtual table's
	// parameters. Params holds one entry per position; an empty position is nil, so
	// Остатки(&НаДату, , , Организация = &Организация) has four, the middle two nil.
	HasParams bool
	Params    []Expr
	Subquery  *Query // a nested query; nil for a table
	Param     string // the parameter's name for ИЗ &Таблица; "" otherwise
	// Temp is the query of an earlier statement of the batch that filled the temporary table
	// Table names (ПОМЕСТИТЬ); nil otherwise.
	Temp  *Query
	Alias string // after КАК, or the table's last name part when none was written
	Joins []*Join
}

// Name returns the table's name as written (parts joined by dots), or "" for a nested query.
func (s *Source) Name() string { return strings.Join(s.Table, ".") }

// JoinKind is the kind of a join.
type JoinKind int

// Join kinds.
const (
	InnerJoin JoinKind = iota // ВНУТРЕННЕЕ СОЕДИНЕНИЕ, or СОЕДИНЕНИЕ alone
	LeftJoin                  // ЛЕВОЕ [ВНЕШНЕЕ] СОЕДИНЕНИЕ
	RightJoin                 // ПРАВОЕ [ВНЕШНЕЕ] СОЕДИНЕНИЕ
	FullJoin                  // ПОЛНОЕ [ВНЕШНЕЕ] СОЕДИНЕНИЕ
)

// String returns the join kind's Russian keyword.
func (k JoinKind) String() string {
	return [...]string{"ВНУТРЕННЕЕ", "ЛЕВОЕ", "ПРАВОЕ", "ПОЛНОЕ"}[k]
}

// Join is one join of a FROM item: the joined source and its ПО condition.
type Join struct {
	Pos   Pos
	Kind  JoinKind
	Right *Source
	On    Expr
}

// Totals is the ИТОГИ clause: the aggregates computed for each grouping, and the groupings.
type Totals struct {
	Pos        Pos
	Aggregates []*SelectItem
	Overall    bool // ОБЩИЕ
	By         []*TotalsItem
}

// TotalsItem is one grouping of ИТОГИ ПО.
type TotalsItem struct {
	Pos       Pos
	Expr      Expr
	Hierarchy string // "", "ИЕРАРХИЯ" or "ТОЛЬКО ИЕРАРХИЯ"
	Periods   []Expr // ПЕРИОДАМИ(unit, start, end): its arguments
	Alias     string
}

// OrderItem is one item of УПОРЯДОЧИТЬ ПО.
type OrderItem struct {
	Pos       Pos
	Expr      Expr
	Desc      bool // УБЫВ
	Hierarchy bool // ИЕРАРХИЯ: parents before their children
}
