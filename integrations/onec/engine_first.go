package onec

import (
	"github.com/finbot/finbot/integrations/onec/qlang"
)

// firstPosting answers register.first_posting: МИНИМУМ(Период) over the register's own table,
// one row as 1C gives for an aggregate without grouping — the Период of the earliest record, or
// NULL ("" on the wire) when the register has none. The demo's records are those of posted
// documents (an unposted document has none in 1C), all of them active. The text is read first:
// a variant that selects anything but the least Период, groups, or filters by more than
// Активность would be answered wrongly, so it fails instead.
func (d *Demo) firstPosting(s *qlang.Select, a *args) ([]map[string]any, error) {
	if err := firstPostingShape(s); err != nil {
		return nil, err
	}
	col := s.Items[0].Name()
	if a.none || len(d.movs) == 0 {
		return []map[string]any{{col: WireNull}}, nil
	}
	return []map[string]any{{col: WireDate(d.movs[0].period)}}, nil // movs are ordered by Период
}

// firstPostingShape accepts SELECT МИНИМУМ(X.Период) FROM РегистрБухгалтерии.Хозрасчетный X
// [WHERE X.Активность], nothing else.
func firstPostingShape(s *qlang.Select) error {
	if len(s.Items) != 1 || len(s.GroupBy) > 0 || s.Having != nil || s.Distinct || s.Top != "" {
		return shapeError(s, "первая проводка: одна колонка МИНИМУМ(Период) без группировок")
	}
	srcs := s.Sources()
	if len(srcs) != 1 || srcs[0].HasParams || len(srcs[0].Table) != 2 || !qlang.EqualNames(srcs[0].Name(), "РегистрБухгалтерии.Хозрасчетный") {
		return shapeError(s, "первая проводка читается из таблицы регистра")
	}
	alias := srcs[0].Alias
	isField := func(e qlang.Expr, name string) bool {
		p, ok := e.(*qlang.Path)
		switch {
		case !ok:
			return false
		case len(p.Parts) == 1:
			return qlang.EqualNames(p.Parts[0], name)
		case len(p.Parts) == 2:
			return qlang.EqualNames(p.Parts[0], alias) && qlang.EqualNames(p.Parts[1], name)
		}
		return false
	}
	call, ok := s.Items[0].Expr.(*qlang.Call)
	if !ok || !(qlang.EqualNames(call.Name, "МИНИМУМ") || qlang.EqualNames(call.Name, "MIN")) || call.Distinct || call.Star ||
		len(call.Args) != 1 || !isField(call.Args[0], "Период") {
		return shapeError(s.Items[0], "колонка %s", qlang.Format(s.Items[0].Expr))
	}
	if s.Where != nil && !isField(s.Where, "Активность") {
		return shapeError(s.Where, "отбор %s", qlang.Format(s.Where))
	}
	return nil
}
