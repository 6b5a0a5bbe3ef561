package onec

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The objects of the demo base as the query language reads them: the attributes of catalogs,
// documents and accounts that a dereference (Т.Контрагент.Наименование, Т.ДокументРасчетов.Дата)
// or a catalog table reads, from the ledger's files.

// objectIndex maps reference entries back to the ledger's rows and holds what the ledger keeps
// only as names (subconto kinds; currencies are Demo.curs).
type objectIndex struct {
	orgAt, cpAt, ctrAt []int32 // reference entry → index into the ledger's slice (-1: none)
	itemAt             []int32 // Номенклатура entry → index into Ledger.Items (-1: none)
	accChart           int     // the accounts below it are the chart's; the rest only the register names
	accAt              []int32 // account → index into Ledger.Accounts (-1: not in the chart)
	kinds              []string
	kindIdx            map[string]int32
	banksByKey         map[string]int32 // organization entry + "\x00" + number → bank account
}

// indexObjects builds the objectIndex; NewDemo calls it last.
func (d *Demo) indexObjects() {
	o := &objectIndex{kindIdx: map[string]int32{}, banksByKey: map[string]int32{}}
	back := func(t *refTable, n int, refOf func(int) string) []int32 {
		at := make([]int32, len(t.uuids))
		for i := range at {
			at[i] = -1
		}
		for i := range n {
			if j, ok := t.idx[normUUID(refOf(i))]; ok && at[j] < 0 {
				at[j] = int32(i)
			}
		}
		return at
	}
	l := d.l
	o.orgAt = back(d.orgs, len(l.Organizations), func(i int) string { return l.Organizations[i].Ref })
	o.cpAt = back(d.cps, len(l.Counterparties), func(i int) string { return l.Counterparties[i].Ref })
	o.ctrAt = back(d.ctrs, len(l.Contracts), func(i int) string { return l.Contracts[i].Ref })
	o.itemAt = back(d.items, len(l.Items), func(i int) string { return l.Items[i].Ref })
	o.accAt = make([]int32, len(d.accounts))
	for i := range o.accAt {
		o.accAt[i] = -1
	}
	for i, a := range l.Accounts {
		if j := d.accIdx[a.Code]; o.accAt[j] < 0 {
			o.accAt[j] = int32(i)
		}
		for _, k := range a.Subconto {
			o.kind(k)
		}
	}
	o.accChart = len(l.Accounts)
	for i := range d.banks.known {
		o.banksByKey[bankKey(d.bankOrgs[i], d.banks.pres[i])] = i
	}
	d.obj = o
}

func bankKey(org int32, number string) string {
	return fmt.Sprint(org) + "\x00" + strings.TrimSpace(number)
}

// kind interns a subconto kind by name.
func (o *objectIndex) kind(name string) int32 {
	if i, ok := o.kindIdx[name]; ok {
		return i
	}
	o.kinds = append(o.kinds, name)
	o.kindIdx[name] = int32(len(o.kinds) - 1)
	return int32(len(o.kinds) - 1)
}

// currencyOf is the currency named so (-1 for none or one the ledger never names).
func (d *Demo) currencyOf(name string) int32 {
	return lookup(d.curs, currencyUUID(strings.TrimSpace(name)))
}

// errNoField is a field the object has not: 1C's «Поле не найдено».
type errNoField struct{ what, field string }

func (e *errNoField) Error() string {
	return fmt.Sprintf("Поле не найдено \"%s\" (%s)", e.field, e.what)
}

// field reads the attribute name (folded) of a value: NULL for a field of NULL, of an empty
// reference and of an object this base lacks, as 1C's implicit join finds no row for them.
// The attribute must exist for the value's type either way.
func (d *Demo) field(v val, name string) (val, error) {
	switch v.k {
	case vNull:
		return null, nil
	case vRef:
	default:
		return null, &errNoField{typeOf(v), name}
	}
	if name == "ССЫЛКА" {
		return v, nil
	}
	i := int32(v.n)
	switch v.t {
	case tOrg:
		return d.orgField(i, name)
	case tCp:
		return d.cpField(i, name)
	case tCtr:
		return d.ctrField(i, name)
	case tDoc:
		return d.docField(i, name)
	case tBank:
		return d.bankField(i, name)
	case tAcc:
		return d.accField(i, name)
	case tItem:
		return d.itemField(i, name)
	case tUnit:
		return d.unitField(i, name)
	case tKind, tCurrency:
		if name != "НАИМЕНОВАНИЕ" && name != "ПРЕДСТАВЛЕНИЕ" {
			return null, &errNoField{"вид субконто или валюта", name}
		}
		if i < 0 {
			return null, nil
		}
		if v.t == tKind {
			return strVal(d.obj.kinds[i]), nil
		}
		return strVal(d.curs.pres[i]), nil
	}
	if name == "НАИМЕНОВАНИЕ" || name == "ПРЕДСТАВЛЕНИЕ" || name == "КОД" {
		if v.t == tOther && i >= 0 && name != "КОД" {
			return strVal(d.others.pres[i]), nil // a subconto value the record described
		}
		return null, nil // an empty reference of a catalog the ledger has no entries of
	}
	return null, &errNoField{v.s, name}
}

// catalogCommon answers the fields every catalog of the demo has; ok is false for the others.
func catalogCommon(t *refTable, i int32, name string) (val, bool) {
	switch name {
	case "ПРЕДСТАВЛЕНИЕ":
		if i < 0 || i >= t.known {
			return null, true
		}
		return strVal(t.pres[i]), true
	case "ПРЕДОПРЕДЕЛЕННЫЙ": // BP 3.0 has no predefined organizations, counterparties or contracts
		return objFlag(t, i, false), true
	}
	return null, false
}

// objFlag is a boolean attribute of entry i: NULL for none or an object this base lacks.
func objFlag(t *refTable, i int32, b bool) val {
	if i < 0 || i >= t.known {
		return null
	}
	return boolVal(b)
}

func (d *Demo) orgField(i int32, name string) (val, error) {
	if v, ok := catalogCommon(d.orgs, i, name); ok {
		return v, nil
	}
	switch name {
	case "НАИМЕНОВАНИЕ", "ИНН", "КПП", "ПОМЕТКАУДАЛЕНИЯ", "ГОЛОВНАЯОРГАНИЗАЦИЯ", "ОБОСОБЛЕННОЕПОДРАЗДЕЛЕНИЕ":
	default:
		return null, &errNoField{"Справочник.Организации", name}
	}
	if i < 0 || d.obj.orgAt[i] < 0 {
		return null, nil
	}
	o := &d.l.Organizations[d.obj.orgAt[i]]
	switch name {
	case "ГОЛОВНАЯОРГАНИЗАЦИЯ":
		// BP fills ГоловнаяОрганизация always: a head organization refers to itself
		// (Catalogs/Организации/Ext/ObjectModule.bsl, ПередЗаписью), a division to its head.
		if o.HeadRef == "" {
			return refVal(tOrg, i), nil
		}
		return refVal(tOrg, lookup(d.orgs, o.HeadRef)), nil
	case "ОБОСОБЛЕННОЕПОДРАЗДЕЛЕНИЕ":
		return boolVal(o.HeadRef != ""), nil
	}
	return map[string]val{"НАИМЕНОВАНИЕ": strVal(o.Name), "ИНН": strVal(o.INN), "КПП": strVal(o.KPP), "ПОМЕТКАУДАЛЕНИЯ": vFalse}[name], nil
}

func (d *Demo) cpField(i int32, name string) (val, error) {
	if v, ok := catalogCommon(d.cps, i, name); ok {
		return v, nil
	}
	switch name {
	case "КОД", "НАИМЕНОВАНИЕ", "НАИМЕНОВАНИЕПОЛНОЕ", "ИНН", "КПП", "ЮРИДИЧЕСКОЕФИЗИЧЕСКОЕЛИЦО", "ПОМЕТКАУДАЛЕНИЯ", "ЭТОГРУППА":
	default:
		return null, &errNoField{"Справочник.Контрагенты", name}
	}
	if i < 0 || d.obj.cpAt[i] < 0 {
		return null, nil
	}
	k := d.obj.cpAt[i]
	c := &d.l.Counterparties[k]
	switch name {
	case "КОД":
		return strVal(catalogCode(int(k))), nil
	case "НАИМЕНОВАНИЕ":
		return strVal(c.Name), nil
	case "НАИМЕНОВАНИЕПОЛНОЕ":
		return strVal(c.FullName), nil
	case "ИНН":
		return strVal(c.INN), nil
	case "КПП":
		return strVal(c.KPP), nil
	case "ЮРИДИЧЕСКОЕФИЗИЧЕСКОЕЛИЦО": // the ledger's individual entrepreneurs are ФизическоеЛицо in BP
		if c.Kind == "individual_entrepreneur" {
			return enumVal("Перечисление.ЮридическоеФизическоеЛицо.ФизическоеЛицо"), nil
		}
		return enumVal("Перечисление.ЮридическоеФизическоеЛицо.ЮридическоеЛицо"), nil
	case "ПОМЕТКАУДАЛЕНИЯ":
		return boolVal(c.DeletionMark), nil
	}
	return vFalse, nil // ЭтоГруппа: the ledger keeps no groups
}

// contractKindValues maps the ledger's contract kinds onto Перечисление.ВидыДоговоровКонтрагентов.
var contractKindValues = map[string]string{"with_customer": "СПокупателем", "with_supplier": "СПоставщиком"}

func (d *Demo) ctrField(i int32, name string) (val, error) {
	if v, ok := catalogCommon(d.ctrs, i, name); ok {
		return v, nil
	}
	switch name {
	case "КОД", "ВЛАДЕЛЕЦ", "ОРГАНИЗАЦИЯ", "НОМЕР", "ДАТА", "НАИМЕНОВАНИЕ", "ВИДДОГОВОРА", "ВАЛЮТАВЗАИМОРАСЧЕТОВ",
		"ПОМЕТКАУДАЛЕНИЯ", "ЭТОГРУППА", "УСТАНОВЛЕНСРОКОПЛАТЫ", "СРОКОПЛАТЫ":
	default:
		return null, &errNoField{"Справочник.ДоговорыКонтрагентов", name}
	}
	if i < 0 || d.obj.ctrAt[i] < 0 {
		return null, nil
	}
	k := d.obj.ctrAt[i]
	c := &d.l.Contracts[k]
	switch name {
	case "КОД":
		return strVal(catalogCode(int(k))), nil
	case "ВЛАДЕЛЕЦ":
		return refVal(tCp, lookup(d.cps, c.OwnerRef)), nil
	case "ОРГАНИЗАЦИЯ":
		return refVal(tOrg, lookup(d.orgs, c.OrganizationRef)), nil
	case "НОМЕР":
		return strVal(c.Number), nil
	case "ДАТА":
		return dateVal(contractDate(c.Date)), nil
	case "НАИМЕНОВАНИЕ":
		return strVal(c.Name), nil
	case "ВИДДОГОВОРА":
		kind, ok := contractKindValues[c.Kind]
		if !ok {
			kind = "Прочее"
		}
		return enumVal("Перечисление.ВидыДоговоровКонтрагентов." + kind), nil
	case "ВАЛЮТАВЗАИМОРАСЧЕТОВ":
		return refVal(tCurrency, d.currencyOf(c.Currency)), nil
	case "ПОМЕТКАУДАЛЕНИЯ":
		return boolVal(c.DeletionMark), nil
	case "УСТАНОВЛЕНСРОКОПЛАТЫ": // BP's «Установлен срок оплаты по договору»
		return boolVal(c.PaymentTermSet), nil
	case "СРОКОПЛАТЫ": // days after the settlement document; read by BP only with the flag
		return intVal(int64(c.PaymentTermDays)), nil
	}
	return vFalse, nil // ЭтоГруппа
}

// itemField reads an attribute of Справочник.Номенклатура: Код, Наименование,
// НаименованиеПолное (the name: the ledger keeps one), ЕдиницаИзмерения (a reference to
// Справочник.КлассификаторЕдиницИзмерения, empty where the item names no unit),
// ПометкаУдаления, ЭтоГруппа (the ledger keeps no groups).
func (d *Demo) itemField(i int32, name string) (val, error) {
	if v, ok := catalogCommon(d.items, i, name); ok {
		return v, nil
	}
	switch name {
	case "КОД", "НАИМЕНОВАНИЕ", "НАИМЕНОВАНИЕПОЛНОЕ", "ЕДИНИЦАИЗМЕРЕНИЯ", "ПОМЕТКАУДАЛЕНИЯ", "ЭТОГРУППА":
	default:
		return null, &errNoField{"Справочник.Номенклатура", name}
	}
	if i < 0 || d.obj.itemAt[i] < 0 {
		return null, nil
	}
	it := &d.l.Items[d.obj.itemAt[i]]
	switch name {
	case "КОД":
		return strVal(it.Code), nil
	case "НАИМЕНОВАНИЕ", "НАИМЕНОВАНИЕПОЛНОЕ":
		return strVal(it.Name), nil
	case "ЕДИНИЦАИЗМЕРЕНИЯ":
		return refVal(tUnit, lookup(d.units, derivedUUID("Справочник.КлассификаторЕдиницИзмерения/"+strings.TrimSpace(it.Unit)))), nil
	case "ПОМЕТКАУДАЛЕНИЯ":
		return boolVal(it.DeletionMark), nil
	}
	return vFalse, nil // ЭтоГруппа
}

// unitField reads an attribute of Справочник.КлассификаторЕдиницИзмерения: Наименование (the
// short name, «шт»), НаименованиеПолное («Штука»), Код (the ledger keeps no ОКЕИ code: "").
func (d *Demo) unitField(i int32, name string) (val, error) {
	if v, ok := catalogCommon(d.units, i, name); ok {
		return v, nil
	}
	switch name {
	case "КОД", "НАИМЕНОВАНИЕ", "НАИМЕНОВАНИЕПОЛНОЕ", "ПОМЕТКАУДАЛЕНИЯ":
	default:
		return null, &errNoField{"Справочник.КлассификаторЕдиницИзмерения", name}
	}
	if i < 0 || i >= d.units.known {
		return null, nil
	}
	switch name {
	case "КОД":
		return strVal(""), nil
	case "НАИМЕНОВАНИЕ":
		return strVal(d.units.pres[i]), nil
	case "НАИМЕНОВАНИЕПОЛНОЕ":
		for _, it := range d.l.Items {
			if strings.TrimSpace(it.Unit) == d.units.pres[i] && it.UnitFullName != "" {
				return strVal(it.UnitFullName), nil
			}
		}
		return strVal(d.units.pres[i]), nil
	}
	return vFalse, nil // ПометкаУдаления
}

// contractDate reads a contract's date ("2024-02-06"); a contract without one has the empty
// date.
func contractDate(s string) int64 {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return EmptyDateSec
	}
	return t.Unix()
}

// catalogCode is the Код of the i-th entry of a catalog of the demo ledger, which has none: BP
// numbers new entries, unique over the whole catalog; the demo numbers them in the ledger's
// order.
func catalogCode(i int) string { return fmt.Sprintf("%09d", i+1) }

// docStored are the document attributes the ledger keeps; a BP attribute it does not keep is
// refused rather than answered as NULL.
var docStored = []string{"ОРГАНИЗАЦИЯ", "КОНТРАГЕНТ", "ДОГОВОРКОНТРАГЕНТА", "СУММАДОКУМЕНТА", "СЧЕТОРГАНИЗАЦИИ",
	"НАЗНАЧЕНИЕПЛАТЕЖА", "КОММЕНТАРИЙ",
	"КОНТРАГЕНТДЕБИТОР", "КОНТРАГЕНТКРЕДИТОР", "НОМЕРВХОДЯЩЕГОДОКУМЕНТА", "ДАТАВХОДЯЩЕГОДОКУМЕНТА"}

func (d *Demo) docField(i int32, name string) (val, error) {
	switch name {
	case "НОМЕР", "ДАТА", "ПРОВЕДЕН", "ПОМЕТКАУДАЛЕНИЯ", "ПРЕДСТАВЛЕНИЕ":
	default:
		if !slices.Contains(docStored, name) {
			return null, &errNoField{"документ демо-базы", name}
		}
	}
	if i < 0 || i >= d.docs.known {
		return null, nil
	}
	doc := d.docSrc[i]
	switch name {
	case "НОМЕР":
		return strVal(d.docNumber[i]), nil
	case "ДАТА":
		return dateVal(d.docDate[i]), nil
	case "ПРОВЕДЕН":
		return boolVal(doc.Posted), nil
	case "ПОМЕТКАУДАЛЕНИЯ":
		return boolVal(doc.DeletionMark), nil
	case "ПРЕДСТАВЛЕНИЕ":
		return strVal(d.docs.pres[i]), nil
	}
	// A BP attribute the document's type has not is NULL: the field of a composite reference
	// (Регистратор, Субконто3) of another type.
	attrs, ok := bpDocumentAttributes[d.docType[i]]
	if ok && !hasFolded(attrs, name) {
		return null, nil
	}
	switch name {
	case "НОМЕРВХОДЯЩЕГОДОКУМЕНТА", "ДАТАВХОДЯЩЕГОДОКУМЕНТА":
		switch {
		case !ok: // a type the demo keeps no attributes of (ОперацияБух): not BP's incoming document
			return null, nil
		case name == "ДАТАВХОДЯЩЕГОДОКУМЕНТА" && doc.IncomingDate != nil:
			return dateVal(doc.IncomingDate.Unix()), nil
		case name == "ДАТАВХОДЯЩЕГОДОКУМЕНТА":
			return dateVal(EmptyDateSec), nil // 1C's empty date of an attribute left blank
		}
		return strVal(doc.IncomingNumber), nil
	case "ОРГАНИЗАЦИЯ":
		return refVal(tOrg, d.docOrg[i]), nil
	case "КОНТРАГЕНТ", "КОНТРАГЕНТДЕБИТОР", "КОНТРАГЕНТКРЕДИТОР": // a debt correction's one counterparty is both
		return refVal(tCp, d.docCp[i]), nil
	case "ДОГОВОРКОНТРАГЕНТА":
		return refVal(tCtr, d.docCtr[i]), nil
	case "СУММАДОКУМЕНТА":
		return numVal(doc.Amount), nil
	case "СЧЕТОРГАНИЗАЦИИ": // the organization's account the document names, by its number
		if doc.BankAccount == nil {
			return refVal(tBank, -1), nil
		}
		if b, ok := d.obj.banksByKey[bankKey(d.docOrg[i], *doc.BankAccount)]; ok {
			return refVal(tBank, b), nil
		}
		return refVal(tBank, -1), nil
	}
	return strVal(doc.Purpose), nil // НазначениеПлатежа, Комментарий: the ledger keeps one text
}

func hasFolded(list []string, name string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return foldName(s) == name })
}

func (d *Demo) bankField(i int32, name string) (val, error) {
	switch name {
	case "ПРЕДСТАВЛЕНИЕ", "НОМЕРСЧЕТА", "НАИМЕНОВАНИЕ":
		if i < 0 {
			return null, nil
		}
		return strVal(d.banks.pres[i]), nil
	case "ВЛАДЕЛЕЦ", "БАНК", "ВАЛЮТАДЕНЕЖНЫХСРЕДСТВ", "ПОМЕТКАУДАЛЕНИЯ":
	default:
		return null, &errNoField{"Справочник.БанковскиеСчета", name}
	}
	if i < 0 {
		return null, nil
	}
	switch name {
	case "ВЛАДЕЛЕЦ":
		return refVal(tOrg, d.bankOrgs[i]), nil
	case "БАНК": // the ledger names no bank
		return val{k: vRef, t: tOther, n: -1, s: "Справочник.Банки"}, nil
	case "ВАЛЮТАДЕНЕЖНЫХСРЕДСТВ": // the ledger's accounts are rouble accounts
		return refVal(tCurrency, d.currencyOf("RUB")), nil
	}
	return vFalse, nil
}

// accountKindValues maps the chart's types onto ВидСчета.
var accountKindValues = map[string]string{"active": "Активный", "passive": "Пассивный", "active_passive": "АктивноПассивный"}

// accountKind is an account's ВидСчета; an account the chart lacks (or types otherwise) is
// active-passive, its balance split by sign.
func (d *Demo) accountKind(i int32) string {
	if at := d.obj.accAt[i]; at >= 0 {
		if k, ok := accountKindValues[d.l.Accounts[at].Type]; ok {
			return k
		}
	}
	return "АктивноПассивный"
}

func (d *Demo) accField(i int32, name string) (val, error) {
	if i < 0 {
		switch name {
		case "КОД", "НАИМЕНОВАНИЕ", "ВИД", "ЗАБАЛАНСОВЫЙ", "ПОМЕТКАУДАЛЕНИЯ", "ПРЕДСТАВЛЕНИЕ", "ВАЛЮТНЫЙ", "КОЛИЧЕСТВЕННЫЙ":
			return null, nil
		}
		return null, &errNoField{"ПланСчетов.Хозрасчетный", name}
	}
	switch name {
	case "КОД", "ПРЕДСТАВЛЕНИЕ":
		return strVal(d.accounts[i]), nil
	case "НАИМЕНОВАНИЕ":
		if at := d.obj.accAt[i]; at >= 0 {
			return strVal(d.l.Accounts[at].Name), nil
		}
		return strVal(""), nil
	case "ВИД":
		return enumVal("ВидСчета." + d.accountKind(i)), nil
	case "ЗАБАЛАНСОВЫЙ", "ПОМЕТКАУДАЛЕНИЯ": // the demo chart has no off-balance accounts
		return vFalse, nil
	case "ВАЛЮТНЫЙ": // the признак учёта: Валюта and ВалютнаяСумма are kept on the account
		return boolVal(d.curAcc[i]), nil
	case "КОЛИЧЕСТВЕННЫЙ": // the признак учёта: Количество is kept on the account
		return boolVal(d.qtyAcc[i]), nil
	}
	return null, &errNoField{"ПланСчетов.Хозрасчетный", name}
}

// accountKinds are the subconto kinds of account i in the chart's order; nil when the chart
// lists none (the register's records then carry their own, in their order).
func (d *Demo) accountKinds(i int16) []string {
	if at := d.obj.accAt[i]; at >= 0 && len(d.l.Accounts[at].Subconto) > 0 {
		return d.l.Accounts[at].Subconto
	}
	return nil
}

// inHierarchy: account x is y or one of its sub-accounts (62.01 is under 62); for the other
// references, which the demo keeps without groups, x is y.
func (d *Demo) inHierarchy(x, y val) bool {
	if x.k != vRef || y.k != vRef || x.t != y.t || x.n < 0 || y.n < 0 {
		return false
	}
	if x.n == y.n {
		return true
	}
	return x.t == tAcc && strings.HasPrefix(d.accounts[x.n], d.accounts[y.n]+".")
}
