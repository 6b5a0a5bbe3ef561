package docstore

import (
	"context"
	"errors"
	"fmt"

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
	var metas *redis.SliceCmd
	content := make([]*redis.StringCmd, 0, 3*len(ids))
	_, err := r.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		metas = p.HMGet(ctx, k.meta(), ids...)
		for _, id := range ids {
			for _, key := range k.docKeys(id) {
				content = append(content, p.Get(ctx, key))
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
		chunks, vec, text := content[3*i], content[3*i+1], content[3*i+2]
		for _, c := range []*redis.StringCmd{chunks, vec, text} {
			if err := c.Err(); err != nil && !errors.Is(err, redis.Nil) {
				return nil, wrapErr(err, "load %q/%q", owner, ids[i])
			}
		}
		if errors.Is(chunks.Err(), redis.Nil) {
			return nil, fmt.Errorf("docstore: load %q/%q: %w: chunks missing", owner, ids[i], errCorrupt)
		}
		// Val, not Bytes: the text, the largest part, is used without a copy.
		d, err := decodeDoc([]byte(raw), []byte(chunks.Val()), []byte(vec.Val()), text.Val())
		if err != nil {
			return nil, wrapErr(err, "load %q/%q", owner, ids[i])
		}
		docs = append(docs, d)
	}
	sortDocs(docs)
	return docs, nil
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
// of owner; it is 0 when nothing was ever stored.
func (r *Redis) Version(ctx context.Context, owner string) (int64, error) {
	if err := checkOwner(owner); err != nil {
		return 0, err
	}
	v, err := r.rdb.Get(ctx, r.keys(owner).ver()).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, wrapErr(err, "version %q", owner)
	}
	return v, nil
}
