package docstore

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Meta describes one stored document.
type Meta struct {
	ID       string `json:"id"`
	Title    string `json:"title"`
	FileName string `json:"file_name"`
	Format   string `json:"format"` // pdf, docx, xlsx, txt, md, csv, kb
	Pages    int    `json:"pages"`
	Chars    int    `json:"chars"` // runes of text
	// Chunks is the number of chunks; Put sets it to len(Doc.Chunks).
	Chunks     int       `json:"chunks"`
	Bytes      int64     `json:"bytes"`  // size of the original file
	SHA256     string    `json:"sha256"` // hex of the original file, for duplicate detection
	UploadedBy int64     `json:"uploaded_by"`
	Added      time.Time `json:"added"`
	// Knowledge-base articles only:
	Topic        string    `json:"topic,omitempty"`
	Jurisdiction string    `json:"jurisdiction,omitempty"`
	Updated      time.Time `json:"updated,omitempty"`
	// Dims is the length of each stored vector; 0 = no vectors.
	Dims int `json:"dims,omitempty"`
	// IndexBytes is what the document adds to its owner's in-memory search index (chunk
	// texts, postings, vectors), as the library estimated it when storing the document; 0 for
	// documents stored before it was recorded. The store keeps it and does not check it.
	IndexBytes int64 `json:"index_bytes,omitempty"`
}

// Chunk is one stored passage.
type Chunk struct {
	N       int    `json:"n"` // 0-based position in the document
	Page    int    `json:"page"`
	Heading string `json:"heading,omitempty"`
	Text    string `json:"text"`
}

// Doc is a document with its content, as Put takes it and Load returns it.
type Doc struct {
	Meta    Meta
	Chunks  []Chunk
	Vectors [][]float32 // nil or one per chunk, all of Meta.Dims length
	// Text is the full normalised text (for full-context answers); may be empty.
	Text string
}

var (
	// ErrNotFound reports that the owner has no document with the given id
	// (or SHA-256, or receipt).
	ErrNotFound = errors.New("docstore: document not found")
	// ErrInvalid reports a bad owner, a bad id or an inconsistent document
	// (vectors that do not match the chunks or Meta.Dims, duplicate ids in
	// Replace, …).
	ErrInvalid = errors.New("docstore: invalid document")
	// ErrUnavailable wraps every failure of the backing store (connection
	// refused, timeout, server error, too much write contention, …). The
	// original error is wrapped as well, so both errors.Is(err,
	// ErrUnavailable) and, for example, errors.Is(err,
	// context.DeadlineExceeded) hold. Memory never returns it.
	ErrUnavailable = errors.New("docstore: store unavailable")
	// ErrChanged reports that a document read in pieces (EachVector) was replaced while it
	// was read; reading it again gets the new one.
	ErrChanged = errors.New("docstore: document changed while read")
)

// errCorrupt marks stored data that no longer decodes. It is wrapped, not
// exported: callers can do nothing about it but report it.
var errCorrupt = errors.New("docstore: corrupt stored data")

// MaxIDLen is the maximum length of a document ID in bytes.
const MaxIDLen = 64

// checkOwner reports whether owner can be used in a key.
func checkOwner(owner string) error {
	if owner == "" {
		return fmt.Errorf("%w: empty owner", ErrInvalid)
	}
	if strings.ContainsFunc(owner, func(r rune) bool { return r == '{' || r == '}' || unicode.IsSpace(r) }) {
		return fmt.Errorf("%w: owner %q contains a brace or whitespace", ErrInvalid, owner)
	}
	return nil
}

// checkID reports whether id is a valid document ID.
func checkID(id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: empty id", ErrInvalid)
	case len(id) > MaxIDLen:
		return fmt.Errorf("%w: id %.16q… is longer than %d bytes", ErrInvalid, id, MaxIDLen)
	case strings.Contains(id, ":"):
		return fmt.Errorf("%w: id %q contains ':'", ErrInvalid, id)
	}
	return nil
}

// checkIDs checks owner and every id.
func checkIDs(owner string, ids []string) error {
	if err := checkOwner(owner); err != nil {
		return err
	}
	for _, id := range ids {
		if err := checkID(id); err != nil {
			return err
		}
	}
	return nil
}

// uniq returns ids without repetitions, keeping the first occurrence.
func uniq(ids []string) []string {
	seen := make(map[string]bool, len(ids))
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

// compareMeta orders documents as List returns them: by Added, then ID.
func compareMeta(a, b Meta) int {
	if c := a.Added.Compare(b.Added); c != 0 {
		return c
	}
	return cmp.Compare(a.ID, b.ID)
}

// sortDocs sorts docs in List order.
func sortDocs(docs []Doc) {
	slices.SortFunc(docs, func(a, b Doc) int { return compareMeta(a.Meta, b.Meta) })
}

// shaSuccessor returns the document that the SHA-256 index should point to
// for sha once the document gone no longer has that hash: the first of metas
// in List order with that hash, other than gone. ok is false when there is
// none.
func shaSuccessor(metas []Meta, sha, gone string) (id string, ok bool) {
	var best *Meta
	for i := range metas {
		m := &metas[i]
		if m.SHA256 == sha && m.ID != gone && (best == nil || compareMeta(*m, *best) < 0) {
			best = m
		}
	}
	if best == nil {
		return "", false
	}
	return best.ID, true
}

// shaIndex returns the SHA-256 index of docs as if they were Put in order:
// the last document with a hash wins.
func shaIndex(docs []encoded) map[string]string {
	idx := make(map[string]string, len(docs))
	for _, e := range docs {
		if e.meta.SHA256 != "" {
			idx[e.meta.SHA256] = e.meta.ID
		}
	}
	return idx
}

// receiptField returns the key of a receipt in the receipts hash.
func receiptField(chatID int64, messageID int) string {
	return strconv.FormatInt(chatID, 10) + ":" + strconv.Itoa(messageID)
}

// sortedIDs returns the IDs of ms in List order.
func sortedIDs(ms []Meta) []string {
	slices.SortFunc(ms, compareMeta)
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// notFound returns ErrNotFound for document id of owner.
func notFound(owner, id string) error {
	return fmt.Errorf("%w: %q in %q", ErrNotFound, id, owner)
}

// receiptNotFound returns ErrNotFound for an unknown receipt.
func receiptNotFound(owner string, chatID int64, messageID int) error {
	return fmt.Errorf("%w: no receipt %d:%d in %q", ErrNotFound, chatID, messageID, owner)
}

// sortMetas sorts ms in List order and returns it.
func sortMetas(ms []Meta) []Meta {
	slices.SortFunc(ms, compareMeta)
	return ms
}

// wrapErr adds the operation to err. ErrNotFound and ErrInvalid already
// say what went wrong and pass unchanged; corrupt data is reported as such;
// anything else is a failure of the store and wraps ErrUnavailable.
func wrapErr(err error, format string, args ...any) error {
	switch {
	case errors.Is(err, ErrNotFound), errors.Is(err, ErrInvalid), errors.Is(err, ErrChanged):
		return err
	case errors.Is(err, errCorrupt):
		return fmt.Errorf("docstore: %s: %w", fmt.Sprintf(format, args...), err)
	default:
		return fmt.Errorf("docstore: %s: %w: %w", fmt.Sprintf(format, args...), ErrUnavailable, err)
	}
}
