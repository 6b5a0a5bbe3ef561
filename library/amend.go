package library

import (
	"regexp"
	"strings"
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
	for _, u := range us {
		if m := newWording.FindStringSubmatch(u.Text); m != nil {
			out = append(out, Amendment{Contract: contract, Clause: m[1], Text: strings.TrimSpace(m[2]), Unit: u})
		}
	}
	return out
}

// SameNumber reports whether two document numbers are one («318-П» and «318-п»).
func SameNumber(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	return a != "" && norm(a) == norm(b)
}
