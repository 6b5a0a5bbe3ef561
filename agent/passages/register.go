package passages

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// The user's contracts as a register: «какие у нас договоры истекают в этом году» lists each
// contract's term from its own clause; «с кем у нас договоры» lists each one's counterparty.

var (
	// asksEnds: the question asks when contracts end («какие договоры истекают в этом году»,
	// «срок действия договоров»).
	asksEnds = regexp.MustCompile(`(?i)(истека|истечет|истечёт|заканчива|закончи|оконч|(^|[^\p{L}])конча|срок\p{L}*\s+действия|действу\p{L}*\s+до|до\s+конца\s)`)
	// asksRenewal: whether a contract renews itself («продлится ли», «пролонгация»).
	asksRenewal = regexp.MustCompile(`(?i)продлит|продлевает|продлён|продлен|пролонг`)
	// asksLeft: how long is left until a contract ends («сколько дней осталось до конца аренды»).
	asksLeft = regexp.MustCompile(`(?i)(сколько|скока|скоко)\s+(?:\p{L}+\s+)?(дней|дня|месяцев|месяца|недель|лет|времени)\s+(?:\p{L}+\s+)?осталось|` +
		`осталось\s+(?:\p{L}+\s+)?(?:\p{L}+\s+)?(дней|месяцев|недель|времени)|(сколько|скока|скоко)\s+(?:ещ[её]\s+)?осталось\s+до\s+(конца|окончани)`)
	// asksContracts: the question is about the contracts as a list, not one of them.
	asksContracts = regexp.MustCompile(`(?i)(как\p{L}+|все|всех|наши|список|перечень)\s+(у\s+нас\s+)?договор\p{L}*|договор(ы|ов|ам)(\s|$|\?)`)
	// asksWhatEnds: «что истекает в январе 27», «что у нас заканчивается в этом году» — what ends,
	// of all the user has.
	asksWhatEnds = regexp.MustCompile(`(?i)^\s*(что|какие|какой|какая|у\s+нас\s+что)\s+(у\s+нас\s+)?(истека|истеч|заканчива|закончит|конча)`)
	// asksWhoWith: «с кем у нас договоры», «кто наши контрагенты по договорам».
	asksWhoWith = regexp.MustCompile(`(?i)с\s+кем\s+(у\s+нас\s+)?(договор|заключ)|контрагент\p{L}*\s+по\s+(нашим\s+)?договор|с\s+какими\s+(компаниями|организациями|контрагентами)`)
	// compareTerms: «сравни … по срокам», «сроки аренды и займа».
	compareTerms = regexp.MustCompile(`(?i)сравн\p{L}*[^?]{0,80}\s+по\s+срок`)
	// contractTitle: a document that is a contract (not an act, a policy, an agreement to one).
	// asksValidity: until when or for how long a contract runs («до какой даты лицензия», «на
	// сколько месяцев заключена субаренда», «на какой срок договор»).
	asksValidity = regexp.MustCompile(`(?i)до\s+какой\s+даты|по\s+какое\s+число|до\s+какого\s+(числа|времени)\s+действ|на\s+какой\s+срок|на\s+сколько\s+(месяцев|лет|дней)\s+(заключ|подпис|действ|оформ)|(заключ\p{L}*|действует)\s+на\s+сколько|` +
		`(как\s+долго|сколько)\s+(\p{L}+\s+)?(действ|длится)\p{L}*\s+(\p{L}+\s+)?(договор|контракт|аренд|субаренд|лиценз|сублиценз)`)
	// actionVerb: the question asks the time limit of something done under the contract
	// («до какой даты оплатить», «сообщить»), not the contract's own term.
	actionVerb = regexp.MustCompile(`(?i)плат|оплат|внес|вернут|возвра|перечисл|сообщ|уведом|подать|подат|представ|выстав|сдать|отчит|отчет|отчёт|аванс|постав|отгруз|привез`)
	// contractName: a contract named by its kind («договор поставки», «дог. оказания услуг»):
	// its word is no action asked.
	contractName = regexp.MustCompile(`(?i)(договор\p{L}*|дог\.?|контракт\p{L}*)\s+\p{L}+`)
	// noticeDays: how many days before the end a party must say it ends the contract («не
	// позднее чем за 30 (тридцать) календарных дней до окончания»).
	noticeDays = regexp.MustCompile(`(?i)за\s+(\d{1,3})\s*(?:\([^)]*\)\s*)?(?:календарных\s+)?дн\p{L}*\s+до\s+(?:окончания|истечения)`)
	// «АГЕНТСКИЙ ДОГОВОР», «СУБЛИЦЕНЗИОННЫЙ ДОГОВОР» too.
	contractTitle = regexp.MustCompile(`(?i)^\s*(\p{L}+(ый|ий|ой)\s+)?(договор|контракт)`)
)

// register answers a question about the user's contracts as a list; ok is false for any other.
func register(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit) (skill.Reply, bool) {
	switch {
	case asksWhoWith.MatchString(q.Text):
		var named []int // «с кем у нас договор аренды»: that one
		for _, h := range hits {
			if h.Named && !slices.Contains(named, h.Doc) {
				named = append(named, h.Doc)
			}
		}
		return withWhom(rds, docs, named)
	case asksEnds.MatchString(q.Text) && (asksContracts.MatchString(q.Text) || asksWhatEnds.MatchString(q.Text)):
		return contractEnds(q, rds, docs, nil)
	case compareTerms.MatchString(q.Text):
		// «сравни аренду и заём по срокам»: the terms of the contracts the question names
		var named []int
		for _, h := range hits {
			if h.Affinity > 0 && !slices.Contains(named, h.Doc) && isContract(rds[h.Doc], docs[h.Doc]) {
				named = append(named, h.Doc)
			}
		}
		if len(named) >= 2 {
			return contractEnds(q, rds, docs, named)
		}
	}
	if asksRenewal.MatchString(q.Text) && !askedDeadline.MatchString(q.Text) {
		// «дог тэ продлится на 27й? от пролонгации ещё успеем отказаться»: the contract the
		// question names, when it renews itself — its term, the renewal and the last day to refuse
		for _, h := range hits {
			if h.Named && isContract(rds[h.Doc], docs[h.Doc]) {
				if t, ok := library.TermOf(rds[h.Doc].cd.Units); ok && t.Renewal != nil {
					return contractEnds(q, rds, docs, []int{h.Doc})
				}
				break
			}
		}
	}
	acts := actionVerb.MatchString(contractName.ReplaceAllString(q.Text, " "))
	if asksEnds.MatchString(q.Text) && !acts || asksLeft.MatchString(q.Text) || asksValidity.MatchString(q.Text) && !acts {
		// «когда истекает договор аренды», «когда заканчивается аренда»: the contract the question
		// names, even when another document's clause uses the word («заканчивается 31 марта»)
		for _, h := range hits {
			if h.Named && isContract(rds[h.Doc], docs[h.Doc]) {
				return contractEnds(q, rds, docs, []int{h.Doc})
			}
		}
	}
	return skill.Reply{}, false
}

// isContract: the document's own title says it is a contract.
func isContract(rd *readDoc, d docstore.Doc) bool {
	return contractTitle.MatchString(rd.header.Title) || rd.header.Title == "" && contractTitle.MatchString(d.Meta.Title)
}

// contractEnds lists each contract's term, those that end in the period the question names
// (if it names one) first.
func contractEnds(q Question, rds []*readDoc, docs []docstore.Doc, only []int) (skill.Reply, bool) {
	type row struct {
		doc  int
		term library.Term
	}
	var rows []row
	for i, rd := range rds {
		if !isContract(rd, docs[i]) || only != nil && !slices.Contains(only, i) {
			continue
		}
		if t, ok := library.TermOf(rd.cd.Units); ok {
			rows = append(rows, row{i, t})
		}
	}
	if len(rows) == 0 {
		return skill.Reply{}, false
	}
	slices.SortStableFunc(rows, func(a, b row) int { return undatedLast(a.term.End, b.term.End) })
	var from, to time.Time
	span := ""
	if !q.Now.IsZero() {
		if p, ok := periodOf(q.Text, q.Now); ok && !p.Single() {
			from, to = p.From, p.To
			span = p.From.Format("02.01.2006") + "–" + p.To.Format("02.01.2006")
		}
	}
	esc := md.Escape
	own := ownCompany(rds, docs)
	var in, out []string
	lines := make([]string, len(rows)) // by row, in their order
	var r skill.Reply
	for i, x := range rows {
		d := docs[x.doc].Meta
		r.Sources = append(r.Sources, facts.Source{Title: d.Title})
		r.Quoted = append(r.Quoted, d.ID)
		n := len(r.Sources)
		where := unitPlace(x.term.Unit, d)
		var what string
		switch {
		case x.term.Indefinite:
			what = "бессрочный (заключён на неопределённый срок)"
		case x.term.Performance && !x.term.End.IsZero():
			what = "до исполнения обязательств; последний срок — " + x.term.End.Format("02.01.2006")
		case x.term.Performance:
			what = "до исполнения обязательств"
		default:
			what = "до " + x.term.End.Format("02.01.2006")
		}
		paren := where
		if !x.term.Start.IsZero() && !x.term.End.IsZero() {
			paren = "с " + x.term.Start.Format("02.01.2006") + ", " + spanOf(x.term.Start, x.term.End) + "; " + where
		}
		what += " (" + paren + ")"
		if !q.Now.IsZero() && !x.term.End.IsZero() && asksLeft.MatchString(q.Text) {
			today := time.Date(q.Now.Year(), q.Now.Month(), q.Now.Day(), 0, 0, 0, 0, time.UTC)
			end := time.Date(x.term.End.Year(), x.term.End.Month(), x.term.End.Day(), 0, 0, 0, 0, time.UTC)
			if left := int(end.Sub(today).Hours() / 24); left >= 0 {
				what += fmt.Sprintf("; осталось %d %s (с %s по %s)", left, ru.Plural(left, "день", "дня", "дней"), today.Format("02.01.2006"), end.Format("02.01.2006"))
			} else {
				what += "; срок уже истёк"
			}
		}
		if x.term.Renewal != nil {
			how, next := renewedTo(x.term)
			what += "; продлевается " + how + ", если ни одна сторона не заявит о прекращении"
			if m := noticeDays.FindStringSubmatch(x.term.Renewal.Text); m != nil && !x.term.End.IsZero() {
				// «не позднее чем за 30 календарных дней до окончания»: the last day to say so
				n, _ := strconv.Atoi(m[1])
				by := x.term.End.AddDate(0, 0, -n)
				what += " не позднее " + by.Format("02.01.2006") + " (за " + m[1] + " дн.)"
				if !q.Now.IsZero() && q.Now.After(by.AddDate(0, 0, 1)) {
					what += " — этот срок уже прошёл"
					if !next.IsZero() && !q.Now.After(x.term.End.AddDate(0, 0, 1)) {
						// nobody can object any more: the contract runs on to the renewed end
						what += ": если отказ не заявляли, договор продлится"
						if next.Month() == time.December && next.Day() == 31 && next.Year() == x.term.End.Year()+1 {
							what += " на " + strconv.Itoa(next.Year()) + " год —" // a calendar year's renewal
						}
						what += " до " + next.Format("02.01.2006")
					}
				}
			}
			what += " (" + unitPlace(*x.term.Renewal, d) + ")"
		}
		if x.term.Exit != nil {
			what += "; выйти из него можно уведомлением (" + unitPlace(*x.term.Exit, d) + ")"
		}
		title := d.Title
		if them := othersOf(rds[x.doc], own); len(them) > 0 {
			title += " (" + strings.Join(them, ", ") + ")" // contracts are known by whom they are with
		}
		line := fmt.Sprintf("- **%s** — %s [%d]", esc(title), esc(what), n)
		lines[i] = line
		end := time.Date(x.term.End.Year(), x.term.End.Month(), x.term.End.Day(), 0, 0, 0, 0, from.Location())
		if span != "" && !x.term.End.IsZero() && !end.Before(from) && !end.After(to) {
			in = append(in, line)
		} else {
			out = append(out, line)
		}
	}
	var b strings.Builder
	switch {
	case span != "" && len(in) > 0:
		fmt.Fprintf(&b, "%s\n%s", esc("Истекают за "+span+":"), strings.Join(in, "\n"))
		if len(out) > 0 {
			fmt.Fprintf(&b, "\n\n%s\n%s", esc("Остальные:"), strings.Join(out, "\n"))
		}
	case span != "":
		fmt.Fprintf(&b, "%s\n%s", esc("За "+span+" ни один договор не истекает. Сроки договоров:"), strings.Join(out, "\n"))
	case len(rows) == 1:
		fmt.Fprintf(&b, "%s\n\n> %s [1]", strings.TrimPrefix(out[0], "- "), quoteText(rows[0].term.Unit))
		if rows[0].term.Exit != nil {
			fmt.Fprintf(&b, "\n\n> %s [1]", quoteText(*rows[0].term.Exit))
		}
		if rows[0].term.Renewal != nil {
			fmt.Fprintf(&b, "\n\n> %s [1]", quoteText(*rows[0].term.Renewal))
		}
	case only != nil:
		// a few contracts compared: each line, and the clause that says it
		for i, x := range rows {
			fmt.Fprintf(&b, "%s\n> %s [%d]\n\n", lines[i], quoteText(x.term.Unit), i+1)
		}
	default:
		fmt.Fprintf(&b, "%s\n%s", esc("Сроки договоров:"), strings.Join(append(in, out...), "\n"))
	}
	r.Text = strings.TrimSpace(b.String())
	return r, true
}

// spanOf is how long a term from start to end (both days included) runs: whole months when it
// runs from a month's first day to a month's last, days otherwise.
// renewedFor: how long a renewal clause prolongs a contract — «на следующий календарный год»,
// «на каждый последующий год», «на 1 (один) год», «на 6 месяцев», «на тот же срок».
var renewedFor = regexp.MustCompile(`(?i)на\s+(?:(следующий|каждый\s+(?:следующий|последующий)|очередной)\s+(?:календарный\s+)?год|` +
	`(\d{1,2})\s*(?:\([^)]*\)\s*)?(год|года|лет|месяц\p{L}*)|(тот\s+же\s+срок|аналогичный\s+срок))`)

// renewedTo is how the renewal clause of t prolongs the contract, as the answer says it, and
// the end it is prolonged to (zero when the clause does not say enough: «на тот же срок» of a
// contract whose start is not stated).
func renewedTo(t library.Term) (string, time.Time) {
	m := renewedFor.FindStringSubmatch(t.Renewal.Text)
	end := t.End
	switch {
	case m == nil:
		return "на тот же срок", time.Time{}
	case m[1] != "":
		if end.IsZero() {
			return "на следующий год", time.Time{}
		}
		return "на следующий год", end.AddDate(1, 0, 0)
	case m[2] != "":
		n, _ := strconv.Atoi(m[2])
		how := "на " + m[2] + " " + m[3]
		if end.IsZero() {
			return how, time.Time{}
		}
		if strings.HasPrefix(strings.ToLower(m[3]), "месяц") {
			return how, end.AddDate(0, 0, 1).AddDate(0, n, 0).AddDate(0, 0, -1)
		}
		return how, end.AddDate(0, 0, 1).AddDate(n, 0, 0).AddDate(0, 0, -1)
	}
	if end.IsZero() || t.Start.IsZero() {
		return "на тот же срок", time.Time{}
	}
	// the same span again, from the day after the end: 01.02–31.12 (11 months) → 01.01–30.11
	after := end.AddDate(0, 0, 1)
	if t.Start.Day() == 1 && after.Day() == 1 {
		months := (after.Year()-t.Start.Year())*12 + int(after.Month()) - int(t.Start.Month())
		return "на тот же срок", after.AddDate(0, months, -1)
	}
	return "на тот же срок", after.Add(after.Sub(t.Start)).AddDate(0, 0, -1)
}

func spanOf(start, end time.Time) string {
	after := end.AddDate(0, 0, 1)
	if start.Day() == 1 && after.Day() == 1 {
		months := (after.Year()-start.Year())*12 + int(after.Month()) - int(start.Month())
		return ru.Plural(months, fmt.Sprintf("%d месяц", months), fmt.Sprintf("%d месяца", months), fmt.Sprintf("%d месяцев", months))
	}
	days := int(after.Sub(start).Hours()/24 + 0.5)
	return ru.Plural(days, fmt.Sprintf("%d день", days), fmt.Sprintf("%d дня", days), fmt.Sprintf("%d дней", days))
}

// ownCompany is the party every contract of the user's names (the user's company); "" when
// fewer than two contracts name parties.
func ownCompany(rds []*readDoc, docs []docstore.Doc) string {
	count := map[string]int{}
	contracts := 0
	for i, rd := range rds {
		if !isContract(rd, docs[i]) || len(rd.parties) == 0 {
			continue
		}
		contracts++
		seen := map[string]bool{}
		for _, p := range rd.parties {
			if !seen[p.Name] {
				count[p.Name]++
				seen[p.Name] = true
			}
		}
	}
	own := ""
	for name, n := range count {
		if n == contracts && contracts > 1 && (own == "" || name < own) {
			own = name
		}
	}
	return own
}

// othersOf are the parties of a document other than the user's company own ("" when unknown:
// none).
func othersOf(rd *readDoc, own string) []string {
	if own == "" {
		return nil
	}
	var out []string
	for _, p := range rd.parties {
		if p.Name != own && !slices.Contains(out, p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

// withWhom lists each contract's counterparty: the party that is not the user's company (the
// one every contract names).
func withWhom(rds []*readDoc, docs []docstore.Doc, only []int) (skill.Reply, bool) {
	own := ownCompany(rds, docs)
	esc := md.Escape
	var b strings.Builder
	var r skill.Reply
	for i, rd := range rds {
		if !isContract(rd, docs[i]) || len(rd.parties) == 0 || len(only) > 0 && !slices.Contains(only, i) {
			continue
		}
		var them []string
		for _, p := range rd.parties {
			if p.Name != own {
				them = append(them, fmt.Sprintf("%s (%s%s)", p.Name, strings.ToLower(p.Role), innOf(p)))
			}
		}
		if len(them) == 0 {
			continue
		}
		d := docs[i].Meta
		r.Sources = append(r.Sources, facts.Source{Title: d.Title})
		r.Quoted = append(r.Quoted, d.ID)
		fmt.Fprintf(&b, "- %s — **%s** [%d]\n", esc(strings.Join(them, ", ")), esc(d.Title), len(r.Sources))
	}
	if len(r.Sources) == 0 {
		return skill.Reply{}, false
	}
	head := "Договоры и контрагенты по ним:"
	if own != "" {
		head = "Договоры " + own + " и контрагенты по ним:"
	}
	r.Text = esc(head) + "\n" + strings.TrimSpace(b.String())
	return r, true
}

func innOf(p library.Party) string {
	if p.INN == "" {
		return ""
	}
	return ", ИНН " + p.INN
}
