package agent

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/internal/golden"
)

// footnoteMark finds the footnote marks of an answer's text.
var footnoteMark = regexp.MustCompile(`\[(\d+)\]`)

// citedText is an answer as the reader checks it: the text, then the footnotes it points at.
func citedText(ans Answer) string {
	var b strings.Builder
	b.WriteString(ans.Text)
	for i, s := range ans.Sources {
		fmt.Fprintf(&b, "\n[%d] %s", i+1, s.Title)
		if s.URL != "" {
			b.WriteString(" — " + s.URL)
		}
	}
	return b.String() + "\n"
}

// checkCited fails unless every source of ans is marked in its text and every mark points at a
// source: a fact and where it comes from are read together.
func checkCited(t *testing.T, ans Answer) {
	t.Helper()
	marked := map[int]bool{}
	for _, m := range footnoteMark.FindAllStringSubmatch(ans.Text, -1) {
		n, _ := strconv.Atoi(m[1])
		if n < 1 || n > len(ans.Sources) {
			t.Errorf("mark [%d] points at no source (%d):\n%s", n, len(ans.Sources), ans.Text)
		}
		marked[n] = true
	}
	for i := range ans.Sources {
		if !marked[i+1] {
			t.Errorf("source [%d] %q is not marked in the text:\n%s", i+1, ans.Sources[i].Title, ans.Text)
		}
	}
}

// 1C answers say what they are — the date or period, the organization, the account and the
// base — and mark the line their figures are read from with the footnote of the recipe.
func TestLedgerAnswersCiteTheirSource(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	tests := []struct{ name, text string }{
		{"receivables", "кто нам должен на 31.03.2026"},
		{"payables", "кому мы должны на 31.03.2026"},
		{"balance_51", "остаток по 51 на 01.04.2026"},
		{"open_items_alfa", "открытые позиции по Альфе на 31.03.2026"},
		{"documents_alfa_march", "документы Альфы за март 2026"},
		{"empty_receivables", "кто нам должен на 01.01.2020"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: tt.text})
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(tt.name, "empty") {
				// Nothing found: no figures to footnote, so no sources block (the scope line
				// still names the base).
				if len(ans.Sources) != 0 || strings.Contains(ans.Text, "[1]") || !strings.Contains(ans.Text, "источник:") {
					t.Errorf("a no-data answer carries sources %+v:\n%s", ans.Sources, ans.Text)
				}
				golden.Check(t, filepath.Join("testdata", "cited", "ledger_"+tt.name+".golden"), "Q: "+tt.text+"\n\n"+citedText(ans))
				return
			}
			if len(ans.Sources) != 1 || !strings.HasPrefix(ans.Sources[0].Title, "1С: ") || !strings.Contains(ans.Sources[0].Title, "ООО «Северный ветер»") {
				t.Errorf("sources = %+v, want the recipe, the organization and the base", ans.Sources)
			}
			checkCited(t, ans)
			golden.Check(t, filepath.Join("testdata", "cited", "ledger_"+tt.name+".golden"), "Q: "+tt.text+"\n\n"+citedText(ans))
		})
	}
}

// Rates and key rate answers say on what date or over what period, and footnote the Bank of
// Russia's page of those dates.
func TestRatesAnswersCiteTheirSource(t *testing.T) {
	keyRates := func(_ context.Context, from, to time.Time) (cbr.KeyRates, error) {
		var in []cbr.KeyRatePoint
		for _, p := range []cbr.KeyRatePoint{{Date: msk(2025, 9, 15), Rate: dec("17.00")}, {Date: msk(2025, 10, 27), Rate: dec("16.50")}} {
			if !p.Date.Before(from) && !p.Date.After(to) {
				in = append(in, p)
			}
		}
		return cbr.KeyRates{From: from, To: to, Points: in}, nil
	}
	dynamic := func(_ context.Context, code string, from, to time.Time) (cbr.Dynamic, error) {
		pts := []cbr.Point{{Date: from, Nominal: 1, Value: dec("11.2000"), UnitRate: dec("11.2000")},
			{Date: to, Nominal: 1, Value: dec("11.3000"), UnitRate: dec("11.3000")}}
		return cbr.Dynamic{CharCode: code, From: from, To: to, Points: pts}, nil
	}
	up := ratesAgent(t, fakeRates{DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) { return daily(d) },
		KeyRateFunc: keyRates, DynamicFunc: dynamic}, nil)
	unavailable := errors.Join(cbr.ErrUnavailable, errors.New("dial tcp: refused"))
	down := ratesAgent(t, fakeRates{
		DailyFunc:   func(context.Context, time.Time) (cbr.Daily, error) { return cbr.Daily{}, unavailable },
		KeyRateFunc: func(context.Context, time.Time, time.Time) (cbr.KeyRates, error) { return cbr.KeyRates{}, unavailable },
	}, nil)
	tests := []struct {
		name string
		a    *Agent
		req  Request
	}{
		{"rates_today", up, Request{Text: "курс евро"}},
		{"rates_on_day", up, Request{Command: "rate", Text: "USD 13.03.2026"}},
		{"rates_period", up, Request{Text: "динамика юаня за февраль"}},
		{"key_rate_today", up, Request{Text: "какая сейчас ключевая ставка"}},
		{"key_rate_on_day", up, Request{Text: "ключевая ставка на 01.10.2025"}},
		{"key_rate_year", up, Request{Command: "keyrate", Text: "2025"}},
		{"rates_down", down, Request{Text: "курс доллара"}},
		{"key_rate_down", down, Request{Text: "ключевая ставка"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.req.UserID, tt.req.ChatID = 1, 1
			ans, err := tt.a.Answer(t.Context(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if len(ans.Sources) != 1 || !strings.HasPrefix(ans.Sources[0].Title, "Банк России, ") || !strings.HasPrefix(ans.Sources[0].URL, "https://www.cbr.ru/") {
				t.Errorf("sources = %+v, want the Bank of Russia's page", ans.Sources)
			}
			checkCited(t, ans)
			q := tt.req.Text
			if tt.req.Command != "" {
				q = "/" + tt.req.Command + " " + q
			}
			golden.Check(t, filepath.Join("testdata", "cited", tt.name+".golden"), "Q: "+q+"\n\n"+citedText(ans))
		})
	}
}
