package cbr

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/shopspring/decimal"
	"golang.org/x/text/encoding/charmap"
)

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// wantDaily is testdata/curs_on_date.xml as DailyRates(15 March 2026) returns it.
func wantDaily() Daily {
	return Daily{
		Requested: day(2026, time.March, 15),
		OnDate:    day(2026, time.March, 14), // a Sunday request gets Saturday's publication
		Rates: []Rate{
			{CharCode: "AUD", NumCode: 36, Name: "Австралийский доллар", Nominal: 1, Value: dec("51.3864"), UnitRate: dec("51.3864")},
			// AZN has an empty Vcurs and is skipped.
			{CharCode: "GBP", NumCode: 826, Name: "Фунт стерлингов Соединенного королевства", Nominal: 1, Value: dec("105.7721"), UnitRate: dec("105.7721")},
			{CharCode: "AMD", NumCode: 51, Name: "Армянских драмов", Nominal: 100, Value: dec("20.8716"), UnitRate: dec("0.208716")},
			{CharCode: "USD", NumCode: 840, Name: "Доллар США", Nominal: 1, Value: dec("81.2475"), UnitRate: dec("81.2475")},
			{CharCode: "EUR", NumCode: 978, Name: "Евро", Nominal: 1, Value: dec("88.9163"), UnitRate: dec("88.9163")},
			{CharCode: "KZT", NumCode: 398, Name: "Казахстанских тенге", Nominal: 100, Value: dec("15.9842"), UnitRate: dec("0.159842")},
			{CharCode: "CNY", NumCode: 156, Name: "Китайский юань", Nominal: 1, Value: dec("11.2108"), UnitRate: dec("11.2108")},
			// TRY has no VunitRate: Value/Nominal.
			{CharCode: "TRY", NumCode: 949, Name: "Турецких лир", Nominal: 10, Value: dec("22.0713"), UnitRate: dec("2.20713")},
			{CharCode: "JPY", NumCode: 392, Name: "Японских иен", Nominal: 100, Value: dec("54.8315"), UnitRate: dec("0.548315")},
		},
		Meta: Meta{FetchedAt: testNow},
	}
}

func TestParseOperations(t *testing.T) {
	usd := func(date string, value string) Point {
		d, err := time.ParseInLocation(time.DateOnly, date, Moscow)
		if err != nil {
			t.Fatal(err)
		}
		return Point{Date: d, Nominal: 1, Value: dec(value), UnitRate: dec(value)}
	}
	kr := func(y int, m time.Month, d int, rate string) KeyRatePoint {
		return KeyRatePoint{Date: day(y, m, d), Rate: dec(rate)}
	}
	tests := []struct {
		name string
		call func(ctx context.Context, c *Client) (any, error)
		want any
	}{
		{
			name: "GetCursOnDate",
			call: func(ctx context.Context, c *Client) (any, error) { return c.DailyRates(ctx, day(2026, time.March, 15)) },
			want: wantDaily(),
		},
		{
			name: "GetCursOnDate empty",
			call: func(ctx context.Context, c *Client) (any, error) { return c.DailyRates(ctx, day(2026, time.March, 20)) },
			want: Daily{Requested: day(2026, time.March, 20), OnDate: day(2026, time.March, 20), Rates: []Rate{}, Meta: Meta{FetchedAt: testNow}},
		},
		{
			name: "GetCursDynamic",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.Dynamic(ctx, "usd", day(2026, time.February, 14), day(2026, time.March, 14))
			},
			want: Dynamic{
				CharCode: "USD", From: day(2026, time.February, 14), To: day(2026, time.March, 14),
				Points: []Point{
					usd("2026-02-14", "76.8514"), usd("2026-02-17", "77.0235"), usd("2026-02-18", "77.4120"),
					usd("2026-02-19", "77.2906"), usd("2026-02-20", "77.6841"), usd("2026-02-21", "78.0127"),
					usd("2026-02-25", "78.3315"), usd("2026-02-26", "78.1094"), usd("2026-02-27", "78.5560"),
					usd("2026-02-28", "78.9023"), usd("2026-03-03", "79.2148"), usd("2026-03-04", "79.6035"),
					usd("2026-03-05", "79.4417"), usd("2026-03-06", "79.8802"), usd("2026-03-07", "80.1256"),
					usd("2026-03-11", "80.4630"), usd("2026-03-12", "80.7191"), usd("2026-03-13", "80.9924"),
					usd("2026-03-14", "81.2475"),
				},
				Meta: Meta{FetchedAt: testNow},
			},
		},
		{
			name: "KeyRate",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.KeyRate(ctx, day(2025, time.January, 1), day(2026, time.March, 15))
			},
			want: KeyRates{
				From: day(2025, time.January, 1), To: day(2026, time.March, 15),
				Points: []KeyRatePoint{ // newest first on the wire, ascending here
					kr(2025, time.January, 17, "21.00"), kr(2025, time.June, 6, "21.00"), kr(2025, time.June, 9, "20.00"),
					kr(2025, time.July, 28, "18.00"), kr(2025, time.September, 15, "17.00"), kr(2025, time.October, 24, "17.00"),
					kr(2025, time.October, 27, "16.50"), kr(2025, time.December, 19, "16.50"), kr(2025, time.December, 22, "16.00"),
					kr(2026, time.February, 13, "16.00"), kr(2026, time.February, 16, "15.50"), kr(2026, time.March, 13, "15.50"),
				},
				Meta: Meta{FetchedAt: testNow},
			},
		},
		{
			name: "NewsInfo",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.News(ctx, day(2026, time.March, 11), day(2026, time.March, 13))
			},
			want: News{
				Items: []NewsItem{
					{ID: 38211, Date: day(2026, time.March, 13), Title: "Банк России принял решение сохранить ключевую ставку на уровне 15,50% годовых", URL: "https://www.cbr.ru/press/pr/?file=13032026_133000Key.htm"},
					{ID: 38207, Date: day(2026, time.March, 12), Title: "О развитии банковского сектора Российской Федерации в феврале 2026 года", URL: "https://www.cbr.ru/analytics/bank_sector/develop/#a_61204"},
					{ID: 38205, Date: day(2026, time.March, 12), Title: "Указание Банка России от 20.02.2026 № 7311-У", URL: "https://www.cbr.ru/Queries/UniDbQuery/File/90134/4417"},
					{ID: 38199, Date: day(2026, time.March, 11), Title: "Информационное сообщение о проведении депозитного аукциона", URL: "https://www.cbr.ru/DKP/standart_system/dep_auction/"},
				},
				Meta: Meta{FetchedAt: testNow},
			},
		},
		{
			name: "EnumValutes",
			call: func(ctx context.Context, c *Client) (any, error) { return c.Valutes(ctx) },
			want: []Valute{
				{Code: "R01010", Name: "Австралийский доллар", EngName: "Australian Dollar", Nominal: 1, CharCode: "AUD", NumCode: 36, ParentCode: "R01010"},
				{Code: "R01020A", Name: "Азербайджанский манат", EngName: "Azerbaijan Manat", Nominal: 1, CharCode: "AZN", NumCode: 944, ParentCode: "R01020"},
				{Code: "R01035", Name: "Фунт стерлингов Соединенного королевства", EngName: "British Pound Sterling", Nominal: 1, CharCode: "GBP", NumCode: 826, ParentCode: "R01035"},
				{Code: "R01060", Name: "Армянский драм", EngName: "Armenia Dram", Nominal: 100, CharCode: "AMD", NumCode: 51, ParentCode: "R01060"},
				{Code: "R01090B", Name: "Белорусский рубль", EngName: "Belarussian Ruble", Nominal: 1, CharCode: "BYN", NumCode: 933, ParentCode: "R01090"},
				{Code: "R01235", Name: "Доллар США", EngName: "US Dollar", Nominal: 1, CharCode: "USD", NumCode: 840, ParentCode: "R01235"},
				{Code: "R01239", Name: "Евро", EngName: "Euro", Nominal: 1, CharCode: "EUR", NumCode: 978, ParentCode: "R01239"},
				{Code: "R01335", Name: "Казахстанский тенге", EngName: "Kazakhstan Tenge", Nominal: 100, CharCode: "KZT", NumCode: 398, ParentCode: "R01335"},
				{Code: "R01375", Name: "Китайский юань", EngName: "China Yuan", Nominal: 1, CharCode: "CNY", NumCode: 156, ParentCode: "R01375"},
				{Code: "R01589", Name: "СДР (специальные права заимствования)", EngName: "SDR", Nominal: 1, CharCode: "XDR", NumCode: 960, ParentCode: "R01589"},
				{Code: "R01700J", Name: "Турецкая лира", EngName: "Turkish Lira", Nominal: 10, CharCode: "TRY", NumCode: 949, ParentCode: "R01700"},
				{Code: "R01720", Name: "Украинская гривна", EngName: "Ukrainian Hryvnia", Nominal: 10, CharCode: "UAH", NumCode: 980, ParentCode: "R01720"},
				{Code: "R01720A", Name: "Украинский карбованец", EngName: "Ukrainian Karbovanets", Nominal: 100000, ParentCode: "R01720"},
				{Code: "R01820", Name: "Японская иена", EngName: "Japanese Yen", Nominal: 100, CharCode: "JPY", NumCode: 392, ParentCode: "R01820"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := newTestClient(t, newStandIn(t))
			got, err := tt.call(t.Context(), c)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDailyRatesDatesAreMoscowMidnight(t *testing.T) {
	s := newStandIn(t)
	c, _ := newTestClient(t, s)
	// 23:30 UTC on the 14th is already the 15th in Moscow.
	got, err := c.DailyRates(t.Context(), time.Date(2026, time.March, 14, 23, 30, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if on := s.params("GetCursOnDate", "On_date"); !cmp.Equal(on, []string{"2026-03-15T00:00:00"}) {
		t.Errorf("On_date sent = %q, want [2026-03-15T00:00:00]", on)
	}
	for name, tm := range map[string]time.Time{"Requested": got.Requested, "OnDate": got.OnDate} {
		if s := tm.Format(time.RFC3339); !strings.HasSuffix(s, "T00:00:00+03:00") {
			t.Errorf("%s = %s, want midnight +03:00", name, s)
		}
	}
	if got.OnDate.Weekday() != time.Saturday || got.Requested.Weekday() != time.Sunday {
		t.Errorf("Requested %s (%s), OnDate %s (%s); want Sunday → Saturday",
			got.Requested.Format(time.DateOnly), got.Requested.Weekday(), got.OnDate.Format(time.DateOnly), got.OnDate.Weekday())
	}
	if r, ok := got.Find("jpy"); !ok || r.Nominal != 100 {
		t.Errorf("Find(jpy) = %+v, %v; want the JPY rate for 100 yen", r, ok)
	}
	if _, ok := got.Find("AZN"); ok {
		t.Error("Find(AZN) found a rate, want none (empty Vcurs)")
	}
}

// TestDailyRatesEncodings serves the same response in other byte forms; the result must
// not change.
func TestDailyRatesEncodings(t *testing.T) {
	utf := fixture(t, "curs_on_date.xml")
	cp1251, err := charmap.Windows1251.NewEncoder().Bytes(
		[]byte(strings.Replace(string(utf), `encoding="utf-8"`, `encoding="windows-1251"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if utf8.Valid(cp1251) {
		t.Fatal("the windows-1251 body is valid UTF-8; the test would prove nothing")
	}
	_, undeclared, _ := strings.Cut(string(cp1251), "?>") // no XML declaration: the header decides
	tests := []struct {
		name, contentType string
		body              []byte
	}{
		{"windows-1251 declared", "text/xml; charset=windows-1251", cp1251},
		{"windows-1251 in header only", "text/xml; charset=windows-1251", []byte(undeclared)},
		{"UTF-8 with BOM", "text/xml; charset=utf-8", append([]byte("\xef\xbb\xbf"), utf...)},
		{"no Content-Type charset", "text/xml", utf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandIn(t)
			s.setReply(func(w http.ResponseWriter, _ *http.Request, _ soapCall) bool {
				serveBytes(w, http.StatusOK, tt.contentType, tt.body)
				return true
			})
			c, _ := newTestClient(t, s)
			got, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
			if err != nil {
				t.Fatalf("DailyRates error: %v", err)
			}
			if diff := cmp.Diff(wantDaily(), got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseEdgeCases(t *testing.T) {
	wrap := func(op, result string) []byte {
		return []byte(`<?xml version="1.0"?><s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><` +
			op + `Response xmlns="http://web.cbr.ru/"><` + op + `Result>` + result + `</` + op + `Result></` + op + `Response></s:Body></s:Envelope>`)
	}
	const diffgram = `<diffgr:diffgram xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1">`

	t.Run("KeyRate duplicates, offsets and commas", func(t *testing.T) {
		body := wrap("KeyRate", diffgram+`<KeyRate xmlns="">
			<KR><DT>2026-03-14T00:00:00+03:00</DT><Rate>15,50</Rate></KR>
			<KR><DT>2026-03-13T21:00:00Z</DT><Rate>15.75</Rate></KR>
			<KR><DT>2026-03-13</DT><Rate> 15.50 </Rate></KR>
			<KR><DT>2026-03-12T00:00:00</DT><Rate></Rate></KR>
		</KeyRate></diffgr:diffgram>`)
		got, err := parseKeyRate(body)
		if err != nil {
			t.Fatal(err)
		}
		want := []KeyRatePoint{{Date: day(2026, time.March, 13), Rate: dec("15.50")}, {Date: day(2026, time.March, 14), Rate: dec("15.50")}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("GetCursOnDate without OnDate", func(t *testing.T) {
		body := wrap("GetCursOnDate", diffgram+`<ValuteData xmlns=""><ValuteCursOnDate><Vname>Доллар США</Vname><Vnom>1</Vnom><Vcurs>81.2475</Vcurs><Vcode>840</Vcode><VchCode>USD</VchCode></ValuteCursOnDate></ValuteData></diffgr:diffgram>`)
		if _, err := parseCursOnDate(body, testNow); !isBadResponse(err) {
			t.Errorf("error = %v, want ErrBadResponse", err)
		}
	})
	t.Run("bad numbers", func(t *testing.T) {
		for _, v := range []string{"abc", "81.24.75", "1e9", "0", "-5.1", "NaN", "81.2475\x00"} {
			body := wrap("GetCursOnDate", `<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msprop="urn:schemas-microsoft-com:xml-msprop"><xs:element name="ValuteData" msprop:OnDate="20260314"/></xs:schema>`+
				diffgram+`<ValuteData xmlns=""><ValuteCursOnDate><Vnom>1</Vnom><Vcurs>`+v+`</Vcurs><VchCode>USD</VchCode></ValuteCursOnDate></ValuteData></diffgr:diffgram>`)
			if _, err := parseCursOnDate(body, testNow); !isBadResponse(err) {
				t.Errorf("Vcurs %q: error = %v, want ErrBadResponse", v, err)
			}
		}
	})
	t.Run("zero nominal", func(t *testing.T) {
		body := wrap("GetCursDynamic", diffgram+`<ValuteData xmlns=""><ValuteCursDynamic><CursDate>2026-03-14T00:00:00+03:00</CursDate><Vnom>0</Vnom><Vcurs>1.5</Vcurs></ValuteCursDynamic></ValuteData></diffgr:diffgram>`)
		if _, err := parseCursDynamic(body); !isBadResponse(err) {
			t.Errorf("error = %v, want ErrBadResponse", err)
		}
	})
	t.Run("URLs", func(t *testing.T) {
		for in, want := range map[string]string{
			"/press/pr/":                 "https://www.cbr.ru/press/pr/",
			"https://www.cbr.ru/a":       "https://www.cbr.ru/a",
			"http://example.com/b":       "http://example.com/b",
			"//cbr.ru/c":                 "https://cbr.ru/c",
			"Queries/UniDbQuery/File/90": "https://www.cbr.ru/Queries/UniDbQuery/File/90",
			"":                           "",
		} {
			if got := absoluteURL(in); got != want {
				t.Errorf("absoluteURL(%q) = %q, want %q", in, got, want)
			}
		}
	})
}
