package cbr_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/finbot/finbot/integrations/cbr"
)

func ExampleClient_DailyRates() {
	// A stand-in for www.cbr.ru that answers with a recorded response.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		http.ServeFile(w, r, "testdata/curs_on_date.xml")
	}))
	defer srv.Close()

	c := cbr.New(cbr.Options{BaseURL: srv.URL})
	sunday := time.Date(2026, time.March, 15, 0, 0, 0, 0, cbr.Moscow)
	d, err := c.DailyRates(context.Background(), sunday)
	if err != nil {
		fmt.Println(err)
		return
	}
	jpy, _ := d.Find("jpy")
	fmt.Println("rates valid on", d.OnDate.Format(time.DateOnly))
	fmt.Printf("%d %s = %s RUB (%s per unit)\n", jpy.Nominal, jpy.CharCode, jpy.Value, jpy.UnitRate)
	// Output:
	// rates valid on 2026-03-14
	// 100 JPY = 54.8315 RUB (0.548315 per unit)
}
