package qlang

import (
	"strings"
)

// Format writes an expression back as query text in canonical form: Russian keywords, one
// space between tokens, parentheses around every operator that has operands, so that the
// tree's shape shows. Nested queries are written as (ВЫБРАТЬ …).
func Format(e Expr) string {
	var b strings.Builder
	format(&b, e)
	return b.String()
}

func format(b *strings.Builder, e Expr) {
	w := b.WriteString
	not := func(n bool) {
		if n {
			w(" НЕ")
		}
	}
	switch e := e.(type) {
	case nil:
		w("<пусто>")
	case *Path:
		w(e.String())
	case *ParamRef:
		w("&" + e.Name)
	case *Literal:
		switch e.Kind {
		case LitString:
			w(`"` + strings.ReplaceAll(e.Value, `"`, `""`) + `"`)
		case LitTrue:
			w("ИСТИНА")
		case LitFalse:
			w("ЛОЖЬ")
		case LitNull:
			w("NULL")
		case LitUndefined:
			w("НЕОПРЕДЕЛЕНО")
		default:
			w(e.Value)
		}
	case *Binary:
		w("(")
		format(b, e.X)
		w(" " + string(e.Op) + " ")
		format(b, e.Y)
		w(")")
	case *Unary:
		w(string(e.Op))
		format(b, e.X)
	case *Not:
		w("(НЕ ")
		format(b, e.X)
		w(")")
	case *Compare:
		w("(")
		format(b, e.X)
		w(" " + string(e.Op) + " ")
		format(b, e.Y)
		w(")")
	case *IsNull:
		w("(")
		format(b, e.X)
		w(" ЕСТЬ")
		not(e.Not)
		w(" NULL)")
	case *Refs:
		w("(")
		format(b, e.X)
		not(e.Not)
		w(" ССЫЛКА " + strings.Join(e.Table, ".") + ")")
	case *In:
		w("(")
		format(b, e.X)
		not(e.Not)
		w(" В ")
		if e.Hierarchy {
			w("ИЕРАРХИИ ")
		}
		w("(")
		if e.Subquery != nil {
			w("ВЫБРАТЬ …")
		}
		formatList(b, e.List)
		w("))")
	case *Like:
		w("(")
		format(b, e.X)
		not(e.Not)
		w(" ПОДОБНО ")
		format(b, e.Pattern)
		if e.Escape != nil {
			w(" СПЕЦСИМВОЛ ")
			format(b, e.Escape)
		}
		w(")")
	case *Between:
		w("(")
		format(b, e.X)
		not(e.Not)
		w(" МЕЖДУ ")
		format(b, e.Lo)
		w(" И ")
		format(b, e.Hi)
		w(")")
	case *Case:
		w("ВЫБОР")
		if e.Operand != nil {
			w(" ")
			format(b, e.Operand)
		}
		for _, wh := range e.Whens {
			w(" КОГДА ")
			format(b, wh.Cond)
			w(" ТОГДА ")
			format(b, wh.Result)
		}
		if e.Else != nil {
			w(" ИНАЧЕ ")
			format(b, e.Else)
		}
		w(" КОНЕЦ")
	case *Call:
		w(e.Name + "(")
		if e.Distinct {
			w("РАЗЛИЧНЫЕ ")
		}
		if e.Star {
			w("*")
		}
		formatList(b, e.Args)
		w(")")
	case *Value:
		w("ЗНАЧЕНИЕ(" + strings.Join(e.Name, ".") + ")")
	case *TypeOf:
		w("ТИП(" + strings.Join(e.Name, ".") + ")")
	case *Cast:
		w("ВЫРАЗИТЬ(")
		format(b, e.X)
		w(" КАК " + strings.Join(e.Type.Name, "."))
		if len(e.Type.Args) > 0 {
			w("(" + strings.Join(e.Type.Args, ", ") + ")")
		}
		w(")")
		for _, f := range e.Fields {
			w("." + f)
		}
	case *Star:
		if e.Qualifier != nil {
			w(strings.Join(e.Qualifier, ".") + ".")
		}
		w("*")
	case *SubqueryExpr:
		w("(ВЫБРАТЬ …)")
	case *Tuple:
		w("(")
		formatList(b, e.Items)
		w(")")
	case *TabularSelect:
		w(e.Path.String() + ".(")
		for i, it := range e.Items {
			if i > 0 {
				w(", ")
			}
			format(b, it.Expr)
			if it.Alias != "" {
				w(" КАК " + it.Alias)
			}
		}
		w(")")
	}
}

func formatList(b *strings.Builder, es []Expr) {
	for i, e := range es {
		if i > 0 {
			b.WriteString(", ")
		}
		format(b, e)
	}
}
