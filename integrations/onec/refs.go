package onec

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// ТипОбъекта values of the catalog references the query templates take as parameters.
const (
	TypeOrganization = "СправочникСсылка.Организации"
	TypeCounterparty = "СправочникСсылка.Контрагенты"
	TypeContract     = "СправочникСсылка.ДоговорыКонтрагентов"
	TypeBankAccount  = "СправочникСсылка.БанковскиеСчета"
	TypeCurrency     = "СправочникСсылка.Валюты"
	TypeItem         = "СправочникСсылка.Номенклатура"
	TypeUnit         = "СправочникСсылка.КлассификаторЕдиницИзмерения"
	// TypeDocumentPrefix starts the ТипОбъекта of a document, e.g.
	// "ДокументСсылка.ВводНачальныхОстатков".
	TypeDocumentPrefix = "ДокументСсылка."
)

// dateTimeLayout is the only string form the MCP toolkit turns into a 1C Дата.
const dateTimeLayout = "2006-01-02T15:04:05"

// Ref is a 1C reference as the MCP toolkit serialises it: {"_objectRef": true,
// "УникальныйИдентификатор": …, "ТипОбъекта": …, "Представление": …}.
type Ref struct {
	UUID         string // "УникальныйИдентификатор"
	Type         string // "ТипОбъекта", e.g. TypeCounterparty
	Presentation string // "Представление": a name, or "Ввод остатков СВ00-000001 от 31.12.2024 23:59:59"
}

// Kind is the metadata name after the dot: "Контрагенты", "РеализацияТоваровУслуг".
func (r Ref) Kind() string {
	_, k, _ := strings.Cut(r.Type, ".")
	return k
}

// Param returns the reference in the form a query parameter takes (without the presentation).
func (r Ref) Param() map[string]any {
	return map[string]any{"_objectRef": true, "УникальныйИдентификатор": r.UUID, "ТипОбъекта": r.Type}
}

// RefOf reads a reference value of a result row; ok is false for null and for anything else
// that is not an object reference.
func RefOf(v any) (r Ref, ok bool) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return Ref{}, false
	}
	if flag, _ := m["_objectRef"].(bool); !flag {
		return Ref{}, false
	}
	r.UUID, _ = m["УникальныйИдентификатор"].(string)
	r.Type, _ = m["ТипОбъекта"].(string)
	r.Presentation, _ = m["Представление"].(string)
	return r, r.UUID != ""
}

// DateTimeParam formats t the way the MCP toolkit turns a string into a 1C Дата.
func DateTimeParam(t time.Time) string { return t.Format(dateTimeLayout) }

// AsOfParam is НаДату for balances at the end of day: 00:00:00 of the next day, because
// Остатки(&НаДату) is the balance at the start of that moment.
func AsOfParam(day time.Time) string {
	y, m, d := day.Date()
	return DateTimeParam(time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC))
}

// PeriodStartParam is НачалоПериода: 00:00:00 of the day.
func PeriodStartParam(day time.Time) string {
	y, m, d := day.Date()
	return DateTimeParam(time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
}

// PeriodEndParam is КонецПериода: 23:59:59 of the day, so that the whole day is included.
func PeriodEndParam(day time.Time) string {
	y, m, d := day.Date()
	return DateTimeParam(time.Date(y, m, d, 23, 59, 59, 0, time.UTC))
}

// refTable interns the references of one kind. Entries below known come from the ledger's
// catalog; entries past it are references the register mentions but the catalog lacks (1C
// shows those as "<Объект не найден>").
type refTable struct {
	idx   map[string]int32
	uuids []string
	types []string
	pres  []string
	known int32
	rank  []int32 // position in the table's sort order (see rankBy); -1 sorts before all
}

func newRefTable(n int) *refTable {
	return &refTable{idx: make(map[string]int32, n)}
}

// add registers a catalog entry; it must be called for every catalog row before lookups.
func (t *refTable) add(uuid, typ, pres string) int32 {
	if i, ok := t.idx[uuid]; ok {
		return i
	}
	i := t.push(uuid, typ, pres)
	t.known = i + 1
	return i
}

// intern returns the index of uuid, registering an unknown reference of type typ if needed.
func (t *refTable) intern(uuid, typ string) int32 {
	if i, ok := t.idx[uuid]; ok {
		return i
	}
	return t.push(uuid, typ, "<Объект не найден> ("+uuid+")")
}

// push registers uuid, not registered yet, and returns its index.
func (t *refTable) push(uuid, typ, pres string) int32 {
	i := int32(len(t.uuids))
	t.idx[uuid] = i
	t.uuids = append(t.uuids, uuid)
	t.types = append(t.types, typ)
	t.pres = append(t.pres, pres)
	return i
}

// value is the row value of entry i: an object description, or nil for i < 0.
func (t *refTable) value(i int32) any {
	if i < 0 {
		return nil
	}
	return map[string]any{
		"_objectRef": true,
		"УникальныйИдентификатор": t.uuids[i],
		"ТипОбъекта":              t.types[i],
		"Представление":           t.pres[i],
	}
}

// valueOrNull is entry i, or the query's NULL (WireNull) for i < 0: a ВЫБОР … ИНАЧЕ NULL
// column, or a subconto the account lacks.
func (t *refTable) valueOrNull(i int32) any {
	if i < 0 {
		return WireNull
	}
	return t.value(i)
}

// nameOrNull is the Наименование of entry i: NULL (WireNull) for none and for an object this
// base lacks.
func (t *refTable) nameOrNull(i int32) string {
	if i < 0 || i >= t.known {
		return WireNull
	}
	return t.pres[i]
}

// rankBy fixes the sort order of the entries, so that sorting rows compares integers.
func (t *refTable) rankBy(cmp func(a, b int32) int) {
	order := make([]int32, len(t.uuids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, cmp)
	t.rank = make([]int32, len(order))
	for r, i := range order {
		t.rank[i] = int32(r)
	}
}

// byName orders entries by presentation, then UUID.
func (t *refTable) byName(a, b int32) int {
	return cmp.Or(strings.Compare(t.pres[a], t.pres[b]), strings.Compare(t.uuids[a], t.uuids[b]))
}

// rankOf is the sort rank of entry i (-1 for none, which sorts first like NULL in 1C).
func (t *refTable) rankOf(i int32) int32 {
	if i < 0 {
		return -1
	}
	return t.rank[i]
}

// name is the sort key of entry i ("" for none, which sorts first like NULL in 1C).
func (t *refTable) name(i int32) string {
	if i < 0 {
		return ""
	}
	return t.pres[i]
}

// documentSynonyms are the metadata synonyms 1C puts in front of a document's presentation
// (ВводНачальныхОстатков is «Ввод остатков» in BP 3.0 too).
var documentSynonyms = map[string]string{
	"ПоступлениеНаРасчетныйСчет": "Поступление на расчетный счет",
	"СписаниеСРасчетногоСчета":   "Списание с расчетного счета",
	"РеализацияТоваровУслуг":     "Реализация товаров и услуг",
	"ПоступлениеТоваровУслуг":    "Поступление товаров и услуг",
	"АктСверкиВзаиморасчетов":    "Акт сверки взаиморасчетов",
	"ВводНачальныхОстатков":      "Ввод остатков",
	"КорректировкаДолга":         "Корректировка долга",
	"ПриходныйКассовыйОрдер":     "Приходный кассовый ордер",
	"РасходныйКассовыйОрдер":     "Расходный кассовый ордер",
	"ВозвратТоваровОтПокупателя": "Возврат товаров от покупателя",
	"ВозвратТоваровПоставщику":   "Возврат товаров поставщику",
	"КорректировкаРеализации":    "Корректировка реализации",
	"КорректировкаПоступления":   "Корректировка поступления",
	"СчетФактураВыданный":        "Счет-фактура выданный",
	"СчетФактураПолученный":      "Счет-фактура полученный",
}

// bpDocumentType names a document type of the demo ledger as BP 3.0 does: the ledger's
// opening balances (ВводОстатков) are BP's ВводНачальныхОстатков; the others already agree.
func bpDocumentType(ledgerType string) string {
	if ledgerType == "ВводОстатков" {
		return openingBalancesType
	}
	return ledgerType
}

// documentPresentation is "Реализация товаров и услуг СВ00-000123 от 15.03.2026 12:00:00".
func documentPresentation(typ, number string, date time.Time) string {
	syn, ok := documentSynonyms[typ]
	if !ok {
		syn = typ
	}
	return syn + " " + number + " от " + date.Format("02.01.2006 15:04:05")
}

// normUUID makes a UUID parameter comparable with the ledger's lower-case references.
func normUUID(s string) string { return strings.ToLower(strings.TrimSpace(s)) }
