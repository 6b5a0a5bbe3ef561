package lane

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/ru"
)

// Drill is a drilldown offer: a button that runs a catalog recipe on a row's anchor.
type Drill struct {
	Text string // the button label
	Data string // compact callback data, under Telegram's 64 bytes; re-validated on return
}

// drillPrefix marks drilldown callback data:
// "a:<recipe index>:<anchor ref prefix>:<yyyymmdd>:<organization index>:<account or empty>".
const drillPrefix = "a:"

// refPrefixLen is how much of a reference the callback carries; Drill re-checks that it
// names exactly one catalog entry.
const refPrefixLen = 12

// maxDrills bounds the offers under one answer.
const maxDrills = 5

// ErrBadDrill means callback data that does not name a valid drilldown (forged or stale).
var ErrBadDrill = errors.New("address: invalid drilldown")

// Drills offers the recipe's drilldown targets for the top rows of a factual result.
func (r Result) Drills() []Drill {
	if r.ResultMode == Limited || r.AsOf.IsZero() && r.To.IsZero() {
		return nil
	}
	if r.Intent == IntentTurnoverSheet {
		return r.sheetDrills() // report_drill.go
	}
	rec, ok := RecipeByID(r.RecipeID)
	if !ok || len(rec.Drilldowns) == 0 {
		return nil
	}
	target, _ := RecipeByID(rec.Drilldowns[0])
	idx := slices.IndexFunc(Catalog, func(c Recipe) bool { return c.ID == target.ID })
	date := r.AsOf
	if date.IsZero() {
		date = r.To
	}
	var out []Drill
	for _, row := range r.Rows {
		anchor, label := "", ""
		switch {
		case slices.Contains(target.Required, FilterCounterparty) && row.Ref != "" && (r.Intent == IntentReceivables || r.Intent == IntentPayables):
			anchor, label = row.Ref, row.Name
		case slices.Contains(target.Required, FilterCounterparty) && row.PartyID != "":
			anchor, label = row.PartyID, row.Party
		case slices.Contains(target.Required, FilterContract) && row.DealID != "":
			anchor, label = row.DealID, row.Deal
		case slices.Contains(target.Required, FilterAccount) && row.Account != "":
			anchor, label = "acct-"+row.Account, "счёт "+row.Account
		}
		if anchor == "" || slices.ContainsFunc(out, func(d Drill) bool { return strings.Contains(d.Data, short(anchor)) }) {
			continue
		}
		out = append(out, Drill{
			Text: drillLabel(target, label),
			Data: fmt.Sprintf("%s%d:%s:%s:%d:%s", drillPrefix, idx, short(anchor), date.Format("20060102"), max(r.OrgIndex, 0), r.Filters.Account),
		})
		if len(out) == maxDrills {
			break
		}
	}
	return out
}

// maxLabel bounds a button's label: longer ones a phone cuts where it likes.
const maxLabel = 48

// drillActions are the short names of the drilldown targets on their buttons, so that the
// anchor — a company, a contract's number and date — fits beside them.
var drillActions = map[Intent]string{
	IntentOpenItemsByParty:     "Открытые позиции",
	IntentOpenItemsByContract:  "Открытые позиции",
	IntentDocumentsByParty:     "Документы",
	IntentDocumentsByContract:  "Документы",
	IntentDocumentsFormBalance: "Расшифровка",
	IntentBankOpsByParty:       "Банковские операции",
}

// drillLabel is a drilldown button's label: the target's short name and the anchor, cut at a
// word boundary.
func drillLabel(target Recipe, anchor string) string {
	action := drillActions[target.Intent]
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

// IsDrill reports whether callback data is a drilldown.
func IsDrill(data string) bool { return strings.HasPrefix(data, drillPrefix) }

// Drill re-validates callback data and runs the drilldown: the recipe index must exist, the
// anchor prefix must name exactly one non-deleted catalog entry, the date must be real.
func (l *Lane) Drill(ctx context.Context, data string) (Result, error) {
	parts := strings.Split(strings.TrimPrefix(data, drillPrefix), ":")
	if !IsDrill(data) || len(parts) != 5 || len(data) > 64 {
		return Result{}, ErrBadDrill
	}
	orgIdx, err := strconv.Atoi(parts[3])
	if err != nil || orgIdx < 0 {
		return Result{}, ErrBadDrill
	}
	if acct := parts[4]; acct != "" && !accountCode.MatchString(acct) {
		return Result{}, ErrBadDrill
	}
	idx, err := strconv.Atoi(parts[0])
	if err != nil || idx < 0 || idx >= len(Catalog) {
		return Result{}, ErrBadDrill
	}
	when, err := time.Parse("20060102", parts[2])
	if err != nil || when.Year() < 2000 || when.Year() > 2100 {
		return Result{}, ErrBadDrill
	}
	rec := Catalog[idx]
	d := Decomposition{QuestionMode: ModeLedger, ModeConfidence: 1, QueryShape: "list", QueryShapeConfidence: 1,
		Intent: rec.Intent, IntentConfidence: 1, FallbackRuleHit: "drilldown", Reasons: []string{"переход по кнопке"}}
	if slices.Contains(rec.Required, FilterAsOfDate) {
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
	if orgIdx >= len(cats.orgs) {
		return Result{}, ErrBadDrill
	}
	d.Filters.Organization = cats.orgs[orgIdx].Ref // the drill keeps the scope it came from
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
	if slices.Contains(rec.Required, FilterContract) {
		pool = cats.contracts
	}
	var hits []Entity
	for _, e := range pool {
		if !e.Deleted && strings.HasPrefix(e.Ref, anchor) {
			hits = append(hits, e)
		}
	}
	if len(hits) != 1 || len(anchor) < 8 {
		return Result{}, ErrBadDrill
	}
	if slices.Contains(rec.Required, FilterContract) {
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
