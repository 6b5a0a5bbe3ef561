package onec

import (
	"fmt"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// table is a data source while a query runs: a catalog, a document table, the register or one
// of its virtual tables, a nested query's result or a temporary table. Rows are read through
// get, so that the register's records need not be copied into rows.
type table struct {
	cols []string // folded names
	n    int
	get  func(row, col int) val
	// object is the reference table of an object table (a catalog, a document, the chart): its
	// column 0 is Ссылка, and a field that is no column is read through it (Док.Дата).
	object tableID
}

// col is the index of a column by folded name, or -1.
func (t *table) col(name string) int {
	for i, c := range t.cols {
		if c == name {
			return i
		}
	}
	return -1
}

// rowsTable is a table over rows held in memory.
func rowsTable(cols []string, rows [][]val) *table {
	return &table{cols: cols, n: len(rows), get: func(r, c int) val { return rows[r][c] }}
}

// refsTable is an object table listing entries of t.
func refsTable(t tableID, entries []int32) *table {
	return &table{cols: []string{"ССЫЛКА"}, n: len(entries), object: t,
		get: func(r, _ int) val { return refVal(t, entries[r]) }}
}

func foldAll(names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = foldName(n)
	}
	return out
}

// qerr is a query error at a position of the text, in 1C's form.
func qerr(n qlang.Node, format string, a ...any) *QueryError {
	return &QueryError{Message: fmt.Sprintf("{%s}: ", n.Position()) + fmt.Sprintf(format, a...)}
}

// unsupported refuses a construct the evaluator does not execute: loudly, naming it, never by
// answering as if it were not there.
func unsupported(n qlang.Node, construct string) *QueryError {
	return qerr(n, "%s: демо-база не исполняет эту конструкцию языка запросов", construct)
}

// source builds the table of one FROM item (without its joins).
func (c *compiler) source(src *qlang.Source) (*table, error) {
	switch {
	case src.Param != "":
		return nil, unsupported(src, "ИЗ &"+src.Param+" (таблица значений в параметре)")
	case src.Subquery != nil:
		return c.query(src.Subquery)
	case src.Temp != nil:
		t, ok := c.temps[foldName(src.Name())]
		if !ok {
			return nil, qerr(src, "Таблица не найдена \"%s\"", src.Name())
		}
		return t, nil
	}
	name := foldName(src.Name())
	if vt, ok := virtualTables[name]; ok {
		return c.virtualTable(src, vt)
	}
	if src.HasParams {
		return nil, qerr(src, "Таблица %s не имеет параметров", src.Name())
	}
	if name == foldName("РегистрБухгалтерии.Хозрасчетный") {
		return c.d.recordTable(allRecords(c.d), nil), nil
	}
	if t, ok := c.d.objectTable(name); ok {
		return t, nil
	}
	return nil, qerr(src, "Таблица не найдена \"%s\"", src.Name())
}

func allRecords(d *Demo) []int32 {
	out := make([]int32, len(d.movs))
	for i := range out {
		out[i] = int32(i)
	}
	return out
}

// objectTable builds a catalog, a document table, the chart, its subconto kinds, or the
// settlement lines of ВводНачальныхОстатков.
func (d *Demo) objectTable(name string) (*table, bool) {
	ledgerRefs := func(rt *refTable, n int, refOf func(int) string) []int32 {
		out := make([]int32, 0, n)
		for i := range n {
			out = append(out, lookup(rt, refOf(i)))
		}
		return out
	}
	l := d.l
	switch name {
	case foldName("Справочник.Организации"):
		return refsTable(tOrg, ledgerRefs(d.orgs, len(l.Organizations), func(i int) string { return l.Organizations[i].Ref })), true
	case foldName("Справочник.Контрагенты"):
		return refsTable(tCp, ledgerRefs(d.cps, len(l.Counterparties), func(i int) string { return l.Counterparties[i].Ref })), true
	case foldName("Справочник.ДоговорыКонтрагентов"):
		return refsTable(tCtr, ledgerRefs(d.ctrs, len(l.Contracts), func(i int) string { return l.Contracts[i].Ref })), true
	case foldName("Справочник.Номенклатура"):
		return refsTable(tItem, ledgerRefs(d.items, len(l.Items), func(i int) string { return l.Items[i].Ref })), true
	case foldName("Справочник.КлассификаторЕдиницИзмерения"):
		out := make([]int32, d.units.known)
		for i := range out {
			out[i] = int32(i)
		}
		return refsTable(tUnit, out), true
	case foldName("Справочник.БанковскиеСчета"):
		out := make([]int32, d.banks.known)
		for i := range out {
			out[i] = int32(i)
		}
		return refsTable(tBank, out), true
	case foldName("ПланСчетов.Хозрасчетный"):
		out := make([]int32, 0, len(l.Accounts))
		for _, a := range l.Accounts {
			out = append(out, int32(d.accIdx[a.Code]))
		}
		return refsTable(tAcc, out), true
	case foldName("ПланСчетов.Хозрасчетный.ВидыСубконто"):
		var rows [][]val
		for _, a := range l.Accounts {
			for k, kind := range a.Subconto {
				rows = append(rows, []val{refVal(tAcc, int32(d.accIdx[a.Code])), intVal(int64(k + 1)),
					refVal(tKind, d.obj.kindIdx[kind])})
			}
		}
		return rowsTable(foldAll("Ссылка", "НомерСтроки", "ВидСубконто"), rows), true
	case foldName("Документ." + openingBalancesType + ".РасчетыСКонтрагентами"):
		// The ledger keeps one counterparty, contract and amount per opening-balance document:
		// one line each, its amount in Сумма (СуммаКт 0).
		var rows [][]val
		for i := range d.docs.known {
			if d.docType[i] == openingBalancesType {
				rows = append(rows, []val{refVal(tDoc, i), intVal(1), refVal(tCp, d.docCp[i]), refVal(tCtr, d.docCtr[i]),
					numVal(d.docSrc[i].Amount), numZero})
			}
		}
		return rowsTable(foldAll("Ссылка", "НомерСтроки", "Контрагент", "ДоговорКонтрагента", "Сумма", "СуммаКт"), rows), true
	}
	for _, typ := range paymentDocumentTypes {
		if name == foldName("Документ."+typ+".РасшифровкаПлатежа") {
			return d.paymentLines(typ), true
		}
	}
	switch name {
	case foldName("Документ." + debtCorrectionType + ".ДебиторскаяЗадолженность"):
		return d.debtLines(true), true
	case foldName("Документ." + debtCorrectionType + ".КредиторскаяЗадолженность"):
		return d.debtLines(false), true
	}
	for typ := range bpDocumentAttributes {
		if name == foldName("Документ."+typ) {
			var out []int32
			for i := range d.docs.known {
				if d.docType[i] == typ {
					out = append(out, i)
				}
			}
			return refsTable(tDoc, out), true
		}
	}
	return nil, false
}
