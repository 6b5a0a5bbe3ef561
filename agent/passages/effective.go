package passages

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// From when a change holds: «допник 2 с какого числа новая ставка» is the day the agreement's
// new wording of the rates applies from (Amendment.From: «С 01 октября 2026 г. пункт 4.1
// Договора изложить …»), «когда вступил в силу допник» the agreement's own date when it enters
// into force on signing.

var (
	// asksSince: the question asks from which day something holds.
	asksSince = regexp.MustCompile(`(?i)(^|[^\p{L}])(с\s+какого\s+(числа|дня|месяца|момента)|с\s+какой\s+даты|с\s+когда|откогда|когда\s+(вступ\p{L}*|начина\p{L}*|подорожа\p{L}*|поменя\p{L}*|измени\p{L}*|повыси\p{L}*))([^\p{L}]|$)`)
	// asksInForce: the question asks when a document enters into force.
	asksInForce = regexp.MustCompile(`(?i)вступ\p{L}*\s+в\s+силу|в\s+силу\s+вступ`)
	// asksSupplement: the question is about a supplementary agreement.
	asksSupplement = regexp.MustCompile(`(?i)допник|доп\.?\s*соглаш|дополнительн\p{L}*\s+соглаш|(^|[^\p{L}])дс\s*№?\s*\d*([^\p{L}]|$)`)
	// dearer: the question asks when a price rose.
	dearer = regexp.MustCompile(`(?i)подорож|дороже|повыс|повыш|выросл|увелич`)
	// roubles: an amount in roubles («760,00 руб.», «600 118,00 (…) рублей»), not a percentage.
	roubles = regexp.MustCompile(`\d{1,3}(?:[ \x{00a0}\x{202f}]\d{3})*,\d{2}\s*(?:\([^()]{1,120}\)\s*)?(?:руб|₽)`)
	// inForceOnSigning: «вступает в силу с даты его подписания».
	inForceOnSigning = regexp.MustCompile(`(?i)вступает\s+в\s+силу\s+с\s+(даты|момента)\s+(его\s+|её\s+|ее\s+)?подписания`)
)

// effectiveFor is the line (Markdown) that dates from when what the question asks about holds,
// and the unit that says it. For «когда вступил в силу», a best hit on entry into force on
// signing, with its document's date. Else the new wordings of the supplementary agreements among
// the best hits' documents (or amending them) that speak of what the question names («ставка»:
// the wording of the rates, not of the payment's term): their day, when they share one; each
// with its day when they do not. "" when the question asks no such day or nothing dates it.
func effectiveFor(q Question, hits []library.ClauseHit, rds []*readDoc, docs []docstore.Doc) (string, library.ClauseHit) {
	if !asksSince.MatchString(q.Text) {
		return "", library.ClauseHit{}
	}
	esc := md.Escape
	// «допник по лизингу» is no agreement to the cleaning contract, whatever its clauses score
	other := func(doc int) bool { c := contractOf(rds, doc); return c < 0 || namesAnother(q.Text, rds, docs, c) }
	if asksInForce.MatchString(q.Text) {
		for _, h := range hits[:min(len(hits), effectiveHits)] {
			if asksSupplement.MatchString(q.Text) && len(rds[h.Doc].amends) == 0 {
				continue // «когда вступил в силу допник по лизингу»: the lease's own entry into force is not asked
			}
			if d := rds[h.Doc].header.Date; inForceOnSigning.MatchString(h.Unit.Text) && !d.IsZero() && !other(h.Doc) {
				return esc("С даты подписания — ") + "**" + esc(d.Format("02.01.2006")) + "**" +
					esc(fmt.Sprintf(" (%s%s, %s).", amendedBy(rds[h.Doc], docs[h.Doc]), toContract(rds[h.Doc]), unitPlace(h.Unit, docs[h.Doc].Meta))), h
			}
		}
		return "", library.ClauseHit{}
	}
	// the supplementary agreements of the best hits' documents
	var from []int
	for _, h := range hits[:min(len(hits), effectiveHits)] {
		for i, rd := range rds {
			if len(rd.amends) > 0 && !slices.Contains(from, i) && !other(i) && (i == h.Doc || library.SameNumber(rd.amends[0].Contract, rds[h.Doc].header.Number)) {
				from = append(from, i)
			}
		}
	}
	stems := sinceStems(q.Text)
	type dated struct {
		am  library.Amendment
		doc int
	}
	var all, named []dated
	for _, i := range from {
		for _, am := range rds[i].amends {
			if am.From.IsZero() {
				continue
			}
			if dearer.MatchString(q.Text) && !roubles.MatchString(am.Text) {
				continue // «с какого числа подорожала»: a wording that states an amount
			}
			all = append(all, dated{am, i})
			if speaksOf(am.Text, stems) {
				named = append(named, dated{am, i})
			}
		}
	}
	pick := named
	if len(pick) == 0 {
		pick = all
	}
	if len(pick) == 0 {
		return "", library.ClauseHit{}
	}
	first := library.ClauseHit{Doc: pick[0].doc, Unit: pick[0].am.Unit}
	same := !slices.ContainsFunc(pick, func(d dated) bool { return !d.am.From.Equal(pick[0].am.From) })
	if same {
		var clauses, rows []string
		for _, d := range pick {
			if d.am.Row != "" {
				rows = append(rows, d.am.Of())
			} else {
				clauses = append(clauses, d.am.Clause)
			}
		}
		what := "Новая редакция п. " + strings.Join(clauses, ", ") + " договора действует с "
		switch {
		case len(clauses) == 0:
			what = "Новую " + strings.Join(rows, ", ") + " применяют с "
		case len(rows) > 0:
			what = "Новая редакция п. " + strings.Join(clauses, ", ") + " договора и новую " + strings.Join(rows, ", ") + " применяют с "
		}
		return esc(what) + "**" + esc(pick[0].am.From.Format("02.01.2006")) + "**" +
			esc(fmt.Sprintf(" (%s%s, %s).", amendedBy(rds[pick[0].doc], docs[pick[0].doc]), toContract(rds[pick[0].doc]), unitPlace(pick[0].am.Unit, docs[pick[0].doc].Meta))), first
	}
	// different days: each wording with its own, none stated as the answer
	var b strings.Builder
	b.WriteString(esc("Новые редакции действуют с разных дат:"))
	for _, d := range pick {
		b.WriteString("\n" + esc(fmt.Sprintf("- %s — с %s (%s%s, %s);", d.am.Of(), d.am.From.Format("02.01.2006"), amendedBy(rds[d.doc], docs[d.doc]), toContract(rds[d.doc]), unitPlace(d.am.Unit, docs[d.doc].Meta))))
	}
	return strings.TrimSuffix(b.String(), ";"), first
}

// toContract names the contract a supplementary agreement amends: « к договору № КЛ-55/2026».
func toContract(rd *readDoc) string {
	if len(rd.amends) == 0 || rd.amends[0].Contract == "" {
		return ""
	}
	return " к договору № " + rd.amends[0].Contract
}

// sinceStems are the first five letters of the words of a «с какого числа» question that name
// what changed («ставка», «аренда»), not how it asks («какого», «числа», «новая», «допник»).
func sinceStems(q string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) }) {
		r := []rune(w)
		if len(r) < 4 || sinceStop[w] || slices.ContainsFunc(sinceStopStems, func(p string) bool { return strings.HasPrefix(w, p) }) {
			continue
		}
		out = append(out, string(r[:min(len(r), 5)]))
	}
	return out
}

// speaksOf reports whether a word of text opens with one of stems — a party's role
// («Субарендатор», «Арендодатель») aside: «субаренда» asks of the lease, not of its parties.
func speaksOf(text string, stems []string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if role.MatchString(w) {
			continue
		}
		for _, s := range stems {
			if strings.HasPrefix(w, s) {
				return true
			}
		}
	}
	return false
}

// role: the ending of a party's role («арендатор», «арендодатель», «поставщик», «заказчик»).
var role = regexp.MustCompile(`(тор|тель|щик|чик)(а|у|ом|е|ы|ов|ам|ами|ах)?$`)

// sinceStopStems open the words of how a change is asked about, in any form («допника»,
// «действует», «подорожала», «новая»).
var sinceStopStems = []string{"допник", "соглашен", "договор", "действ", "вступ", "подорож", "измен", "нов"}

var sinceStop = map[string]bool{"какого": true, "какой": true, "какая": true, "числа": true, "число": true, "даты": true, "дата": true, "когда": true,
	"откогда": true, "силу": true, "момента": true, "месяца": true, "начинается": true, "начинает": true, "поменялась": true, "поменялся": true, "повысилась": true}

// effectiveHits is how many of the best hits effectiveFor looks at.
const effectiveHits = 3
