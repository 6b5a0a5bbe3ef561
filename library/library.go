// Package library is finbot's document library: it takes a file a user sent, extracts and chunks
// it, optionally embeds the chunks, and stores everything under the owner's key; it answers
// searches over an owner's documents with BM25, optional dense vectors and reciprocal rank
// fusion.
//
// Isolation is a property of the data path, not a filter: every Store call names the owner,
// the in-process index of an owner is built only from that owner's stored chunks, and nothing
// in this package takes a document id without the owner it belongs to.
//
// Indexes are built on first use from the store and cached in an LRU keyed by owner, bounded
// by the number of owners and by the indexes' estimated memory (Options.CacheOwners,
// Options.CacheBytes); each search checks the owner's version in the store (one round trip)
// and rebuilds when another replica added or removed a document, or the index was evicted.
// A build is bounded in memory and time (build.go), and so is what an owner may upload: the
// quota counts what each document costs the index, not only its characters.
package library

import (
	"cmp"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sync/singleflight"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

// Store keeps documents per owner. *docstore.Redis and *docstore.Memory satisfy it; a
// dedicated vector database would be a third implementation.
type Store interface {
	Put(ctx context.Context, owner string, d docstore.Doc) error
	List(ctx context.Context, owner string) ([]docstore.Meta, error)
	Get(ctx context.Context, owner, id string) (docstore.Meta, error)
	Load(ctx context.Context, owner string, ids []string) ([]docstore.Doc, error)
	// LoadChunks is Load without the documents' full text and vectors, and EachVector reads
	// one document's vectors a piece at a time: what an index is built from.
	LoadChunks(ctx context.Context, owner string, ids []string) ([]docstore.Doc, error)
	EachVector(ctx context.Context, owner string, m docstore.Meta, fn func(i int, v []float32)) error
	Delete(ctx context.Context, owner, id string) error
	FindSHA(ctx context.Context, owner, sha string) (docstore.Meta, error)
	Version(ctx context.Context, owner string) (int64, error)
	Select(ctx context.Context, owner string, selector int64, ids []string, on bool) error
	ClearSelection(ctx context.Context, owner string, selector int64) error
	Selection(ctx context.Context, owner string, selector int64) ([]string, error)
	SetReceipt(ctx context.Context, owner string, chatID int64, messageID int, id string) error
	Receipt(ctx context.Context, owner string, chatID int64, messageID int) (string, error)
	Replace(ctx context.Context, owner string, docs []docstore.Doc) error
}

// Embedder turns texts into vectors. *llm.Embedder satisfies it.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// Errors of the library; UserMessage explains them.
var (
	// ErrNotFound: no such document for this owner (also what a forged id gets).
	ErrNotFound = docstore.ErrNotFound
	// ErrQuota: the owner has as many documents or characters as allowed, or their search
	// index would grow past Options.MaxIndexBytes.
	ErrQuota = errors.New("docs: quota exceeded")
	// errIndexQuota is the ErrQuota of the index: a file whose chunks would take the owner's
	// index past its bound.
	errIndexQuota = fmt.Errorf("%w: search index", ErrQuota)
)

// Options tune a Library.
type Options struct {
	// MaxDocs and MaxChars bound one owner's library (defaults 200 and 20,000,000).
	MaxDocs  int
	MaxChars int
	// MaxIndexBytes bounds the estimated memory of one owner's search index (default
	// DefaultMaxIndexBytes): a file whose chunks and vectors would take it past that is
	// refused (ErrQuota), and an index found larger when it is built is not built
	// (ErrTooLarge).
	MaxIndexBytes int64
	// Builds bounds the memory of the index builds running at once; pass one to every
	// Library of a process (default: NewBuildMemory(DefaultBuildMemory) of its own).
	Builds *BuildMemory
	// BuildTimeout bounds one index build, its wait for Builds included (default
	// DefaultBuildTimeout).
	BuildTimeout time.Duration
	// CacheOwners bounds the in-process index cache by owners (default DefaultCacheOwners, 256).
	CacheOwners int
	// CacheBytes bounds it by the indexes' estimated memory — chunk texts, postings and
	// vectors (4 bytes a dimension) — evicting least recently used owners (default
	// DefaultCacheBytes, 512 MiB). An owner whose index alone is larger is not cached.
	CacheBytes int64
	// Limits bound each extraction; Limits.Slots, the extractions running at once, defaults
	// to extract.NewSlots(0) (sized to the machine) — pass one Slots to every Library of a
	// process to bound them together.
	Limits   extract.Limits
	Chunking extract.ChunkOptions
	Logger   *slog.Logger
	Now      func() time.Time
}

// Library adds, lists, removes and searches documents.
type Library struct {
	store    Store
	emb      Embedder
	opts     Options
	log      *slog.Logger
	cache    *indexCache
	build    singleflight.Group
	tooLarge *tooLarge
}

// New returns a library over store; emb may be nil (lexical search only).
func New(store Store, emb Embedder, o Options) *Library {
	if o.MaxDocs <= 0 {
		o.MaxDocs = 200
	}
	if o.MaxChars <= 0 {
		o.MaxChars = 20_000_000
	}
	if o.MaxIndexBytes <= 0 {
		o.MaxIndexBytes = DefaultMaxIndexBytes
	}
	if o.Builds == nil {
		o.Builds = NewBuildMemory(0)
	}
	if o.BuildTimeout <= 0 {
		o.BuildTimeout = DefaultBuildTimeout
	}
	if o.CacheOwners <= 0 {
		o.CacheOwners = DefaultCacheOwners
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = DefaultCacheBytes
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Limits.Slots == nil {
		o.Limits.Slots = extract.NewSlots(0)
	}
	return &Library{store: store, emb: emb, opts: o, log: o.Logger, cache: newIndexCache(o.CacheOwners, o.CacheBytes), tooLarge: newTooLarge()}
}

// Dense reports whether the library embeds chunks and queries.
func (l *Library) Dense() bool { return l.emb != nil }

// Added is the outcome of Add.
type Added struct {
	Meta docstore.Meta
	// Duplicate is true when the owner already had this exact file; Meta is the earlier one.
	Duplicate bool
	// Degraded lists what did not work without stopping the upload ("embeddings_unavailable").
	Degraded []string
}

// Add extracts, chunks, embeds and stores one file for owner: heavy work (HeavyWatcher).
func (l *Library) Add(ctx context.Context, owner string, uploader int64, name string, data []byte) (Added, error) {
	return l.add(ctx, owner, uploader, name, data, func() (extract.Document, error) {
		return extract.Extract(ctx, name, data, l.opts.Limits)
	})
}

// AddRecognized adds the text recognition read from a photo, an album of photos or a scanned
// PDF (pages, in order) as a document of owner, like Add: data is the file as sent (an album's
// photos one after another) — its checksum finds a duplicate —, format names it in the receipt
// ("jpg", "png", "pdf"), and title, when not "", names the document (the fields read from it:
// «Счёт на оплату № 28 от 02.03.2026»).
func (l *Library) AddRecognized(ctx context.Context, owner string, uploader int64, name, format, title string, data []byte, pages []string) (Added, error) {
	return l.add(ctx, owner, uploader, name, data, func() (extract.Document, error) {
		text := strings.Join(pages, "\f")
		doc, err := extract.Extract(ctx, strings.TrimSuffix(name, filepath.Ext(name))+".txt", []byte(text), l.opts.Limits)
		if err != nil {
			return doc, err
		}
		doc.Format = format
		if title != "" {
			doc.Title = title
		}
		return doc, nil
	})
}

func (l *Library) add(ctx context.Context, owner string, uploader int64, name string, data []byte, read func() (extract.Document, error)) (Added, error) {
	defer beginHeavy(ctx)()
	sum := sha256.Sum256(data)
	sha := hex.EncodeToString(sum[:])
	if m, err := l.store.FindSHA(ctx, owner, sha); err == nil {
		if l.emb != nil && m.Dims == 0 && m.Chunks > 0 {
			return l.embedStored(ctx, owner, m)
		}
		return Added{Meta: m, Duplicate: true}, nil
	} else if !errors.Is(err, docstore.ErrNotFound) {
		return Added{}, fmt.Errorf("docs: find duplicate: %w", err)
	}
	have, err := l.store.List(ctx, owner)
	if err != nil {
		return Added{}, fmt.Errorf("docs: list: %w", err)
	}
	used, room, dims := 0, l.opts.MaxIndexBytes, 0
	for _, m := range have {
		used += m.Chars
		room -= metaCost(m)
		dims = max(dims, m.Dims)
	}
	if len(have) >= l.opts.MaxDocs {
		return Added{}, fmt.Errorf("%w: %d documents", ErrQuota, len(have))
	}
	doc, err := read()
	if err != nil {
		return Added{}, fmt.Errorf("docs: extract %q: %w", name, err)
	}
	if used+doc.Chars > l.opts.MaxChars {
		return Added{}, fmt.Errorf("%w: %d characters", ErrQuota, used+doc.Chars)
	}
	meta := docstore.Meta{
		ID: newID(), Title: doc.Title, FileName: cleanName(name), Format: doc.Format, Pages: len(doc.Pages),
		Chars: doc.Chars, Bytes: int64(len(data)), SHA256: sha, UploadedBy: uploader, Added: l.opts.Now().UTC(),
	}
	return l.put(ctx, owner, meta, doc, room, dims)
}

// put chunks, embeds and stores an extracted document, if its index cost fits in room (the
// bytes of index the owner has left). dims is the length of the vectors the owner's
// documents have (0: none yet): the vectors are counted before they are asked for, and again
// once they come.
func (l *Library) put(ctx context.Context, owner string, meta docstore.Meta, doc extract.Document, room int64, dims int) (Added, error) {
	perChunk := int64(0)
	if l.emb != nil && dims > 0 {
		perChunk = vectorBytes(dims)
	}
	chunks, cost, err := pageChunks(doc, l.opts.Chunking, room-docBytes(meta), perChunk)
	if err != nil {
		return Added{}, err
	}
	meta.Chunks = len(chunks)
	meta.IndexBytes = docBytes(meta) + cost
	out := Added{Meta: meta}
	d := docstore.Doc{Meta: meta, Chunks: chunks, Text: doc.Text()}
	if l.emb != nil && len(chunks) > 0 {
		vecs, err := l.emb.Embed(ctx, embedTexts(meta.Title, chunks))
		if err != nil {
			if ctx.Err() != nil {
				return Added{}, ctx.Err()
			}
			l.log.WarnContext(ctx, "embeddings failed; document stored for lexical search only", "err", err)
			out.Degraded = append(out.Degraded, "embeddings_unavailable")
			d.Meta.IndexBytes -= int64(len(chunks)) * perChunk
		} else {
			d.Vectors = vecs
			d.Meta.Dims = len(vecs[0])
			d.Meta.IndexBytes += int64(len(chunks)) * (vectorBytes(d.Meta.Dims) - perChunk)
			if d.Meta.IndexBytes > room {
				return Added{}, fmt.Errorf("%w: %d bytes with %d-dimension vectors, %d left", errIndexQuota, d.Meta.IndexBytes, d.Meta.Dims, room)
			}
		}
	}
	if err := l.store.Put(ctx, owner, d); err != nil {
		return Added{}, fmt.Errorf("docs: store: %w", err)
	}
	out.Meta = d.Meta
	l.cache.remove(owner)
	return out, nil
}

// pageChunks chunks each page on its own, so that every passage cites exactly one page
// («стр. 3»). A chunk at the top of a page before any heading there inherits the last heading
// of the pages before. It returns the chunks' index cost (chunkCost, plus perChunk for each:
// its vector), and errIndexQuota as soon as that passes room: a file of a million tiny
// pages is refused before its chunks are all made.
func pageChunks(doc extract.Document, o extract.ChunkOptions, room, perChunk int64) ([]docstore.Chunk, int64, error) {
	var out []docstore.Chunk
	var cost int64
	tw := titleWords(doc.Title)
	carried := ""
	// In page order, each page takes its own from the front: linear in pages and headings.
	heads := slices.Clone(doc.Headings)
	slices.SortStableFunc(heads, func(a, b extract.Heading) int { return cmp.Compare(a.Page, b.Page) })
	for _, p := range doc.Pages {
		one := extract.Document{Title: doc.Title, Format: doc.Format, Pages: []extract.Page{p}}
		for len(heads) > 0 && heads[0].Page < p.Number {
			heads = heads[1:]
		}
		for len(heads) > 0 && heads[0].Page == p.Number {
			one.Headings = append(one.Headings, heads[0])
			heads = heads[1:]
		}
		for _, c := range extract.Chunks(one, o) {
			h := c.Heading
			if h == "" {
				h = carried
			}
			dc := docstore.Chunk{N: len(out), Page: p.Number, Heading: h, Text: c.Text}
			cost += chunkCost(doc.Title, tw, dc) + perChunk
			if cost > room {
				return nil, 0, fmt.Errorf("%w: more than %d bytes of index at page %d of %d, chunk %d", errIndexQuota, max(room, 0), p.Number, len(doc.Pages), len(out)+1)
			}
			out = append(out, dc)
		}
		if len(one.Headings) > 0 {
			carried = one.Headings[len(one.Headings)-1].Text
		}
	}
	return out, cost, nil
}

// embedStored adds vectors to a document stored before embeddings were configured (sent
// again by its owner).
func (l *Library) embedStored(ctx context.Context, owner string, m docstore.Meta) (Added, error) {
	out := Added{Meta: m, Duplicate: true}
	have, err := l.store.List(ctx, owner)
	if err != nil {
		return Added{}, fmt.Errorf("docs: list: %w", err)
	}
	room, dims := l.opts.MaxIndexBytes, 0
	for _, o := range have {
		if o.ID != m.ID {
			room -= metaCost(o)
			dims = max(dims, o.Dims)
		}
	}
	ds, err := l.store.Load(ctx, owner, []string{m.ID})
	if err != nil || len(ds) != 1 {
		return Added{}, fmt.Errorf("docs: load %s for embedding: %w", m.ID, errors.Join(err, ErrNotFound))
	}
	d := ds[0]
	lexical := docCost(d.Meta, d.Chunks, 0)
	if cost := lexical + int64(len(d.Chunks))*vectorBytes(dims); dims > 0 && cost > room {
		return Added{}, fmt.Errorf("%w: %d bytes with %d-dimension vectors, %d left", errIndexQuota, cost, dims, room)
	}
	vecs, err := l.emb.Embed(ctx, embedTexts(m.Title, d.Chunks))
	if err != nil {
		if ctx.Err() != nil {
			return Added{}, ctx.Err()
		}
		l.log.WarnContext(ctx, "embeddings failed; document stays lexical-only", "err", err)
		out.Degraded = []string{"embeddings_unavailable"}
		return out, nil
	}
	d.Vectors, d.Meta.Dims = vecs, len(vecs[0])
	d.Meta.IndexBytes = lexical + int64(len(d.Chunks))*vectorBytes(d.Meta.Dims)
	if d.Meta.IndexBytes > room {
		return Added{}, fmt.Errorf("%w: %d bytes with %d-dimension vectors, %d left", errIndexQuota, d.Meta.IndexBytes, d.Meta.Dims, room)
	}
	if err := l.store.Put(ctx, owner, d); err != nil {
		return Added{}, fmt.Errorf("docs: store: %w", err)
	}
	l.cache.remove(owner)
	out.Meta = d.Meta
	return out, nil
}

// embedTexts is what gets embedded per chunk: the document title and heading give a clause
// its context («Договор поставки № 15 / 5. Ответственность сторон / …»).
func embedTexts(title string, chunks []docstore.Chunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		parts := []string{title}
		if c.Heading != "" && c.Heading != title {
			parts = append(parts, c.Heading)
		}
		parts = append(parts, c.Text)
		out[i] = strings.Join(parts, "\n")
	}
	return out
}

// List returns the owner's documents, oldest first.
func (l *Library) List(ctx context.Context, owner string) ([]docstore.Meta, error) {
	ms, err := l.store.List(ctx, owner)
	if err != nil {
		return nil, fmt.Errorf("docs: list: %w", err)
	}
	return ms, nil
}

// Get returns one of the owner's documents; ErrNotFound for anything else.
func (l *Library) Get(ctx context.Context, owner, id string) (docstore.Meta, error) {
	if !ValidID(id) {
		return docstore.Meta{}, ErrNotFound
	}
	m, err := l.store.Get(ctx, owner, id)
	if err != nil {
		return docstore.Meta{}, fmt.Errorf("docs: get: %w", err)
	}
	return m, nil
}

// Remove deletes one of the owner's documents with every chunk and vector.
func (l *Library) Remove(ctx context.Context, owner, id string) (docstore.Meta, error) {
	m, err := l.Get(ctx, owner, id)
	if err != nil {
		return docstore.Meta{}, err
	}
	if err := l.store.Delete(ctx, owner, id); err != nil {
		return docstore.Meta{}, fmt.Errorf("docs: delete: %w", err)
	}
	l.cache.remove(owner)
	return m, nil
}

// Select adds documents to (on) or removes them from the selector's selection within owner.
func (l *Library) Select(ctx context.Context, owner string, selector int64, id string, on bool) error {
	if !ValidID(id) {
		return ErrNotFound
	}
	if err := l.store.Select(ctx, owner, selector, []string{id}, on); err != nil {
		return fmt.Errorf("docs: select: %w", err)
	}
	return nil
}

// ClearSelection unselects everything.
func (l *Library) ClearSelection(ctx context.Context, owner string, selector int64) error {
	if err := l.store.ClearSelection(ctx, owner, selector); err != nil {
		return fmt.Errorf("docs: clear selection: %w", err)
	}
	return nil
}

// Selected returns the selector's selected documents that still exist.
func (l *Library) Selected(ctx context.Context, owner string, selector int64) ([]docstore.Meta, error) {
	ids, err := l.store.Selection(ctx, owner, selector)
	if err != nil {
		return nil, fmt.Errorf("docs: selection: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	all, err := l.List(ctx, owner)
	if err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(ids))
	for _, id := range ids {
		want[id] = true
	}
	var out []docstore.Meta
	for _, m := range all {
		if want[m.ID] {
			out = append(out, m)
		}
	}
	return out, nil
}

// SetReceipt remembers that the bot's message is the receipt of a document.
func (l *Library) SetReceipt(ctx context.Context, owner string, chatID int64, messageID int, id string) error {
	if err := l.store.SetReceipt(ctx, owner, chatID, messageID, id); err != nil {
		return fmt.Errorf("docs: receipt: %w", err)
	}
	return nil
}

// Receipt returns the document whose receipt is the bot's message, if it still exists.
func (l *Library) Receipt(ctx context.Context, owner string, chatID int64, messageID int) (docstore.Meta, error) {
	id, err := l.store.Receipt(ctx, owner, chatID, messageID)
	if err != nil {
		return docstore.Meta{}, fmt.Errorf("docs: receipt: %w", err)
	}
	return l.Get(ctx, owner, id)
}

// Full loads the full text of the owner's documents ids (for full-context answers).
func (l *Library) Full(ctx context.Context, owner string, ids []string) ([]docstore.Doc, error) {
	ds, err := l.store.Load(ctx, owner, ids)
	if err != nil {
		return nil, fmt.Errorf("docs: load: %w", err)
	}
	for i := range ds {
		if ds[i].Text == "" { // stored without text: rebuild it from the chunks
			ds[i].Text = joinChunks(ds[i].Chunks)
		}
		ds[i].Vectors = nil
	}
	return ds, nil
}

// joinChunks rebuilds a text from overlapping chunks approximately (overlaps repeat).
func joinChunks(cs []docstore.Chunk) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Text
	}
	return strings.Join(parts, "\n\n")
}

// idEncoding writes ids in lower-case base32 without padding: short, safe in keys and in
// Telegram's 64-byte callback data.
var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newID returns a random 16-character document id (80 bits): ids cannot be guessed, though
// guessing would not help — every read is scoped by owner.
func newID() string {
	b := make([]byte, 10)
	rand.Read(b) // never fails (crypto/rand)
	return idEncoding.EncodeToString(b)
}

// ValidID reports whether s can be a document id (user documents or knowledge-base articles),
// so forged callback data is rejected before any store call.
func ValidID(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// cleanName keeps a file name displayable: base name, printable, at most 120 characters.
func cleanName(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return -1
		}
		return r
	}, name)
	name = ru.Clip(name, 120)
	if name == "." || name == "/" || name == "" {
		return "документ"
	}
	return name
}

// UserMessage explains a library error in Russian, or returns "" when err is not the user's
// to fix (a store outage).
func UserMessage(err error) string {
	switch {
	case errors.Is(err, errIndexQuota):
		return "Поиск по нему потребовал бы слишком много памяти: в библиотеке уже много текста или файл дробится на слишком много фрагментов. " +
			"Удалите ненужные документы через /docs или пришлите файл поменьше."
	case errors.Is(err, ErrQuota):
		return "В вашей библиотеке уже слишком много документов. Удалите ненужные через /docs и попробуйте снова."
	case errors.Is(err, ErrTooLarge):
		return "Ваших документов слишком много, чтобы искать по ним: поиск потребовал бы слишком много памяти или времени. " +
			"Удалите ненужные через /docs и задайте вопрос снова."
	case errors.Is(err, ErrNotFound):
		return "Такого документа нет среди ваших: возможно, он уже удалён. Список — /docs."
	}
	for _, kind := range extract.Kinds {
		if errors.Is(err, kind) {
			return extract.UserMessage(err)
		}
	}
	return ""
}

// retrievalChunk converts a stored chunk for the index; the id is "<doc>#<n>".
func retrievalChunk(docID string, c docstore.Chunk) retrieval.Chunk {
	return retrieval.Chunk{ID: fmt.Sprintf("%s#%d", docID, c.N), DocID: docID, Text: c.Text, Page: c.Page, Heading: c.Heading}
}
