package cbr

import (
	"errors"
	"fmt"
	"strings"
)

// Errors callers may rely on, matched with errors.Is. The underlying error stays matchable too
// (context.DeadlineExceeded, for instance).
var (
	// ErrUnavailable means the service could not be reached or answered with something other
	// than SOAP: network errors, timeouts, 5xx without a SOAP fault, an HTML page (DDoS
	// protection), a redirect, or an open circuit breaker. A *FaultError for a server-side
	// fault matches it too.
	ErrUnavailable = errors.New("cbr: service unavailable")
	// ErrBadResponse means the service answered with XML that does not have the expected
	// shape, or with numbers or dates that do not parse, or with a body over the size limit.
	ErrBadResponse = errors.New("cbr: unexpected response")
	// ErrUnknownCurrency means the Bank of Russia does not quote the currency asked for.
	ErrUnknownCurrency = errors.New("cbr: currency not quoted")
)

// FaultError is a SOAP fault returned by the service (SOAP 1.1 faultcode/faultstring or
// SOAP 1.2 Code/Reason), or an HTTP 4xx that rejected our request without one.
//
// errors.Is(err, ErrUnavailable) is true for server-side faults (soap:Server, soap:Receiver,
// or an unrecognised code with a 5xx status) and false for client-side ones (soap:Client,
// soap:Sender, a bare 4xx): those mean our request was malformed, not that the service is down.
type FaultError struct {
	HTTPStatus int    // status of the response that carried the fault
	Code       string // faultcode as sent, e.g. "soap:Client"; empty for a bare 4xx
	Message    string // faultstring or the first Reason/Text
}

// Error describes the fault.
func (e *FaultError) Error() string {
	if e.Code == "" {
		return fmt.Sprintf("cbr: HTTP %d: %s", e.HTTPStatus, e.Message)
	}
	return fmt.Sprintf("cbr: SOAP fault %s (HTTP %d): %s", e.Code, e.HTTPStatus, e.Message)
}

// Is makes a server-side fault match ErrUnavailable.
func (e *FaultError) Is(target error) bool {
	return target == ErrUnavailable && !e.clientSide()
}

// clientSide reports whether the fault blames our request.
func (e *FaultError) clientSide() bool {
	switch faultKind(e.Code) {
	case "client", "sender":
		return true
	case "server", "receiver":
		return false
	}
	return e.HTTPStatus >= 400 && e.HTTPStatus < 500
}

// faultKind reduces a fault code such as "soap:Client.Authentication" to "client".
func faultKind(code string) string {
	code = strings.TrimSpace(code)
	if i := strings.LastIndexByte(code, ':'); i >= 0 {
		code = code[i+1:]
	}
	if i := strings.IndexByte(code, '.'); i >= 0 {
		code = code[:i]
	}
	return strings.ToLower(code)
}

// callerMistake reports whether err says only that our request was wrong, which is no
// evidence about the service's health, so the circuit breaker counts it as a success.
func callerMistake(err error) bool {
	var f *FaultError
	return errors.As(err, &f) && f.clientSide()
}
