package runner

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Drill is a drilldown offer: a button that runs a catalog recipe on a row's anchor.
type Drill struct {
	Text string // the button label
	Data string // compact callback data, under Telegram's 64 bytes; re-validated on return
}

// drillPrefix marks drilldown callback data:
// "b:<recipe code>:<anchor ref prefix>:<yyyymmdd>:<organization ref prefix>:<account or empty>".
// Everything in it is named stably — the recipe by its code (drillCodes), the organization by
// its reference — never by a position in a list that a deploy or a new catalog entry reorders.
const drillPrefix = "b:"

// legacyDrillPrefix marked the drilldown data of before, "a:<recipe index>:<anchor>:<yyyymmdd>:
// <organization index>:<account>": positions in Catalog and in 1C's catalog of organizations,
// which a new recipe or organization silently repoints. Drill refuses it as stale.
const legacyDrillPrefix = "a:"

// drillCodes names each recipe a drilldown can open by a short code, the first letters of its
// ID's words. A code never changes meaning: one whose recipe goes is retired, not reused (a
// button under an old answer would run something else); a new target gets a new code.
// TestDrillCodes holds the list.
var drillCodes = map[string]string{
	"op": "address.open_items.by_counterparty",
	"oc": "address.open_items.by_contract",
	"dp": "address.documents.by_counterparty",
	"dc": "address.documents.by_contract",
	"bd": "address.balance.drilldown_documents",
	"ac": "address.account_card.movements",
	"ar": "address.aging.receivables",
	"ap": "address.aging.payables",
	"cp": "card.counterparty",
}

// drillCode is the code of a drilldown target's recipe ID, "" when it has none.
func drillCode(id string) string {
	for code, rid := range drillCodes {
		if rid == id {
			return code
		}
	}
	return ""
}

// refPrefixLen is how much of a reference the callback carries (the anchor's and the
// organization's); Drill re-checks that it names exactly one catalog entry.
const refPrefixLen = 12

// minRefPrefix is the shortest reference prefix Drill accepts.
const minRefPrefix = 8

// maxDrills bounds the offers under one answer.
const maxDrills = 5

// maxDrillData is Telegram's bound on callback data, in bytes.
const maxDrillData = 64

// ErrBadDrill means callback data that does not name a valid drilldown (forged or stale).
var ErrBadDrill = errors.New("address: invalid drilldown")

// ErrStaleDrill is drilldown data of an earlier format (legacyDrillPrefix), which named the
// recipe and the organization by position: refused, for the user to ask again. It is an
// ErrBadDrill.
var ErrStaleDrill = fmt.Errorf("%w: drilldown data of an earlier format", ErrBadDrill)

// drillData is the callback data of a drilldown; "" when it cannot name its recipe or its
// organization stably, or does not fit Telegram's bound.
func drillData(recipeID, anchor string, date time.Time, orgRef, account string) string {
	code := drillCode(recipeID)
	if code == "" || len(orgRef) < minRefPrefix {
		return ""
	}
	data := fmt.Sprintf("%s%s:%s:%s:%s:%s", drillPrefix, code, anchor, date.Format("20060102"), short(orgRef), account)
	if len(data) > maxDrillData {
		return ""
	}
	return data
}

// Drills offers the recipe's drilldown targets for the top rows of a factual result.
func (r Result) Drills() []Drill {
	if r.ResultMode == Limited || r.AsOf.IsZero() && r.To.IsZero() {
		return nil
	}
	if r.Intent == recipe.TurnoverSheet {
		return r.sheetDrills() // report_drill.go
	}
	if r.PartyCard != nil {
		return r.cardDrills()
	}
	rec, ok := recipe.ByID(r.RecipeID)
	if !ok || len(rec.Drilldowns) == 0 {
		return nil
	}
	target, _ := recipe.ByID(rec.Drilldowns[0])
	if drillCode(target.ID) == "" || len(r.OrgRef) < minRefPrefix {
		return nil // no stable name for the target or the organization: no drilldown
	}
	date := r.AsOf
	if date.IsZero() {
		date = r.To
	}
	var out []Drill
	var seen []string // the anchors offered
	for _, row := range r.Rows {
		anchor, text := "", ""
		switch {
		case r.Offsets != nil && row.Offset != nil:
			// an offset's company, by what it could net: its card
			p, _ := r.Offsets.Party(row.PartyID)
			anchor, text = row.PartyID, thumbLabel(shortParty(row.Party), p.Netted)
		case slices.Contains(target.Required, recipe.FilterCounterparty) && row.Ref != "" && (r.Intent == recipe.Receivables || r.Intent == recipe.Payables):
			anchor, text = row.Ref, thumbLabel(shortParty(row.Name), row.Amount)
		case slices.Contains(target.Required, recipe.FilterCounterparty) && row.PartyID != "" && row.Ages != nil:
			// an aging's company, by what it has overdue: its open documents with their dates
			anchor, text = row.PartyID, thumbLabel(shortParty(row.Party), row.Ages.Overdue())
		case slices.Contains(target.Required, recipe.FilterCounterparty) && row.PartyID != "":
			anchor, text = row.PartyID, thumbLabel(shortParty(row.Party), 0)
		case slices.Contains(target.Required, recipe.FilterContract) && row.DealID != "":
			anchor, text = row.DealID, thumbLabel(contractNumber(row.Deal), r.dealSaldo(row.DealID))
		case slices.Contains(target.Required, recipe.FilterAccount) && row.Account != "":
			anchor, text = "acct-"+row.Account, drillLabel(target, "счёт "+row.Account)
		}
		if anchor == "" || slices.Contains(seen, short(anchor)) {
			continue
		}
		data := drillData(target.ID, short(anchor), date, r.OrgRef, r.Filters.Account)
		if data == "" {
			continue // over Telegram's bound
		}
		seen = append(seen, short(anchor))
		out = append(out, Drill{Text: text, Data: data})
		if len(out) == maxDrills {
			break
		}
	}
	return out
}

// maxLabel bounds a button's label: longer ones a phone cuts where it likes.
const maxLabel = 48

// maxThumb bounds a drilldown's label under a list: what tells the rows apart comes first, so a
// phone cuts nothing that matters.
const maxThumb = 24

// thumbLabel is the label of a row's drilldown under a list: the company or the contract's number,
// then its figure in millions or thousands when it has one («СтройМаркет 4,1 млн», «ДП-107/2024
// 1,0 млн»; the list says they are rubles).
func thumbLabel(name string, amount onec.Kopecks) string {
	text := name
	if amount != 0 {
		text += " " + strings.TrimSuffix(ru.Approx(int64(max(amount, -amount))), "\u00a0₽")
	}
	if utf8.RuneCountInString(text) > maxThumb {
		text = ru.Truncate(name, maxThumb)
	}
	return text
}

// dealSaldo is what is open on a contract among the result's rows.
func (r Result) dealSaldo(deal string) onec.Kopecks {
	var sum onec.Kopecks
	for _, x := range r.All {
		if x.DealID == deal {
			sum += x.Amount
		}
	}
	return sum
}

// ShortParty is a company as a button says it (shortParty).
func ShortParty(name string) string { return shortParty(name) }

// legalForm is a company's legal form before its name.
var legalForm = regexp.MustCompile(`^(?:ООО|АО|ПАО|ЗАО|ОАО|НАО|ФГУП|МУП|ГУП|АНО)\s+`)

// shortParty is a company as a button says it: without its legal form and quotes («ООО
// «СтройМаркет»» — «СтройМаркет»); an entrepreneur by surname and initials («ИП Смирнов А. П.»).
func shortParty(name string) string {
	if rest, ok := strings.CutPrefix(name, "ИП "); ok {
		parts := strings.Fields(rest)
		if len(parts) == 3 {
			return fmt.Sprintf("ИП %s %s. %s.", parts[0], string([]rune(parts[1])[:1]), string([]rune(parts[2])[:1]))
		}
		return name
	}
	short := legalForm.ReplaceAllString(name, "")
	if short != name {
		short = strings.Trim(short, "«»\"")
	}
	return short
}

// contractNumber is a contract as a button says it: its number («Договор с поставщиком №
// ДП-107/2024 от 02.07.2024» — «ДП-107/2024»), or its name.
func contractNumber(deal string) string {
	if _, after, ok := strings.Cut(deal, "№"); ok {
		if f := strings.Fields(after); len(f) > 0 {
			return f[0]
		}
	}
	return deal
}

// drillActions are the short names of the drilldown targets on their buttons, so that the
// anchor — a company, a contract's number and date — fits beside them.
var drillActions = map[recipe.Name]string{
	recipe.OpenItemsByParty:     "Открытые позиции",
	recipe.OpenItemsByContract:  "Открытые позиции",
	recipe.DocumentsByParty:     "Документы",
	recipe.DocumentsByContract:  "Документы",
	recipe.DocumentsFormBalance: "Расшифровка",
	recipe.BankOpsByParty:       "Банковские операции",
}

// drillLabel is a drilldown button's label: the target's short name and the anchor, cut at a
// word boundary.
func drillLabel(target recipe.Spec, anchor string) string {
	action := drillActions[target.Name]
	if action == "" {
		action = target.Purpose
	}
	return ru.Truncate(action+": "+anchor, maxLabel)
}

func short(ref string) string {
	if strings.HasPrefix(ref, "acct-") || len(ref) <= refPrefixLen {
		return ref
	}
	return ref[:refPrefixLen]
}

// IsDrill reports whether callback data is a drilldown of the current format.
func IsDrill(data string) bool { return strings.HasPrefix(data, drillPrefix) }

// Drill re-validates callback data and runs the drilldown: the recipe code must name a
// drilldown target, the anchor prefix exactly one non-deleted catalog entry, the organization
// prefix exactly one organization of the catalog, the date must be real. Data of the earlier
// format is ErrStaleDrill.
func (l *Lane) Drill(ctx context.Context, data string) (Result, error) {
	if strings.HasPrefix(data, legacyDrillPrefix) {
		return Result{}, ErrStaleDrill
	}
	parts := strings.Split(strings.TrimPrefix(data, drillPrefix), ":")
	if !IsDrill(data) || len(parts) != 5 || len(data) > maxDrillData {
		return Result{}, ErrBadDrill
	}
	orgPrefix := parts[3]
	if len(orgPrefix) < minRefPrefix || len(orgPrefix) > refPrefixLen {
		return Result{}, ErrBadDrill
	}
	if acct := parts[4]; acct != "" && !accountCode.MatchString(acct) {
		return Result{}, ErrBadDrill
	}
	id, ok := drillCodes[parts[0]]
	if !ok {
		return Result{}, ErrBadDrill
	}
	rec, ok := recipe.ByID(id)
	if !ok {
		return Result{}, ErrBadDrill
	}
	when, err := time.Parse("20060102", parts[2])
	if err != nil || when.Year() < 2000 || when.Year() > 2100 {
		return Result{}, ErrBadDrill
	}
	d := Decomposition{QuestionMode: ModeLedger, QueryShape: "list",
		Intent: rec.Name, FallbackRuleHit: "drilldown", Reasons: []string{"переход по кнопке"}}
	if slices.Contains(rec.Required, recipe.FilterAsOfDate) {
		d.Filters.AsOfDate = when.Format(time.DateOnly)
	} else {
		d.Filters.PeriodFrom = when.AddDate(-1, 0, 0).Format(time.DateOnly)
		d.Filters.PeriodTo = when.Format(time.DateOnly)
	}
	var dbg Debug
	cats, err := l.catalogsFor(ctx, &dbg)
	if err != nil {
		return l.Run(ctx, d), nil // Run reports the outage
	}
	var orgs []recipe.Entity
	for _, o := range cats.orgs {
		if strings.HasPrefix(o.Ref, orgPrefix) {
			orgs = append(orgs, o)
		}
	}
	if len(orgs) != 1 {
		return Result{}, ErrBadDrill // gone from 1C, or no longer told apart by the prefix
	}
	d.Filters.Organization = orgs[0].Ref // the drill keeps the scope it came from
	d.Filters.Account = parts[4]
	anchor := parts[1]
	if start, ok := strings.CutPrefix(anchor, "p"); ok {
		return l.periodDrill(ctx, rec, d, start, when) // report_drill.go
	}
	if acct, ok := strings.CutPrefix(anchor, "acct-"); ok {
		if !accountCode.MatchString(acct) {
			return Result{}, ErrBadDrill
		}
		d.Filters.Account = acct
		return l.Run(ctx, d), nil
	}
	pool := cats.parties
	if slices.Contains(rec.Required, recipe.FilterContract) {
		pool = cats.contracts
	}
	var hits []recipe.Entity
	for _, e := range pool {
		if !e.Deleted && strings.HasPrefix(e.Ref, anchor) {
			hits = append(hits, e)
		}
	}
	if len(hits) != 1 || len(anchor) < 8 {
		return Result{}, ErrBadDrill
	}
	if slices.Contains(rec.Required, recipe.FilterContract) {
		d.Filters.Contract = hits[0].Ref
		if from, err := time.Parse(time.DateOnly, hits[0].Date); err == nil && d.Filters.PeriodFrom != "" {
			d.Filters.PeriodFrom = from.Format(time.DateOnly) // the contract's whole life, not a window
		}
	} else {
		d.Filters.Counterparty = hits[0].Ref
	}
	return l.Run(ctx, d), nil
}

// accountCode is an account of the chart: 51, 62.01, 000, 90.01.1.
var accountCode = regexp.MustCompile(`^\d{2,3}(\.\d{1,2}){0,2}$`)

// cardDrills are the counterparty card's drilldowns: the aging of each side it has a debt on,
// for this counterparty on the card's date.
func (r Result) cardDrills() []Drill {
	pc := r.PartyCard
	if pc.Ref == "" || len(r.OrgRef) < minRefPrefix {
		return nil
	}
	var out []Drill
	both := pc.Receivable != nil && pc.Payable != nil
	for _, s := range []struct {
		aging       *CardAging
		name        recipe.Name
		label, only string
	}{{pc.Receivable, recipe.ReceivablesAging, "Просрочка: их долг", "Просрочка"}, {pc.Payable, recipe.PayablesAging, "Просрочка: наш долг", "Просрочка"}} {
		if s.aging == nil {
			continue
		}
		rc, _ := recipe.For(s.name)
		data := drillData(rc.ID, short(pc.Ref), r.AsOf, r.OrgRef, "")
		if data == "" {
			continue
		}
		label := s.only
		if both {
			label = s.label
		}
		out = append(out, Drill{Text: label, Data: data})
	}
	return out
}
