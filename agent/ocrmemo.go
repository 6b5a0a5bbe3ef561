package agent

import (
	"context"
	"crypto/sha256"
	"sync"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/library/ocr"
)

// ocrMemo keeps the last few recognitions by the file's hash: an upload's photo is recognised
// once, for the documents (its text) and for the comparison of an act (its words' boxes).
type ocrMemo struct {
	next documents.Recognizer
	mu   sync.Mutex
	keep []memoEntry // the newest last, at most memoSize
}

const memoSize = 4

type memoEntry struct {
	key   [32]byte
	pdf   bool
	pages []ocr.Page
	more  bool
}

var _ documents.Recognizer = (*ocrMemo)(nil)

func (m *ocrMemo) find(key [32]byte, pdf bool) (memoEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.keep {
		if e.key == key && e.pdf == pdf {
			return e, true
		}
	}
	return memoEntry{}, false
}

func (m *ocrMemo) put(e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.keep) == memoSize {
		m.keep = append(m.keep[:0], m.keep[1:]...)
	}
	m.keep = append(m.keep, e)
}

func (m *ocrMemo) Image(ctx context.Context, data []byte) (ocr.Page, error) {
	key := sha256.Sum256(data)
	if e, ok := m.find(key, false); ok {
		return e.pages[0], nil
	}
	p, err := m.next.Image(ctx, data)
	if err == nil {
		m.put(memoEntry{key: key, pages: []ocr.Page{p}})
	}
	return p, err
}

func (m *ocrMemo) PDF(ctx context.Context, data []byte) ([]ocr.Page, bool, error) {
	key := sha256.Sum256(data)
	if e, ok := m.find(key, true); ok {
		return e.pages, e.more, nil
	}
	ps, more, err := m.next.PDF(ctx, data)
	if err == nil {
		m.put(memoEntry{key: key, pdf: true, pages: ps, more: more})
	}
	return ps, more, err
}
