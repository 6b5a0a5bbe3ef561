// Package cbrtest is a stand-in of the Bank of Russia's DailyInfo SOAP service for tests
// outside integrations/cbr: it answers GetCursOnDate, GetCursDynamic, EnumValutes and KeyRate over
// SOAP 1.1 in the service's wire format (DataSets: an xs:schema and a diffgr:diffgram, the
// effective date in msprop:OnDate, dates with the +03:00 offset, padded names and codes) from
// a history the test writes, and checks each request's SOAPAction, Content-Type and envelope.
package cbrtest

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const soapNS = "http://web.cbr.ru/"

// Moscow is the zone of the service's dates.
var Moscow = time.FixedZone("MSK", 3*60*60)

// Quote is one currency's rate in one publication.
type Quote struct {
	Code    string // ISO letter code, "USD"
	Nominal int
	Value   string // roubles for Nominal units, with a dot: "78.2267"
}

// currency is what the directory says of a currency.
type currency struct {
	id, name string
	num      int
}

var directory = map[string]currency{
	"USD": {"R01235", "Доллар США", 840},
	"EUR": {"R01239", "Евро", 978},
	"CNY": {"R01375", "Китайский юань", 156},
	"JPY": {"R01820", "Японских иен", 392},
	"TRY": {"R01700J", "Турецких лир", 949},
	"KZT": {"R01335", "Казахстанских тенге", 398},
}

// Server is the stand-in. Publish what the Bank set on a date; the zero Server publishes
// nothing.
type Server struct {
	t   testing.TB
	URL string
	// Client talks to the server.
	Client *http.Client

	mu    sync.Mutex
	pubs  map[string][]Quote // "2006-01-02" → the rates set for that date
	empty map[string]bool    // dates GetCursOnDate answers with an empty table
	keys  []keyDecision      // the key rate's decisions, by the date each took effect
	down  bool
	calls []string
}

// keyDecision is a key rate in force from a date.
type keyDecision struct {
	from time.Time
	rate string
}

// New starts a stand-in, closed with the test.
func New(t testing.TB) *Server {
	s := &Server{t: t, pubs: map[string][]Quote{}, empty: map[string]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL, s.Client = srv.URL, srv.Client()
	return s
}

// Publish records the rates the Bank set for a date.
func (s *Server) Publish(on time.Time, quotes ...Quote) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, q := range quotes {
		if _, ok := directory[q.Code]; !ok {
			s.t.Fatalf("cbrtest: currency %s is not in the stand-in's directory", q.Code)
		}
	}
	s.pubs[key(on)] = append(s.pubs[key(on)], quotes...)
}

// SetKeyRate records a decision of the Bank: the key rate (with a dot: "21.00") in force from
// the Moscow date of from on. KeyRate answers, for each day asked, the rate in force then.
func (s *Server) SetKeyRate(from time.Time, rate string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	day, _ := time.ParseInLocation(time.DateOnly, key(from), Moscow)
	s.keys = append(s.keys, keyDecision{from: day, rate: rate})
	slices.SortStableFunc(s.keys, func(a, b keyDecision) int { return a.from.Compare(b.from) })
}

// Empty makes GetCursOnDate answer for the date with an empty table (msprop:OnDate of the date,
// no rows), as the service does for some dates.
func (s *Server) Empty(on time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.empty[key(on)] = true
}

// Down makes every request fail with HTTP 503 (down true) or answer again.
func (s *Server) Down(down bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.down = down
}

// Calls are the requests received, as "GetCursDynamic 2026-01-01 2026-01-14 R01235".
func (s *Server) Calls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.calls)
}

func key(t time.Time) string { return t.In(Moscow).Format(time.DateOnly) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	op, ok := strings.CutPrefix(strings.Trim(r.Header.Get("SOAPAction"), `"`), soapNS)
	if r.Method != http.MethodPost || !ok || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/xml") {
		s.t.Errorf("cbrtest: %s with SOAPAction %q, Content-Type %q", r.Method, r.Header.Get("SOAPAction"), r.Header.Get("Content-Type"))
		fault(w, "Server did not recognize the value of HTTP Header SOAPAction: "+r.Header.Get("SOAPAction")+".")
		return
	}
	body, _ := io.ReadAll(r.Body)
	params, err := readParams(body, op)
	if err != nil {
		s.t.Errorf("cbrtest: %s: %v", op, err)
		fault(w, "Server was unable to read request. ---> "+err.Error())
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	call := op
	for _, n := range []string{"On_date", "FromDate", "fromDate", "ToDate", "ValutaCode", "Seld"} {
		if v, ok := params[n]; ok {
			call += " " + v
		}
	}
	s.calls = append(s.calls, call)
	if s.down {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	switch op {
	case "GetCursOnDate":
		on, err := date(params["On_date"])
		if err != nil {
			fault(w, err.Error())
			return
		}
		s.cursOnDate(w, on)
	case "GetCursDynamic":
		from, err1 := date(params["FromDate"])
		to, err2 := date(params["ToDate"])
		if err1 != nil || err2 != nil {
			fault(w, "not a valid AllXsd value")
			return
		}
		s.cursDynamic(w, from, to, params["ValutaCode"])
	case "EnumValutes":
		enumValutes(w)
	case "KeyRate":
		from, err1 := date(params["fromDate"])
		to, err2 := date(params["ToDate"])
		if err1 != nil || err2 != nil {
			fault(w, "not a valid AllXsd value")
			return
		}
		s.keyRate(w, from, to)
	default:
		fault(w, "Server did not recognize the value of HTTP Header SOAPAction: "+soapNS+op+".")
	}
}

// cursOnDate answers with the publication in force on: the latest set on or before it, within
// a week (the service carries rates over weekends and holidays), or an empty table.
func (s *Server) cursOnDate(w io.Writer, on time.Time) {
	onDate, quotes := on, []Quote(nil)
	if !s.empty[key(on)] {
		for d := on; d.After(on.AddDate(0, 0, -7)); d = d.AddDate(0, 0, -1) {
			if q, ok := s.pubs[key(d)]; ok {
				onDate, quotes = d, q
				break
			}
		}
	}
	var rows strings.Builder
	for i, q := range quotes {
		c := directory[q.Code]
		fmt.Fprintf(&rows, `<ValuteCursOnDate diffgr:id="ValuteCursOnDate%d" msdata:rowOrder="%d"><Vname>%-40s</Vname><Vnom>%d</Vnom><Vcurs>%s</Vcurs><Vcode>%d</Vcode><VchCode>%s</VchCode><VunitRate>%s</VunitRate></ValuteCursOnDate>`,
			i+1, i, c.name, q.Nominal, q.Value, c.num, q.Code, unit(q))
	}
	schema := `<xs:schema id="ValuteData" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:msprop="urn:schemas-microsoft-com:xml-msprop"><xs:element name="ValuteData" msdata:IsDataSet="true" msdata:UseCurrentLocale="true" msprop:OnDate="` +
		onDate.Format("20060102") + `"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="ValuteCursOnDate"><xs:complexType><xs:sequence><xs:element name="Vname" type="xs:string" minOccurs="0" /><xs:element name="Vnom" type="xs:decimal" minOccurs="0" /><xs:element name="Vcurs" type="xs:decimal" minOccurs="0" /><xs:element name="Vcode" type="xs:int" minOccurs="0" /><xs:element name="VchCode" type="xs:string" minOccurs="0" /><xs:element name="VunitRate" type="xs:double" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>`
	respond(w, "GetCursOnDate", schema+diffgram(rows.String()))
}

// cursDynamic answers with the currency's rates set between from and to, ascending.
func (s *Server) cursDynamic(w io.Writer, from, to time.Time, id string) {
	code := ""
	for c, cur := range directory {
		if cur.id == strings.TrimSpace(id) {
			code = c
		}
	}
	var rows strings.Builder
	n := 0
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		for _, q := range s.pubs[key(d)] {
			if q.Code != code {
				continue
			}
			fmt.Fprintf(&rows, `<ValuteCursDynamic diffgr:id="ValuteCursDynamic%d" msdata:rowOrder="%d"><CursDate>%sT00:00:00+03:00</CursDate><Vcode>%-10s</Vcode><Vnom>%d</Vnom><Vcurs>%s</Vcurs><VunitRate>%s</VunitRate></ValuteCursDynamic>`,
				n+1, n, key(d), id, q.Nominal, q.Value, unit(q))
			n++
		}
	}
	schema := `<xs:schema id="ValuteData" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="ValuteData" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="ValuteCursDynamic"><xs:complexType><xs:sequence><xs:element name="CursDate" type="xs:dateTime" minOccurs="0" /><xs:element name="Vcode" type="xs:string" minOccurs="0" /><xs:element name="Vnom" type="xs:decimal" minOccurs="0" /><xs:element name="Vcurs" type="xs:decimal" minOccurs="0" /><xs:element name="VunitRate" type="xs:double" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>`
	respond(w, "GetCursDynamic", schema+diffgram(rows.String()))
}

// keyRate answers with the key rate in force on each day from from to to, newest first, as the
// service lists it.
func (s *Server) keyRate(w io.Writer, from, to time.Time) {
	var rows strings.Builder
	n := 0
	for d := to; !d.Before(from); d = d.AddDate(0, 0, -1) {
		rate := ""
		for _, k := range s.keys {
			if !k.from.After(d) {
				rate = k.rate
			}
		}
		if rate == "" {
			continue
		}
		fmt.Fprintf(&rows, `<KR diffgr:id="KR%d" msdata:rowOrder="%d"><DT>%sT00:00:00+03:00</DT><Rate>%s</Rate></KR>`, n+1, n, key(d), rate)
		n++
	}
	schema := `<xs:schema id="KeyRate" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="KeyRate" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="KR"><xs:complexType><xs:sequence><xs:element name="DT" type="xs:dateTime" minOccurs="0" /><xs:element name="Rate" type="xs:decimal" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>`
	body := `<diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1" />`
	if n > 0 {
		body = `<diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><KeyRate xmlns="">` + rows.String() + `</KeyRate></diffgr:diffgram>`
	}
	respond(w, "KeyRate", schema+body)
}

func enumValutes(w io.Writer) {
	codes := make([]string, 0, len(directory))
	for c := range directory {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	var rows strings.Builder
	for i, c := range codes {
		cur := directory[c]
		fmt.Fprintf(&rows, `<EnumValutes diffgr:id="EnumValutes%d" msdata:rowOrder="%d"><Vcode>%-10s</Vcode><Vname>%-60s</Vname><VEngname>%-60s</VEngname><Vnom>1</Vnom><VcommonCode>%-10s</VcommonCode><VnumCode>%d</VnumCode><VcharCode>%s</VcharCode></EnumValutes>`,
			i+1, i, cur.id, cur.name, c, cur.id, cur.num, c)
	}
	schema := `<xs:schema id="ValuteData" xmlns="" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="ValuteData" msdata:IsDataSet="true" msdata:UseCurrentLocale="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded"><xs:element name="EnumValutes"><xs:complexType><xs:sequence><xs:element name="Vcode" type="xs:string" minOccurs="0" /><xs:element name="Vname" type="xs:string" minOccurs="0" /><xs:element name="VEngname" type="xs:string" minOccurs="0" /><xs:element name="Vnom" type="xs:decimal" minOccurs="0" /><xs:element name="VcommonCode" type="xs:string" minOccurs="0" /><xs:element name="VnumCode" type="xs:int" minOccurs="0" /><xs:element name="VcharCode" type="xs:string" minOccurs="0" /></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>`
	respond(w, "EnumValutes", schema+diffgram(rows.String()))
}

// unit is VunitRate: the value over the nominal, as the service prints a double.
func unit(q Quote) string {
	if q.Nominal == 1 {
		return strings.TrimRight(strings.TrimRight(q.Value, "0"), ".")
	}
	var v float64
	fmt.Sscan(q.Value, &v)
	return fmt.Sprint(v / float64(q.Nominal))
}

func diffgram(rows string) string {
	if rows == "" {
		return `<diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1" />`
	}
	return `<diffgr:diffgram xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns:diffgr="urn:schemas-microsoft-com:xml-diffgram-v1"><ValuteData xmlns="">` + rows + `</ValuteData></diffgr:diffgram>`
}

func respond(w io.Writer, op, result string) {
	fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><%sResponse xmlns="http://web.cbr.ru/"><%sResult>%s</%sResult></%sResponse></soap:Body></soap:Envelope>`,
		op, op, result, op, op)
}

func fault(w http.ResponseWriter, msg string) {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(msg))
	w.Header().Set("Content-Type", "text/xml; charset=utf-8")
	w.WriteHeader(http.StatusInternalServerError)
	fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>%s</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`, b.String())
}

// readParams checks a SOAP 1.1 envelope whose body element is op in the service's namespace
// and returns its parameters.
func readParams(body []byte, op string) (map[string]string, error) {
	var env struct {
		XMLName xml.Name `xml:"http://schemas.xmlsoap.org/soap/envelope/ Envelope"`
		Body    struct {
			Op struct {
				XMLName xml.Name
				Params  []struct {
					XMLName xml.Name
					Value   string `xml:",chardata"`
				} `xml:",any"`
			} `xml:",any"`
		} `xml:"http://schemas.xmlsoap.org/soap/envelope/ Body"`
	}
	if err := xml.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	if env.Body.Op.XMLName != (xml.Name{Space: soapNS, Local: op}) {
		return nil, fmt.Errorf("body element %v, want %s in %s", env.Body.Op.XMLName, op, soapNS)
	}
	ps := map[string]string{}
	for _, p := range env.Body.Op.Params {
		if p.XMLName.Space != soapNS {
			return nil, fmt.Errorf("parameter %s in namespace %q", p.XMLName.Local, p.XMLName.Space)
		}
		ps[p.XMLName.Local] = strings.TrimSpace(p.Value)
	}
	return ps, nil
}

// date reads an xs:dateTime parameter as its Moscow date.
func date(v string) (time.Time, error) {
	if len(v) < 10 {
		return time.Time{}, fmt.Errorf("the string %q is not a valid AllXsd value", v)
	}
	t, err := time.ParseInLocation(time.DateOnly, v[:10], Moscow)
	if err != nil {
		return time.Time{}, fmt.Errorf("the string %q is not a valid AllXsd value", v)
	}
	return t, nil
}
