package postcheck

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/ru"
)

// Numbers returns the normalised numbers mentioned in text, each once, in the order of their
// first mention — what the invented-number rule compares. Markdown escapes are undone first.
//
// The normal forms:
//   - a number is its absolute decimal value, without thousands separators, with a point and
//     without trailing zeros of the fraction, multiplied out: «1 250 000,00 руб.», «1250000»,
//     «1,25 млн» and «1 250 тыс.» are all "1250000"; «90,50» is "90.5"; «−51 516,61» is
//     "51516.61" (the model may say «переплата 51 516,61» for a negative balance). Separators
//     are the space, U+00A0, U+202F, U+2009 and U+2007; «тыс», «млн», «млрд», «трлн» and their
//     full words multiply. A percent is its number: «16 %» is "16".
//   - a date is ISO: «31.03.2026», «31 марта 2026 г.» and «2026-03-31» are "2026-03-31"; a
//     day and month without a year, «31 марта», is "--03-31"; «с 1 по 31 марта» is two dates.
//     An impossible date keeps the ISO form of its numbers: «31.02.2026» is "2026-02-31".
//   - a time is "13:30" (seconds dropped).
//   - a document number or a code with digits is "№" and the code in upper case: «№ СВ00-000050»
//     and «СВ00-000050» are "№СВ00-000050", «№ 15» is "№15".
//
// Not numbers: footnote marks «[1]», list numbers at a line start («1.», «2)», «1.1.»),
// ordinals («3-й», «25-го», «1 квартал»), codes with at most two digits («6-НДФЛ», «1С»,
// «ТОРГ-12»), and URLs.
func Numbers(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range scan(unescape(text), true) {
		if !seen[t.norm] {
			seen[t.norm] = true
			out = append(out, t.norm)
		}
	}
	return out
}

// tokKind is what a token is.
type tokKind uint8

const (
	tNumber   tokKind = iota // "1250000", "90.5"
	tDate                    // "2026-03-31"
	tDayMonth                // "--03-31"
	tTime                    // "13:30"
	tCode                    // "№СВ00-000050"
)

// token is one number, date, time or code of a text.
type token struct {
	kind tokKind
	span
	raw  string // as written, spaces normalised: for details
	norm string // normal form (see Numbers)
	// alt is a second reading: «31.03» is the number 31.03 and also the day-month --03-31.
	alt string
}

// detail names the token in a violation: «число 92,15», «дата 30.03.2026».
func (t token) detail() string {
	switch t.kind {
	case tDate, tDayMonth:
		return "дата " + t.raw
	case tTime:
		return "время " + t.raw
	case tCode:
		return "номер " + strings.TrimSpace(strings.TrimPrefix(t.raw, "№"))
	}
	return "число " + t.raw
}

var (
	// listNumRe is a list number at a line start: «1. », «2) », «1.1. », «**3.** ».
	listNumRe = regexp.MustCompile(`^(?:\d{1,3}[.)]|\d{1,2}(?:\.\d{1,2})+\.)[*_]*[ \t\x{a0}]`)
	// footnoteRe is a footnote mark: «[1]», «[1, 2]», «[1–3]».
	footnoteRe = regexp.MustCompile(`^\[\d{1,3}(?:[ \t]*[,;–—-][ \t]*\d{1,3})*\]`)
	isoRe      = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})`)
	dmyRe      = regexp.MustCompile(`^(\d{1,2})\.(\d{1,2})\.(\d{4})`)
	// textDateRe is «31 марта», «1–31 марта», «с 1 по 31 марта» (from the first number).
	textDateRe  = regexp.MustCompile(`(?i)^(\d{1,2})(?:[ \x{a0}\x{202f}]*(?:–|—|-|по|и)[ \x{a0}\x{202f}]*(\d{1,2}))?[ \x{a0}\x{202f}]+(` + strings.Join(genitives[1:], "|") + `)`)
	yearAfterRe = regexp.MustCompile(`^[ \x{a0}\x{202f}]+(\d{4})`)
	timeRe      = regexp.MustCompile(`^(\d{1,2}):(\d{2})(?::(\d{2}))?`)
	// runRe is a word or code: letters and digits joined by «-», «/», «_».
	runRe = regexp.MustCompile(`^[\p{L}\p{N}]+(?:[-/_][\p{L}\p{N}]+)*`)
	// docRunRe is a document number after «№»; a dot may join its parts too («№ 12.3-П»).
	docRunRe = regexp.MustCompile(`^[\p{L}\p{N}]+(?:[-/._][\p{L}\p{N}]+)*`)
	// codeTailRe continues a code that began with digits: «6-НДФЛ», «14d1b307-…».
	codeTailRe = regexp.MustCompile(`^(?:[-/_]?[\p{L}\p{N}]+)+`)
	urlStartRe = regexp.MustCompile(`(?i)^(?:https?://|www\.)[^\s<>"«»)\]]+`)
)

// genitives are the months as a date names them, «31 марта»; index 0 is no month.
var genitives = func() (g [13]string) {
	for m := time.January; m <= time.December; m++ {
		g[m] = ru.MonthGenitive(m)
	}
	return g
}()

// months maps the genitive of a month to it.
var months = func() map[string]time.Month {
	w := map[string]time.Month{}
	for m := time.January; m <= time.December; m++ {
		w[genitives[m]] = m
	}
	return w
}()

// multipliers are the powers of ten of «тыс», «млн», «млрд», «трлн» and their words.
var multipliers = map[string]int{
	"тыс": 3, "тысяча": 3, "тысячи": 3, "тысяч": 3, "тысячу": 3, "тысячами": 3,
	"млн": 6, "миллион": 6, "миллиона": 6, "миллионов": 6, "миллионами": 6,
	"млрд": 9, "миллиард": 9, "миллиарда": 9, "миллиардов": 9, "миллиардами": 9,
	"трлн": 12, "триллион": 12, "триллиона": 12, "триллионов": 12,
}

// units may be written right after a number without making it a code: «2026г», «100руб».
var units = map[string]bool{
	"г": true, "гг": true, "р": true, "руб": true, "коп": true, "шт": true, "кг": true, "км": true,
	"м": true, "т": true, "мес": true, "дн": true, "ч": true, "мин": true, "сек": true,
	"usd": true, "eur": true, "cny": true, "rub": true,
}

// ordinalEndings follow a hyphen in ordinals: «3-й», «25-го», «5-ти».
var ordinalEndings = map[string]bool{
	"й": true, "я": true, "е": true, "го": true, "му": true, "м": true, "х": true, "ми": true,
	"ти": true, "ый": true, "ий": true, "ой": true, "ая": true, "яя": true, "ое": true, "ее": true,
	"ые": true, "ие": true, "ых": true, "их": true, "ым": true, "им": true, "ом": true, "ем": true,
	"ого": true, "его": true, "ому": true, "ему": true, "ую": true, "юю": true,
}

// scan finds the numbers, dates, times and codes of s (already unescaped). strict is for the
// answer: footnote marks, list numbers, ordinals and codes with at most two digits are left
// out. The facts are scanned leniently: there every number counts, so an answer may say
// «25 числа» where the facts say «до 25-го числа».
func scan(s string, strict bool) []token {
	var toks []token
	lineStart := true
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			lineStart = true
			i += w
			continue
		case strict && r == '[':
			if m := footnoteRe.FindStringIndex(s[i:]); m != nil {
				i += m[1]
				lineStart = false
				continue
			}
		case r == '№':
			j := skipSpaces(s, i+w)
			if m := docRunRe.FindStringIndex(s[j:]); m != nil {
				run := s[j : j+m[1]]
				toks = append(toks, token{kind: tCode, span: span{i, j + m[1]}, raw: "№ " + run, norm: "№" + strings.ToUpper(run)})
				if !strict { // the facts' «№ 15» also allows the number 15
					for _, t := range scan(run, false) {
						t.start, t.end = t.start+j, t.end+j
						toks = append(toks, t)
					}
				}
				i = j + m[1]
				lineStart = false
				continue
			}
		case isDigit(r):
			ts, next := scanNumeric(s, i, strict, lineStart)
			toks = append(toks, ts...)
			i = next
			lineStart = false
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if m := urlStartRe.FindStringIndex(s[i:]); m != nil {
				i += m[1]
				lineStart = false
				continue
			}
			n := w
			if m := runRe.FindStringIndex(s[i:]); m != nil {
				n = m[1]
			}
			run := s[i : i+n]
			if d := asciiDigits(run); d > 0 && (!strict || d > 2) {
				toks = append(toks, token{kind: tCode, span: span{i, i + n}, raw: run, norm: "№" + strings.ToUpper(run)})
			}
			i += n
			lineStart = false
			continue
		}
		if !unicode.IsSpace(r) && !strings.ContainsRune("*_#>-+•", r) {
			lineStart = false
		}
		i += w
	}
	return toks
}

// scanNumeric reads what starts with the digit at s[i]: a list number (skipped), a date, a
// time, a number, an ordinal or a code. It returns the tokens and where reading stopped.
func scanNumeric(s string, i int, strict, lineStart bool) ([]token, int) {
	rest := s[i:]
	if strict && lineStart {
		if m := listNumRe.FindStringIndex(rest); m != nil {
			return nil, i + m[1]
		}
	}
	if m := isoRe.FindStringSubmatchIndex(rest); m != nil && !digitAt(s, i+m[1]) {
		y, mo, d := atoi(rest[m[2]:m[3]]), atoi(rest[m[4]:m[5]]), atoi(rest[m[6]:m[7]])
		return []token{dateToken(span{i, i + m[1]}, rest[:m[1]], y, mo, d, true)}, i + m[1]
	}
	if m := dmyRe.FindStringSubmatchIndex(rest); m != nil && !digitAt(s, i+m[1]) {
		d, mo, y := atoi(rest[m[2]:m[3]]), atoi(rest[m[4]:m[5]]), atoi(rest[m[6]:m[7]])
		return []token{dateToken(span{i, i + m[1]}, rest[:m[1]], y, mo, d, true)}, i + m[1]
	}
	if m := textDateRe.FindStringSubmatchIndex(rest); m != nil && !letterAt(s, i+m[1]) && validTextDate(rest, m) {
		end := i + m[1]
		year := 0
		if ym := yearAfterRe.FindStringSubmatchIndex(s[end:]); ym != nil && !digitAt(s, end+ym[1]) {
			if y := atoi(s[end+ym[2] : end+ym[3]]); y >= 1900 && y <= 2100 {
				year = y
				end += ym[1]
			}
		}
		mo := int(months[strings.ToLower(rest[m[6]:m[7]])])
		days := []int{atoi(rest[m[2]:m[3]])}
		if m[4] >= 0 {
			days = append(days, atoi(rest[m[4]:m[5]]))
		}
		var toks []token
		for _, d := range days {
			toks = append(toks, dateToken(span{i, end}, spaces(s[i:end]), year, mo, d, year != 0))
		}
		return toks, end
	}
	if m := timeRe.FindStringSubmatchIndex(rest); m != nil && !digitAt(s, i+m[1]) {
		if h, mi := atoi(rest[m[2]:m[3]]), atoi(rest[m[4]:m[5]]); h < 24 && mi < 60 {
			return []token{{kind: tTime, span: span{i, i + m[1]}, raw: rest[:m[1]], norm: fmt.Sprintf("%02d:%02d", h, mi)}}, i + m[1]
		}
	}
	return scanNumber(s, i, strict)
}

// scanNumber reads a number at s[i]: digits, thousands groups, a decimal part, a multiplier
// and a percent sign; or an ordinal or a code that starts with digits.
func scanNumber(s string, i int, strict bool) ([]token, int) {
	j := i
	for digitAt(s, j) {
		j++
	}
	intDigits := s[i:j]
	grouped := false
	if j-i <= 3 {
		for {
			r, w := utf8.DecodeRuneInString(s[j:])
			k := j + w
			if !isGroupSep(r) || !digitAt(s, k) || !digitAt(s, k+1) || !digitAt(s, k+2) || digitAt(s, k+3) {
				break
			}
			intDigits += s[k : k+3]
			j = k + 3
			grouped = true
		}
	}
	frac, point := "", byte(0)
	if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && digitAt(s, j+1) {
		k := j + 1
		for digitAt(s, k) {
			k++
		}
		if k+1 < len(s) && s[k] == s[j] && digitAt(s, k+1) {
			// «1.2.3», «62.01.1»: a section or sub-account number, a code.
			return codeToken(s, i, strict)
		}
		point, frac, j = s[j], s[j+1:k], k
	}

	exp := 0
	if r, _ := utf8.DecodeRuneInString(s[j:]); j < len(s) && unicode.IsLetter(r) {
		k := lettersEnd(s, j)
		suf := strings.ToLower(s[j:k])
		switch {
		case alnumAt(s, k) || k+1 < len(s) && strings.IndexByte("-/_", s[k]) >= 0 && alnumAt(s, k+1):
			return codeToken(s, i, strict)
		case multipliers[suf] > 0:
			exp, j = multipliers[suf], k
		case units[suf]:
			j = k
		default:
			return codeToken(s, i, strict)
		}
	} else if j < len(s) && s[j] == '-' && letterAt(s, j+1) {
		k := lettersEnd(s, j+1)
		if ordinalEndings[strings.ToLower(s[j+1:k])] && !alnumAt(s, k) && !(k < len(s) && s[k] == '-') {
			if strict {
				return nil, k
			}
			return []token{{kind: tNumber, span: span{i, k}, raw: s[i:k], norm: decimal(intDigits, frac, 0)}}, k
		}
		return codeToken(s, i, strict)
	}
	if exp == 0 {
		k := skipSpaces(s, j)
		e := lettersEnd(s, k)
		if m := multipliers[strings.ToLower(s[k:e])]; m > 0 && e > k {
			exp, j = m, e
		}
	}
	if k := skipSpaces(s, j); k < len(s) && s[k] == '%' {
		j = k + 1
	}
	if strict && exp == 0 && frac == "" {
		k := skipSpaces(s, j)
		next := strings.ToLower(s[k:lettersEnd(s, k)])
		if strings.HasPrefix(next, "квартал") || strings.HasPrefix(next, "полугод") {
			return nil, j // «1 квартал»: an ordinal
		}
	}
	t := token{kind: tNumber, span: span{i, j}, raw: spaces(s[i:j]), norm: decimal(intDigits, frac, exp)}
	if !grouped && exp == 0 && point == '.' && len(intDigits) <= 2 && len(frac) == 2 {
		if d, mo := atoi(intDigits), atoi(frac); validDate(2000, mo, d) {
			t.alt = fmt.Sprintf("--%02d-%02d", mo, d)
		}
	}
	return []token{t}, j
}

// codeToken reads a code that starts with digits at s[i] («6-НДФЛ», «1.2.3», «100x»). In the
// answer, codes with at most two digits are names of forms and the like, not numbers.
func codeToken(s string, i int, strict bool) ([]token, int) {
	j := i
	for {
		if m := codeTailRe.FindStringIndex(s[j:]); m != nil && m[1] > 0 {
			j += m[1]
		}
		if j+1 < len(s) && (s[j] == '.' || s[j] == ',') && alnumAt(s, j+1) {
			j++
			continue
		}
		break
	}
	if j == i { // cannot happen: s[i] is a digit
		j = i + 1
	}
	run := s[i:j]
	if strict && asciiDigits(run) <= 2 {
		return nil, j
	}
	return []token{{kind: tCode, span: span{i, j}, raw: run, norm: "№" + strings.ToUpper(run)}}, j
}

// dateToken makes a date token, or a day-month one when the text has no year. An impossible
// date keeps the ISO form of its numbers («31.02.2026» is "2026-02-31"), so only the same
// impossible date in the facts matches it.
func dateToken(sp span, raw string, y, mo, d int, hasYear bool) token {
	if !hasYear {
		return token{kind: tDayMonth, span: sp, raw: raw, norm: fmt.Sprintf("--%02d-%02d", mo, d)}
	}
	return token{kind: tDate, span: sp, raw: raw, norm: fmt.Sprintf("%04d-%02d-%02d", y, mo, d)}
}

// validTextDate reports whether the days of a textDateRe match exist in its month (in a leap
// year): «31 марта», not «99 марта», which is read as numbers.
func validTextDate(rest string, m []int) bool {
	mo := int(months[strings.ToLower(rest[m[6]:m[7]])])
	if !validDate(2000, mo, atoi(rest[m[2]:m[3]])) {
		return false
	}
	return m[4] < 0 || validDate(2000, mo, atoi(rest[m[4]:m[5]]))
}

func validDate(y, mo, d int) bool {
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return false
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	return t.Day() == d && int(t.Month()) == mo
}

// decimal is the normal form of a number with integer digits intd, fraction digits frac and
// a multiplier of 10^exp, computed on the digits, exactly.
func decimal(intd, frac string, exp int) string {
	digits := intd + frac
	point := len(intd) + exp
	if len(digits) < point {
		digits += strings.Repeat("0", point-len(digits))
	}
	ip := strings.TrimLeft(digits[:point], "0")
	if ip == "" {
		ip = "0"
	}
	if fp := strings.TrimRight(digits[point:], "0"); fp != "" {
		return ip + "." + fp
	}
	return ip
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

func digitAt(s string, i int) bool { return i >= 0 && i < len(s) && s[i] >= '0' && s[i] <= '9' }

func letterAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r)
}

func alnumAt(s string, i int) bool {
	if i >= len(s) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// lettersEnd returns the end of the run of letters starting at s[i].
func lettersEnd(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsLetter(r) {
			break
		}
		i += w
	}
	return i
}

// isGroupSep reports the thousands separators: space, no-break, narrow no-break, thin and
// figure spaces.
func isGroupSep(r rune) bool {
	return r == ' ' || r == '\u00a0' || r == '\u202f' || r == '\u2009' || r == '\u2007'
}

// skipSpaces returns the index of the first rune at or after i that is not a space or tab.
func skipSpaces(s string, i int) int {
	for i < len(s) {
		r, w := utf8.DecodeRuneInString(s[i:])
		if !isGroupSep(r) && r != '\t' {
			break
		}
		i += w
	}
	return i
}

// spaces turns the special spaces of s into plain ones, for details.
func spaces(s string) string {
	return strings.Map(func(r rune) rune {
		if isGroupSep(r) {
			return ' '
		}
		return r
	}, s)
}

func asciiDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

// atoi parses a short run of ASCII digits (at most 4 here).
func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
