package onec

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// refNothing is a bound reference no row can equal (an unknown UUID).
const refNothing int32 = -2

// qvalue is a parameter's value as 1C holds it.
type qvalue struct {
	null bool
	kind paramKind
	date int64  // kindDate: Unix seconds of a zone-less time
	str  string // kindString
	ref  qref   // kindRef
	num  int64  // kindNumber: a whole number
}

// qref is a reference parameter: its type and its index in the demo's table of that type
// (refNothing for an object this base lacks).
type qref struct {
	typ string
	idx int32
}

// foldName folds a 1C name for comparison: names are case-insensitive, Ё is Е.
func foldName(s string) string { return strings.ReplaceAll(strings.ToUpper(s), "Ё", "Е") }

var (
	isoDateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$`)
	uuidPattern = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// bind converts the parameters a query uses into 1C values, as the toolkit hands them over: an
// exact YYYY-MM-DDTHH:MM:SS string becomes a Дата, an object description a reference, JSON null
// Null. names are the parameters the text uses; one not passed is 1C's error. A parameter the
// text does not use is ignored, as 1C ignores it.
func (d *Demo) bind(t *template, names []string, params map[string]any) (map[string]qvalue, error) {
	out := make(map[string]qvalue, len(names))
	for _, name := range names {
		v, ok := params[name]
		if !ok {
			for k, kv := range params { // 1C's names are case-insensitive
				if foldName(k) == foldName(name) {
					v, ok = kv, true
				}
			}
		}
		if !ok {
			return nil, queryErrorAt(t, name, "Параметр не задан (%s)", name)
		}
		spec, known := t.param(name)
		if !known {
			spec = paramSpec{name: name, kind: guessKind(v), nullable: true}
		}
		q, err := d.bindValue(t, spec, v)
		if err != nil {
			return nil, err
		}
		out[foldName(name)] = q
	}
	return out, nil
}

// guessKind is the kind of a parameter the template does not declare.
func guessKind(v any) paramKind {
	switch x := v.(type) {
	case map[string]any:
		return kindRef
	case string:
		if isoDateTime.MatchString(x) {
			return kindDate
		}
	}
	return kindString
}

func (d *Demo) bindValue(t *template, p paramSpec, v any) (qvalue, error) {
	switch p.kind {
	case kindDate:
		sec, bounded, err := bindDate(t, p, v)
		if err != nil {
			return qvalue{}, err
		}
		return qvalue{null: !bounded, kind: kindDate, date: sec}, nil
	case kindNumber:
		n, ok := wholeNumber(v)
		if !ok {
			return qvalue{}, queryErrorAt(t, p.name, "Несовместимые типы: параметр &%s (%s) сравнивается с числом", p.name, typeName1C(v))
		}
		return qvalue{kind: kindNumber, num: n}, nil
	case kindRef:
		if v == nil {
			return qvalue{null: true, kind: kindRef}, nil
		}
		r, err := d.bindRef(t, p, v)
		if err != nil {
			return qvalue{}, err
		}
		return qvalue{kind: kindRef, ref: r}, nil
	default:
		s, isString := v.(string)
		if !isString {
			return qvalue{}, queryErrorAt(t, p.name, "Несовместимые типы: параметр &%s (%s) сравнивается со строкой", p.name, typeName1C(v))
		}
		return qvalue{kind: kindString, str: s}, nil
	}
}

// wholeNumber reads a number parameter as a JSON decoder or a Go caller gives it: a whole
// number only (the templates' numbers are days).
func wholeNumber(v any) (int64, bool) {
	switch x := v.(type) {
	case int:
		return int64(x), true
	case int64:
		return x, true
	case float64:
		if x == float64(int64(x)) {
			return int64(x), true
		}
	case json.Number:
		n, err := x.Int64()
		return n, err == nil
	}
	return 0, false
}

// bindDate reads a date parameter. The toolkit turns only an exact YYYY-MM-DDTHH:MM:SS string
// into a Дата; anything else reaches 1C as a string or a number and cannot be compared with a
// date. bounded is false for a nullable date given as null (1C's Null). A required date (a
// virtual table's period) given as null is refused: finbot never sends one.
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

// bindRef reads an object description into a reference. A reference to an object this base
// lacks is no error in 1C: it simply equals nothing.
func (d *Demo) bindRef(t *template, p paramSpec, v any) (qref, error) {
	m, isMap := v.(map[string]any)
	if !isMap {
		return qref{}, queryErrorAt(t, p.name, "Несовместимые типы: параметр &%s (%s) сравнивается со ссылкой", p.name, typeName1C(v))
	}
	flag, _ := m["_objectRef"].(bool)
	uuid, _ := m["УникальныйИдентификатор"].(string)
	typ, _ := m["ТипОбъекта"].(string)
	switch {
	case !flag || !uuidPattern.MatchString(strings.TrimSpace(uuid)):
		return qref{}, queryErrorAt(t, p.name, "Параметр &%s: ожидалось описание ссылки {_objectRef, УникальныйИдентификатор, ТипОбъекта}", p.name)
	case !knownRefType(typ):
		return qref{}, queryErrorAt(t, p.name, "Параметр &%s: неизвестный тип объекта %q", p.name, typ)
	}
	var table *refTable
	switch typ {
	case TypeOrganization:
		table = d.orgs
	case TypeCounterparty:
		table = d.cps
	case TypeContract:
		table = d.ctrs
	case TypeItem:
		table = d.items
	default:
		return qref{typ: typ, idx: refNothing}, nil
	}
	if i, ok := table.idx[normUUID(uuid)]; ok && i < table.known {
		return qref{typ: typ, idx: i}, nil
	}
	return qref{typ: typ, idx: refNothing}, nil
}

// knownRefType says whether this base has the metadata object typ refers to.
func knownRefType(typ string) bool {
	switch typ {
	case TypeOrganization, TypeCounterparty, TypeContract, TypeItem:
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

// like implements ПОДОБНО without СПЕЦСИМВОЛ.
func like(s, pattern string) bool { return likeEscape(s, pattern, 0) }

// likeEscape implements ПОДОБНО: % is any run of characters, _ any one character, [abc], [a-z]
// and [^abc] a character class; the character after esc (СПЕЦСИМВОЛ; 0 for none) stands for
// itself. The comparison is case-sensitive, as for account codes.
func likeEscape(s, pattern string, esc rune) bool {
	str, pat := []rune(s), []rune(pattern)
	// Iterative matching with backtracking to the last %.
	si, pi, starP, starS := 0, 0, -1, 0
	for si < len(str) {
		if pi < len(pat) {
			switch {
			case esc != 0 && pat[pi] == esc && pi+1 < len(pat):
				if pat[pi+1] == str[si] {
					si, pi = si+1, pi+2
					continue
				}
			case pat[pi] == '%':
				starP, starS = pi, si
				pi++
				continue
			case pat[pi] == '_':
				si, pi = si+1, pi+1
				continue
			case pat[pi] == '[':
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
