package docstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// maxTxnAttempts bounds the retries of an optimistic transaction that keeps
// losing to concurrent writers of the same owner.
const maxTxnAttempts = 100

// Redis keeps documents in Redis; the package comment describes the key
// layout. It is safe for concurrent use and across processes sharing the
// same Redis. Give the client ContextTimeoutEnabled so that deadlines reach
// Redis.
type Redis struct {
	rdb    redis.UniversalClient
	prefix string
}

// NewRedis returns a store backed by rdb. Every key it touches starts with
// prefix, which must not contain '{' or '}'.
func NewRedis(rdb redis.UniversalClient, prefix string) *Redis {
	return &Redis{rdb: rdb, prefix: prefix}
}

// ownerKeys builds the keys of one owner.
type ownerKeys struct{ base string }

func (r *Redis) keys(owner string) ownerKeys {
	return ownerKeys{base: r.prefix + "docs:{" + owner + "}:"}
}

func (k ownerKeys) meta() string               { return k.base + "meta" }
func (k ownerKeys) chunks(id string) string    { return k.base + "chunks:" + id }
func (k ownerKeys) vec(id string) string       { return k.base + "vec:" + id }
func (k ownerKeys) text(id string) string      { return k.base + "text:" + id }
func (k ownerKeys) ver() string                { return k.base + "ver" }
func (k ownerKeys) epoch() string              { return k.base + "epoch" }
func (k ownerKeys) sel(selector int64) string  { return k.selOf(strconv.FormatInt(selector, 10)) }
func (k ownerKeys) selOf(member string) string { return k.base + "sel:" + member } // member of sels
func (k ownerKeys) sels() string               { return k.base + "sels" }
func (k ownerKeys) rcpt() string               { return k.base + "rcpt" }
func (k ownerKeys) sha() string                { return k.base + "sha" }

// docKeys returns the content keys of document id.
func (k ownerKeys) docKeys(id string) []string {
	return []string{k.chunks(id), k.vec(id), k.text(id)}
}

// txn runs fn as an optimistic transaction watching keys, retrying while a
// concurrent writer invalidates it.
func (r *Redis) txn(ctx context.Context, fn func(*redis.Tx) error, keys ...string) error {
	for attempt := range maxTxnAttempts {
		err := r.rdb.Watch(ctx, fn, keys...)
		if !errors.Is(err, redis.TxFailedErr) {
			return err
		}
		// Back off a little, with jitter, so that contending writers spread out.
		backoff := time.Duration(rand.Int64N(int64(min(attempt+1, 10)) * int64(time.Millisecond)))
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return fmt.Errorf("gave up after %d attempts: %w", maxTxnAttempts, redis.TxFailedErr)
}

// writeDoc queues the writes that store e.
func writeDoc(ctx context.Context, p redis.Pipeliner, k ownerKeys, e encoded) {
	id := e.meta.ID
	p.HSet(ctx, k.meta(), id, e.metaJSON)
	p.Set(ctx, k.chunks(id), e.chunks, 0)
	if e.vec != nil {
		p.Set(ctx, k.vec(id), e.vec, 0)
	} else {
		p.Del(ctx, k.vec(id))
	}
	if e.text != "" {
		p.Set(ctx, k.text(id), e.text, 0)
	} else {
		p.Del(ctx, k.text(id))
	}
}

// shaFix is a pending change of one SHA-256 index entry.
type shaFix struct {
	sha, id string // id == "": remove the entry
}

func (f *shaFix) queue(ctx context.Context, p redis.Pipeliner, k ownerKeys) {
	switch {
	case f == nil:
	case f.id == "":
		p.HDel(ctx, k.sha(), f.sha)
	default:
		p.HSet(ctx, k.sha(), f.sha, f.id)
	}
}

// unindexSHA returns the change of the SHA-256 index needed once document
// gone no longer has hash sha, or nil when the index does not point to it.
// metas, if not nil, is the owner's meta hash; it is read when needed.
func unindexSHA(ctx context.Context, tx *redis.Tx, k ownerKeys, sha, gone string, metas map[string]string) (*shaFix, error) {
	if sha == "" {
		return nil, nil
	}
	cur, err := tx.HGet(ctx, k.sha(), sha).Result()
	if errors.Is(err, redis.Nil) || (err == nil && cur != gone) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if metas == nil {
		if metas, err = tx.HGetAll(ctx, k.meta()).Result(); err != nil {
			return nil, err
		}
	}
	var ms []Meta
	for _, raw := range metas {
		if m, err := decodeMeta([]byte(raw)); err == nil { // a corrupt meta cannot be a successor
			ms = append(ms, m)
		}
	}
	next, _ := shaSuccessor(ms, sha, gone)
	return &shaFix{sha: sha, id: next}, nil
}

// Put stores d under owner, replacing any document with the same ID, and
// bumps the owner's version, in one transaction.
func (r *Redis) Put(ctx context.Context, owner string, d Doc) error {
	if err := checkOwner(owner); err != nil {
		return err
	}
	e, err := encode(d)
	if err != nil {
		return err
	}
	k, id := r.keys(owner), e.meta.ID
	err = r.txn(ctx, func(tx *redis.Tx) error {
		var fix *shaFix
		raw, err := tx.HGet(ctx, k.meta(), id).Result()
		switch {
		case errors.Is(err, redis.Nil):
		case err != nil:
			return err
		default:
			// A corrupt old meta is simply overwritten.
			if old, err := decodeMeta([]byte(raw)); err == nil && old.SHA256 != e.meta.SHA256 {
				if fix, err = unindexSHA(ctx, tx, k, old.SHA256, id, nil); err != nil {
					return err
				}
			}
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			writeDoc(ctx, p, k, e)
			fix.queue(ctx, p, k)
			if e.meta.SHA256 != "" {
				p.HSet(ctx, k.sha(), e.meta.SHA256, id)
			}
			p.Incr(ctx, k.ver())
			return nil
		})
		return err
	}, k.meta(), k.sha())
	if err != nil {
		return wrapErr(err, "put %q/%q", owner, id)
	}
	return nil
}

// Delete removes owner's document id with its content, unselects it and
// drops its receipts, and bumps the owner's version, in one transaction. It
// returns ErrNotFound when there is no such document.
func (r *Redis) Delete(ctx context.Context, owner, id string) error {
	if err := checkIDs(owner, []string{id}); err != nil {
		return err
	}
	k := r.keys(owner)
	err := r.txn(ctx, func(tx *redis.Tx) error {
		var (
			metas    *redis.MapStringStringCmd
			sels     *redis.StringSliceCmd
			receipts *redis.MapStringStringCmd
		)
		if _, err := tx.Pipelined(ctx, func(p redis.Pipeliner) error {
			metas = p.HGetAll(ctx, k.meta())
			sels = p.SMembers(ctx, k.sels())
			receipts = p.HGetAll(ctx, k.rcpt())
			return nil
		}); err != nil {
			return err
		}
		raw, ok := metas.Val()[id]
		if !ok {
			return notFound(owner, id)
		}
		var fix *shaFix
		if m, err := decodeMeta([]byte(raw)); err == nil {
			if fix, err = unindexSHA(ctx, tx, k, m.SHA256, id, metas.Val()); err != nil {
				return err
			}
		}
		var drop []string
		for field, v := range receipts.Val() {
			if v == id {
				drop = append(drop, field)
			}
		}
		_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HDel(ctx, k.meta(), id)
			p.Del(ctx, k.docKeys(id)...)
			fix.queue(ctx, p, k)
			for _, s := range sels.Val() {
				p.SRem(ctx, k.selOf(s), id)
			}
			if len(drop) > 0 {
				p.HDel(ctx, k.rcpt(), drop...)
			}
			p.Incr(ctx, k.ver())
			return nil
		})
		return err
	}, k.meta(), k.sels(), k.rcpt(), k.sha())
	if err != nil {
		return wrapErr(err, "delete %q/%q", owner, id)
	}
	return nil
}

// Replace makes owner's documents exactly docs and bumps the owner's
// version, in one transaction. Selections and receipts are left alone.
func (r *Redis) Replace(ctx context.Context, owner string, docs []Doc) error {
	if err := checkOwner(owner); err != nil {
		return err
	}
	es, err := encodeAll(docs)
	if err != nil {
		return err
	}
	k := r.keys(owner)
	sha := shaIndex(es)
	err = r.txn(ctx, func(tx *redis.Tx) error {
		old, err := tx.HKeys(ctx, k.meta()).Result()
		if err != nil {
			return err
		}
		_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
			gone := []string{k.meta(), k.sha()}
			for _, id := range old {
				gone = append(gone, k.docKeys(id)...)
			}
			p.Del(ctx, gone...)
			for _, e := range es {
				writeDoc(ctx, p, k, e)
			}
			if len(sha) > 0 {
				p.HSet(ctx, k.sha(), sha)
			}
			p.Incr(ctx, k.ver())
			return nil
		})
		return err
	}, k.meta())
	if err != nil {
		return wrapErr(err, "replace %q", owner)
	}
	return nil
}
