package cbr

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Moscow is the zone of every date this package returns (Moscow has no DST: UTC+3).
var Moscow = time.FixedZone("MSK", 3*60*60)

// Meta says where a value came from.
type Meta struct {
	// Stale reports that the value is the last known one, served because the service failed now.
	Stale bool
	// FetchedAt is when this value was fetched from the service.
	FetchedAt time.Time
	// Cause is, with Stale, why the fresh fetch failed (for logs); nil otherwise.
	Cause error
}

// Rate is one currency's official rate from a daily publication.
type Rate struct {
	CharCode string          // ISO letter code, "USD" (VchCode)
	NumCode  int             // ISO numeric code, 840 (Vcode of GetCursOnDate)
	Name     string          // Russian name, "Доллар США" (Vname, trimmed)
	Nominal  int             // units of the currency Value is quoted for (Vnom)
	Value    decimal.Decimal // roubles for Nominal units (Vcurs)
	UnitRate decimal.Decimal // roubles for one unit (VunitRate, or Value/Nominal to 8 places)
}

// Daily is the Bank of Russia's publication of rates valid on one date.
type Daily struct {
	// Requested is the date asked for, midnight Moscow.
	Requested time.Time
	// OnDate is the date the rates are valid for, midnight Moscow. It can be earlier than
	// Requested: a Sunday request returns Saturday's publication.
	OnDate time.Time
	// Rates is empty, not nil, when there is no data for the date.
	Rates []Rate
	Meta
}

// Find returns the rate of the currency with the ISO letter code charCode, ignoring case.
func (d Daily) Find(charCode string) (Rate, bool) {
	charCode = strings.TrimSpace(charCode)
	for _, r := range d.Rates {
		if strings.EqualFold(r.CharCode, charCode) {
			return r, true
		}
	}
	return Rate{}, false
}

// Valute is a currency the Bank of Russia quotes, from its directory (EnumValutes).
type Valute struct {
	Code       string // internal code, "R01235" (Vcode), used by GetCursDynamic
	Name       string // Russian name (Vname)
	EngName    string // English name (VEngname)
	Nominal    int    // usual nominal (Vnom)
	CharCode   string // ISO letter code (VcharCode); empty for some exotic rows
	NumCode    int    // ISO numeric code (VnumCode); 0 when empty
	ParentCode string // internal code of the base currency (VcommonCode)
}

// Point is one publication in a currency's rate history.
type Point struct {
	Date     time.Time       // date the rate is valid for (CursDate), midnight Moscow
	Nominal  int             // units Value is quoted for
	Value    decimal.Decimal // roubles for Nominal units
	UnitRate decimal.Decimal // roubles for one unit
}

// Dynamic is a currency's rate history over a date range.
type Dynamic struct {
	CharCode string    // ISO letter code, upper case
	From, To time.Time // the range asked for, midnight Moscow
	// Points ascend by date, one per publication date (weekends and holidays have none);
	// empty, not nil, when there is no data in the range.
	Points []Point
	Meta
}

// KeyRatePoint is the Bank of Russia key rate in force on one date.
type KeyRatePoint struct {
	Date time.Time       // midnight Moscow
	Rate decimal.Decimal // percent per annum, e.g. 21.00
}

// KeyRates is the key rate history over a date range.
type KeyRates struct {
	// From and To are the range the points were asked for, midnight Moscow. A stale value
	// served for a range never fetched keeps the range it was fetched for.
	From, To time.Time
	// Points ascend by date, one per date; empty, not nil, when there is no data.
	Points []KeyRatePoint
	Meta
}

// NewsItem is one entry of the Bank of Russia site news.
type NewsItem struct {
	ID    int       // Doc_id
	Date  time.Time // DocDate, midnight Moscow
	Title string
	URL   string // absolute: site-relative links are prefixed with https://www.cbr.ru
}

// News is the Bank of Russia site news over a date range.
type News struct {
	// Items are newest first; empty, not nil, when there is no news.
	Items []NewsItem
	Meta
}

// midnight returns the start of t's day in Moscow.
func midnight(t time.Time) time.Time {
	y, m, d := t.In(Moscow).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, Moscow)
}

// dateOnly formats t's Moscow date as YYYY-MM-DD, for keys and messages.
func dateOnly(t time.Time) string { return t.In(Moscow).Format(time.DateOnly) }
