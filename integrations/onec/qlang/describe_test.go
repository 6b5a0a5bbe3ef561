package qlang_test

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// describe renders a batch as lines, one clause each, nested queries indented: a test's readable
// picture of the tree.
func describe(b *qlang.Batch) []string {
	var out []string
	for _, q := range b.Queries {
		out = describeQuery(out, q, "")
	}
	return out
}

func describeQuery(out []string, q *qlang.Query, ind string) []string {
	if q.Drop != "" {
		return append(out, ind+"drop "+q.Drop)
	}
	for i, s := range q.Selects {
		if i > 0 {
			u := "union"
			if q.UnionAll[i-1] {
				u += " all"
			}
			out = append(out, ind+u)
		}
		out = describeSelect(out, s, ind)
	}
	for _, o := range q.OrderBy {
		d := ""
		if o.Hierarchy {
			d += " hierarchy"
		}
		if o.Desc {
			d += " desc"
		}
		out = append(out, ind+"order "+qlang.Format(o.Expr)+d)
	}
	if t := q.Totals; t != nil {
		line := ind + "totals"
		for _, a := range t.Aggregates {
			line += " " + qlang.Format(a.Expr)
		}
		if t.Overall {
			line += " overall"
		}
		for _, it := range t.By {
			line += " by " + qlang.Format(it.Expr)
			if it.Hierarchy != "" {
				line += " " + it.Hierarchy
			}
			if it.Periods != nil {
				line += " periods"
				for _, e := range it.Periods {
					line += " " + qlang.Format(e)
				}
			}
		}
		out = append(out, line)
	}
	for _, e := range q.Index {
		out = append(out, ind+"index "+qlang.Format(e))
	}
	return out
}

func describeSelect(out []string, s *qlang.Select, ind string) []string {
	head := "select"
	if s.Allowed {
		head += " allowed"
	}
	if s.Distinct {
		head += " distinct"
	}
	if s.Top != "" {
		head += " top " + s.Top
	}
	if s.Into != "" {
		head += " into " + s.Into
	}
	out = append(out, ind+head)
	for _, it := range s.Items {
		line := ind + "  item " + qlang.Format(it.Expr)
		if it.Alias != "" {
			line += " as " + it.Alias
		}
		out = append(out, line)
	}
	for _, src := range s.From {
		out = describeSource(out, "from", src, ind+"  ")
	}
	if s.Where != nil {
		out = append(out, ind+"  where "+qlang.Format(s.Where))
	}
	for _, e := range s.GroupBy {
		out = append(out, ind+"  group "+qlang.Format(e))
	}
	if s.Having != nil {
		out = append(out, ind+"  having "+qlang.Format(s.Having))
	}
	return out
}

// describeSource renders a source and, indented under it, the joins it carries.
func describeSource(out []string, what string, src *qlang.Source, ind string) []string {
	out = describeTable(out, what, src, ind)
	for _, j := range src.Joins {
		out = describeSource(out, "join "+j.Kind.String(), j.Right, ind+"  ")
		out = append(out, ind+"    on "+qlang.Format(j.On))
	}
	return out
}

func describeTable(out []string, what string, src *qlang.Source, ind string) []string {
	if src.Subquery != nil {
		out = append(out, fmt.Sprintf("%s%s ( as %s", ind, what, src.Alias))
		out = describeQuery(out, src.Subquery, ind+"  ")
		return append(out, ind+")")
	}
	if src.Param != "" {
		return append(out, fmt.Sprintf("%s%s &%s as %s", ind, what, src.Param, src.Alias))
	}
	name := src.Name()
	if src.HasParams {
		ps := make([]string, len(src.Params))
		for i, p := range src.Params {
			ps[i] = "_"
			if p != nil {
				ps[i] = qlang.Format(p)
			}
		}
		name += "(" + strings.Join(ps, "; ") + ")"
	}
	if src.Temp != nil {
		name += " [temp]"
	}
	return append(out, fmt.Sprintf("%s%s %s as %s", ind, what, name, src.Alias))
}
