package ledger

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/base32"
	"encoding/gob"
	"fmt"
	"io"
	"strings"

	"github.com/finbot/finbot/agent/ledger/runner"
)

// The result a reply's choice and export buttons are bound to is kept under a short random id
// (the agent's store, scoped to the chat), encoded by Encode.

// idLen is the length of a result id: 12 base32 characters, 60 random bits.
const idLen = 12

// idAlphabet is lower-case base32 (RFC 4648's letters and 2–7).
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

var idEncoding = base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding)

// NewID is a fresh result id.
func NewID() string {
	var b [8]byte
	rand.Read(b[:]) // never fails (crypto/rand panics instead)
	return idEncoding.EncodeToString(b[:])[:idLen]
}

// ValidID reports whether id has the form NewID gives, so that nothing else (forged callback
// data) reaches the store as a key.
func ValidID(id string) bool {
	if len(id) != idLen {
		return false
	}
	for _, r := range id {
		if !strings.ContainsRune(idAlphabet, r) {
			return false
		}
	}
	return true
}

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
