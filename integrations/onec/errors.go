package onec

import "errors"

// Errors callers may rely on (match with errors.Is). The Proxy wraps every transport failure in
// one of them; the Demo returns ErrRejected for a request the real proxy would refuse too.
// Execute adds the operation: "onec: execute <query id>: 1C unavailable: HTTP 502: …".
var (
	// ErrUnavailable means 1C could not be reached: a network error, a timeout, a 5xx, a
	// connection reset in the middle of the answer, the proxy waiting in vain for the 1C
	// processing, or an open breaker.
	ErrUnavailable = errors.New("1C unavailable")
	// ErrBadResponse means the proxy answered, but not with a usable result: not JSON (an HTML
	// page), a body over 32 MB, or data encoded as a TOON string instead of a JSON array (set
	// RESPONSE_FORMAT=json on the proxy).
	ErrBadResponse = errors.New("bad response from the 1C proxy")
	// ErrUnauthorized means the proxy refused the Bearer token (HTTP 401 or 403).
	ErrUnauthorized = errors.New("unauthorized by the 1C proxy")
	// ErrRejected means the proxy refused our request as malformed (HTTP 400, 415 or 422): an
	// empty query, a limit outside 1..1000 and the like. It is a bug on our side, not an outage.
	ErrRejected = errors.New("request rejected")
)

// QueryError is an error of the 1C query itself, reported by 1C with HTTP 200 and
// {"success": false, "error": …}: a syntax error, a parameter that is not set, incompatible
// types. The Demo returns the same type for the same mistakes.
type QueryError struct {
	// Message is 1C's own description (ОписаниеОшибки()), e.g. "{(1, 1)}: Синтаксическая ошибка …".
	Message string
}

func (e *QueryError) Error() string { return "1C query error: " + e.Message }
