package docstore

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// encoded is a validated document in its stored form. Both stores keep
// exactly what encode produces, so Memory returns what Redis would (JSON
// drops monotonic clock readings and time zones become fixed offsets).
type encoded struct {
	meta     Meta
	metaJSON []byte
	chunks   []byte // JSON of []Chunk
	vec      []byte // nil when meta.Dims == 0
	text     string
}

// encode validates d and returns its stored form. Meta.Chunks is set to
// len(d.Chunks).
func encode(d Doc) (encoded, error) {
	m := d.Meta
	if err := checkID(m.ID); err != nil {
		return encoded{}, err
	}
	switch {
	case m.Dims < 0:
		return encoded{}, fmt.Errorf("%w: document %q: negative Dims %d", ErrInvalid, m.ID, m.Dims)
	case m.Dims == 0 && len(d.Vectors) > 0:
		return encoded{}, fmt.Errorf("%w: document %q: %d vectors but Dims is 0", ErrInvalid, m.ID, len(d.Vectors))
	case m.Dims > 0 && len(d.Vectors) != len(d.Chunks):
		return encoded{}, fmt.Errorf("%w: document %q: %d vectors for %d chunks", ErrInvalid, m.ID, len(d.Vectors), len(d.Chunks))
	}
	for i, v := range d.Vectors {
		if len(v) != m.Dims {
			return encoded{}, fmt.Errorf("%w: document %q: vector %d has %d dims, want %d", ErrInvalid, m.ID, i, len(v), m.Dims)
		}
	}
	m.Chunks = len(d.Chunks)
	e := encoded{meta: m, text: d.Text}
	var err error
	if e.metaJSON, err = json.Marshal(m); err != nil {
		return encoded{}, fmt.Errorf("%w: document %q: encode meta: %w", ErrInvalid, m.ID, err)
	}
	if e.chunks, err = json.Marshal(d.Chunks); err != nil {
		return encoded{}, fmt.Errorf("%w: document %q: encode chunks: %w", ErrInvalid, m.ID, err)
	}
	if m.Dims > 0 {
		e.vec = encodeVectors(d.Vectors, m.Dims)
	}
	// Keep the meta as it will read back.
	if e.meta, err = decodeMeta(e.metaJSON); err != nil {
		return encoded{}, err
	}
	return e, nil
}

// decodeDoc rebuilds a document from its stored parts. vec is ignored when
// the meta says there are no vectors, or when vectors is false (the caller
// did not read them); it is read in place (a string as Redis returns it
// needs no copy: the vectors are the largest part).
func decodeDoc[V []byte | string](metaJSON, chunks []byte, vec V, text string, vectors bool) (Doc, error) {
	m, err := decodeMeta(metaJSON)
	if err != nil {
		return Doc{}, err
	}
	var cs []Chunk
	if err := json.Unmarshal(chunks, &cs); err != nil {
		return Doc{}, fmt.Errorf("%w: chunks of %q: %w", errCorrupt, m.ID, err)
	}
	if len(cs) != m.Chunks {
		return Doc{}, fmt.Errorf("%w: document %q has %d chunks, meta says %d", errCorrupt, m.ID, len(cs), m.Chunks)
	}
	d := Doc{Meta: m, Chunks: cs, Text: text}
	if m.Dims > 0 && vectors {
		if d.Vectors, err = decodeVectors(vec, len(cs), m.Dims); err != nil {
			return Doc{}, fmt.Errorf("vectors of %q: %w", m.ID, err)
		}
	}
	return d, nil
}

// decodeMeta decodes a stored Meta.
func decodeMeta(b []byte) (Meta, error) {
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return Meta{}, fmt.Errorf("%w: meta: %w", errCorrupt, err)
	}
	return m, nil
}

// encodeVectors packs vectors as little-endian float32, one after another.
func encodeVectors(vectors [][]float32, dims int) []byte {
	b := make([]byte, 0, len(vectors)*dims*4)
	for _, v := range vectors {
		for _, f := range v {
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(f))
		}
	}
	return b
}

// decodeVectors unpacks n vectors of dims float32 each. A length that does
// not match is reported as corrupt data. The vectors share one backing
// array; each is capped so that appending to one cannot overwrite the next.
func decodeVectors[V []byte | string](b V, n, dims int) ([][]float32, error) {
	if n < 0 || dims <= 0 {
		return nil, fmt.Errorf("%w: %d vectors of %d dims", errCorrupt, n, dims)
	}
	floats := len(b) / 4
	// dims > floats/n catches n*dims overflowing int as well.
	if len(b)%4 != 0 || (n == 0 && floats != 0) || (n > 0 && (dims > floats/n || n*dims != floats)) {
		return nil, fmt.Errorf("%w: %d bytes for %d vectors of %d dims", errCorrupt, len(b), n, dims)
	}
	if n == 0 {
		return nil, nil
	}
	flat := make([]float32, floats)
	decodeVector(b, flat)
	out := make([][]float32, n)
	for i := range out {
		out[i] = flat[i*dims : (i+1)*dims : (i+1)*dims]
	}
	return out, nil
}

// decodeVector unpacks len(v) little-endian float32s from b into v.
func decodeVector[V []byte | string](b V, v []float32) {
	for i := range v {
		j := 4 * i
		v[i] = math.Float32frombits(uint32(b[j]) | uint32(b[j+1])<<8 | uint32(b[j+2])<<16 | uint32(b[j+3])<<24)
	}
}

// cloneDoc returns a deep copy of d, so that the caller cannot change what
// a store holds and vice versa.
func cloneDoc(d Doc) Doc {
	d.Chunks = slices.Clone(d.Chunks)
	if d.Vectors != nil {
		n, dims := len(d.Vectors), d.Meta.Dims
		flat := make([]float32, 0, n*dims)
		vs := make([][]float32, n)
		for i, v := range d.Vectors {
			flat = append(flat, v...)
			vs[i] = flat[i*dims : (i+1)*dims : (i+1)*dims]
		}
		d.Vectors = vs
	}
	return d
}

// encodeAll encodes docs for Replace, rejecting duplicate IDs.
func encodeAll(docs []Doc) ([]encoded, error) {
	es := make([]encoded, len(docs))
	seen := make(map[string]bool, len(docs))
	for i, d := range docs {
		e, err := encode(d)
		if err != nil {
			return nil, err
		}
		if seen[e.meta.ID] {
			return nil, fmt.Errorf("%w: duplicate id %q", ErrInvalid, e.meta.ID)
		}
		seen[e.meta.ID] = true
		es[i] = e
	}
	return es, nil
}
