package ru

import (
	"strings"
	"time"
)

// parser matches date phrases on the tokens of one text.
type parser struct {
	text  string
	toks  []token
	today time.Time // midnight Moscow
}

// result is a matched phrase: a period or, when err is set, an invalid date.
type result struct {
	from, to time.Time
	kind     string
	text     string
	end      int // index of the first token after the phrase
	err      *DateError
}

func newParser(text string, now time.Time) *parser {
	return &parser{text: text, toks: tokenize(text), today: midnight(now)}
}

// matchers read a phrase at a token, in the order they are tried.
var matchers = []func(*parser, int) (result, bool){
	(*parser).matchRange,
	(*parser).matchOpenRange,
	(*parser).matchQuarter,
	(*parser).matchHalf,
	(*parser).matchYear,
	(*parser).matchRelative,
	(*parser).matchDay,
	(*parser).matchMonth,
}

// parse returns the first phrase that is a date or period, or an invalid date.
func (p *parser) parse() (result, bool) {
	if r, ok := p.wholeYear(); ok {
		return r, true
	}
	for i := range p.toks {
		for _, m := range matchers {
			if r, ok := m(p, i); ok {
				r.text = p.span(i, r.end)
				if r.err != nil {
					r.err.Text = r.text
				}
				return r, true
			}
		}
	}
	return result{}, false
}

// span returns the original text of tokens [i, end).
func (p *parser) span(i, end int) string {
	if end <= i {
		return ""
	}
	return p.text[p.toks[i].start:p.toks[end-1].end]
}

// Token accessors that are safe past the end.

func (p *parser) word(i int) string {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tWord {
		return ""
	}
	return p.toks[i].s
}

func (p *parser) punct(i int) string {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tPunct {
		return ""
	}
	return p.toks[i].s
}

// num returns the value and digit count of a one-group number at i, or -1.
func (p *parser) num(i int) (int, int) {
	if i < 0 || i >= len(p.toks) {
		return -1, 0
	}
	t := p.toks[i]
	v := t.value()
	if v < 0 {
		return -1, 0
	}
	return v, len(t.parts[0])
}

// adjacent reports whether tokens i and i+1 touch (no space between them).
func (p *parser) adjacent(i int) bool {
	return i >= 0 && i+1 < len(p.toks) && p.toks[i].end == p.toks[i+1].start
}

// prefix skips one of the given prepositions at i (each a sequence of words) and returns
// the index after it, or i when none is there.
func (p *parser) prefix(i int, options ...[]string) int {
	best := i
	for _, seq := range options {
		j := i
		for _, w := range seq {
			if p.word(j) != w {
				j = -1
				break
			}
			j++
		}
		if j > best {
			best = j
		}
	}
	return best
}

// words turns "на за к" into prefix options of one word each.
func words(ws ...string) [][]string {
	out := make([][]string, len(ws))
	for i, w := range ws {
		out[i] = []string{w}
	}
	return out
}

var (
	periodPreps = words("за", "в", "во", "на")
	dayPreps    = append(words("на", "за", "к", "от", "в", "во", "по"), []string{"по", "состоянию", "на"})
	fromWords   = set("с", "со", "c", "от")
	openWords   = set("с", "со", "c")
	toWords     = set("по", "до")
)

// yearAt reads a 4-digit year in [lo, maxYear] at i that is not an amount («2026 рублей»).
func (p *parser) yearAt(i, lo int) (int, bool) {
	v, n := p.num(i)
	if n != 4 || v < lo || v > maxYear {
		return 0, false
	}
	if p.amountAt(i + 1) {
		return 0, false
	}
	return v, true
}

// yearWord skips «г», «г.», «года», «году»…, possibly after an ordinal ending («2025-го
// года», «2025-м году»), at i and returns the index after it, or i when there is none.
func (p *parser) yearWord(i int) int {
	k := p.ordinal(i)
	w := p.word(k)
	if !yearWords[w] {
		return i
	}
	if (w == "г" || w == "гг") && p.punct(k+1) == "." && p.adjacent(k) {
		return k + 2
	}
	return k + 1
}

// optYear reads an optional year with its optional «года» after a month or quarter, or a
// year counted from today: «марта прошлого года», «1 квартал позапрошлого года», «в марте
// этого года».
func (p *parser) optYear(i int) (y, end int) {
	if v, ok := p.yearAt(i, minYear); ok {
		return v, p.yearWord(i + 1)
	}
	if off, ok := relOffset(p.word(i)); ok && unitWords[p.word(i+1)] == uYear {
		return p.today.Year() + off, i + 2
	}
	if y, ok := p.shortYear(i); ok {
		return y, p.yearWord(i + 1)
	}
	return 0, i
}

// shortYear reads a two-digit year after a month, as accountants write it: «в январе 27»,
// «март 25 г.», «за декабрь 26?» — within ten years of today, and only where nothing makes it
// a day («в январе 27 числа», «27-го»): a year word, the end of the message or a punctuation
// mark follows it.
func (p *parser) shortYear(i int) (int, bool) {
	v, n := p.num(i)
	if n != 2 || i >= len(p.toks) || len(p.toks[i].parts) != 1 {
		return 0, false
	}
	y := p.today.Year()/100*100 + v
	if y < p.today.Year()-10 || y > p.today.Year()+10 {
		return 0, false
	}
	next := i + 1
	ok := next >= len(p.toks) || yearWords[p.word(next)] || p.punct(next) != "" && strings.Contains("?!,;:)", p.punct(next))
	return y, ok
}

// ordinal skips a suffix after a number: «1-го», «2-й», «3й». i is the token after the number.
func (p *parser) ordinal(i int) int {
	if i >= len(p.toks) || !p.adjacent(i-1) {
		return i
	}
	if p.punct(i) == "-" && p.adjacent(i) && ordSuffix[p.word(i+1)] {
		return i + 2
	}
	if ordSuffix[p.word(i)] {
		return i + 1
	}
	return i
}

// dot skips an abbreviation dot directly after token i-1.
func (p *parser) dot(i int) int {
	if p.punct(i) == "." && p.adjacent(i-1) {
		return i + 1
	}
	return i
}

// clamp ends a period that contains today at today.
func (p *parser) clamp(from, to time.Time) (time.Time, time.Time) {
	if !from.After(p.today) && to.After(p.today) {
		return from, p.today
	}
	return from, to
}

// errResult reports an invalid date over tokens up to end.
func errResult(end int, reason string) result {
	return result{end: end, err: &DateError{Reason: reason}}
}
