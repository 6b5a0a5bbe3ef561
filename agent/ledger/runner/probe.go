package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/probes"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The discovery primitives of guarded 1C discovery (agent/ledger/probes) as fixed read-only
// queries. A primitive never sends text of its own: each one runs templates of the
// integrations/onec whitelist (the catalogs, the chart of accounts, the document, turnover and
// register-record templates of the recipes) with bound parameters, and whatever else it
// computes (period cuts, grouping, sums) it computes here, in Go, with exact kopecks.

// ErrUnknownPrimitive means Probe was asked for something outside the discovery whitelist;
// nothing was sent to 1C.
var ErrUnknownPrimitive = errors.New("unknown discovery primitive")

// ProbeStatus is how a probe ended.
type ProbeStatus string

// Probe statuses.
const (
	ProbeOK          ProbeStatus = "ok"          // rows matched
	ProbeEmpty       ProbeStatus = "empty"       // the lookups or queries ran and nothing matched
	ProbeError       ProbeStatus = "error"       // 1C failed or did not answer in time
	ProbeUnsupported ProbeStatus = "unsupported" // the arguments make no fixed query: nothing was sent
)

// Row budget of one probe: default 100, at most 500, the bounds of a discovery plan's
// max_rows_per_probe (probes.DefaultMaxRowsPerProbe, probes.MaxRowsPerProbeLimit).
const (
	DefaultProbeLimit = 100
	MaxProbeLimit     = 500
)

// maxProbeOrgs bounds the organizations one probe reads when the question names none.
const maxProbeOrgs = 10

// settlementAccounts are read when a movement probe names no account.
var settlementAccounts = []string{"60", "62", "76"}

// ProbeArgs are a primitive's arguments. Dates are "YYYY-MM-DD".
type ProbeArgs struct {
	// Entity is a counterparty or a contract as the user named it (a name, a number, an INN).
	Entity string `json:"entity,omitempty"`
	// Account is an account code (60, 62.01); sub-accounts are included.
	Account  string `json:"account,omitempty"`
	DateFrom string `json:"date_from,omitempty"`
	DateTo   string `json:"date_to,omitempty"`
	// Axis is what aggregate_by_axis groups by: counterparty, contract, account,
	// document_type or month.
	Axis string `json:"axis,omitempty"`
	// DocumentType is one of recipe.DocumentTypes.
	DocumentType string `json:"document_type,omitempty"`
	// Organization is one of our organizations; empty = every one (at most 10), or the
	// contract's own when Entity is a contract.
	Organization string `json:"organization,omitempty"`
	// Limit bounds the rows returned as facts (default 100, at most 500). Sums and counts are
	// always over every matched row.
	Limit int `json:"limit,omitempty"`
}

// ProbeOutcome is what one probe found.
type ProbeOutcome struct {
	Primitive string      `json:"primitive"`
	Status    ProbeStatus `json:"status"`
	// RowsReceived counts the rows 1C returned (catalog rows searched, for the catalog
	// primitives); RowsMatched those that fit the anchor, period and filters; RowsReturned
	// the matched rows listed in Facts (at most the limit).
	RowsReceived int `json:"rows_received"`
	RowsMatched  int `json:"rows_matched"`
	RowsReturned int `json:"rows_returned"`
	// Confirmed says that Facts are plain readings of the matched rows. It is false when they
	// rest on a guess: an anchor matched by a similar name, several candidates, a result cut
	// at the row limit, organizations left unread.
	Confirmed bool `json:"confirmed"`
	// Facts are the findings, formatted for people (exact amounts, Russian dates); Section
	// General, Kind "ledger_fact", no Source (the caller adds its own).
	Facts []facts.Item `json:"facts,omitempty"`
	// Scope states what was read: period or date, organizations, accounts.
	Scope string `json:"scope,omitempty"`
	// Unknown lists what the probe looked for and did not find.
	Unknown     []string `json:"unknown,omitempty"`
	Limitations []string `json:"limitations,omitempty"`
	// Queries are the IDs of the whitelisted templates sent, in order.
	Queries []string `json:"queries"`
	// Error is 1C's failure, for the debug payload only.
	Error string `json:"error,omitempty"`
}

// Template IDs the primitives send, besides the recipes' own.
const (
	idChart           = "catalog.accounts"
	idOpenItemsParty  = "address.open_items.by_counterparty"
	idOpenItemsTreaty = "address.open_items.by_contract"
	idRegisterRecords = "register.movements"
)

// probeFuncs are the primitives. explain_evidence_basis runs no query.
var probeFuncs = map[probes.Primitive]func(*prober, context.Context){
	probes.PrimitiveSearchBusinessEntity:    (*prober).searchEntity,
	probes.PrimitiveInspect1CMetadata:       (*prober).inspectMetadata,
	probes.PrimitiveResolveEntityReference:  (*prober).resolveReference,
	probes.PrimitiveQueryMovements:          (*prober).queryMovements,
	probes.PrimitiveQueryDocuments:          (*prober).queryDocuments,
	probes.PrimitiveAggregateByAxis:         (*prober).aggregateByAxis,
	probes.PrimitiveDrilldownRelatedObjects: (*prober).drilldownRelated,
	probes.PrimitiveProbeCoverage:           (*prober).probeCoverage,
	probes.PrimitiveExplainEvidenceBasis:    (*prober).explainBasis,
}

// Probe runs one discovery primitive. An unknown primitive is ErrUnknownPrimitive and sends
// nothing. 1C's failures are an outcome (ProbeError), not an error; the error is otherwise
// only the context's, when it ends during the probe.
func (l *Lane) Probe(ctx context.Context, primitive string, args ProbeArgs) (ProbeOutcome, error) {
	run, ok := probeFuncs[probes.Primitive(primitive)]
	if !ok {
		return ProbeOutcome{}, fmt.Errorf("address: probe %q: %w", primitive, ErrUnknownPrimitive)
	}
	p := &prober{l: l, args: args, out: ProbeOutcome{Primitive: primitive}}
	if p.prepare() {
		run(p, ctx)
	}
	out := p.finish()
	if err := ctx.Err(); err != nil {
		return out, err
	}
	return out, nil
}

// prober carries one probe.
type prober struct {
	l    *Lane
	args ProbeArgs
	// from and to are the period as YYYY-MM-DD; from "" = no lower bound; to defaults to today.
	from, to  string
	toTime    time.Time
	limit     int
	cats      *catalogs
	dbg       Debug
	summary   []facts.Item // aggregates, always returned
	rows      []facts.Item // one per matched row or group, cut to the limit
	inferred  bool
	truncated bool
	out       ProbeOutcome
}

var probeAccountRe = regexp.MustCompile(`^\d{2,3}(\.\d{1,2}){0,2}$`)

// prepare checks the arguments; false means the probe cannot run (the outcome says why).
func (p *prober) prepare() bool {
	a := &p.args
	a.Entity, a.Account, a.Axis = strings.TrimSpace(a.Entity), strings.TrimSpace(a.Account), strings.TrimSpace(a.Axis)
	a.DocumentType, a.Organization = strings.TrimSpace(a.DocumentType), strings.TrimSpace(a.Organization)
	p.limit = a.Limit
	if p.limit <= 0 {
		p.limit = DefaultProbeLimit
	}
	p.limit = min(p.limit, MaxProbeLimit)
	today := p.l.opts.Now().In(ru.Moscow)
	p.toTime = time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, ru.Moscow)
	if a.DateTo != "" {
		t, ok := parseDay(a.DateTo)
		if !ok {
			return p.unsupported(fmt.Sprintf("Дата «%s» не в формате ГГГГ-ММ-ДД.", ru.Truncate(a.DateTo, 40)))
		}
		p.toTime = t
	}
	p.to = p.toTime.Format(time.DateOnly)
	if a.DateFrom != "" {
		t, ok := parseDay(a.DateFrom)
		if !ok {
			return p.unsupported(fmt.Sprintf("Дата «%s» не в формате ГГГГ-ММ-ДД.", ru.Truncate(a.DateFrom, 40)))
		}
		if t.After(p.toTime) {
			return p.unsupported("Начало периода позже его конца.")
		}
		p.from = t.Format(time.DateOnly)
	}
	if a.Account != "" && !probeAccountRe.MatchString(a.Account) {
		return p.unsupported(fmt.Sprintf("«%s» — не номер счёта: нужен счёт вида 60 или 62.01.", ru.Truncate(a.Account, 40)))
	}
	if a.DocumentType != "" && !slices.Contains(recipe.DocumentTypes, a.DocumentType) {
		return p.unsupported(fmt.Sprintf("Вид документа «%s» не входит в список, который я читаю.", ru.Truncate(a.DocumentType, 60)))
	}
	return true
}

// finish cuts the rows to the limit and settles the status.
func (p *prober) finish() ProbeOutcome {
	o := p.out
	o.Queries = slices.Clone(p.dbg.QueriesSent)
	if o.Queries == nil {
		o.Queries = []string{}
	}
	rows := p.rows[:min(len(p.rows), p.limit)]
	if len(p.rows) > len(rows) {
		o.Limitations = append(o.Limitations, fmt.Sprintf("Показано строк: %d из %d.", len(rows), len(p.rows)))
	}
	o.Facts = append(slices.Clip(p.summary), rows...)
	o.RowsReturned = len(rows)
	if o.Status == "" {
		o.Status = ProbeEmpty
		if o.RowsMatched > 0 {
			o.Status = ProbeOK
		}
	}
	o.Confirmed = o.Status == ProbeOK && o.RowsMatched > 0 && len(o.Facts) > 0 && !p.inferred
	return o
}

func (p *prober) unsupported(why string) bool {
	p.out.Status = ProbeUnsupported
	p.out.Limitations = append(p.out.Limitations, why)
	return false
}

func (p *prober) note(s string) { p.out.Limitations = append(p.out.Limitations, s) }

func (p *prober) unknown(s string) {
	p.out.Unknown = append(p.out.Unknown, s)
	if p.out.Status == "" {
		p.out.Status = ProbeEmpty
	}
}

// fail records 1C's failure.
func (p *prober) fail(ctx context.Context, what string, err error) {
	p.l.opts.Logger.WarnContext(ctx, "1C discovery probe failed", "primitive", p.out.Primitive, "query", what, "err", err)
	p.out.Status, p.out.Error = ProbeError, err.Error()
	p.note(sourceDown(p.l.src.Name()))
}

// loadCatalogs loads (or reuses) the lane's catalogs.
func (p *prober) loadCatalogs(ctx context.Context) bool {
	c, err := p.l.catalogsFor(ctx, &p.dbg)
	if err != nil {
		p.fail(ctx, "catalogs", err)
		return false
	}
	p.cats = c
	return true
}

// exec runs one whitelisted template and counts what came back.
// Rows onec could not read are noted (dropped).
func (p *prober) exec(ctx context.Context, id string, params onec.Params) (*onec.Result, bool) {
	res, err := p.l.exec(ctx, &p.dbg, id, params)
	if err != nil {
		p.fail(ctx, id, err)
		return nil, false
	}
	p.out.RowsReceived += res.Received
	if res.Fetched >= p.l.opts.MaxRows && !p.truncated {
		p.truncated, p.inferred = true, true
		p.note(fmt.Sprintf("Выборка из 1С достигла предела в %s: итоги могут быть неполными — уточните период, счёт или контрагента.", ru.Count(p.l.opts.MaxRows, "строку", "строки", "строк")))
	}
	return res, true
}

// fact builds one finding.
func fact(title, text string, fields ...facts.Field) facts.Item {
	var fs []facts.Field
	for _, f := range fields {
		if f.Value != "" {
			fs = append(fs, f)
		}
	}
	return facts.Item{Section: facts.General, Kind: "ledger_fact", Title: title, Text: text, Fields: fs}
}

func field(name, value string) facts.Field { return facts.Field{Name: name, Value: value} }

func ruDate(iso string) string {
	t, err := time.Parse(time.DateOnly, iso)
	if err != nil {
		return iso
	}
	return ruDay(t)
}

// dropped notes rows 1C returned in a shape the lane cannot read.
func (p *prober) dropped(drops map[string]int) {
	n := 0
	for _, c := range drops {
		n += c
	}
	if n > 0 {
		p.inferred = true
		p.note(fmt.Sprintf("%d %s из 1С не удалось разобрать: итоги без них.", n, ru.Plural(n, "строку", "строки", "строк")))
	}
}
