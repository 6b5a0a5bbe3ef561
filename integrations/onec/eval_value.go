package onec

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The values of the demo's query evaluator (eval*.go): what a field, a parameter or an
// expression of the 1C query language holds while the demo runs a query's text.

// vkind is the 1C type of a value.
type vkind uint8

const (
	vNull  vkind = iota // NULL: an absent field, a field of NULL, a left join without a match
	vUndef              // НЕОПРЕДЕЛЕНО
	vBool
	vNum  // n holds thousandths (numScale): money to the kopeck, quantities to 1C's Число(15, 3)
	vStr  // s
	vDate // n holds Unix seconds of a zone-less time
	vRef  // t names the table, n the entry (-1 the empty reference, refNothing an object this base lacks)
	vEnum // s holds the full name, e.g. "ВидСчета.Активный"
)

// tableID names the table a reference points into.
type tableID uint8

const (
	tOrg      tableID = iota + 1 // Справочник.Организации
	tCp                          // Справочник.Контрагенты
	tCtr                         // Справочник.ДоговорыКонтрагентов
	tDoc                         // any document (the type is the entry's)
	tBank                        // Справочник.БанковскиеСчета
	tAcc                         // ПланСчетов.Хозрасчетный
	tKind                        // ПланВидовХарактеристик.ВидыСубконтоХозрасчетные
	tCurrency                    // Справочник.Валюты (only their names are in the ledger)
	tItem                        // Справочник.Номенклатура (the ledger's nomenclature, when it has one)
	tUnit                        // Справочник.КлассификаторЕдиницИзмерения (the items' units, by name)
	tOther                       // a catalog the ledger keeps no file of (subconto.go); s names it, n indexes Demo.others
)

// val is one value. It is small and compared by field, so rows are plain []val.
type val struct {
	k vkind
	t tableID
	n int64
	s string
}

var (
	null    = val{}
	vTrue   = val{k: vBool, n: 1}
	vFalse  = val{k: vBool}
	undef   = val{k: vUndef}
	numZero = val{k: vNum}
)

func boolVal(b bool) val {
	if b {
		return vTrue
	}
	return vFalse
}

// numScale is the thousandths in a number of the evaluator: the finest resource of BP's
// Хозрасчетный is Количество, Число(15, 3); money (Число(15, 2)) is a multiple of ten.
const numScale = 1000

func numVal(k Kopecks) val          { return val{k: vNum, n: int64(k) * (numScale / 100)} }
func intVal(n int64) val            { return val{k: vNum, n: n * numScale} }
func qtyVal(q Quantity) val         { return val{k: vNum, n: int64(q) * (numScale / QuantityScale)} }
func strVal(s string) val           { return val{k: vStr, s: s} }
func dateVal(sec int64) val         { return val{k: vDate, n: sec} }
func refVal(t tableID, i int32) val { return val{k: vRef, t: t, n: int64(i)} }
func enumVal(name string) val       { return val{k: vEnum, s: name} }

// isTrue is how WHERE, ПО, ИМЕЮЩИЕ and КОГДА read a condition: only ИСТИНА passes; NULL (an
// unknown comparison) does not.
func (v val) isTrue() bool { return v.k == vBool && v.n != 0 }

// equal is = between two values that are not NULL. Values of different types are never equal
// (a composite field such as Субконто1 compared with a counterparty); a string compared with a
// number or a date is 1C's «Несовместимые типы».
func equal(x, y val) (bool, error) {
	if x.k != y.k {
		if scalarMismatch(x, y) {
			return false, fmt.Errorf("несовместимые типы в сравнении: %s и %s", typeOf(x), typeOf(y))
		}
		return false, nil
	}
	switch x.k {
	case vRef:
		if x.n == int64(refNothing) || y.n == int64(refNothing) {
			return false, nil // an object this base lacks equals nothing here
		}
		return x.t == y.t && x.n == y.n && x.s == y.s, nil
	case vEnum:
		return qlang.EqualNames(x.s, y.s), nil
	case vUndef:
		return true, nil
	}
	return x.n == y.n && x.s == y.s, nil
}

// scalarMismatch: two primitive values of different types cannot be compared in 1C.
func scalarMismatch(x, y val) bool {
	prim := func(k vkind) bool { return k == vBool || k == vNum || k == vStr || k == vDate }
	return prim(x.k) && prim(y.k)
}

// order compares two values for < > <= >= МЕЖДУ: numbers, strings, dates and booleans of the
// same type only.
func order(x, y val) (int, error) {
	if x.k != y.k || x.k == vRef || x.k == vEnum || x.k == vUndef {
		return 0, fmt.Errorf("несовместимые типы в сравнении: %s и %s", typeOf(x), typeOf(y))
	}
	if x.k == vStr {
		return strings.Compare(x.s, y.s), nil
	}
	return cmp.Compare(x.n, y.n), nil
}

func typeOf(v val) string {
	return [...]string{"Null", "Неопределено", "Булево", "Число", "Строка", "Дата", "Ссылка", "Перечисление"}[v.k]
}

// sortCompare orders values for УПОРЯДОЧИТЬ ПО: NULL first, then by type; strings by their
// bytes (the demo's collation), references by their table's sort order (catalogs by name,
// documents by date and number).
func (d *Demo) sortCompare(x, y val) int {
	if x.k != y.k {
		return cmp.Compare(x.k, y.k)
	}
	switch x.k {
	case vStr, vEnum:
		return strings.Compare(x.s, y.s)
	case vRef:
		if c := cmp.Compare(x.t, y.t); c != 0 {
			return c
		}
		if t := d.refs(x.t); t != nil && t.rank != nil && x.n >= 0 && y.n >= 0 {
			return cmp.Compare(t.rank[x.n], t.rank[y.n])
		}
		return cmp.Or(cmp.Compare(x.n, y.n), strings.Compare(x.s, y.s))
	}
	return cmp.Compare(x.n, y.n)
}

// key writes a value into a grouping or distinct key.
func (v val) key(b *strings.Builder) {
	fmt.Fprintf(b, "%d/%d/%d/%s\x00", v.k, v.t, v.n, v.s)
}

// refs is the reference table of t, or nil for the tables the demo keeps no entries of.
func (d *Demo) refs(t tableID) *refTable {
	switch t {
	case tOrg:
		return d.orgs
	case tCp:
		return d.cps
	case tCtr:
		return d.ctrs
	case tDoc:
		return d.docs
	case tBank:
		return d.banks
	case tCurrency:
		return d.curs
	case tItem:
		return d.items
	case tUnit:
		return d.units
	case tOther:
		return d.others
	}
	return nil
}

// wire writes a value the way the MCP toolkit does (wire.go): NULL as "", an empty reference
// as JSON null, a reference as its object description, a number without trailing zeros.
func (d *Demo) wire(v val) (any, error) {
	switch v.k {
	case vNull:
		return WireNull, nil
	case vUndef:
		return nil, nil
	case vBool:
		return v.n != 0, nil
	case vNum:
		return WireQuantity(Quantity(v.n / (numScale / QuantityScale))), nil // shortest, as 1C's Формат
	case vStr:
		return v.s, nil
	case vDate:
		return WireDate(v.n), nil
	case vRef:
		if v.n < 0 {
			return nil, nil
		}
		if t := d.refs(v.t); t != nil {
			return t.value(int32(v.n)), nil
		}
	}
	return nil, fmt.Errorf("значение типа %s: демо-база не умеет передать его в ответе", typeOf(v))
}

// paramVal converts a bound parameter (params.go) into a value.
func paramVal(q qvalue) val {
	if q.null {
		return null
	}
	switch q.kind {
	case kindDate:
		return dateVal(q.date)
	case kindString:
		return strVal(q.str)
	case kindNumber:
		return intVal(q.num)
	}
	switch q.ref.typ {
	case TypeOrganization:
		return refVal(tOrg, q.ref.idx)
	case TypeCounterparty:
		return refVal(tCp, q.ref.idx)
	case TypeContract:
		return refVal(tCtr, q.ref.idx)
	case TypeItem:
		return refVal(tItem, q.ref.idx)
	}
	return refVal(tDoc, refNothing) // a document: this base resolves no document parameter
}
