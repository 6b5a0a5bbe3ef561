package cbr

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Result shapes of the DataSet operations: an xs:schema followed by a diffgr:diffgram whose
// single child is the DataSet and whose grandchildren are its rows.

type cursOnDateResult struct {
	Schema struct {
		Elements []struct {
			OnDate string `xml:"OnDate,attr"` // msprop:OnDate="yyyyMMdd"
		} `xml:"element"`
	} `xml:"schema"`
	Rows []struct {
		Vname, Vnom, Vcurs, Vcode, VchCode, VunitRate string
	} `xml:"diffgram>ValuteData>ValuteCursOnDate"`
}

type cursDynamicResult struct {
	Rows []struct {
		CursDate, Vcode, Vnom, Vcurs, VunitRate string
	} `xml:"diffgram>ValuteData>ValuteCursDynamic"`
}

type keyRateResult struct {
	Rows []struct {
		DT, Rate string
	} `xml:"diffgram>KeyRate>KR"`
}

type newsInfoResult struct {
	Rows []struct {
		DocID   string `xml:"Doc_id"`
		DocDate string
		Title   string
		URL     string `xml:"Url"`
	} `xml:"diffgram>NewsInfo>News"`
}

type enumValutesResult struct {
	Rows []struct {
		Vcode, Vname, VEngname, Vnom, VcommonCode, VnumCode, VcharCode string
	} `xml:"diffgram>ValuteData>EnumValutes"`
}

// parseCursOnDate parses a GetCursOnDate response to a request for the date requested.
func parseCursOnDate(body []byte, requested time.Time) (Daily, error) {
	res, err := decodeResult[cursOnDateResult](body, "GetCursOnDate", http.StatusOK)
	if err != nil {
		return Daily{}, err
	}
	d := Daily{Requested: midnight(requested), Rates: make([]Rate, 0, len(res.Rows))}
	var onDate string
	for _, el := range res.Schema.Elements {
		if onDate = strings.TrimSpace(el.OnDate); onDate != "" {
			break
		}
	}
	switch {
	case onDate != "":
		if d.OnDate, err = parseDate(onDate); err != nil {
			return Daily{}, fmt.Errorf("%w: msprop:OnDate: %v", ErrBadResponse, err)
		}
	case len(res.Rows) > 0:
		return Daily{}, fmt.Errorf("%w: rates without msprop:OnDate", ErrBadResponse)
	default:
		d.OnDate = d.Requested // nothing is claimed about any date
	}
	for i, row := range res.Rows {
		// Every column is minOccurs="0". A row without a rate or a nominal tells the caller
		// nothing usable and a zero would read as a real rate, so it is skipped, not kept.
		if strings.TrimSpace(row.Vcurs) == "" || strings.TrimSpace(row.Vnom) == "" {
			continue
		}
		r := Rate{CharCode: strings.TrimSpace(row.VchCode), Name: strings.TrimSpace(row.Vname)}
		bad := func(field, raw string, err error) error {
			return fmt.Errorf("%w: ValuteCursOnDate row %d (%s) %s %q: %v", ErrBadResponse, i+1, r.CharCode, field, strings.TrimSpace(raw), err)
		}
		if r.Nominal, err = parseCount(row.Vnom); err != nil {
			return Daily{}, bad("Vnom", row.Vnom, err)
		}
		if r.Value, err = parsePositive(row.Vcurs); err != nil {
			return Daily{}, bad("Vcurs", row.Vcurs, err)
		}
		if r.UnitRate, err = unitRate(row.VunitRate, r.Value, r.Nominal); err != nil {
			return Daily{}, bad("VunitRate", row.VunitRate, err)
		}
		if r.NumCode, err = parseCode(row.Vcode); err != nil {
			return Daily{}, bad("Vcode", row.Vcode, err)
		}
		d.Rates = append(d.Rates, r)
	}
	return d, nil
}

// parseCursDynamic parses a GetCursDynamic response into points ascending by date.
func parseCursDynamic(body []byte) ([]Point, error) {
	res, err := decodeResult[cursDynamicResult](body, "GetCursDynamic", http.StatusOK)
	if err != nil {
		return nil, err
	}
	points := make([]Point, 0, len(res.Rows))
	for i, row := range res.Rows {
		if strings.TrimSpace(row.Vcurs) == "" || strings.TrimSpace(row.Vnom) == "" {
			continue // no rate that day; see parseCursOnDate
		}
		var p Point
		bad := func(field, raw string, err error) error {
			return fmt.Errorf("%w: ValuteCursDynamic row %d %s %q: %v", ErrBadResponse, i+1, field, strings.TrimSpace(raw), err)
		}
		if p.Date, err = parseDate(row.CursDate); err != nil {
			return nil, bad("CursDate", row.CursDate, err)
		}
		if p.Nominal, err = parseCount(row.Vnom); err != nil {
			return nil, bad("Vnom", row.Vnom, err)
		}
		if p.Value, err = parsePositive(row.Vcurs); err != nil {
			return nil, bad("Vcurs", row.Vcurs, err)
		}
		if p.UnitRate, err = unitRate(row.VunitRate, p.Value, p.Nominal); err != nil {
			return nil, bad("VunitRate", row.VunitRate, err)
		}
		points = append(points, p)
	}
	return ascendingByDate(points, func(p Point) time.Time { return p.Date }), nil
}

// parseKeyRate parses a KeyRate response (newest first on the wire) into points ascending
// by date.
func parseKeyRate(body []byte) ([]KeyRatePoint, error) {
	res, err := decodeResult[keyRateResult](body, "KeyRate", http.StatusOK)
	if err != nil {
		return nil, err
	}
	points := make([]KeyRatePoint, 0, len(res.Rows))
	for i, row := range res.Rows {
		if strings.TrimSpace(row.Rate) == "" {
			continue
		}
		var p KeyRatePoint
		if p.Date, err = parseDate(row.DT); err != nil {
			return nil, fmt.Errorf("%w: KR row %d DT: %v", ErrBadResponse, i+1, err)
		}
		if p.Rate, err = parseDecimal(row.Rate); err != nil || p.Rate.Sign() < 0 {
			return nil, fmt.Errorf("%w: KR row %d Rate %q", ErrBadResponse, i+1, strings.TrimSpace(row.Rate))
		}
		points = append(points, p)
	}
	return ascendingByDate(points, func(p KeyRatePoint) time.Time { return p.Date }), nil
}

// parseNews parses a NewsInfo response into items newest first.
func parseNews(body []byte) ([]NewsItem, error) {
	res, err := decodeResult[newsInfoResult](body, "NewsInfo", http.StatusOK)
	if err != nil {
		return nil, err
	}
	items := make([]NewsItem, 0, len(res.Rows))
	for i, row := range res.Rows {
		it := NewsItem{Title: strings.TrimSpace(row.Title), URL: absoluteURL(row.URL)}
		if it.ID, err = parseCode(row.DocID); err != nil {
			return nil, fmt.Errorf("%w: News row %d Doc_id: %v", ErrBadResponse, i+1, err)
		}
		if it.Date, err = parseDate(row.DocDate); err != nil {
			return nil, fmt.Errorf("%w: News row %d DocDate: %v", ErrBadResponse, i+1, err)
		}
		items = append(items, it)
	}
	slices.SortStableFunc(items, func(a, b NewsItem) int { return b.Date.Compare(a.Date) })
	return items, nil
}

// parseValutes parses an EnumValutes response.
func parseValutes(body []byte) ([]Valute, error) {
	res, err := decodeResult[enumValutesResult](body, "EnumValutes", http.StatusOK)
	if err != nil {
		return nil, err
	}
	vals := make([]Valute, 0, len(res.Rows))
	for i, row := range res.Rows {
		v := Valute{
			Code:       strings.TrimSpace(row.Vcode),
			Name:       strings.TrimSpace(row.Vname),
			EngName:    strings.TrimSpace(row.VEngname),
			CharCode:   strings.TrimSpace(row.VcharCode),
			ParentCode: strings.TrimSpace(row.VcommonCode),
		}
		if v.Code == "" {
			continue // nothing to ask GetCursDynamic for
		}
		if strings.TrimSpace(row.Vnom) != "" {
			if v.Nominal, err = parseCount(row.Vnom); err != nil {
				return nil, fmt.Errorf("%w: EnumValutes row %d (%s) Vnom: %v", ErrBadResponse, i+1, v.Code, err)
			}
		}
		if v.NumCode, err = parseCode(row.VnumCode); err != nil {
			return nil, fmt.Errorf("%w: EnumValutes row %d (%s) VnumCode: %v", ErrBadResponse, i+1, v.Code, err)
		}
		vals = append(vals, v)
	}
	return vals, nil
}

// parsePositive reads a rate, which is never zero or negative.
func parsePositive(s string) (decimal.Decimal, error) {
	d, err := parseDecimal(s)
	if err == nil && d.Sign() <= 0 {
		err = fmt.Errorf("not a positive number: %q", strings.TrimSpace(s))
	}
	return d, err
}

// ascendingByDate sorts points by date and keeps the first (in wire order) of each date.
func ascendingByDate[P any](points []P, date func(P) time.Time) []P {
	slices.SortStableFunc(points, func(a, b P) int { return date(a).Compare(date(b)) })
	return slices.CompactFunc(points, func(a, b P) bool { return date(a).Equal(date(b)) })
}

// absoluteURL makes a site-relative link absolute; absolute links are left as they are.
func absoluteURL(u string) string {
	u = strings.TrimSpace(u)
	switch {
	case u == "", strings.HasPrefix(u, "http://"), strings.HasPrefix(u, "https://"):
		return u
	case strings.HasPrefix(u, "//"):
		return "https:" + u
	case strings.HasPrefix(u, "/"):
		return "https://www.cbr.ru" + u
	}
	return "https://www.cbr.ru/" + u
}

// resolve finds the internal code of the currency with ISO letter code charCode. When
// several rows share the letter code, the base currency (its own VcommonCode) wins.
func resolve(vals []Valute, charCode string) (string, bool) {
	found := ""
	for _, v := range vals {
		if !strings.EqualFold(v.CharCode, charCode) {
			continue
		}
		if v.Code == v.ParentCode || v.ParentCode == "" {
			return v.Code, true
		}
		found = cmp.Or(found, v.Code)
	}
	return found, found != ""
}
