package library

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/library/retrieval"
)

// Quote is the part of a document passage that answers a question.
type Quote struct {
	// Text is what is quoted: whole numbered clauses («5.2. За просрочку оплаты…») when the
	// passage has them, else the best sentences; a cut end is marked with «…».
	Text string
	// Section is the heading of the section the first quoted clause stands in, when the passage
	// holds it («5. Ответственность сторон»); "" when the passage starts inside that section.
	Section string
	// Clause is the number of the first quoted clause («5.2»); "" when the passage has no
	// numbered clauses.
	Clause string
	// Score is how much of the question the quote matches (the weights of the question's terms
	// it holds): quotes of one question compare by it.
	Score float64
	// Misses is set by ArticleQuote when the question asks for a time limit and the quote states
	// none, or names too little of what the question names: the article does not answer it.
	Misses bool
	// Named are, for ArticleQuote, the things the question names (its terms but «срок», the
	// action and numbers) that the quote, its section's heading or the article's title name.
	Named []string
}

// Clause returns what a passage of a user's document quotes for query, which asks a: the
// numbered clause with the question's terms (widened with the neighbouring clauses that match as
// well, while they fit maxRunes), so that asked for a payment term the answer is «2.2.
// Покупатель оплачивает товар в течение 20 банковских дней…», not the contract's opening. A
// passage without numbered clauses is quoted by sentences, as Excerpt does.
func Clause(text, query string, a Asking, maxRunes int) Quote {
	q := newClauseQuery(query, a)
	units := clauseUnits(text)
	if !slices.ContainsFunc(units, func(u clauseUnit) bool { return u.number != "" }) {
		ex := Excerpt(text, query, maxRunes)
		return Quote{Text: ex, Score: q.score(ex, "")}
	}
	best, bestScore := -1, -1.0
	scores := make([]float64, len(units))
	section := ""
	sections := make([]string, len(units))
	for i, u := range units {
		if u.heading {
			section = u.text
			continue
		}
		sections[i] = section
		scores[i] = q.score(u.text, section)
		if scores[i] > bestScore {
			best, bestScore = i, scores[i]
		}
	}
	if best < 0 { // headings only
		ex := Excerpt(text, query, maxRunes)
		return Quote{Text: ex, Score: q.score(ex, "")}
	}
	// Of clauses that match equally, those of the section with most of them: «пени по п. 5.1»
	// in the delivery clause mentions the penalty, «5. Ответственность сторон» sets it.
	run := func(i int) int {
		n := 0
		for j := i; j < len(units) && !units[j].heading && scores[j] == bestScore && sections[j] == sections[i]; j++ {
			n++
		}
		return n
	}
	for i, longest := best, 0; bestScore > 0 && i < len(units); i++ {
		if units[i].heading || scores[i] != bestScore || i > 0 && !units[i-1].heading && scores[i-1] == bestScore && sections[i-1] == sections[i] {
			continue // not the first of a run
		}
		if n := run(i); n > longest {
			best, longest = i, n
		}
	}
	// Neighbouring clauses of the same section that match as well go with it: «5.1…», «5.2…»
	// and «5.3…» all answer «какая неустойка».
	lo, hi := best, best+1
	size := utf8.RuneCountInString(units[best].text)
	fits := func(i int) bool {
		u := units[i]
		return !u.heading && bestScore > 0 && scores[i] == bestScore && sections[i] == sections[best] &&
			size+1+utf8.RuneCountInString(u.text) <= maxRunes
	}
	for {
		switch {
		case hi < len(units) && fits(hi):
			size += 1 + utf8.RuneCountInString(units[hi].text)
			hi++
		case lo > 0 && fits(lo-1):
			lo--
			size += 1 + utf8.RuneCountInString(units[lo].text)
		default:
			parts := make([]string, 0, hi-lo)
			for _, u := range units[lo:hi] {
				parts = append(parts, u.text)
			}
			out := strings.Join(parts, " ")
			if r := []rune(out); len(r) > maxRunes { // one clause longer than the budget
				out = strings.TrimRightFunc(string(r[:maxRunes]), unicode.IsSpace) + "…"
			}
			return Quote{Text: out, Section: sections[lo], Clause: units[lo].number, Score: bestScore}
		}
	}
}

// clauseUnit is a numbered clause of a passage, its text before the first clause, or a heading.
type clauseUnit struct {
	number  string // «5.2»; "" for the text before the first clause and unnumbered headings
	text    string // whitespace collapsed, with its number
	heading bool   // a section's title («5. Ответственность сторон»), not a clause
}

// clauseNumber is a clause number at the start of a unit: «5.2.», «5.2», «12.», «3.1.4.»; a
// single level needs its dot (a bare «20 дней» is no clause). What follows must start a
// sentence.
var clauseNumber = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,2}){0,3})(\.?)\s+[\p{Lu}«"(]`)

// references are the words that make a number a reference to a clause, not its start: «п.
// 5.2», «согласно пункту 3.1», «ст. 330».
var references = map[string]bool{
	"п": true, "пп": true, "пункт": true, "пункта": true, "пункту": true, "пунктом": true, "пункте": true,
	"пункты": true, "пунктов": true, "пунктами": true, "пунктах": true, "подпункт": true, "подпункта": true,
	"подпункту": true, "подпунктом": true, "подпункте": true, "подпункты": true, "подпунктов": true, "ст": true, "статья": true, "статьи": true,
	"статьей": true, "статьёй": true, "ч": true, "часть": true, "части": true, "разд": true, "раздел": true,
	"раздела": true, "разделе": true, "гл": true, "глава": true, "главы": true, "прил": true, "приложение": true,
	"приложения": true, "№": true, "и": true, "или": true, "–": true, "-": true,
}

// clauseUnits splits a passage at its clause numbers: at a line's start, after a sentence's
// end, and (for «5.2»-style numbers, which nothing else looks like) after any word that does
// not make the number a reference. A short line without a final stop that precedes a clause
// is a heading, and so is a numbered unit whose next unit is its first subclause («5.
// Ответственность сторон» before «5.1.»).
func clauseUnits(text string) []clauseUnit {
	var lines []string
	for _, l := range strings.Split(PlainText(text), "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	var units []clauseUnit
	var cur strings.Builder
	number := ""
	flush := func() {
		if t := cur.String(); t != "" {
			units = append(units, clauseUnit{number: number, text: t})
		}
		cur.Reset()
		number = ""
	}
	for li, line := range lines {
		if li+1 < len(lines) && isTitleLine(line) && !startsWithClause(line) && startsWithClause(lines[li+1]) {
			flush()
			units = append(units, clauseUnit{text: line, heading: true})
			continue
		}
		words := strings.Split(line, " ")
		for wi, w := range words {
			prev := ""
			switch {
			case wi > 0:
				prev = words[wi-1]
			case li > 0:
				prev = lines[li-1][strings.LastIndexByte(lines[li-1], ' ')+1:]
			}
			// The number and the word after it are all clauseNumber reads: joining the rest of a
			// long line for every word of it was quadratic (a one-line document of 1 MB hung).
			if m := clauseNumber.FindStringSubmatch(strings.Join(words[wi:min(wi+2, len(words))], " ")); m != nil && startsClause(prev, wi == 0, m[1], m[2] == ".") {
				flush()
				number = m[1]
			}
			if cur.Len() > 0 {
				cur.WriteByte(' ')
			}
			cur.WriteString(w)
		}
	}
	flush()
	for i := range units {
		u := &units[i]
		if u.number == "" || u.heading || i+1 >= len(units) {
			continue
		}
		if next := units[i+1].number; strings.HasPrefix(next, u.number+".") && utf8.RuneCountInString(u.text) <= 100 {
			u.heading = true
		}
	}
	return units
}

// startsClause reports whether a number found after the word prev (the previous line's last
// word when lineStart) starts a clause: not after a word that makes it a reference («п. 5.2»,
// «пунктом 3.1»); then at a line's start, after a sentence's end, or anywhere when it has
// several levels.
func startsClause(prev string, lineStart bool, number string, dot bool) bool {
	multi := strings.Contains(number, ".")
	if !dot && !multi {
		return false
	}
	if references[strings.ToLower(strings.Trim(prev, ".;:!?«»\"()"))] {
		return false
	}
	if lineStart || prev == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(prev)
	return multi || strings.ContainsRune(".;:!?»\")", r)
}

func startsWithClause(line string) bool {
	m := clauseNumber.FindStringSubmatch(line)
	return m != nil && (m[2] == "." || strings.Contains(m[1], "."))
}

// isTitleLine: a short line without a final stop, as a section's title is written.
func isTitleLine(line string) bool {
	if utf8.RuneCountInString(line) > 80 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(line)
	return !strings.ContainsRune(".;:,!?", r)
}

// clauseQuery is a question read for matching clauses.
type clauseQuery struct {
	terms map[string]float64
	// pairs are the question's neighbouring terms («просрочк оплат»): a clause that has them
	// side by side says what the question says, not just its words.
	pairs [][2]string
	// when: the question asks for a time limit («срок оплаты», «когда платить»: Asking.Term;
	// an article's, Asking.When), which a clause states as a period or a date rather than with
	// the word «срок».
	when bool
}

// documentWords name the document a question is about («по договору»): the answering clause
// rarely repeats them, so they weigh little.
var documentWords = map[string]bool{"договор": true, "контракт": true, "соглашен": true, "документ": true, "положен": true, "регламент": true}

func newClauseQuery(query string, a Asking) clauseQuery {
	q := clauseQuery{terms: map[string]float64{}}
	toks := retrieval.Tokens(query)
	for i, t := range toks {
		w := 1.0
		if documentWords[t] {
			w = 0.2
		}
		q.terms[t] = w
		if i > 0 && t != toks[i-1] && !documentWords[t] && !documentWords[toks[i-1]] {
			q.pairs = append(q.pairs, [2]string{toks[i-1], t})
		}
	}
	if a.Term {
		q.when = true
		q.terms["срок"] = 1
	}
	return q
}

// timeLimit finds how a clause states a time limit: «в течение 20 банковских дней», «не
// позднее 5-го числа», «до 31 декабря 2026 г.», «по факту поставки», «предоплата».
var timeLimit = regexp.MustCompile(`(?i)в\s+течени[ея]|не\s+поздн(ее|ей)|не\s+позже|не\s+ранее|в\s+срок|по\s+факту|` +
	`предоплат|\d+\s*(\([^)]{1,30}\)\s*)?((календарн|рабоч|банковск)\p{L}*\s+)?(дн(я|ей|и)|день|недел\p{L}*|месяц\p{L}*|час\p{L}*)|` +
	`до\s+\d{1,2}(-?г?о)?\s+(числа|январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)|\d{1,2}\.\d{1,2}\.\d{2,4}`)

// periodLimit: a time limit stated as a period or a deadline («в течение 10 дней», «не позднее
// 5-го числа», «до 31 декабря»), not a date alone (a form's date states no term of anything).
var periodLimit = regexp.MustCompile(`(?i)в\s+течени[ея]|не\s+поздн(ее|ей)|не\s+позже|не\s+ранее|в\s+срок|по\s+факту|` +
	`предоплат|\d+\s*(\([^)]{1,30}\)\s*)?((календарн|рабоч|банковск)\p{L}*\s+)?(дн(я|ей|и)|день|недел\p{L}*|месяц\p{L}*)|` +
	`(^|[^\p{L}])до\s+\d{1,2}`)

// score is the weight of the question's terms text holds; those only its section's heading
// holds count half («2. Порядок расчётов» speaks for its clauses), and each pair of the
// question's neighbouring terms that text has side by side adds half.
func (q clauseQuery) score(text, section string) float64 {
	have := map[string]bool{}
	next := map[[2]string]bool{}
	toks := retrieval.Tokens(text)
	for i, t := range toks {
		have[t] = true
		if i > 0 {
			next[[2]string{toks[i-1], t}] = true
		}
	}
	if q.when && timeLimit.MatchString(text) {
		have["срок"] = true
	}
	var head map[string]bool
	if section != "" {
		head = map[string]bool{}
		for _, t := range retrieval.Tokens(section) {
			head[t] = true
		}
	}
	s := 0.0
	for t, w := range q.terms {
		switch {
		case have[t]:
			s += w
		case head[t]:
			s += w / 2
		}
	}
	for _, p := range q.pairs {
		if next[p] {
			s += 0.5
		}
	}
	return s
}
