package runner

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Aging of receivables and payables («задолженность по срокам долга», «старение дебиторки»,
// «просрочка по покупателям»): the debt at a date split by how long it is overdue, as BP 3.0's
// reports «Задолженность покупателей (поставщикам) по срокам долга» split it. One whitelisted
// template (integrations/onec/queries_aging.go) does the figures in 1C: each open debt document
// is due on its date plus its contract's payment term (ДоговорыКонтрагентов.СрокОплаты where
// «Установлен срок оплаты по договору», else the default term, Options.DefaultPaymentDays),
// only what was posted up to the date counts, and the debts are summed per counterparty and
// contract into the intervals of Options.AgingBounds. Here they are only laid out.

// DefaultAgingBounds are BP's usual intervals of days overdue: 1–30, 31–60, 61–90, over 90.
var DefaultAgingBounds = []int{30, 60, 90}

// MaxAgingBound bounds an interval of days overdue (ten years).
const MaxAgingBound = 3650

// CheckAgingBounds reports what is wrong with bounds of days overdue: each a whole number of
// days, ascending, positive, at most MaxAgingBound, and no more than the template takes.
func CheckAgingBounds(bounds []int) error {
	switch {
	case len(bounds) == 0:
		return fmt.Errorf("no bounds")
	case len(bounds) > onec.AgingBounds:
		return fmt.Errorf("%d bounds, at most %d", len(bounds), onec.AgingBounds)
	}
	for i, b := range bounds {
		switch {
		case b < 1 || b > MaxAgingBound:
			return fmt.Errorf("bound %d is outside 1..%d days", b, MaxAgingBound)
		case i > 0 && b <= bounds[i-1]:
			return fmt.Errorf("bounds must ascend: %d after %d", b, bounds[i-1])
		}
	}
	return nil
}

// Aging is what an aging answer states besides its rows.
type Aging struct {
	Payables bool `json:"payables,omitempty"`
	// Bounds are the intervals' bounds in days overdue; Totals the debt in each interval: not yet
	// due, overdue up to each bound, past the last one (len(Bounds)+2).
	Bounds []int          `json:"bounds"`
	Totals []onec.Kopecks `json:"totals"`
	// Overdue is the debt past its due date (every interval but the first).
	Overdue onec.Kopecks `json:"overdue"`
	// DefaultDays is the term of the contracts without their own.
	DefaultDays int `json:"default_payment_days"`
	// ByContract: the rows are per contract; else per counterparty, when the contracts in debt
	// were more than one answer of 1C holds.
	ByContract bool `json:"by_contract"`
	// Parties counts the counterparties in debt; Documents the open debt documents; OwnTerms
	// and DefaultTerms the contracts with their own term and with the default (by contract).
	Parties      int `json:"counterparties"`
	Documents    int `json:"documents"`
	OwnTerms     int `json:"own_terms,omitempty"`
	DefaultTerms int `json:"default_terms,omitempty"`
	// Undocumented: some debt is on lines without settlement documents, aged by its increases.
	Undocumented bool `json:"undocumented,omitempty"`
	// Earliest is the earliest due date of an open debt document (the longest overdue).
	Earliest string `json:"earliest_due,omitempty"`
	// OverdueDays is the days the question asked past («больше 90 дней»), a bound of Bounds;
	// Past is the debt overdue by more, from the interval PastFrom on. 0 when none was asked.
	OverdueDays int          `json:"overdue_days,omitempty"`
	PastFrom    int          `json:"past_from,omitempty"`
	Past        onec.Kopecks `json:"past,omitempty"`
}

// AgingLine is an aging row's figures: the debt in each interval, the term applied and the
// earliest due date of its documents.
type AgingLine struct {
	Intervals []onec.Kopecks `json:"intervals"`
	TermDays  int            `json:"payment_term_days"`
	OwnTerm   bool           `json:"own_term,omitempty"`
	Earliest  string         `json:"earliest_due,omitempty"` // YYYY-MM-DD
}

// Overdue is the line's debt past its due date.
func (a AgingLine) Overdue() onec.Kopecks { return a.from(1) }

// from is the line's debt in the intervals from i on.
func (a AgingLine) from(i int) onec.Kopecks {
	var sum onec.Kopecks
	for _, v := range a.Intervals[min(i, len(a.Intervals)):] {
		sum += v
	}
	return sum
}

// Asked is the line's overdue the question asked for: past its days (Aging.OverdueDays), or all.
func (a AgingLine) Asked(ag *Aging) onec.Kopecks { return a.asked(ag) }

// asked is the line's overdue the question asked for: past its days (Aging.PastFrom), or all.
func (a AgingLine) asked(ag *Aging) onec.Kopecks {
	if ag.OverdueDays > 0 {
		return a.from(ag.PastFrom)
	}
	return a.Overdue()
}

// withBound is bounds with n among them (the days a question asks past, «больше 45 дней»), so
// that the debt past n is a sum of intervals; past the template's six bounds, the largest other
// ones give way.
func withBound(bounds []int, n int) []int {
	if n <= 0 || n > MaxAgingBound || slices.Contains(bounds, n) {
		return bounds
	}
	out := append(slices.Clone(bounds), n)
	slices.Sort(out)
	for len(out) > onec.AgingBounds {
		i := len(out) - 1
		if out[i] == n {
			i--
		}
		out = slices.Delete(out, i, i+1)
	}
	return out
}

// agingBounds are the lane's intervals: Options.AgingBounds when valid, else BP's usual ones.
func (l *Lane) agingBounds() []int {
	if CheckAgingBounds(l.opts.AgingBounds) == nil {
		return l.opts.AgingBounds
	}
	return DefaultAgingBounds
}

// IntervalNames name the intervals of bounds: «Не наступил срок», «1–30 дн.», «31–60 дн.», …,
// «Более 90 дн.».
func IntervalNames(bounds []int) []string {
	names := []string{"Не наступил срок"}
	from := 1
	for _, b := range bounds {
		names = append(names, fmt.Sprintf("%d–%d дн.", from, b))
		from = b + 1
	}
	return append(names, fmt.Sprintf("Более %d дн.", bounds[len(bounds)-1]))
}

// aging runs the aging template of the recipe (receivables or payables): by contract, and by
// counterparty when the contracts in debt are more than one answer of 1C holds.
func (l *Lane) aging(ctx context.Context, res *Result, r recipe.Spec, f recipe.Filters, a anchors) Result {
	dbg := &res.Debug
	asOf, _ := parseDay(f.AsOfDate)
	res.AsOf = asOf
	payables := r.Name == recipe.PayablesAging
	token := map[bool]string{false: "62", true: "60"}[payables]
	res.Account = token
	dbg.AccountTokenRaw, dbg.AccountTokenNormalized = f.Account, []string{token}
	dbg.AccountScopeMatchStrategy = "code_or_subaccount"
	bounds := withBound(l.agingBounds(), res.OverdueDays)
	params := onec.Params{"НаДату": boundary(asOf), "Организация": refParam(a.org, refOrg), "СчетКод": token, "СчетМаска": token + ".%",
		"Контрагент": refParam(a.party, refParty), "СрокОплатыПоУмолчанию": l.opts.DefaultPaymentDays, "Разрез": onec.AgingByContract,
		onec.AgingBoundParam(0): onec.PeriodStartParam(asOf)}
	for i := 1; i <= onec.AgingBounds; i++ {
		b := bounds[min(i, len(bounds))-1] // the bounds not asked repeat the last: their intervals stay empty
		params[onec.AgingBoundParam(i)] = onec.PeriodStartParam(asOf.AddDate(0, 0, -b))
	}
	q, err := l.exec(ctx, dbg, r.ID, params)
	byContract := true
	if err == nil && l.truncated(q) {
		// More contracts in debt than one answer holds: the same figures per counterparty.
		params["Разрез"] = ""
		byContract = false
		q, err = l.exec(ctx, dbg, r.ID, params)
	}
	if err != nil {
		return l.failed(ctx, res, r.ID, err)
	}
	if l.truncated(q) {
		dbg.RuntimeReadiness = ReadyLiveLimited
		dbg.MCPCallStatus, dbg.MCPCallStatusLegacy = StageMatched, legacyStatus(StageMatched)
		return res.limited(ReasonVisibilityGap, fmt.Sprintf("Результат обрезан на %s: контрагентов с долгом больше — это предел "+
			"одного запроса к 1С. Итоги по обрезанной выборке были бы неверными, поэтому я их не показываю. Спросите по контрагенту.",
			ru.Count(l.opts.MaxRows, "строку", "строки", "строк")))
	}
	n := len(bounds) + 2
	ag := &Aging{Payables: payables, Bounds: slices.Clone(bounds), Totals: make([]onec.Kopecks, n), DefaultDays: l.opts.DefaultPaymentDays,
		ByContract: byContract}
	var out []Row
	parties := map[string]bool{}
	var earliest time.Time
	for _, x := range q.Aging {
		if x.Debt == 0 {
			continue
		}
		line := AgingLine{Intervals: make([]onec.Kopecks, n), TermDays: x.TermDays, OwnTerm: x.OwnTerm, Earliest: day(x.EarliestDue)}
		copy(line.Intervals, x.Intervals[:n-1])
		for _, v := range x.Intervals[n-1:] { // the intervals past the bounds asked are empty; the last is past them
			line.Intervals[n-1] += v
		}
		for i, v := range line.Intervals {
			ag.Totals[i] += v
		}
		row := Row{Ref: x.Counterparty.UUID, Name: x.Counterparty.Presentation, Party: x.Counterparty.Presentation, PartyID: x.Counterparty.UUID,
			Amount: x.Debt, Count: x.Documents, Date: line.Earliest, Ages: &line}
		if byContract {
			row.Ref, row.Deal, row.DealID = x.Contract.UUID, x.Contract.Presentation, x.Contract.UUID
			if x.OwnTerm {
				ag.OwnTerms++
			} else {
				ag.DefaultTerms++
			}
		}
		parties[x.Counterparty.UUID] = true
		ag.Documents += x.Documents
		if x.Documents == 0 {
			ag.Undocumented = true
		}
		if !x.EarliestDue.IsZero() && (earliest.IsZero() || x.EarliestDue.Before(earliest)) {
			earliest = x.EarliestDue
		}
		out = append(out, row)
	}
	ag.Parties, ag.Earliest = len(parties), day(earliest)
	for _, v := range ag.Totals[1:] {
		ag.Overdue += v
	}
	if i := slices.Index(bounds, res.OverdueDays); res.OverdueDays > 0 && i >= 0 {
		ag.OverdueDays, ag.PastFrom = res.OverdueDays, i+2 // interval i+1 ends at the bound
		for _, v := range ag.Totals[ag.PastFrom:] {
			ag.Past += v
		}
	}
	res.Aging = ag
	l.matchedRows(res, q.Fetched, len(q.Aging), len(out))
	if len(out) == 0 {
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNoRawRows, "execute", "no debt at the date"
		dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
		res.Aging = nil
		return res.limited(ReasonEmptyMatch, agingEmpty(res, payables))
	}
	// The most overdue first: the overdue debt (past the days asked), then the longest
	// interval's, then the debt.
	slices.SortStableFunc(out, func(x, y Row) int {
		return cmp.Or(cmp.Compare(y.Ages.asked(ag), x.Ages.asked(ag)), cmp.Compare(y.Ages.Intervals[n-1], x.Ages.Intervals[n-1]),
			cmp.Compare(y.Amount, x.Amount), cmp.Compare(x.Name, y.Name), cmp.Compare(x.Deal, y.Deal), cmp.Compare(x.Ref, y.Ref))
	})
	var total onec.Kopecks
	for _, row := range out {
		total += row.Amount
	}
	res.Summary = Summary{Rows: len(out), TotalAmount: total, Currency: "RUB"}
	if !byContract {
		res.Notes = append(res.Notes, fmt.Sprintf("Договоров с долгом больше, чем %s одного ответа 1С, поэтому по контрагентам; по договорам — спросите по контрагенту.",
			ru.Count(l.opts.MaxRows, "строка", "строки", "строк")))
	}
	res.All = out
	if len(out) > f.Limit {
		out = out[:f.Limit]
	}
	res.Rows = out
	res.ResultMode = FactualList
	if len(res.All) > listMax {
		res.ResultMode = FactualSummary
	}
	dbg.ResponseType = res.ResultMode
	return *res
}

// matchedRows fills the debug counters of a result whose rows 1C summed.
func (l *Lane) matchedRows(res *Result, fetched, materialized, matched int) {
	dbg := &res.Debug
	dbg.RowsFetched, dbg.RawRowsReceived, dbg.RowsAfterAccountScope = fetched, fetched, fetched
	dbg.RowsMaterialized, dbg.RowsAfterRecipeFilter, dbg.RowsMatched = materialized, materialized, matched
	dbg.MCPCallStatus = StageMatched
	dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
}

// agingEmpty says that nobody owes (or is owed) at the date, naming the counterparty asked.
func agingEmpty(res *Result, payables bool) string {
	when := ruDay(res.AsOf)
	switch {
	case res.Party != "" && payables:
		return fmt.Sprintf("На %s мы ничего не должны %s по счёту %s — просрочки нет.", when, res.Party, res.Account)
	case res.Party != "":
		return fmt.Sprintf("На %s %s ничего не должен нам по счёту %s — просрочки нет.", when, res.Party, res.Account)
	case payables:
		return fmt.Sprintf("На %s по счёту %s мы никому не должны — просрочки нет.", when, res.Account)
	}
	return fmt.Sprintf("На %s по счёту %s никто нам не должен — просрочки нет.", when, res.Account)
}

// daysWord is «15 дней».
func daysWord(n int) string { return ru.Count(n, "день", "дня", "дней") }

// overdueDays counts the days from a due date (YYYY-MM-DD) to the as-of day; 0 when not overdue.
func overdueDays(due string, asOf time.Time) int {
	d, err := time.ParseInLocation(time.DateOnly, due, asOf.Location())
	if err != nil || !d.Before(asOf) {
		return 0
	}
	return int(asOf.Sub(d).Hours()/24 + 0.5)
}

// termWords says a row's payment term: «30 дней по договору», «0 дней по умолчанию».
func termWords(a *AgingLine) string {
	if a.OwnTerm {
		return daysWord(a.TermDays) + " по договору"
	}
	return daysWord(a.TermDays) + " по умолчанию"
}
