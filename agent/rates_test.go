package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/ru"
)

// fakeRates is a function-field Rates.
type fakeRates struct {
	DailyFunc   func(ctx context.Context, day time.Time) (cbr.Daily, error)
	DynamicFunc func(ctx context.Context, code string, from, to time.Time) (cbr.Dynamic, error)
	KeyRateFunc func(ctx context.Context, from, to time.Time) (cbr.KeyRates, error)
	NewsFunc    func(ctx context.Context, from, to time.Time) (cbr.News, error)
}

func (f fakeRates) DailyRates(ctx context.Context, d time.Time) (cbr.Daily, error) {
	return f.DailyFunc(ctx, d)
}
func (f fakeRates) Dynamic(ctx context.Context, c string, from, to time.Time) (cbr.Dynamic, error) {
	if f.DynamicFunc == nil { // no history
		return cbr.Dynamic{CharCode: c, From: from, To: to, Points: []cbr.Point{}}, nil
	}
	return f.DynamicFunc(ctx, c, from, to)
}
func (f fakeRates) KeyRate(ctx context.Context, from, to time.Time) (cbr.KeyRates, error) {
	return f.KeyRateFunc(ctx, from, to)
}
func (f fakeRates) News(ctx context.Context, from, to time.Time) (cbr.News, error) {
	return f.NewsFunc(ctx, from, to)
}

func msk(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, ru.Moscow) }

func dec(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// publications: Saturday 14.03.2026 and Friday 13.03.2026 (weekends carry Saturday's rates).
func daily(requested time.Time) (cbr.Daily, error) {
	onDate := requested
	switch requested.Weekday() {
	case time.Sunday:
		onDate = requested.AddDate(0, 0, -1)
	case time.Monday:
		onDate = requested.AddDate(0, 0, -2)
	}
	d := cbr.Daily{Requested: requested, OnDate: onDate, Meta: cbr.Meta{FetchedAt: onDate}}
	if requested.After(msk(2026, 3, 15)) {
		return cbr.Daily{Requested: requested}, nil // not published yet
	}
	bump := dec("0")
	if onDate.Equal(msk(2026, 3, 14)) {
		bump = dec("0.56")
	}
	d.Rates = []cbr.Rate{
		{CharCode: "USD", NumCode: 840, Name: "Доллар США", Nominal: 1, Value: dec("80.5534").Add(bump), UnitRate: dec("80.5534").Add(bump)},
		{CharCode: "EUR", NumCode: 978, Name: "Евро", Nominal: 1, Value: dec("88.1000"), UnitRate: dec("88.1000")},
		{CharCode: "CNY", NumCode: 156, Name: "Китайский юань", Nominal: 1, Value: dec("11.2000"), UnitRate: dec("11.2000")},
		{CharCode: "JPY", NumCode: 392, Name: "Японских иен", Nominal: 100, Value: dec("54.3210"), UnitRate: dec("0.543210")},
	}
	return d, nil
}

// dailyHistory is the currency history of the publications of daily: one point per day a
// publication was set for.
func dailyHistory(_ context.Context, code string, from, to time.Time) (cbr.Dynamic, error) {
	dyn := cbr.Dynamic{CharCode: code, From: from, To: to, Points: []cbr.Point{}}
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		pub, _ := daily(d)
		if r, ok := pub.Find(code); ok && pub.OnDate.Equal(d) {
			dyn.Points = append(dyn.Points, cbr.Point{Date: d, Nominal: r.Nominal, Value: r.Value, UnitRate: r.UnitRate})
		}
	}
	return dyn, nil
}

func ratesAgent(t *testing.T, r rates.Bank, s news.Searcher) *Agent {
	t.Helper()
	h := history.NewMemory(100, history.Limits{})
	now := func() time.Time { return time.Date(2026, 3, 15, 12, 0, 0, 0, ru.Moscow) } // a Sunday
	return New(Deps{History: h, Rates: r, News: s}, Options{Now: now})
}

func TestRatesOnDay(t *testing.T) {
	a := ratesAgent(t, fakeRates{DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) { return daily(d) }, DynamicFunc: dailyHistory}, nil)
	tests := []struct {
		text  string
		want  []string
		avoid []string
	}{
		{"", []string{"Курсы Банка России на 14.03.2026", "На 15.03.2026 (воскресенье) новых курсов нет", "**USD** — доллар США: **81,1134 ₽** ▲ +0,5600 ₽ (+0,70%) к 13.03.2026", "**EUR**", "**CNY**"}, []string{"JPY"}},
		{"EUR", []string{"**EUR** — евро: **88,1000 ₽** = 0,0000 ₽ (0,00%) к 13.03.2026"}, []string{"USD"}},
		{"иена 13.03.2026", []string{"Курсы Банка России на 13.03.2026", "**54,3210 ₽** за 100 (0,543210 ₽ за 1)"}, []string{"новых курсов нет"}},
		{"XYZ", []string{"«XYZ» — не валюта"}, []string{"Курсы"}},
		{"USD XYZ", []string{"«XYZ» — не валюта", "**USD**"}, nil},
		{"31.02.2026", []string{`«31\.02\.2026» — такой даты нет: в феврале 2026 года 28 дней`}, []string{"Курсы"}},
		// A day the Bank has not set rates for yet: the latest set, with its date.
		{"USD 20.03.2026", []string{"Курсы Банка России на 14.03.2026", "Курс на 20.03.2026 Банк России ещё не установил", "последний установленный — на 14.03.2026 (суббота)", "**81,1134 ₽** ▲ +0,5600 ₽ (+0,70%) к 13.03.2026"}, []string{"на 20.03.2026** [1]"}},
		{"USD 16.03.2026", []string{"Курсы Банка России на 14.03.2026", "Курс на 16.03.2026 Банк России ещё не установил", "**81,1134 ₽**"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "rate", Text: tt.text})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(ans.Text, w) {
					t.Errorf("answer lacks %q:\n%s", w, ans.Text)
				}
			}
			for _, w := range tt.avoid {
				if strings.Contains(ans.Text, w) {
					t.Errorf("answer has %q:\n%s", w, ans.Text)
				}
			}
			if ans.Debug.Route.Source != "command" || ans.Kind != understand.KindRate {
				t.Errorf("route = %+v", ans.Debug.Route)
			}
		})
	}
}

func TestRatesStaleAndDown(t *testing.T) {
	stale := fakeRates{DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) {
		v, _ := daily(msk(2026, 3, 13))
		v.Meta = cbr.Meta{Stale: true, FetchedAt: time.Date(2026, 3, 13, 16, 5, 0, 0, ru.Moscow), Cause: cbr.ErrUnavailable}
		return v, nil
	}}
	ans, _ := ratesAgent(t, stale, nil).Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "курс доллара"})
	if !strings.Contains(ans.Text, "Банк России сейчас недоступен: показаны последние полученные данные (получены 13.03.2026 16:05 МСК)") ||
		!strings.Contains(ans.Text, "на 13.03.2026") {
		t.Errorf("stale answer:\n%s", ans.Text)
	}
	down := fakeRates{DailyFunc: func(context.Context, time.Time) (cbr.Daily, error) {
		return cbr.Daily{}, errors.Join(cbr.ErrUnavailable, errors.New("dial tcp: refused"))
	}}
	ans, _ = ratesAgent(t, down, nil).Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "курс доллара"})
	if !strings.Contains(ans.Text, "сервис Банка России сейчас недоступен, а сохранённых данных нет") || strings.Contains(ans.Text, "dial") {
		t.Errorf("down answer:\n%s", ans.Text)
	}
	if len(ans.Sources) != 1 || ans.Debug.Degraded[0] != "cbr_unavailable" {
		t.Errorf("down answer sources %v degraded %v", ans.Sources, ans.Debug.Degraded)
	}
}

func TestRatesOverPeriod(t *testing.T) {
	var asked []string
	r := fakeRates{DynamicFunc: func(_ context.Context, code string, from, to time.Time) (cbr.Dynamic, error) {
		asked = append(asked, code+" "+from.Format("02.01.2006")+" "+to.Format("02.01.2006"))
		if code == "XDR" {
			return cbr.Dynamic{}, cbr.ErrUnknownCurrency
		}
		var pts []cbr.Point
		for i, v := range []string{"11.2000", "11.0500", "11.4100", "11.3000"} {
			pts = append(pts, cbr.Point{Date: from.AddDate(0, 0, i+1), Nominal: 1, Value: dec(v), UnitRate: dec(v)})
		}
		return cbr.Dynamic{CharCode: code, From: from, To: to, Points: pts}, nil
	}}
	a := ratesAgent(t, r, nil)
	ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "динамика юаня за февраль"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"за 01.02.2026 – 28.02.2026", "начало: **11,2000**", "конец: **11,3000**", "минимум: 11,0500 (03.02.2026)", "максимум: 11,4100 (04.02.2026)", "изменение: ▲ +0,1000 ₽ (+0,89%)"} {
		if !strings.Contains(ans.Text, w) {
			t.Errorf("period answer lacks %q:\n%s", w, ans.Text)
		}
	}
	if ans.Chart == nil || len(ans.Chart.PNG) < 1000 || !strings.Contains(ans.Chart.Caption, "CNY") {
		t.Errorf("chart = %+v", ans.Chart)
	}
	// A period reaching into the future is clamped to today, and said so.
	asked = nil
	ans, _ = a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "rate", Text: "CNY 01.03.2026-31.03.2026"})
	if len(asked) != 1 || asked[0] != "CNY 01.03.2026 15.03.2026" || !strings.Contains(ans.Text, "ограничен сегодняшним днём") {
		t.Errorf("asked %v; answer:\n%s", asked, ans.Text)
	}
	// Too long a period is clamped and said so.
	asked = nil
	ans, _ = a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "rate", Text: "USD 01.01.2020-01.03.2026"})
	if len(asked) != 1 || !strings.Contains(ans.Text, "Период слишком длинный") {
		t.Errorf("asked %v; answer:\n%s", asked, ans.Text)
	}
}

func TestKeyRate(t *testing.T) {
	pts := []cbr.KeyRatePoint{
		{Date: msk(2025, 6, 6), Rate: dec("21.00")}, {Date: msk(2025, 6, 9), Rate: dec("20.00")},
		{Date: msk(2025, 7, 28), Rate: dec("18.00")}, {Date: msk(2025, 9, 15), Rate: dec("17.00")},
		{Date: msk(2025, 10, 27), Rate: dec("16.50")}, {Date: msk(2026, 3, 13), Rate: dec("16.50")},
	}
	r := fakeRates{KeyRateFunc: func(_ context.Context, from, to time.Time) (cbr.KeyRates, error) {
		var in []cbr.KeyRatePoint
		for _, p := range pts {
			if !p.Date.Before(from) && !p.Date.After(to) {
				in = append(in, p)
			}
		}
		return cbr.KeyRates{From: from, To: to, Points: in}, nil
	}}
	a := ratesAgent(t, r, nil)
	ans, _ := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "какая сейчас ключевая ставка"})
	if !strings.Contains(ans.Text, "**Ключевая ставка Банка России на 15.03.2026: 16,50%** [1] — действует с 27.10.2025") || !strings.Contains(ans.Text, "До этого — 17,00% (с 15.09.2025)") {
		t.Errorf("current key rate:\n%s", ans.Text)
	}
	ans, _ = a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "keyrate", Text: "2025"})
	for _, w := range []string{"за 01.01.2025 – 31.12.2025", "с 09.06.2025: **20,00%**", "с 28.07.2025: **18,00%**", "с 27.10.2025: **16,50%**"} {
		if !strings.Contains(ans.Text, w) {
			t.Errorf("key rate 2025 lacks %q:\n%s", w, ans.Text)
		}
	}
	if ans.Chart == nil {
		t.Error("key rate history without a chart")
	}
}

// fakeSearch is a function-field NewsSearch.
type fakeSearch struct {
	configured bool
	SearchFunc func(ctx context.Context, q tavily.Query) (tavily.Response, error)
}

func (f fakeSearch) Search(ctx context.Context, q tavily.Query) (tavily.Response, error) {
	return f.SearchFunc(ctx, q)
}
func (f fakeSearch) Configured() bool { return f.configured }

func TestNews(t *testing.T) {
	cbrNews := fakeRates{NewsFunc: func(context.Context, time.Time, time.Time) (cbr.News, error) {
		return cbr.News{Items: []cbr.NewsItem{{ID: 1, Date: msk(2026, 3, 13), Title: "Банк России сохранил ключевую ставку на уровне 16,50% годовых", URL: "https://www.cbr.ru/press/pr/?file=13032026.htm"}}}, nil
	}}
	var gotQuery tavily.Query
	search := fakeSearch{configured: true, SearchFunc: func(_ context.Context, q tavily.Query) (tavily.Response, error) {
		gotQuery = q
		return tavily.Response{Results: []tavily.Result{
			{Title: "Ставка НДС [2026]: что *изменилось*", URL: "https://www.klerk.ru/buh/news/1/", Content: "С 1 января ставка НДС выросла до 22%.", PublishedDate: "2026-03-10"},
			{Title: "Минфин о НДС", URL: "https://minfin.gov.ru/ru/press-center/?id_4=1"},
		}}, nil
	}}
	a := ratesAgent(t, cbrNews, search)
	ans, _ := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "новости про НДС"})
	if gotQuery.Text != "НДС" || gotQuery.Topic != "news" || gotQuery.UserID != 1 {
		t.Errorf("query = %+v", gotQuery)
	}
	if !strings.Contains(ans.Text, `1. Ставка НДС \[2026\]: что \*изменилось\* (10.03.2026) — С 1 января ставка НДС выросла до 22%\. [1]`) || len(ans.Sources) != 2 {
		t.Errorf("news answer:\n%s\nsources %v", ans.Text, ans.Sources)
	}
	ans, _ = a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "news"})
	if !strings.Contains(ans.Text, "Новости Банка России") || !strings.Contains(ans.Text, "13.03.2026 — Банк России сохранил") || ans.Sources[0].URL != "https://www.cbr.ru/press/pr/?file=13032026.htm" {
		t.Errorf("/news answer:\n%s", ans.Text)
	}
	for err, want := range map[error]string{
		tavily.ErrQuota:        "Исчерпан лимит",
		tavily.ErrUnauthorized: "не принял ключ",
		tavily.ErrUnavailable:  "сейчас недоступен",
	} {
		failing := fakeSearch{configured: true, SearchFunc: func(context.Context, tavily.Query) (tavily.Response, error) { return tavily.Response{}, err }}
		ans, _ := ratesAgent(t, cbrNews, failing).Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "news", Text: "НДС"})
		if !strings.Contains(ans.Text, want) {
			t.Errorf("%v: answer %q, want %q", err, ans.Text, want)
		}
	}
	// No Tavily key: the Bank of Russia's news, with a note.
	ans, _ = ratesAgent(t, cbrNews, fakeSearch{}).Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "news", Text: "НДС"})
	if !strings.Contains(ans.Text, "не настроен") || !strings.Contains(ans.Text, "Новости Банка России") {
		t.Errorf("unconfigured news:\n%s", ans.Text)
	}
}

func TestInline(t *testing.T) {
	r := fakeRates{
		DailyFunc: func(_ context.Context, d time.Time) (cbr.Daily, error) { return daily(d) },
		KeyRateFunc: func(context.Context, time.Time, time.Time) (cbr.KeyRates, error) {
			return cbr.KeyRates{Points: []cbr.KeyRatePoint{{Date: msk(2025, 10, 27), Rate: dec("16.50")}}}, nil
		},
	}
	a := ratesAgent(t, r, nil)
	got, err := a.Inline(t.Context(), "usd")
	if err != nil || len(got) != 1 || got[0].Title != "USD: 81,1134 ₽" || !strings.Contains(got[0].Text, "cbr.ru") {
		t.Errorf("Inline(usd) = %+v, %v", got, err)
	}
	got, _ = a.Inline(t.Context(), "ключевая ставка")
	if len(got) != 1 || got[0].Title != "Ключевая ставка: 16,50%" {
		t.Errorf("Inline(ключевая ставка) = %+v", got)
	}
	got, _ = a.Inline(t.Context(), "")
	if len(got) != 5 { // key rate, USD, EUR, CNY, all three together
		t.Errorf("Inline('') = %d results: %+v", len(got), got)
	}
}

// A cross rate is computed from the Bank of Russia's two rates, with the computation shown;
// a question about what a rate will be is told that no source gives forecasts, before the
// figures the Bank set. «Сколько будет 100 долларов» is a conversion, not a forecast.
func TestCrossRateAndForecast(t *testing.T) {
	a := demoAgent(t, answersNow, "")
	tests := []struct {
		q        string
		want     []string
		not      []string
		forecast bool
	}{
		{"курс евро к доллару", []string{"Кросс-курс EUR/USD по курсам Банка России: 88,1000 ₽ ÷ 81,1134 ₽ = **1,0861**"}, nil, false},
		{"EUR/USD", []string{"Кросс-курс EUR/USD"}, nil, false},
		{"курс доллара и евро", nil, []string{"Кросс-курс"}, false},
		{"прогноз курса доллара", []string{"**81,1134 ₽**"}, nil, true},
		{"ключевую ставку снизят летом?", []string{"15,50%"}, nil, true},
		{"сколько будет 100 долларов в рублях", []string{"100 USD"}, nil, false},
		// a month to come: the latest rate, never that month of a past year
		{"какой будет курс доллара в январе", []string{"**81,1134 ₽**"}, []string{"январ"}, true},
	}
	for i, tt := range tests {
		ans := ask(t, a, Request{UserID: int64(700 + i), ChatID: int64(700 + i)}, tt.q)
		for _, w := range tt.want {
			if !strings.Contains(ans.Text, w) {
				t.Errorf("%q: want %q in\n%s", tt.q, w, ans.Text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(ans.Text, n) {
				t.Errorf("%q: %q in\n%s", tt.q, n, ans.Text)
			}
		}
		if got := strings.Contains(ans.Text, "Прогнозов я не даю"); got != tt.forecast {
			t.Errorf("%q: forecast note %v, want %v:\n%s", tt.q, got, tt.forecast, ans.Text)
		}
	}
}
