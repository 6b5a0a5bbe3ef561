package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrNoJSON means the model's reply holds no JSON object.
var ErrNoJSON = errors.New("plan: no JSON object in the reply")

// Decode parses the model's reply into a plan. It tolerates a code fence or prose around the
// object: the object starts at the first "{" and anything after its closing brace is ignored.
// The object must match QueryPlan exactly: unknown fields are an error at every level (tool args
// are raw here and are checked by Validate).
func Decode(raw string) (QueryPlan, error) {
	i := strings.IndexByte(raw, '{')
	if i < 0 {
		return QueryPlan{}, ErrNoJSON
	}
	// Take the object as raw JSON first, so that a syntax error is reported as such rather than
	// as a field mismatch, and so that trailing prose is never read.
	var obj json.RawMessage
	if err := json.NewDecoder(strings.NewReader(raw[i:])).Decode(&obj); err != nil {
		return QueryPlan{}, fmt.Errorf("%w: %w", ErrNoJSON, err)
	}
	var p QueryPlan
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return QueryPlan{}, fmt.Errorf("plan: decode: %w", err)
	}
	return p, nil
}
