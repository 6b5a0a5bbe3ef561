package cbr

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// envelope is a SOAP 1.1 or 1.2 response envelope whose body holds either a fault or
// <Op>Response/<Op>Result, the latter decoded into R. Elements are matched by local name
// only, because the service mixes prefixes, default namespaces and xmlns="" freely.
type envelope[R any] struct {
	XMLName xml.Name `xml:"Envelope"`
	Body    struct {
		Fault    *soapFault `xml:"Fault"`
		Response *struct {
			XMLName xml.Name
			Result  *R `xml:",any"`
		} `xml:",any"`
	} `xml:"Body"`
}

// soapFault holds both fault shapes; only one set of fields is filled.
type soapFault struct {
	Code    string   `xml:"faultcode"`   // SOAP 1.1
	String  string   `xml:"faultstring"` // SOAP 1.1
	Code12  string   `xml:"Code>Value"`  // SOAP 1.2
	Reasons []string `xml:"Reason>Text"` // SOAP 1.2, one per language
}

func (f *soapFault) toError(status int) *FaultError {
	e := &FaultError{HTTPStatus: status, Code: strings.TrimSpace(f.Code), Message: strings.TrimSpace(f.String)}
	if e.Code == "" {
		e.Code = strings.TrimSpace(f.Code12)
	}
	if e.Message == "" && len(f.Reasons) > 0 {
		e.Message = strings.TrimSpace(f.Reasons[0])
	}
	return e
}

// decodeResult decodes body into the result of op, or returns the fault it carries.
func decodeResult[R any](body []byte, op string, status int) (*R, error) {
	var env envelope[R]
	if err := decodeXML(body, &env); err != nil {
		return nil, err
	}
	if f := env.Body.Fault; f != nil {
		return nil, f.toError(status)
	}
	resp := env.Body.Response
	if resp == nil || resp.XMLName.Local != op+"Response" {
		return nil, fmt.Errorf("%w: no %sResponse in the SOAP body", ErrBadResponse, op)
	}
	if resp.Result == nil {
		return nil, fmt.Errorf("%w: no %sResult in %sResponse", ErrBadResponse, op, op)
	}
	return resp.Result, nil
}

// parseFault returns the SOAP fault in body, or nil when body holds none.
func parseFault(body []byte, status int) *FaultError {
	var env envelope[struct{}]
	if decodeXML(body, &env) != nil || env.Body.Fault == nil {
		return nil
	}
	return env.Body.Fault.toError(status)
}

// decodeXML decodes the first element of body into v.
func decodeXML(body []byte, v any) error {
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(body, utf8BOM)))
	d.CharsetReader = charsetReader
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("%w: decode XML: %v", ErrBadResponse, err)
	}
	return nil
}

// parseDecimal reads a plain decimal number: an optional sign, digits, and at most one
// separator. SOAP uses ".", but "," (as in XML_daily.asp) is accepted too. Exponents are
// refused: "1e999999999" would make later arithmetic allocate without bound.
func parseDecimal(s string) (decimal.Decimal, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 40 {
		return decimal.Decimal{}, fmt.Errorf("not a decimal number: %q", s)
	}
	b := []byte(s)
	digits, seps := 0, 0
	for i, ch := range b {
		switch {
		case ch >= '0' && ch <= '9':
			digits++
		case (ch == '-' || ch == '+') && i == 0:
		case ch == '.' || ch == ',':
			b[i] = '.'
			seps++
		default:
			return decimal.Decimal{}, fmt.Errorf("not a decimal number: %q", s)
		}
	}
	if digits == 0 || seps > 1 {
		return decimal.Decimal{}, fmt.Errorf("not a decimal number: %q", s)
	}
	return decimal.NewFromString(string(b))
}

// parseCount reads a whole positive number such as a nominal (xs:decimal on the wire,
// so "100" or "100.0").
func parseCount(s string) (int, error) {
	d, err := parseDecimal(s)
	if err != nil {
		return 0, err
	}
	if !d.IsInteger() || d.Sign() <= 0 || d.GreaterThan(decimal.NewFromInt(1_000_000_000)) {
		return 0, fmt.Errorf("not a positive whole number: %q", strings.TrimSpace(s))
	}
	return int(d.IntPart()), nil
}

// parseCode reads an optional non-negative integer code (ISO numeric codes, Doc_id); empty is 0.
func parseCode(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n := 0
	for _, ch := range []byte(s) {
		if ch < '0' || ch > '9' || n > 100_000_000 {
			return 0, fmt.Errorf("not a code: %q", s)
		}
		n = n*10 + int(ch-'0')
	}
	return n, nil
}

// parseDate reads an xs:dateTime or xs:date and returns midnight Moscow of its Moscow date.
// A value with an offset ("+03:00", "Z") is an instant and is converted to Moscow first, so
// "2023-06-21T21:00:00Z" is 22 June; a value without one is Moscow wall time.
func parseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return midnight(t), nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", time.DateOnly, "20060102"} {
		if t, err := time.ParseInLocation(layout, s, Moscow); err == nil {
			return midnight(t), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date: %q", s)
}

// unitRate returns the per-unit rate: the service's own when present, else value/nominal.
func unitRate(raw string, value decimal.Decimal, nominal int) (decimal.Decimal, error) {
	if strings.TrimSpace(raw) == "" {
		return value.DivRound(decimal.NewFromInt(int64(nominal)), 8), nil
	}
	return parseDecimal(raw)
}
