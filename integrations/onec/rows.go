package onec

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Typed rows: what a whitelisted template answers, decoded once, here. The toolkit's wire rows
// (map[string]any in the forms of wire.go) never leave this package: a caller runs a template
// by its ID through a Source and reads the typed rows of its family (Result). Which family a
// template answers in is fixed by the whitelist (template.rows).

// Wire runs a whitelisted query text and answers in the toolkit's wire forms: *Demo and *Proxy.
type Wire interface {
	Name() string
	Execute(ctx context.Context, query string, params map[string]any, limit int) ([]map[string]any, error)
}

// Source runs a whitelisted template by ID and returns its typed rows: *Demo, *Proxy and
// *Client satisfy it.
type Source interface {
	Name() string
	Query(ctx context.Context, id string, params Params, limit int) (*Result, error)
}

// Params are a template's &Parameters, bound as the toolkit takes them: a date as
// "YYYY-MM-DDTHH:MM:SS", a reference as Ref.Param, an absent optional anchor as nil (JSON null).
type Params map[string]any

// Client puts the typed rows on any Wire (a test double of the toolkit, say).
type Client struct{ w Wire }

// NewClient wraps a wire-level executor.
func NewClient(w Wire) *Client { return &Client{w: w} }

// Name says where the answers come from.
func (c *Client) Name() string { return c.w.Name() }

// Query runs the template and decodes its rows.
func (c *Client) Query(ctx context.Context, id string, params Params, limit int) (*Result, error) {
	return query(ctx, c.w, id, params, limit)
}

// Query runs a whitelisted template on the demo base and decodes its rows.
func (d *Demo) Query(ctx context.Context, id string, params Params, limit int) (*Result, error) {
	return query(ctx, d, id, params, limit)
}

// Query runs a whitelisted template through the toolkit proxy and decodes its rows.
func (p *Proxy) Query(ctx context.Context, id string, params Params, limit int) (*Result, error) {
	return query(ctx, p, id, params, limit)
}

func query(ctx context.Context, w Wire, id string, params Params, limit int) (*Result, error) {
	t, ok := templateByID[id]
	if !ok {
		return nil, fmt.Errorf("onec: no whitelisted query %q", id)
	}
	wire, err := w.Execute(ctx, t.text, params, limit)
	if err != nil {
		return nil, err
	}
	return Decode(id, wire)
}

// RowKind is the family of typed rows a template answers in.
type RowKind int

const (
	rowsNone           RowKind = iota
	RowsBalance                // BalanceRow: balances (Остатки), per settlement document where the account has one
	RowsMovement               // MovementRow: register records (Движения)
	RowsDocument               // DocumentRow: document headers
	RowsSheet                  // SheetRow: the turnover sheet
	RowsCardTotals             // CardTotalsRow: the account card's opening, turnovers and closing
	RowsFirstPosting           // FirstPostingRow: the date of the register's first record
	RowsOrganization           // OrganizationRow
	RowsCounterparty           // CounterpartyRow
	RowsContract               // ContractRow
	RowsAccount                // AccountRow
	RowsBankAccount            // BankAccountRow
	RowsAging                  // AgingRow: debts by days overdue (queries_aging.go)
	RowsReconciliation         // ReconciliationRow: the lines of an act of reconciliation (queries_reconcile.go)
	RowsStock                  // StockRow: the quantity accounts' balance per item (queries_stock.go)
	RowsItem                   // ItemRow: Справочник.Номенклатура (a catalog, read in pages)
)

// RowKindOf says which family a whitelisted template answers in.
func RowKindOf(id string) (RowKind, bool) {
	t, ok := templateByID[id]
	if !ok {
		return rowsNone, false
	}
	return t.rows, true
}

// Reasons a wire row is not read (Result.Dropped).
const (
	DropNoPeriodRegistrar = "missing_period_and_registrator_fields"
	DropNoPeriod          = "missing_period_field"
	DropNoRegistrar       = "missing_registrator_field"
	DropUnknownShape      = "unknown_row_shape"
)

// Result is a template's answer as typed rows: the slice of the template's family is filled.
type Result struct {
	ID   string
	Kind RowKind
	// Fetched counts the rows on the wire, JSON null ones included. The toolkit stops at the
	// limit and says nothing: Fetched == limit may be a cut result.
	Fetched int
	// Received counts the rows that were not JSON null.
	Received int
	// Columns are the first non-null row's columns, sorted (a debug sample of the shape).
	Columns []string
	// Dropped counts the rows that could not be read, by reason (Drop*). Catalog rows are never
	// dropped: an unreadable value reads as empty.
	Dropped map[string]int

	Balances       []BalanceRow
	Movements      []MovementRow
	Documents      []DocumentRow
	Sheet          []SheetRow
	CardTotals     []CardTotalsRow
	FirstPosting   []FirstPostingRow
	Organizations  []OrganizationRow
	Counterparties []CounterpartyRow
	Contracts      []ContractRow
	Accounts       []AccountRow
	BankAccounts   []BankAccountRow
	Aging          []AgingRow
	Reconciliation []ReconciliationRow
	Stock          []StockRow
	Items          []ItemRow
}

// BalanceRow is a settlement balance (address.payables…, receivables…, account.balance_snapshot).
type BalanceRow struct {
	Account                                    string // Счет: its code
	Counterparty, Contract, SettlementDocument Ref
	DocumentDate                               time.Time // ДокументРасчетовДата; zero when none
	DocumentNumber                             string
	Debit, Credit                              Kopecks // СуммаОстатокДт, СуммаОстатокКт (NULL is 0)
	// Documents is КоличествоДокументов of the counterparty totals (its open settlement
	// documents, counted in 1C); 0 elsewhere.
	Documents int
	// Currency is the row's Валюта where the account keeps currency accounting (60.21, 62.21,
	// 52: the chart's «Валютный»), by its name ("USD"); "" on a rouble account (NULL) and where
	// a record gave none (the empty reference). A settlement template has a row per currency.
	Currency string
	// CurrencyDebit and CurrencyCredit are ВалютнаяСуммаОстатокДт and …Кт, the balance in
	// Currency (NULL, on a rouble account, is 0).
	CurrencyDebit, CurrencyCredit Kopecks
}

// CurrencyNet is the balance in Currency, Дт − Кт.
func (r BalanceRow) CurrencyNet() Kopecks { return r.CurrencyDebit - r.CurrencyCredit }

// Net is the balance Дт − Кт.
func (r BalanceRow) Net() Kopecks { return r.Debit - r.Credit }

// MovementRow is a record of the accounting register (balance drilldown, account card).
type MovementRow struct {
	Period                 time.Time
	Registrar              Ref
	Number                 string // РегистраторНомер
	AccountDr, AccountCr   string
	PartyDr, PartyCr       Ref
	ContractDr, ContractCr Ref
	Amount                 Kopecks
	// The account card's item and quantity of each side (address.account_card.movements): the
	// side's item of the nomenclature and its unit, its Количество; QtyKeptDr/Kt are false where
	// it was NULL (an account without quantity accounting).
	ItemDr, ItemCr       Ref
	UnitDr, UnitCr       string
	QtyDr, QtyCr         Quantity
	QtyKeptDr, QtyKeptCr bool
}

// DocumentRow is a document header (documents and bank operations).
type DocumentRow struct {
	Ref                    Ref
	Number                 string
	Date                   time.Time
	Posted, Deleted        bool
	Counterparty, Contract Ref
	Amount                 Kopecks
	BankAccount            string
	Purpose                string
}

// SheetRow is a line of the turnover sheet: by account (Account, OffBalance), by counterparty
// (Counterparty) or by contract (Counterparty, Contract).
type SheetRow struct {
	Account                 string
	OffBalance              bool
	Counterparty, Contract  Ref
	OpenDebit, OpenCredit   Kopecks
	Debit, Credit           Kopecks
	CloseDebit, CloseCredit Kopecks
}

// CardTotalsRow is the account card's opening balance, turnovers and closing balance.
type CardTotalsRow struct {
	Opening, Debit, Credit, Closing Kopecks
}

// FirstPostingRow is register.first_posting: the Период of the register's first active record;
// zero when the register has none (the query's NULL).
type FirstPostingRow struct {
	Period time.Time
}

// AgingRow is a counterparty's (or a contract's) debt at a date by days overdue
// (address.aging.*): Intervals[0] is not yet due, Intervals[i] overdue up to the i-th bound of
// days, the last past the last bound; they add up to Debt.
type AgingRow struct {
	Counterparty, Contract Ref // Contract is empty in the rows per counterparty
	Debt                   Kopecks
	Intervals              [AgingColumns]Kopecks
	// TermDays is the payment term applied (the largest, over a counterparty's contracts);
	// OwnTerm is set where it is the contract's own (УстановленСрокОплаты).
	TermDays int
	OwnTerm  bool
	// Documents counts the open debt documents; EarliestDue is the earliest due date among them
	// (zero where the base keeps no documents).
	Documents   int
	EarliestDue time.Time
}

// ReconciliationRow is a line of an act of reconciliation (address.reconciliation.lines): one
// registrar of the period, its movements on the counterparty's settlement lines.
type ReconciliationRow struct {
	Registrar Ref       // Регистратор: its Type names the document («ДокументСсылка.РеализацияТоваровУслуг»)
	Date      time.Time // Дата: the registrar's records' Период (the earliest)
	Number    string    // Номер: the registrar's number as 1C keeps it («СВ00-000015»)
	Account   string    // Счет: the settlement account it moved (the greatest code, when several)
	// Debit increases the counterparty's debt to us, Credit decreases it (a return to a
	// supplier is a negative credit, as BP prints it).
	Debit, Credit Kopecks
	// IncomingNumber and IncomingDate: НомерВходящегоДокумента and ДатаВходящегоДокумента of a
	// purchase or a bank document, the counterparty's own number and date ("" and zero where the
	// document has none or they are empty).
	IncomingNumber string
	IncomingDate   time.Time
}

// StockRow is the balance of a quantity account per item (address.stock.balance): its sum and
// its quantity, in the item's unit of measure.
type StockRow struct {
	Account string // Счет: its code
	Item    Ref    // Номенклатура; empty for the lines without one
	Unit    string // ЕдиницаИзмерения.Наименование: «шт», «кг»; "" where the item names none
	Amount  Kopecks
	// Quantity is КоличествоОстаток; Counted is false where it was NULL (an account that keeps
	// no quantity: the template reads only those that do, so a NULL is a base that differs).
	Quantity Quantity
	Counted  bool
}

// ItemRow is Справочник.Номенклатура.
type ItemRow struct {
	Ref                  Ref
	Code, Name, FullName string
	Unit                 string // the unit's short name, «шт»; "" for none
	Deleted              bool
}

// OrganizationRow is Справочник.Организации.
type OrganizationRow struct {
	Ref       Ref
	Name, INN string
	KPP       string
	// Head is ГоловнаяОрганизация: the organization itself for a head organization (BP fills it
	// so), its head for an обособленное подразделение; empty where a base leaves it unfilled.
	Head Ref
}

// Division reports whether the organization is an обособленное подразделение of another.
func (o OrganizationRow) Division() bool {
	return strings.Trim(o.Head.UUID, "0-") != "" && normUUID(o.Head.UUID) != normUUID(o.Ref.UUID)
}

// CounterpartyRow is Справочник.Контрагенты.
type CounterpartyRow struct {
	Ref                       Ref
	Code, Name, FullName, INN string
	KPP                       string
	Deleted                   bool
}

// ContractRow is Справочник.ДоговорыКонтрагентов.
type ContractRow struct {
	Ref                 Ref
	Code, Name, Number  string
	Owner, Organization Ref
	Date                time.Time // zero when none
	Deleted             bool
	// TermSet is УстановленСрокОплаты («Установлен срок оплаты по договору»); TermDays is
	// СрокОплаты, the payment term in days, which BP applies only when TermSet is.
	TermSet  bool
	TermDays int
}

// AccountRow is an account of ПланСчетов.Хозрасчетный.
type AccountRow struct {
	Code, Name string
	Kind       string   // Вид: Активный, Пассивный, АктивноПассивный
	Subconto   []string // ВидыСубконто, in order
	// ByDocuments: settlements are kept per settlement document (УчетПоДокументамРасчетов).
	ByDocuments bool
	// Quantity: the account keeps quantity accounting (the chart's признак учёта
	// Количественный): Количество is a figure of its balance.
	Quantity bool
}

// BankAccountRow is Справочник.БанковскиеСчета.
type BankAccountRow struct {
	Ref, Owner             Ref
	Number, Bank, Currency string
	Deleted                bool
}

// Decode reads a whitelisted template's wire rows into its typed rows. Rows that cannot be
// read are counted in Dropped, as the lane has always counted them.
func Decode(id string, wire []map[string]any) (*Result, error) {
	kind, ok := RowKindOf(id)
	if !ok {
		return nil, fmt.Errorf("onec: no whitelisted query %q", id)
	}
	res := &Result{ID: id, Kind: kind, Fetched: len(wire), Dropped: map[string]int{}}
	catalog := kind >= RowsOrganization && kind <= RowsBankAccount || kind == RowsItem
	for _, r := range wire {
		if r == nil {
			if catalog { // an empty catalog row reads as empty, as it always has
				res.decodeCatalog(r)
			}
			continue
		}
		if res.Received == 0 {
			res.Columns = columns(r)
		}
		res.Received++
		if catalog {
			res.decodeCatalog(r)
			continue
		}
		if reason := res.decode(r); reason != "" {
			res.Dropped[reason]++
		}
	}
	return res, nil
}

// decode reads one recipe or report row; the reason it could not, else "".
func (res *Result) decode(r map[string]any) string {
	switch res.Kind {
	case RowsBalance:
		dt, ok1 := amount(r["СуммаОстатокДт"])
		kt, ok2 := amount(r["СуммаОстатокКт"])
		acc := str(r["Счет"])
		if acc == "" || !ok1 || !ok2 || (isNull(r["СуммаОстатокДт"]) && isNull(r["СуммаОстатокКт"])) {
			return DropUnknownShape
		}
		curDt, ok1 := amount(r["ВалютнаяСуммаОстатокДт"])
		curKt, ok2 := amount(r["ВалютнаяСуммаОстатокКт"])
		if !ok1 || !ok2 {
			return DropUnknownShape
		}
		date, _ := rowDate(r["ДокументРасчетовДата"])
		res.Balances = append(res.Balances, BalanceRow{Account: acc, Debit: dt, Credit: kt,
			Counterparty: ref(r["Контрагент"]), Contract: ref(r["Договор"]), SettlementDocument: ref(r["ДокументРасчетов"]),
			DocumentDate: date, DocumentNumber: str(r["ДокументРасчетовНомер"]), Documents: count(r["КоличествоДокументов"]),
			Currency: ref(r["Валюта"]).Presentation, CurrencyDebit: curDt, CurrencyCredit: curKt})
	case RowsMovement:
		period, hasPeriod := rowDate(r["Период"])
		reg, hasReg := RefOf(r["Регистратор"])
		switch {
		case !hasPeriod && !hasReg:
			return DropNoPeriodRegistrar
		case !hasPeriod:
			return DropNoPeriod
		case !hasReg:
			return DropNoRegistrar
		}
		sum, ok := amount(r["Сумма"])
		if !ok {
			return DropUnknownShape
		}
		row := MovementRow{Period: period, Registrar: reg, Number: str(r["РегистраторНомер"]),
			AccountDr: str(r["СчетДт"]), AccountCr: str(r["СчетКт"]), Amount: sum,
			PartyDr: ref(r["КонтрагентДт"]), PartyCr: ref(r["КонтрагентКт"]), ContractDr: ref(r["ДоговорДт"]), ContractCr: ref(r["ДоговорКт"]),
			ItemDr: ref(r["НоменклатураДт"]), ItemCr: ref(r["НоменклатураКт"]), UnitDr: str(r["ЕдиницаДт"]), UnitCr: str(r["ЕдиницаКт"])}
		var nullDr, nullCr, okDr, okCr bool
		row.QtyDr, nullDr, okDr = quantity(r["КоличествоДт"])
		row.QtyCr, nullCr, okCr = quantity(r["КоличествоКт"])
		if !okDr || !okCr {
			return DropUnknownShape
		}
		row.QtyKeptDr, row.QtyKeptCr = !nullDr, !nullCr
		res.Movements = append(res.Movements, row)
	case RowsDocument:
		doc, ok := RefOf(r["Ссылка"])
		date, okDate := rowDate(r["Дата"])
		sum, okAmount := amount(r["СуммаДокумента"])
		if !ok || !okDate || !okAmount {
			return DropUnknownShape
		}
		res.Documents = append(res.Documents, DocumentRow{Ref: doc, Number: str(r["Номер"]), Date: date, Posted: boolOf(r["Проведен"]),
			Deleted: boolOf(r["ПометкаУдаления"]), Amount: sum, BankAccount: str(r["БанковскийСчет"]), Purpose: str(r["НазначениеПлатежа"]),
			Counterparty: ref(r["Контрагент"]), Contract: ref(r["Договор"])})
	case RowsSheet:
		row := SheetRow{Account: str(r["Счет"]), OffBalance: boolOf(r["Забалансовый"]), Counterparty: ref(r["Контрагент"]), Contract: ref(r["Договор"])}
		if !amounts(r, map[string]*Kopecks{"НачальныйОстатокДт": &row.OpenDebit, "НачальныйОстатокКт": &row.OpenCredit,
			"ОборотДт": &row.Debit, "ОборотКт": &row.Credit, "КонечныйОстатокДт": &row.CloseDebit, "КонечныйОстатокКт": &row.CloseCredit}) {
			return DropUnknownShape
		}
		res.Sheet = append(res.Sheet, row)
	case RowsCardTotals:
		var row CardTotalsRow
		if !amounts(r, map[string]*Kopecks{"НачальноеСальдо": &row.Opening, "ОборотДт": &row.Debit, "ОборотКт": &row.Credit,
			"КонечноеСальдо": &row.Closing}) {
			return DropUnknownShape
		}
		res.CardTotals = append(res.CardTotals, row)
	case RowsAging:
		row := AgingRow{Counterparty: ref(r["Контрагент"]), Contract: ref(r["Договор"]), TermDays: count(r["СрокОплатыДней"]),
			OwnTerm: count(r["СрокПоДоговору"]) > 0, Documents: count(r["КоличествоДокументов"])}
		row.EarliestDue, _ = rowDate(r["СамыйРаннийСрок"])
		cells := map[string]*Kopecks{"Долг": &row.Debt}
		for i := range row.Intervals {
			cells["Интервал"+strconv.Itoa(i)] = &row.Intervals[i]
		}
		if row.Counterparty.UUID == "" || !amounts(r, cells) {
			return DropUnknownShape
		}
		res.Aging = append(res.Aging, row)
	case RowsReconciliation:
		reg, hasReg := RefOf(r["Регистратор"])
		date, hasDate := rowDate(r["Дата"])
		row := ReconciliationRow{Registrar: reg, Date: date, Number: str(r["Номер"]), Account: str(r["Счет"]),
			IncomingNumber: strings.TrimSpace(str(r["НомерВходящегоДокумента"]))}
		if in, ok := rowDate(r["ДатаВходящегоДокумента"]); ok && in.Year() > 1 {
			row.IncomingDate = in
		}
		switch {
		case !hasReg:
			return DropNoRegistrar
		case !hasDate:
			return DropNoPeriod
		case !amounts(r, map[string]*Kopecks{"Дебет": &row.Debit, "Кредит": &row.Credit}):
			return DropUnknownShape
		}
		res.Reconciliation = append(res.Reconciliation, row)
	case RowsStock:
		sum, ok := amount(r["СуммаОстаток"])
		q, null, okQ := quantity(r["КоличествоОстаток"])
		acc := str(r["Счет"])
		if acc == "" || !ok || !okQ {
			return DropUnknownShape
		}
		res.Stock = append(res.Stock, StockRow{Account: acc, Item: ref(r["Номенклатура"]), Unit: strings.TrimSpace(str(r["ЕдиницаИзмерения"])),
			Amount: sum, Quantity: q, Counted: !null})
	case RowsFirstPosting:
		v, has := r["Период"]
		period, ok := rowDate(v)
		if !has || !ok && !isNull(v) {
			return DropUnknownShape // an empty register is NULL; anything else unreadable is no answer
		}
		res.FirstPosting = append(res.FirstPosting, FirstPostingRow{Period: period})
	default:
		return DropUnknownShape
	}
	return ""
}

// decodeCatalog reads one catalog row; a catalog row is never dropped.
func (res *Result) decodeCatalog(r map[string]any) {
	switch res.Kind {
	case RowsOrganization:
		res.Organizations = append(res.Organizations, OrganizationRow{Ref: ref(r["Ссылка"]), Name: str(r["Наименование"]), INN: str(r["ИНН"]), KPP: str(r["КПП"]), Head: ref(r["ГоловнаяОрганизация"])})
	case RowsCounterparty:
		res.Counterparties = append(res.Counterparties, CounterpartyRow{Ref: ref(r["Ссылка"]), Code: str(r["Код"]), Name: str(r["Наименование"]),
			FullName: str(r["НаименованиеПолное"]), INN: str(r["ИНН"]), KPP: str(r["КПП"]), Deleted: boolOf(r["ПометкаУдаления"])})
	case RowsContract:
		date, _ := rowDate(r["Дата"])
		res.Contracts = append(res.Contracts, ContractRow{Ref: ref(r["Ссылка"]), Code: str(r["Код"]), Name: str(r["Наименование"]),
			Number: str(r["Номер"]), Owner: ref(r["Владелец"]), Organization: ref(r["Организация"]), Date: date, Deleted: boolOf(r["ПометкаУдаления"]),
			TermSet: boolOf(r["УстановленСрокОплаты"]), TermDays: count(r["СрокОплаты"])})
	case RowsAccount:
		var kinds []string
		for s := range strings.SplitSeq(str(r["ВидыСубконто"]), ",") {
			if s = strings.TrimSpace(s); s != "" {
				kinds = append(kinds, s)
			}
		}
		res.Accounts = append(res.Accounts, AccountRow{Code: str(r["Код"]), Name: str(r["Наименование"]), Kind: str(r["Вид"]),
			Subconto: kinds, ByDocuments: boolOf(r["УчетПоДокументамРасчетов"]), Quantity: boolOf(r["Количественный"])})
	case RowsItem:
		res.Items = append(res.Items, ItemRow{Ref: ref(r["Ссылка"]), Code: str(r["Код"]), Name: str(r["Наименование"]),
			FullName: str(r["НаименованиеПолное"]), Unit: strings.TrimSpace(str(r["ЕдиницаИзмерения"])), Deleted: boolOf(r["ПометкаУдаления"])})
	case RowsBankAccount:
		res.BankAccounts = append(res.BankAccounts, BankAccountRow{Ref: ref(r["Ссылка"]), Owner: ref(r["Владелец"]),
			Number: strings.TrimSpace(str(r["НомерСчета"])), Bank: str(r["Банк"]), Currency: str(r["ВалютаДенежныхСредств"]),
			Deleted: boolOf(r["ПометкаУдаления"])})
	}
}

// HasSubconto reports whether the account carries a subconto of the kind (a name such as
// "Контрагенты", matched as a part of the kind's name).
func (a AccountRow) HasSubconto(kind string) bool {
	return slices.ContainsFunc(a.Subconto, func(s string) bool { return strings.Contains(s, kind) })
}

// columns is the sorted key set of a wire row.
func columns(r map[string]any) []string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ref is RefOf for an optional reference: UUID empty when there is none.
func ref(v any) Ref {
	r, _ := RefOf(v)
	return r
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

// amount reads an amount exactly: json.Number or a decimal string (float64 only from foreign
// decoders, formatted shortest-exact before parsing). A NULL, which the toolkit writes as ""
// (and JSON null), is zero.
func amount(v any) (Kopecks, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		if x == WireNull {
			return 0, true
		}
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return Kopecks(x) * 100, true
	case nil:
		return 0, true
	default:
		return 0, false
	}
	k, err := ParseKopecks(s)
	return k, err == nil
}

// amounts reads the named amounts of a row into dst; false when any is unreadable.
func amounts(r map[string]any, dst map[string]*Kopecks) bool {
	ok := true
	for key, p := range dst {
		v, good := amount(r[key])
		*p, ok = v, ok && good
	}
	return ok
}

func boolOf(v any) bool { b, _ := v.(bool); return b }

// rowDate reads a date of a row: the toolkit's "2026-03-31T00:00:00Z" (DateOf), or a bare
// "2026-03-31". The empty date ("Z") and NULL ("") are no date.
func rowDate(v any) (time.Time, bool) {
	if t, ok := DateOf(v); ok {
		return t, true
	}
	if t, err := time.Parse(time.DateOnly, str(v)); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// isNull reports a NULL of the query: JSON null, or the toolkit's "" (Строка(Null)).
func isNull(v any) bool { return v == nil || v == WireNull }

// count reads a whole number of a row (КОЛИЧЕСТВО): 0 for NULL or what is not one.
func count(v any) int {
	n, err := strconv.Atoi(strings.TrimSpace(str(v)))
	if err != nil || n < 0 {
		return 0
	}
	return n
}
