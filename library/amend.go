package library

import (
	"regexp"
	"strings"
	"time"
)

// An amendment: a supplementary agreement that sets a contract's clause anew («Пункт 2.2
// Договора изложить в следующей редакции: «2.2. Общая сумма Договора составляет …»»). A
// clause so amended is answered in its new wording — quoting the original alone would state a
// sum or a date that no longer holds.

// Amendment is one clause of a contract set anew by another document.
type Amendment struct {
	// Contract is the number of the contract amended («318-П»), as the amending document's
	// header names it.
	Contract string
	// Clause is the clause set anew («2.2»); Text its new wording, without the quotes.
	Clause, Text string
	// Unit is the amending document's unit that does it.
	Unit Unit
	// From is the first month whose payment the new wording applies to, when the agreement
	// says so («Новый срок применяется начиная с платы за декабрь 2026 г.»): a month before it
	// is paid as the clause read before; zero when it does not say.
	From time.Time
}

var (
	// amendedContract: «к Договору поставки № 318-П от 24 ноября 2025 г.».
	amendedContract = regexp.MustCompile(`(?i)к\s+договору[^№]{0,60}№\s*([\p{L}\d](?:[\p{L}\d/\-.]*[\p{L}\d])?)`)
	// newWording: «Пункт 2.2 Договора изложить в следующей редакции: «…»».
	newWording = regexp.MustCompile(`(?i)(?:пункт|подпункт)\s+(\d{1,2}(?:\.\d{1,3}){0,3})\s+договора\s+изложить\s+в\s+(?:следующей|новой)\s+редакции\s*:?\s*«(.+)»`)
)

// Amendments are the clauses a document sets anew in the contract its header names; none when
// it amends no contract.
func Amendments(us []Unit) []Amendment {
	contract := ""
	for i, u := range us {
		if u.Kind == UnitClause || i >= 6 {
			break
		}
		for _, l := range []string{u.Section, u.Text} {
			if m := amendedContract.FindStringSubmatch(l); m != nil && contract == "" {
				contract = m[1]
			}
		}
	}
	if contract == "" {
		return nil
	}
	var out []Amendment
	for i, u := range us {
		if m := newWording.FindStringSubmatch(u.Text); m != nil {
			am := Amendment{Contract: contract, Clause: m[1], Text: strings.TrimSpace(m[2]), Unit: u}
			// the transition said in the unit itself or in the paragraph right after it
			for _, t := range []string{u.Text[strings.Index(u.Text, m[0])+len(m[0]):], nextText(us, i)} {
				if f := appliesFrom.FindStringSubmatch(t); f != nil {
					if d, ok := firstDate("01 " + f[1] + " " + f[2]); ok {
						am.From = d
						break
					}
				}
			}
			out = append(out, am)
		}
	}
	return out
}

// appliesFrom: the first payment a new wording applies to («Новый срок применяется начиная с
// платы за декабрь 2026 г.», «…с платежа за ноябрь 2026 года»).
var appliesFrom = regexp.MustCompile(`(?i)применя\p{L}*\s+(?:начиная\s+)?с\s+(?:платы|платежа|оплаты)\s+за\s+(\p{L}+)\s+(\d{4})`)

// nextText is the text of the unit after us[i] when it is an unnumbered paragraph, else "".
func nextText(us []Unit, i int) string {
	if i+1 < len(us) && us[i+1].Kind == UnitText {
		return us[i+1].Text
	}
	return ""
}

// SameNumber reports whether two document numbers are one («318-П» and «318-п»).
func SameNumber(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	return a != "" && norm(a) == norm(b)
}
