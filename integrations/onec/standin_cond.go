package onec

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The demo base evaluates every condition of a query that involves a parameter the way 1C does,
// with 1C's Null: a parameter passed as JSON null is Null (the toolkit never makes it
// Неопределено), Null equals nothing (so &X = НЕОПРЕДЕЛЕНО and Поле = &X are false for it) and
// only ЕСТЬ NULL is true of it. What is left of a condition once its parameters are known is a
// formula over filters ("Субконто1 = this counterparty", "Дата >= that day"), which the engine
// then applies. A condition without parameters is the template's own business, implemented by
// the engine (НЕ Док.ПометкаУдаления, Субконто1 ССЫЛКА Справочник.Контрагенты); a shape the
// demo does not know fails loudly instead of being read as "no filter".

// condKind classifies an evaluated condition.
type condKind int

const (
	condTrue   condKind = iota // no filter
	condStatic                 // a condition without parameters: the engine's own
	condFalse                  // nothing passes
	condAtom                   // one filter
	condAnd
	condOr
)

// cond is a condition after its parameters were substituted.
type cond struct {
	kind condKind
	atom atom
	subs []cond
}

// atom is one filter: a field of the data source, an operator, the parameters' values.
type atom struct {
	field string // the path without its source alias, e.g. "Субконто1", "Ссылка.Дата", "СчетДт.Код"
	op    string // "=", ">", ">=", "<=", "МЕЖДУ", "ПОДОБНО"
	vals  []qvalue
	pos   qlang.Pos
}

// qvalue is a parameter's value as 1C holds it.
type qvalue struct {
	null bool
	kind paramKind
	date int64  // kindDate: Unix seconds of a zone-less time
	str  string // kindString
	ref  qref   // kindRef
}

// qref is a reference parameter: its type and its index in the demo's table of that type
// (refNothing for an object this base lacks).
type qref struct {
	typ string
	idx int32
}

var (
	trueCond   = cond{kind: condTrue}
	falseCond  = cond{kind: condFalse}
	staticCond = cond{kind: condStatic}
)

// shapeError is a condition the demo cannot evaluate: a query error, so that a template the
// demo would misread fails its tests instead of passing unfiltered.
func shapeError(n qlang.Node, format string, a ...any) *QueryError {
	return &QueryError{Message: fmt.Sprintf("{%s}: ", n.Position()) + fmt.Sprintf(format, a...) +
		" (демо-база не умеет вычислять такое условие)"}
}

// condEnv is what a condition's names mean: the aliases of the SELECT's sources and the
// parameters' values.
type condEnv struct {
	aliases []string
	params  map[string]qvalue // by folded name
}

func (env *condEnv) param(p *qlang.ParamRef) (qvalue, error) {
	v, ok := env.params[foldName(p.Name)]
	if !ok {
		return qvalue{}, &QueryError{Message: fmt.Sprintf("{%s}: Параметр не задан (%s)", p.Pos, p.Name)}
	}
	return v, nil
}

// field is a path without its source's alias.
func (env *condEnv) field(p *qlang.Path) string {
	parts := p.Parts
	if len(parts) > 1 {
		for _, a := range env.aliases {
			if qlang.EqualNames(a, parts[0]) {
				parts = parts[1:]
				break
			}
		}
	}
	return strings.Join(parts, ".")
}

func foldName(s string) string { return strings.ReplaceAll(strings.ToUpper(s), "Ё", "Е") }

func hasParams(e qlang.Expr) bool { return e != nil && len(qlang.Params(e)) > 0 }

// evalCond substitutes the parameters of a condition.
func (env *condEnv) evalCond(e qlang.Expr) (cond, error) {
	if e == nil {
		return trueCond, nil
	}
	if !hasParams(e) {
		return staticCond, nil
	}
	switch e := e.(type) {
	case *qlang.Binary:
		if e.Op != qlang.And && e.Op != qlang.Or {
			break
		}
		x, err := env.evalCond(e.X)
		if err != nil {
			return cond{}, err
		}
		y, err := env.evalCond(e.Y)
		if err != nil {
			return cond{}, err
		}
		if e.Op == qlang.And {
			return andCond(x, y), nil
		}
		c, ok := orCond(x, y)
		if !ok {
			return cond{}, shapeError(e, "ИЛИ соединяет условие без параметров с условием на параметр")
		}
		return c, nil
	case *qlang.Not:
		x, err := env.evalCond(e.X)
		if err != nil {
			return cond{}, err
		}
		switch x.kind {
		case condTrue:
			return falseCond, nil
		case condFalse:
			return trueCond, nil
		}
		return cond{}, shapeError(e, "НЕ над отбором по параметру")
	case *qlang.Compare:
		return env.evalCompare(e)
	case *qlang.IsNull:
		if p, ok := e.X.(*qlang.ParamRef); ok {
			v, err := env.param(p)
			if err != nil {
				return cond{}, err
			}
			return boolCond(v.null != e.Not), nil
		}
	case *qlang.Between:
		path, ok := e.X.(*qlang.Path)
		lo, okLo := e.Lo.(*qlang.ParamRef)
		hi, okHi := e.Hi.(*qlang.ParamRef)
		if !ok || !okLo || !okHi || e.Not {
			break
		}
		vl, err := env.param(lo)
		if err != nil {
			return cond{}, err
		}
		vh, err := env.param(hi)
		if err != nil {
			return cond{}, err
		}
		if vl.null || vh.null { // a comparison with Null is false
			return falseCond, nil
		}
		return cond{kind: condAtom, atom: atom{field: env.field(path), op: "МЕЖДУ", vals: []qvalue{vl, vh}, pos: e.Pos}}, nil
	case *qlang.Like:
		path, ok := e.X.(*qlang.Path)
		pat, okPat := e.Pattern.(*qlang.ParamRef)
		if !ok || !okPat || e.Not || e.Escape != nil {
			break
		}
		v, err := env.param(pat)
		if err != nil {
			return cond{}, err
		}
		if v.null {
			return falseCond, nil
		}
		return cond{kind: condAtom, atom: atom{field: env.field(path), op: "ПОДОБНО", vals: []qvalue{v}, pos: e.Pos}}, nil
	}
	return cond{}, shapeError(e, "условие %s", qlang.Format(e))
}

// evalCompare reads Поле op &Параметр (either way round) into a filter, and a comparison of
// parameters and constants into true or false.
func (env *condEnv) evalCompare(e *qlang.Compare) (cond, error) {
	xPath, xIsPath := e.X.(*qlang.Path)
	yPath, yIsPath := e.Y.(*qlang.Path)
	switch {
	case !xIsPath && !yIsPath:
		x, err := env.constant(e.X)
		if err != nil {
			return cond{}, err
		}
		y, err := env.constant(e.Y)
		if err != nil {
			return cond{}, err
		}
		return compareConstants(e, x, y)
	case xIsPath && yIsPath:
		return cond{}, shapeError(e, "сравнение двух полей с параметром")
	}
	path, other, op := xPath, e.Y, e.Op
	if yIsPath {
		path, other, op = yPath, e.X, flip(e.Op)
	}
	p, ok := other.(*qlang.ParamRef)
	if !ok {
		return cond{}, shapeError(e, "поле сравнивается с выражением %s", qlang.Format(other))
	}
	v, err := env.param(p)
	if err != nil {
		return cond{}, err
	}
	if v.null {
		return falseCond, nil // Null equals nothing
	}
	switch op {
	case qlang.Eq, qlang.Ge, qlang.Le, qlang.Gt:
		return cond{kind: condAtom, atom: atom{field: env.field(path), op: string(op), vals: []qvalue{v}, pos: e.Pos}}, nil
	}
	return cond{}, shapeError(e, "оператор %s с параметром", op)
}

// constant is the value of a parameter or a literal.
type constant struct {
	null, undefined bool
	str             string
	isStr           bool
}

func (env *condEnv) constant(e qlang.Expr) (constant, error) {
	switch e := e.(type) {
	case *qlang.ParamRef:
		v, err := env.param(e)
		if err != nil {
			return constant{}, err
		}
		if v.null {
			return constant{null: true}, nil
		}
		if v.kind == kindString {
			return constant{str: v.str, isStr: true}, nil
		}
		return constant{str: fmt.Sprint(v.kind, v.date, v.ref)}, nil // a date or a reference: equal only to itself
	case *qlang.Literal:
		switch e.Kind {
		case qlang.LitNull:
			return constant{null: true}, nil
		case qlang.LitUndefined:
			return constant{undefined: true}, nil
		case qlang.LitString:
			return constant{str: e.Value, isStr: true}, nil
		}
	}
	return constant{}, shapeError(e, "значение %s", qlang.Format(e))
}

// compareConstants: Null compares to nothing; Неопределено equals only Неопределено, which no
// parameter of the toolkit is.
func compareConstants(e *qlang.Compare, x, y constant) (cond, error) {
	if x.null || y.null {
		return falseCond, nil
	}
	var eq bool
	switch {
	case x.undefined || y.undefined:
		eq = x.undefined && y.undefined
	case x.isStr != y.isStr:
		return cond{}, &QueryError{Message: fmt.Sprintf("{%s}: Несовместимые типы в операции сравнения", e.Pos)}
	default:
		eq = x.str == y.str
	}
	switch e.Op {
	case qlang.Eq:
		return boolCond(eq), nil
	case qlang.Ne:
		return boolCond(!eq), nil
	}
	return cond{}, shapeError(e, "оператор %s между значениями", e.Op)
}

func flip(op qlang.Op) qlang.Op {
	switch op {
	case qlang.Lt:
		return qlang.Gt
	case qlang.Gt:
		return qlang.Lt
	case qlang.Le:
		return qlang.Ge
	case qlang.Ge:
		return qlang.Le
	}
	return op
}

func boolCond(b bool) cond {
	if b {
		return trueCond
	}
	return falseCond
}

func andCond(x, y cond) cond {
	switch {
	case x.kind == condFalse || y.kind == condFalse:
		return falseCond
	case x.kind == condStatic && y.kind == condTrue, x.kind == condTrue && y.kind == condStatic:
		return staticCond
	case x.kind == condTrue || x.kind == condStatic:
		return y
	case y.kind == condTrue || y.kind == condStatic:
		return x
	}
	return cond{kind: condAnd, subs: []cond{x, y}}
}

// orCond is false (ok) when a condition without parameters meets a filter: the demo cannot
// tell which rows the former lets through.
func orCond(x, y cond) (cond, bool) {
	switch {
	case x.kind == condTrue || y.kind == condTrue:
		return trueCond, true
	case x.kind == condFalse:
		return y, true
	case y.kind == condFalse:
		return x, true
	case x.kind == condStatic && y.kind == condStatic:
		return staticCond, true
	case x.kind == condStatic || y.kind == condStatic:
		return cond{}, false
	}
	return cond{kind: condOr, subs: []cond{x, y}}, true
}

// maxTerms bounds the disjunctive form of a condition (the drilldown's has four terms).
const maxTerms = 64

// terms is the disjunctive normal form: no term is false, one empty term is true.
func (c cond) terms() ([][]atom, bool) {
	switch c.kind {
	case condTrue, condStatic:
		return [][]atom{{}}, true
	case condFalse:
		return nil, true
	case condAtom:
		return [][]atom{{c.atom}}, true
	case condOr:
		var out [][]atom
		for _, s := range c.subs {
			t, ok := s.terms()
			if !ok {
				return nil, false
			}
			out = append(out, t...)
		}
		return out, len(out) <= maxTerms
	case condAnd:
		out := [][]atom{{}}
		for _, s := range c.subs {
			t, ok := s.terms()
			if !ok {
				return nil, false
			}
			var next [][]atom
			for _, a := range out {
				for _, b := range t {
					next = append(next, append(append([]atom{}, a...), b...))
				}
			}
			if out = next; len(out) > maxTerms {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}
