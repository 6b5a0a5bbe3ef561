package onec

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The demo base reads a template the way 1C would: it parses the text (qlang), refuses tables
// and document fields that BP 3.0 lacks, and evaluates the conditions against the parameters
// with 1C's Null semantics (standin_cond.go) to find the filters the engine applies. So a
// template that would return nothing, fail or drop rows on a real base does the same here.

// checkedTemplates caches the parse and the static checks of each whitelisted text.
var checkedTemplates sync.Map // *template → checked

type checked struct {
	b   *qlang.Batch
	err error
}

// prepare parses a query text and checks it against the demo base (tables, document fields,
// order); the whitelisted texts are prepared once.
func prepare(t *template, text string) (*qlang.Batch, error) {
	if text == t.text {
		if c, ok := checkedTemplates.Load(t); ok {
			return c.(checked).b, c.(checked).err
		}
	}
	b, err := check(t, text)
	if text == t.text {
		checkedTemplates.Store(t, checked{b, err})
	}
	return b, err
}

func check(t *template, text string) (*qlang.Batch, error) {
	b, err := qlang.Parse(text)
	if err != nil {
		return nil, &QueryError{Message: "Синтаксическая ошибка: " + err.Error()}
	}
	if len(b.Queries) != 1 || len(b.Queries[0].Selects) == 0 {
		return nil, &QueryError{Message: "{(1, 1)}: демо-база выполняет один запрос без пакета"}
	}
	if err := checkTables(b); err != nil {
		return nil, err
	}
	if err := checkDocumentFields(b); err != nil {
		return nil, err
	}
	if err := checkOrder(t, b.Queries[0]); err != nil {
		return nil, err
	}
	return b, nil
}

// plan is what the demo makes of one query with its parameters.
type plan struct {
	q *qlang.Query
	// a holds the filters of a register or catalog template; branches those of each ОБЪЕДИНИТЬ
	// branch of a document template, by BP document type (nil: the branch is false).
	a        *args
	branches map[string]*args
	// literals are the columns written as constants (NULL, 0, ""), by branch ("" for the only
	// SELECT, or the first): the engine's values are replaced by them.
	literals map[string]map[string]any
}

// compile checks a parsed template against the demo base and evaluates its conditions.
func (d *Demo) compile(t *template, b *qlang.Batch, params map[string]any) (*plan, error) {
	q := b.Queries[0]
	values, err := d.bind(t, qlang.Params(b), params)
	if err != nil {
		return nil, err
	}
	p := &plan{q: q, literals: map[string]map[string]any{}}
	if isDocumentTemplate(t.id) {
		p.branches = map[string]*args{}
		for _, s := range q.Selects {
			typ, a, err := evalBranch(s, values)
			if err != nil {
				return nil, err
			}
			if _, dup := p.branches[typ]; dup {
				return nil, shapeError(s, "две ветви ОБЪЕДИНИТЬ по документу %s", typ)
			}
			p.branches[typ] = a
			p.literals[typ] = literalColumns(s)
		}
		return p, nil
	}
	p.literals[""] = literalColumns(q.Selects[0])
	if len(q.Selects) != 1 {
		return nil, shapeError(q, "ОБЪЕДИНИТЬ в шаблоне %s", t.id)
	}
	if p.a, err = registerArgs(q.Selects[0], values); err != nil {
		return nil, err
	}
	return p, nil
}

// registerArgs evaluates a SELECT (and the queries nested in it) that reads one virtual table
// of the register, or a catalog: the virtual table's period and conditions, and every WHERE.
func registerArgs(s *qlang.Select, values map[string]qvalue) (*args, error) {
	a := newArgs()
	c := trueCond
	var visit func(s *qlang.Select) error
	visit = func(s *qlang.Select) error {
		env := &condEnv{params: values}
		for _, src := range s.Sources() {
			env.aliases = append(env.aliases, src.Alias)
		}
		for _, src := range s.Sources() {
			if src.Subquery != nil {
				if len(src.Subquery.Selects) != 1 {
					return shapeError(src, "ОБЪЕДИНИТЬ во вложенном запросе")
				}
				if err := visit(src.Subquery.Selects[0]); err != nil {
					return err
				}
				continue
			}
			vc, err := virtualTable(src, env, a)
			if err != nil {
				return err
			}
			c = andCond(c, vc)
			if len(src.Joins) > 0 && hasParams(src.Joins[0].On) {
				return shapeError(src, "параметр в условии соединения")
			}
		}
		w, err := env.evalCond(s.Where)
		if err != nil {
			return err
		}
		c = andCond(c, w)
		return nil
	}
	if err := visit(s); err != nil {
		return nil, err
	}
	return mergeTerms(a, c)
}

// virtualTable reads the parameters of a register's virtual table: its period into a.asOf, its
// account condition and condition into the returned condition. Positions the templates leave
// empty must stay empty.
func virtualTable(src *qlang.Source, env *condEnv, a *args) (cond, error) {
	if !src.HasParams {
		return trueCond, nil
	}
	vt := ""
	if len(src.Table) == 3 && qlang.EqualNames(src.Table[0], "РегистрБухгалтерии") {
		vt = foldName(src.Table[2])
	}
	param := func(i int) qlang.Expr {
		if i < len(src.Params) {
			return src.Params[i]
		}
		return nil
	}
	var period, start, end qlang.Expr
	var conds, empty []int
	switch vt {
	case "ОСТАТКИ": // (Период, УсловиеСчета, Субконто, Условие)
		period, conds, empty = param(0), []int{1, 3}, []int{2}
	case "ОБОРОТЫ": // (Начало, Конец, Периодичность, УсловиеСчета, Субконто, Условие, УсловиеКорСчета, КорСубконто)
		end, conds, empty = param(1), []int{3, 5}, []int{0, 2, 4, 6, 7}
	case "ОСТАТКИИОБОРОТЫ": // (Начало, Конец, Периодичность, МетодДополнения, УсловиеСчета, Субконто, Условие)
		start, end, conds, empty = param(0), param(1), []int{4, 6}, []int{2, 3, 5}
	case "ДВИЖЕНИЯССУБКОНТО": // (Начало, Конец, Условие, Порядок, Первые)
		start, end, conds, empty = param(0), param(1), []int{2}, []int{3, 4}
	default:
		return cond{}, shapeError(src, "параметры таблицы %s", src.Name())
	}
	for _, i := range empty {
		if param(i) != nil {
			return cond{}, shapeError(param(i), "параметр %d виртуальной таблицы %s", i+1, src.Name())
		}
	}
	switch {
	case period != nil:
		sec, null, err := env.dateExpr(period)
		if err != nil {
			return cond{}, err
		}
		if !null { // Остатки(&Период): the balance at the start of that moment
			a.asOf = min(a.asOf, sec)
		}
	case end != nil:
		sec, null, err := env.dateExpr(end)
		if err != nil {
			return cond{}, err
		}
		if !null { // the end is inclusive
			a.asOf = min(a.asOf, sec+1)
			a.to = min(a.to, sec)
		}
	}
	if start != nil { // the period's start, inclusive: what is before it is the opening balance
		sec, null, err := env.dateExpr(start)
		if err != nil {
			return cond{}, err
		}
		if !null {
			a.from = max(a.from, sec)
		}
	}
	c := trueCond
	for _, i := range conds {
		pc, err := env.evalCond(param(i))
		if err != nil {
			return cond{}, err
		}
		c = andCond(c, pc)
	}
	return c, nil
}

// dateExpr evaluates a period: &Дата, or ДОБАВИТЬКДАТЕ(&Дата, СЕКУНДА, n). null is true for a
// Null (the virtual table is then unbounded on that side, as in 1C).
func (env *condEnv) dateExpr(e qlang.Expr) (sec int64, null bool, err error) {
	switch e := e.(type) {
	case *qlang.ParamRef:
		v, err := env.param(e)
		if err != nil {
			return 0, false, err
		}
		if !v.null && v.kind != kindDate {
			return 0, false, &QueryError{Message: fmt.Sprintf("{%s}: Несовместимые типы: период виртуальной таблицы не дата", e.Pos)}
		}
		return v.date, v.null, nil
	case *qlang.Call:
		unit, isUnit := literalOf(e.Args, 1)
		n, isNum := literalOf(e.Args, 2)
		if !(qlang.EqualNames(e.Name, "ДОБАВИТЬКДАТЕ") || qlang.EqualNames(e.Name, "DATEADD")) || len(e.Args) != 3 || !isUnit ||
			!(qlang.EqualNames(unit, "СЕКУНДА") || qlang.EqualNames(unit, "SECOND")) || !isNum {
			break
		}
		sec, null, err := env.dateExpr(e.Args[0])
		if err != nil || null {
			return 0, null, err
		}
		var k int64
		if _, err := fmt.Sscan(n, &k); err != nil {
			break
		}
		return sec + k, false, nil
	}
	return 0, false, shapeError(e, "период %s", qlang.Format(e))
}

// literalOf returns the text of args[i] when it is a literal (a signed number included).
func literalOf(args []qlang.Expr, i int) (string, bool) {
	if i >= len(args) {
		return "", false
	}
	switch e := args[i].(type) {
	case *qlang.Literal:
		return e.Value, true
	case *qlang.Unary:
		if l, ok := e.X.(*qlang.Literal); ok && l.Kind == qlang.LitNumber {
			return string(e.Op) + l.Value, true
		}
	}
	return "", false
}

// dim is what a filtered field means to the engine.
type dim int

const (
	dimOrg dim = iota
	dimCp
	dimCtr
	dimAcc
	dimDate
	dimCode
)

type fieldDim struct {
	dim  dim
	side int // dt, kt, or -1 when the field has no side
}

// fieldDims: the fields the templates filter on, by folded name, for every source the demo
// serves. In a virtual table Субконто1 is the counterparty and Субконто2 the contract of the
// settlement accounts; the documents' fields are their own; Стр.Ссылка.Дата is the date of the
// document whose tabular section a line belongs to.
var fieldDims = map[string]fieldDim{
	"ОРГАНИЗАЦИЯ": {dimOrg, -1}, "ССЫЛКА.ОРГАНИЗАЦИЯ": {dimOrg, -1},
	"СУБКОНТО1": {dimCp, -1}, "КОНТРАГЕНТ": {dimCp, -1}, "СУБКОНТОДТ1": {dimCp, dt}, "СУБКОНТОКТ1": {dimCp, kt},
	"СУБКОНТО2": {dimCtr, -1}, "ДОГОВОРКОНТРАГЕНТА": {dimCtr, -1}, "ДОГОВОР": {dimCtr, -1},
	"СУБКОНТОДТ2": {dimCtr, dt}, "СУБКОНТОКТ2": {dimCtr, kt},
	"СЧЕТ.КОД": {dimAcc, -1}, "СЧЕТДТ.КОД": {dimAcc, dt}, "СЧЕТКТ.КОД": {dimAcc, kt},
	"ДАТА": {dimDate, -1}, "ССЫЛКА.ДАТА": {dimDate, -1},
	"КОД": {dimCode, -1},
}

// refTypeOf is the reference type a filtered field holds.
var refTypeOf = map[dim]string{dimOrg: TypeOrganization, dimCp: TypeCounterparty, dimCtr: TypeContract}

// term is one conjunction of filters.
type term struct {
	org, cp, ctr int32
	from, to     int64
	acc          string // Код = acc, or Код ПОДОБНО acc when accLike
	accLike      bool
	hasAcc       bool
	side         int
	after        string // Код > after (a page of a catalog)
}

// termOf reads one conjunction of atoms.
func termOf(atoms []atom) (term, error) {
	t := term{org: refAny, cp: refAny, ctr: refAny, from: math.MinInt64, to: math.MaxInt64, side: -1}
	for _, at := range atoms {
		fd, ok := fieldDims[foldName(at.field)]
		if !ok {
			return t, &QueryError{Message: fmt.Sprintf("{%s}: отбор по полю %s (демо-база не умеет его применять)", at.pos, at.field)}
		}
		if fd.side >= 0 {
			if t.side >= 0 && t.side != fd.side {
				return t, &QueryError{Message: fmt.Sprintf("{%s}: отбор по полям Дт и Кт одновременно", at.pos)}
			}
			t.side = fd.side
		}
		v := at.vals[0]
		switch fd.dim {
		case dimOrg, dimCp, dimCtr:
			if at.op != "=" || v.kind != kindRef {
				return t, &QueryError{Message: fmt.Sprintf("{%s}: Несовместимые типы: %s %s %v", at.pos, at.field, at.op, typeNameOf(v))}
			}
			idx := v.ref.idx
			if v.ref.typ != refTypeOf[fd.dim] {
				idx = refNothing // a reference of another type equals nothing
			}
			target := map[dim]*int32{dimOrg: &t.org, dimCp: &t.cp, dimCtr: &t.ctr}[fd.dim]
			if *target != refAny && *target != idx {
				idx = refNothing // equal to two different objects
			}
			*target = idx
		case dimAcc:
			if v.kind != kindString || t.hasAcc || (at.op != "=" && at.op != "ПОДОБНО") {
				return t, &QueryError{Message: fmt.Sprintf("{%s}: отбор по счёту %s %s", at.pos, at.field, at.op)}
			}
			t.hasAcc, t.acc, t.accLike = true, v.str, at.op == "ПОДОБНО"
		case dimCode:
			if at.op != ">" || v.kind != kindString || t.after != "" {
				return t, &QueryError{Message: fmt.Sprintf("{%s}: отбор по коду %s", at.pos, at.op)}
			}
			t.after = v.str
		case dimDate:
			for _, dv := range at.vals {
				if dv.kind != kindDate {
					return t, &QueryError{Message: fmt.Sprintf("{%s}: Несовместимые типы: %s сравнивается с %s", at.pos, at.field, typeNameOf(dv))}
				}
			}
			switch at.op {
			case ">=":
				t.from = max(t.from, at.vals[0].date)
			case "<=":
				t.to = min(t.to, at.vals[0].date)
			case "МЕЖДУ":
				t.from, t.to = max(t.from, at.vals[0].date), min(t.to, at.vals[1].date)
			default:
				return t, &QueryError{Message: fmt.Sprintf("{%s}: отбор по дате %s", at.pos, at.op)}
			}
		}
	}
	return t, nil
}

func typeNameOf(v qvalue) string {
	switch {
	case v.null:
		return "Null"
	case v.kind == kindDate:
		return "Дата"
	case v.kind == kindRef:
		return v.ref.typ
	}
	return "Строка"
}

// mergeTerms turns the disjunctive form of a query's conditions into the engine's filters. The
// terms may differ only in the account condition (Код = &СчетКод ИЛИ Код ПОДОБНО &СчетМаска) and
// in the register side it applies to (the drilldown); anything else the engine cannot apply.
func mergeTerms(a *args, c cond) (*args, error) {
	terms, ok := c.terms()
	if !ok {
		return nil, &QueryError{Message: "{(1, 1)}: условие слишком сложно для демо-базы"}
	}
	if len(terms) == 0 {
		a.none = true
		return a, nil
	}
	var first term
	a.sides = [2]bool{}
	for i, atoms := range terms {
		t, err := termOf(atoms)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = t
			// Date bounds narrow what the virtual table's period already bounds.
			a.org, a.cp, a.ctr, a.accAll, a.after = t.org, t.cp, t.ctr, !t.hasAcc, t.after
			a.from, a.to = max(a.from, t.from), min(a.to, t.to)
		} else if t.org != first.org || t.cp != first.cp || t.ctr != first.ctr || t.from != first.from || t.to != first.to || t.after != first.after ||
			t.hasAcc != first.hasAcc || (t.side < 0) != (first.side < 0) {
			return nil, &QueryError{Message: "{(1, 1)}: ИЛИ между разными отборами (демо-база умеет только ИЛИ по счёту и стороне проводки)"}
		}
		switch {
		case t.hasAcc && t.accLike:
			a.accMasks = appendNew(a.accMasks, t.acc)
		case t.hasAcc:
			a.accCodes = appendNew(a.accCodes, t.acc)
		}
		if t.side < 0 {
			a.sides = [2]bool{true, true}
		} else {
			a.sides[t.side] = true
		}
	}
	return a, nil
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// isDocumentTemplate reports the templates whose ОБЪЕДИНИТЬ branches read one document type each.
func isDocumentTemplate(id string) bool {
	return id == idDocumentsByParty || id == idDocumentsByTreaty || id == idBankOpsByParty
}

// evalBranch evaluates one branch of a document template: the document type it reads (from
// Документ.<Тип> or its tabular section, directly or in a nested query) and its filters.
func evalBranch(s *qlang.Select, values map[string]qvalue) (string, *args, error) {
	typ := ""
	var find func(s *qlang.Select)
	find = func(s *qlang.Select) {
		for _, src := range s.Sources() {
			switch {
			case src.Subquery != nil && len(src.Subquery.Selects) == 1:
				find(src.Subquery.Selects[0])
			case len(src.Table) >= 2 && qlang.EqualNames(src.Table[0], "Документ"):
				typ = src.Table[1]
			}
		}
	}
	find(s)
	if typ == "" {
		return "", nil, shapeError(s, "ветвь без документа")
	}
	a, err := registerArgs(s, values)
	if err != nil {
		return "", nil, err
	}
	if a.none {
		return typ, nil, nil
	}
	return typ, a, nil
}

// literalColumns are the columns of a SELECT written as constants, in the toolkit's wire form,
// and the columns 1C answers the same for every row of the demo base: Предопределенный of a
// catalog (BP 3.0 has no predefined organizations, counterparties or contracts).
func literalColumns(s *qlang.Select) map[string]any {
	out := map[string]any{}
	for _, it := range s.Items {
		switch e := it.Expr.(type) {
		case *qlang.Literal:
			switch e.Kind {
			case qlang.LitNull:
				out[it.Name()] = WireNull
			case qlang.LitNumber:
				if k, err := ParseKopecks(e.Value); err == nil {
					out[it.Name()] = WireNumber(k)
				}
			case qlang.LitString:
				out[it.Name()] = e.Value
			case qlang.LitTrue, qlang.LitFalse:
				out[it.Name()] = e.Kind == qlang.LitTrue
			}
		case *qlang.Path:
			if qlang.EqualNames(e.Parts[len(e.Parts)-1], "Предопределенный") {
				if src := s.Source(e.Parts[0]); src != nil && len(src.Table) > 0 && qlang.EqualNames(src.Table[0], "Справочник") {
					out[it.Name()] = false
				}
			}
		}
	}
	return out
}

// applyLiterals replaces the engine's values of the constant columns and checks that every row
// has exactly the query's columns: a column the demo does not compute is an error, not a gap.
func applyLiterals(q *qlang.Query, rows []map[string]any, lits map[string]any) error {
	cols := q.Columns()
	for _, row := range rows {
		for k, v := range lits {
			row[k] = v
		}
		if len(row) != len(cols) {
			return columnsError(q, row)
		}
		for _, c := range cols {
			if _, ok := row[c.Name()]; !ok {
				return columnsError(q, row)
			}
		}
	}
	return nil
}

func columnsError(q *qlang.Query, row map[string]any) *QueryError {
	var want, got []string
	for _, c := range q.Columns() {
		want = append(want, c.Name())
	}
	for k := range row {
		got = append(got, k)
	}
	slices.Sort(want)
	slices.Sort(got)
	return &QueryError{Message: fmt.Sprintf("{(1, 1)}: демо-база вычисляет колонки %s, запрос выбирает %s",
		strings.Join(got, ", "), strings.Join(want, ", "))}
}
