package cbr

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// standIn is a fake DailyInfo service speaking the SOAP 1.1 wire format of
// DailyInfo.asmx. It checks each request the way ASMX would (method, Content-Type,
// SOAPAction, envelope, operation element and parameter names, date syntax) and answers
// with fixtures from testdata. Requests it would reject get the fault ASMX sends, and the
// test fails.
type standIn struct {
	t   testing.TB
	srv *httptest.Server

	mu    sync.Mutex
	calls []soapCall // every well-formed request, in arrival order

	// reply, when set, answers a well-formed request instead of the fixture routing;
	// it returns false to fall through to the fixtures.
	reply func(w http.ResponseWriter, r *http.Request, call soapCall) bool
}

// soapCall is one request as the service saw it.
type soapCall struct {
	Op     string
	Params map[string]string
}

// wantParams are each operation's input elements in WSDL order; note KeyRate's and
// NewsInfo's lower-case "fromDate".
var wantParams = map[string][]string{
	"GetCursOnDate":  {"On_date"},
	"GetCursDynamic": {"FromDate", "ToDate", "ValutaCode"},
	"KeyRate":        {"fromDate", "ToDate"},
	"NewsInfo":       {"fromDate", "ToDate"},
	"EnumValutes":    {"Seld"},
}

// xsDateTime is what .NET's XmlSerializer accepts for xs:dateTime.
var xsDateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$`)

const defaultUA = "finbot/1.0 (+https://github.com/finbot/finbot)"

func newStandIn(t testing.TB) *standIn {
	t.Helper()
	s := &standIn{t: t}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// count returns how many requests for op arrived; op "" counts all.
func (s *standIn) count(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.calls {
		if op == "" || c.Op == op {
			n++
		}
	}
	return n
}

// params returns the value of parameter name in every request for op, in order.
func (s *standIn) params(op, name string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var vs []string
	for _, c := range s.calls {
		if c.Op == op {
			vs = append(vs, c.Params[name])
		}
	}
	return vs
}

func (s *standIn) setReply(f func(w http.ResponseWriter, r *http.Request, call soapCall) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reply = f
}

func (s *standIn) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		s.t.Errorf("stand-in: method %s, want POST", r.Method)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	mt, ps, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "text/xml" || !strings.EqualFold(ps["charset"], "utf-8") {
		s.t.Errorf("stand-in: Content-Type %q, want text/xml; charset=utf-8", r.Header.Get("Content-Type"))
		w.WriteHeader(http.StatusUnsupportedMediaType)
		return
	}
	if ua := r.Header.Get("User-Agent"); ua != defaultUA {
		s.t.Errorf("stand-in: User-Agent %q, want %q", ua, defaultUA)
	}
	// ASMX accepts the action quoted (as .NET sends it) or not (as PHP clients do).
	action := strings.Trim(r.Header.Get("SOAPAction"), `"`)
	op, ok := strings.CutPrefix(action, soapNS)
	if _, known := wantParams[op]; !ok || !known {
		s.t.Errorf("stand-in: SOAPAction %q", r.Header.Get("SOAPAction"))
		writeFault(w, "soap:Client", "Server did not recognize the value of HTTP Header SOAPAction: "+action+".")
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	call, err := readRequest(body, op)
	if err != nil {
		s.t.Errorf("stand-in: %s request: %v\n%s", op, err, body)
		writeFault(w, "soap:Client", "Server was unable to read request. ---> "+err.Error())
		return
	}
	s.mu.Lock()
	s.calls = append(s.calls, call)
	reply := s.reply
	s.mu.Unlock()

	for name, v := range call.Params {
		if name != "ValutaCode" && name != "Seld" && !validDateTime(v) {
			serveFixture(w, http.StatusInternalServerError, "fault_client.xml") // not a valid AllXsd value
			return
		}
	}
	if reply != nil && reply(w, r, call) {
		return
	}
	switch op {
	case "GetCursOnDate":
		if strings.HasPrefix(call.Params["On_date"], "2026-03-20") {
			serveFixture(w, http.StatusOK, "curs_on_date_empty.xml")
			return
		}
		serveFixture(w, http.StatusOK, "curs_on_date.xml")
	case "GetCursDynamic":
		serveFixture(w, http.StatusOK, "curs_dynamic.xml")
	case "KeyRate":
		serveFixture(w, http.StatusOK, "key_rate.xml")
	case "NewsInfo":
		serveFixture(w, http.StatusOK, "news_info.xml")
	case "EnumValutes":
		serveFixture(w, http.StatusOK, "enum_valutes.xml")
	}
}

// readRequest checks a SOAP 1.1 request envelope for op and returns its parameters.
func readRequest(body []byte, op string) (soapCall, error) {
	const soap11 = "http://schemas.xmlsoap.org/soap/envelope/"
	d := xml.NewDecoder(bytes.NewReader(body))
	var path []xml.Name
	call := soapCall{Op: op, Params: map[string]string{}}
	var names []string
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return call, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			path = append(path, tok.Name)
			text.Reset()
			switch len(path) {
			case 1:
				if tok.Name != (xml.Name{Space: soap11, Local: "Envelope"}) {
					return call, fmt.Errorf("root element %v, want SOAP 1.1 Envelope", tok.Name)
				}
			case 2:
				if tok.Name != (xml.Name{Space: soap11, Local: "Body"}) {
					return call, fmt.Errorf("envelope child %v, want Body", tok.Name)
				}
			case 3:
				if tok.Name != (xml.Name{Space: soapNS, Local: op}) {
					return call, fmt.Errorf("body element %v, want %s in %s (SOAPAction says so)", tok.Name, op, soapNS)
				}
			case 4:
				if tok.Name.Space != soapNS {
					return call, fmt.Errorf("parameter %s in namespace %q, want %s", tok.Name.Local, tok.Name.Space, soapNS)
				}
				names = append(names, tok.Name.Local)
			default:
				return call, fmt.Errorf("unexpected element %v", tok.Name)
			}
		case xml.CharData:
			text.Write(tok)
		case xml.EndElement:
			if len(path) == 4 {
				call.Params[tok.Name.Local] = strings.TrimSpace(text.String())
			}
			path = path[:len(path)-1]
		}
	}
	if !slices.Equal(names, wantParams[op]) {
		return call, fmt.Errorf("parameters %v, want %v", names, wantParams[op])
	}
	return call, nil
}

// validDateTime reports whether XmlSerializer would read v as an xs:dateTime.
func validDateTime(v string) bool {
	if !xsDateTime.MatchString(v) {
		return false
	}
	if _, err := time.Parse(time.DateOnly, v[:10]); err != nil {
		return false // month 13, 30 February…
	}
	if len(v) > 10 {
		if _, err := time.Parse("15:04:05", v[11:19]); err != nil {
			return false
		}
	}
	return true
}

func writeFault(w http.ResponseWriter, code, msg string) {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(msg))
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><soap:Fault><faultcode>%s</faultcode><faultstring>%s</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`, code, b.String())
}

func serveFixture(w http.ResponseWriter, status int, name string) {
	body, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	serveBytes(w, status, "text/xml; charset=utf-8", body)
}

func serveBytes(w http.ResponseWriter, status int, contentType string, body []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "private, max-age=0")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// clock is a settable Options.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// testNow is Sunday 15 March 2026, noon in Moscow.
var testNow = time.Date(2026, time.March, 15, 12, 0, 0, 0, Moscow)

// newTestClient returns a client of s whose clock starts at testNow.
func newTestClient(t testing.TB, s *standIn, tweak ...func(*Options)) (*Client, *clock) {
	t.Helper()
	clk := &clock{t: testNow}
	o := Options{BaseURL: s.srv.URL, HTTPClient: s.srv.Client(), Timeout: 5 * time.Second, Now: clk.Now}
	for _, f := range tweak {
		f(&o)
	}
	return New(o), clk
}

// day is midnight Moscow of a date.
func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, Moscow) }
