package onec

import (
	"math"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The accounting register РегистрБухгалтерии.Хозрасчетный as the query language reads it: its
// own table, one row per record, and the virtual tables Остатки, Обороты, ОстаткиИОбороты and
// ДвиженияССубконто with their positional parameters (docs/onec.md cites the platform's rules).

// vtKind is a virtual table of the register.
type vtKind int

const (
	vtBalance   vtKind = iota // Остатки(Период, УсловиеСчета, Субконто, Условие)
	vtTurnover                // Обороты(Начало, Конец, Периодичность, УсловиеСчета, Субконто, Условие, УсловиеКорСчета, КорСубконто)
	vtBoth                    // ОстаткиИОбороты(Начало, Конец, Периодичность, МетодДополнения, УсловиеСчета, Субконто, Условие)
	vtMovements               // ДвиженияССубконто(Начало, Конец, Условие, Порядок, Первые)
)

// vtShape gives the positions of a virtual table's parameters (-1: the table has none such).
type vtShape struct {
	kind                 vtKind
	moment, start, end   int
	accCond, kinds, cond int
	refused              map[int]string // positions the evaluator refuses when given
	params               int
}

var virtualTables = map[string]vtShape{
	foldName("РегистрБухгалтерии.Хозрасчетный.Остатки"): {vtBalance, 0, -1, -1, 1, 2, 3, nil, 4},
	foldName("РегистрБухгалтерии.Хозрасчетный.Обороты"): {vtTurnover, -1, 0, 1, 3, 4, 5,
		map[int]string{2: "Периодичность", 6: "УсловиеКорСчета", 7: "КорСубконто"}, 8},
	foldName("РегистрБухгалтерии.Хозрасчетный.ОстаткиИОбороты"): {vtBoth, -1, 0, 1, 4, 5, 6,
		map[int]string{2: "Периодичность", 3: "МетодДополнения"}, 7},
	foldName("РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто"): {vtMovements, -1, 0, 1, -1, -1, 2,
		map[int]string{3: "Порядок", 4: "Первые"}, 5},
}

// sideCols are the fields a balance or turnover table's conditions read: the account, the
// dimensions and the subconto of the account's side of a record. Валюта is a dimension with a
// признак учёта (Валютный): NULL on an account that keeps no currency (sideCurrency).
var sideCols = foldAll("Счет", "Организация", "Субконто1", "Субконто2", "Субконто3", "Валюта")

// recordCols are the fields of a record: the register's own table and ДвиженияССубконто.
// Валюта, ВалютнаяСумма and Количество are not balanced (BP's Хозрасчетный), so each side has
// its own.
var recordCols = foldAll("Период", "Регистратор", "НомерСтроки", "Активность", "Организация", "СчетДт", "СчетКт",
	"СубконтоДт1", "СубконтоДт2", "СубконтоДт3", "СубконтоКт1", "СубконтоКт2", "СубконтоКт3", "Сумма",
	"ВалютаДт", "ВалютаКт", "ВалютнаяСуммаДт", "ВалютнаяСуммаКт", "КоличествоДт", "КоличествоКт")

// sideCurrency is a record side's Валюта and ВалютнаяСумма: on an account the chart keeps
// currency accounting on (Валютный), the record's currency (an empty reference where it gives
// none) and its currency amount (0 where it gives none); on any other account NULL, both — the
// platform keeps no value of a dimension or resource whose признак учёта the account has not
// (BP's own queries read them so: ЕСТЬNULL(Остатки.Валюта, …), ВЫБОР КОГДА Счет.Валютный).
func (d *Demo) sideCurrency(m *mov, s int) (cur, amount val) {
	if !d.curAcc[m.acc[s]] {
		return null, null
	}
	return refVal(tCurrency, m.cur[s]), numVal(m.curAmount[s])
}

// sideQuantity is a record side's Количество: on an account the chart keeps quantity
// accounting on (Количественный), the record's quantity (0 where it gives none); on any other
// account NULL — the resource has the признак учёта Количественный (AccountingRegisters/
// Хозрасчетный.xml: AccountingFlag and ExtDimensionAccountingFlag Количественный), and BP's
// own queries read it as a value only where Счет.Количественный. The demo takes every
// subconto of a quantity account as quantity-kept (BP's 10.01 and 41.01: Номенклатура,
// Склады, Партии all are).
func (d *Demo) sideQuantity(m *mov, s int) val {
	if !d.qtyAcc[m.acc[s]] {
		return null
	}
	return qtyVal(m.qty[s])
}

// subconto is the pos-th subconto of a record's side: by the kinds given (a virtual table's
// Субконто parameter), else by the side's own kinds (the account's in the chart, else the
// record's). A kind the side carries no value of is the empty reference of its type; a position
// past the kinds is NULL.
func (d *Demo) subconto(m *mov, s, pos int, kinds []string) val {
	own := d.kindLists[m.kinds[s]]
	if kinds == nil {
		return d.subcontoVal(own, &m.sub[s], pos)
	}
	if pos >= len(kinds) {
		return null
	}
	for p, k := range own {
		if k.name == kinds[pos] && p < len(m.sub[s]) {
			return kindVal(k, m.sub[s][p])
		}
	}
	return kindVal(kindOf(kinds[pos]), -1)
}

// recordTable reads the records listed (indexes into d.movs).
func (d *Demo) recordTable(list []int32, kinds []string) *table {
	return &table{cols: recordCols, n: len(list), get: func(r, c int) val { return d.recordField(list[r], c, kinds) }}
}

func (d *Demo) recordField(mi int32, c int, kinds []string) val {
	m := &d.movs[mi]
	switch c {
	case 0:
		return dateVal(m.period)
	case 1:
		return refVal(tDoc, m.rec)
	case 2:
		return intVal(int64(m.line))
	case 3:
		return vTrue // the demo's records are all active
	case 4:
		return refVal(tOrg, m.org)
	case 5:
		return refVal(tAcc, int32(m.acc[dt]))
	case 6:
		return refVal(tAcc, int32(m.acc[kt]))
	case 7, 8, 9:
		return d.subconto(m, dt, c-7, kinds)
	case 10, 11, 12:
		return d.subconto(m, kt, c-10, kinds)
	case 13:
		return numVal(m.amount)
	case 14, 15:
		cur, _ := d.sideCurrency(m, c-14)
		return cur
	case 16, 17:
		_, amount := d.sideCurrency(m, c-16)
		return amount
	}
	return d.sideQuantity(m, c-18)
}

// virtualTable evaluates a virtual table's parameters and builds its rows.
func (c *compiler) virtualTable(src *qlang.Source, vt vtShape) (*table, error) {
	param := func(i int) qlang.Expr {
		if i >= 0 && i < len(src.Params) {
			return src.Params[i]
		}
		return nil
	}
	if len(src.Params) > vt.params {
		return nil, qerr(src, "Слишком много параметров виртуальной таблицы %s", src.Name())
	}
	for i, name := range vt.refused {
		if param(i) != nil {
			return nil, unsupported(param(i), "параметр "+name+" виртуальной таблицы "+src.Table[2])
		}
	}
	bound := func(i int) (int64, bool, error) { // a period bound; false when absent or NULL
		e := param(i)
		if e == nil {
			return 0, false, nil
		}
		f, err := c.expr(e, &scope{}, nil)
		if err != nil {
			return 0, false, err
		}
		v, err := f(&ctx{})
		switch {
		case err != nil:
			return 0, false, err
		case v.k == vNull:
			return 0, false, nil
		case v.k != vDate:
			return 0, false, qerr(e, "Несовместимые типы: период виртуальной таблицы %s не дата", src.Table[2])
		}
		return v.n, true, nil
	}
	// from..to are the records' Период bounds, inclusive; before is where the opening balance ends.
	from, to, before := int64(math.MinInt64), int64(math.MaxInt64), int64(math.MinInt64)
	if vt.moment >= 0 { // Остатки(&Момент): the balance at the start of that moment
		sec, ok, err := bound(vt.moment)
		if err != nil {
			return nil, err
		}
		before = math.MaxInt64
		if ok {
			before = sec
		}
	} else {
		sec, ok, err := bound(vt.start)
		if err != nil {
			return nil, err
		}
		if ok {
			from, before = sec, sec
		}
		if sec, ok, err = bound(vt.end); err != nil {
			return nil, err
		} else if ok {
			to = sec
		}
	}
	var kinds []string
	if e := param(vt.kinds); e != nil {
		k, err := c.subcontoKinds(e)
		if err != nil {
			return nil, err
		}
		kinds = k
	}
	if vt.kind == vtMovements {
		return c.movementsTable(param(vt.cond), from, to, kinds)
	}
	accOK, err := c.accountCondition(param(vt.accCond))
	if err != nil {
		return nil, err
	}
	side := &table{cols: sideCols, n: 2 * len(c.d.movs), get: func(r, col int) val {
		m := &c.d.movs[r/2]
		switch col {
		case 0:
			return refVal(tAcc, int32(m.acc[r%2]))
		case 1:
			return refVal(tOrg, m.org)
		case 5:
			cur, _ := c.d.sideCurrency(m, r%2)
			return cur
		}
		return c.d.subconto(m, r%2, col-2, kinds)
	}}
	var cond func(*ctx) (val, error)
	if e := param(vt.cond); e != nil {
		if cond, err = c.expr(e, &scope{slots: []slot{{t: side}}}, nil); err != nil {
			return nil, err
		}
	}
	return c.balanceTable(vt.kind, accOK, cond, from, to, before, kinds)
}

// subcontoKinds reads the Субконто parameter: one kind, ЗНАЧЕНИЕ(ПланВидовХарактеристик.
// ВидыСубконтоХозрасчетные.Контрагенты).
func (c *compiler) subcontoKinds(e qlang.Expr) ([]string, error) {
	v, ok := e.(*qlang.Value)
	if !ok {
		return nil, unsupported(e, "параметр Субконто не одним значением ЗНАЧЕНИЕ(ПланВидовХарактеристик.ВидыСубконтоХозрасчетные.…)")
	}
	kv, err := c.value(v)
	if err != nil {
		return nil, err
	}
	if kv.k != vRef || kv.t != tKind || kv.n < 0 {
		return nil, qerr(e, "Параметр Субконто: %s не вид субконто демо-базы", qlang.Format(e))
	}
	return []string{c.d.obj.kinds[kv.n]}, nil
}

// accountCondition evaluates the account condition once per account of the register.
func (c *compiler) accountCondition(e qlang.Expr) ([]bool, error) {
	ok := make([]bool, len(c.d.accounts))
	if e == nil {
		for i := range ok {
			ok[i] = true
		}
		return ok, nil
	}
	accs := &table{cols: foldAll("Счет"), n: len(ok), get: func(r, _ int) val { return refVal(tAcc, int32(r)) }}
	f, err := c.expr(e, &scope{slots: []slot{{t: accs}}}, nil)
	if err != nil {
		return nil, err
	}
	for i := range ok {
		v, err := f(&ctx{rows: []int{i}})
		if err != nil {
			return nil, err
		}
		ok[i] = v.isTrue()
	}
	return ok, nil
}

// movementsTable is ДвиженияССубконто: the records with from <= Период <= to that pass the
// condition, in the register's order.
func (c *compiler) movementsTable(e qlang.Expr, from, to int64, kinds []string) (*table, error) {
	all := c.d.recordTable(allRecords(c.d), kinds)
	var cond func(*ctx) (val, error)
	if e != nil {
		var err error
		if cond, err = c.expr(e, &scope{slots: []slot{{t: all}}}, nil); err != nil {
			return nil, err
		}
	}
	var list []int32
	chk := checker{ctx: c.ctx}
	x := &ctx{rows: []int{0}}
	for i := c.d.cutoff(from); i < len(c.d.movs) && c.d.movs[i].period <= to; i++ {
		if err := chk.tick(); err != nil {
			return nil, err
		}
		if cond != nil {
			x.rows[0] = i
			v, err := cond(x)
			if err != nil {
				return nil, err
			}
			if !v.isTrue() {
				continue
			}
		}
		list = append(list, int32(i))
	}
	return c.d.recordTable(list, kinds), nil
}

// cutoff is the first record with Период >= sec.
func (d *Demo) cutoff(sec int64) int {
	lo, hi := 0, len(d.movs)
	for lo < hi {
		mid := (lo + hi) / 2
		if d.movs[mid].period < sec {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// balanceKey is a row of a balance or turnover table: the account, the organization, the
// three subconto of the account's side and its Валюта (NULL on an account without currency
// accounting).
type balanceKey struct {
	acc int16
	org int32
	sub [3]val
	cur val
}

// resourceSums are one resource of a row: its opening balance and its turnovers, in the
// evaluator's thousandths; kept is false while the row is of an account that does not keep the
// resource (ВалютнаяСумма off a currency account, Количество off a quantity one), whose
// columns are then NULL.
type resourceSums struct {
	open, dt, kt int64
	kept         bool
}

// add puts a record side's value v (a vNum, or NULL where the account keeps no such resource)
// into the sums: the opening balance, or the side's turnover.
func (r *resourceSums) add(v val, s int, opening bool) {
	if v.k != vNum {
		return
	}
	r.kept = true
	switch {
	case opening && s == kt:
		r.open -= v.n
	case opening:
		r.open += v.n
	case s == dt:
		r.dt += v.n
	default:
		r.kt += v.n
	}
}

func (r *resourceSums) zero(kind vtKind) bool {
	switch kind {
	case vtBalance:
		return r.open == 0
	case vtTurnover:
		return r.dt == 0 && r.kt == 0
	}
	return r.open == 0 && r.dt == 0 && r.kt == 0
}

// resources are the register's resources the virtual tables give, in their column order:
// Сумма, ВалютнаяСумма, Количество.
var resources = []string{"Сумма", "ВалютнаяСумма", "Количество"}

// balanceTable is Остатки, Обороты or ОстаткиИОбороты: per account, organization and subconto,
// the records before `before` make the opening balance, those with from <= Период <= to the
// turnovers. A row whose figures are all zero is not in the table.
func (c *compiler) balanceTable(kind vtKind, accOK []bool, cond func(*ctx) (val, error), from, to, before int64,
	kinds []string) (*table, error) {
	d := c.d
	sums := map[balanceKey]*[3]resourceSums{}
	var order []balanceKey
	chk := checker{ctx: c.ctx}
	x := &ctx{rows: []int{0}}
	for acc, ok := range accOK {
		for s := dt; ok && s <= kt; s++ {
			for _, mi := range d.byAcc[acc][s] {
				m := &d.movs[mi]
				if m.period > to || (kind == vtBalance && m.period >= before) {
					break // the lists are ordered by Период
				}
				if kind == vtTurnover && m.period < from {
					continue
				}
				if err := chk.tick(); err != nil {
					return nil, err
				}
				if cond != nil {
					x.rows[0] = int(mi)*2 + s
					v, err := cond(x)
					if err != nil {
						return nil, err
					}
					if !v.isTrue() {
						continue
					}
				}
				k := balanceKey{acc: int16(acc), org: m.org}
				for p := range k.sub {
					k.sub[p] = d.subconto(m, s, p, kinds)
				}
				var curAmount val
				k.cur, curAmount = d.sideCurrency(m, s)
				r := sums[k]
				if r == nil {
					r = &[3]resourceSums{{kept: true}}
					sums[k] = r
					order = append(order, k)
				}
				opening := m.period < before
				r[0].add(numVal(m.amount), s, opening)
				r[1].add(curAmount, s, opening)
				r[2].add(d.sideQuantity(m, s), s, opening)
			}
		}
	}
	var cols []string
	for _, resource := range resources {
		switch kind {
		case vtBalance:
			cols = append(cols, foldAll(resource+"Остаток", resource+"ОстатокДт", resource+"ОстатокКт")...)
		case vtTurnover:
			cols = append(cols, foldAll(resource+"Оборот", resource+"ОборотДт", resource+"ОборотКт")...)
		default:
			cols = append(cols, foldAll(resource+"НачальныйОстаток", resource+"НачальныйОстатокДт", resource+"НачальныйОстатокКт",
				resource+"Оборот", resource+"ОборотДт", resource+"ОборотКт",
				resource+"КонечныйОстаток", resource+"КонечныйОстатокДт", resource+"КонечныйОстатокКт")...)
		}
	}
	var rows [][]val
	for _, k := range order {
		r := sums[k]
		// A row whose resources are all zero is not in the table: Сумма and, on a currency
		// account, ВалютнаяСумма, on a quantity account Количество (a balance of currency
		// without roubles, or of goods written down to nothing, is still a balance).
		if r[0].zero(kind) && r[1].zero(kind) && r[2].zero(kind) {
			continue
		}
		row := []val{refVal(tAcc, int32(k.acc)), refVal(tOrg, k.org), k.sub[0], k.sub[1], k.sub[2], k.cur}
		for i := range r {
			row = append(row, d.resourceColumns(kind, k.acc, &r[i])...)
		}
		rows = append(rows, row)
	}
	return rowsTable(append(append([]string{}, sideCols...), cols...), rows), nil
}

// resourceColumns are one resource's columns of a row of Остатки, Обороты or
// ОстаткиИОбороты: the balance and its Дт and Кт parts (splitBalance), the turnovers; all NULL
// when the row's account does not keep the resource (ВалютнаяСумма off a currency account,
// Количество off a quantity one).
func (d *Demo) resourceColumns(kind vtKind, acc int16, r *resourceSums) []val {
	num := func(n int64) val { return val{k: vNum, n: n} }
	split := func(net int64) []val {
		a, b := d.splitBalance(acc, net)
		return []val{num(net), num(a), num(b)}
	}
	var out []val
	switch kind {
	case vtBalance:
		out = split(r.open)
	case vtTurnover:
		out = []val{num(r.dt - r.kt), num(r.dt), num(r.kt)}
	default:
		out = append(split(r.open), num(r.dt-r.kt), num(r.dt), num(r.kt))
		out = append(out, split(r.open+r.dt-r.kt)...)
	}
	if !r.kept {
		for i := range out {
			out[i] = null
		}
	}
	return out
}

// splitBalance places a net balance as the platform does, by the account's kind (ВидСчета),
// each resource by its own balance (ВалютнаяСумма as Сумма):
// an active account's balance is always in ОстатокДт (negative when «red»), a passive one's
// always in ОстатокКт (negative when the account is overpaid), an active-passive one's by its
// sign. An account the chart lacks is active-passive (accountKind). Every template and the lane
// net Дт − Кт, so the choice changes columns of the virtual table, never a figure of an answer.
func (d *Demo) splitBalance(acc int16, net int64) (dtPart, ktPart int64) {
	switch d.accountKind(int32(acc)) {
	case "Активный":
		return net, 0
	case "Пассивный":
		return 0, -net
	}
	if net > 0 {
		return net, 0
	}
	return 0, -net
}
