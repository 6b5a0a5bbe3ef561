package onec

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/ru"
)

// Quantity is an exact quantity in thousandths of a unit. BP 3.0 keeps the accounting
// register's resource Количество as Число(15, 3) (kassya20/buh, AccountingRegisters/
// Хозрасчетный.xml: Digits 15, FractionDigits 3), so «15,3 кг» is 15300 and «0,125 т» 125:
// quantities, like money, never go through floating point.
type Quantity int64

// QuantityScale is the thousandths in a unit.
const QuantityScale = 1000

// ParseQuantity reads a decimal quantity such as "15.3", "-2" or "0.125" exactly; more than
// three decimals other than trailing zeros is an error (1C keeps three).
func ParseQuantity(s string) (Quantity, error) {
	v, err := parseFixed(s, 3, "quantity", "has more than three decimals")
	return Quantity(v), err
}

// Units is a whole number of units as a Quantity.
func Units(n int64) Quantity { return Quantity(n * QuantityScale) }

// Decimal writes the quantity as 1C's Формат(Ч, "ЧРД=.; ЧН=; ЧГ=") does: a point, no
// grouping, no trailing zeros ("15.3", "-2", "0").
func (q Quantity) Decimal() string {
	sign := ""
	v := int64(q)
	if v < 0 {
		sign, v = "-", -v
	}
	s := fmt.Sprintf("%s%d.%03d", sign, v/QuantityScale, v%QuantityScale)
	s = strings.TrimRight(s, "0")
	return strings.TrimSuffix(s, ".")
}

// String writes the quantity the Russian way: a decimal comma, no-break spaces between
// thousands, a minus sign «−», no trailing zeros («1 200», «15,3», «−0,125»).
func (q Quantity) String() string { return ru.Decimal(q.Decimal()) }

// UnmarshalJSON reads a JSON number (or a numeric string) exactly.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" {
		*q = 0
		return nil
	}
	v, err := ParseQuantity(s)
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// MarshalJSON writes the quantity as a JSON number without trailing zeros.
func (q Quantity) MarshalJSON() ([]byte, error) { return []byte(q.Decimal()), nil }

// WireQuantity writes a quantity the toolkit's way: shortest decimal, no trailing zeros.
func WireQuantity(q Quantity) json.Number { return json.Number(q.Decimal()) }

// quantity reads a quantity of a result row exactly, as amount reads money: a NULL ("" or JSON
// null) is zero and null reports it, so that a row of an account without quantity accounting
// (NULL) is told from a quantity of 0.
func quantity(v any) (q Quantity, null, ok bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		if x == WireNull {
			return 0, true, true
		}
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return Units(int64(x)), false, true
	case nil:
		return 0, true, true
	default:
		return 0, false, false
	}
	q, err := ParseQuantity(s)
	return q, false, err == nil
}
