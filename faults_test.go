package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
	"github.com/finbot/finbot/internal/fakes"
)

// Fault injection (issue #7): the real `serve` wiring, an in-process Bot API (faults_harness_test.go)
// and stand-ins of the LLM, the Bank of Russia, Tavily and the 1C proxy. While a steady stream of
// messages flows, each fault in turn: the fallbacks are as designed, every message gets a right
// reply, the breaker shows in /metrics as open (2) during the fault and closed (0) after it, the
// bot answers correctly once the fault ends, and no goroutine outlives the bot. Breaker timeouts
// are shortened through *_BREAKER_TIMEOUT so that a test takes seconds; nothing asserts a timing.
// Call timeouts (CBR_TIMEOUT …) stay generous for a loaded CI machine under -race: a call that
// times out must mean that the stand-in hangs, not that the machine was busy.

// faultFixture reads a file of testdata/faults.
func faultFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "faults", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// dateSeq hands out consecutive dates from first on, "DD.MM.YYYY", each once within 250 days:
// questions about dates not asked for minutes always reach the service past every cache. The
// days cycle after 250, so that however many messages a run gets to send (that depends on the
// machine's speed) no date reaches the future, where the Bank of Russia has no rates yet and
// the answers differ.
func dateSeq(first time.Time) func() string {
	var n atomic.Int32
	return func() string { return first.AddDate(0, 0, (int(n.Add(1))-1)%250).Format("02.01.2006") }
}

var onDateParam = regexp.MustCompile(`<On_date>(\d{4})-(\d{2})-(\d{2})`)

// cbrHandler serves the recorded SOAP responses of integrations/cbr/testdata by SOAPAction.
// GetCursOnDate is published on the date asked for, so each date has its own publication.
func cbrHandler(t *testing.T) http.Handler {
	t.Helper()
	files := map[string][]byte{}
	for op, name := range map[string]string{
		"GetCursOnDate": "curs_on_date_full.xml", "GetCursDynamic": "curs_dynamic.xml",
		"KeyRate": "key_rate.xml", "NewsInfo": "news_info.xml", "EnumValutes": "enum_valutes.xml",
	} {
		b, err := os.ReadFile(filepath.Join("integrations", "cbr", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		files[op] = b
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		op := strings.TrimPrefix(strings.Trim(r.Header.Get("SOAPAction"), `"`), "http://web.cbr.ru/")
		data, ok := files[op]
		if !ok {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header SOAPAction: %s.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`, op)
			return
		}
		if m := onDateParam.FindSubmatch(body); op == "GetCursOnDate" && m != nil {
			data = bytes.Replace(data, []byte(`msprop:OnDate="20260314"`), []byte(`msprop:OnDate="`+string(m[1])+string(m[2])+string(m[3])+`"`), 1)
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Write(data)
	})
}

// TestFaultCBR: the Bank of Russia refuses connections, answers 503, sends its DDoS-protection
// page instead of XML, and hangs. A date asked during the fault gets the last publication
// fetched before it with the stale note; what was never fetched gets a clear message; the
// breaker opens and closes; fresh rates come back after the fault.
func TestFaultCBR(t *testing.T) {
	cbrSrv := newStandIn(t, cbrHandler(t))
	r := startFaultRun(t, 7_200_001, map[string]string{
		"CBR_URL": cbrSrv.URL(), "CBR_TIMEOUT": "2s", "CBR_BREAKER_TIMEOUT": "500ms",
	})
	day := dateSeq(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	rates := says("Курсы Банка России на", "USD", "81,2475 ₽")
	fresh := allOf(rates, saysNot("недоступен"))
	stale := allOf(rates, says("⚠️ Банк России сейчас недоступен: показаны последние полученные данные (получены "))
	nothingCached := allOf(says("Не удалось получить ключевую ставку: сервис Банка России сейчас недоступен, а сохранённых данных нет. Попробуйте через несколько минут."),
		saysNot("%"))

	rate := func() string { return "/rate USD " + day() }
	r.setPhase("healthy")
	stop := r.stream(100*time.Millisecond, func(int) (string, replyCheck) { return rate(), rates })
	r.eventually(rate, fresh, stale)

	year := 2019
	for _, f := range []struct {
		name    string
		on, off func()
	}{
		{"connection refused", cbrSrv.down, cbrSrv.up},
		{"503", func() {
			cbrSrv.setFault(faultRespond(http.StatusServiceUnavailable, "text/plain; charset=utf-8", "Service Unavailable"))
		}, func() { cbrSrv.setFault(nil) }},
		{"HTML instead of XML", func() { cbrSrv.setFault(faultRespond(http.StatusOK, "text/html; charset=utf-8", cbrDDoSPage(t))) }, func() { cbrSrv.setFault(nil) }},
		{"slow", func() { cbrSrv.setFault(faultHang) }, func() { cbrSrv.setFault(nil) }},
	} {
		r.setPhase(f.name)
		f.on()
		r.waitBreaker("cbr", 2)
		r.probe("/rate USD "+day(), stale)
		r.probe(fmt.Sprintf("/keyrate %d", year), nothingCached) // never fetched: nothing to serve
		year--
		f.off()
		r.setPhase("after " + f.name)
		r.waitBreaker("cbr", 0)
		r.eventually(rate, fresh, stale)
	}
	r.setPhase("end")
	r.eventually(func() string { return "/keyrate" }, says("Ключевая ставка Банка России на ", ": 15,50%"), nothingCached)
	stop()
	r.finish()
}

// cbrDDoSPage is the recorded DDoS-protection page the site shows instead of SOAP.
func cbrDDoSPage(t *testing.T) string {
	b, err := os.ReadFile(filepath.Join("integrations", "cbr", "testdata", "ddos.html"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// tavilyHandler answers every authorised search with the recorded search_ok.json.
func tavilyHandler(t *testing.T) http.Handler {
	t.Helper()
	ok, err := os.ReadFile(filepath.Join("integrations", "tavily", "testdata", "search_ok.json"))
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get("Authorization") != "Bearer tvly-fault-key" {
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"detail":{"error":"Unauthorized: missing or invalid API key."}}`)
			return
		}
		w.Write(ok)
	})
}

// TestFaultTavily: Tavily refuses connections, answers 503, sends an HTML page instead of JSON,
// and hangs. A search is never invented: the user reads that the news search is unavailable
// (Tavily has no stale-if-error beyond its 5-minute cache, which still answers a search the same
// user made before the fault); the breaker opens and closes; searches work again afterwards.
func TestFaultTavily(t *testing.T) {
	tav := newStandIn(t, tavilyHandler(t))
	r := startFaultRun(t, 7_300_001, map[string]string{
		"TAVILY_URL": tav.URL(), "TAVILY_API_KEY": "tvly-fault-key", "TAVILY_TIMEOUT": "1s", "TAVILY_BREAKER_TIMEOUT": "500ms",
	})
	topics := []string{"НДС", "ключевая ставка", "налоговый вычет", "страховые взносы", "УСН", "маркировка товаров"}
	found := says("Новости:", "Банк России принял решение снизить ключевую ставку", "Источники")
	unavailable := allOf(says("Сервис поиска новостей сейчас недоступен. Попробуйте позже или посмотрите новости Банка России: /news без слов."),
		saysNot("Источники", "http"))

	r.setPhase("healthy")
	stop := r.stream(100*time.Millisecond, func(i int) (string, replyCheck) {
		return "/news " + topics[i%len(topics)], oneOf(found, unavailable)
	})
	// Searched again by the same user during each fault. Asked until found: with a 1 s deadline,
	// a search slowed on a loaded machine is a designed fallback, not a failure.
	regular := r.eventually(func() string { return "/news НДС" }, found, unavailable)

	for i, f := range []struct {
		name    string
		on, off func()
	}{
		{"connection refused", tav.down, tav.up},
		{"503", func() {
			tav.setFault(faultRespond(http.StatusServiceUnavailable, "application/json", `{"detail":{"error":"Service Unavailable"}}`))
		}, func() { tav.setFault(nil) }},
		{"HTML instead of JSON", func() {
			tav.setFault(faultRespond(http.StatusOK, "text/html; charset=utf-8", faultFixture(t, "tavily_challenge.html")))
		}, func() { tav.setFault(nil) }},
		{"slow", func() { tav.setFault(faultHang) }, func() { tav.setFault(nil) }},
	} {
		r.setPhase(f.name)
		f.on()
		r.waitBreaker("tavily", 2)
		r.probe(fmt.Sprintf("/news %s %d", topics[i], i), unavailable)
		r.probeAs(regular, "/news НДС", found) // the cache still answers what was found before
		f.off()
		r.setPhase("after " + f.name)
		r.waitBreaker("tavily", 0)
		r.eventually(func() string { return "/news " + topics[i+1] }, found, unavailable)
	}
	stop()
	r.finish()
}

// TestFaultOneC: the 1C proxy reports a query error (success:false with HTTP 200), rejects the
// request (422), times out, and resets the connection in the middle of the body. The user reads
// that 1C does not answer, never a figure from elsewhere; errors that 1C answered (the first
// two) leave the breaker closed, outages open it; after the fault the totals are right again.
func TestFaultOneC(t *testing.T) {
	demo, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	srv := onectest.NewServer(t, demo)
	const firstUser = 7_400_001
	var allowed []string
	for id := range 2000 { // more users than the test sends messages, one each
		allowed = append(allowed, fmt.Sprint(firstUser+id))
	}
	r := startFaultRun(t, firstUser, map[string]string{
		"ONEC_URL": srv.URL, "ONEC_TIMEOUT": "3s", "ONEC_BREAKER_TIMEOUT": "500ms", "ONEC_ORGANIZATION": demo.MainOrganization(),
		"LEDGER_ALLOWED_USER_IDS": strings.Join(allowed, ","),
	})
	right := says("Нам должны 35 987 887,75 ₽ на 31.03.2026 — 18 контрагентов")
	down := allOf(says("Не удалось получить данные: 1С (MCP toolkit, канал default) сейчас не отвечает. Попробуйте через несколько минут — другой источник я подставлять не буду."),
		saysNot("₽", "демо"))

	r.setPhase("healthy")
	debts := func() string { return "/debts 31.03.2026" }
	stop := r.stream(200*time.Millisecond, func(int) (string, replyCheck) { return debts(), oneOf(right, down) })
	r.eventually(debts, right, down)

	for _, f := range []struct {
		name  string
		fail  func(http.ResponseWriter, *http.Request) bool
		opens bool // the breaker opens: 1C did not answer
	}{
		{"success:false with HTTP 200", onectest.Respond(http.StatusOK, "application/json", faultFixture(t, "onec_query_error.json")), false},
		{"422", onectest.Respond(http.StatusUnprocessableEntity, "application/json", faultFixture(t, "onec_422.json")), false},
		{"timeout", onectest.Hang, true},
		{"connection reset mid-body", onectest.ResetMidBody, true},
	} {
		r.setPhase(f.name)
		srv.Fail(f.fail)
		probes := 2
		if f.opens {
			r.waitBreaker("onec", 2)
		} else {
			probes = 6 // more than the 5 failures in a row that would open the breaker
		}
		for range probes {
			r.probe("/debts 31.03.2026", down)
		}
		srv.Fail(nil)
		r.setPhase("after " + f.name)
		r.waitBreaker("onec", 0)
		r.eventually(debts, right, down)
		if s := r.watch.states(f.name, "onec"); slices.Contains(s, 2) != f.opens {
			// A call that timed out counts against 1C: on a machine too loaded for the stand-in to
			// answer within ONEC_TIMEOUT the breaker opens for that, not for the phase's fault.
			if !f.opens && strings.Contains(r.phaseLog(f.name), "context deadline exceeded") {
				t.Logf("during %q the onec breaker went through %v, and 1C calls timed out then: not the fault's doing", f.name, s)
			} else {
				t.Errorf("during %q the onec breaker went through %v; want it open: %v", f.name, s, f.opens)
			}
		}
	}
	stop()
	r.finish()
	for _, q := range srv.Queries() {
		if _, ok := onec.QueryID(q); !ok {
			t.Errorf("non-whitelisted query sent: %q", q)
		}
	}
}

// llmFake is the LLM of the fault tests (internal/fakes.LLM, served by a standIn) and plans
// like a model would: the receivables question becomes the 1C recipe, the rate-and-key-rate
// question a composite plan answered from facts, anything else small talk. mode switches it into
// a fault.
type llmFake struct {
	*fakes.LLM

	mu       sync.Mutex
	mode     string // "", "slow", "5xx", "429", "401", "400", "error in 200", "invalid JSON", "empty", "100 KB", "invented figure"
	invented int    // answers with an invented figure
	// sent429 is when each 429 went out; early lists the requests that came while the
	// Retry-After of one of them still ran (see llmRetryAfter).
	sent429 []time.Time
	early   []string
}

func newLLMFake(t *testing.T) *llmFake {
	l := &llmFake{}
	l.LLM = fakes.NewTestLLM(t, fakes.LLMOptions{Key: "fault-llm-key", InProcess: true, Respond: l.respond})
	return l
}

// The "429" fault answers with Retry-After: 3. A request that arrives between llmInFlight and
// llmRetryAfter after a 429 went out ignored it: a request the client had sent before it read
// the 429 arrives within llmInFlight. That covers the client reading the 429 late and the
// request's own way to the stand-in, each of which a loaded machine under -race can stretch by
// half a second (the load driver has measured 443 ms late wake-ups on 2 busy cores), hence
// 1.5 s. A client that ignores Retry-After is caught in the 1.5 s after that by its breaker's
// half-open probes, 500 ms apart (LLM_BREAKER_TIMEOUT), if not by the stream's requests, 100 ms
// apart.
const (
	llmRetryAfter = 3 * time.Second
	llmInFlight   = 1500 * time.Millisecond
)

// waitRetryAfter keeps the 429 fault on until its 429s span more than one Retry-After, so that
// requests keep coming while one runs.
func (l *llmFake) waitRetryAfter(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		l.mu.Lock()
		n := len(l.sent429)
		spanned := n > 1 && l.sent429[n-1].Sub(l.sent429[0]) > llmRetryAfter
		l.mu.Unlock()
		if spanned {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("[429] %d 429s in 30 s: the LLM is no longer asked", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const (
	goodAnswer     = "**Курс и ставка**\n\nКурс доллара — 81,2475 ₽ [1], ключевая ставка — 15,50% [2]."
	inventedAnswer = "**Курс и ставка**\n\nКурс доллара — 95,0000 ₽ [1], ключевая ставка — 15,50% [2]."
	smallTalkReply = "Всё хорошо, спасибо! Спрашивайте про курсы, 1С и документы."
	receivables    = `{"intents":["ledger"],"tool_calls":[{"tool":"ledger_query","args":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31"}}}],"fallback":{"enabled":false},"limits":{},"render_style":"TABLE","confidence":0.93,"question_mode":"direct","ledger":{"recipe":"list_receivables_counterparties","filters":{"as_of_date":"2026-03-31"}}}`
	smallTalkPlan  = `{"intents":["smalltalk"],"tool_calls":[],"fallback":{"enabled":false},"limits":{},"render_style":"SHORT","confidence":0.9}`
)

var (
	ruDate       = regexp.MustCompile(`(\d{2})\.(\d{2})\.(\d{4})`)
	userQuestion = regexp.MustCompile(`(?s)Вопрос пользователя:\s*<<<\s*(.*?)\s*>>>`)
)

func (l *llmFake) setMode(m string) {
	l.mu.Lock()
	l.mode = m
	l.mu.Unlock()
}

func (l *llmFake) respond(r *fakes.Request) fakes.Reply {
	question := ""
	if m := userQuestion.FindStringSubmatch(r.First()); m != nil {
		question = strings.ToLower(m[1])
	}
	l.mu.Lock()
	mode := l.mode
	if mode == "429" {
		for _, sent := range l.sent429 {
			if d := r.Arrived.Sub(sent); d >= llmInFlight && d < llmRetryAfter {
				l.early = append(l.early, fmt.Sprintf("a %s request %v after a 429 with Retry-After: %d", r.Kind,
					d.Round(time.Millisecond), int(llmRetryAfter/time.Second)))
			}
		}
		l.sent429 = append(l.sent429, time.Now()) // before the reply is written: the client cannot read it earlier
	}
	if mode == "invented figure" && r.Kind == "answer" {
		l.invented++
	}
	l.mu.Unlock()

	switch mode {
	case "slow":
		return fakes.Reply{Delay: 30 * time.Second}
	case "5xx":
		return fakes.Reply{Status: http.StatusBadGateway}
	case "429":
		return fakes.Reply{Status: http.StatusTooManyRequests, Message: "Rate limit exceeded: free-models-per-min",
			Header: map[string]string{"Retry-After": strconv.Itoa(int(llmRetryAfter / time.Second))}}
	case "401": // a revoked key; the service echoes it, as OpenAI-compatible ones do
		return fakes.Reply{Status: http.StatusUnauthorized, Message: "Incorrect API key provided: fault-llm-key"}
	case "400": // a request the service rejects every time
		return fakes.Reply{Status: http.StatusBadRequest, Message: "Invalid request: response_format is not supported by this model"}
	case "error in 200":
		return fakes.Reply{ErrorIn200: http.StatusBadGateway}
	case "invalid JSON":
		if r.Stream {
			return fakes.Reply{Header: map[string]string{"Content-Type": "text/event-stream"},
				Raw: `data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"Курс` + "\n\n"}
		}
		return fakes.Reply{Raw: `{"id":"gen-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Курс`}
	}
	if mode == "empty" { // every call answered 200 with nothing in it
		if r.Stream {
			return fakes.Reply{Header: map[string]string{"Content-Type": "text/event-stream"},
				Raw: `data: {"id":"gen-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":""},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"}
		}
		return fakes.Reply{Raw: `{"id":"gen-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":""},"finish_reason":"stop"}]}`}
	}
	switch r.Kind {
	case "plan":
		if strings.Contains(question, "кто нам должен") {
			return fakes.Reply{Content: receivables}
		}
		if m := ruDate.FindStringSubmatch(question); m != nil && strings.Contains(question, "курс доллара") && strings.Contains(question, "ключевая ставка") {
			iso := m[3] + "-" + m[2] + "-" + m[1]
			return fakes.Reply{Content: `{"intents":["rate","key_rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"` + iso +
				`","codes":["USD"]}},{"tool":"fetch_cbr_data","args":{"mode":"key_rate","date":"` + iso +
				`"}}],"fallback":{"enabled":false},"limits":{},"render_style":"BULLETS","confidence":0.9}`}
		}
		return fakes.Reply{Content: smallTalkPlan}
	case "answer":
		switch mode {
		case "invented figure":
			return fakes.Reply{Content: inventedAnswer}
		case "100 KB":
			return fakes.Reply{Content: goodAnswer + strings.Repeat(" Курс доллара — 81,2475 ₽ [1].", 3300)}
		}
		return fakes.Reply{Content: goodAnswer}
	}

	if r.ResponseFormat != "" {
		return fakes.Reply{Content: "{}"} // a JSON task this stand-in does not know (the 1C lane's decomposition)
	}
	return fakes.Reply{Content: smallTalkReply}
}

// TestFaultLLM: the LLM is slow (beyond LLM_TIMEOUT), answers 502, 429 with Retry-After, 200
// with an error object, invalid JSON, and an answer with an invented figure. The planner's
// questions are then routed by the rules, small talk gets its template, an answer that fails
// the post-check is replaced by the deterministic rendering of the facts; every message gets a
// right reply; the breaker opens on the failures (not on the invented figure) and closes after.
// While a 429's Retry-After runs no request reaches the LLM: the messages meanwhile are
// answered at once without it.
func TestFaultLLM(t *testing.T) {
	model := newLLMFake(t)
	llmSrv := newStandIn(t, model)
	cbrSrv := newStandIn(t, cbrHandler(t))
	r := startFaultRun(t, 7_100_001, map[string]string{
		"LLM_BASE_URL": llmSrv.URL(), "LLM_API_KEY": "fault-llm-key", "LLM_MODEL": "test/model",
		"LLM_TIMEOUT": "3s", "LLM_BREAKER_TIMEOUT": "500ms", "PLAN_CACHE_TTL": "1s",
		"CBR_URL": cbrSrv.URL(),
	})
	day := dateSeq(time.Date(2026, 3, 16, 0, 0, 0, 0, time.UTC))
	// Nine words: not a shortcut for the rules, so the planner plans it.
	composite := func() string {
		return "какой курс доллара и какая ключевая ставка на " + day() + "?"
	}
	ledger := []string{"Кто нам должен на 31.03.2026?", "кто нам должен на 31.03.2026", "Скажи, кто нам должен на 31.03.2026"}
	byLLM := allOf(says("Курс и ставка", "81,2475 ₽", "15,50%", "Источники"), saysNot("95,0000"))
	byFacts := allOf(says("81,2475", "15,50%", "Источники"), saysNot("95,0000", "Курс и ставка"))
	byRules := allOf(says("15,50%"), saysNot("95,0000", "Курс и ставка")) // the rules read it as a key-rate question
	debts := says("Нам должны 35 987 887,75 ₽")
	chat := says(smallTalkReply)
	template := says("Всё в порядке, готов к работе.")

	r.setPhase("healthy")
	stop := r.stream(100*time.Millisecond, func(i int) (string, replyCheck) {
		switch i % 3 {
		case 0:
			return "Привет, как дела?", oneOf(chat, template)
		case 1:
			return ledger[i/3%len(ledger)], debts
		default:
			return composite(), oneOf(byLLM, byFacts, byRules)
		}
	})
	r.eventually(composite, byLLM, oneOf(byFacts, byRules))
	r.probe(ledger[0], debts)
	r.eventually(func() string { return "Привет, как дела?" }, chat, template)

	faults := []string{"slow", "5xx", "429", "401", "400", "error in 200", "invalid JSON", "empty"}
	for _, f := range faults {
		r.setPhase(f)
		model.setMode(f)
		r.waitBreaker("llm", 2)
		r.probe(composite(), byRules)
		r.probe(ledger[1], debts)
		r.probe("Привет, как дела?", template)
		if f == "429" {
			model.waitRetryAfter(t)
			r.probe(composite(), byRules) // still answered at once, without the LLM
		}
		model.setMode("")
		r.setPhase("after " + f)
		r.waitBreaker("llm", 0)
		r.eventually(composite, byLLM, oneOf(byFacts, byRules))
	}

	r.setPhase("100 KB")
	model.setMode("100 KB")
	for range 3 { // the planner works, the answer LLM writes 100 KB: the facts are rendered, whole
		r.eventually(composite, byFacts, byRules)
	}
	model.setMode("")

	r.setPhase("invented figure")
	model.setMode("invented figure")
	for range 3 { // the planner works, the answer LLM invents: the facts are rendered
		r.eventually(composite, byFacts, byRules)
	}
	model.setMode("")
	r.setPhase("after invented figure")
	r.eventually(composite, byLLM, oneOf(byFacts, byRules))
	stop()
	r.finish()
	model.mu.Lock()
	plans, answers, invented := model.Count("plan"), model.Count("answer"), model.invented
	model.mu.Unlock()
	if plans == 0 || answers == 0 || invented == 0 {
		t.Errorf("the stand-in planned %d times, answered %d times, invented a figure %d times: a path was not exercised",
			plans, answers, invented)
	}
	if s := r.watch.states("invented figure", "llm"); slices.ContainsFunc(s, func(v float64) bool { return v != 0 }) {
		// A refused answer must not count against the LLM. A call that timed out does: on a
		// machine too loaded for the stand-in to answer within the LLM timeout that is the
		// breaker doing its job, not the post-check's doing.
		if log := r.phaseLog("invented figure"); strings.Contains(log, "context deadline exceeded") {
			t.Logf("the llm breaker moved during the invented-figure phase (%v), and LLM calls timed out then: not a refusal's doing", s)
		} else {
			t.Errorf("an answer refused by the post-check moved the llm breaker: %v", s)
		}
	}
	model.mu.Lock()
	sent429, early := len(model.sent429), model.early
	model.mu.Unlock()
	if sent429 < 2 {
		t.Errorf("the stand-in answered 429 %d times: Retry-After was not exercised", sent429)
	}
	for _, e := range early {
		t.Errorf("Retry-After ignored: %s", e)
	}
}
