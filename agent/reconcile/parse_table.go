package reconcile

// The table of an act read by meaning: the header row found by its words, the columns by what
// they hold (whatever their names and order), their half of BP's form, each row turned to our
// side.

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// role is what a column of an act holds.
type role int

const (
	roleNone   role = iota
	roleDate        // «Дата», «Дата документа», «Дата операции», «Период», «Месяц»
	roleDoc         // «Документ», «Наименование операции», «Основание», «Содержание операции»
	roleNumber      // «№», «Номер», «№ док.»
	roleDebit       // «Дебет»: their debit, our credit
	roleCredit      // «Кредит»: their credit, our debit
	roleIn          // «Сумма прихода», «Приход»: what came to them, our debit
	roleOut         // «Сумма расхода», «Расход»: what left them, our credit
	roleAmount      // «Сумма»: signed, or with a direction column
	roleDir         // «Направление», «Д/К», «Вид движения»
	roleSkip        // «№ п/п», «Сальдо» (a running balance), «Примечание»: read and left out
)

var roleNames = map[role]string{
	roleDate: "дата", roleDoc: "документ", roleNumber: "номер документа", roleDebit: "их дебет — наш кредит",
	roleCredit: "их кредит — наш дебет", roleIn: "приход у них — наш дебет", roleOut: "расход у них — наш кредит",
	roleAmount: "сумма", roleDir: "направление суммы", roleSkip: "не учитывается",
}

// roleOf is the role a header cell's words give its column; roleNone for any other text.
func roleOf(s string) role {
	if utf8.RuneCountInString(s) > 40 {
		return roleNone
	}
	f := fold(s)
	f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(f, " руб"), " руб."))
	has := func(subs ...string) bool {
		for _, x := range subs {
			if strings.Contains(f, x) {
				return true
			}
		}
		return false
	}
	switch {
	case f == "":
		return roleNone
	case has("п/п", "строк", "сальдо", "остаток", "примечани", "комментари"):
		return roleSkip // the rows' count, a running balance, remarks: no document's figures
	case has("направлени", "д/к", "дт/кт", "вид движения", "тип движения"):
		return roleDir
	case has("дебет") || f == "дт" || f == "д-т":
		return roleDebit
	case has("кредит") || f == "кт" || f == "к-т":
		return roleCredit
	case has("приход"):
		return roleIn
	case has("расход"):
		return roleOut
	case strings.HasPrefix(f, "№") || strings.HasPrefix(f, "номер") || f == "n" || strings.HasPrefix(f, "n "):
		return roleNumber
	case strings.HasPrefix(f, "дата") || f == "период" || f == "месяц":
		return roleDate
	case has("документ", "наименование", "основание", "содержание", "операци"):
		return roleDoc
	case strings.HasPrefix(f, "сумма"):
		return roleAmount
	}
	return roleNone
}

// column is a column of the header.
type column struct {
	role   role
	name   string
	x0, x1 float64
	group  int
}

// half is a group of columns under one caption («По данным ООО «Альфа», руб.»).
type half struct {
	caption string // the name after «По данным», "" when there is none
	cols    []int
}

// header is the table's header row and what it says.
type header struct {
	row    int
	cols   []column
	halves []half
}

// findHeader finds the first row whose cells name a date or a document and amounts.
func findHeader(g grid) (header, bool) {
	for i, r := range g.rows {
		var cols []column
		seen := map[role]bool{}
		for _, c := range r.phrases().cells {
			if ro := roleOf(c.text); ro != roleNone {
				cols = append(cols, column{role: ro, name: c.text, x0: c.x0, x1: c.x1})
				seen[ro] = true
			}
		}
		money := seen[roleDebit] && seen[roleCredit] || seen[roleIn] && seen[roleOut] || seen[roleAmount]
		named := len(seen)
		if seen[roleSkip] {
			named--
		}
		if named < 3 || !money || !(seen[roleDate] || seen[roleDoc]) {
			continue
		}
		h := header{row: i, cols: cols}
		h.split()
		h.caption(g, i)
		return h, true
	}
	return header{}, false
}

// split groups the columns into halves: a role met again starts the next half (BP's form
// repeats Дата | Документ | Дебет | Кредит for each side).
func (h *header) split() {
	slices.SortStableFunc(h.cols, func(a, b column) int { return cmpFloat(a.x0, b.x0) })
	cur := map[role]bool{}
	h.halves = []half{{}}
	for i := range h.cols {
		ro := h.cols[i].role
		if cur[ro] && ro != roleSkip {
			h.halves = append(h.halves, half{})
			cur = map[role]bool{}
		}
		cur[ro] = true
		h.cols[i].group = len(h.halves) - 1
		h.halves[len(h.halves)-1].cols = append(h.halves[len(h.halves)-1].cols, i)
	}
}

// caption finds «По данным …» over each half in the rows just above the header.
func (h *header) caption(g grid, at int) {
	type capt struct {
		name   string
		x0, x1 float64
	}
	var caps []capt
	for i := at - 1; i >= 0 && i >= at-3; i-- {
		for _, c := range g.rows[i].cells {
			if strings.Contains(fold(c.text), "по данным") {
				caps = append(caps, capt{name: byWhom(c.text), x0: c.x0, x1: c.x1})
			}
		}
	}
	for hi := range h.halves {
		x0, x1 := h.span(hi)
		best, bestScore := -1, math.Inf(-1)
		for ci, c := range caps {
			score := overlap(c.x0, c.x1, x0, x1)
			if score <= 0 {
				score = -math.Abs((c.x0+c.x1)/2 - (x0+x1)/2)
			}
			if score > bestScore {
				best, bestScore = ci, score
			}
		}
		if best >= 0 && (len(caps) >= len(h.halves) || bestScore > 0) {
			h.halves[hi].caption = caps[best].name
		}
	}
}

// span is the extent of a half's header cells.
func (h *header) span(hi int) (x0, x1 float64) {
	x0, x1 = math.Inf(1), math.Inf(-1)
	for _, ci := range h.halves[hi].cols {
		x0, x1 = math.Min(x0, h.cols[ci].x0), math.Max(x1, h.cols[ci].x1)
	}
	return x0, x1
}

func overlap(a0, a1, b0, b1 float64) float64 { return math.Min(a1, b1) - math.Max(a0, b0) }

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// kind is what a cell's text looks like.
type kind int

const (
	kindText kind = iota
	kindDate
	kindAmount
)

// cellKind is what a cell holds: a date, an amount or other text.
func cellKind(c cell) kind {
	if _, ok := parseDate(c.text, false); ok {
		return kindDate
	}
	if _, ok := parseAmount(c.text, c.raw); ok {
		return kindAmount
	}
	return kindText
}

// fits reports whether a cell of kind k may stand in a column of role ro.
func fits(k kind, ro role, raw bool) bool {
	switch ro {
	case roleDebit, roleCredit, roleIn, roleOut, roleAmount:
		return k == kindAmount
	case roleDate:
		return k != kindAmount || raw // a workbook's date is a serial number
	case roleDir:
		return k == kindText
	}
	return true // a document's or number's column takes any text
}

// place is the column a data cell stands in: the header columns it overlaps most that may hold
// it, else the nearest such; -1 for none.
func (h *header) place(c cell) int {
	k := cellKind(c)
	best, bestScore := -1, math.Inf(-1)
	for i, col := range h.cols {
		if !fits(k, col.role, c.raw) {
			continue
		}
		score := overlap(c.x0, c.x1, col.x0, col.x1)
		if score <= 0 {
			score = -math.Min(math.Abs(c.x0-col.x1), math.Abs(col.x0-c.x1)) // the gap between them
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

// rowData is a data row read in one half: the text of each role and the amounts turned to our side.
type rowData struct {
	date, doc, number, dir string
	dateRaw                bool
	debit, credit          onec.Kopecks // our side
	amounts                int          // amount cells read
	signed                 []onec.Kopecks
	cells                  int // cells of this half
}

// label is the row's words: a balance row's name may start in the date column (BP merges the
// two for «Сальдо начальное»).
func (r rowData) label() string {
	if _, ok := parseDate(r.date, r.dateRaw); ok || r.date == "" {
		return r.doc
	}
	return strings.TrimSpace(r.date + " " + r.doc)
}

// read reads row r of the grid in half hi.
func (h *header) read(r gridRow, hi int) rowData {
	var out rowData
	for _, c := range r.cells {
		ci := h.place(c)
		if ci < 0 || h.cols[ci].group != hi {
			continue
		}
		out.cells++
		add := func(s *string) {
			if *s != "" {
				*s += " "
			}
			*s += c.text
		}
		switch h.cols[ci].role {
		case roleDate:
			add(&out.date)
			out.dateRaw = c.raw
		case roleDoc:
			add(&out.doc)
		case roleNumber:
			add(&out.number)
		case roleDir:
			add(&out.dir)
		case roleSkip:
		default:
			v, _ := parseAmount(c.text, c.raw)
			out.amounts++
			switch h.cols[ci].role {
			case roleDebit, roleOut:
				out.credit += v
			case roleCredit, roleIn:
				out.debit += v
			case roleAmount:
				out.signed = append(out.signed, v)
			}
		}
	}
	return out
}

// direction turns a «Сумма» with its direction («Д», «Кредит», «приход», «+») to our side; ok
// is false for a direction it does not know. Without a direction column, a positive sum is
// their debit.
func (r *rowData) direction() bool {
	d := fold(r.dir)
	for _, v := range r.signed {
		switch {
		case d == "":
			if v >= 0 {
				r.credit += v
			} else {
				r.debit -= v
			}
		case d == "д" || d == "дт" || strings.HasPrefix(d, "дебет") || strings.HasPrefix(d, "расход") || d == "-":
			r.credit += v
		case d == "к" || d == "кт" || strings.HasPrefix(d, "кредит") || strings.HasPrefix(d, "приход") || d == "+":
			r.debit += v
		default:
			return false
		}
	}
	r.signed = nil
	return true
}

// balance kinds of a row.
const (
	rowLine = iota
	rowOpening
	rowClosing
	rowTurnover
	rowSubtotal // a month's total among documents
)

var (
	openingWords  = []string{"сальдо начальн", "начальное сальдо", "сальдо на начало", "входящее сальдо", "сальдо входящ", "остаток на начало", "задолженность на начало", "сальдо нач"}
	closingWords  = []string{"сальдо конечн", "конечное сальдо", "сальдо на конец", "исходящее сальдо", "сальдо исходящ", "остаток на конец", "задолженность на конец", "сальдо кон"}
	turnoverWords = []string{"обороты за период", "итого обороты", "обороты", "итого", "всего", "итого за период"}
)

// kindOfRow says what a row with this label is: a balance, the turnovers, a month's subtotal or
// a line; at is the date of «Сальдо на 01.01.2026».
func kindOfRow(label string) (k int, at time.Time) {
	f := fold(label)
	for _, w := range openingWords {
		if strings.HasPrefix(f, w) {
			return rowOpening, time.Time{}
		}
	}
	for _, w := range closingWords {
		if strings.HasPrefix(f, w) {
			return rowClosing, time.Time{}
		}
	}
	if strings.HasPrefix(f, "сальдо на ") || strings.HasPrefix(f, "остаток на ") || strings.HasPrefix(f, "задолженность на ") {
		t, _ := dateIn(label)
		return rowOpening, t // the caller decides: before the lines an opening, after them a closing
	}
	for _, w := range turnoverWords {
		if f == w || strings.HasPrefix(f, w+" ") {
			if _, ok := monthIn(label); ok {
				return rowSubtotal, time.Time{}
			}
			return rowTurnover, time.Time{}
		}
	}
	return rowLine, time.Time{}
}

// parseGrid reads an act from one table.
func parseGrid(g grid, o ParseOptions) (Theirs, error) {
	h, ok := findHeader(g)
	if !ok {
		return Theirs{}, unreadable("Не нашёл в акте строку заголовка таблицы: нужны столбцы с датой или документом и суммами (дебет и кредит, приход и расход или сумма). Пришлите акт, в котором у таблицы есть такие заголовки.")
	}
	hd := readHeading(g.rows[:h.row], o.Now())
	hi, err := theirHalf(h, o.Ours)
	if err != nil {
		return Theirs{}, err
	}
	t := Theirs{Layout: LayoutTable}
	if len(h.halves) > 1 {
		t.Layout = LayoutHalves
	}
	t.Stated = h.halves[hi].caption != "" && !isOurs(Party{Name: h.halves[hi].caption}, o.Ours) &&
		slices.ContainsFunc(h.halves[hi].cols, func(ci int) bool { return h.cols[ci].role == roleDebit })
	for _, ci := range h.halves[hi].cols {
		t.Columns = append(t.Columns, fmt.Sprintf("«%s» — %s", h.cols[ci].name, roleNames[h.cols[ci].role]))
	}
	t.From, t.To, t.Contract = hd.from, hd.to, hd.contract
	t.Ours, t.Theirs = parties(hd, h.halves[hi].caption, o.Ours)

	type pending struct {
		line     Line
		month    bool
		subtotal bool
	}
	var lines []pending
	var opening, closing *onec.Kopecks
	var openAt, closeAt time.Time
	lastWasLine := false
	read := 0 // amounts read in their half
	for i := h.row + 1; i < len(g.rows); i++ {
		row := g.rows[i]
		if h2, ok := findHeader(grid{rows: []gridRow{row}}); ok && len(h2.cols) >= 3 {
			lastWasLine = false
			continue // the header again, on the next page
		}
		if ft := fold(row.text()); strings.Contains(ft, "задолженность в пользу") || strings.Contains(ft, "задолженность отсутствует") {
			break // the act's closing words: the table is over
		} else if strings.Contains(ft, "по данным") {
			continue // a caption over the halves, on the next page
		}
		r := h.read(row, hi)
		if r.cells == 0 {
			continue
		}
		read += r.amounts
		if !r.direction() {
			return Theirs{}, unreadable("Не понял направление суммы «%s» в строке «%s»: ожидаю «Дебет»/«Кредит», «Д»/«К» или «приход»/«расход».", r.dir, strings.TrimSpace(row.text()))
		}
		label := r.label()
		k, at := kindOfRow(label)
		if k == rowOpening && !at.IsZero() && (len(lines) > 0 || opening != nil) {
			k = rowClosing
		}
		bal := r.debit - r.credit
		switch k {
		case rowOpening:
			if r.amounts == 0 && opening == nil {
				zero := onec.Kopecks(0)
				opening = &zero
			} else {
				opening = &bal
			}
			openAt = at
			lastWasLine = false
			continue
		case rowClosing:
			closing = &bal
			closeAt = at
		case rowTurnover:
			t.Turnover = &[2]onec.Kopecks{r.debit, r.credit}
			lastWasLine = false
			continue
		}
		if k == rowClosing {
			break
		}
		if r.amounts == 0 && g.scan {
			if _, ok := parseDate(r.date, false); ok {
				// A document's line whose amount the recognition did not read for sure: never guessed.
				return Theirs{}, unreadable("На снимке не разобрал сумму в строке «%s», а угадывать цифры я не стану. Пришлите снимок чётче (ровно, при хорошем свете) или сам акт файлом — PDF, XLSX или DOCX.", strings.TrimSpace(row.text()))
			}
		}
		if r.amounts == 0 {
			// A document's words wrapped onto the next row continue the line above.
			if lastWasLine && r.doc != "" && r.date == "" && r.number == "" {
				l := &lines[len(lines)-1].line
				l.Kind = strings.TrimSpace(l.Kind + " " + r.doc)
				if l.Number == "" {
					l.Number = numberIn(l.Kind)
				}
			}
			continue
		}
		p := pending{subtotal: k == rowSubtotal}
		p.line = Line{Kind: strings.TrimSpace(label), Debit: r.debit, Credit: r.credit}
		p.line.Number = strings.TrimSpace(r.number)
		if p.line.Number == "" {
			p.line.Number = numberIn(r.doc)
		}
		if d, ok := parseDate(r.date, r.dateRaw); ok {
			p.line.Date = d
		} else if d, ok := dateIn(r.doc); ok {
			p.line.Date = d
		} else if m, ok := monthIn(label); ok {
			p.line.Date, p.month = m, true
		} else {
			return Theirs{}, unreadable("В строке «%s» не нашёл даты документа: без неё сверить строку нельзя.", strings.TrimSpace(row.text()))
		}
		lines = append(lines, p)
		lastWasLine = true
	}
	docs := slices.ContainsFunc(lines, func(p pending) bool { return !p.month && !p.subtotal })
	for _, p := range lines {
		switch {
		case docs && (p.subtotal || p.month):
			continue // a month's subtotal among documents repeats them
		case !docs:
			t.Grouped = true
		}
		t.Lines = append(t.Lines, p.line)
	}
	switch {
	case read == 0 && len(h.halves) > 1:
		return Theirs{}, unreadable("В акте не заполнена половина «По данным %s»: данных контрагента в нём нет — похоже, это акт, который контрагент ещё не заполнил.", h.halves[hi].caption)
	case read == 0:
		return Theirs{}, unreadable("В таблице акта не нашёл ни одной суммы: ни документов, ни сальдо.")
	}
	if t.From.IsZero() && !openAt.IsZero() {
		t.From = openAt
	}
	if t.To.IsZero() && !closeAt.IsZero() {
		t.To = closeAt
	}
	d, c := t.Turnovers()
	if tt := t.Turnover; tt != nil && (tt[0] != d || tt[1] != c) {
		// Their debit is our credit: the figures are said in their terms, as their act prints them.
		return Theirs{}, unreadable("Обороты за период в их акте — дебет %s, кредит %s, а строки, которые я прочитал, дают дебет %s, кредит %s: часть строк я не разобрал, поэтому сверять не стал. Пришлите акт в XLSX или проверьте, что в PDF есть текстовый слой.",
			ru.Money(int64(tt[1])), ru.Money(int64(tt[0])), ru.Money(int64(c)), ru.Money(int64(d)))
	}
	net := d - c
	if debt, ok := statedDebt(h.footer(g), h.halves[hi].caption, o.Ours); ok {
		switch {
		case closing == nil:
			closing = &debt
		case *closing != debt:
			t.Notes = append(t.Notes, fmt.Sprintf("В тексте их акта задолженность %s, а в таблице сальдо конечное %s.", debtWords(debt, t.Theirs.Name), debtWords(*closing, t.Theirs.Name)))
		}
	}
	t.HasOpening, t.HasClosing = opening != nil, closing != nil
	switch {
	case opening != nil && closing != nil:
		t.Opening, t.Closing = *opening, *closing
		if t.Closing != t.Opening+net {
			t.Notes = append(t.Notes, fmt.Sprintf("В их акте сальдо конечное не следует из их же строк: начальное %s плюс обороты дают %s, а в акте %s.",
				ru.Money(int64(t.Opening)), ru.Money(int64(t.Opening+net)), ru.Money(int64(t.Closing))))
		}
	case opening != nil:
		t.Opening, t.Closing = *opening, *opening+net
	case closing != nil:
		t.Closing, t.Opening = *closing, *closing-net
	default:
		t.Closing = net
	}
	return t, nil
}

// theirHalf is the half of the header that holds the counterparty's data.
func theirHalf(h header, ours []Party) (int, error) {
	if len(h.halves) == 1 {
		if c := h.halves[0].caption; c != "" && isOurs(Party{Name: c}, ours) {
			return 0, unreadable("В акте заполнены только данные %s — это наши данные, а данных контрагента в нём нет.", c)
		}
		return 0, nil
	}
	var theirs, mine []int
	for i, hf := range h.halves {
		switch {
		case hf.caption == "":
		case isOurs(Party{Name: hf.caption}, ours):
			mine = append(mine, i)
		default:
			theirs = append(theirs, i)
		}
	}
	if len(theirs) == 1 && len(mine)+len(theirs) == len(h.halves) {
		return theirs[0], nil
	}
	var names []string
	for _, hf := range h.halves {
		if hf.caption != "" {
			names = append(names, "«По данным "+hf.caption+"»")
		}
	}
	if len(names) < len(h.halves) {
		return 0, unreadable("В акте %d половины таблицы, но не над каждой написано, чьи это данные («По данным …»): не могу понять, какая из них — данные контрагента.", len(h.halves))
	}
	return 0, unreadable("В акте половины %s, и я не понял, какая из них — данные контрагента: ни одна не совпадает с нашей организацией или совпадают обе. Уточните, чей это акт.", strings.Join(names, " и "))
}

// parties are ours and theirs as the act names them: the heading's «между … и …», their half's
// caption; ours as our catalog names it.
func parties(hd heading, caption string, ours []Party) (us, them Party) {
	for _, p := range hd.parties {
		if isOurs(p, ours) {
			us = p
		} else if them.Name == "" {
			them = p
		}
	}
	if capt := (Party{Name: caption}); caption != "" && !isOurs(capt, ours) && (them.Name == "" || !sameParty(capt, them)) {
		them = capt
	}
	if us.Name == "" {
		return us, them
	}
	// The organization the name is exactly, before one whose name merely contains it («ООО
	// «Северный ветер»» is not «ООО «Северный ветер Трейд»»).
	for _, o := range ours {
		if us.INN != "" && us.INN == o.INN || nameKey(us.Name) == nameKey(o.Name) {
			return o, them
		}
	}
	for _, o := range ours {
		if sameParty(us, o) {
			return o, them
		}
	}
	return us, them
}

// footer is the text after the table's header, a text for each half (BP prints each side's
// closing words under its half): what «задолженность в пользу …» is looked for in.
func (h *header) footer(g grid) []string {
	texts := make([]strings.Builder, len(h.halves))
	for _, r := range g.rows[h.row+1:] {
		for _, c := range r.cells {
			best, dist := 0, math.Inf(1)
			for hi := range h.halves {
				x0, x1 := h.span(hi)
				if d := math.Abs(c.center() - (x0+x1)/2); d < dist {
					best, dist = hi, d
				}
			}
			if len(h.halves) == 1 || overlap(c.x0, c.x1, h.cols[0].x0, h.cols[len(h.cols)-1].x1) > 0.75*(h.cols[len(h.cols)-1].x1-h.cols[0].x0) {
				best = 0 // a line across the page
			}
			texts[best].WriteString(c.text)
			texts[best].WriteByte(' ')
		}
	}
	out := make([]string, len(texts))
	for i := range texts {
		out[i] = texts[i].String()
	}
	return out
}

// debtWords says a balance as the act's words would: «2 565 596,93 ₽ в нашу пользу».
func debtWords(k onec.Kopecks, them string) string {
	switch {
	case k > 0:
		return ru.Money(int64(k)) + " в нашу пользу"
	case k < 0:
		who := "контрагента"
		if them != "" {
			who = them
		}
		return ru.Money(int64(-k)) + " в пользу " + who
	}
	return "ноль"
}
