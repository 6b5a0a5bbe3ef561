package onec

import (
	"cmp"
	"context"
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/finbot/finbot/integrations/onec/qlang"
	"github.com/finbot/finbot/ru"
)

// Demo answers the whitelisted queries over an in-memory ledger by running their text: it
// accepts only the exact template texts (see Query), checks them against BP 3.0's tables and
// document fields (standin.go), evaluates the query language over the ledger's catalogs,
// documents and accounting register with 1C's Null semantics (eval*.go), checks parameters
// the way the toolkit hands them over, and returns rows as the MCP
// toolkit writes them (wire.go): references as object descriptions, a NULL as "", dates as
// "YYYY-MM-DDTHH:MM:SSZ", amounts as json.Number without trailing zeros. It is safe for
// concurrent use.
type Demo struct {
	l    *Ledger
	name string // what Name says: which demo base answers

	orgs, cps, ctrs, docs *refTable

	// Settlement accounts of our organizations (catalog.bank_accounts), in the template's order.
	banks    *refTable
	bankOrgs []int32 // bank account → its organization

	// Per document index (catalog entries only; unknown documents have zero values).
	docSrc    []*Document
	docDate   []int64
	docNumber []string
	docType   []string
	docOrg    []int32
	docCp     []int32
	docCtr    []int32

	accounts []string         // account codes: the chart, then codes only the register uses
	accIdx   map[string]int16 // code → index into accounts
	// curAcc marks the accounts the chart keeps currency accounting on (Валютный): only their
	// records carry Валюта and ВалютнаяСумма (eval_register.go); qtyAcc those it keeps quantity
	// accounting on (Количественный): only theirs carry Количество.
	curAcc, qtyAcc []bool

	curs *refTable // Справочник.Валюты: the currencies the ledger names (contracts, records)
	// items is Справочник.Номенклатура (the ledger's nomenclature, the subconto Номенклатура of
	// the quantity accounts); units Справочник.КлассификаторЕдиницИзмерения, the items' units of
	// measure by name (the ledger names units only, so the demo derives their UUIDs).
	items, units *refTable

	movs  []mov        // register records of posted documents, by Период
	byAcc [][2][]int32 // account → [Дт, Кт] → records with the account on that side, by Период

	// kindLists are the lists of subconto kinds the records' sides are kept in (mov.kinds):
	// the account's kinds in the chart, else the record's own (subconto.go).
	kindLists   [][]sideKind
	kindListIdx map[string]uint16
	chartKinds  map[string][]string // account code → its subconto kinds in the chart
	others      *refTable           // subconto values of the kinds the ledger has no catalog of

	obj *objectIndex // what dereferences and catalog tables read (eval_objects.go)
}

// mov is one register record, with references interned.
type mov struct {
	period int64
	amount Kopecks
	rec    int32 // recorder (docs index)
	line   int32
	org    int32
	acc    [2]int16    // [Дт, Кт]
	sub    [2][3]int32 // Субконто1–3 of the debit and the credit side, by the side's kinds; -1 none
	kinds  [2]uint16   // the kinds each side's subconto are kept in (Demo.kindLists)
	// cur and curAmount are each side's Валюта (an entry of Demo.curs, -1 none) and
	// ВалютнаяСумма, as the ledger gives them; they count only on a currency account (curAcc).
	cur       [2]int32
	curAmount [2]Kopecks
	// qty is each side's Количество as the ledger gives it; it counts only on a quantity
	// account (qtyAcc).
	qty [2]Quantity
}

const (
	dt = 0 // debit side
	kt = 1 // credit side

	subcontoCounterparty = "Контрагенты"
	subcontoContract     = "ДоговорыКонтрагентов"
	subcontoDocument     = "ДокументыРасчетовСКонтрагентами"
	// A received or an issued VAT invoice (19.xx, 76.ВА; 76.АВ): a document reference too.
	subcontoInvoiceIn  = "СФПолученные"
	subcontoInvoiceOut = "СФВыданные"
	// The nomenclature of the quantity accounts (10.01, 41.01): Справочник.Номенклатура.
	subcontoItem = "Номенклатура"
)

// NewDemo indexes the ledger once: records by account and side, by counterparty and by
// contract, documents by counterparty and by contract. The ledger must not change afterwards.
func NewDemo(l *Ledger) *Demo {
	d := &Demo{
		l:      l,
		orgs:   newRefTable(len(l.Organizations)),
		cps:    newRefTable(len(l.Counterparties)),
		ctrs:   newRefTable(len(l.Contracts)),
		docs:   newRefTable(len(l.Documents)),
		banks:  newRefTable(len(l.Organizations)),
		accIdx: make(map[string]int16, len(l.Accounts)),
		curs:   newRefTable(4),
		items:  newRefTable(len(l.Items)),
		units:  newRefTable(8),

		kindListIdx: map[string]uint16{},
		chartKinds:  make(map[string][]string, len(l.Accounts)),
		others:      newRefTable(0),
	}
	for _, o := range l.Organizations {
		d.orgs.add(normUUID(o.Ref), TypeOrganization, o.Name)
	}
	for _, c := range l.Counterparties {
		d.cps.add(normUUID(c.Ref), TypeCounterparty, c.Name)
	}
	for _, c := range l.Contracts {
		d.ctrs.add(normUUID(c.Ref), TypeContract, c.Name)
	}
	for _, it := range l.Items {
		d.items.add(normUUID(it.Ref), TypeItem, it.Name)
		if u := strings.TrimSpace(it.Unit); u != "" {
			d.units.add(derivedUUID("Справочник.КлассификаторЕдиницИзмерения/"+u), TypeUnit, u)
		}
	}
	d.currency("RUB") // bank accounts are rouble accounts (engine_banks.go)
	for _, c := range l.Contracts {
		d.currency(c.Currency)
	}
	for _, a := range l.Accounts {
		d.account(a.Code)
		if _, seen := d.chartKinds[a.Code]; !seen {
			d.chartKinds[a.Code] = a.Subconto
		}
	}
	for _, doc := range l.Documents {
		d.docs.add(normUUID(doc.Ref), TypeDocumentPrefix+bpDocumentType(doc.Type), documentPresentation(bpDocumentType(doc.Type), doc.Number, doc.Date.Time))
	}
	d.internMovements()
	d.curAcc, d.qtyAcc = make([]bool, len(d.accounts)), make([]bool, len(d.accounts))
	for _, a := range l.Accounts {
		if a.Currency {
			d.curAcc[d.accIdx[a.Code]] = true
		}
		if a.Quantity {
			d.qtyAcc[d.accIdx[a.Code]] = true
		}
	}
	d.curs.rankBy(d.curs.byName)
	d.items.rankBy(d.items.byName)
	d.units.rankBy(d.units.byName)
	d.indexDocuments()
	d.indexMovements()
	d.orgs.rankBy(d.orgs.byName)
	d.indexBankAccounts()
	d.cps.rankBy(d.cps.byName)
	d.ctrs.rankBy(d.ctrs.byName)
	d.docs.rankBy(func(a, b int32) int { // settlement documents by date, then number
		return cmp.Or(cmp.Compare(d.docDateOf(a), d.docDateOf(b)), strings.Compare(d.docNumberOf(a), d.docNumberOf(b)),
			strings.Compare(d.docs.uuids[a], d.docs.uuids[b]))
	})
	d.finishOthers()
	d.indexObjects()
	return d
}

// internMovements converts the register records of posted documents, interning every
// reference; the reference tables are complete afterwards.
func (d *Demo) internMovements() {
	posted := make(map[string]bool, len(d.l.Documents))
	for _, doc := range d.l.Documents {
		posted[normUUID(doc.Ref)] = doc.Posted
	}
	d.movs = make([]mov, 0, len(d.l.Movements))
	for _, m := range d.l.Movements {
		rec := normUUID(m.RecorderRef)
		if p, known := posted[rec]; known && !p {
			continue // an unposted document has no register records in 1C
		}
		kinds := [2]uint16{d.sideKinds(m.AccountDr, m.SubcontoDr), d.sideKinds(m.AccountCr, m.SubcontoCr)}
		d.movs = append(d.movs, mov{
			period: m.Period.Unix(),
			amount: m.Amount,
			rec:    d.docs.intern(rec, TypeDocumentPrefix+bpDocumentType(m.RecorderType)),
			line:   int32(m.Line),
			org:    d.ref(d.orgs, m.OrganizationRef, TypeOrganization),
			acc:    [2]int16{d.account(m.AccountDr), d.account(m.AccountCr)},
			sub: [2][3]int32{d.sideRefs(d.kindLists[kinds[dt]], m.SubcontoDr),
				d.sideRefs(d.kindLists[kinds[kt]], m.SubcontoCr)},
			kinds:     kinds,
			cur:       [2]int32{d.currency(m.CurrencyDr), d.currency(m.CurrencyCr)},
			curAmount: [2]Kopecks{m.CurrencyAmountDr, m.CurrencyAmountCr},
			qty:       [2]Quantity{m.QuantityDr, m.QuantityCr},
		})
	}
	slices.SortStableFunc(d.movs, func(a, b mov) int { return cmp.Compare(a.period, b.period) })
}

// indexDocuments fills the per-document columns and the document lists. Documents are
// interned after the register, so their own references may still extend the tables.
func (d *Demo) indexDocuments() {
	for _, doc := range d.l.Documents {
		d.ref(d.orgs, doc.OrganizationRef, TypeOrganization)
		d.ref(d.cps, doc.CounterpartyRef, TypeCounterparty)
		d.ref(d.ctrs, doc.ContractRef, TypeContract)
	}
	for _, c := range d.l.Contracts {
		d.ref(d.cps, c.OwnerRef, TypeCounterparty)
		d.ref(d.orgs, c.OrganizationRef, TypeOrganization)
	}
	n := len(d.docs.uuids)
	d.docSrc = make([]*Document, n)
	d.docDate, d.docNumber, d.docType = make([]int64, n), make([]string, n), make([]string, n)
	d.docOrg, d.docCp, d.docCtr = make([]int32, n), make([]int32, n), make([]int32, n)
	for i := range n {
		d.docOrg[i], d.docCp[i], d.docCtr[i] = -1, -1, -1
	}
	for k := range d.l.Documents {
		doc := &d.l.Documents[k]
		i := d.docs.idx[normUUID(doc.Ref)]
		d.docSrc[i] = doc
		d.docDate[i], d.docNumber[i], d.docType[i] = doc.Date.Unix(), doc.Number, bpDocumentType(doc.Type)
		d.docOrg[i] = d.ref(d.orgs, doc.OrganizationRef, TypeOrganization)
		d.docCp[i] = d.ref(d.cps, doc.CounterpartyRef, TypeCounterparty)
		d.docCtr[i] = d.ref(d.ctrs, doc.ContractRef, TypeContract)
	}
}

// indexMovements lists the records by account and side.
func (d *Demo) indexMovements() {
	d.byAcc = make([][2][]int32, len(d.accounts))
	for i := range d.movs {
		m, mi := &d.movs[i], int32(i)
		for s := dt; s <= kt; s++ {
			d.byAcc[m.acc[s]][s] = append(d.byAcc[m.acc[s]][s], mi)
		}
	}
}

// currency interns a currency by its name (the ledger's "USD"); "" is none (-1).
func (d *Demo) currency(name string) int32 {
	name = strings.TrimSpace(name)
	if name == "" {
		return -1
	}
	return d.curs.add(currencyUUID(name), TypeCurrency, name)
}

// currencyUUID is a currency's reference: the ledger names currencies only, so the demo derives
// a fixed UUID from the name.
func currencyUUID(name string) string {
	return derivedUUID("Справочник.Валюты/" + name)
}

// derivedUUID is a fixed UUID of what the ledger names only (a currency, a unit of measure).
func derivedUUID(key string) string {
	h := sha256.Sum256([]byte(key))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

// account interns an account code.
func (d *Demo) account(code string) int16 {
	if i, ok := d.accIdx[code]; ok {
		return i
	}
	i := int16(len(d.accounts))
	d.accounts = append(d.accounts, code)
	d.accIdx[code] = i
	return i
}

// ref interns a reference that may be empty (-1). Only NewDemo calls it: the tables are
// read-only afterwards.
func (d *Demo) ref(t *refTable, uuid, typ string) int32 {
	if strings.TrimSpace(uuid) == "" {
		return -1
	}
	return t.intern(normUUID(uuid), typ)
}

// lookup finds an interned reference (-1 for an empty or unknown one).
func lookup(t *refTable, uuid string) int32 {
	if i, ok := t.idx[normUUID(uuid)]; ok {
		return i
	}
	return -1
}

// Row limits of one query.
const (
	MaxProxyRows = 1000      // the MCP toolkit proxy accepts limit 1..1000 and truncates silently
	MaxDemoRows  = 1_000_000 // the in-process demo engine
)

// Name says where the answers come from.
func (d *Demo) Name() string {
	if d.name != "" {
		return d.name
	}
	return "демо-база 1С (встроенная)"
}

// NewNamedDemo is NewDemo for a base other than the embedded one (the realistic demo base):
// its answers name it.
func NewNamedDemo(l *Ledger, name string) *Demo {
	d := NewDemo(l)
	d.name = name
	return d
}

// Execute runs a whitelisted query. Any other text is a *QueryError (a syntax error, as far as
// this base is concerned); so are a missing parameter and a parameter of the wrong type. A
// limit outside 1..MaxDemoRows or an empty query is ErrRejected. In process there is no
// transport to protect, so the demo accepts far more rows than the proxy's 1..1000
// (MaxProxyRows); the proxy stand-in still enforces the proxy's own limit.
func (d *Demo) Execute(ctx context.Context, query string, params map[string]any, limit int) ([]map[string]any, error) {
	t, known := templateByText[query]
	op := "onec: demo"
	if known {
		op += " " + t.id
	}
	rows, err := d.execute(ctx, t, query, params, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return rows, nil
}

func (d *Demo) execute(ctx context.Context, t *template, query string, params map[string]any, limit int) ([]map[string]any, error) {
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case limit < 1 || limit > MaxDemoRows:
		return nil, fmt.Errorf("%w: limit %d is outside 1..%d", ErrRejected, limit, MaxDemoRows)
	case strings.TrimSpace(query) == "":
		return nil, fmt.Errorf("%w: empty query", ErrRejected)
	case t == nil:
		return nil, syntaxError(query)
	}
	return d.query(ctx, t, query, params, limit)
}

// query answers text as the template t: the whitelisted text itself, or (in the package's own
// tests) a variant of it, which the demo runs just the same. The query runs whole; then, as the
// toolkit does, its first limit rows are returned.
func (d *Demo) query(ctx context.Context, t *template, text string, params map[string]any, limit int) ([]map[string]any, error) {
	b, err := prepare(t, text)
	if err != nil {
		return nil, err
	}
	values, err := d.bind(t, qlang.Params(b), params)
	if err != nil {
		return nil, err
	}
	return d.evaluate(ctx, b, values, limit)
}

// syntaxError points at the first character where text leaves the closest template.
func syntaxError(text string) *QueryError {
	best := 0
	var closest string
	for _, t := range templates {
		n := commonPrefix(text, t.text)
		if n > best {
			best, closest = n, t.text
		}
	}
	line, col := position(text, best)
	snippet := ru.Truncate(text[best:], 25)
	msg := fmt.Sprintf("{(%d, %d)}: Синтаксическая ошибка %q: запрос не входит в белый список демо-базы", line, col, snippet)
	if closest != "" && best == len(text) {
		msg = fmt.Sprintf("{(%d, %d)}: Синтаксическая ошибка: неожиданный конец запроса (запрос не входит в белый список демо-базы)", line, col)
	}
	return &QueryError{Message: msg}
}

// commonPrefix is the byte length of the common prefix, cut back to a character boundary.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	for n > 0 && n < len(a) && !utf8.RuneStart(a[n]) {
		n--
	}
	return n
}

var demoDefault struct {
	once sync.Once
	d    *Demo
	err  error
}

// DemoDefault returns the Demo over the embedded demo ledger, loaded once per process.
func DemoDefault() (*Demo, error) {
	demoDefault.once.Do(func() {
		l, err := LoadDemo()
		if err != nil {
			demoDefault.err = err
			return
		}
		demoDefault.d = NewDemo(l)
	})
	return demoDefault.d, demoDefault.err
}

// checker polls ctx every few thousand iterations of a hot loop.
type checker struct {
	ctx context.Context
	n   int
}

func (c *checker) tick() error {
	c.n++
	if c.n&0xfff == 0 {
		return c.ctx.Err()
	}
	return nil
}

// docDateOf and docNumberOf are sort keys of a settlement document (zero for none or unknown).
func (d *Demo) docDateOf(i int32) int64 {
	if i < 0 || i >= d.docs.known {
		return 0
	}
	return d.docDate[i]
}

func (d *Demo) docNumberOf(i int32) string {
	if i < 0 || i >= d.docs.known {
		return ""
	}
	return d.docNumber[i]
}
