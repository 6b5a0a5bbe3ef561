package cbr

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/sony/gobreaker/v2"
	"golang.org/x/text/encoding/htmlindex"
)

const (
	// soapNS is the namespace of every DailyInfo operation and its parameters.
	soapNS = "http://web.cbr.ru/"
	// maxBodyBytes bounds a response; the biggest real ones (a year of one currency's
	// rates) are well under 1 MB.
	maxBodyBytes = 10 << 20
	// wireDate is how dates go into requests: the Moscow Y-M-D at midnight, without a zone,
	// as xs:dateTime (.NET reads a zoneless value as local, i.e. Moscow, time).
	wireDate = "2006-01-02T00:00:00"
)

// param is one child of the operation element, in WSDL order.
type param struct{ name, value string }

// call runs one SOAP operation through the circuit breaker and returns the response body,
// in UTF-8, of a 2xx response.
func (c *Client) call(ctx context.Context, op string, params ...param) ([]byte, error) {
	body, err := c.cb.Execute(func() ([]byte, error) { return c.post(ctx, op, params) })
	if errors.Is(err, gobreaker.ErrOpenState) || errors.Is(err, gobreaker.ErrTooManyRequests) {
		return nil, fmt.Errorf("%w: circuit breaker: %w", ErrUnavailable, err)
	}
	return body, err
}

// post sends one SOAP 1.1 request and classifies what comes back. Every error it returns
// matches ErrUnavailable or ErrBadResponse, or is a *FaultError.
func (c *Client) post(ctx context.Context, op string, params []param) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL, bytes.NewReader(requestEnvelope(op, params)))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"`+soapNS+op+`"`)
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "text/xml")

	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	defer resp.Body.Close()

	// The HTTP client never follows redirects: the site sends them to captcha and DDoS
	// protection pages, never to another SOAP endpoint.
	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, fmt.Errorf("%w: HTTP %d redirect to %q (captcha or DDoS protection page?)",
			ErrUnavailable, resp.StatusCode, resp.Header.Get("Location"))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBodyBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%w: read response: %w", ErrUnavailable, err)
	}
	if len(body) > maxBodyBytes {
		return nil, fmt.Errorf("%w: response body exceeds %d bytes", ErrBadResponse, maxBodyBytes)
	}
	contentType := resp.Header.Get("Content-Type")
	if isHTML(contentType, body) {
		return nil, fmt.Errorf("%w: HTTP %d with an HTML page instead of SOAP XML (DDoS protection or maintenance page?)",
			ErrUnavailable, resp.StatusCode)
	}
	body = toUTF8(contentType, body)

	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return body, nil // a fault in a 200 is caught by the parsers
	}
	if f := parseFault(body, resp.StatusCode); f != nil {
		return nil, f
	}
	switch resp.StatusCode {
	case http.StatusBadRequest, http.StatusUnsupportedMediaType:
		// ASMX answers a request it cannot read at all with a bare 400.
		return nil, &FaultError{HTTPStatus: resp.StatusCode, Message: "request rejected as malformed" + excerpt(body)}
	}
	return nil, fmt.Errorf("%w: HTTP %d without a SOAP fault%s", ErrUnavailable, resp.StatusCode, excerpt(body))
}

// requestEnvelope builds the SOAP 1.1 envelope for op, as public clients of the service send it.
func requestEnvelope(op string, params []param) []byte {
	var b bytes.Buffer
	b.Grow(400)
	b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n" +
		`<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">` + "\n" +
		"  <soap:Body>\n    <" + op + ` xmlns="` + soapNS + `">` + "\n")
	for _, p := range params {
		b.WriteString("      <" + p.name + ">")
		_ = xml.EscapeText(&b, []byte(p.value)) // a bytes.Buffer never fails
		b.WriteString("</" + p.name + ">\n")
	}
	b.WriteString("    </" + op + ">\n  </soap:Body>\n</soap:Envelope>\n")
	return b.Bytes()
}

var utf8BOM = []byte("\xef\xbb\xbf")

// isHTML reports whether a response is a web page (DDoS protection, captcha, maintenance)
// rather than XML.
func isHTML(contentType string, body []byte) bool {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil && (mt == "text/html" || mt == "application/xhtml+xml") {
		return true
	}
	head := bytes.TrimLeft(bytes.TrimPrefix(body, utf8BOM), " \t\r\n")
	if len(head) > 64 {
		head = head[:64]
	}
	head = bytes.ToLower(head)
	return bytes.HasPrefix(head, []byte("<!doctype html")) || bytes.HasPrefix(head, []byte("<html"))
}

// toUTF8 transcodes a body whose Content-Type names a non-UTF-8 charset that the XML itself
// does not declare; a declared encoding is left to the decoder's CharsetReader.
func toUTF8(contentType string, body []byte) []byte {
	_, ps, err := mime.ParseMediaType(contentType)
	if err != nil {
		return body
	}
	label := strings.ToLower(strings.TrimSpace(ps["charset"]))
	if label == "" || label == "utf-8" || label == "utf8" || declaresEncoding(body) {
		return body
	}
	enc, err := htmlindex.Get(label)
	if err != nil {
		return body // unknown label: let the XML decoder report what it finds
	}
	out, err := enc.NewDecoder().Bytes(body)
	if err != nil {
		return body
	}
	return out
}

// declaresEncoding reports whether body starts with an XML declaration carrying encoding="…".
func declaresEncoding(body []byte) bool {
	body = bytes.TrimLeft(bytes.TrimPrefix(body, utf8BOM), " \t\r\n")
	if !bytes.HasPrefix(body, []byte("<?xml")) {
		return false
	}
	end := bytes.Index(body, []byte("?>"))
	return end > 0 && bytes.Contains(body[:end], []byte("encoding"))
}

// charsetReader lets encoding/xml read bodies declared as windows-1251 (and other legacy
// charsets). The decoder handles UTF-8 itself and never asks for it.
func charsetReader(label string, input io.Reader) (io.Reader, error) {
	enc, err := htmlindex.Get(label)
	if err != nil {
		return nil, fmt.Errorf("unsupported charset %q", label)
	}
	return enc.NewDecoder().Reader(input), nil
}

// excerpt quotes the start of a body for an error message.
func excerpt(body []byte) string {
	s := strings.TrimSpace(string(bytes.TrimPrefix(body, utf8BOM)))
	if s == "" {
		return " (empty body)"
	}
	const limit = 200
	if len(s) > limit {
		s = s[:limit]
		for !utf8.ValidString(s) && len(s) > 0 {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return fmt.Sprintf(": %q", s)
}
