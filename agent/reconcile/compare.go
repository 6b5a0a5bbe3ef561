package reconcile

// Our act against theirs, line by line: what only one side has, the same document with another
// sum or date, other balances — and the proof that these differences are the whole difference of
// the closing balances.

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// DiffKind is what differs.
type DiffKind string

// The kinds of difference, in the order the answer lists them.
const (
	DiffOpening     DiffKind = "opening"      // the opening balances differ
	DiffOnlyOurs    DiffKind = "only_ours"    // a document of ours they do not have
	DiffOnlyTheirs  DiffKind = "only_theirs"  // a document of theirs we do not have
	DiffSum         DiffKind = "sum"          // one document, another sum (and maybe date)
	DiffMonth       DiffKind = "month"        // a month's totals differ (their act is by month)
	DiffDate        DiffKind = "date"         // one document, another date, same sum
	DiffTheirTotals DiffKind = "their_totals" // their closing balance does not follow from their lines
	DiffOurTotals   DiffKind = "our_totals"   // ours does not (never, for an act 1C built)
)

// Diff is one difference. Effect is its part of the difference of the closing balances (ours
// less theirs, in our terms: positive — we count the counterparty's debt to us higher).
type Diff struct {
	Kind   DiffKind
	Ours   *Line // our document (only ours, sum, date), nil otherwise
	Theirs *Line // theirs (only theirs, sum, date)
	// Month is the first day of the month (DiffMonth).
	Month time.Time
	// OursAmount and TheirsAmount are the two sides' figures: balances (opening, totals), a month's
	// net turnover, a document's sum.
	OursAmount, TheirsAmount onec.Kopecks
	Effect                   onec.Kopecks
}

// Pair is a row of the matched table: our line and theirs, either may be missing.
type Pair struct {
	Ours, Theirs *Line
	// How they were matched: "number" (number, date and sum), "number_off" (the number, with
	// another sum or date), "own_number" (our number where we print their incoming one), "amount" (the sum within a few days: payments, whose numbers the
	// two sides write differently), "month" (a month's totals), "" when one side is missing.
	How string
}

// Comparison is our act against theirs.
type Comparison struct {
	Ours   Act
	Theirs Theirs
	// Flipped: their amounts matched our documents only read the other way round (their columns
	// named without saying whose debit they are), and are compared so.
	Flipped bool
	Pairs   []Pair
	Diffs   []Diff
	// Gap is our closing balance less theirs; the Effects of Diffs add up to it (Compare checks).
	Gap onec.Kopecks
	// NoBalances: their act states no balance; only the turnovers are compared.
	NoBalances bool
}

// Equal reports whether the acts agree: no difference at all.
func (c Comparison) Equal() bool { return len(c.Diffs) == 0 }

// Money differences, those that move a balance (not a date within the period).
func (c Comparison) Money() []Diff {
	return slices.DeleteFunc(slices.Clone(c.Diffs), func(d Diff) bool { return d.Kind == DiffDate })
}

// errUnexplained is a comparison whose differences do not add up to the difference of the
// balances: a defect of this code, never shown as an answer.
var errUnexplained = errors.New("reconcile: the differences do not add up to the difference of the closing balances")

// Compare matches their act against ours. Lines are matched by number, date and sum; then by
// number with another sum or date; then, for payments whose numbers differ between the sides,
// by sum within a few days. An act by month is compared by month totals. The differences'
// effects add up to ours.Closing − theirs.Closing, which Compare checks.
func Compare(ours Act, theirs Theirs) (Comparison, error) {
	c := Comparison{Ours: ours, Theirs: theirs}
	if !theirs.HasOpening && !theirs.HasClosing {
		// Nothing to compare the balances with: theirs taken from ours, only turnovers differ.
		c.NoBalances = true
		d, cr := theirs.Turnovers()
		c.Theirs.Opening, c.Theirs.Closing = ours.Opening, ours.Opening+d-cr
	}
	if theirs.Grouped {
		c.Pairs = matchMonths(ours.Lines, c.Theirs.Lines)
	} else {
		c.Pairs = match(ours.Lines, c.Theirs.Lines)
		if !theirs.Stated {
			flipped := flip(c.Theirs)
			if p := match(ours.Lines, flipped.Lines); matched(p) > matched(c.Pairs) {
				c.Theirs, c.Pairs, c.Flipped = flipped, p, true
			}
		}
	}
	c.Diffs = diffs(c)
	c.Gap = c.Ours.Closing - c.Theirs.Closing
	var sum onec.Kopecks
	for _, d := range c.Diffs {
		sum += d.Effect
	}
	if sum != c.Gap {
		return Comparison{}, fmt.Errorf("%w: %s explained, %s apart", errUnexplained, sum.Decimal(), c.Gap.Decimal())
	}
	return c, nil
}

// flip reads their amounts the other way round.
func flip(t Theirs) Theirs {
	t.Lines = slices.Clone(t.Lines)
	for i := range t.Lines {
		t.Lines[i].Debit, t.Lines[i].Credit = t.Lines[i].Credit, t.Lines[i].Debit
	}
	t.Opening, t.Closing = -t.Opening, -t.Closing
	if t.Turnover != nil {
		t.Turnover = &[2]onec.Kopecks{t.Turnover[1], t.Turnover[0]}
	}
	return t
}

func net(l Line) onec.Kopecks { return l.Debit - l.Credit }

func matched(ps []Pair) int {
	n := 0
	for _, p := range ps {
		if p.Ours != nil && p.Theirs != nil {
			n++
		}
	}
	return n
}

// days between two dates.
func days(a, b time.Time) int {
	d := int(a.Sub(b).Hours() / 24)
	if d < 0 {
		return -d
	}
	return d
}

// Matching windows: a document found by its number may be dated up to a month apart (their
// date of receipt), a payment found by its sum up to a few days (the bank's day).
const (
	numberWindow = 31
	amountWindow = 5
)

// match pairs our lines with theirs.
func match(ours, theirs []Line) []Pair {
	used := make([]bool, len(theirs))
	pairedTo := make([]int, len(ours))
	how := make([]string, len(ours))
	for i := range pairedTo {
		pairedTo[i] = -1
	}
	pass := func(name string, ok func(o, t Line) bool, better func(o, a, b Line) bool) {
		for i, o := range ours {
			if pairedTo[i] >= 0 {
				continue
			}
			best := -1
			for j, t := range theirs {
				if used[j] || !ok(o, t) {
					continue
				}
				if best < 0 || better(o, t, theirs[best]) {
					best = j
				}
			}
			if best >= 0 {
				pairedTo[i], used[best], how[i] = best, true, name
			}
		}
	}
	sameSide := func(o, t Line) bool { return (net(o) >= 0) == (net(t) >= 0) }
	key := func(l Line) string { return numberKey(l.Number) }
	closer := func(o, a, b Line) bool {
		if (net(a) == net(o)) != (net(b) == net(o)) {
			return net(a) == net(o)
		}
		return days(a.Date, o.Date) < days(b.Date, o.Date)
	}
	pass("number", func(o, t Line) bool {
		return key(o) != "" && key(o) == key(t) && net(o) == net(t) && o.Date.Equal(t.Date)
	}, closer)
	pass("number_off", func(o, t Line) bool {
		return key(o) != "" && key(o) == key(t) && sameSide(o, t) && days(o.Date, t.Date) <= numberWindow
	}, closer)
	// A counterparty that prints our number where we print theirs (an incoming number of ours
	// they never saw: a payment order's of the bank statement).
	pass("own_number", func(o, t Line) bool {
		return numberKey(o.Own) != "" && numberKey(o.Own) == key(t) && sameSide(o, t) && days(o.Date, t.Date) <= numberWindow
	}, closer)
	pass("amount", func(o, t Line) bool {
		return net(o) == net(t) && days(o.Date, t.Date) <= amountWindow
	}, closer)
	var out []Pair
	for i := range ours {
		p := Pair{Ours: &ours[i], How: how[i]}
		if j := pairedTo[i]; j >= 0 {
			p.Theirs = &theirs[j]
		}
		out = append(out, p)
	}
	for j := range theirs {
		if !used[j] {
			out = append(out, Pair{Theirs: &theirs[j]})
		}
	}
	slices.SortStableFunc(out, func(a, b Pair) int { return a.date().Compare(b.date()) })
	return out
}

// date is the pair's date: ours, else theirs.
func (p Pair) date() time.Time {
	if p.Ours != nil {
		return p.Ours.Date
	}
	return p.Theirs.Date
}

// matchMonths sums our lines by month against their month lines: a pair a month, both sides'
// totals in lines of their own.
func matchMonths(ours, theirs []Line) []Pair {
	byMonth := map[time.Time]*Pair{}
	var order []time.Time
	add := func(l Line, mine bool) {
		m := mskDay(l.Date.Year(), l.Date.Month(), 1)
		p, ok := byMonth[m]
		if !ok {
			p = &Pair{How: "month"}
			byMonth[m] = p
			order = append(order, m)
		}
		side := &p.Theirs
		if mine {
			side = &p.Ours
		}
		if *side == nil {
			*side = &Line{Date: m, Kind: monthName(m)}
		}
		(*side).Debit += l.Debit
		(*side).Credit += l.Credit
	}
	for _, l := range ours {
		add(l, true)
	}
	for _, l := range theirs {
		add(l, false)
	}
	slices.SortFunc(order, func(a, b time.Time) int { return a.Compare(b) })
	out := make([]Pair, 0, len(order))
	for _, m := range order {
		out = append(out, *byMonth[m])
	}
	return out
}

// diffs lists the differences of a comparison, each with its effect on the closing balances.
func diffs(c Comparison) []Diff {
	var out []Diff
	if !c.NoBalances && c.Ours.Opening != c.Theirs.Opening {
		out = append(out, Diff{Kind: DiffOpening, OursAmount: c.Ours.Opening, TheirsAmount: c.Theirs.Opening,
			Effect: c.Ours.Opening - c.Theirs.Opening})
	}
	for _, p := range c.Pairs {
		switch {
		case p.How == "month":
			var o, t onec.Kopecks
			if p.Ours != nil {
				o = net(*p.Ours)
			}
			if p.Theirs != nil {
				t = net(*p.Theirs)
			}
			if o != t || p.Ours == nil || p.Theirs == nil || p.Ours.Debit != p.Theirs.Debit {
				out = append(out, Diff{Kind: DiffMonth, Ours: p.Ours, Theirs: p.Theirs, Month: p.date(), OursAmount: o, TheirsAmount: t, Effect: o - t})
			}
		case p.Theirs == nil:
			out = append(out, Diff{Kind: DiffOnlyOurs, Ours: p.Ours, OursAmount: net(*p.Ours), Effect: net(*p.Ours)})
		case p.Ours == nil:
			out = append(out, Diff{Kind: DiffOnlyTheirs, Theirs: p.Theirs, TheirsAmount: net(*p.Theirs), Effect: -net(*p.Theirs)})
		case net(*p.Ours) != net(*p.Theirs):
			out = append(out, Diff{Kind: DiffSum, Ours: p.Ours, Theirs: p.Theirs, OursAmount: net(*p.Ours), TheirsAmount: net(*p.Theirs),
				Effect: net(*p.Ours) - net(*p.Theirs)})
		case !p.Ours.Date.Equal(p.Theirs.Date):
			out = append(out, Diff{Kind: DiffDate, Ours: p.Ours, Theirs: p.Theirs, OursAmount: net(*p.Ours), TheirsAmount: net(*p.Theirs)})
		}
	}
	od, oc := c.Ours.Turnovers()
	if off := c.Ours.Closing - (c.Ours.Opening + od - oc); off != 0 {
		out = append(out, Diff{Kind: DiffOurTotals, OursAmount: c.Ours.Closing, TheirsAmount: c.Ours.Opening + od - oc, Effect: off})
	}
	td, tc := c.Theirs.Turnovers()
	if off := c.Theirs.Closing - (c.Theirs.Opening + td - tc); off != 0 {
		out = append(out, Diff{Kind: DiffTheirTotals, OursAmount: c.Theirs.Opening + td - tc, TheirsAmount: c.Theirs.Closing, Effect: -off})
	}
	order := []DiffKind{DiffOpening, DiffOnlyOurs, DiffOnlyTheirs, DiffSum, DiffMonth, DiffDate, DiffTheirTotals, DiffOurTotals}
	slices.SortStableFunc(out, func(a, b Diff) int {
		return cmp.Compare(slices.Index(order, a.Kind), slices.Index(order, b.Kind))
	})
	return out
}
