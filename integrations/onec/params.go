package onec

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Bound reference values besides a table index.
const (
	refAny     int32 = -1 // a nullable anchor given as null: no filter
	refNothing int32 = -2 // a reference no row can equal (null where one is required, another type, an unknown UUID)
)

// args are a template's parameters, checked and bound the way 1C would see them.
type args struct {
	asOf             int64 // records with Период < asOf count (Unix seconds of a zone-less time)
	from, to         int64 // inclusive bounds of Дата
	org, cp, ctr     int32 // indexes into the reference tables, or refAny / refNothing
	accCode, accMask string
	docType          string
}

var (
	isoDateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$`)
	uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// bind checks params against the template's parameters. Parameters the template does not use
// are ignored, as 1C ignores them.
func (d *Demo) bind(t *template, params map[string]any) (*args, error) {
	a := &args{from: math.MinInt64, to: math.MaxInt64, org: refAny, cp: refAny, ctr: refAny}
	for _, p := range t.params {
		v, ok := params[p.name]
		if !ok {
			return nil, queryErrorAt(t, p.name, "Параметр не задан (%s)", p.name)
		}
		switch p.kind {
		case kindDate:
			sec, bounded, err := bindDate(t, p, v)
			if err != nil {
				return nil, err
			}
			switch {
			case p.name == pAsOf.name:
				a.asOf = sec
			case p.name == pFrom.name && bounded:
				a.from = sec
			case p.name == pTo.name && bounded:
				a.to = sec
			}
		case kindRef:
			i, err := d.bindRef(t, p, v)
			if err != nil {
				return nil, err
			}
			switch p.refType {
			case TypeOrganization:
				a.org = i
			case TypeCounterparty:
				a.cp = i
			case TypeContract:
				a.ctr = i
			}
		case kindString:
			s, isString := v.(string)
			if !isString {
				return nil, queryErrorAt(t, p.name, "Несовместимые типы: параметр &%s (%s) сравнивается со строкой", p.name, typeName1C(v))
			}
			switch p.name {
			case pAccCode.name:
				a.accCode = s
			case pAccMask.name:
				a.accMask = s
			case pDocTypes.name:
				a.docType = s
			}
		}
	}
	return a, nil
}

// bindDate reads a date parameter. The toolkit turns only an exact YYYY-MM-DDTHH:MM:SS string
// into a Дата; anything else reaches 1C as a string or a number and cannot be compared with a
// date. bounded is false for a nullable date given as null.
func bindDate(t *template, p paramSpec, v any) (sec int64, bounded bool, err error) {
	s, isString := v.(string)
	switch {
	case v == nil && p.nullable:
		return 0, false, nil
	case !isString || !isoDateTime.MatchString(s):
		shown := typeName1C(v)
		if isString {
			shown = fmt.Sprintf("%q, Строка", s)
		}
		return 0, false, queryErrorAt(t, p.name, "Несовместимые типы: параметр &%s (%s) сравнивается с датой", p.name, shown)
	}
	tm, perr := time.Parse(dateTimeLayout, s)
	if perr != nil {
		return 0, false, queryErrorAt(t, p.name, "Неверное значение даты в параметре &%s: %q", p.name, s)
	}
	return tm.Unix(), true, nil
}

// bindRef reads a reference parameter into an index of its table. A reference of another type
// or to an object this base lacks is no error in 1C: it simply equals nothing.
func (d *Demo) bindRef(t *template, p paramSpec, v any) (int32, error) {
	if v == nil {
		if p.nullable {
			return refAny, nil
		}
		return refNothing, nil // Поле = НЕОПРЕДЕЛЕНО is never true
	}
	m, isMap := v.(map[string]any)
	if !isMap {
		return 0, queryErrorAt(t, p.name, "Несовместимые типы: параметр &%s (%s) сравнивается со ссылкой", p.name, typeName1C(v))
	}
	flag, _ := m["_objectRef"].(bool)
	uuid, _ := m["УникальныйИдентификатор"].(string)
	typ, _ := m["ТипОбъекта"].(string)
	switch {
	case !flag || !uuidPattern.MatchString(strings.TrimSpace(uuid)):
		return 0, queryErrorAt(t, p.name, "Параметр &%s: ожидалось описание ссылки {_objectRef, УникальныйИдентификатор, ТипОбъекта}", p.name)
	case !knownRefType(typ):
		return 0, queryErrorAt(t, p.name, "Параметр &%s: неизвестный тип объекта %q", p.name, typ)
	case typ != p.refType:
		return refNothing, nil
	}
	table := d.orgs
	switch p.refType {
	case TypeCounterparty:
		table = d.cps
	case TypeContract:
		table = d.ctrs
	}
	if i, ok := table.idx[normUUID(uuid)]; ok && i < table.known {
		return i, nil
	}
	return refNothing, nil
}

// knownRefType says whether this base has the metadata object typ refers to.
func knownRefType(typ string) bool {
	switch typ {
	case TypeOrganization, TypeCounterparty, TypeContract:
		return true
	}
	_, ok := documentSynonyms[strings.TrimPrefix(typ, TypeDocumentPrefix)]
	return ok && strings.HasPrefix(typ, TypeDocumentPrefix)
}

// queryErrorAt formats a 1C-style error pointing at the first use of &name in the template.
func queryErrorAt(t *template, name, format string, a ...any) *QueryError {
	line, col := 1, 1
	if i := strings.Index(t.text, "&"+name); i >= 0 {
		line, col = position(t.text, i)
	}
	return &QueryError{Message: fmt.Sprintf("{(%d, %d)}: ", line, col) + fmt.Sprintf(format, a...)}
}

// position converts a byte offset into a 1-based line and column (in characters).
func position(text string, offset int) (line, col int) {
	before := text[:offset]
	line = strings.Count(before, "\n") + 1
	col = utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return line, col
}

// typeName1C names the 1C type a JSON value becomes.
func typeName1C(v any) string {
	switch v.(type) {
	case nil:
		return "Неопределено"
	case string:
		return "Строка"
	case json.Number, float64, float32, int, int64, int32:
		return "Число"
	case bool:
		return "Булево"
	case []any:
		return "Массив"
	case map[string]any:
		return "Структура"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// like implements ПОДОБНО: % is any run of characters, _ any one character, [abc], [a-z] and
// [^abc] a character class; the comparison is case-sensitive, as for account codes.
func like(s, pattern string) bool {
	str, pat := []rune(s), []rune(pattern)
	// Iterative matching with backtracking to the last %.
	si, pi, starP, starS := 0, 0, -1, 0
	for si < len(str) {
		if pi < len(pat) {
			switch pat[pi] {
			case '%':
				starP, starS = pi, si
				pi++
				continue
			case '_':
				si, pi = si+1, pi+1
				continue
			case '[':
				if end, ok := classMatch(pat, pi, str[si]); end > 0 {
					if ok {
						si, pi = si+1, end
						continue
					}
				} else if str[si] == '[' { // an unclosed [ is a literal
					si, pi = si+1, pi+1
					continue
				}
			default:
				if pat[pi] == str[si] {
					si, pi = si+1, pi+1
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(pat) && pat[pi] == '%' {
		pi++
	}
	return pi == len(pat)
}

// classMatch matches r against the class starting at pat[start] ('['); end is the index after
// the closing ']' (0 when the class is not closed).
func classMatch(pat []rune, start int, r rune) (end int, ok bool) {
	i := start + 1
	negate := i < len(pat) && pat[i] == '^'
	if negate {
		i++
	}
	for ; i < len(pat) && pat[i] != ']'; i++ {
		if i+2 < len(pat) && pat[i+1] == '-' && pat[i+2] != ']' {
			if pat[i] <= r && r <= pat[i+2] {
				ok = true
			}
			i += 2
			continue
		}
		if pat[i] == r {
			ok = true
		}
	}
	if i >= len(pat) {
		return 0, false
	}
	return i + 1, ok != negate
}
