package cbr

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzParse feeds arbitrary bodies to every response parser. None may panic, every error
// must be ErrBadResponse or a *FaultError, and every accepted value must keep the
// package's promises (midnight-Moscow dates, positive nominals and rates, sorted points).
func FuzzParse(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("testdata", "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<?xml version="1.0" encoding="windows-1251"?><Envelope><Body><GetCursOnDateResponse><GetCursOnDateResult></GetCursOnDateResult></GetCursOnDateResponse></Body></Envelope>`))
	f.Add([]byte(`<Envelope><Body><KeyRateResponse><KeyRateResult><diffgram><KeyRate><KR><DT>2026-03-13T21:00:00Z</DT><Rate>1,5</Rate></KR></KeyRate></diffgram></KeyRateResult></KeyRateResponse></Body></Envelope>`))

	f.Fuzz(func(t *testing.T, body []byte) {
		check := func(op string, err error) {
			var fe *FaultError
			if err != nil && !errors.Is(err, ErrBadResponse) && !errors.As(err, &fe) {
				t.Errorf("%s: error %v is neither ErrBadResponse nor a fault", op, err)
			}
		}
		d, err := parseCursOnDate(body, testNow)
		check("GetCursOnDate", err)
		if err == nil {
			checkMidnight(t, d.OnDate)
			for _, r := range d.Rates {
				if r.Nominal <= 0 || r.Value.Sign() <= 0 {
					t.Errorf("rate %+v: nominal and value must be positive", r)
				}
			}
		}
		points, err := parseCursDynamic(body)
		check("GetCursDynamic", err)
		for i, p := range points {
			checkMidnight(t, p.Date)
			if i > 0 && !points[i-1].Date.Before(p.Date) {
				t.Errorf("points not strictly ascending at %d", i)
			}
		}
		krs, err := parseKeyRate(body)
		check("KeyRate", err)
		for i, p := range krs {
			checkMidnight(t, p.Date)
			if i > 0 && !krs[i-1].Date.Before(p.Date) {
				t.Errorf("key rates not strictly ascending at %d", i)
			}
		}
		news, err := parseNews(body)
		check("NewsInfo", err)
		for i := 1; i < len(news); i++ {
			if news[i-1].Date.Before(news[i].Date) {
				t.Errorf("news not newest first at %d", i)
			}
		}
		_, err = parseValutes(body)
		check("EnumValutes", err)
		_ = parseFault(body, 500)
		_ = isHTML("text/xml", body)
		_ = toUTF8("text/xml; charset=windows-1251", body)
	})
}

func checkMidnight(t *testing.T, tm time.Time) {
	t.Helper()
	if !tm.Equal(midnight(tm)) || tm.Location() != Moscow {
		t.Errorf("date %v is not midnight Moscow", tm)
	}
}
