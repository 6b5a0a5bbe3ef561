package library

import (
	"regexp"
	"time"
)

// Term is how long a contract runs, as its clauses say: until a date, for an indefinite term,
// or until its obligations are performed (with the last date they fall due, when one is
// stated).
type Term struct {
	End        time.Time // zero when the contract states no end date
	Start      time.Time // the first day, when the clause that states the end states it too («с 01 марта 2026 г.»)
	Indefinite bool      // «заключён на неопределённый срок»
	// Performance: «действует до полного исполнения обязательств»; End is then the last
	// date an obligation falls due («окончательный срок возврата займа — 30 июня 2027 г.»).
	Performance bool
	Unit        Unit // the clause that says it
	// Renewal is the clause that prolongs the contract unless a party objects («Договор
	// считается продлённым на тот же срок»), when there is one.
	Renewal *Unit
	// Exit is the clause on ending an indefinite contract by notice («вправе в одностороннем
	// порядке отказаться от Договора, уведомив … за 30 календарных дней»).
	Exit *Unit
}

var (
	// runsUntil: «действует до 31 декабря 2026 г.», «Срок аренды … по 31 декабря 2026 г.»,
	// «заключён на срок до 31.12.2026».
	// «Договор действует с 01 апреля 2026 г. по 31 марта 2027 г.», «Срок субаренды — с … по …»,
	// «Срок лицензии — 12 месяцев: с … по …».
	runsUntil = regexp.MustCompile(`(?i)(действует(?:\s+с\s+(?:(?:` + headerDate.String() + `)(?:\s*г\.)?|даты\s+(?:его\s+)?подписания))?|срок\s+(?:(?:суб)?аренды|(?:суб)?лицензии|действия\s+договора|договора)(?:[^.;]|г\.){0,60}?|заключ\p{L}*\s+на\s+срок)\s+(?:до|по)\s+(?P<end>` + headerDate.String() + `)`)
	// runsFrom: the first day of a term («с 01 марта 2026 г. по …»).
	runsFrom = regexp.MustCompile(`(?i)(?:^|[^\p{L}])с\s+((?:` + headerDate.String() + `))`)
	// indefinite: «заключён на неопределённый срок», «действует бессрочно».
	indefinite = regexp.MustCompile(`(?i)неопредел[её]нный\s+срок|бессрочн`)
	// untilPerformed: «действует до полного исполнения Сторонами своих обязательств».
	untilPerformed = regexp.MustCompile(`(?i)действует\s+до\s+(?:полного\s+)?исполнения`)
	// renews: «…Договор считается продлённым на тот же срок», «пролонгируется», «срок оказания
	// услуг продлевается до 31 января 2028 г.».
	renews = regexp.MustCompile(`(?i)считается\s+продл|пролонгир|автоматически\s+продл|продлевается\s+(?:на|до)\s`)
	// exitByNotice: a party may leave the contract by a notice given some days ahead.
	exitByNotice = regexp.MustCompile(`(?i)(отказ\p{L}*|расторг\p{L}*)[^.;]{0,120}?уведом\p{L}*[^.;]{0,80}?за\s+\d`)
	// termSection: the section on the contract's term («Срок действия и прекращение Договора»).
	termSection = regexp.MustCompile(`(?i)срок\p{L}*\s+(действия|договора)`)
	// runsFromTo: a period from one date to another («с 01 февраля 2026 г. по 31 января 2027 г.»).
	runsFromTo = regexp.MustCompile(`(?i)(?:^|[^\p{L}])с\s+(?P<from>` + headerDate.String() + `)(?:\s*г\.)?\s+(?:по|до)\s+(?P<to>` + headerDate.String() + `)`)
	// finalDate: «Окончательный срок возврата займа — не позднее 30 июня 2027 г.».
	finalDate = regexp.MustCompile(`(?i)окончательн\p{L}*\s+срок(?:[^.;]|г\.){0,60}?(` + headerDate.String() + `)`)
)

// TermOf reads how long the contract us runs; ok is false when no clause says.
func TermOf(us []Unit) (Term, bool) {
	var t Term
	found := false
	for _, u := range us {
		if u.Kind != UnitClause {
			continue
		}
		if m := runsUntil.FindStringSubmatch(u.Text); m != nil {
			if d, ok := firstDate(m[runsUntil.SubexpIndex("end")]); ok && (t.End.IsZero() || t.Performance) {
				t = Term{End: d, Unit: u}
				if f := runsFrom.FindStringSubmatch(m[0]); f != nil {
					if from, ok := firstDate(f[1]); ok && from.Before(d) {
						t.Start = from
					}
				}
				found = true
			}
		}
		if !found && indefinite.MatchString(u.Text) {
			t = Term{Indefinite: true, Unit: u}
			found = true
		}
		if !found && untilPerformed.MatchString(u.Text) {
			t = Term{Performance: true, Unit: u}
			found = true
		}
	}
	if !found {
		// «Раздел 7. Срок действия …» — «7.1. … Услуги оказываются с 01 февраля 2026 г. по 31 января
		// 2027 г.»: the period its term section states is the contract's
		section := ""
		for _, u := range us {
			if u.Kind == UnitText && namedSection.MatchString(u.Text) {
				section = u.Text // «Раздел 7. Срок действия и прекращение Договора»
				continue
			}
			if u.Kind != UnitClause || !termSection.MatchString(u.Section+" "+section) {
				continue
			}
			if m := runsFromTo.FindStringSubmatch(u.Text); m != nil {
				from, ok1 := firstDate(m[runsFromTo.SubexpIndex("from")])
				end, ok2 := firstDate(m[runsFromTo.SubexpIndex("to")])
				if ok1 && ok2 && from.Before(end) {
					t, found = Term{End: end, Start: from, Unit: u}, true
					break
				}
			}
		}
	}
	if found {
		t.Renewal = firstClause(us, renews)
	}
	if found && t.Indefinite {
		t.Exit = firstClause(us, exitByNotice)
	}
	if found && t.Performance {
		for _, u := range us {
			if m := finalDate.FindStringSubmatch(u.Text); m != nil {
				if d, ok := firstDate(m[1]); ok {
					t.End = d
					break
				}
			}
		}
	}
	return t, found
}

// firstClause is the first clause of us that re matches; nil when none does.
func firstClause(us []Unit, re *regexp.Regexp) *Unit {
	for _, u := range us {
		if u.Kind == UnitClause && re.MatchString(u.Text) {
			return &u
		}
	}
	return nil
}
