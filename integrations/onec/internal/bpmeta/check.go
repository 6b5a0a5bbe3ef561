package bpmeta

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// Violation is something a query names that BP 3.0 does not have, or a rule it breaks. Its text
// (String) leaves out the position, so that it stays the same when the query around it changes.
type Violation struct {
	Pos     qlang.Pos
	Subject string // what the query wrote: a table, a field path, ЗНАЧЕНИЕ(…)
	Problem string
}

func (v Violation) String() string { return v.Subject + ": " + v.Problem }

// Check parses a query and checks everything it names against the extract: every data source
// (the object, its tabular section or virtual table, and the number and kind of the virtual
// table's parameters), every field path through the types of the attributes it passes
// (a composite type passes when any of its types has the attribute), every ЗНАЧЕНИЕ, ТИП,
// ССЫЛКА and ВЫРАЗИТЬ, and two rules of BP's own queries: Предопределенный is read only where the
// object has predefined items, and УПОРЯДОЧИТЬ ПО does not dereference a selected column. The
// error is for a text that does not parse.
func Check(x *Extract, text string) ([]Violation, error) {
	b, err := qlang.Parse(text)
	if err != nil {
		return nil, err
	}
	c := &checker{x: x, refs: map[*qlang.Path]qlang.FieldRef{}, tables: map[*qlang.Source]*table{},
		columns: map[*qlang.SelectItem]typeSet{}}
	refs, err := qlang.Fields(b)
	for _, r := range refs {
		c.refs[r.Path] = r
	}
	var unresolved interface{ Unwrap() []error }
	if errors.As(err, &unresolved) {
		for _, e := range unresolved.Unwrap() {
			var ue *qlang.UnresolvedError
			if errors.As(e, &ue) {
				c.report(ue.Path.Pos, ue.Path.String(), "%s", ue.Reason)
			}
		}
	}
	qlang.Walk(b, func(n qlang.Node) bool {
		switch n := n.(type) {
		case *qlang.Source:
			c.tableOf(n)
		case *qlang.Value:
			c.value(n)
		case *qlang.Refs:
			c.typeName(n.Pos, "ССЫЛКА "+strings.Join(n.Table, "."), n.Table)
		case *qlang.TypeOf:
			c.typeName(n.Pos, "ТИП("+strings.Join(n.Name, ".")+")", n.Name)
		case *qlang.Cast:
			c.typeName(n.Pos, "ВЫРАЗИТЬ(… КАК "+strings.Join(n.Type.Name, ".")+")", n.Type.Name)
		}
		return true
	})
	for _, r := range refs {
		c.fieldRef(r)
	}
	return c.out, nil
}

type checker struct {
	x       *Extract
	refs    map[*qlang.Path]qlang.FieldRef
	tables  map[*qlang.Source]*table
	columns map[*qlang.SelectItem]typeSet
	out     []Violation
}

func (c *checker) report(pos qlang.Pos, subject, format string, args ...any) {
	c.out = append(c.out, Violation{Pos: pos, Subject: subject, Problem: fmt.Sprintf(format, args...)})
}

// table is what a data source reads.
type table struct {
	name    string        // for messages
	obj     *Object       // the object behind it; nil for a nested query
	fields  []*Field      // the columns of a table
	query   *qlang.Query  // a nested query's or a temporary table's columns
	vt      *VirtualTable // a virtual table
	main    bool          // the object's main table (not a tabular section or virtual table)
	unknown bool          // the source itself is wrong or opaque: its fields are not checked
}

// object finds kind.name in the extract, reporting why not when it is missing.
func (c *checker) object(pos qlang.Pos, subject, kind, name string) *Object {
	k := canonicalKind(kind)
	if k == "" {
		c.report(pos, subject, "%s is not a kind of metadata object", kind)
		return nil
	}
	if o := c.x.Object(k, name); o != nil {
		return o
	}
	switch has, indexed := c.x.HasName(k, name); {
	case indexed && !has:
		c.report(pos, subject, "BP 3.0 has no %s.%s", k, name)
	case indexed:
		c.report(pos, subject, "%s.%s is not in the extract: add it to the list in cmd/bpmeta and regenerate", k, name)
	default:
		c.report(pos, subject, "%s.%s is not in the extract, which cannot tell whether BP 3.0 has it", k, name)
	}
	return nil
}

func (c *checker) tableOf(src *qlang.Source) *table {
	if t, ok := c.tables[src]; ok {
		return t
	}
	t := c.newTable(src)
	c.tables[src] = t
	return t
}

func (c *checker) newTable(src *qlang.Source) *table {
	switch {
	case src.Subquery != nil:
		return &table{name: "вложенный запрос " + src.Alias, query: src.Subquery}
	case src.Temp != nil:
		return &table{name: "временная таблица " + src.Name(), query: src.Temp}
	case src.Param != "":
		return &table{name: "&" + src.Param, unknown: true}
	case len(src.Table) < 2:
		c.report(src.Pos, src.Name(), "neither a metadata object nor a temporary table filled earlier in the batch")
		return &table{unknown: true}
	}
	name := src.Name()
	obj := c.object(src.Pos, name, src.Table[0], src.Table[1])
	if obj == nil {
		return &table{name: name, unknown: true}
	}
	t := &table{name: name, obj: obj, fields: obj.Fields}
	switch {
	case len(src.Table) == 2:
		t.main = true
	case len(src.Table) > 3:
		c.report(src.Pos, name, "a table name has at most three parts")
		t.unknown = true
	case obj.TabularSection(src.Table[2]) != nil:
		ts := obj.TabularSection(src.Table[2])
		t.fields = ts.Fields
		if ts.Omitted {
			c.report(src.Pos, name, "the columns of tabular section %s are not in the extract: add it to the list in cmd/bpmeta and regenerate", ts.Name)
			t.unknown = true
		}
	case obj.VirtualTable(src.Table[2]) != nil:
		t.vt = obj.VirtualTable(src.Table[2])
		t.fields = t.vt.Fields
	default:
		c.report(src.Pos, name, "%s has no tabular section or virtual table %s", obj.FullName(), src.Table[2])
		t.unknown = true
	}
	if src.HasParams {
		c.params(src, t)
	}
	return t
}

// params checks a virtual table's positional parameters: how many, and that the value ones name
// no field (the field paths of condition parameters are checked with the others).
func (c *checker) params(src *qlang.Source, t *table) {
	name := src.Name()
	if t.vt == nil {
		if !t.unknown {
			c.report(src.Pos, name, "only a virtual table takes parameters")
		}
		return
	}
	if len(src.Params) > len(t.vt.Params) {
		c.report(src.Pos, name, "takes %d parameters (%s), the query passes %d", len(t.vt.Params), paramNames(t.vt), len(src.Params))
	}
}

func paramNames(vt *VirtualTable) string {
	ns := make([]string, len(vt.Params))
	for i, p := range vt.Params {
		ns[i] = p.Name
	}
	return strings.Join(ns, ", ")
}

// fieldRef checks one field path.
func (c *checker) fieldRef(r qlang.FieldRef) {
	subject := r.Path.String()
	if r.Clause == qlang.InOrderBy {
		subject = "УПОРЯДОЧИТЬ ПО " + subject
	}
	if r.Column != nil {
		if r.Clause == qlang.InOrderBy && len(r.Field) > 0 {
			c.report(r.Path.Pos, subject, "orders by a field of the selected column %s; order by a selected column", r.Column.Name())
		}
		c.deref(r.Path.Pos, subject, c.exprTypes(r.Column.Expr), r.Field, true)
		return
	}
	if r.Source == nil || len(r.Field) == 0 {
		return
	}
	t := c.tableOf(r.Source)
	if t.unknown {
		return
	}
	if r.Clause == qlang.InTableParam {
		c.paramRef(r, t, subject)
		return
	}
	first, ok := c.column(r.Path.Pos, subject, t, r.Field[0], true)
	if !ok {
		return
	}
	rest := r.Field[1:]
	if ts := tabularOf(t, r.Field[0]); ts != nil && len(rest) > 0 {
		// Док.Товары.(…): the rest of the path reads the tabular section.
		sub := &table{name: t.name + "." + ts.Name, obj: t.obj, fields: ts.Fields}
		if ts.Omitted {
			c.report(r.Path.Pos, subject, "the columns of tabular section %s are not in the extract: add it to the list in cmd/bpmeta and regenerate", ts.Name)
			return
		}
		if first, ok = c.column(r.Path.Pos, subject, sub, rest[0], true); !ok {
			return
		}
		rest = rest[1:]
	}
	c.deref(r.Path.Pos, subject, first, rest, true)
}

func tabularOf(t *table, name string) *TabularSection {
	if !t.main {
		return nil
	}
	return t.obj.TabularSection(name)
}

// column returns the types of a table's column, reporting a column it does not have.
func (c *checker) column(pos qlang.Pos, subject string, t *table, name string, report bool) (typeSet, bool) {
	if t.query != nil {
		col := t.query.Column(name)
		if col == nil {
			if report {
				c.report(pos, subject, "%s has no column %s", t.name, name)
			}
			return typeSet{}, false
		}
		return c.columnTypes(col), true
	}
	if f := findField(t.fields, name); f != nil {
		if report && t.main && equalNames(f.Name, "Предопределенный") && t.obj.Predefined == nil && !t.obj.Partial {
			c.report(pos, subject, "%s has no predefined items in BP 3.0, so Предопределенный is always ЛОЖЬ", t.obj.FullName())
		}
		return known(f.Types...), true
	}
	if t.main && t.obj.TabularSection(name) != nil {
		return typeSet{}, true // a tabular section, read as a nested table
	}
	if report {
		if t.obj != nil && t.obj.Partial {
			c.report(pos, subject, "%s has no standard attribute %s, and only its standard attributes are in the extract", t.name, name)
		} else {
			c.report(pos, subject, "%s has no field %s", t.name, name)
		}
	}
	return typeSet{}, false
}

// paramRef checks a field path inside a virtual table's parameter.
func (c *checker) paramRef(r qlang.FieldRef, t *table, subject string) {
	if r.Param >= len(t.vt.Params) {
		return // the count is reported already
	}
	p := t.vt.Params[r.Param]
	where := fmt.Sprintf("parameter %s of %s", p.Name, t.name)
	switch p.Kind {
	case ParamCondition, ParamAccountCondition:
		if !oneOf(r.Field[0], p.Fields) {
			c.report(r.Path.Pos, subject, "%s cannot name %s (it may name %s)", where, r.Field[0], strings.Join(p.Fields, ", "))
			return
		}
		first := sidelessField(t.vt, r.Field[0])
		if first == nil {
			c.report(r.Path.Pos, subject, "%s has no field %s", t.name, r.Field[0])
			return
		}
		c.deref(r.Path.Pos, subject, known(first.Types...), r.Field[1:], true)
	case ParamPeriodicity:
		if len(r.Field) != 1 || !oneOf(r.Field[0], periodicities) {
			c.report(r.Path.Pos, subject, "%s takes a periodicity (%s)", where, strings.Join(periodicities[:14], ", "))
		}
	case ParamMethod:
		if len(r.Field) != 1 || !oneOf(r.Field[0], methods) {
			c.report(r.Path.Pos, subject, "%s takes Движения or ДвиженияИГраницыПериода", where)
		}
	case ParamOrder:
	default:
		c.report(r.Path.Pos, subject, "%s takes a value, not a field", where)
	}
}

// sidelessField finds a column of a virtual table, or for a name a condition may use without
// its side (Счет, Субконто1, Валюта in ДвиженияССубконто) the debit column.
func sidelessField(vt *VirtualTable, name string) *Field {
	if f := vt.Field(name); f != nil {
		return f
	}
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	return vt.Field(name[:i] + "Дт" + name[i:])
}

// value checks ЗНАЧЕНИЕ(…).
func (c *checker) value(v *qlang.Value) {
	subject := "ЗНАЧЕНИЕ(" + strings.Join(v.Name, ".") + ")"
	if len(v.Name) == 2 {
		e := c.x.SystemEnum(v.Name[0])
		switch {
		case e == nil:
			c.report(v.Pos, subject, "%s is not a system enumeration the extract knows", v.Name[0])
		case !oneOf(v.Name[1], e.Values):
			c.report(v.Pos, subject, "%s has no value %s", e.Name, v.Name[1])
		}
		return
	}
	if len(v.Name) != 3 {
		c.report(v.Pos, subject, "not a value: ЗНАЧЕНИЕ takes Вид.Объект.Значение or СистемноеПеречисление.Значение")
		return
	}
	o := c.object(v.Pos, subject, v.Name[0], v.Name[1])
	if o == nil {
		return
	}
	item := v.Name[2]
	switch {
	case o.Kind == Enum:
		if !oneOf(item, o.Values) {
			c.report(v.Pos, subject, "%s has no value %s", o.FullName(), item)
		}
	case equalNames(item, "ПустаяСсылка") || strings.EqualFold(item, "EmptyRef"):
	case o.Kind == Document || o.Kind == AccountingRegister:
		c.report(v.Pos, subject, "%s has no predefined values; only ПустаяСсылка", o.FullName())
	case o.Predefined == nil || !oneOf(item, o.Predefined.Names):
		c.report(v.Pos, subject, "%s has no predefined item %s", o.FullName(), item)
	}
}

// typeName checks the type of ССЫЛКА, ТИП and ВЫРАЗИТЬ.
func (c *checker) typeName(pos qlang.Pos, subject string, name []string) {
	if len(name) == 1 {
		if !slices.Contains([]string{"Строка", "Число", "Дата", "Булево", "String", "Number", "Date", "Boolean"}, name[0]) {
			c.report(pos, subject, "%s is not a type", name[0])
		}
		return
	}
	if len(name) != 2 {
		c.report(pos, subject, "a type is Вид.Объект")
		return
	}
	c.object(pos, subject, name[0], name[1])
}
