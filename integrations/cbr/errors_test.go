package cbr

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func isBadResponse(err error) bool { return errors.Is(err, ErrBadResponse) }

func TestDailyRatesErrors(t *testing.T) {
	truncated := fixture(t, "curs_on_date.xml")
	truncated = truncated[:len(truncated)/2]
	badNumber := bytes.Replace(fixture(t, "curs_on_date.xml"), []byte("<Vcurs>81.2475</Vcurs>"), []byte("<Vcurs>81.24.75</Vcurs>"), 1)
	fault200 := fixture(t, "fault_server.xml")

	tests := []struct {
		name        string
		status      int
		contentType string
		body        []byte
		wantFault   *FaultError // nil: not a fault
		unavailable bool        // errors.Is(err, ErrUnavailable)
		bad         bool        // errors.Is(err, ErrBadResponse)
		wantText    string      // in err.Error()
	}{
		{
			name: "soap:Client fault", status: 500, body: fixture(t, "fault_client.xml"),
			wantFault: &FaultError{HTTPStatus: 500, Code: "soap:Client", Message: "Server was unable to read request. ---> There is an error in XML document (6, 30). ---> The string '2026-13-45T00:00:00' is not a valid AllXsd value."},
		},
		{
			name: "soap:Server fault", status: 500, body: fixture(t, "fault_server.xml"), unavailable: true,
			wantFault: &FaultError{HTTPStatus: 500, Code: "soap:Server", Message: "Server was unable to process request. ---> Timeout expired.  The timeout period elapsed prior to completion of the operation or the server is not responding."},
		},
		{
			name: "SOAP 1.2 Receiver fault", status: 500, contentType: "application/soap+xml; charset=utf-8", body: fixture(t, "fault_soap12.xml"), unavailable: true,
			wantFault: &FaultError{HTTPStatus: 500, Code: "soap:Receiver", Message: "Server was unable to process request. ---> Object reference not set to an instance of an object."},
		},
		{
			name: "fault in a 200", status: 200, body: fault200, unavailable: true,
			wantFault: &FaultError{HTTPStatus: 200, Code: "soap:Server", Message: "Server was unable to process request. ---> Timeout expired.  The timeout period elapsed prior to completion of the operation or the server is not responding."},
		},
		{
			name: "400 with empty body", status: 400, body: nil,
			wantFault: &FaultError{HTTPStatus: 400, Message: "request rejected as malformed (empty body)"},
		},
		{name: "503 without fault", status: 503, contentType: "text/plain", body: []byte("Service Unavailable"), unavailable: true, wantText: "HTTP 503"},
		{name: "500 with garbage", status: 500, contentType: "text/plain", body: []byte("Runtime Error"), unavailable: true, wantText: "HTTP 500"},
		{name: "DDoS page as text/html", status: 200, contentType: "text/html; charset=utf-8", body: fixture(t, "ddos.html"), unavailable: true, wantText: "HTML page"},
		{name: "DDoS page as text/xml", status: 200, body: fixture(t, "ddos.html"), unavailable: true, wantText: "HTML page"},
		{name: "HTML 503", status: 503, contentType: "text/html", body: []byte("<html><body>Сервис временно недоступен</body></html>"), unavailable: true, wantText: "HTML page"},
		{name: "truncated XML", status: 200, body: truncated, bad: true},
		{name: "not XML", status: 200, body: []byte("OK"), bad: true},
		{name: "another operation's response", status: 200, body: fixture(t, "key_rate.xml"), bad: true, wantText: "no GetCursOnDateResponse"},
		{name: "bad number", status: 200, body: badNumber, bad: true, wantText: "Vcurs"},
		{name: "body over 10 MB", status: 200, body: append([]byte("<x>"), bytes.Repeat([]byte(" "), maxBodyBytes)...), bad: true, wantText: "exceeds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStandIn(t)
			s.setReply(func(w http.ResponseWriter, _ *http.Request, _ soapCall) bool {
				ct := tt.contentType
				if ct == "" {
					ct = "text/xml; charset=utf-8"
				}
				serveBytes(w, tt.status, ct, tt.body)
				return true
			})
			// The replies are immediate; a generous deadline keeps a 10 MB body under -race on
			// a loaded machine from turning into a timeout.
			c, _ := newTestClient(t, s, func(o *Options) { o.Timeout = time.Minute })
			got, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
			if err == nil {
				t.Fatalf("DailyRates = %+v, want an error", got)
			}
			if !strings.HasPrefix(err.Error(), "cbr: GetCursOnDate 2026-03-15: ") {
				t.Errorf("error %q does not name the operation", err)
			}
			var f *FaultError
			if isFault := errors.As(err, &f); isFault != (tt.wantFault != nil) {
				t.Errorf("errors.As(*FaultError) = %v, want %v (err: %v)", isFault, tt.wantFault != nil, err)
			} else if isFault && *f != *tt.wantFault {
				t.Errorf("fault = %#v, want %#v", *f, *tt.wantFault)
			}
			if got := errors.Is(err, ErrUnavailable); got != tt.unavailable {
				t.Errorf("errors.Is(ErrUnavailable) = %v, want %v (err: %v)", got, tt.unavailable, err)
			}
			if got := errors.Is(err, ErrBadResponse); got != tt.bad {
				t.Errorf("errors.Is(ErrBadResponse) = %v, want %v (err: %v)", got, tt.bad, err)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("error %q does not contain %q", err, tt.wantText)
			}
		})
	}
}

func TestBadDateGetsClientFault(t *testing.T) {
	// The stand-in answers an unparseable xs:dateTime as ASMX does; the client never sends
	// one, so drive the transport directly.
	s := newStandIn(t)
	c, _ := newTestClient(t, s)
	_, err := c.call(t.Context(), "KeyRate", param{"fromDate", "2026-13-45T00:00:00"}, param{"ToDate", "2026-03-15T00:00:00"})
	var f *FaultError
	if !errors.As(err, &f) || f.Code != "soap:Client" || !strings.Contains(f.Message, "AllXsd") {
		t.Fatalf("error = %v, want a soap:Client AllXsd fault", err)
	}
	if errors.Is(err, ErrUnavailable) {
		t.Error("a soap:Client fault matches ErrUnavailable")
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	var reached atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		reached.Add(1)
		serveFixture(w, http.StatusOK, "ddos.html")
	}))
	t.Cleanup(target.Close)
	s := newStandIn(t)
	s.setReply(func(w http.ResponseWriter, r *http.Request, _ soapCall) bool {
		http.Redirect(w, r, target.URL+"/captcha?back=/DailyInfoWebServ/DailyInfo.asmx", http.StatusFound)
		return true
	})
	c, _ := newTestClient(t, s)
	_, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "redirect") {
		t.Errorf("error = %v, want ErrUnavailable naming the redirect", err)
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("redirect target requested %d times, want 0", n)
	}
}

func TestSlowServiceTimesOut(t *testing.T) {
	s := newStandIn(t)
	s.setReply(func(_ http.ResponseWriter, r *http.Request, _ soapCall) bool {
		<-r.Context().Done() // never answers; returns when the client hangs up
		return true
	})
	c, _ := newTestClient(t, s, func(o *Options) { o.Timeout = 100 * time.Millisecond })
	start := time.Now()
	_, err := c.DailyRates(t.Context(), day(2026, time.March, 15))
	elapsed := time.Since(start)
	if !errors.Is(err, ErrUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want ErrUnavailable wrapping context.DeadlineExceeded", err)
	}
	if elapsed > 10*time.Second { // a hang detector (the stand-in never answers), generous for a loaded machine
		t.Errorf("DailyRates took %v with a 100ms Timeout", elapsed)
	}
}

func TestCallerCancelIsNotServedStale(t *testing.T) {
	s := newStandIn(t)
	c, clk := newTestClient(t, s)
	if _, err := c.DailyRates(t.Context(), day(2026, time.March, 15)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour) // today's entry is no longer fresh
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.DailyRates(ctx, day(2026, time.March, 15)); !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}

func TestFaultErrorIs(t *testing.T) {
	tests := []struct {
		f    FaultError
		want bool // errors.Is(f, ErrUnavailable)
	}{
		{FaultError{HTTPStatus: 500, Code: "soap:Server"}, true},
		{FaultError{HTTPStatus: 500, Code: "soap:Receiver"}, true},
		{FaultError{HTTPStatus: 500, Code: "soap:Client"}, false},
		{FaultError{HTTPStatus: 500, Code: "soap12:Sender"}, false},
		{FaultError{HTTPStatus: 500, Code: "Client.Authentication"}, false},
		{FaultError{HTTPStatus: 500, Code: "q0:SomethingElse"}, true},
		{FaultError{HTTPStatus: 400}, false},
	}
	for _, tt := range tests {
		if got := errors.Is(&tt.f, ErrUnavailable); got != tt.want {
			t.Errorf("errors.Is(%v, ErrUnavailable) = %v, want %v", &tt.f, got, tt.want)
		}
		if errors.Is(&tt.f, ErrBadResponse) {
			t.Errorf("errors.Is(%v, ErrBadResponse) = true", &tt.f)
		}
	}
}
