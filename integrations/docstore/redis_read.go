package docstore

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/redis/go-redis/v9"
)

// List returns the metadata of owner's documents sorted by Added, then ID.
func (r *Redis) List(ctx context.Context, owner string) ([]Meta, error) {
	if err := checkOwner(owner); err != nil {
		return nil, err
	}
	all, err := r.rdb.HGetAll(ctx, r.keys(owner).meta()).Result()
	if err != nil {
		return nil, wrapErr(err, "list %q", owner)
	}
	ms := make([]Meta, 0, len(all))
	for _, raw := range all {
		m, err := decodeMeta([]byte(raw))
		if err != nil {
			return nil, wrapErr(err, "list %q", owner)
		}
		ms = append(ms, m)
	}
	return sortMetas(ms), nil
}

// Get returns the metadata of owner's document id, or ErrNotFound.
func (r *Redis) Get(ctx context.Context, owner, id string) (Meta, error) {
	if err := checkIDs(owner, []string{id}); err != nil {
		return Meta{}, err
	}
	raw, err := r.rdb.HGet(ctx, r.keys(owner).meta(), id).Result()
	if errors.Is(err, redis.Nil) {
		return Meta{}, notFound(owner, id)
	}
	if err != nil {
		return Meta{}, wrapErr(err, "get %q/%q", owner, id)
	}
	m, err := decodeMeta([]byte(raw))
	if err != nil {
		return Meta{}, wrapErr(err, "get %q/%q", owner, id)
	}
	return m, nil
}

// Load returns owner's documents with the given ids (all of them when ids
// is nil) with their chunks, vectors and text, in List order. Unknown ids
// are skipped. Metadata and content are read in one MULTI/EXEC, so every
// document is returned as one Put or Replace left it.
func (r *Redis) Load(ctx context.Context, owner string, ids []string) ([]Doc, error) {
	return r.load(ctx, owner, ids, true)
}

// LoadChunks is Load without the documents' full text and vectors (Doc.Text and Doc.Vectors
// are empty; Meta.Dims still says whether there are vectors): what a search index is built
// from, read without the largest parts of each document. EachVector reads the vectors.
func (r *Redis) LoadChunks(ctx context.Context, owner string, ids []string) ([]Doc, error) {
	return r.load(ctx, owner, ids, false)
}

// load reads documents; full: with their text and vectors.
func (r *Redis) load(ctx context.Context, owner string, ids []string, full bool) ([]Doc, error) {
	if err := checkIDs(owner, ids); err != nil {
		return nil, err
	}
	k := r.keys(owner)
	if ids == nil {
		all, err := r.rdb.HKeys(ctx, k.meta()).Result()
		if err != nil {
			return nil, wrapErr(err, "load %q", owner)
		}
		ids = all
	} else {
		ids = uniq(ids)
	}
	if len(ids) == 0 {
		return []Doc{}, nil
	}
	type content struct{ chunks, vec, text *redis.StringCmd }
	var metas *redis.SliceCmd
	cmds := make([]content, len(ids))
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		metas = p.HMGet(ctx, k.meta(), ids...)
		for i, id := range ids {
			cmds[i].chunks = p.Get(ctx, k.chunks(id))
			if full {
				cmds[i].vec, cmds[i].text = p.Get(ctx, k.vec(id)), p.Get(ctx, k.text(id))
			}
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) { // Nil: some key is absent, see below
		return nil, wrapErr(err, "load %q", owner)
	}
	docs := make([]Doc, 0, len(ids))
	for i, v := range metas.Val() {
		raw, ok := v.(string)
		if !ok {
			continue // unknown id
		}
		c := cmds[i]
		text, vec := "", ""
		for _, cmd := range []*redis.StringCmd{c.chunks, c.vec, c.text} {
			if cmd == nil {
				continue
			}
			if err := cmd.Err(); err != nil && !errors.Is(err, redis.Nil) {
				return nil, wrapErr(err, "load %q/%q", owner, ids[i])
			}
		}
		if errors.Is(c.chunks.Err(), redis.Nil) {
			return nil, fmt.Errorf("docstore: load %q/%q: %w: chunks missing", owner, ids[i], errCorrupt)
		}
		if full {
			text, vec = c.text.Val(), c.vec.Val() // used without a copy
		}
		// The vectors are decoded from the reply in place; the chunks' JSON needs bytes.
		d, err := decodeDoc([]byte(raw), []byte(c.chunks.Val()), vec, text, full)
		if err != nil {
			return nil, wrapErr(err, "load %q/%q", owner, ids[i])
		}
		docs = append(docs, d)
	}
	sortDocs(docs)
	return docs, nil
}

// vectorPiece is how many bytes of vectors EachVector reads at a time.
const vectorPiece = 1 << 20

// EachVector calls fn with each vector of owner's document m (as Load or LoadChunks returned
// its metadata: m.Chunks vectors of m.Dims), in chunk order, reading them a piece at a time,
// so that a large document's vectors are never all in memory at once. v is reused between
// calls: fn copies what it keeps. A document without vectors makes no call. When the stored
// vectors no longer match m (the document was deleted, or replaced by one with other vectors
// meanwhile) it returns ErrChanged.
func (r *Redis) EachVector(ctx context.Context, owner string, m Meta, fn func(i int, v []float32)) error {
	if err := checkIDs(owner, []string{m.ID}); err != nil {
		return err
	}
	if m.Dims <= 0 || m.Chunks <= 0 {
		return nil
	}
	key, size := r.keys(owner).vec(m.ID), m.Dims*4
	per := max(1, vectorPiece/size)
	v := make([]float32, m.Dims)
	for start := 0; start < m.Chunks; start += per {
		n := min(per, m.Chunks-start)
		var total *redis.IntCmd
		var got *redis.StringCmd
		_, err := r.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
			total = p.StrLen(ctx, key)
			got = p.GetRange(ctx, key, int64(start*size), int64((start+n)*size-1))
			return nil
		})
		if err != nil {
			return wrapErr(err, "vectors %q/%q", owner, m.ID)
		}
		piece := got.Val()
		if total.Val() != int64(m.Chunks*size) || len(piece) != n*size {
			return fmt.Errorf("%w: vectors of %q/%q: %d bytes, want %d", ErrChanged, owner, m.ID, total.Val(), m.Chunks*size)
		}
		for j := range n {
			decodeVector(piece[j*size:(j+1)*size], v)
			fn(start+j, v)
		}
	}
	return nil
}

// FindSHA returns the metadata of an owner's document whose original file
// has the given SHA-256, or ErrNotFound.
func (r *Redis) FindSHA(ctx context.Context, owner, sha string) (Meta, error) {
	if err := checkOwner(owner); err != nil {
		return Meta{}, err
	}
	errNotFound := fmt.Errorf("%w: no document with sha256 %q in %q", ErrNotFound, sha, owner)
	if sha == "" {
		return Meta{}, errNotFound
	}
	id, err := r.rdb.HGet(ctx, r.keys(owner).sha(), sha).Result()
	if errors.Is(err, redis.Nil) {
		return Meta{}, errNotFound
	}
	if err != nil {
		return Meta{}, wrapErr(err, "find sha %q", owner)
	}
	m, err := r.Get(ctx, owner, id)
	if errors.Is(err, ErrNotFound) || (err == nil && m.SHA256 != sha) {
		return Meta{}, errNotFound // a stale index entry; should not happen
	}
	if err != nil {
		return Meta{}, wrapErr(err, "find sha %q", owner) // Get's error names the id, not the hash
	}
	return m, nil
}

// Version returns a number that changes on every Put, Delete and Replace
// of owner; it is 0 when nothing was ever stored. It also changes when Redis lost the owner's data (a restart
// without persistence, FLUSHDB): the counter alone would start again at the
// numbers it had before, and an index built from the lost documents would
// be taken as current. So the counter is read with the owner's epoch, a
// random number written the first time it is missing, and the version is
// both: after a loss the epoch is new and no version from before can recur.
func (r *Redis) Version(ctx context.Context, owner string) (int64, error) {
	if err := checkOwner(owner); err != nil {
		return 0, err
	}
	k := r.keys(owner)
	pipe := r.rdb.Pipeline()
	epochCmd, verCmd := pipe.Get(ctx, k.epoch()), pipe.Get(ctx, k.ver())
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return 0, wrapErr(err, "version %q", owner)
	}
	v, err := verCmd.Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil // nothing stored (or all of it lost): no version from before is 0
	}
	if err != nil {
		return 0, wrapErr(err, "version %q", owner)
	}
	epoch, err := epochCmd.Int64()
	if errors.Is(err, redis.Nil) {
		epoch, err = r.newEpoch(ctx, k)
	}
	if err != nil {
		return 0, wrapErr(err, "version %q: epoch", owner)
	}
	return epoch<<epochShift | v&(1<<epochShift-1), nil
}

// epochShift leaves the counter 2^24 changes (it wraps after that, which an index cache
// cannot tell from a loss only if the epoch also repeats) and the epoch 39 random bits.
const epochShift = 24

// newEpoch writes a random epoch for the owner unless another process just did, and returns
// the one that stands.
func (r *Redis) newEpoch(ctx context.Context, k ownerKeys) (int64, error) {
	e := rand.Int64N(1<<39-1) + 1
	ok, err := r.rdb.SetNX(ctx, k.epoch(), e, 0).Result()
	if err != nil || ok {
		return e, err
	}
	return r.rdb.Get(ctx, k.epoch()).Int64()
}
