package qlang

import "strings"

// Node is any node of the syntax tree: *Batch, *Query, *Select, *SelectItem, *Source, *Join,
// *OrderItem, *Totals, *TotalsItem, *When, or an Expr.
type Node interface {
	Position() Pos
}

// Position returns where the batch's first query starts.
func (b *Batch) Position() Pos {
	if len(b.Queries) == 0 {
		return Pos{Line: 1, Col: 1}
	}
	return b.Queries[0].Pos
}

// Position returns where the query starts.
func (q *Query) Position() Pos { return q.Pos }

// Position returns where the SELECT starts.
func (s *Select) Position() Pos { return s.Pos }

// Position returns where the select item starts.
func (it *SelectItem) Position() Pos { return it.Pos }

// Position returns where the source starts.
func (s *Source) Position() Pos { return s.Pos }

// Position returns where the join's kind is written.
func (j *Join) Position() Pos { return j.Pos }

// Position returns where ИТОГИ is written.
func (t *Totals) Position() Pos { return t.Pos }

// Position returns where the grouping starts.
func (t *TotalsItem) Position() Pos { return t.Pos }

// Position returns where the order item starts.
func (o *OrderItem) Position() Pos { return o.Pos }

// Position returns where the branch's condition starts.
func (w *When) Position() Pos { return w.Cond.Position() }

// String returns the path as written: its parts joined by dots.
func (e *Path) String() string { return strings.Join(e.Parts, ".") }

// Walk visits node and everything under it, depth first in the order written. It calls fn for a
// node before its children and skips the children when fn returns false. Walk does not follow
// Source.Temp into another query of the batch; an empty virtual-table parameter (nil) is not
// visited.
func Walk(node Node, fn func(Node) bool) {
	if node == nil || !fn(node) {
		return
	}
	for _, c := range children(node) {
		Walk(c, fn)
	}
}

// children lists a node's direct children; nil entries are dropped.
func children(node Node) []Node {
	var out []Node
	add := func(ns ...Node) {
		for _, n := range ns {
			if n != nil && !isNilNode(n) {
				out = append(out, n)
			}
		}
	}
	addExprs := func(es []Expr) {
		for _, e := range es {
			add(e)
		}
	}
	switch n := node.(type) {
	case *Batch:
		for _, q := range n.Queries {
			add(q)
		}
	case *Query:
		for _, s := range n.Selects {
			add(s)
		}
		for _, o := range n.OrderBy {
			add(o)
		}
		if n.Totals != nil {
			add(n.Totals)
		}
		addExprs(n.Index)
	case *Totals:
		for _, it := range n.Aggregates {
			add(it)
		}
		for _, it := range n.By {
			add(it)
		}
	case *TotalsItem:
		add(n.Expr)
		addExprs(n.Periods)
	case *Select:
		for _, it := range n.Items {
			add(it)
		}
		for _, s := range n.From {
			add(s)
		}
		add(n.Where)
		addExprs(n.GroupBy)
		add(n.Having)
	case *SelectItem:
		add(n.Expr)
	case *Source:
		addExprs(n.Params)
		add(n.Subquery)
		for _, j := range n.Joins {
			add(j)
		}
	case *Join:
		add(n.Right, n.On)
	case *OrderItem:
		add(n.Expr)
	case *When:
		add(n.Cond, n.Result)
	case *Binary:
		add(n.X, n.Y)
	case *Unary:
		add(n.X)
	case *Not:
		add(n.X)
	case *Compare:
		add(n.X, n.Y)
	case *IsNull:
		add(n.X)
	case *Refs:
		add(n.X)
	case *In:
		add(n.X)
		addExprs(n.List)
		add(n.Subquery)
	case *Like:
		add(n.X, n.Pattern, n.Escape)
	case *Between:
		add(n.X, n.Lo, n.Hi)
	case *Case:
		add(n.Operand)
		for _, w := range n.Whens {
			add(w)
		}
		add(n.Else)
	case *Call:
		addExprs(n.Args)
	case *Cast:
		add(n.X)
	case *SubqueryExpr:
		add(n.Query)
	case *Tuple:
		addExprs(n.Items)
	case *TabularSelect:
		add(n.Path)
		for _, it := range n.Items {
			add(it)
		}
	}
	return out
}

// isNilNode reports a nil *Query or *Source inside a non-nil Node (an absent Subquery).
func isNilNode(n Node) bool {
	switch v := n.(type) {
	case *Query:
		return v == nil
	case *Source:
		return v == nil
	}
	return false
}

// Conjuncts splits a condition at its top-level И/AND: A И (B И C) gives [A B C]. A nil
// condition gives none.
func Conjuncts(e Expr) []Expr { return split(e, And) }

// Disjuncts splits a condition at its top-level ИЛИ/OR.
func Disjuncts(e Expr) []Expr { return split(e, Or) }

func split(e Expr, op Op) []Expr {
	if e == nil {
		return nil
	}
	if b, ok := e.(*Binary); ok && b.Op == op {
		return append(split(b.X, op), split(b.Y, op)...)
	}
	return []Expr{e}
}

// Params lists the names of the &Parameters used under node, each once, in the order of first
// use.
func Params(node Node) []string {
	var names []string
	seen := map[string]bool{}
	Walk(node, func(n Node) bool {
		if p, ok := n.(*ParamRef); ok && !seen[fold(p.Name)] {
			seen[fold(p.Name)] = true
			names = append(names, p.Name)
		}
		return true
	})
	return names
}
