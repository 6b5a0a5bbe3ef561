package reconcile

// A primary document from a photo or a scan (a счёт, a УПД, an акт) found in 1C: is its seller a
// counterparty 1C knows (by ИНН), is a purchase posted with its date and amount, is it paid. All
// three are read from our act of reconciliation with that seller (OurActs) — the same templates,
// the same per-user base and rights as /act — over the month before the document to today.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// Primary is a primary document as read from its picture.
type Primary struct {
	// UserID and ChatID are who asks: their 1C base and their rights.
	UserID, ChatID int64
	Seller         Party // as printed; by its ИНН when read
	Number         string
	Date           time.Time // zero: not read
	// Total is the amount with VAT; HasTotal false when it was not read.
	Total    onec.Kopecks
	HasTotal bool
}

// PrimaryMatch is what 1C says of a primary document, each point a line of the answer.
type PrimaryMatch struct {
	Known  bool    // the seller is a counterparty of 1C
	Party  Party   // as 1C names it
	Posted *Line   // the purchase posted for the document; nil: none found
	Points []Point // ✓/✗ lines, in order: the counterparty, the posting, the payment
	Source string  // «1С: Акт сверки, …» of our act
}

// Point is one line of the match.
type Point struct {
	OK   bool
	Text string
}

// postingSlack is how far from the document's date a purchase of the same amount is looked for
// (a document is often posted on the day it arrives).
const postingSlack = 10 * 24 * time.Hour

// MatchPrimary finds p in 1C through acts as of today. A *Refusal that is not «no such
// counterparty» (no access, several that fit) is returned as the error for the user; any other
// error is 1C's failure.
func MatchPrimary(ctx context.Context, acts OurActs, p Primary, today time.Time) (PrimaryMatch, error) {
	var m PrimaryMatch
	if p.Seller.INN == "" && p.Seller.Name == "" {
		m.Points = append(m.Points, Point{Text: "Продавец не прочитан — в 1С не искал"})
		return m, nil
	}
	from := today.AddDate(0, -3, 0)
	if !p.Date.IsZero() {
		from = p.Date.AddDate(0, -1, 0)
	}
	party := p.Seller
	if party.INN != "" {
		party.Name = "" // by ИНН only: a name misread must not pick another company
	}
	act, err := acts.Act(ctx, ActQuery{UserID: p.UserID, ChatID: p.ChatID, Counterparty: party, From: from, To: today})
	var refusal *Refusal
	switch {
	case errors.As(err, &refusal) && strings.HasPrefix(refusal.Text, "В 1С нет контрагента"):
		m.Points = append(m.Points, Point{Text: fmt.Sprintf("Продавца %s в 1С нет — новый контрагент?", printed(p.Seller))})
		return m, nil
	case err != nil:
		return m, err
	}
	m.Known, m.Party, m.Source = true, act.Theirs, act.Source
	m.Points = append(m.Points, Point{OK: true, Text: fmt.Sprintf("Контрагент в 1С: %s (ИНН %s)", act.Theirs.Name, act.Theirs.INN)})
	// The posting: a purchase of the amount, the number's digits and the date preferred.
	var best *Line
	score := -1
	for i, l := range act.Lines {
		if l.Kind != KindPurchase || !p.HasTotal || l.Credit != p.Total {
			continue
		}
		s := 0
		if !p.Date.IsZero() {
			d := l.Date.Sub(p.Date)
			if d < -postingSlack || d > postingSlack {
				continue
			}
			if sameDay(l.Date, p.Date) {
				s += 2
			}
		}
		if p.Number != "" && sameNumber(l.Number, p.Number) {
			s++
		}
		if s > score {
			best, score = &act.Lines[i], s
		}
	}
	switch {
	case !p.HasTotal:
		m.Points = append(m.Points, Point{Text: "Сумма документа не прочитана — проведён ли он, не проверял"})
		return m, nil
	case best == nil:
		m.Points = append(m.Points, Point{Text: fmt.Sprintf("Поступления на %s%s в 1С нет — документ не проведён", onec.Kopecks(p.Total), around(p.Date))})
	default:
		m.Posted = best
		m.Points = append(m.Points, Point{OK: true, Text: fmt.Sprintf("Проведён: поступление № %s от %s на %s", best.Number, best.Date.Format("02.01.2006"), best.Credit)})
	}
	m.Points = append(m.Points, payment(act, best, p, today))
	return m, nil
}

// payment says whether the document is paid: our payments to the seller over the period, after
// what the opening balance owed and the purchases before it, cover it (first in, first out).
func payment(act Act, doc *Line, p Primary, today time.Time) Point {
	debt := max(-act.Closing, 0)
	if doc == nil {
		if debt == 0 {
			return Point{OK: true, Text: fmt.Sprintf("Долга перед %s на %s нет", act.Theirs.Name, today.Format("02.01.2006"))}
		}
		return Point{Text: fmt.Sprintf("Долг перед %s на %s: %s", act.Theirs.Name, today.Format("02.01.2006"), debt)}
	}
	owedBefore := max(-act.Opening, 0)
	paid := max(act.Opening, 0) // an advance of ours at the start
	for _, l := range act.Lines {
		paid += l.Debit
	}
	for i := range act.Lines {
		l := &act.Lines[i]
		if l == doc {
			break
		}
		owedBefore += l.Credit
	}
	covered := paid - owedBefore
	switch {
	case covered >= doc.Credit:
		return Point{OK: true, Text: fmt.Sprintf("Оплачен: платежи %s покрывают его (по очереди документов)", act.Theirs.Name)}
	case covered > 0:
		return Point{Text: fmt.Sprintf("Оплачен частично: %s из %s, остаток %s", onec.Kopecks(covered), doc.Credit, doc.Credit-onec.Kopecks(covered))}
	}
	return Point{Text: fmt.Sprintf("Не оплачен: долг перед %s на %s — %s", act.Theirs.Name, today.Format("02.01.2006"), debt)}
}

func sameDay(a, b time.Time) bool {
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}

// sameNumber: the numbers' digits agree without leading zeros («СВ00-000028» and «28»).
func sameNumber(a, b string) bool {
	digits := func(s string) string {
		if i := strings.LastIndexAny(s, "-/ "); i >= 0 && i < len(s)-1 {
			s = s[i+1:]
		}
		s = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
		return strings.TrimLeft(s, "0")
	}
	da, db := digits(a), digits(b)
	return da != "" && da == db
}

// around is « около 02.03.2026» for a known date.
func around(d time.Time) string {
	if d.IsZero() {
		return ""
	}
	return " около " + d.Format("02.01.2006")
}
