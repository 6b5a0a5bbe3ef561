package passages

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// A schedule is a table whose rows fall due on dates: a loan's repayments, a supply's
// deliveries, a contract's payment stages. A question that names a period over it («сколько
// вернуть в декабре», «а в 2027», «до конца года») is answered with the rows due in the period
// and their total; one that names a day («задолженность на 1 октября») with the last row due by
// then (its balance column says what is left).

// schedule is the rows of a dated table a question selects, and what the answer says of them.
type schedule struct {
	line string         // the answer's first line (Markdown)
	rows map[int]bool   // the selected rows, by unit index
	of   library.Unit   // the clause that introduces the table
	doc  int            // the document, as in ClauseHit.Doc
	all  []library.Unit // the table's rows
	// appendix: no clause introduces the table (an appendix's schedule): its selected rows are
	// quoted each with the header, not under a clause.
	appendix bool
}

// scheduleWeaker: the schedule's unit may score this share of the best one.
const scheduleWeaker = 0.5

var (
	rowDate = regexp.MustCompile(`\b(\d{2})\.(\d{2})\.(\d{4})\b`)
	// untilEnd: «до конца года», «до конца месяца», «до конца квартала»: from today on.
	untilEnd = regexp.MustCompile(`(?i)до\s+конца\s+(этого\s+|текущего\s+)?(года|месяца|квартала)`)
	// asksNext: the question asks the next row due («очередной платёж», «следующий срок»).
	asksNext = regexp.MustCompile(`(?i)(^|[^\p{L}])(очередн|следующ|ближайш)\p{L}*`)
	// asksLastRow: the question asks the schedule's last row («последний платёж», «окончательный
	// срок»).
	asksLastRow = regexp.MustCompile(`(?i)(^|[^\p{L}])(последн|окончательн|финальн)\p{L}*`)
	// asksFirstRow: the question asks the schedule's first row («первый платёж», «первая часть»).
	asksFirstRow = regexp.MustCompile(`(?i)(^|[^\p{L}])(перв(ый|ая|ое|ого|ой|ую)|1-?(й|ый|ая))\s+(платеж|платёж|взнос|част|транш|возврат|погашени)`)
	// atEnd: «на конец года», «на конец этого квартала»: the day the period ends.
	atEnd = regexp.MustCompile(`(?i)на\s+конец\s+(этого\s+|текущего\s+)?(года|месяца|квартала)`)
	// amountColumn is the header of the column a schedule's total adds up.
	amountColumn = regexp.MustCompile(`(?i)сумм|к\s+оплате|платеж|платёж|размер`)
)

// scheduleFor reads the period q names (or the question it continues named) and selects the
// rows of the table the best unit belongs to; ok is false when there is no such table or no
// period.
func scheduleFor(q Question, hits []library.ClauseHit, cds []library.ClauseDoc) (schedule, bool) {
	if len(hits) == 0 || q.Now.IsZero() {
		return schedule{}, false
	}
	// The table of the best unit, or of a unit of its document that scores half as well: a
	// question that names a period is about the document's schedule, if it has one.
	var h library.ClauseHit
	intro := library.Unit{Index: -1}
	for _, c := range hits {
		if c.Score < hits[0].Score*scheduleWeaker {
			break
		}
		if c.Doc != hits[0].Doc {
			continue
		}
		u := c.Unit
		if u.Kind == library.UnitRow && u.Clause != "" {
			for _, o := range cds[c.Doc].Units {
				if o.Kind == library.UnitClause && o.Number == u.Clause {
					u = o
					break
				}
			}
		}
		if u.Kind == library.UnitClause && strings.HasSuffix(u.Text, ":") {
			h, intro = c, u
			break
		}
	}
	appendix := false
	if intro.Index < 0 || datedRowsOf(cds[h.Doc].Units, intro) < 2 {
		h, intro = library.ClauseHit{}, library.Unit{Index: -1}
		// A table no clause introduces — an appendix's «График лизинговых платежей»: the best
		// dated row's table, read from its first row
		for _, c := range hits {
			if c.Score < hits[0].Score*scheduleWeaker {
				break
			}
			if c.Doc == hits[0].Doc && c.Unit.Kind == library.UnitRow && c.Unit.Clause == "" && rowDate.MatchString(c.Unit.Text) && paymentTable(c.Unit) {
				h, appendix = c, true
				break
			}
		}
		if !appendix && strings.Contains(strings.ToLower(q.Text), "график") {
			// «сколько по графику лизинга платим»: the table headed «График …» of the best
			// hit's document, however its rows scored
			for _, u := range cds[hits[0].Doc].Units {
				if u.Kind == library.UnitRow && u.Clause == "" && rowDate.MatchString(u.Text) && paymentTable(u) {
					h, appendix = library.ClauseHit{Doc: hits[0].Doc, Unit: u, Score: hits[0].Score}, true
					break
				}
			}
		}
		if !appendix {
			return schedule{}, false
		}
	}
	us := cds[h.Doc].Units
	start := intro.Index + 1 // the rows after the clause that introduces them
	if appendix {
		for start = h.Unit.Index; start > 0 && us[start-1].Kind == library.UnitRow && us[start-1].Lead == h.Unit.Lead; start-- {
		} // …or the table's first row
	}
	var rows []library.Unit
	var due []time.Time
	for _, r := range us[min(start, len(us)):] {
		if r.Kind != library.UnitRow || !appendix && r.Clause != intro.Number || appendix && (r.Clause != "" || r.Lead != h.Unit.Lead) {
			break
		}
		m := rowDate.FindStringSubmatch(r.Text)
		if r.Number == "" || m == nil {
			continue // totals
		}
		d, err := time.ParseInLocation("02.01.2006", m[0], ru.Moscow)
		if err != nil {
			continue
		}
		rows, due = append(rows, r), append(due, d)
	}
	if len(rows) < 2 {
		return schedule{}, false
	}
	s := schedule{rows: map[int]bool{}, of: intro, doc: h.Doc, all: rows, appendix: appendix}
	where := "п. " + intro.Number
	if appendix {
		s.of, where = h.Unit, "таблица"
		if sec := strings.TrimSpace(h.Unit.Section); sec != "" {
			where = "«" + upperFirst(strings.ToLower(sec)) + "»"
		}
	}
	if asksLastRow.MatchString(q.Text) {
		// «когда последний платёж по займу»: the schedule's last row
		last := len(rows) - 1
		s.rows[rows[last].Index] = true
		s.line = md.Escape(fmt.Sprintf("Последний срок по графику (%s) — %s (строка %s):", where, due[last].Format("02.01.2006"), rows[last].Number))
		return s, true
	}
	if asksFirstRow.MatchString(q.Text) {
		// «когда первый платёж по возврату займа и сколько»: the schedule's first row
		s.rows[rows[0].Index] = true
		s.line = md.Escape(fmt.Sprintf("Первый срок по графику (%s) — %s (строка %s):", where, due[0].Format("02.01.2006"), rows[0].Number))
		return s, true
	}
	if asksNext.MatchString(q.Text) {
		// «очередной платёж по займу»: the first row due from today on
		today := time.Date(q.Now.In(ru.Moscow).Year(), q.Now.In(ru.Moscow).Month(), q.Now.In(ru.Moscow).Day(), 0, 0, 0, 0, ru.Moscow)
		for i, d := range due {
			if !d.Before(today) {
				s.rows[rows[i].Index] = true
				s.line = md.Escape(fmt.Sprintf("Ближайший срок по графику (%s) с %s — %s (строка %s):", where, today.Format("02.01.2006"),
					d.Format("02.01.2006"), rows[i].Number))
				return s, true
			}
		}
		s.line = md.Escape(fmt.Sprintf("Все сроки по графику (%s) прошли: последний — %s.", where, due[len(due)-1].Format("02.01.2006")))
		s.rows[rows[len(rows)-1].Index] = true
		return s, true
	}
	p, ok := periodOf(q.Text, q.Now)
	if m, isMonth := termMonth(q.Text, q.Now); ok && isMonth && p.Kind == ru.KindMonth {
		p = m // «платеж за январь» in December: the January to come, as a schedule runs ahead
	}
	if !ok && q.Continues != "" {
		p, ok = periodOf(q.Continues, q.Now)
	}
	if m, isMonth := termMonth(q.Text, q.Now); !ok && isMonth {
		p, ok = m, true // «после декабрьского платежа»
	}
	if asksRest.MatchString(q.Text) {
		switch {
		case ok && !p.Single() && afterTerm.MatchString(q.Text):
			// «остаток после декабрьского платежа»: what is left at the month's end
			p, ok = ru.Period{From: p.To, To: p.To, Kind: ru.KindDay}, true
		case !ok && !afterTerm.MatchString(q.Text):
			// «сколько осталось вернуть по займу»: what is left today
			today := time.Date(q.Now.In(ru.Moscow).Year(), q.Now.In(ru.Moscow).Month(), q.Now.In(ru.Moscow).Day(), 0, 0, 0, 0, ru.Moscow)
			p, ok = ru.Period{From: today, To: today, Kind: ru.KindDay}, true
		}
	}
	if !ok {
		return schedule{}, false
	}
	if p.Single() && p.From.Before(due[0]) && dayOfMonthNamed.MatchString(q.Text) && !writtenYear.MatchString(q.Text) && !q.Now.IsZero() {
		// «остаток займа на 1 января» in December, of a schedule that starts later than the
		// January past: the January to come, as a schedule runs ahead (a balance before any of
		// its terms would be no question)
		if next := p.From.AddDate(1, 0, 0); next.After(q.Now) && !next.Before(due[0]) && !next.After(due[len(due)-1]) {
			p.From, p.To = next, next
		}
	}
	if p.Single() {
		last := -1
		for i, d := range due {
			if !d.After(p.From) {
				last = i
			}
		}
		if last < 0 {
			s.line = md.Escape(fmt.Sprintf("На %s по графику (%s) ни один срок ещё не наступил: первый — %s.", p.From.Format("02.01.2006"), where, due[0].Format("02.01.2006")))
			if rest, ok := restCell(rows[0]); ok && (asksRest.MatchString(q.Text) || owedWords.MatchString(q.Text)) {
				if paid, ok := columnTotal(rows[:1]); ok {
					// what is left before the first term: the first balance and its payment
					s.line = md.Escape(fmt.Sprintf("На %s по графику (%s) ни один срок ещё не наступил (первый — %s): остаток — ", p.From.Format("02.01.2006"), where,
						due[0].Format("02.01.2006"))) + "**" + md.Escape(ru.Money(rest+paid)) + "**" + md.Escape(fmt.Sprintf(" (%s + %s по строке %s).", ru.Money(rest), ru.Money(paid), rows[0].Number))
				}
			}
			s.rows[rows[0].Index] = true
			return s, true
		}
		s.rows[rows[last].Index] = true
		s.line = md.Escape(fmt.Sprintf("На %s по графику (%s) последний срок до этой даты — %s (строка %s):", p.From.Format("02.01.2006"), where,
			due[last].Format("02.01.2006"), rows[last].Number))
		if rest, ok := restCell(rows[last]); ok {
			// the balance column says what is left, when each term is paid on time
			s.line = md.Escape(fmt.Sprintf("На %s по графику (%s) остаток — ", p.From.Format("02.01.2006"), where)) + "**" + md.Escape(ru.Money(rest)) + "**" +
				md.Escape(fmt.Sprintf(" после платежа %s (строка %s), если платежи внесены в срок:", due[last].Format("02.01.2006"), rows[last].Number))
		} else if asksRest.MatchString(q.Text) {
			// «долг по лизингу после декабрьского платежа какой останется» of a schedule with no
			// balance column: the rows still to come, added
			left := rows[last+1:]
			if len(left) == 0 {
				s.line = md.Escape(fmt.Sprintf("После %s по графику (%s) платежей не остаётся: это последний срок.", due[last].Format("02.01.2006"), where))
				return s, true
			}
			total, ok := columnTotal(left)
			if !ok {
				return schedule{}, false // what is left is not a column's sum: not said
			}
			s.rows = map[int]bool{}
			for _, r := range left {
				s.rows[r.Index] = true
			}
			s.line = md.Escape(fmt.Sprintf("После платежа %s (строка %s) по графику (%s) осталось %s на ", due[last].Format("02.01.2006"), rows[last].Number, where,
				ru.Count(len(left), "строка", "строки", "строк"))) + "**" + md.Escape(ru.Money(total)) + "**" + md.Escape(", если платежи внесены в срок:")
		}
		return s, true
	}
	var picked []library.Unit
	for i, d := range due {
		if !d.Before(p.From) && !d.After(p.To) {
			picked = append(picked, rows[i])
			s.rows[rows[i].Index] = true
		}
	}
	span := p.From.Format("02.01.2006") + "–" + p.To.Format("02.01.2006")
	if len(picked) == 0 {
		s.line = md.Escape(fmt.Sprintf("С %s по %s по графику (%s) сроков нет.", p.From.Format("02.01.2006"), p.To.Format("02.01.2006"), where))
		return s, true
	}
	s.line = md.Escape(fmt.Sprintf("По графику (%s) за %s — %s:", where, span, ru.Count(len(picked), "строка", "строки", "строк")))
	if total, ok := columnTotal(picked); ok && len(picked) > 1 {
		s.line = fmt.Sprintf("По графику \\(%s\\) за %s — %s, всего **%s**:", md.Escape(where), md.Escape(span),
			md.Escape(ru.Count(len(picked), "строка", "строки", "строк")), md.Escape(ru.Money(total)))
	}
	return s, true
}

// periodEnd is the last day of today's year, month («месяца») or quarter («квартала»).
func periodEnd(today time.Time, of string) time.Time {
	switch of {
	case "месяца":
		return time.Date(today.Year(), today.Month()+1, 0, 0, 0, 0, 0, ru.Moscow)
	case "квартала":
		q := (int(today.Month())-1)/3*3 + 3
		return time.Date(today.Year(), time.Month(q)+1, 0, 0, 0, 0, 0, ru.Moscow)
	}
	return time.Date(today.Year(), 12, 31, 0, 0, 0, 0, ru.Moscow)
}

// periodOf is the period text names, months, quarters and years whole (a schedule's December
// is all of it, not December so far); «до конца года» runs from today.
func periodOf(text string, now time.Time) (ru.Period, bool) {
	today := time.Date(now.In(ru.Moscow).Year(), now.In(ru.Moscow).Month(), now.In(ru.Moscow).Day(), 0, 0, 0, 0, ru.Moscow)
	if m := atEnd.FindStringSubmatch(text); m != nil {
		// «остаток займа на конец года»: a schedule runs ahead — this year's end, not the last
		// closed one that a balance in 1C would mean
		end := periodEnd(today, m[2])
		return ru.Period{From: end, To: end, Kind: ru.KindDay, Text: m[0]}, true
	}
	if m := untilEnd.FindStringSubmatch(text); m != nil {
		return ru.Period{From: today, To: periodEnd(today, m[2]), Kind: ru.KindRange, Text: m[0]}, true
	}
	p, ok, err := ru.ParsePeriod(text, now)
	if !ok || err != nil {
		return ru.Period{}, false
	}
	switch p.Kind {
	case ru.KindMonth:
		p.To = time.Date(p.From.Year(), p.From.Month()+1, 0, 0, 0, 0, 0, ru.Moscow)
	case ru.KindQuarter:
		p.To = time.Date(p.From.Year(), p.From.Month()+3, 0, 0, 0, 0, 0, ru.Moscow)
	case ru.KindHalf:
		p.To = time.Date(p.From.Year(), p.From.Month()+6, 0, 0, 0, 0, 0, ru.Moscow)
	case ru.KindYear:
		p.To = time.Date(p.From.Year(), 12, 31, 0, 0, 0, 0, ru.Moscow)
	}
	return p, true
}

// columnTotal adds up the amount column of rows read as cells (« | »-joined): the first
// column whose header names a sum, not a balance.
func columnTotal(rows []library.Unit) (int64, bool) {
	header := headerCells(rows[0])
	// the first column of sums whose every cell is one («Вид платежа» is a column of words)
	for col, h := range header {
		if !amountColumn.MatchString(h) || strings.Contains(strings.ToLower(h), "остат") {
			continue
		}
		var total int64
		ok := true
		for _, r := range rows {
			cells := strings.Split(r.Text, " | ")
			if col >= len(cells) {
				ok = false
				break
			}
			cell := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(cells[col]), "₽"))
			k, good := kopecks(cell)
			if !good || !moneyCellText.MatchString(cell) { // «№ платежа»: a row's number is no sum
				ok = false
				break
			}
			total += k
		}
		if ok {
			return total, true
		}
	}
	return 0, false
}

// scheduleHeader: a payment schedule's column of due dates («Срок уплаты (не позднее)», «Дата
// платежа»).
var scheduleHeader = regexp.MustCompile(`(?i)(срок|дата)\p{L}*\s+(уплат|оплат|платеж|платёж|погашен|возврат)`)

// paymentTable reports whether a row no clause introduces is one of a payment schedule: its
// section says «график», or its header has a column of due dates — not an act of
// reconciliation's dated operations.
func paymentTable(u library.Unit) bool {
	return strings.Contains(strings.ToLower(u.Section), "график") && !strings.Contains(strings.ToLower(u.Section), "сверк") ||
		scheduleHeader.MatchString(u.Lead[strings.LastIndexByte(u.Lead, '\n')+1:])
}

// datedRowsOf counts the dated rows of the table clause intro introduces.
func datedRowsOf(us []library.Unit, intro library.Unit) int {
	n := 0
	for _, r := range us[min(intro.Index+1, len(us)):] {
		if r.Kind != library.UnitRow || r.Clause != intro.Number {
			break
		}
		if rowDate.MatchString(r.Text) {
			n++
		}
	}
	return n
}

// afterTerm: the question asks what is left after a period's payment («после декабрьского
// платежа», «после платежа за март»).
var afterTerm = regexp.MustCompile(`(?i)(^|[^\p{L}])после\s`)

// owedWords: the question asks a debt («сколько нам должен», «долг по займу», «задолженность»).
var owedWords = regexp.MustCompile(`(?i)должен|должна|должны|долг|задолж`)

// dayOfMonthNamed: a day written with its month's name («на 1 января», «5-го марта»), not an
// end of a period («на конец года»).
var dayOfMonthNamed = regexp.MustCompile(`(?i)(^|[^\d])\d{1,2}(-?г?о)?\s+(январ|феврал|март|апрел|ма[йя]|июн|июл|август|сентябр|октябр|ноябр|декабр)`)

// writtenYear: a date the question writes with its year («01.01.2027», «1 января 2027», «27 г.»).
var writtenYear = regexp.MustCompile(`\b20\d{2}\b|\d{1,2}\.\d{1,2}\.\d{2,4}|\b\d{2}\s*г`)

// restCell is a schedule row's cell under its balance column («Остаток после платежа, руб.»), in
// kopecks; ok is false when the table has no such column.
func restCell(r library.Unit) (int64, bool) {
	header := headerCells(r)
	cells := strings.Split(r.Text, " | ")
	if len(header) != len(cells) {
		return 0, false
	}
	for i, hd := range header {
		if c := strings.TrimSpace(cells[i]); strings.Contains(strings.ToLower(hd), "остат") && moneyCellText.MatchString(c) {
			return kopecks(c)
		}
	}
	return 0, false
}
