// Package buttons keeps, for a while, what the buttons of an answer stand for, under short
// random ids in a chat's scope: a question too long for Telegram's 64 bytes of callback data,
// and (for the 1C skill) the result a choice or export button is bound to.
package buttons

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/skill"
)

// Store keeps data under keys built in a chat's scope. *history.RedisResults and
// *history.MemoryResults satisfy it.
type Store interface {
	Put(ctx context.Context, key string, data []byte) error
	// Get's ok is false when nothing is kept under key (never, or no longer).
	Get(ctx context.Context, key string) (data []byte, ok bool, err error)
}

// idLen is the length of an id: 12 base32 characters, 60 random bits.
const idLen = 12

// idAlphabet is lower-case base32 (RFC 4648's letters and 2–7).
const idAlphabet = "abcdefghijklmnopqrstuvwxyz234567"

var idEncoding = base32.NewEncoding(idAlphabet).WithPadding(base32.NoPadding)

// NewID is a fresh id.
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

// TextPrefix marks the callback data of a button that asks a question too long for Telegram's
// 64 bytes of callback data («Документы ООО «Северсталь-Логистик» за прошлый месяц»): the data
// is "t:<id>", the question is kept in the chat's scope.
const TextPrefix = "t:"

// maxCallbackData is Telegram's limit on a button's callback data, in bytes.
const maxCallbackData = 64

// Long keeps the questions of a chat's long buttons.
type Long struct {
	Store   Store
	Timeout time.Duration // bounds each store call
}

// Bind gives every question button whose text does not fit the callback data (the front end
// sends "q:<text>") a kept question instead; when the store fails, such a button is left out,
// as the front end would have dropped it, and lost is true.
func (l Long) Bind(ctx context.Context, chatID int64, bs []skill.Button) (kept []skill.Button, lost bool, err error) {
	kept = bs[:0]
	for _, b := range bs {
		if b.Data != "" || len("q:"+b.Text) <= maxCallbackData {
			kept = append(kept, b)
			continue
		}
		id := NewID()
		sctx, cancel := context.WithTimeout(ctx, l.Timeout)
		perr := l.Store.Put(sctx, textKey(chatID, id), []byte(b.Text))
		cancel()
		if perr != nil {
			lost, err = true, perr
			continue
		}
		b.Data = TextPrefix + id
		kept = append(kept, b)
	}
	return kept, lost, err
}

// Question is the question a long button asks; false when it is no longer kept (or was kept
// in another chat). A store that fails is skill.ErrUnavailable.
func (l Long) Question(ctx context.Context, chatID int64, id string) (string, bool, error) {
	if !ValidID(id) {
		return "", false, nil
	}
	sctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	data, ok, err := l.Store.Get(sctx, textKey(chatID, id))
	if err != nil {
		if ctx.Err() != nil {
			return "", false, ctx.Err()
		}
		return "", false, skill.Unavailable("button question", err)
	}
	return string(data), ok, nil
}

// textKey is a long button's store key, in the chat's scope.
func textKey(chatID int64, id string) string { return fmt.Sprintf("chat:%d:q:%s", chatID, id) }
