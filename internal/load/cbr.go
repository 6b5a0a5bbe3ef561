package load

import (
	"bytes"
	"embed"
	"io"
	"maps"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/finbot/finbot/internal/fakes"
)

// The Bank of Russia's recorded DailyInfo responses, copied from integrations/cbr/testdata.
//
//go:embed testdata/*.xml
var cbrFixtures embed.FS

// cbrStandIn plays the Bank of Russia's DailyInfo SOAP service (SOAP 1.1, routed on SOAPAction,
// quoted or not) with recorded responses. GetCursOnDate answers for the date asked: the
// recorded rates under that date's msprop:OnDate. Every answer waits latency.
type cbrStandIn struct{ standIn }

func newCBRStandIn(latency time.Duration) *cbrStandIn {
	s := &cbrStandIn{standIn{latency: latency, calls: map[string]int{}}}
	s.srv = fakes.Serve(s)
	return s
}

func (s *cbrStandIn) URL() string { return s.srv.URL() + "/DailyInfoWebServ/DailyInfo.asmx" }

// standIn is what the HTTP stand-ins of the run share: the server, the latency every answer
// waits and the calls per operation.
type standIn struct {
	latency time.Duration
	srv     *fakes.Server

	mu    sync.Mutex
	calls map[string]int
}

func (s *standIn) Close() { s.srv.Close() }

func (s *standIn) counts() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.calls)
}

// wait counts a call of op and waits latency; false when the caller gave up first.
func (s *standIn) wait(r *http.Request, op string) bool {
	s.mu.Lock()
	s.calls[op]++
	s.mu.Unlock()
	t := time.NewTimer(s.latency)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
		return false
	}
}

var (
	onDateRe     = regexp.MustCompile(`<On_date>(\d{4})-(\d{2})-(\d{2})`)
	onDateAttrRe = regexp.MustCompile(`msprop:OnDate="\d{8}"`)
)

var cbrFixture = map[string]string{
	"GetCursOnDate":  "testdata/curs_on_date.xml",
	"GetCursDynamic": "testdata/curs_dynamic.xml",
	"KeyRate":        "testdata/key_rate.xml",
	"NewsInfo":       "testdata/news_info.xml",
	"EnumValutes":    "testdata/enum_valutes.xml",
}

const soapFault = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header SOAPAction: %s.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`

func (s *cbrStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	op := strings.TrimPrefix(strings.Trim(r.Header.Get("SOAPAction"), `"`), "http://web.cbr.ru/")
	if !s.wait(r, op) {
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	name, ok := cbrFixture[op]
	if r.Method != http.MethodPost || !ok {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, strings.Replace(soapFault, "%s", op, 1))
		return
	}
	data, err := cbrFixtures.ReadFile(name)
	if err != nil {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	if m := onDateRe.FindSubmatch(body); op == "GetCursOnDate" && m != nil {
		day := append(append(append([]byte{}, m[1]...), m[2]...), m[3]...)
		data = onDateAttrRe.ReplaceAll(data, append(append([]byte(`msprop:OnDate="`), day...), '"'))
	}
	io.Copy(w, bytes.NewReader(data))
}
