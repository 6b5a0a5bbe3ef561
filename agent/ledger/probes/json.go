package probes

import (
	"bytes"
	"encoding/json"
)

// emptyIfNil returns s, or an empty non-nil slice when s is nil, so that the
// field serialises as [], never as null.
func emptyIfNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// marshalNoHTMLEscape encodes v without escaping <, > and &. The encoder that
// called MarshalJSON applies its own escaping to the result, so json.Marshal
// still escapes them while an Encoder with SetEscapeHTML(false) writes them
// as JSON.stringify does.
func marshalNoHTMLEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// MarshalJSON writes the plan with every list as a JSON array ([] when empty
// or nil), keeping the contract's shape for hand-built plans too.
func (p Plan) MarshalJSON() ([]byte, error) {
	type plain Plan // drops the method set, so no recursion
	q := plain(p)
	q.AllowedPrimitives = emptyIfNil(q.AllowedPrimitives)
	q.RejectedPrimitives = emptyIfNil(q.RejectedPrimitives)
	q.RequiredAxes = emptyIfNil(q.RequiredAxes)
	q.ClarificationGaps = emptyIfNil(q.ClarificationGaps)
	q.ReasonCodes = emptyIfNil(q.ReasonCodes)
	return marshalNoHTMLEscape(q)
}

// MarshalJSON writes the evidence with every list as a JSON array ([] when
// empty or nil), keeping the contract's shape.
func (e Evidence) MarshalJSON() ([]byte, error) {
	type plain Evidence // drops the method set, so no recursion
	q := plain(e)
	q.ConfirmedFacts = emptyIfNil(q.ConfirmedFacts)
	q.InferredFacts = emptyIfNil(q.InferredFacts)
	q.UnknownFacts = emptyIfNil(q.UnknownFacts)
	q.QueryLimitations = emptyIfNil(q.QueryLimitations)
	q.ReasonCodes = emptyIfNil(q.ReasonCodes)
	return marshalNoHTMLEscape(q)
}
