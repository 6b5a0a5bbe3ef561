package onec

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The expressions of the query language, compiled once per query run into closures over a row.
// Conditions follow 1C's Null: a comparison with NULL is neither true nor false (NULL here), НЕ
// of it stays unknown, И and ИЛИ follow three-valued logic, and only a true condition passes a
// ГДЕ, ПО, ИМЕЮЩИЕ or КОГДА. Arithmetic with NULL is NULL; aggregates skip NULL.

// compiler runs one query text: its parameters' values and the temporary tables filled so far.
type compiler struct {
	ctx    context.Context
	d      *Demo
	params map[string]val // by folded name
	temps  map[string]*table
}

// slot is one data source of a SELECT, with its alias (folded).
type slot struct {
	alias string
	t     *table
}

type scope struct{ slots []slot }

// ctx is the row an expression reads: one row index per slot (-1: the NULL row of a left join
// without a match), or, for an aggregate SELECT, a group's key values and its rows.
type ctx struct {
	rows  []int
	keys  []val
	group [][]int
}

type fn = func(*ctx) (val, error)

// grouping is the GROUP BY of an aggregate SELECT: its expressions, by their folded text.
type grouping struct{ exprs []string }

func (g *grouping) key(e qlang.Expr) int {
	f := foldName(qlang.Format(e))
	for i, s := range g.exprs {
		if s == f {
			return i
		}
	}
	return -1
}

// aggregates are the aggregate functions the evaluator computes.
var aggregates = map[string]string{"СУММА": "СУММА", "SUM": "СУММА", "КОЛИЧЕСТВО": "КОЛИЧЕСТВО", "COUNT": "КОЛИЧЕСТВО",
	"МАКСИМУМ": "МАКСИМУМ", "MAX": "МАКСИМУМ", "МИНИМУМ": "МИНИМУМ", "MIN": "МИНИМУМ", "СРЕДНЕЕ": "СРЕДНЕЕ", "AVG": "СРЕДНЕЕ"}

func isAggregate(e qlang.Expr) bool {
	call, ok := e.(*qlang.Call)
	return ok && aggregates[foldName(call.Name)] != ""
}

// hasAggregate reports an aggregate anywhere in e (nested queries aside).
func hasAggregate(e qlang.Expr) bool {
	found := false
	qlang.Walk(e, func(n qlang.Node) bool {
		switch x := n.(type) {
		case *qlang.Query, *qlang.SubqueryExpr:
			return false
		case qlang.Expr:
			if isAggregate(x) {
				found = true
			}
		}
		return !found
	})
	return found
}

func constant(v val) fn { return func(*ctx) (val, error) { return v, nil } }

// expr compiles e in scope sc; g is the grouping of an aggregate SELECT (nil for a row).
// prefix compiles an operator before one operand of kind k («-», НЕ): a NULL operand stays NULL,
// one of another kind is refused naming what the operator is.
func (c *compiler) prefix(n qlang.Node, operand qlang.Expr, sc *scope, g *grouping, k vkind, what string, apply func(val) val) (fn, error) {
	x, err := c.expr(operand, sc, g)
	if err != nil {
		return nil, err
	}
	return func(r *ctx) (val, error) {
		v, err := x(r)
		if err != nil || v.k == vNull {
			return v, err
		}
		if v.k != k {
			return null, qerr(n, "Несовместимые типы: %s значением типа %s", what, typeOf(v))
		}
		return apply(v), nil
	}, nil
}

func (c *compiler) expr(e qlang.Expr, sc *scope, g *grouping) (fn, error) {
	if g != nil {
		if k := g.key(e); k >= 0 {
			return func(x *ctx) (val, error) { return x.keys[k], nil }, nil
		}
		if isAggregate(e) {
			return c.aggregate(e.(*qlang.Call), sc)
		}
		if p, ok := e.(*qlang.Path); ok {
			return nil, qerr(p, "Поле \"%s\" не входит в группу", p)
		}
	} else if isAggregate(e) {
		return nil, qerr(e, "Агрегатная функция %s вне выборки с группировкой", e.(*qlang.Call).Name)
	}
	switch e := e.(type) {
	case *qlang.Literal:
		v, err := literal(e)
		if err != nil {
			return nil, err
		}
		return constant(v), nil
	case *qlang.ParamRef:
		v, ok := c.params[foldName(e.Name)]
		if !ok {
			return nil, qerr(e, "Параметр не задан (%s)", e.Name)
		}
		return constant(v), nil
	case *qlang.Value:
		v, err := c.value(e)
		if err != nil {
			return nil, err
		}
		return constant(v), nil
	case *qlang.Path:
		return c.path(e, sc)
	case *qlang.Binary:
		return c.binary(e, sc, g)
	case *qlang.Unary:
		return c.prefix(e, e.X, sc, g, vNum, "знак перед", func(v val) val {
			if e.Op == qlang.Sub {
				v.n = -v.n
			}
			return v
		})
	case *qlang.Not:
		return c.prefix(e, e.X, sc, g, vBool, "НЕ над", func(v val) val { return boolVal(v.n == 0) })
	case *qlang.Compare:
		return c.compare(e, sc, g)
	case *qlang.IsNull:
		x, err := c.expr(e.X, sc, g)
		if err != nil {
			return nil, err
		}
		return func(r *ctx) (val, error) {
			v, err := x(r)
			return boolVal((v.k == vNull) != e.Not), err
		}, nil
	case *qlang.Refs:
		return c.refs(e, sc, g)
	case *qlang.In:
		return c.in(e, sc, g)
	case *qlang.Like:
		return c.like(e, sc, g)
	case *qlang.Between:
		return c.between(e, sc, g)
	case *qlang.Case:
		return c.caseExpr(e, sc, g)
	case *qlang.Call:
		return c.call(e, sc, g)
	case *qlang.Cast:
		return c.cast(e, sc, g)
	case *qlang.TypeOf:
		return nil, unsupported(e, "ТИП")
	case *qlang.Star:
		return nil, unsupported(e, "* в списке выборки")
	case *qlang.Tuple:
		return nil, unsupported(e, "сравнение кортежей")
	case *qlang.TabularSelect:
		return nil, unsupported(e, "выборка табличной части")
	case *qlang.SubqueryExpr:
		return nil, unsupported(e, "вложенный запрос как значение")
	}
	return nil, unsupported(e, qlang.Format(e))
}

// literal reads a constant; a number must be exact to the thousandth (the demo counts money in
// kopecks and quantities in thousandths, as 1C keeps them).
func literal(e *qlang.Literal) (val, error) {
	switch e.Kind {
	case qlang.LitNumber:
		q, err := ParseQuantity(e.Value)
		if err != nil {
			return null, qerr(e, "Число %s: демо-база считает точно до тысячных", e.Value)
		}
		return qtyVal(q), nil
	case qlang.LitString:
		return strVal(e.Value), nil
	case qlang.LitTrue:
		return vTrue, nil
	case qlang.LitFalse:
		return vFalse, nil
	case qlang.LitNull:
		return null, nil
	case qlang.LitUndefined:
		return undef, nil
	}
	return null, qerr(e, "Синтаксическая ошибка: %s вне функции работы с датой", e.Value)
}

// value reads ЗНАЧЕНИЕ(…): an enumeration value, a kind of account or of subconto, an empty
// reference.
func (c *compiler) value(e *qlang.Value) (val, error) {
	name := strings.Join(e.Name, ".")
	parts := foldAll(e.Name...)
	last := parts[len(parts)-1]
	switch {
	case len(parts) == 3 && last == "ПУСТАЯССЫЛКА":
		switch foldName(e.Name[0] + "." + e.Name[1]) {
		case foldName("Справочник.Организации"):
			return refVal(tOrg, -1), nil
		case foldName("Справочник.Контрагенты"):
			return refVal(tCp, -1), nil
		case foldName("Справочник.ДоговорыКонтрагентов"):
			return refVal(tCtr, -1), nil
		case foldName("Справочник.БанковскиеСчета"):
			return refVal(tBank, -1), nil
		case foldName("ПланСчетов.Хозрасчетный"):
			return refVal(tAcc, -1), nil
		}
		if parts[0] == "ДОКУМЕНТ" {
			return refVal(tDoc, -1), nil
		}
		if parts[0] == "СПРАВОЧНИК" { // a catalog the ledger keeps no file of (subconto.go)
			return val{k: vRef, t: tOther, n: -1, s: e.Name[0] + "." + e.Name[1]}, nil
		}
	case len(parts) == 2 && parts[0] == "ВИДСЧЕТА":
		for _, k := range accountKindValues {
			if foldName(k) == last {
				return enumVal("ВидСчета." + k), nil
			}
		}
	case len(parts) == 3 && parts[0] == "ПЕРЕЧИСЛЕНИЕ" &&
		(parts[1] == "ЮРИДИЧЕСКОЕФИЗИЧЕСКОЕЛИЦО" || parts[1] == "ВИДЫДОГОВОРОВКОНТРАГЕНТОВ"):
		return enumVal(name), nil
	case len(parts) == 3 && parts[0] == "ПЛАНВИДОВХАРАКТЕРИСТИК" && parts[1] == "ВИДЫСУБКОНТОХОЗРАСЧЕТНЫЕ":
		for i, k := range c.d.obj.kinds {
			if foldName(k) == last {
				return refVal(tKind, int32(i)), nil
			}
		}
		return refVal(tKind, refNothing), nil // a predefined kind the demo chart does not use
	}
	return null, unsupported(e, "ЗНАЧЕНИЕ("+name+")")
}

// path compiles a field path: a source's column (the alias may be omitted when the SELECT has
// one source), then the attributes read through it.
func (c *compiler) path(p *qlang.Path, sc *scope) (fn, error) {
	parts := foldAll(p.Parts...)
	si := -1
	if len(parts) > 1 {
		for i, s := range sc.slots {
			if s.alias != "" && s.alias == parts[0] {
				si, parts = i, parts[1:]
				break
			}
		}
	}
	if si < 0 {
		if len(sc.slots) != 1 {
			return nil, qerr(p, "Поле не найдено \"%s\"", p)
		}
		si = 0
	}
	t := sc.slots[si].t
	col := t.col(parts[0])
	switch {
	case col >= 0:
		parts = parts[1:]
	case t.object != 0:
		col = 0 // read through Ссылка
		if _, err := c.d.field(refVal(t.object, -1), parts[0]); err != nil {
			return nil, qerr(p, "Поле не найдено \"%s\"", p)
		}
	default:
		return nil, qerr(p, "Поле не найдено \"%s\"", p)
	}
	return func(x *ctx) (val, error) {
		r := x.rows[si]
		if r < 0 {
			return null, nil
		}
		v := t.get(r, col)
		for _, f := range parts {
			var err error
			if v, err = c.d.field(v, f); err != nil {
				return null, qerr(p, "%v", err)
			}
		}
		return v, nil
	}, nil
}

func (c *compiler) pair(x, y qlang.Expr, sc *scope, g *grouping) (fn, fn, error) {
	fx, err := c.expr(x, sc, g)
	if err != nil {
		return nil, nil, err
	}
	fy, err := c.expr(y, sc, g)
	return fx, fy, err
}

func (c *compiler) binary(e *qlang.Binary, sc *scope, g *grouping) (fn, error) {
	fx, fy, err := c.pair(e.X, e.Y, sc, g)
	if err != nil {
		return nil, err
	}
	switch e.Op {
	case qlang.And, qlang.Or:
		and := e.Op == qlang.And
		return func(r *ctx) (val, error) {
			x, err := fx(r)
			if err != nil {
				return null, err
			}
			if x.k == vBool && (x.n != 0) != and { // И with ЛОЖЬ, ИЛИ with ИСТИНА: decided
				return x, nil
			}
			y, err := fy(r)
			if err != nil {
				return null, err
			}
			for _, v := range []val{x, y} {
				if v.k != vNull && v.k != vBool {
					return null, qerr(e, "Несовместимые типы: %s над значением типа %s", e.Op, typeOf(v))
				}
			}
			switch {
			case y.k == vBool && (y.n != 0) != and:
				return y, nil
			case x.k == vNull || y.k == vNull:
				return null, nil
			}
			return boolVal(and), nil
		}, nil
	case qlang.Div:
		return nil, unsupported(e, "деление (демо-база считает деньги точно, в копейках)")
	}
	return func(r *ctx) (val, error) {
		x, err := fx(r)
		if err != nil {
			return null, err
		}
		y, err := fy(r)
		if err != nil || x.k == vNull || y.k == vNull {
			return null, err
		}
		switch {
		case x.k == vStr && y.k == vStr && e.Op == qlang.Add:
			return strVal(x.s + y.s), nil
		case x.k != vNum || y.k != vNum:
			return null, qerr(e, "Несовместимые типы: %s %s %s", typeOf(x), e.Op, typeOf(y))
		case e.Op == qlang.Add:
			return val{k: vNum, n: x.n + y.n}, nil
		case e.Op == qlang.Sub:
			return val{k: vNum, n: x.n - y.n}, nil
		}
		if p := x.n * y.n; p%numScale == 0 { // thousandths times thousandths
			return val{k: vNum, n: p / numScale}, nil
		}
		return null, qerr(e, "Произведение точнее тысячных: демо-база считает точно")
	}, nil
}

func (c *compiler) compare(e *qlang.Compare, sc *scope, g *grouping) (fn, error) {
	fx, fy, err := c.pair(e.X, e.Y, sc, g)
	if err != nil {
		return nil, err
	}
	return func(r *ctx) (val, error) {
		x, err := fx(r)
		if err != nil {
			return null, err
		}
		y, err := fy(r)
		if err != nil || x.k == vNull || y.k == vNull {
			return null, err // NULL compares to nothing
		}
		switch e.Op {
		case qlang.Eq, qlang.Ne:
			eq, err := equal(x, y)
			if err != nil {
				return null, qerr(e, "%s", capitalize(err.Error()))
			}
			return boolVal(eq == (e.Op == qlang.Eq)), nil
		}
		o, err := order(x, y)
		if err != nil {
			return null, qerr(e, "%s", capitalize(err.Error()))
		}
		switch e.Op {
		case qlang.Lt:
			return boolVal(o < 0), nil
		case qlang.Le:
			return boolVal(o <= 0), nil
		case qlang.Gt:
			return boolVal(o > 0), nil
		}
		return boolVal(o >= 0), nil
	}, nil
}

func capitalize(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = []rune(strings.ToUpper(string(r[0])))[0]
	}
	return string(r)
}

// cast compiles ВЫРАЗИТЬ(X КАК Документ.Тип).Поле…, the one form the demo runs: a document
// reference of that type read through its attributes, NULL for anything else (1C's cast of a
// composite reference to a type it is not).
func (c *compiler) cast(e *qlang.Cast, sc *scope, g *grouping) (fn, error) {
	if len(e.Type.Name) != 2 || !qlang.EqualNames(e.Type.Name[0], "Документ") {
		return nil, unsupported(e, "ВЫРАЗИТЬ")
	}
	x, err := c.expr(e.X, sc, g)
	if err != nil {
		return nil, err
	}
	typ := foldName(TypeDocumentPrefix + e.Type.Name[1])
	fields := foldAll(e.Fields...)
	return func(r *ctx) (val, error) {
		v, err := x(r)
		if err != nil {
			return null, err
		}
		if v.k != vRef || v.t != tDoc || v.n < 0 || foldName(c.d.docs.types[v.n]) != typ {
			return null, nil
		}
		for _, f := range fields {
			if v, err = c.d.field(v, f); err != nil {
				return null, qerr(e, "%v", err)
			}
		}
		return v, nil
	}, nil
}

// refs compiles X ССЫЛКА Таблица: a type test, false for NULL.
func (c *compiler) refs(e *qlang.Refs, sc *scope, g *grouping) (fn, error) {
	x, err := c.expr(e.X, sc, g)
	if err != nil {
		return nil, err
	}
	name := foldName(strings.Join(e.Table, "."))
	var test func(v val) bool
	switch name {
	case foldName("Справочник.Организации"):
		test = func(v val) bool { return v.t == tOrg }
	case foldName("Справочник.Контрагенты"):
		test = func(v val) bool { return v.t == tCp }
	case foldName("Справочник.ДоговорыКонтрагентов"):
		test = func(v val) bool { return v.t == tCtr }
	case foldName("Справочник.БанковскиеСчета"):
		test = func(v val) bool { return v.t == tBank }
	case foldName("Справочник.Номенклатура"):
		test = func(v val) bool { return v.t == tItem }
	case foldName("Справочник.КлассификаторЕдиницИзмерения"):
		test = func(v val) bool { return v.t == tUnit }
	case foldName("ПланСчетов.Хозрасчетный"):
		test = func(v val) bool { return v.t == tAcc }
	default:
		switch {
		case len(e.Table) == 2 && qlang.EqualNames(e.Table[0], "Документ"):
			typ := foldName(TypeDocumentPrefix + e.Table[1])
			test = func(v val) bool { return v.t == tDoc && v.n >= 0 && foldName(c.d.docs.types[v.n]) == typ }
		case len(e.Table) == 2 && (qlang.EqualNames(e.Table[0], "Справочник") || qlang.EqualNames(e.Table[0], "Перечисление")):
			table := foldName(strings.Join(e.Table, ".")) // a catalog the ledger keeps no file of (subconto.go)
			test = func(v val) bool { return v.t == tOther && foldName(v.s) == table }
		default:
			return nil, unsupported(e, "ССЫЛКА "+strings.Join(e.Table, "."))
		}
	}
	return func(r *ctx) (val, error) {
		v, err := x(r)
		if err != nil {
			return null, err
		}
		return boolVal((v.k == vRef && test(v)) != e.Not), nil
	}, nil
}

// in compiles X [НЕ] В [ИЕРАРХИИ] (list or nested query).
func (c *compiler) in(e *qlang.In, sc *scope, g *grouping) (fn, error) {
	x, err := c.expr(e.X, sc, g)
	if err != nil {
		return nil, err
	}
	var items []fn
	if e.Subquery != nil {
		t, err := c.query(e.Subquery)
		if err != nil {
			return nil, err
		}
		if len(t.cols) != 1 {
			return nil, qerr(e, "Вложенный запрос в В выбирает %d колонок, нужна одна", len(t.cols))
		}
		for r := range t.n {
			items = append(items, constant(t.get(r, 0)))
		}
	}
	for _, it := range e.List {
		f, err := c.expr(it, sc, g)
		if err != nil {
			return nil, err
		}
		items = append(items, f)
	}
	return func(r *ctx) (val, error) {
		v, err := x(r)
		if err != nil || v.k == vNull {
			return null, err
		}
		unknown := false
		for _, f := range items {
			w, err := f(r)
			if err != nil {
				return null, err
			}
			if w.k == vNull {
				unknown = true
				continue
			}
			hit := false
			if e.Hierarchy {
				hit = c.d.inHierarchy(v, w)
			} else if hit, err = equal(v, w); err != nil {
				return null, qerr(e, "%s", capitalize(err.Error()))
			}
			if hit {
				return boolVal(!e.Not), nil
			}
		}
		if unknown {
			return null, nil
		}
		return boolVal(e.Not), nil
	}, nil
}

func (c *compiler) like(e *qlang.Like, sc *scope, g *grouping) (fn, error) {
	fx, fp, err := c.pair(e.X, e.Pattern, sc, g)
	if err != nil {
		return nil, err
	}
	var esc rune
	if e.Escape != nil {
		lit, ok := e.Escape.(*qlang.Literal)
		if !ok || lit.Kind != qlang.LitString || len([]rune(lit.Value)) != 1 {
			return nil, qerr(e.Escape, "СПЕЦСИМВОЛ: нужна строка из одного символа")
		}
		esc = []rune(lit.Value)[0]
	}
	return func(r *ctx) (val, error) {
		x, err := fx(r)
		if err != nil {
			return null, err
		}
		p, err := fp(r)
		if err != nil || x.k == vNull || p.k == vNull {
			return null, err
		}
		if x.k != vStr || p.k != vStr {
			return null, qerr(e, "Несовместимые типы: ПОДОБНО над %s и %s", typeOf(x), typeOf(p))
		}
		return boolVal(likeEscape(x.s, p.s, esc) != e.Not), nil
	}, nil
}

func (c *compiler) between(e *qlang.Between, sc *scope, g *grouping) (fn, error) {
	fx, flo, err := c.pair(e.X, e.Lo, sc, g)
	if err != nil {
		return nil, err
	}
	fhi, err := c.expr(e.Hi, sc, g)
	if err != nil {
		return nil, err
	}
	return func(r *ctx) (val, error) {
		var vs [3]val
		for i, f := range []fn{fx, flo, fhi} {
			v, err := f(r)
			if err != nil || v.k == vNull {
				return null, err
			}
			vs[i] = v
		}
		lo, err := order(vs[1], vs[0])
		if err != nil {
			return null, qerr(e, "%s", capitalize(err.Error()))
		}
		hi, err := order(vs[0], vs[2])
		if err != nil {
			return null, qerr(e, "%s", capitalize(err.Error()))
		}
		return boolVal((lo <= 0 && hi <= 0) != e.Not), nil
	}, nil
}

func (c *compiler) caseExpr(e *qlang.Case, sc *scope, g *grouping) (fn, error) {
	var operand fn
	if e.Operand != nil {
		var err error
		if operand, err = c.expr(e.Operand, sc, g); err != nil {
			return nil, err
		}
	}
	conds := make([]fn, len(e.Whens))
	results := make([]fn, len(e.Whens))
	for i, w := range e.Whens {
		var err error
		if conds[i], results[i], err = c.pair(w.Cond, w.Result, sc, g); err != nil {
			return nil, err
		}
	}
	otherwise := constant(null)
	if e.Else != nil {
		var err error
		if otherwise, err = c.expr(e.Else, sc, g); err != nil {
			return nil, err
		}
	}
	return func(r *ctx) (val, error) {
		var op val
		if operand != nil {
			var err error
			if op, err = operand(r); err != nil {
				return null, err
			}
		}
		for i, cond := range conds {
			v, err := cond(r)
			if err != nil {
				return null, err
			}
			if operand != nil { // ВЫБОР Операнд КОГДА Значение: equality, never true for NULL
				hit := false
				if op.k != vNull && v.k != vNull {
					if hit, err = equal(op, v); err != nil {
						return null, qerr(e, "%s", capitalize(err.Error()))
					}
				}
				v = boolVal(hit)
			}
			if v.isTrue() {
				return results[i](r)
			}
		}
		return otherwise(r)
	}, nil
}

// call compiles the built-in functions the evaluator knows: ЕСТЬNULL and ДОБАВИТЬКДАТЕ.
func (c *compiler) call(e *qlang.Call, sc *scope, g *grouping) (fn, error) {
	args := make([]fn, 0, len(e.Args))
	name := foldName(e.Name)
	for i, a := range e.Args {
		if l, ok := a.(*qlang.Literal); ok && l.Kind == qlang.LitUnit && (name == "ДОБАВИТЬКДАТЕ" || name == "DATEADD") && i == 1 {
			args = append(args, constant(strVal(foldName(l.Value))))
			continue
		}
		f, err := c.expr(a, sc, g)
		if err != nil {
			return nil, err
		}
		args = append(args, f)
	}
	switch name {
	case "ЕСТЬNULL", "ISNULL":
		if len(args) != 2 {
			return nil, qerr(e, "ЕСТЬNULL: нужно два параметра")
		}
		return func(r *ctx) (val, error) {
			v, err := args[0](r)
			if err != nil || v.k != vNull {
				return v, err
			}
			return args[1](r)
		}, nil
	case "ДОБАВИТЬКДАТЕ", "DATEADD":
		if len(args) != 3 {
			return nil, qerr(e, "ДОБАВИТЬКДАТЕ: нужно три параметра")
		}
		unit, _ := args[1](&ctx{})
		if _, ok := dateUnits[unit.s]; !ok {
			return nil, unsupported(e, "ДОБАВИТЬКДАТЕ с единицей "+qlang.Format(e.Args[1]))
		}
		return func(r *ctx) (val, error) {
			t, err := args[0](r)
			if err != nil {
				return null, err
			}
			n, err := args[2](r)
			if err != nil || t.k == vNull || n.k == vNull {
				return null, err
			}
			if t.k != vDate || n.k != vNum || n.n%numScale != 0 {
				return null, qerr(e, "Несовместимые типы: ДОБАВИТЬКДАТЕ(%s, %s, %s)", typeOf(t), unit.s, typeOf(n))
			}
			return dateVal(addToDate(t.n, unit.s, n.n/numScale)), nil
		}, nil
	}
	return nil, unsupported(e, "функция "+e.Name)
}

// dateUnits are the units of ДОБАВИТЬКДАТЕ in seconds; months and years move the calendar.
var dateUnits = map[string]int64{"СЕКУНДА": 1, "SECOND": 1, "МИНУТА": 60, "MINUTE": 60, "ЧАС": 3600, "HOUR": 3600,
	"ДЕНЬ": 86400, "DAY": 86400, "НЕДЕЛЯ": 7 * 86400, "WEEK": 7 * 86400, "МЕСЯЦ": 0, "MONTH": 0, "КВАРТАЛ": 0,
	"QUARTER": 0, "ГОД": 0, "YEAR": 0}

// addToDate adds n units; a month that lacks the day ends at its last day, as in 1C.
func addToDate(sec int64, unit string, n int64) int64 {
	if s := dateUnits[unit]; s > 0 {
		return sec + s*n
	}
	months := n
	switch unit {
	case "КВАРТАЛ", "QUARTER":
		months = 3 * n
	case "ГОД", "YEAR":
		months = 12 * n
	}
	t := time.Unix(sec, 0).UTC()
	y, m, d := t.Date()
	first := time.Date(y, m+time.Month(months), 1, t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return first.AddDate(0, 0, min(d, last)-1).Unix()
}

// aggregate compiles СУММА, КОЛИЧЕСТВО, МАКСИМУМ, МИНИМУМ over a group's rows; NULL is skipped,
// and over no values the result is NULL (КОЛИЧЕСТВО: 0).
func (c *compiler) aggregate(e *qlang.Call, sc *scope) (fn, error) {
	kind := aggregates[foldName(e.Name)]
	if kind == "СРЕДНЕЕ" {
		return nil, unsupported(e, "СРЕДНЕЕ (демо-база не делит деньги)")
	}
	var arg fn
	switch {
	case e.Star && kind == "КОЛИЧЕСТВО":
	case len(e.Args) != 1 || e.Star:
		return nil, qerr(e, "%s: нужен один параметр", e.Name)
	default:
		if hasAggregate(e.Args[0]) {
			return nil, qerr(e, "Вложенная агрегатная функция")
		}
		var err error
		if arg, err = c.expr(e.Args[0], sc, nil); err != nil {
			return nil, err
		}
	}
	return func(x *ctx) (val, error) {
		acc := null
		count := int64(0)
		seen := map[string]bool{}
		row := &ctx{}
		for _, r := range x.group {
			v := vTrue
			if arg != nil {
				row.rows = r
				var err error
				if v, err = arg(row); err != nil {
					return null, err
				}
			}
			if v.k == vNull {
				continue
			}
			if e.Distinct {
				var b strings.Builder
				v.key(&b)
				if seen[b.String()] {
					continue
				}
				seen[b.String()] = true
			}
			count++
			switch {
			case kind == "КОЛИЧЕСТВО":
			case kind == "СУММА":
				if v.k != vNum {
					return null, qerr(e, "Несовместимые типы: СУММА от значения типа %s", typeOf(v))
				}
				acc = val{k: vNum, n: acc.n + v.n}
			case acc.k == vNull:
				acc = v
			default:
				o, err := order(v, acc)
				if err != nil {
					return null, qerr(e, "%s", capitalize(err.Error()))
				}
				if (kind == "МАКСИМУМ") == (o > 0) && o != 0 {
					acc = v
				}
			}
		}
		if kind == "КОЛИЧЕСТВО" {
			return intVal(int64(count)), nil
		}
		return acc, nil
	}, nil
}

// columnName is a column's name: its alias, the last part of a field path, else ПолеN as 1C
// names it.
func columnName(it *qlang.SelectItem, i int) string {
	if n := it.Name(); n != "" {
		return n
	}
	return "Поле" + strconv.Itoa(i+1)
}
