package ledger

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"io"

	"github.com/finbot/finbot/agent/ledger/runner"
)

// The result a reply's choice and export buttons are bound to is kept under a short random id
// (the agent's store, scoped to the chat), encoded by Encode.

// stored is what is kept of a result: all of it but the debug payload, which the buttons never
// show. (gob, not JSON: the result's JSON is the unified result schema and leaves out what an
// export needs — every row, the dates, the candidates.)
type stored struct {
	Result runner.Result
}

// maxStored bounds what Decode inflates, against a corrupt or hostile entry.
const maxStored = 64 << 20

// Encode is res as the store keeps it: gob, gzipped (a thousand rows of 1C come to tens of
// kilobytes).
func Encode(res runner.Result) ([]byte, error) {
	res.Debug = runner.Debug{}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if err := gob.NewEncoder(zw).Encode(stored{Result: res}); err != nil {
		return nil, fmt.Errorf("ledger: encode result: %w", err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("ledger: encode result: %w", err)
	}
	return buf.Bytes(), nil
}

// Decode is the result Encode encoded.
func Decode(data []byte) (runner.Result, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return runner.Result{}, fmt.Errorf("ledger: decode result: %w", err)
	}
	var s stored
	if err := gob.NewDecoder(io.LimitReader(zr, maxStored)).Decode(&s); err != nil {
		return runner.Result{}, fmt.Errorf("ledger: decode result: %w", err)
	}
	return s.Result, nil
}
