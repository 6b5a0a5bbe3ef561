package runner

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// ErrCatalogTruncated means a catalog reached the row limit of one query, so anchors cannot be
// resolved reliably.
var ErrCatalogTruncated = errors.New("catalog reached the query row limit")

// Source runs whitelisted 1C query templates by ID and answers in typed rows (onec.Result):
// *onec.Demo, *onec.Proxy and *onec.Client satisfy it. The toolkit's wire rows stay in
// integrations/onec.
type Source interface {
	Name() string
	Query(ctx context.Context, id string, params onec.Params, limit int) (*onec.Result, error)
}

// Options tune the lane.
type Options struct {
	Logger *slog.Logger
	Now    func() time.Time
	// MaxRows is the row limit sent with each query (the proxy accepts 1..1000). A result of
	// exactly MaxRows rows may be truncated and is reported as such.
	MaxRows int
	// QueryTimeout bounds one query (default 20s).
	QueryTimeout time.Duration
	// CatalogTTL is how long catalogs (organizations, counterparties, contracts, accounts, bank
	// accounts) are reused (default 10m).
	CatalogTTL time.Duration
	// Organization is the main organization (ONEC_ORGANIZATION; for the demo ledger,
	// (*onec.Demo).MainOrganization): its INN or its name, as Справочник.Организации has it.
	// BP keeps the main organization in each user's settings (ХранилищеОбщихНастроек, which no
	// query reads) and Организации has no predefined element, so the lane takes this one; else
	// the only organization of the base; else none, and a question that names no organization
	// is asked which one it means.
	Organization string
	// RestrictedRights says the 1C user the source runs under has restricted rights
	// (ONEC_RESTRICTED_USER). Every template selects РАЗРЕШЕННЫЕ, so 1C returns only the
	// records that user may see and says nothing of the rest: no count, no flag, and a query
	// counting all records would itself see only the allowed ones. So the lane cannot detect
	// a partial result; when the operator says the user is restricted, every factual answer
	// states that its figures cover only what this user may see (RightsNote).
	RestrictedRights bool
	// AgingBounds are the aging's bounds of days overdue, ascending (ONEC_AGING_BUCKETS);
	// DefaultAgingBounds when empty or invalid. DefaultPaymentDays is the payment term of a
	// contract without its own (ONEC_DEFAULT_PAYMENT_DAYS; BP's constants СрокОплатыПокупателей
	// and СрокОплатыПоставщикам).
	AgingBounds        []int
	DefaultPaymentDays int
}

// RightsNote is the line under a factual 1C answer when the 1C user's rights are restricted.
const RightsNote = "Цифры — только по данным, которые этому пользователю 1С разрешено видеть: права в 1С ограничены, и скрытые записи в итог не вошли."

// Lane is the 1C lane over one source.
type Lane struct {
	src  Source
	opts Options

	mu     sync.Mutex
	cats   *catalogs
	catsAt time.Time
	// items is the nomenclature, loaded when a question names an item (stock.go).
	items   []item
	itemsAt time.Time
}

// NewLane builds the lane. It has no LLM: questions are understood before they reach it
// (agent/understand), and it runs a decomposition against the whitelist.
func NewLane(src Source, o Options) *Lane {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 1000
	}
	if o.QueryTimeout <= 0 {
		o.QueryTimeout = 20 * time.Second
	}
	if o.CatalogTTL <= 0 {
		o.CatalogTTL = 10 * time.Minute
	}
	return &Lane{src: src, opts: o}
}

// SourceName says where the figures come from.
func (l *Lane) SourceName() string { return l.src.Name() }

// catalogs are the reference lists the resolver chooses from.
type catalogs struct {
	orgs, parties, contracts []recipe.Entity
	defaultOrg               recipe.Entity
	accounts                 map[string]account
	banks                    []recipe.BankAccount
	// firstPosting is the day of the register's first posting (firstposting.go); zero when
	// 1C did not tell.
	firstPosting time.Time
}

type account struct {
	code, name    string
	partySubconto bool   // carries Контрагенты subconto: balances are expanded by counterparty
	kind          string // Вид: Активный, Пассивный, АктивноПассивный
	// byDocuments: settlements are kept per settlement document (one of its subconto kinds is
	// ДокументыРасчетовСКонтрагентами, as BP decides it); off in a base that does not keep them.
	byDocuments bool
	// quantity: the account keeps quantity accounting (the chart's «Количественный»): its
	// balance has a quantity per item (stock.go).
	quantity bool
}

// byDocuments reports whether settlements on code are kept per settlement document, read from
// the base's chart (the account itself, else its nearest parent there). An account the chart
// does not list at all is taken as kept by document: the rows say what they carry.
func (c *catalogs) byDocuments(code string) bool {
	if c == nil {
		return true
	}
	for k := code; k != ""; {
		if a, ok := c.accounts[k]; ok {
			return a.byDocuments
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return true
}

// Catalogs returns the catalogs, loaded through the whitelisted catalog queries and cached for
// Options.CatalogTTL, so that a question can be understood against them before it is run.
func (l *Lane) Catalogs(ctx context.Context) (recipe.Catalogs, error) {
	c, err := l.catalogsFor(ctx, &Debug{})
	if err != nil {
		return recipe.Catalogs{}, err
	}
	out := recipe.Catalogs{Organizations: c.orgs, Counterparties: c.parties, Contracts: c.contracts, BankAccounts: c.banks}
	for code := range c.accounts {
		out.Accounts = append(out.Accounts, code)
	}
	slices.Sort(out.Accounts)
	return out, nil
}

// catalogsFor loads (or reuses) the catalogs through the whitelisted catalog templates, and
// with them the day of the register's first posting.
func (l *Lane) catalogsFor(ctx context.Context, dbg *Debug) (*catalogs, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cats != nil && l.opts.Now().Sub(l.catsAt) < l.opts.CatalogTTL {
		return l.cats, nil
	}
	c := &catalogs{accounts: map[string]account{}}
	load := func(id string) (*onec.Result, error) {
		if params, _ := onec.QueryParams(id); slices.Contains(params, "ПослеКода") {
			return l.loadPages(ctx, dbg, id)
		}
		res, err := l.exec(ctx, dbg, id, onec.Params{})
		if err == nil && res.Fetched >= l.opts.MaxRows {
			// A truncated catalog would make real entries look absent: refuse rather than mislead.
			return nil, fmt.Errorf("%s: %w", id, ErrCatalogTruncated)
		}
		return res, err
	}
	res, err := load("catalog.organizations")
	if err != nil {
		return nil, err
	}
	for _, r := range res.Organizations {
		e := recipe.Entity{Ref: r.Ref.UUID, Name: r.Name, INN: r.INN, KPP: r.KPP}
		if r.Division() {
			e.HeadRef = r.Head.UUID
		}
		c.orgs = append(c.orgs, e)
	}
	c.defaultOrg = l.mainOrganization(ctx, c.orgs)
	if res, err = load("catalog.counterparties"); err != nil {
		return nil, err
	}
	for _, r := range res.Counterparties {
		c.parties = append(c.parties, recipe.Entity{Ref: r.Ref.UUID, Name: r.Name, FullName: r.FullName, INN: r.INN, KPP: r.KPP, Deleted: r.Deleted})
	}
	if res, err = load("catalog.contracts"); err != nil {
		return nil, err
	}
	for _, r := range res.Contracts {
		c.contracts = append(c.contracts, recipe.Entity{Ref: r.Ref.UUID, Name: r.Name, Number: r.Number,
			OwnerRef: r.Owner.UUID, OrgRef: r.Organization.UUID, Date: r.Date.Format(time.DateOnly), Deleted: r.Deleted,
			TermSet: r.TermSet, TermDays: r.TermDays})
	}
	if res, err = load("catalog.accounts"); err != nil {
		return nil, err
	}
	for _, r := range res.Accounts {
		c.accounts[r.Code] = account{code: r.Code, name: r.Name, partySubconto: r.HasSubconto("Контрагенты"),
			kind: r.Kind, byDocuments: r.ByDocuments, quantity: r.Quantity}
	}
	if res, err = load("catalog.bank_accounts"); err != nil {
		return nil, err
	}
	c.banks = bankAccountsFrom(res.BankAccounts, c.orgs)
	if len(c.orgs) == 0 {
		return nil, errors.New("1C returned no organizations")
	}
	c.firstPosting = l.firstPosting(ctx, dbg) // never fails the catalogs
	l.cats, l.catsAt = c, l.opts.Now()
	return c, nil
}

// maxCatalogPages bounds the pages of one catalog: 100 pages of 1,000 counterparties.
const maxCatalogPages = 100

// loadPages reads a paged catalog (catalog.counterparties, catalog.contracts,
// catalog.nomenclature): a page of the
// toolkit's row limit at a time, each after the last Код of the one before, until a page comes
// back short. A real base's counterparties pass the 1,000 rows of one query.
func (l *Lane) loadPages(ctx context.Context, dbg *Debug, id string) (*onec.Result, error) {
	size := min(l.opts.MaxRows, onec.CatalogPage)
	var all *onec.Result
	after := ""
	for range maxCatalogPages {
		page, err := l.execLimit(ctx, dbg, id, onec.Params{"ПослеКода": after}, size)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = page
		} else {
			all.Fetched += page.Fetched
			all.Counterparties = append(all.Counterparties, page.Counterparties...)
			all.Contracts = append(all.Contracts, page.Contracts...)
			all.Items = append(all.Items, page.Items...)
		}
		if page.Fetched < size {
			return all, nil
		}
		last := lastCode(page)
		if last == "" || last == after { // no progress: the catalog cannot be paged
			break
		}
		after = last
	}
	return nil, fmt.Errorf("%s: more than %d pages: %w", id, maxCatalogPages, ErrCatalogTruncated)
}

// lastCode is the Код of a catalog page's last row ("" when there is none).
func lastCode(page *onec.Result) string {
	switch {
	case len(page.Counterparties) > 0:
		return page.Counterparties[len(page.Counterparties)-1].Code
	case len(page.Contracts) > 0:
		return page.Contracts[len(page.Contracts)-1].Code
	case len(page.Items) > 0:
		return page.Items[len(page.Items)-1].Code
	}
	return ""
}

// mainOrganization picks the organization a question that names none is about (see
// Options.Organization); the zero Entity when there is no telling.
func (l *Lane) mainOrganization(ctx context.Context, orgs []recipe.Entity) recipe.Entity {
	want := strings.TrimSpace(l.opts.Organization)
	if want == "" {
		if len(orgs) == 1 {
			return orgs[0]
		}
		return recipe.Entity{}
	}
	// An обособленное подразделение has its head's INN: the INN names the head.
	for _, o := range orgs {
		if strings.EqualFold(o.Name, want) || o.INN == want && o.HeadRef == "" {
			return o
		}
	}
	for _, o := range orgs {
		if o.INN == want {
			return o
		}
	}
	l.opts.Logger.WarnContext(ctx, "the configured main organization is not among 1C's organizations", "organization", want)
	return recipe.Entity{}
}

// exec runs one whitelisted template by ID with bound parameters.
func (l *Lane) exec(ctx context.Context, dbg *Debug, id string, params onec.Params) (*onec.Result, error) {
	return l.execLimit(ctx, dbg, id, params, l.opts.MaxRows)
}

// execLimit is exec with a row limit of its own.
func (l *Lane) execLimit(ctx context.Context, dbg *Debug, id string, params onec.Params, limit int) (*onec.Result, error) {
	if _, ok := onec.Query(id); !ok {
		return nil, fmt.Errorf("no whitelisted query %q", id) // a programming error: never reached by user input
	}
	ctx, cancel := context.WithTimeout(ctx, l.opts.QueryTimeout)
	defer cancel()
	dbg.QueriesSent = append(dbg.QueriesSent, id)
	res, err := l.src.Query(ctx, id, params, limit)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", id, err)
	}
	return res, nil
}

// boundary is the moment Остатки(&НаДату) must be taken at to include the whole as-of day:
// 00:00:00 of the next day.
func boundary(asOf time.Time) string {
	return asOf.AddDate(0, 0, 1).Format("2006-01-02T15:04:05")
}

func parseDay(s string) (time.Time, bool) {
	t, err := time.ParseInLocation(time.DateOnly, s, ru.Moscow)
	return t, err == nil
}

func ruDay(t time.Time) string { return t.Format("02.01.2006") }
