package passages

// «акт 1187 до какого оплатить», «упд получили 04.12 — до какого платить»: a form (an act, a
// УПД, an invoice) that states no term of payment of its own is paid by the contract it
// follows («Основание: Договор № ИТ-08/2026 от 26.01.2026»). The contract's clause that sets
// when such a form is paid («в течение 10 рабочих дней с даты подписания акта») is counted from
// the day the question gives («получили 04.12») or — for a term counted from the form's signing
// — from the day our side signed it, by the form's electronic-signature stamp («Получатель: ООО
// «Северная Мануфактура», …; подписан 02.12.2026 16:42 (МСК)»).

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// formTitle: the document is a form, not a contract («АКТ № 1187 …», «СЧЁТ НА ОПЛАТУ № …»,
	// «Универсальный передаточный документ»).
	formTitle = regexp.MustCompile(`(?i)^\s*(акт(?:\s|$)|акт\s+№|сч[её]т|упд|универсальн\p{L}*\s+передаточн|товарн\p{L}*\s+накладн|накладн)`)
	// formBasis: the contract a form follows («Основание: Договор № ИТ-08/2026 от 26.01.2026»).
	formBasis = regexp.MustCompile(`(?i)основани\p{L}*[^:\n]{0,60}:\s*договор\p{L}*[^№\n]{0,60}№\s*([\p{L}\d](?:[\p{L}\d/\-.]*[\p{L}\d])?)`)
	// formPaid: a contract's clause on paying by a form («… с даты подписания акта», «… с даты
	// получения счёта и УПД»).
	formPaid = regexp.MustCompile(`(?i)(акт\p{L}*|упд|сч[её]т\p{L}*|накладн\p{L}*|передаточн\p{L}*)`)
	// fromFormSigning: the term counts from the form's signing («с даты подписания акта»).
	fromFormSigning = regexp.MustCompile(`(?i)с\s+(даты|дня|момента)\s+подписания\s+(\p{L}+\s+){0,3}?(акт\p{L}*|упд|накладн\p{L}*)`)
	// deadlineDate: a form's own day to pay by («не позднее 10.12.2026»).
	deadlineDate = regexp.MustCompile(`(?i)(не\s+позднее|до)\s+\d{2}\.\d{2}\.\d{4}`)
	// signedAsked: the question dates a signing («подписали 03.12»).
	signedAsked = regexp.MustCompile(`(?i)подпис`)
	// signedStamp: an e-signature stamp's line — the side, the signer, the day it signed.
	signedStamp = regexp.MustCompile(`(?i)(получатель|отправитель|подписант|покупатель|продавец|исполнитель|заказчик)[^:\n]{0,20}:\s*([^,;\n]+)[^\n]*?подписан\p{L}*\s+(\d{2}\.\d{2}\.\d{4})`)
)

// formTermFor is the line (Markdown) that dates the payment of the form q asks of by the
// contract it follows, and the units it rests on (the contract's clause, the form's stamp);
// "" when the best unit is no form's, the form names no contract the user has, or the
// contract sets no term for it. A term the question gives no day to count from is quoted
// with the contract's clause, undated.
func formTermFor(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit, place func(library.ClauseHit) string) (string, []library.ClauseHit) {
	if len(hits) == 0 || !asksPaying.MatchString(q.Text) || !askedDeadline.MatchString(q.Text) && !asksTermOf.MatchString(q.Text) {
		return "", nil
	}
	// the form: the best unit's document, or one the question names among the best units
	// («упд 1452 до какого оплатить» whose words a contract's clause holds better)
	f := -1
	for i, h := range hits[:min(len(hits), 5)] {
		isForm := formTitle.MatchString(rds[h.Doc].header.Title) || formTitle.MatchString(docs[h.Doc].Meta.Title)
		if isForm && (i == 0 || h.Named) {
			f = h.Doc
			break
		}
	}
	if f < 0 {
		return "", nil
	}
	c, basis := -1, ""
	var basisUnit library.ClauseHit
	for _, u := range rds[f].cd.Units {
		m := formBasis.FindStringSubmatch(u.Text)
		if m == nil {
			continue
		}
		basis, basisUnit = m[1], library.ClauseHit{Doc: f, Unit: u}
		for i, rd := range rds {
			if i != f && len(rd.amends) == 0 && rd.header.Number != "" && library.SameNumber(rd.header.Number, m[1]) {
				c = i
			}
		}
		break
	}
	if c < 0 && basis != "" && !slices.ContainsFunc(rds[f].cd.Units, func(u library.Unit) bool { return termDays.MatchString(u.Text) || deadlineDate.MatchString(u.Text) }) {
		// the contract it follows is not among the user's documents: another contract's term is
		// no answer
		return md.Escape("Срока оплаты в этом документе не нашёл, а договора, на основании которого он составлен, в ваших документах нет.") +
			"\n" + md.Escape("«"+docs[f].Meta.Title+"» составлен по договору № "+basis+": загрузите договор, и я отвечу по нему."), []library.ClauseHit{basisUnit}
	}
	if c < 0 {
		return "", nil
	}
	var clause library.ClauseHit
	var m []string
	for _, u := range rds[c].cd.Units {
		if u.Kind != library.UnitClause {
			continue
		}
		if tm := termDays.FindStringSubmatch(u.Text); tm != nil && statesPaying.MatchString(u.Text) && formPaid.MatchString(u.Text[strings.Index(u.Text, tm[0]):]) {
			clause, m = library.ClauseHit{Doc: c, Unit: u}, tm
			break
		}
	}
	if m == nil {
		return "", nil
	}
	esc := md.Escape
	what := "«" + docs[f].Meta.Title + "»"
	lead := esc("Срок оплаты " + what + " — по договору № " + rds[c].header.Number + ", на основании которого он составлен (" + place(clause) + ")")
	units := []library.ClauseHit{clause}
	var from time.Time
	how := ""
	bySigning := fromFormSigning.MatchString(clause.Unit.Text)
	if p, ok, err := ru.ParsePeriod(q.Text, q.Now); err == nil && ok && p.Kind == ru.KindDay && !q.Now.IsZero() &&
		(!bySigning || signedAsked.MatchString(q.Text)) {
		from, how = p.From, " с "+p.From.Format("02.01.2006")
	} else if bySigning {
		// counted from the form's signing: the day our side signed it, not the day it came
		if d, stamp, ok := ourSignature(rds, docs, f); ok {
			from, how = d, " с даты подписания нашей стороной "+d.Format("02.01.2006")+" (отметка об электронной подписи в "+what+")"
			units = append(units, stamp)
		}
	}
	if from.IsZero() {
		return lead + esc("."), units // no day to count from: the clause says how
	}
	n, _ := strconv.Atoi(m[1])
	kind := strings.ToLower(m[2])
	day := addTerm(from, n, kind, 1)
	days, note := termDaysText(n, kind), workingDaysNote(kind)
	if day.Before(time.Date(q.Now.Year(), q.Now.Month(), q.Now.Day(), 0, 0, 0, 0, day.Location())) {
		note += "; этот срок уже прошёл"
	}
	return lead + esc(": до ") + "**" + esc(day.Format("02.01.2006")) + "**" + esc(" включительно ("+days+how+", со следующего дня"+note+")."), units
}

// ourSignature is the day the user's own company signed form f, by its e-signature stamp, and
// the unit that states it.
func ourSignature(rds []*readDoc, docs []docstore.Doc, f int) (time.Time, library.ClauseHit, bool) {
	own := fold(ownCompany(rds, docs))
	for _, sg := range signaturesOf(rds[f]) {
		if ours(sg.company, own) {
			return sg.day, library.ClauseHit{Doc: f, Unit: sg.unit}, true
		}
	}
	return time.Time{}, library.ClauseHit{}, false
}

// ours reports whether a stamp's company is own, the user's company folded ("": unknown, none).
func ours(company, own string) bool {
	c := strings.TrimSpace(fold(company))
	return own != "" && (strings.Contains(c, own) || strings.Contains(own, c))
}

// signedWhen: the question asks when a document was signed («когда подписали акт»).
var signedWhen = regexp.MustCompile(`(?i)когда\s+(\p{L}+\s+){0,3}подпис|дат\p{L}*\s+подписани`)

// signature is one side's e-signature stamp on a document: who signed for which company, when.
type signature struct {
	company, signer string
	day             time.Time
	unit            library.Unit // the unit that states it
}

// signaturesOf are the e-signature stamps a document ends with («Отправитель: ООО «…»,
// Ганиев Тимур Рашидович, генеральный директор; …; подписан 01.12.2026 10:14 (МСК)»).
func signaturesOf(rd *readDoc) []signature {
	var out []signature
	for _, u := range rd.cd.Units {
		for _, m := range signedStamp.FindAllStringSubmatch(u.Text, -1) {
			d, err := time.ParseInLocation("02.01.2006", m[3], ru.Moscow)
			if err != nil {
				continue
			}
			sg := signature{company: strings.TrimSpace(m[2]), day: d, unit: u}
			if rest := strings.SplitN(u.Text[strings.Index(u.Text, m[2])+len(m[2]):], ";", 2); len(rest) > 0 {
				sg.signer = strings.Trim(rest[0], " ,")
			}
			out = append(out, sg)
		}
	}
	return out
}
