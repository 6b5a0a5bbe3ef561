package tavily_test

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/tavily"
)

// newClient points a client at the stand-in with fast retries; o overrides the rest.
func newClient(s *standIn, o tavily.Options) *tavily.Client {
	o.BaseURL = s.srv.URL
	o.HTTPClient = s.srv.Client()
	if o.APIKey == "" {
		o.APIKey = testKey
	}
	if o.BaseBackoff == 0 {
		o.BaseBackoff = time.Millisecond
	}
	return tavily.New(o)
}

// okResults is testdata/search_ok.json after the client's clean-up.
var okResults = []tavily.Result{
	{
		Title:         "Банк России принял решение снизить ключевую ставку на 200 б.п., до 18,00% годовых",
		URL:           "https://www.cbr.ru/press/pr/?file=25072025_133000Key.htm",
		Content:       "Совет директоров Банка России 25 июля 2025 года принял решение снизить ключевую ставку на 200 б.п., до 18,00% годовых. Текущий рост цен, в том числе устойчивых его компонентов, замедляется быстрее, чем ожидалось.",
		Score:         0.8721,
		PublishedDate: "Fri, 25 Jul 2025 10:30:00 GMT",
	},
	{
		Title:         "ЦБ снизил ключевую ставку до 18%",
		URL:           "https://www.rbc.ru/finances/25/07/2025/6880c0a29a7947a1f2c3d4e5",
		Content:       "Банк России второй раз подряд снизил ключевую ставку — сразу на 2 п.п., до 18%. Большинство аналитиков ожидали именно такого решения.",
		Score:         0.8315,
		PublishedDate: "Fri, 25 Jul 2025 10:31:12 GMT",
	},
	{
		Title:         "Набиуллина допустила дальнейшее снижение ставки до конца года",
		URL:           "https://www.interfax.ru/business/1038211",
		Content:       "Банк России будет оценивать целесообразность дальнейшего снижения ключевой ставки на ближайших заседаниях, заявила глава регулятора Эльвира Набиуллина на пресс-конференции.",
		Score:         0.7764,
		PublishedDate: "Fri, 25 Jul 2025 12:05:40 GMT",
	},
	{
		Title:         "Ставка пошла вниз: как решение ЦБ скажется на кредитах и вкладах",
		URL:           "https://www.kommersant.ru/doc/7906655",
		Content:       "Банки начали снижать ставки по вкладам уже в день заседания регулятора. Для бизнеса снижение ключевой ставки означает постепенное удешевление кредитов с плавающей ставкой.",
		Score:         0.7012,
		PublishedDate: "Sat, 26 Jul 2025 06:00:00 GMT",
	},
	{
		Title:         "ЦБ снизил ключевую ставку сильнее, чем в июне",
		URL:           "https://www.vedomosti.ru/economics/articles/2025/07/25/1127304-tsb-snizil-stavku",
		Content:       "Регулятор сохранил сигнал о возможности дальнейшего смягчения денежно-кредитной политики, но подчеркнул, что будет действовать осторожно.",
		Score:         0.6543,
		PublishedDate: "Fri, 25 Jul 2025 11:15:00 GMT",
	},
}

func TestSearch(t *testing.T) {
	const text = "ключевая ставка ЦБ"
	// body is what every request must carry besides the per-case fields.
	body := func(query, topic string, n int) wireBody {
		return wireBody{
			Query:         new(query),
			Topic:         new(topic),
			SearchDepth:   new("advanced"),
			MaxResults:    new(n),
			IncludeAnswer: false,
		}
	}
	tests := []struct {
		name     string
		q        tavily.Query
		wantBody wireBody
		want     tavily.Response
	}{
		{
			name:     "defaults",
			q:        tavily.Query{Text: text},
			wantBody: body(text, "finance", 5),
			want:     tavily.Response{Query: text, Results: okResults, ResponseTime: 1.42, RequestID: "3f6c2a9e-8b1d-4c7e-9a25-6d0f1b2e4c81"},
		},
		{
			name: "news for a week, three results",
			q:    tavily.Query{Text: " " + text + "\n", Topic: "news", MaxResults: 3, TimeRange: "week"},
			wantBody: func() wireBody {
				b := body(text, "news", 3)
				b.TimeRange = new("week")
				return b
			}(),
			want: tavily.Response{Query: text, Results: okResults[:3], ResponseTime: 1.42, RequestID: "3f6c2a9e-8b1d-4c7e-9a25-6d0f1b2e4c81"},
		},
		{
			name: "dates replace the time range",
			q:    tavily.Query{Text: text, Topic: "general", TimeRange: "month", StartDate: "2025-07-01", EndDate: "2025-07-31"},
			wantBody: func() wireBody {
				b := body(text, "general", 5)
				b.StartDate, b.EndDate = new("2025-07-01"), new("2025-07-31")
				return b
			}(),
			want: tavily.Response{Query: text, Results: okResults, ResponseTime: 1.42, RequestID: "3f6c2a9e-8b1d-4c7e-9a25-6d0f1b2e4c81"},
		},
		{
			name:     "max results clamped up to 3",
			q:        tavily.Query{Text: text, MaxResults: 1},
			wantBody: body(text, "finance", 3),
			want:     tavily.Response{Query: text, Results: okResults[:3], ResponseTime: 1.42, RequestID: "3f6c2a9e-8b1d-4c7e-9a25-6d0f1b2e4c81"},
		},
		{
			name:     "max results clamped down to 5",
			q:        tavily.Query{Text: text, MaxResults: 20},
			wantBody: body(text, "finance", 5),
			want:     tavily.Response{Query: text, Results: okResults, ResponseTime: 1.42, RequestID: "3f6c2a9e-8b1d-4c7e-9a25-6d0f1b2e4c81"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandIn(t, reply{fixture: "search_ok.json"})
			c := newClient(s, tavily.Options{})
			got, err := c.Search(t.Context(), tt.q)
			if err != nil {
				t.Fatalf("Search(%+v) error: %v", tt.q, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Search(%+v) mismatch (-want +got):\n%s", tt.q, diff)
			}
			if diff := cmp.Diff([]wireBody{tt.wantBody}, s.Bodies()); diff != "" {
				t.Errorf("request bodies mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchResponseTimeAsString(t *testing.T) {
	s := newStandIn(t, reply{fixture: "search_ok_string_time.json"})
	c := newClient(s, tavily.Options{})
	got, err := c.Search(t.Context(), tavily.Query{Text: "НДС 2026 упрощенка"})
	if err != nil {
		t.Fatalf("Search error: %v", err)
	}
	want := tavily.Response{
		Query: "НДС 2026 упрощенка",
		Results: []tavily.Result{
			{Title: "ФНС разъяснила порядок уплаты НДС на УСН", URL: "https://www.nalog.gov.ru/rn77/news/activities_fts/15587362/",
				Content: "Организации и ИП на УСН с доходами свыше установленного порога становятся плательщиками НДС и могут выбрать пониженные ставки 5% или 7%.",
				Score:   0.81025416},
			{Title: "НДС на упрощенке: что изменится для бухгалтеров", URL: "https://www.klerk.ru/buh/news/640112/",
				Content: "Разбираем, как рассчитать порог, когда подавать декларацию и какие ставки выбрать.", Score: 0.74},
			{Title: "Обзор изменений налогового законодательства", URL: "https://www.consultant.ru/law/hotdocs/88542.html",
				Content: "Основные изменения Налогового кодекса, вступающие в силу с 1 января.", Score: 0.69},
		},
		ResponseTime: 1.67,
		RequestID:    "123e4567-e89b-12d3-a456-426614174111",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Search mismatch (-want +got):\n%s", diff)
	}
}

func TestSearchDropsNonWebURLs(t *testing.T) {
	s := newStandIn(t, reply{fixture: "search_mixed_urls.json"})
	c := newClient(s, tavily.Options{})
	got, err := c.Search(t.Context(), tavily.Query{Text: "курс рубля"})
	if err != nil {
		t.Fatalf("Search error: %v", err)
	}
	want := []tavily.Result{
		{Title: "Курс рубля укрепился", URL: "https://www.banki.ru/news/lenta/?id=11000001", Content: "Рубль укрепился к доллару.", Score: 0.6},
		{Title: "Рубль", URL: "HTTP://WWW.FINAM.RU/publications/item/rubl-20250725/", Content: "Обзор.", Score: 0.5},
	}
	if diff := cmp.Diff(want, got.Results); diff != "" {
		t.Errorf("Search results mismatch (-want +got):\n%s", diff)
	}
}

func TestSearchRejectsBadQueriesWithoutCalling(t *testing.T) {
	tests := []struct {
		name string
		q    tavily.Query
	}{
		{"empty", tavily.Query{}},
		{"blank", tavily.Query{Text: " \t\n "}},
		{"unknown topic", tavily.Query{Text: "ставка", Topic: "sports"}},
		{"unknown time range", tavily.Query{Text: "ставка", TimeRange: "decade"}},
		{"malformed date", tavily.Query{Text: "ставка", StartDate: "01.07.2025"}},
		{"start after end", tavily.Query{Text: "ставка", StartDate: "2025-08-01", EndDate: "2025-07-01"}},
	}
	s := newStandIn(t)
	c := newClient(s, tavily.Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := c.Search(t.Context(), tt.q); !errors.Is(err, tavily.ErrBadRequest) {
				t.Errorf("Search(%+v) error = %v, want ErrBadRequest", tt.q, err)
			}
		})
	}
	if s.Calls() != 0 {
		t.Errorf("upstream calls = %d, want 0", s.Calls())
	}
}

func TestSearchNotConfigured(t *testing.T) {
	s := newStandIn(t)
	for _, key := range []string{"", "   "} {
		c := tavily.New(tavily.Options{BaseURL: s.srv.URL, HTTPClient: s.srv.Client(), APIKey: key})
		if c.Configured() {
			t.Errorf("Configured() with key %q = true, want false", key)
		}
		if _, err := c.Search(t.Context(), tavily.Query{Text: "ключевая ставка"}); !errors.Is(err, tavily.ErrNotConfigured) {
			t.Errorf("Search with key %q error = %v, want ErrNotConfigured", key, err)
		}
	}
	if s.Calls() != 0 {
		t.Errorf("upstream calls = %d, want 0", s.Calls())
	}
	if c := newClient(s, tavily.Options{}); !c.Configured() {
		t.Error("Configured() with a key = false, want true")
	}
}
