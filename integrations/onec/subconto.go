package onec

import "strings"

// Subconto of any kind. A record's side keeps its Субконто1–3 as references typed by the
// account's subconto kinds in the chart (ПланСчетов.Хозрасчетный.ВидыСубконто, in its order), so
// the virtual tables and ССЫЛКА see every kind the chart names: counterparties, contracts and
// settlement documents, and also employees on 70/71/73, kinds of budget payments on 68/69, items,
// expense kinds. The kinds the ledger has catalogs of are its own tables; the others are kept
// in one table of references (Demo.others), each with its catalog's name as its type and the
// description the ledger's record gives (Subconto.Name).

// sideKind is one subconto kind of a side: its name, the table its references point into and,
// for the kinds the ledger has no catalog of, the 1C table ("Справочник.ФизическиеЛица").
type sideKind struct {
	name  string
	t     tableID
	table string
}

// kindTables are the value types of BP 3.0's subconto kinds (ПланВидовХарактеристик.
// ВидыСубконтоХозрасчетные, ТипЗначения) that are not catalogs named like the kind.
var kindTables = map[string]string{
	"Работники":              "Справочник.ФизическиеЛица",
	"РаботникиОрганизаций":   "Справочник.ФизическиеЛица",
	"РаботникиОрганизации":   "Справочник.ФизическиеЛица",
	"Номенклатурные группы":  "Справочник.НоменклатурныеГруппы",
	"ВидыПлатежейВГосБюджет": "Перечисление.ВидыПлатежейВГосБюджет",
	"УровниБюджетов":         "Перечисление.УровниБюджетов",
	"СтатьиЗатрат":           "Справочник.СтатьиЗатрат",
}

// kindOf types a subconto kind by name.
func kindOf(name string) sideKind {
	switch name {
	case subcontoCounterparty:
		return sideKind{name, tCp, "Справочник.Контрагенты"}
	case subcontoContract:
		return sideKind{name, tCtr, "Справочник.ДоговорыКонтрагентов"}
	case subcontoDocument, subcontoInvoiceIn, subcontoInvoiceOut:
		return sideKind{name, tDoc, ""}
	case subcontoItem:
		return sideKind{name, tItem, "Справочник.Номенклатура"}
	}
	table, ok := kindTables[name]
	if !ok {
		table = "Справочник." + strings.ReplaceAll(name, " ", "")
	}
	return sideKind{name, tOther, table}
}

// refType is the ТипОбъекта of a reference into table ("Справочник.ФизическиеЛица" →
// "СправочникСсылка.ФизическиеЛица").
func refType(table string) string {
	kind, name, _ := strings.Cut(table, ".")
	return kind + "Ссылка." + name
}

// sideKinds interns the kinds a side's subconto are kept in: the account's kinds in the chart,
// or, for an account the chart lists none for, the record's own in its order.
func (d *Demo) sideKinds(acc string, subs []Subconto) uint16 {
	kinds := d.chartKinds[acc]
	if len(kinds) == 0 {
		kinds = make([]string, len(subs))
		for i, s := range subs {
			kinds[i] = s.Kind
		}
	}
	key := strings.Join(kinds, "\x00")
	if i, ok := d.kindListIdx[key]; ok {
		return i
	}
	list := make([]sideKind, len(kinds))
	for i, k := range kinds {
		list[i] = kindOf(k)
	}
	i := uint16(len(d.kindLists))
	d.kindLists = append(d.kindLists, list)
	d.kindListIdx[key] = i
	return i
}

// sideRefs interns one side's subconto in the positions of its kinds (-1 where the record
// carries no value of a kind; a value of a kind the account has not is dropped, as 1C keeps
// none).
func (d *Demo) sideRefs(kinds []sideKind, subs []Subconto) [3]int32 {
	refs := [3]int32{-1, -1, -1}
	for _, s := range subs {
		for p, k := range kinds {
			if p >= len(refs) || k.name != s.Kind || refs[p] >= 0 {
				continue
			}
			refs[p] = d.subcontoRef(k, s)
			break
		}
	}
	return refs
}

// subcontoRef interns one subconto value into its kind's table.
func (d *Demo) subcontoRef(k sideKind, s Subconto) int32 {
	switch k.t {
	case tCp:
		return d.ref(d.cps, s.Ref, TypeCounterparty)
	case tCtr:
		return d.ref(d.ctrs, s.Ref, TypeContract)
	case tDoc:
		return d.ref(d.docs, s.Ref, TypeDocumentPrefix+"ДокументРасчетовСКонтрагентами")
	case tItem:
		return d.ref(d.items, s.Ref, TypeItem)
	}
	uuid := normUUID(s.Ref)
	if uuid == "" {
		return -1
	}
	if i, ok := d.others.idx[uuid]; ok {
		if d.others.pres[i] == "" && s.Name != "" {
			d.others.pres[i] = s.Name
		}
		return i
	}
	i := d.others.push(uuid, refType(k.table), s.Name)
	d.others.known = i + 1
	return i
}

// subcontoVal is the value at position pos of a side kept in kinds: a reference of the kind's
// type (the empty one where the side has no value), NULL past the kinds.
func (d *Demo) subcontoVal(kinds []sideKind, refs *[3]int32, pos int) val {
	if pos >= len(kinds) || pos >= len(refs) {
		return null
	}
	return kindVal(kinds[pos], refs[pos])
}

// kindVal is a reference of kind k.
func kindVal(k sideKind, n int32) val {
	if k.t == tOther {
		return val{k: vRef, t: tOther, n: int64(n), s: k.table}
	}
	return refVal(k.t, n)
}

// finishOthers names the references of kinds the ledger has no catalog of that no record
// described, and fixes their sort order (by description).
func (d *Demo) finishOthers() {
	for i, p := range d.others.pres {
		if p == "" {
			d.others.pres[i] = "<Объект не найден> (" + d.others.uuids[i] + ")"
		}
	}
	d.others.rankBy(d.others.byName)
}
