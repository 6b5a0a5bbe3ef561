package docstore

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
)

// Memory keeps documents in process memory, with the same semantics as
// [Redis]. It is safe for concurrent use. Values it returns are copies.
type Memory struct {
	mu     sync.RWMutex
	owners map[string]*memOwner
}

// memOwner is everything stored for one owner.
type memOwner struct {
	docs     map[string]Doc                // id → document, as decoded from its stored form
	ver      int64                         // bumped by Put, Delete and Replace
	sel      map[int64]map[string]struct{} // selector → selected ids
	receipts map[string]string             // receiptField → id
	sha      map[string]string             // SHA-256 → id
}

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory {
	return &Memory{owners: make(map[string]*memOwner)}
}

// noOwner is the state of an owner with nothing stored: every map nil, so it reads as empty
// and a write into it would panic (writers create the owner or find the document first).
var noOwner = &memOwner{}

// owner returns the state of owner, creating it when create is set; an unknown owner is
// noOwner otherwise. The caller holds m.mu.
func (m *Memory) owner(owner string, create bool) *memOwner {
	o := m.owners[owner]
	if o == nil && create {
		o = &memOwner{
			docs:     make(map[string]Doc),
			sel:      make(map[int64]map[string]struct{}),
			receipts: make(map[string]string),
			sha:      make(map[string]string),
		}
		m.owners[owner] = o
	}
	if o == nil {
		return noOwner
	}
	return o
}

// read checks owner and ids, then runs f on owner's state under the read lock.
func read[T any](m *Memory, owner string, ids []string, f func(o *memOwner) (T, error)) (T, error) {
	if err := checkIDs(owner, ids); err != nil {
		var zero T
		return zero, err
	}
	m.mu.RLock()
	defer m.mu.RUnlock()
	return f(m.owner(owner, false))
}

// write checks owner and ids, then runs f on owner's existing state under the write lock.
func (m *Memory) write(owner string, ids []string, f func(o *memOwner) error) error {
	if err := checkIDs(owner, ids); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return f(m.owner(owner, false))
}

// doc returns o's document id, or ErrNotFound.
func (o *memOwner) doc(owner, id string) (Doc, error) {
	d, ok := o.docs[id]
	if !ok {
		return Doc{}, notFound(owner, id)
	}
	return d, nil
}

// metas returns the metadata of every document of o.
func (o *memOwner) metas() []Meta {
	ms := make([]Meta, 0, len(o.docs))
	for _, d := range o.docs {
		ms = append(ms, d.Meta)
	}
	return ms
}

// unindexSHA moves the SHA-256 index entry of sha away from id, which no
// longer has that hash (or no longer exists).
func (o *memOwner) unindexSHA(sha, id string) {
	if sha == "" || o.sha[sha] != id {
		return
	}
	if next, ok := shaSuccessor(o.metas(), sha, id); ok {
		o.sha[sha] = next
	} else {
		delete(o.sha, sha)
	}
}

// Put stores d under owner, replacing any document with the same ID, and
// bumps the owner's version.
func (m *Memory) Put(_ context.Context, owner string, d Doc) error {
	if err := checkOwner(owner); err != nil {
		return err
	}
	e, err := encode(d)
	if err != nil {
		return err
	}
	stored, err := decodeDoc(e.metaJSON, e.chunks, e.vec, e.text, true)
	if err != nil {
		return fmt.Errorf("docstore: put %q/%q: %w", owner, e.meta.ID, err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	o := m.owner(owner, true)
	id := e.meta.ID
	old, found := o.docs[id]
	o.docs[id] = stored
	if found && old.Meta.SHA256 != e.meta.SHA256 {
		o.unindexSHA(old.Meta.SHA256, id)
	}
	if e.meta.SHA256 != "" {
		o.sha[e.meta.SHA256] = id
	}
	o.ver++
	return nil
}

// List returns the metadata of owner's documents sorted by Added, then ID.
func (m *Memory) List(_ context.Context, owner string) ([]Meta, error) {
	return read(m, owner, nil, func(o *memOwner) ([]Meta, error) {
		ms := o.metas()
		slices.SortFunc(ms, compareMeta)
		return ms, nil
	})
}

// Get returns the metadata of owner's document id, or ErrNotFound.
func (m *Memory) Get(_ context.Context, owner, id string) (Meta, error) {
	return read(m, owner, []string{id}, func(o *memOwner) (Meta, error) {
		d, err := o.doc(owner, id)
		return d.Meta, err
	})
}

// Load returns owner's documents with the given ids (all of them when ids
// is nil) with their chunks, vectors and text, in List order. Unknown ids
// are skipped.
func (m *Memory) Load(_ context.Context, owner string, ids []string) ([]Doc, error) {
	return m.load(owner, ids, cloneDoc)
}

// LoadChunks is Load without the documents' full text and vectors (Doc.Text and Doc.Vectors
// are empty; Meta.Dims still says whether there are vectors).
func (m *Memory) LoadChunks(_ context.Context, owner string, ids []string) ([]Doc, error) {
	return m.load(owner, ids, func(d Doc) Doc {
		d.Chunks, d.Vectors, d.Text = slices.Clone(d.Chunks), nil, ""
		return d
	})
}

// load returns owner's documents with the given ids (all when ids is nil), each as clone makes
// it, in List order; unknown ids are skipped.
func (m *Memory) load(owner string, ids []string, clone func(Doc) Doc) ([]Doc, error) {
	return read(m, owner, ids, func(o *memOwner) ([]Doc, error) {
		if ids == nil {
			ids = slices.Collect(maps.Keys(o.docs))
		}
		docs := make([]Doc, 0, len(ids))
		for _, id := range uniq(ids) {
			if d, ok := o.docs[id]; ok {
				docs = append(docs, clone(d))
			}
		}
		sortDocs(docs)
		return docs, nil
	})
}

// EachVector calls fn with each vector of owner's document m, in chunk order; v is reused
// between calls. When the stored document no longer matches m.Chunks and m.Dims it returns
// ErrChanged.
func (m *Memory) EachVector(_ context.Context, owner string, meta Meta, fn func(i int, v []float32)) error {
	if meta.Dims <= 0 || meta.Chunks <= 0 {
		return checkIDs(owner, []string{meta.ID})
	}
	vecs, err := read(m, owner, []string{meta.ID}, func(o *memOwner) ([][]float32, error) {
		d, err := o.doc(owner, meta.ID)
		if err != nil {
			return nil, err
		}
		if d.Meta.Dims != meta.Dims || len(d.Vectors) != meta.Chunks {
			return nil, fmt.Errorf("%w: vectors of %q/%q: %d of %d dims, want %d of %d", ErrChanged, owner, meta.ID,
				len(d.Vectors), d.Meta.Dims, meta.Chunks, meta.Dims)
		}
		return d.Vectors, nil // never changed in place: Put and Replace store new slices
	})
	if err != nil {
		return err
	}
	v := make([]float32, meta.Dims)
	for i, x := range vecs {
		copy(v, x)
		fn(i, v)
	}
	return nil
}

// Delete removes owner's document id with its content, unselects it and
// drops its receipts, and bumps the owner's version. It returns ErrNotFound
// when there is no such document.
func (m *Memory) Delete(_ context.Context, owner, id string) error {
	return m.write(owner, []string{id}, func(o *memOwner) error {
		d, err := o.doc(owner, id)
		if err != nil {
			return err
		}
		delete(o.docs, id)
		o.unindexSHA(d.Meta.SHA256, id)
		for _, s := range o.sel {
			delete(s, id)
		}
		maps.DeleteFunc(o.receipts, func(_, v string) bool { return v == id })
		o.ver++
		return nil
	})
}

// FindSHA returns the metadata of an owner's document whose original file
// has the given SHA-256, or ErrNotFound.
func (m *Memory) FindSHA(_ context.Context, owner, sha string) (Meta, error) {
	return read(m, owner, nil, func(o *memOwner) (Meta, error) {
		if d, ok := o.docs[o.sha[sha]]; ok && sha != "" && d.Meta.SHA256 == sha {
			return d.Meta, nil
		}
		return Meta{}, fmt.Errorf("%w: no document with sha256 %q in %q", ErrNotFound, sha, owner)
	})
}

// Version returns a number that changes on every Put, Delete and Replace
// of owner; it is 0 when nothing was ever stored.
func (m *Memory) Version(_ context.Context, owner string) (int64, error) {
	return read(m, owner, nil, func(o *memOwner) (int64, error) { return o.ver, nil })
}

// Select adds ids to (on) or removes them from (!on) selector's selection
// within owner. Selecting an id that owner does not have returns
// ErrNotFound and changes nothing.
func (m *Memory) Select(_ context.Context, owner string, selector int64, ids []string, on bool) error {
	if len(ids) == 0 {
		return checkIDs(owner, ids)
	}
	return m.write(owner, ids, func(o *memOwner) error {
		if !on {
			for _, id := range ids {
				delete(o.sel[selector], id)
			}
			return nil
		}
		for _, id := range ids {
			if _, err := o.doc(owner, id); err != nil {
				return err
			}
		}
		s := o.sel[selector]
		if s == nil {
			s = make(map[string]struct{})
			o.sel[selector] = s
		}
		for _, id := range ids {
			s[id] = struct{}{}
		}
		return nil
	})
}

// ClearSelection empties selector's selection within owner.
func (m *Memory) ClearSelection(_ context.Context, owner string, selector int64) error {
	return m.write(owner, nil, func(o *memOwner) error {
		delete(o.sel, selector)
		return nil
	})
}

// Selection returns the ids selector selected within owner that still
// exist, in List order.
func (m *Memory) Selection(_ context.Context, owner string, selector int64) ([]string, error) {
	return read(m, owner, nil, func(o *memOwner) ([]string, error) {
		var ms []Meta
		for id := range o.sel[selector] {
			if d, ok := o.docs[id]; ok {
				ms = append(ms, d.Meta)
			}
		}
		return sortedIDs(ms), nil
	})
}

// SetReceipt remembers that the bot's message (chatID, messageID) is the
// receipt of owner's document id. It returns ErrNotFound when owner has no
// such document.
func (m *Memory) SetReceipt(_ context.Context, owner string, chatID int64, messageID int, id string) error {
	return m.write(owner, []string{id}, func(o *memOwner) error {
		if _, err := o.doc(owner, id); err != nil {
			return err
		}
		o.receipts[receiptField(chatID, messageID)] = id
		return nil
	})
}

// Receipt returns the id of the document whose receipt is the bot's message
// (chatID, messageID). It returns ErrNotFound when the message is unknown
// or the document was deleted.
func (m *Memory) Receipt(_ context.Context, owner string, chatID int64, messageID int) (string, error) {
	return read(m, owner, nil, func(o *memOwner) (string, error) {
		id, ok := o.receipts[receiptField(chatID, messageID)]
		if _, exists := o.docs[id]; ok && exists {
			return id, nil
		}
		return "", receiptNotFound(owner, chatID, messageID)
	})
}

// Replace makes owner's documents exactly docs, atomically, and bumps the
// owner's version. Selections and receipts are left alone.
func (m *Memory) Replace(_ context.Context, owner string, docs []Doc) error {
	if err := checkOwner(owner); err != nil {
		return err
	}
	es, err := encodeAll(docs)
	if err != nil {
		return err
	}
	stored := make(map[string]Doc, len(es))
	for _, e := range es {
		d, err := decodeDoc(e.metaJSON, e.chunks, e.vec, e.text, true)
		if err != nil {
			return fmt.Errorf("docstore: replace %q: %w", owner, err)
		}
		stored[e.meta.ID] = d
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	o := m.owner(owner, true)
	o.docs = stored
	o.sha = shaIndex(es)
	o.ver++
	return nil
}
