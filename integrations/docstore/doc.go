// Package docstore stores users' uploaded documents (already extracted and
// chunked elsewhere) per owner: their metadata, chunks, optional embedding
// vectors and full text, plus each user's selection of documents and the
// bot messages that acknowledged an upload ("receipts").
//
// An owner is an opaque, non-empty string such as "u:123" (a user's private
// set), "g:-100123" (a group's set) or "kb" (the shared knowledge base). It
// must not contain '{', '}' or whitespace. Every method takes the owner and
// every stored key includes it, so no method can read or change another
// owner's documents: isolation holds by construction, not by checks. A
// document ID is non-empty, at most 64 bytes long and contains no ':'.
//
// Two interchangeable stores are provided: [Redis] and [Memory], an
// in-process store for tests and for running without Redis. Both validate
// input the same way, keep the same indexes and return values that the
// caller may modify freely.
//
// # Redis layout
//
// All keys of one owner start with prefix + "docs:{" + owner + "}:". The
// owner in braces is a Redis Cluster hash tag, so every key of an owner
// lives in one slot and MULTI/EXEC and WATCH work on a cluster too (the
// prefix itself must therefore not contain braces). Below, K stands for
// that common beginning:
//
//	K meta            HASH    id → JSON-encoded Meta
//	K chunks:<id>     STRING  JSON-encoded []Chunk
//	K vec:<id>        STRING  little-endian float32 vectors, chunk after
//	                          chunk: len = chunks × Meta.Dims × 4 bytes;
//	                          absent when Meta.Dims is 0
//	K text:<id>       STRING  full text; absent when empty
//	K ver             INT     INCRed by every Put, Delete and Replace
//	K epoch           INT     random, written when missing: a version is
//	                          epoch and ver, so a data loss changes it
//	K sel:<selector>  SET     ids selected by selector (a user ID)
//	K sels            SET     selectors that ever selected something, so
//	                          that Delete can unselect a deleted id
//	K rcpt            HASH    "<chatID>:<messageID>" → id
//	K sha             HASH    SHA-256 hex of the original file → id
//
// Put, Delete, Replace, Select and SetReceipt are optimistic transactions:
// WATCH the index keys they depend on, read, then write everything in one
// MULTI/EXEC, retrying when another client got in between. Load reads the
// metadata and the content of the requested documents in one MULTI/EXEC.
// Readers therefore never see half a document. LoadChunks reads the same
// without the text and the vectors, and EachVector then reads a document's
// vectors a piece at a time (GETRANGE): what a search index is built from,
// without a large document's vectors in memory all at once. A document
// replaced between the two reads by one with other vectors is reported
// (ErrChanged), not mixed.
//
// # Indexes
//
// The SHA-256 index maps a hash to the last document Put with it. When
// that document is deleted or replaced by one with another hash, the index
// moves to the first remaining document (in List order) with the same hash,
// if any. Replace builds the index as if its documents were Put in order.
//
// Delete removes the id from every selection and drops the receipts that
// point to it. Replace leaves selections and receipts alone; Selection and
// Receipt ignore ids that no longer exist.
package docstore
