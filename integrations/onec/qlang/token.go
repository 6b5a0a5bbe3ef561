package qlang

import (
	"fmt"
	"strings"
)

// Pos is a position in the query text: a 1-based line and column (counted in runes) and the
// byte offset.
type Pos struct {
	Offset, Line, Col int
}

// String formats the position as 1C does in its syntax errors: "(line, col)".
func (p Pos) String() string { return fmt.Sprintf("(%d, %d)", p.Line, p.Col) }

// TokenKind classifies a token.
type TokenKind int

// Token kinds. A keyword is a Word whose Keyword is not KwNone.
const (
	EOF    TokenKind = iota
	Word             // a name or keyword: letters (Cyrillic or Latin), digits, '_'
	Param            // &Name; Text is the name without '&'
	Number           // 123 or 123.45
	String           // "…" with "" for a quote; Text is the unquoted value
	Punct            // ( ) , . ; * + - / = <> < > <= >=
)

// Token is one lexical element of a query.
type Token struct {
	Kind    TokenKind
	Text    string
	Keyword Keyword // for a Word: the reserved word it spells, or KwNone
	Pos     Pos
}

// Keyword is a reserved word of the query language, whichever language it was written in.
type Keyword int

// Reserved words. Each has a Russian and an English spelling (see keywords).
const (
	KwNone Keyword = iota
	KwSelect
	KwFrom
	KwWhere
	KwAs
	KwUnion
	KwAll
	KwGroup
	KwBy // ПО: also ON in Russian
	KwOn
	KwHaving
	KwOrder
	KwDesc
	KwAsc
	KwTop
	KwDistinct
	KwAllowed
	KwLeft
	KwRight
	KwInner
	KwFull
	KwOuter
	KwJoin
	KwCase
	KwWhen
	KwThen
	KwElse
	KwEnd
	KwAnd
	KwOr
	KwNot
	KwIn
	KwHierarchy
	KwLike
	KwEscape
	KwBetween
	KwIs
	KwNull
	KwRefs
	KwValue
	KwType
	KwCast
	KwUndefined
	KwTrue
	KwFalse
	KwInto
	KwDrop
	KwIndex
	KwFor
	KwUpdate
	KwTotals
	KwAutoorder
	KwOverall
	KwOnly
	KwPeriods
)

// keywords maps the upper-case spelling of every reserved word to its Keyword. In Russian ПО
// is both BY and ON; the parser takes either where one is expected.
var keywords = map[string]Keyword{
	"ВЫБРАТЬ": KwSelect, "SELECT": KwSelect,
	"ИЗ": KwFrom, "FROM": KwFrom,
	"ГДЕ": KwWhere, "WHERE": KwWhere,
	"КАК": KwAs, "AS": KwAs,
	"ОБЪЕДИНИТЬ": KwUnion, "UNION": KwUnion,
	"ВСЕ": KwAll, "ALL": KwAll,
	"СГРУППИРОВАТЬ": KwGroup, "GROUP": KwGroup,
	"ПО": KwBy, "BY": KwBy, "ON": KwOn,
	"ИМЕЮЩИЕ": KwHaving, "HAVING": KwHaving,
	"УПОРЯДОЧИТЬ": KwOrder, "ORDER": KwOrder,
	"УБЫВ": KwDesc, "DESC": KwDesc,
	"ВОЗР": KwAsc, "ASC": KwAsc,
	"ПЕРВЫЕ": KwTop, "TOP": KwTop,
	"РАЗЛИЧНЫЕ": KwDistinct, "DISTINCT": KwDistinct,
	"РАЗРЕШЕННЫЕ": KwAllowed, "ALLOWED": KwAllowed,
	"ЛЕВОЕ": KwLeft, "LEFT": KwLeft,
	"ПРАВОЕ": KwRight, "RIGHT": KwRight,
	"ВНУТРЕННЕЕ": KwInner, "INNER": KwInner,
	"ПОЛНОЕ": KwFull, "FULL": KwFull,
	"ВНЕШНЕЕ": KwOuter, "OUTER": KwOuter,
	"СОЕДИНЕНИЕ": KwJoin, "JOIN": KwJoin,
	"ВЫБОР": KwCase, "CASE": KwCase,
	"КОГДА": KwWhen, "WHEN": KwWhen,
	"ТОГДА": KwThen, "THEN": KwThen,
	"ИНАЧЕ": KwElse, "ELSE": KwElse,
	"КОНЕЦ": KwEnd, "END": KwEnd,
	"И": KwAnd, "AND": KwAnd,
	"ИЛИ": KwOr, "OR": KwOr,
	"НЕ": KwNot, "NOT": KwNot,
	"В": KwIn, "IN": KwIn,
	"ИЕРАРХИИ": KwHierarchy, "ИЕРАРХИЯ": KwHierarchy, "HIERARCHY": KwHierarchy,
	"ПОДОБНО": KwLike, "LIKE": KwLike,
	"СПЕЦСИМВОЛ": KwEscape, "ESCAPE": KwEscape,
	"МЕЖДУ": KwBetween, "BETWEEN": KwBetween,
	"ЕСТЬ": KwIs, "IS": KwIs,
	"NULL":   KwNull,
	"ССЫЛКА": KwRefs, "REFS": KwRefs,
	"ЗНАЧЕНИЕ": KwValue, "VALUE": KwValue,
	"ТИП": KwType, "TYPE": KwType,
	"ВЫРАЗИТЬ": KwCast, "CAST": KwCast,
	"НЕОПРЕДЕЛЕНО": KwUndefined, "UNDEFINED": KwUndefined,
	"ИСТИНА": KwTrue, "TRUE": KwTrue,
	"ЛОЖЬ": KwFalse, "FALSE": KwFalse,
	"ПОМЕСТИТЬ": KwInto, "INTO": KwInto,
	"УНИЧТОЖИТЬ": KwDrop, "DROP": KwDrop,
	"ИНДЕКСИРОВАТЬ": KwIndex, "INDEX": KwIndex,
	"ДЛЯ": KwFor, "FOR": KwFor,
	"ИЗМЕНЕНИЯ": KwUpdate, "UPDATE": KwUpdate,
	"ИТОГИ": KwTotals, "TOTALS": KwTotals,
	"АВТОУПОРЯДОЧИВАНИЕ": KwAutoorder, "AUTOORDER": KwAutoorder,
	"ОБЩИЕ": KwOverall, "OVERALL": KwOverall,
	"ТОЛЬКО": KwOnly, "ONLY": KwOnly,
	"ПЕРИОДАМИ": KwPeriods, "PERIODS": KwPeriods,
}

// lookupKeyword returns the reserved word a name spells, case-insensitively (Ё reads as Е).
func lookupKeyword(word string) Keyword {
	return keywords[fold(word)]
}

// fold upper-cases a name for comparison, as the platform compares names.
func fold(s string) string {
	return strings.ReplaceAll(strings.ToUpper(s), "Ё", "Е")
}

// EqualNames reports whether two names are the same to 1C: case-insensitively, Ё as Е.
func EqualNames(a, b string) bool { return a == b || fold(a) == fold(b) }

// String describes the token for an error message.
func (t Token) String() string {
	switch t.Kind {
	case EOF:
		return "end of query"
	case Param:
		return "&" + t.Text
	case String:
		return `"` + strings.ReplaceAll(t.Text, `"`, `""`) + `"`
	default:
		return fmt.Sprintf("%q", t.Text)
	}
}
