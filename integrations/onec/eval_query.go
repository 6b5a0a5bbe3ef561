package onec

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The demo runs a query's text: every template is answered by evaluating its SELECTs over the
// ledger's tables, never by code written for the template.

// evaluate runs a parsed batch with its parameters. The last query runs whole, ordered and cut
// by its own ПЕРВЫЕ; then, as the toolkit does, its first limit rows are written in the wire
// form.
func (d *Demo) evaluate(ctx context.Context, b *qlang.Batch, params map[string]qvalue, limit int) ([]map[string]any, error) {
	c := &compiler{ctx: ctx, d: d, params: make(map[string]val, len(params)), temps: map[string]*table{}}
	for k, v := range params {
		c.params[k] = paramVal(v)
	}
	var last *table
	var lastQ *qlang.Query
	for _, q := range b.Queries {
		if q.Drop != "" {
			delete(c.temps, foldName(q.Drop))
			continue
		}
		t, err := c.query(q)
		if err != nil {
			return nil, err
		}
		if into := q.Selects[0].Into; into != "" {
			c.temps[foldName(into)] = t
			continue
		}
		last, lastQ = t, q
	}
	if last == nil {
		return nil, &QueryError{Message: "{(1, 1)}: пакет не возвращает результата: все запросы помещают во временные таблицы"}
	}
	names := make([]string, len(lastQ.Columns()))
	for i, it := range lastQ.Columns() {
		names[i] = columnName(it, i)
	}
	out := make([]map[string]any, min(last.n, limit))
	for r := range out {
		row := make(map[string]any, len(names))
		for i, name := range names {
			v, err := d.wire(last.get(r, i))
			if err != nil {
				return nil, qerr(lastQ.Columns()[i], "Колонка %s: %v", name, err)
			}
			row[name] = v
		}
		out[r] = row
	}
	return out, nil
}

// query runs one query: its SELECTs joined by ОБЪЕДИНИТЬ, then its order and ПЕРВЫЕ.
func (c *compiler) query(q *qlang.Query) (*table, error) {
	switch {
	case q.Totals != nil:
		return nil, unsupported(q.Totals, "ИТОГИ")
	case q.AutoOrder:
		return nil, unsupported(q, "АВТОУПОРЯДОЧИВАНИЕ")
	case q.ForUpdate:
		return nil, unsupported(q, "ДЛЯ ИЗМЕНЕНИЯ")
	case len(q.Selects) == 0:
		return nil, unsupported(q, "запрос без ВЫБРАТЬ")
	}
	var cols []string
	var rows [][]val
	distinct := false
	for i, s := range q.Selects {
		if i > 0 && s.Top != "" {
			return nil, unsupported(s, "ПЕРВЫЕ во второй ветви ОБЪЕДИНИТЬ")
		}
		if i > 0 && s.Into != "" {
			return nil, unsupported(s, "ПОМЕСТИТЬ во второй ветви ОБЪЕДИНИТЬ")
		}
		names, part, err := c.selectRows(s)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			cols = names
		} else if len(names) != len(cols) {
			return nil, qerr(s, "Различное количество полей в объединяемых запросах")
		}
		if i > 0 && !q.UnionAll[i-1] {
			distinct = true
		}
		rows = append(rows, part...)
	}
	if distinct {
		rows = dedupe(rows)
	}
	if err := c.orderRows(q, cols, rows); err != nil {
		return nil, err
	}
	if top := q.Selects[0].Top; top != "" {
		n, err := strconv.Atoi(top)
		if err != nil || n < 0 {
			return nil, qerr(q.Selects[0], "ПЕРВЫЕ %s: нужно целое число", top)
		}
		rows = rows[:min(n, len(rows))]
	}
	return rowsTable(cols, rows), nil
}

// orderRows sorts by УПОРЯДОЧИТЬ ПО, which may name the result's columns only. Rows equal by it
// keep a fixed order: by all their columns, references by their tables' order.
func (c *compiler) orderRows(q *qlang.Query, cols []string, rows [][]val) error {
	type key struct {
		col  int
		desc bool
	}
	var keys []key
	for _, o := range q.OrderBy {
		p, ok := o.Expr.(*qlang.Path)
		col := -1
		if ok && len(p.Parts) == 1 {
			col = slices.Index(cols, foldName(p.Parts[0]))
		}
		if col < 0 {
			return qerr(o, "УПОРЯДОЧИТЬ ПО %s: демо-база упорядочивает только по выбранным колонкам", qlang.Format(o.Expr))
		}
		if o.Hierarchy {
			return unsupported(o, "УПОРЯДОЧИТЬ ПО … ИЕРАРХИЯ")
		}
		keys = append(keys, key{col, o.Desc})
	}
	if len(keys) == 0 {
		return nil // no order asked: the sources' own
	}
	// Rows equal by every column are interchangeable, so an unstable sort is deterministic.
	slices.SortFunc(rows, func(x, y []val) int {
		for _, k := range keys {
			if o := c.d.sortCompare(x[k.col], y[k.col]); o != 0 {
				if k.desc {
					return -o
				}
				return o
			}
		}
		for i := range x {
			if o := c.d.sortCompare(x[i], y[i]); o != 0 {
				return o
			}
		}
		return 0
	})
	return nil
}

func dedupe(rows [][]val) [][]val {
	seen := make(map[string]bool, len(rows))
	out := rows[:0]
	for _, r := range rows {
		var b strings.Builder
		for _, v := range r {
			v.key(&b)
		}
		if !seen[b.String()] {
			seen[b.String()] = true
			out = append(out, r)
		}
	}
	return out
}

// selectRows runs one SELECT: FROM with its joins, ГДЕ, СГРУППИРОВАТЬ ПО and ИМЕЮЩИЕ, the
// select list, РАЗЛИЧНЫЕ. РАЗРЕШЕННЫЕ is accepted: the demo has no access restrictions.
func (c *compiler) selectRows(s *qlang.Select) ([]string, [][]val, error) {
	sc := &scope{}
	tuples := [][]int{{}}
	for _, src := range s.From {
		var err error
		if tuples, err = c.from(src, sc, tuples); err != nil {
			return nil, nil, err
		}
	}
	if s.Where != nil {
		if hasAggregate(s.Where) {
			return nil, nil, qerr(s.Where, "Агрегатная функция в ГДЕ")
		}
		where, err := c.expr(s.Where, sc, nil)
		if err != nil {
			return nil, nil, err
		}
		if tuples, err = c.filter(tuples, where); err != nil {
			return nil, nil, err
		}
	}
	names := make([]string, len(s.Items))
	for i, it := range s.Items {
		if _, star := it.Expr.(*qlang.Star); star {
			return nil, nil, unsupported(it, "* в списке выборки")
		}
		names[i] = foldName(columnName(it, i))
	}
	aggregate := len(s.GroupBy) > 0 || s.Having != nil
	for _, it := range s.Items {
		aggregate = aggregate || hasAggregate(it.Expr)
	}
	var rows [][]val
	var err error
	if aggregate {
		rows, err = c.groupRows(s, sc, tuples)
	} else {
		rows, err = c.plainRows(s, sc, tuples)
	}
	if err != nil {
		return nil, nil, err
	}
	if s.Distinct {
		rows = dedupe(rows)
	}
	return names, rows, nil
}

// from adds a FROM item and its joins to the scope: each tuple of the sources so far is
// combined with each row of the new one (ЛЕВОЕ keeps a tuple without a match, its fields NULL).
func (c *compiler) from(src *qlang.Source, sc *scope, tuples [][]int) ([][]int, error) {
	t, err := c.source(src)
	if err != nil {
		return nil, err
	}
	sc.slots = append(sc.slots, slot{alias: foldName(src.Alias), t: t})
	var out [][]int
	chk := checker{ctx: c.ctx}
	for _, tu := range tuples {
		for r := range t.n {
			if err := chk.tick(); err != nil {
				return nil, err
			}
			out = append(out, append(slices.Clip(tu), r))
		}
	}
	for _, j := range src.Joins {
		if out, err = c.join(j, sc, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c *compiler) join(j *qlang.Join, sc *scope, tuples [][]int) ([][]int, error) {
	switch {
	case j.Kind == qlang.RightJoin || j.Kind == qlang.FullJoin:
		return nil, unsupported(j, j.Kind.String()+" СОЕДИНЕНИЕ")
	case len(j.Right.Joins) > 0:
		return nil, unsupported(j.Right, "вложенное соединение")
	}
	t, err := c.source(j.Right)
	if err != nil {
		return nil, err
	}
	sc.slots = append(sc.slots, slot{alias: foldName(j.Right.Alias), t: t})
	on, err := c.expr(j.On, sc, nil)
	if err != nil {
		return nil, err
	}
	var out [][]int
	chk := checker{ctx: c.ctx}
	x := &ctx{}
	for _, tu := range tuples {
		matched := false
		for r := range t.n {
			if err := chk.tick(); err != nil {
				return nil, err
			}
			x.rows = append(slices.Clip(tu), r)
			v, err := on(x)
			if err != nil {
				return nil, err
			}
			if v.isTrue() {
				out = append(out, x.rows)
				matched = true
			}
		}
		if !matched && j.Kind == qlang.LeftJoin {
			out = append(out, append(slices.Clip(tu), -1))
		}
	}
	return out, nil
}

func (c *compiler) filter(tuples [][]int, cond fn) ([][]int, error) {
	out := tuples[:0]
	x := &ctx{}
	chk := checker{ctx: c.ctx}
	for _, tu := range tuples {
		if err := chk.tick(); err != nil {
			return nil, err
		}
		x.rows = tu
		v, err := cond(x)
		if err != nil {
			return nil, err
		}
		if v.isTrue() {
			out = append(out, tu)
		}
	}
	return out, nil
}

func (c *compiler) plainRows(s *qlang.Select, sc *scope, tuples [][]int) ([][]val, error) {
	items := make([]fn, len(s.Items))
	for i, it := range s.Items {
		var err error
		if items[i], err = c.expr(it.Expr, sc, nil); err != nil {
			return nil, err
		}
	}
	rows := make([][]val, 0, len(tuples))
	x := &ctx{}
	for _, tu := range tuples {
		x.rows = tu
		row, err := selectRow(items, x)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// selectRow computes the selected columns over one tuple or group.
func selectRow(items []fn, x *ctx) ([]val, error) {
	row := make([]val, len(items))
	for i, f := range items {
		v, err := f(x)
		if err != nil {
			return nil, err
		}
		row[i] = v
	}
	return row, nil
}

// groupRows groups the tuples by СГРУППИРОВАТЬ ПО (one group of all of them when there is none:
// an aggregate without grouping is one row even over no rows) and computes each group's row.
func (c *compiler) groupRows(s *qlang.Select, sc *scope, tuples [][]int) ([][]val, error) {
	g := &grouping{}
	keys := make([]fn, len(s.GroupBy))
	for i, e := range s.GroupBy {
		if hasAggregate(e) {
			return nil, qerr(e, "Агрегатная функция в СГРУППИРОВАТЬ ПО")
		}
		var err error
		if keys[i], err = c.expr(e, sc, nil); err != nil {
			return nil, err
		}
		g.exprs = append(g.exprs, foldName(qlang.Format(e)))
	}
	type group struct {
		keys []val
		rows [][]int
	}
	var groups []*group
	index := map[string]*group{}
	if len(keys) == 0 {
		groups = []*group{{rows: tuples}}
	} else {
		x := &ctx{}
		for _, tu := range tuples {
			x.rows = tu
			kv := make([]val, len(keys))
			var b strings.Builder
			for i, f := range keys {
				v, err := f(x)
				if err != nil {
					return nil, err
				}
				kv[i] = v
				v.key(&b)
			}
			gr := index[b.String()]
			if gr == nil {
				gr = &group{keys: kv}
				index[b.String()] = gr
				groups = append(groups, gr)
			}
			gr.rows = append(gr.rows, tu)
		}
	}
	items := make([]fn, len(s.Items))
	for i, it := range s.Items {
		var err error
		if items[i], err = c.expr(it.Expr, sc, g); err != nil {
			return nil, err
		}
	}
	var having fn
	if s.Having != nil {
		var err error
		if having, err = c.expr(s.Having, sc, g); err != nil {
			return nil, err
		}
	}
	rows := make([][]val, 0, len(groups))
	for _, gr := range groups {
		x := &ctx{keys: gr.keys, group: gr.rows}
		if having != nil {
			v, err := having(x)
			if err != nil {
				return nil, err
			}
			if !v.isTrue() {
				continue
			}
		}
		row, err := selectRow(items, x)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}
