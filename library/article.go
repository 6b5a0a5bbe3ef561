package library

import (
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

// ArticleQuote returns what an answer quotes of a knowledge-base article (or a passage of one)
// for query, which asks a: the unit that answers best — a sentence, a list item, a table row
// read with its table's header — widened with what completes it while it fits maxRunes, and the
// heading of the section it stands in. text is the article's text as the library extracts Markdown: one
// line per heading, paragraph, list item and table row; title is the article's title, section
// the heading in force where text starts ("" for the title).
//
// Units are scored by the question's terms they hold, each weighted by how few units of the
// article hold it: the term that names the item asked about («6-НДФЛ» in an article on all
// reports) counts more than one the whole article is about. A term only the unit's section
// heading holds counts half, one of the title at least half. A question that asks for a time
// limit («когда», «в какой срок», «до какого числа») is answered by a unit that states
// one, better by a date («до 25-го числа», «до 25 февраля») than by a period: «6-НДФЛ | квартал
// / год | до 25-го числа месяца после квартала / до 25 февраля», not «Если 6-НДФЛ не поданы в
// течение 20 рабочих дней после срока…»; one that asks how much («сколько», «ставка»,
// «тариф») by a unit with a figure. When a question asks for a time limit and the quote states
// none, or names too little of what the question names (namesTooLittle), the quote Misses: the
// article does not answer it.
func ArticleQuote(text, title, section, query string, a Asking, maxRunes int) Quote {
	if section == "" {
		section = title
	}
	units := articleUnits(text, section)
	q := newArticleQuery(query, a)
	scores, ok := scoreUnits(units, title, q)
	if !ok {
		ex := Excerpt(PlainText(text), query, maxRunes)
		return Quote{Text: ex, Section: section, Score: q.score(ex, ""), Misses: q.deadline}
	}
	best, bestScore := -1, -1.0
	for i, u := range units {
		if u.kind != unitHeading && scores[i] > bestScore {
			best, bestScore = i, scores[i]
		}
	}
	if bestScore <= 0 { // nothing of the question: the article's opening
		bestScore = 0
		for i, u := range units {
			if u.kind != unitHeading {
				best = i
				break
			}
		}
	}
	sel := widen(units, scores, best, maxRunes)
	named := q.named(units, sel, title)
	return Quote{Text: renderUnits(units, sel, maxRunes), Section: units[sel[0]].section, Score: q.relevance(units, sel, title),
		Misses: q.deadline && (!q.states(units, sel) || namesTooLittle(len(named), len(q.items))), Named: named}
}

// relevance is how much of q the units sel of an article titled title answer, comparable across
// articles (unlike the units' scores, which weigh terms by the article's own use of them): the
// weights of the question's terms they hold, half for those only their section's heading or the
// title holds, half a point for each pair of the question's neighbouring terms side by side, and
// what the question asks for — a time limit, a figure — when they state it.
func (q articleQuery) relevance(units []articleUnit, sel []int, title string) float64 {
	var parts []string
	head := unitTerms(title)
	for _, i := range sel {
		u := units[i]
		parts = append(parts, u.text)
		for t := range unitTerms(u.section + "\n" + strings.Join(u.header, " ")) {
			head[t] = true
		}
	}
	text := strings.Join(parts, "\n")
	have := unitTerms(text)
	s := q.pairBonus(text, nil)
	for t, w := range q.terms {
		switch {
		case t == "срок" && q.when:
		case have[t]:
			s += w
		case head[t]:
			s += w / 2
		}
	}
	switch {
	case q.when && isDated(text):
		s += 1.25
	case q.when && hasDeadline(text):
		s++
	case q.amount && figure.MatchString(text):
		s++
	}
	return s
}

// unitTerms is the set of the retrieval terms of s, a code's parts as well: «6-НДФЛ» is «6» and
// «ндфл» to a question typed «6 ндфл».
func unitTerms(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range retrieval.Tokens(s) {
		m[act(t)] = true
		if strings.Contains(t, "-") {
			for _, p := range strings.Split(t, "-") {
				if p != "" {
					m[p] = true
				}
			}
		}
	}
	return m
}

// articleQuery is a question read for quoting an article.
type articleQuery struct {
	clauseQuery
	// amount: the question asks how much (Asking.Amount).
	amount bool
	// deadline: the question asks for a time limit in so many words, or «когда» or «срок» with
	// what is done (Asking.Deadline).
	deadline bool
	// items are the terms of the question's subject (Asking.Subject) that name what it asks
	// about: not «срок», not the action («сдавать», «платить», «уплата»), not a number («за 3
	// квартал»).
	items []string
}

// actions are the terms of what is done by a time limit: a deadline's answer rarely repeats them
// («6-НДФЛ | квартал / год | до 25 февраля» answers «когда сдавать 6-НДФЛ»). Those of filing
// are one term to a quote: «сдать декларацию» is «Декларацию подают…» (paying is one already:
// «платить» is «уплачивают»).
var (
	filing  = tokenSet("сдать сдавать сдача сдают сдаёт подать подавать подача подают подаёт представлять представить представление представляют")
	actions = union(filing, tokenSet("платить оплатить уплатить оплата уплата перечислять перечислить перечисление "+
		"выплатить выплата выплачивать выставить выставлять выставляют заявить заявлять"))
)

// act is the term a quote reads t as: one for filing, else t.
func act(t string) string {
	if filing[t] {
		return "сдач"
	}
	return t
}

func union(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for t := range s {
			out[t] = true
		}
	}
	return out
}

func newArticleQuery(query string, a Asking) articleQuery {
	q := articleQuery{clauseQuery: newClauseQuery(query, a)}
	terms := map[string]float64{}
	for t, w := range q.terms {
		terms[act(t)] = max(terms[act(t)], w)
	}
	q.terms = terms
	for i, p := range q.pairs {
		q.pairs[i] = [2]string{act(p[0]), act(p[1])}
	}
	q.when, q.amount, q.deadline = a.When, a.Amount, a.Deadline
	if q.when {
		q.terms["срок"] = 1
	}
	subject := a.Subject
	if subject == "" {
		subject = query
	}
	for _, t := range distinct(retrieval.Tokens(subject)) {
		if t == "срок" || actions[t] || documentWords[t] || strings.Trim(t, "0123456789") == "" {
			continue
		}
		q.items = append(q.items, t)
	}
	return q
}

// namesTooLittle reports whether a quote that names named of the items a question names does
// not answer a question that asks for a time limit: it names less than half of them, or, of
// two, one — the other then is what the question is about: «Декларация по НДС — до 25-го
// числа…» does not answer «до какого числа сдавать декларацию по усн».
func namesTooLittle(named, items int) bool {
	return 2*named < items || items <= 2 && named < items
}

// states reports whether the units sel state a time limit.
func (q articleQuery) states(units []articleUnit, sel []int) bool {
	for _, i := range sel {
		if hasDeadline(units[i].text) {
			return true
		}
	}
	return false
}

// named are the question's items the units sel of an article titled title name, in their text,
// their section's heading, their table's header or the title.
func (q articleQuery) named(units []articleUnit, sel []int, title string) []string {
	have := unitTerms(title)
	for _, i := range sel {
		u := units[i]
		for t := range unitTerms(u.text + "\n" + u.section + "\n" + strings.Join(u.header, " ")) {
			have[t] = true
		}
	}
	var out []string
	for _, t := range q.items {
		if have[t] {
			out = append(out, t)
		}
	}
	return out
}

// scoreUnits scores the units of an article titled title for q (see ArticleQuote); ok is false
// when the article has no unit but headings.
func scoreUnits(units []articleUnit, title string, q articleQuery) (scores []float64, ok bool) {
	n := 0
	have := make([]map[string]bool, len(units))
	df := map[string]int{}
	for i, u := range units {
		if u.kind == unitHeading {
			continue
		}
		n++
		have[i] = unitTerms(u.text)
		for t := range have[i] {
			if _, ok := q.terms[t]; ok {
				df[t]++
			}
		}
	}
	if n == 0 {
		return nil, false
	}
	// spec is a term's weight by how few units hold it: 1 for a term of one unit.
	idf := func(d int) float64 { return math.Log(1 + (float64(n-d)+0.5)/(float64(d)+0.5)) }
	spec := func(t string) float64 {
		if d := df[t]; d > 1 {
			return idf(d) / idf(1)
		}
		return 1
	}
	titleTerms := unitTerms(title)
	headTerms := map[string]map[string]bool{}
	scores = make([]float64, len(units))
	for i, u := range units {
		if u.kind == unitHeading {
			continue
		}
		head, ok := headTerms[u.section]
		if !ok {
			head = map[string]bool{}
			if u.section != title {
				head = unitTerms(u.section)
			}
			headTerms[u.section] = head
		}
		s := 0.0
		for t, w := range q.terms {
			if t == "срок" && q.when {
				continue // below: a time limit is what answers, whether or not the word is there
			}
			c := 0.0
			switch {
			case have[i][t]:
				c = spec(t)
			case head[t] || u.kind == unitRow && u.headerHas(t):
				c = spec(t) / 2 // the section the question names: «Единый тариф» for «тариф взносов»
			}
			if titleTerms[t] {
				c = max(c, 0.5) // the title speaks for every unit of its article
			}
			s += w * c
		}
		s += q.pairBonus(u.text, titleTerms)
		switch {
		case q.when && isDated(u.text):
			s += 1.25
		case q.when && hasDeadline(u.text):
			s++
		case q.when:
			// No time limit: not the answer to «когда», whatever else it shares with the
			// question («сдавайте отчёты за несколько дней до срока»).
			s /= 2
			if have[i]["срок"] || head["срок"] || titleTerms["срок"] {
				s += 0.5
			}
		case q.amount && figure.MatchString(u.text):
			s++
		}
		scores[i] = s
	}
	return scores, true
}

// Time limits as an article states them. dated is a point in the calendar: «до 25-го числа»,
// «28-е число», «до 25 февраля», «не позднее 31 марта», «последнего рабочего дня года»,
// «накануне», «в день увольнения». deadline is any time limit: those, a term («в течение 3
// рабочих дней», «не позднее чем за три дня», «не позднее трёх лет», «3 года»), a frequency («не
// реже чем каждые полмесяца», «ежемесячно»).
var (
	months = `(январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)\p{L}*`
	dated  = regexp.MustCompile(`(?i)(^|[^\p{L}])(до|не\s+позднее|не\s+позже|по)\s+\d{1,2}(-?(го|е|ое|ого))?\s+(числ|` + months + `)|` +
		`\d{1,2}-?(го|е|ое)\s+числ|последн\p{L}*\s+(рабоч\p{L}*\s+)?(дн|числ)|накануне|` +
		`(^|[^\p{L}])в\s+(последний\s+)?день\s+(увольнен|выплат|получен|прекращен|оконч|отгрузк|оплат|поступлен|перечислен)`)
	deadline = regexp.MustCompile(`(?i)` + dated.String()[4:] + `|не\s+позднее|не\s+позже|не\s+ранее|не\s+реже|в\s+течение|` +
		`(^|[^\p{L}\d])` + number + `\s*(\([^)]{1,30}\)\s*)?(календарн\p{L}*\s+|рабоч\p{L}*\s+|банковск\p{L}*\s+)?(дн(я|ей|и)|день|месяц\p{L}*|недел\p{L}*|лет|год(а|у)?)([^\p{L}]|$)|` +
		`ежемесячн|ежекварталь|ежегодн|каждые|(^|[^\p{L}])раз\s+в\s+(месяц|квартал|год|полгода)|непосредственно\s+(до|после)`)
	// aYear follows a date that is a day in history, not a recurring time limit: «по отгрузкам до
	// 1 января 2026 года».
	aYear = regexp.MustCompile(`^\s*\d{4}`)
	// number is a count in digits or words: «3», «трёх», «пятнадцати» (not «третий»).
	number = `(\d{1,3}|один|одного|одной|одну|два|две|двух|три|трёх|трех|четыре|четырёх|четырех|пять|пяти|шесть|шести|семь|семи|восемь|восьми|девять|девяти|десять|десяти|пятнадцать|пятнадцати|тридцать|тридцати)`
	// figure is a value a unit states: «22%», «1/300», «100 000 руб.», «2,4 млн».
	figure = regexp.MustCompile(`\d\s*%|\d+/\d+|\d\s*(руб|тыс|млн|млрд)`)
)

// unitKind is what a unit of an article is.
type unitKind int

const (
	unitSentence unitKind = iota // a sentence of a paragraph
	unitItem                     // a list item
	unitRow                      // a table row
	unitHeading                  // a heading: never quoted, it names the section
)

// articleUnit is what an article is quoted by.
type articleUnit struct {
	kind    unitKind
	text    string   // whitespace collapsed, emphasis removed; a row's cells joined by « | »
	cells   []string // a row's cells
	header  []string // the header of a row's table
	level   int      // a list item's nesting, 0 at the left margin
	block   int      // the paragraph, list or table it belongs to
	section string   // the heading it stands under
	// first and last: a sentence that starts, ends its paragraph.
	first, last bool
}

// headerHas reports whether the header of a row's table holds term t.
func (u articleUnit) headerHas(t string) bool {
	for _, h := range u.header {
		if unitTerms(h)[t] {
			return true
		}
	}
	return false
}

var (
	listItem     = regexp.MustCompile(`^([ \t]*)([-*+•][ \t]+|\d{1,2}[.)][ \t]+)`)
	tableDivider = regexp.MustCompile(`^\|?[ \t]*:?-{2,}:?[ \t]*(\|[ \t]*:?-{2,}:?[ \t]*)*\|?$`)
)

// articleUnits splits an article's text into its units. A heading is a short line without a
// final stop that starts the text or follows an empty line, and that some text follows; a table
// row is a line in pipes, its table's header the row above a divider; a list item starts with a
// marker («-», «*», «1.»). Other lines are paragraphs, split into sentences.
func articleUnits(text, section string) []articleUnit {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var units []articleUnit
	block, afterBlank := 0, true
	var header []string
	nextLine := func(i int) string {
		if i+1 < len(lines) {
			return strings.TrimSpace(lines[i+1])
		}
		return ""
	}
	textAfter := func(i int) bool {
		for _, l := range lines[i+1:] {
			if strings.TrimSpace(l) != "" {
				return true
			}
		}
		return false
	}
	for i, raw := range lines {
		line := strings.TrimSpace(raw)
		if line == "" {
			if !afterBlank {
				block++
			}
			afterBlank, header = true, nil
			continue
		}
		wasBlank := afterBlank
		afterBlank = false
		plain := func(s string) string {
			return strings.Join(strings.Fields(emphasisMarks.ReplaceAllString(s, "")), " ")
		}
		switch {
		case strings.HasPrefix(line, "|"):
			if tableDivider.MatchString(line) {
				continue
			}
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for j := range cells {
				cells[j] = plain(cells[j])
			}
			if tableDivider.MatchString(nextLine(i)) {
				header = cells
				continue
			}
			units = append(units, articleUnit{kind: unitRow, text: strings.Join(cells, " | "), cells: cells, header: header,
				block: block, section: section})
		case listItem.MatchString(raw):
			m := listItem.FindStringSubmatch(raw)
			body := raw[len(m[0]):]
			if !strings.ContainsAny(m[2], "-*+•") {
				body = strings.TrimSpace(m[2]) + " " + body // «1.» is the item's number: part of it
			}
			level := len(strings.ReplaceAll(m[1], "\t", "  ")) / 2
			units = append(units, articleUnit{kind: unitItem, text: plain(body), level: level, block: block, section: section})
		case wasBlank && isTitleLine(line) && textAfter(i):
			section = plain(line)
			units = append(units, articleUnit{kind: unitHeading, text: section, block: block, section: section})
			block++
		default:
			sents := sentences(plain(line))
			for j, s := range sents {
				units = append(units, articleUnit{kind: unitSentence, text: s, block: block, section: section,
					first: j == 0, last: j == len(sents)-1})
			}
			block++ // each line is a paragraph
		}
	}
	return units
}

// widen returns the units quoted for the best one, in reading order, while they fit maxRunes: a
// sentence with the rest of its paragraph, nearest first, and the list right after it; a list
// item or a row with the items or rows of its list or table that answer as well, under the
// sentence or item (ending with a colon) that introduces them.
func widen(units []articleUnit, scores []float64, best, maxRunes int) []int {
	sel := []int{best}
	size := utf8.RuneCountInString(units[best].text)
	add := func(i int) bool {
		n := utf8.RuneCountInString(units[i].text) + 3
		if size+n > maxRunes {
			return false
		}
		size += n
		sel = append(sel, i)
		return true
	}
	b := units[best]
	lo, hi := best, best
	switch b.kind {
	case unitSentence:
		for grew := true; grew; {
			grew = false
			if hi+1 < len(units) && units[hi+1].kind == unitSentence && units[hi+1].block == b.block && add(hi+1) {
				hi++
				grew = true
			}
			if lo > 0 && units[lo-1].kind == unitSentence && units[lo-1].block == b.block && add(lo-1) {
				lo--
				grew = true
			}
		}
		// The list right after the paragraph goes on with it: «Расчётную ставку применяют…»,
		// then «22/122 — для операций по ставке 22%».
		if units[hi].last {
			for i := hi + 1; i < len(units) && units[i].kind == unitItem && units[i].block == b.block+1 && add(i); i++ {
			}
		}
	default:
		for i := range units {
			if i != best && units[i].kind == b.kind && units[i].block == b.block && scores[i] >= scores[best] && scores[i] > 0 {
				add(i)
			}
		}
		switch {
		case b.kind == unitItem && b.level > 0:
			for i := best - 1; i >= 0 && units[i].kind == unitItem && units[i].block == b.block; i-- {
				if units[i].level < b.level {
					add(i)
					break
				}
			}
		case b.kind == unitItem:
			// The item or sentence a colon ends introduces the items after it; those that go on
			// with it start with a small letter («Размер определяют…:», «просрочка более 90 дней
			// — вся сумма долга;»), which tells them from the next item when the nesting is lost.
			start := best
			for start > 0 && units[start-1].kind == unitItem && units[start-1].block == b.block &&
				!strings.HasSuffix(units[start-1].text, ":") && startsLower(units[start].text) {
				start--
			}
			if start > 0 && (start == best || startsLower(units[start].text)) {
				lead := units[start-1]
				if strings.HasSuffix(lead.text, ":") && (lead.kind == unitItem && lead.block == b.block || lead.kind == unitSentence && lead.last) {
					add(start - 1)
				}
			}
		}
	}
	slices.Sort(sel)
	return sel
}

// renderUnits writes the quoted units as one line: a table row as «key — header: value; …»,
// list items and rows marked «•» when more than one unit is quoted, a paragraph cut short marked
// «…».
func renderUnits(units []articleUnit, sel []int, maxRunes int) string {
	var parts []string
	for _, i := range sel {
		u := units[i]
		t := u.text
		if u.kind == unitRow {
			t = rowText(u)
		}
		if len(sel) > 1 && (u.kind == unitItem || u.kind == unitRow) && !(i == sel[0] && strings.HasSuffix(t, ":")) {
			t = "• " + t // but for the item that introduces the others
		}
		parts = append(parts, t)
	}
	out := strings.Join(parts, " ")
	if r := []rune(out); len(r) > maxRunes { // one unit longer than the budget
		return strings.TrimRightFunc(string(r[:maxRunes]), unicode.IsSpace) + "…"
	}
	if f := units[sel[0]]; f.kind == unitSentence && !f.first {
		out = "…" + out
	}
	if l := units[sel[len(sel)-1]]; l.kind == unitSentence && !l.last {
		out += "…"
	}
	return out
}

// rowText reads a table row with its header: «6-НДФЛ — период: квартал / год; срок: до 25-го
// числа…».
func rowText(u articleUnit) string {
	if len(u.cells) == 0 {
		return u.text
	}
	key := u.cells[0]
	var rest []string
	for j, c := range u.cells[1:] {
		h := ""
		if j+1 < len(u.header) {
			h = ru.LowerFirst(u.header[j+1])
		}
		switch {
		case c == "":
		case h != "":
			rest = append(rest, h+": "+c)
		default:
			rest = append(rest, c)
		}
	}
	switch {
	case len(rest) == 0:
		return key
	case key == "":
		return strings.Join(rest, "; ")
	}
	return key + " — " + strings.Join(rest, "; ")
}

// tokenSet is the set of the retrieval terms of s.
func tokenSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range retrieval.Tokens(s) {
		m[t] = true
	}
	return m
}

// pairBonus is what the question's neighbouring terms side by side in text add (as score does),
// but for those the title holds both of.
func (q clauseQuery) pairBonus(text string, title map[string]bool) float64 {
	if len(q.pairs) == 0 {
		return 0
	}
	next := map[[2]string]bool{}
	toks := retrieval.Tokens(text)
	for i := 1; i < len(toks); i++ {
		next[[2]string{act(toks[i-1]), act(toks[i])}] = true
	}
	s := 0.0
	for _, p := range q.pairs {
		if next[p] && !(title[p[0]] && title[p[1]]) {
			s += 0.5
		}
	}
	return s
}

// isDated reports whether text states a time limit as a point in the calendar (dated), not a day
// in history («до 1 января 2026 года»).
func isDated(text string) bool { return matchesBut(dated, text) }

// hasDeadline reports whether text states a time limit (deadline), not a day in history.
func hasDeadline(text string) bool { return matchesBut(deadline, text) }

// matchesBut reports whether re matches text somewhere not followed by a year.
func matchesBut(re *regexp.Regexp, text string) bool {
	for _, m := range re.FindAllStringIndex(text, -1) {
		if !aYear.MatchString(text[m[1]:]) {
			return true
		}
	}
	return false
}

// startsLower reports whether s starts with a small letter.
func startsLower(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}
