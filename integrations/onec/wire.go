package onec

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The values of a result row exactly as the MCP toolkit writes them (testdata/toolkit/README.md
// has the sources). The 1C side (ВыполнитьЗапрос → БезопасноеЗначениеДляПередачи →
// ЗаписатьJSON2 of the data processor's form module) writes:
//
//   - a Дата as Формат(Д, "ДФ=yyyy-MM-ddTHH:mm:ss; ДП=") + "Z": "2026-03-31T00:00:00Z", and the
//     empty date 01.01.0001 as "Z" alone. The Z is appended text, not a zone: the time is 1C's
//     local time;
//   - a query NULL as Строка(Null), the empty string "";
//   - an empty reference (and Неопределено) as JSON null; any other reference as an object
//     description {"_objectRef": true, "УникальныйИдентификатор", "ТипОбъекта", "Представление"};
//   - a Число as Формат(Ч, "ЧРД=.; ЧН=; ЧГ="): a point, no grouping, no trailing zeros
//     ("1000.5", "100", "0"); the proxy reads and rewrites it as a JSON number;
//   - a Булево as true / false, a Строка as a JSON string.

// WireNull is what a query NULL becomes on the wire: Строка(Null).
const WireNull = ""

// WireDate writes a 1C date (Unix seconds of a zone-less time) the toolkit's way; the zero
// (and anything before year 1) is the empty date "Z".
func WireDate(sec int64) string {
	t := time.Unix(sec, 0).UTC()
	if t.Year() < 1 || t.Equal(emptyDate) {
		return "Z"
	}
	return t.Format(dateTimeLayout) + "Z"
}

// emptyDate is 1C's empty date, 01.01.0001 00:00:00.
var emptyDate = time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)

// EmptyDateSec is the empty date in Unix seconds.
var EmptyDateSec = emptyDate.Unix()

// WireNumber writes an amount the toolkit's way: shortest decimal, no trailing zeros.
func WireNumber(k Kopecks) json.Number {
	s := k.Decimal()
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "" || s == "-" {
		s = "0"
	}
	return json.Number(s)
}

// DateOf reads a date of a result row: "2026-03-31T00:00:00Z" (the toolkit's form), or the
// zone-less "2026-03-31T00:00:00". The empty date ("Z", or 0001-01-01) and a NULL ("") are not
// dates: ok is false for them, as for anything unreadable.
func DateOf(v any) (t time.Time, ok bool) {
	s, isString := v.(string)
	if !isString {
		return time.Time{}, false
	}
	s = strings.TrimSuffix(s, "Z")
	t, err := time.Parse(dateTimeLayout, s)
	if err != nil || t.Equal(emptyDate) {
		return time.Time{}, false
	}
	return t, true
}

// AmountOf reads an amount of a result row exactly: a JSON number (json.Number), or NULL (the
// toolkit's "", or JSON null), which is zero. Anything else is an error: a float64 would have
// lost kopecks already, a string other than "" is not a number.
func AmountOf(v any) (Kopecks, error) {
	switch n := v.(type) {
	case json.Number:
		return ParseKopecks(n.String())
	case nil:
		return 0, nil
	case string:
		if n == WireNull {
			return 0, nil
		}
	}
	return 0, fmt.Errorf("amount %v (%T) is not a number", v, v)
}
