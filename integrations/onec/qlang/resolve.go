package qlang

import (
	"errors"
	"fmt"
)

// ErrUnresolved is wrapped by the errors Fields returns for field paths it cannot place.
var ErrUnresolved = errors.New("qlang: unresolved field path")

// UnresolvedError is a field path Fields cannot place, and why.
type UnresolvedError struct {
	Path   *Path
	Reason string
}

func (e *UnresolvedError) Error() string {
	return fmt.Sprintf("%s: %s: %s: %v", e.Path.Pos, e.Path, e.Reason, ErrUnresolved)
}

// Unwrap makes every UnresolvedError match ErrUnresolved.
func (e *UnresolvedError) Unwrap() error { return ErrUnresolved }

// Clause says where in a query a field path occurs.
type Clause int

// Clauses.
const (
	InSelectList Clause = iota
	InJoinOn
	InWhere
	InGroupBy
	InHaving
	InOrderBy
	InIndex
	InTableParam // a virtual table's parameter, e.g. Счет.Код = &СчетКод in Остатки(…)
	InTotals     // ИТОГИ
)

// String names the clause in Russian, as 1C's query console does.
func (c Clause) String() string {
	return [...]string{"ВЫБРАТЬ", "СОЕДИНЕНИЕ ПО", "ГДЕ", "СГРУППИРОВАТЬ ПО", "ИМЕЮЩИЕ", "УПОРЯДОЧИТЬ ПО",
		"ИНДЕКСИРОВАТЬ ПО", "параметр виртуальной таблицы", "ИТОГИ"}[c]
}

// FieldRef is one field path of a query and what it reads. Exactly one of Source and Column is
// set.
type FieldRef struct {
	Path   *Path
	Clause Clause
	// Select is the SELECT in whose scope the path was resolved (for ORDER BY and ИНДЕКСИРОВАТЬ, the
	// query's first).
	Select *Select
	// Source is the data source the path reads: the one its first part names, the only source of
	// the SELECT when the path is unqualified, or, inside a virtual table's parameter, that
	// virtual table.
	Source *Source
	// Column is the result column that an ORDER BY or ИНДЕКСИРОВАТЬ path starts with; a path
	// longer than the column's name (Контрагент.Наименование) dereferences the column.
	Column *SelectItem
	// Field is what remains of the path after the alias (or after the column's name): the
	// attribute and the attributes of its type it goes through. Inside a virtual table's
	// parameter it is the whole path.
	Field []string
	Param int // for InTableParam: the parameter's 0-based position
}

// Fields resolves every field path of a batch, nested queries included, in the order written.
// Paths it cannot place (an alias no source has, an unqualified field with several sources) are
// left out and reported in the error, which joins one *UnresolvedError per path.
func Fields(b *Batch) ([]FieldRef, error) {
	r := &resolver{}
	for _, q := range b.Queries {
		r.query(q)
	}
	return r.refs, errors.Join(r.errs...)
}

type resolver struct {
	refs []FieldRef
	errs []error
}

func (r *resolver) unresolved(p *Path, format string, args ...any) {
	r.errs = append(r.errs, &UnresolvedError{Path: p, Reason: fmt.Sprintf(format, args...)})
}

func (r *resolver) query(q *Query) {
	for _, s := range q.Selects {
		r.selectScope(s)
	}
	if len(q.OrderBy) == 0 && len(q.Index) == 0 && q.Totals == nil {
		return
	}
	sc := newScope(q.Selects[0])
	for _, o := range q.OrderBy {
		r.walk(o.Expr, func(p *Path) { r.resultPath(q, sc, p, InOrderBy) })
	}
	if t := q.Totals; t != nil {
		for _, it := range t.Aggregates {
			r.walk(it.Expr, func(p *Path) { r.resultPath(q, sc, p, InTotals) })
		}
		for _, it := range t.By {
			r.walk(it.Expr, func(p *Path) { r.resultPath(q, sc, p, InTotals) })
			for _, e := range it.Periods {
				r.walk(e, func(p *Path) { r.resultPath(q, sc, p, InTotals) })
			}
		}
	}
	for _, e := range q.Index {
		r.walk(e, func(p *Path) { r.resultPath(q, sc, p, InIndex) })
	}
}

// walk calls fn for each field path under e; a nested query gets its own scope, and the items
// of a tabular section's nested table read that section.
func (r *resolver) walk(e Expr, fn func(*Path)) {
	Walk(e, func(n Node) bool {
		switch n := n.(type) {
		case *Query:
			r.query(n)
			return false
		case *Path:
			fn(n)
		case *TabularSelect:
			r.tabular(n, fn)
			return false
		}
		return true
	})
}

func (r *resolver) tabular(t *TabularSelect, fn func(*Path)) {
	before := len(r.refs)
	fn(t.Path)
	if len(r.refs) == before {
		return // unresolved, and reported
	}
	section := r.refs[len(r.refs)-1]
	for _, it := range t.Items {
		r.walk(it.Expr, func(p *Path) {
			ref := section
			ref.Path = p
			ref.Field = append(append([]string{}, section.Field...), p.Parts...)
			r.refs = append(r.refs, ref)
		})
	}
}

// scope is the data sources a SELECT's paths can name, indexed by folded alias.
type scope struct {
	sel     *Select
	srcs    []*Source
	byAlias map[string]*Source
}

func newScope(s *Select) *scope {
	sc := &scope{sel: s, srcs: s.Sources(), byAlias: map[string]*Source{}}
	for _, src := range sc.srcs {
		if _, dup := sc.byAlias[fold(src.Alias)]; !dup {
			sc.byAlias[fold(src.Alias)] = src
		}
	}
	return sc
}

func (r *resolver) selectScope(s *Select) {
	sc := newScope(s)
	in := func(c Clause) func(*Path) { return func(p *Path) { r.sourcePath(sc, p, c) } }
	for _, src := range sc.srcs {
		if src.Subquery != nil {
			r.query(src.Subquery)
		}
		for i, e := range src.Params {
			if e == nil {
				continue
			}
			r.walk(e, func(p *Path) {
				r.refs = append(r.refs, FieldRef{Path: p, Clause: InTableParam, Select: s, Source: src, Field: p.Parts, Param: i})
			})
		}
	}
	for _, it := range s.Items {
		r.walk(it.Expr, in(InSelectList))
	}
	for _, j := range s.Joins() {
		r.walk(j.On, in(InJoinOn))
	}
	r.walk(s.Where, in(InWhere))
	for _, e := range s.GroupBy {
		r.walk(e, in(InGroupBy))
	}
	r.walk(s.Having, in(InHaving))
}

// sourcePath places a path of a SELECT on one of its sources.
func (r *resolver) sourcePath(sc *scope, p *Path, c Clause) {
	ref := FieldRef{Path: p, Clause: c, Select: sc.sel}
	switch src := sc.byAlias[fold(p.Parts[0])]; {
	case src != nil && (len(p.Parts) > 1 || len(sc.srcs) > 1):
		ref.Source, ref.Field = src, p.Parts[1:]
	case len(sc.srcs) == 1:
		ref.Source, ref.Field = sc.srcs[0], p.Parts
	case len(sc.srcs) == 0:
		r.unresolved(p, "the query has no data source")
		return
	case len(p.Parts) > 1:
		r.unresolved(p, "no data source is named %s", p.Parts[0])
		return
	default:
		r.unresolved(p, "an unqualified field with %d data sources", len(sc.srcs))
		return
	}
	r.refs = append(r.refs, ref)
}

// resultPath places an ORDER BY, ИНДЕКСИРОВАТЬ or ИТОГИ path: on a source of the only SELECT when its
// first part is that source's alias, else on a result column, else as a source field.
func (r *resolver) resultPath(q *Query, sc *scope, p *Path, c Clause) {
	single := len(q.Selects) == 1
	if single && len(p.Parts) > 1 && sc.byAlias[fold(p.Parts[0])] != nil {
		r.sourcePath(sc, p, c)
		return
	}
	if col := q.Column(p.Parts[0]); col != nil {
		r.refs = append(r.refs, FieldRef{Path: p, Clause: c, Select: sc.sel, Column: col, Field: p.Parts[1:]})
		return
	}
	if !single {
		r.unresolved(p, "the result of ОБЪЕДИНИТЬ has no column %s", p.Parts[0])
		return
	}
	r.sourcePath(sc, p, c)
}
