package bpmeta

import (
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// typeSet is the types an expression may have; unknown when they cannot be worked out (a
// function the checker does not model), and then a path through it is not checked.
type typeSet struct {
	names   []string
	unknown bool
}

func known(names ...string) typeSet { return typeSet{names: names} }

func (s *typeSet) add(o typeSet) {
	s.unknown = s.unknown || o.unknown
	for _, n := range o.names {
		if !slices.Contains(s.names, n) {
			s.names = append(s.names, n)
		}
	}
}

// columnTypes is the types of a nested query's column: its expression's in the first SELECT
// and in every branch of ОБЪЕДИНИТЬ.
func (c *checker) columnTypes(col *qlang.SelectItem) typeSet {
	if ts, ok := c.columns[col]; ok {
		return ts
	}
	c.columns[col] = typeSet{unknown: true} // a column defined through itself stays unknown
	ts := c.exprTypes(col.Expr)
	c.columns[col] = ts
	return ts
}

// exprTypes works out the types of an expression, silently: the paths inside are checked
// (and reported) on their own.
func (c *checker) exprTypes(e qlang.Expr) typeSet {
	switch e := e.(type) {
	case *qlang.Path:
		return c.pathTypes(e)
	case *qlang.Literal:
		switch e.Kind {
		case qlang.LitNumber:
			return known("Число")
		case qlang.LitString:
			return known("Строка")
		case qlang.LitTrue, qlang.LitFalse:
			return known("Булево")
		}
		return known() // NULL and НЕОПРЕДЕЛЕНО add no type
	case *qlang.Value:
		if len(e.Name) == 3 {
			return known(canonicalKind(e.Name[0]) + "." + e.Name[1])
		}
		return known(strings.Join(e.Name[:len(e.Name)-1], "."))
	case *qlang.Cast:
		t := known(castType(e.Type.Name))
		if len(e.Fields) > 0 {
			return c.deref(e.Pos, "", t, e.Fields, false)
		}
		return t
	case *qlang.Case:
		var ts typeSet
		for _, w := range e.Whens {
			ts.add(c.whenTypes(w))
		}
		if e.Else != nil {
			ts.add(c.exprTypes(e.Else))
		}
		return ts
	case *qlang.Call:
		return c.callTypes(e)
	case *qlang.Binary:
		if e.Op == qlang.And || e.Op == qlang.Or {
			return known("Булево")
		}
		x, y := c.exprTypes(e.X), c.exprTypes(e.Y)
		if slices.Contains(x.names, "Строка") || slices.Contains(y.names, "Строка") {
			return known("Строка")
		}
		return known("Число")
	case *qlang.Unary:
		return known("Число")
	case *qlang.Not, *qlang.Compare, *qlang.IsNull, *qlang.Refs, *qlang.In, *qlang.Like, *qlang.Between:
		return known("Булево")
	case *qlang.TypeOf:
		return known("Тип")
	}
	return typeSet{unknown: true}
}

// whenTypes narrows a branch: in ВЫБОР КОГДА X ССЫЛКА T ТОГДА X, the result is a T.
func (c *checker) whenTypes(w *qlang.When) typeSet {
	if res, ok := w.Result.(*qlang.Path); ok {
		for _, cond := range qlang.Conjuncts(w.Cond) {
			r, ok := cond.(*qlang.Refs)
			if !ok || r.Not || len(r.Table) != 2 {
				continue
			}
			if x, ok := r.X.(*qlang.Path); ok && slices.EqualFunc(x.Parts, res.Parts, equalNames) {
				return known(canonicalKind(r.Table[0]) + "." + r.Table[1])
			}
		}
	}
	return c.exprTypes(w.Result)
}

func castType(name []string) string {
	if len(name) == 2 {
		return canonicalKind(name[0]) + "." + name[1]
	}
	switch strings.ToUpper(name[0]) {
	case "STRING":
		return "Строка"
	case "NUMBER":
		return "Число"
	case "DATE":
		return "Дата"
	case "BOOLEAN":
		return "Булево"
	}
	return name[0]
}

func (c *checker) callTypes(e *qlang.Call) typeSet {
	switch strings.ToUpper(e.Name) {
	case "СУММА", "SUM", "КОЛИЧЕСТВО", "COUNT", "СРЕДНЕЕ", "AVG", "ГОД", "YEAR", "КВАРТАЛ", "QUARTER", "МЕСЯЦ", "MONTH",
		"ДЕНЬГОДА", "DAYOFYEAR", "ДЕНЬ", "DAY", "НЕДЕЛЯ", "WEEK", "ДЕНЬНЕДЕЛИ", "WEEKDAY", "ЧАС", "HOUR", "МИНУТА",
		"MINUTE", "СЕКУНДА", "SECOND", "РАЗНОСТЬДАТ", "DATEDIFF", "ДЛИНАСТРОКИ", "STRINGLENGTH", "ОКР", "ROUND", "ЦЕЛ", "INT":
		return known("Число")
	case "ДОБАВИТЬКДАТЕ", "DATEADD", "НАЧАЛОПЕРИОДА", "BEGINOFPERIOD", "КОНЕЦПЕРИОДА", "ENDOFPERIOD", "ДАТАВРЕМЯ", "DATETIME":
		return known("Дата")
	case "ПРЕДСТАВЛЕНИЕ", "PRESENTATION", "ПРЕДСТАВЛЕНИЕССЫЛКИ", "REFPRESENTATION", "ПОДСТРОКА", "SUBSTRING",
		"ВРЕГ", "UPPER", "НРЕГ", "LOWER", "СОКРЛП", "TRIMALL", "СТРЗАМЕНИТЬ", "STRREPLACE":
		return known("Строка")
	case "МАКСИМУМ", "MAX", "МИНИМУМ", "MIN", "ЕСТЬNULL", "ISNULL":
		var ts typeSet
		for _, a := range e.Args {
			ts.add(c.exprTypes(a))
		}
		return ts
	}
	return typeSet{unknown: true}
}

// pathTypes is the types a resolved field path reads, silently.
func (c *checker) pathTypes(p *qlang.Path) typeSet {
	r, ok := c.refs[p]
	if !ok {
		return typeSet{unknown: true}
	}
	if r.Column != nil {
		return c.deref(p.Pos, "", c.columnTypes(r.Column), r.Field, false)
	}
	if r.Source == nil || len(r.Field) == 0 {
		return typeSet{unknown: true}
	}
	t := c.tableOf(r.Source)
	if t.unknown {
		return typeSet{unknown: true}
	}
	var first typeSet
	if r.Clause == qlang.InTableParam {
		f := sidelessField(t.vt, r.Field[0])
		if f == nil {
			return typeSet{unknown: true}
		}
		first = known(f.Types...)
	} else {
		var ok bool
		if first, ok = c.column(p.Pos, "", t, r.Field[0], false); !ok {
			return typeSet{unknown: true}
		}
	}
	return c.deref(p.Pos, "", first, r.Field[1:], false)
}

// deref follows a path of attributes from a set of types, reporting (when report is set) an
// attribute that none of the types has.
func (c *checker) deref(pos qlang.Pos, subject string, ts typeSet, path []string, report bool) typeSet {
	for _, attr := range path {
		if ts.unknown {
			return ts
		}
		var next typeSet
		var lacking, unverified []string
		c.members(ts.names, func(t string) {
			types, verdict := c.attribute(t, attr)
			switch verdict {
			case has:
				next.add(known(types...))
			case lacks:
				lacking = append(lacking, t)
			default:
				unverified = append(unverified, t)
			}
		})
		if len(next.names) == 0 && len(lacking)+len(unverified) > 0 {
			if report {
				switch {
				case len(unverified) > 0:
					c.report(pos, subject, "no type the extract has in full has %s, and %s %s extracted with standard attributes only or not at all: "+
						"narrow the type (ССЫЛКА, ВЫРАЗИТЬ) or add %s to the list in cmd/bpmeta",
						attr, listTypes(unverified), plural(unverified, "is", "are"), plural(unverified, "it", "them"))
				default:
					c.report(pos, subject, "%s has no field %s", listTypes(ts.names), attr)
				}
			}
			return typeSet{unknown: true}
		}
		if len(next.names) == 0 {
			return typeSet{unknown: true} // NULL: nothing to read
		}
		ts = next
	}
	return ts
}

func plural(s []string, one, many string) string {
	if len(s) == 1 {
		return one
	}
	return many
}

// listTypes names a few types for a message.
func listTypes(ts []string) string {
	if len(ts) <= 4 {
		return strings.Join(ts, ", ")
	}
	return fmt.Sprintf("%s and %d more types", strings.Join(ts[:3], ", "), len(ts)-3)
}

// members calls fn for every type in names, a characteristic's value type expanded.
func (c *checker) members(names []string, fn func(string)) {
	for _, t := range names {
		if ch, ok := strings.CutPrefix(t, CharacteristicPrefix); ok {
			if o := c.x.Object(ChartOfCharacteristic, ch); o != nil && !o.Partial {
				for _, v := range o.ValueTypes {
					fn(v)
				}
				continue
			}
		}
		fn(t)
	}
}

type verdict int

const (
	has verdict = iota
	lacks
	unchecked
)

// attribute looks an attribute up in one type.
func (c *checker) attribute(t, attr string) ([]string, verdict) {
	if t == Document+".*" {
		if types, ok := documentStandard[strings.ToUpper(strings.ReplaceAll(attr, "ё", "е"))]; ok {
			return types, has
		}
		return nil, unchecked
	}
	if primitive(t) {
		return nil, lacks
	}
	kind, name, _ := strings.Cut(t, ".")
	o := c.x.Object(kind, name)
	if o == nil {
		return nil, unchecked
	}
	if f := o.Field(attr); f != nil {
		return f.Types, has
	}
	if o.Partial {
		return nil, unchecked
	}
	return nil, lacks
}
