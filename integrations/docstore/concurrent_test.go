package docstore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// genDoc returns generation g of document id. Every part of it is derived
// from g, so a reader can tell a torn document (parts of two generations)
// from a whole one.
func genDoc(id string, g int) Doc {
	n, dims := 1+g%5, 3*(g%2) // odd generations have vectors, even ones none
	d := Doc{Meta: Meta{ID: id, Title: strconv.Itoa(g), SHA256: fmt.Sprintf("%s-%d", id, g), Added: t0, Chunks: n, Dims: dims}}
	for i := range n {
		d.Chunks = append(d.Chunks, Chunk{N: i, Text: d.Meta.Title})
		if dims > 0 {
			d.Vectors = append(d.Vectors, []float32{float32(g), float32(i), -float32(g)})
		}
	}
	d.Text = strings.Repeat(d.Meta.Title+" ", n)
	return d
}

// checkWhole reports whether d is exactly one generation of itself.
func checkWhole(d Doc) error {
	g, err := strconv.Atoi(d.Meta.Title)
	if err != nil {
		return fmt.Errorf("title %q: %w", d.Meta.Title, err)
	}
	if diff := cmp.Diff(genDoc(d.Meta.ID, g), d); diff != "" {
		return fmt.Errorf("torn document %s (-generation %d +got):\n%s", d.Meta.ID, g, diff)
	}
	return nil
}

// TestStoreConcurrent runs writers, a deleter and readers on one owner at
// once: readers must only ever see whole documents, and the version must
// count every successful write. Run it with -race.
func TestStoreConcurrent(t *testing.T) {
	const (
		owner   = "u:1"
		writers = 4
		puts    = 25 // per writer
		readers = 4
	)
	ids := []string{"d0", "d1", "d2", "d3"}
	for _, sc := range stores() {
		t.Run(sc.name, func(t *testing.T) {
			ctx := t.Context()
			s := sc.open(t)
			var (
				writes  atomic.Int64 // successful Puts and Deletes
				wg      sync.WaitGroup
				readWG  sync.WaitGroup
				stopped = make(chan struct{})
			)
			for w := range writers {
				wg.Go(func() {
					for i := range puts {
						g := w*1000 + i
						if err := s.Put(ctx, owner, genDoc(ids[(w+i)%len(ids)], g)); err != nil {
							t.Errorf("Put: %v", err)
							return
						}
						writes.Add(1)
					}
				})
			}
			wg.Go(func() { // deletes, selects and receipts race with the writers
				for i := range puts {
					id := ids[i%len(ids)]
					switch err := s.Delete(ctx, owner, id); {
					case err == nil:
						writes.Add(1)
					case !errors.Is(err, ErrNotFound):
						t.Errorf("Delete: %v", err)
					}
					if err := s.Select(ctx, owner, 7, []string{id}, true); err != nil && !errors.Is(err, ErrNotFound) {
						t.Errorf("Select: %v", err)
					}
					if err := s.SetReceipt(ctx, owner, 1, i, id); err != nil && !errors.Is(err, ErrNotFound) {
						t.Errorf("SetReceipt: %v", err)
					}
				}
			})
			for range readers {
				readWG.Go(func() {
					for {
						select {
						case <-stopped:
							return
						default:
						}
						for _, want := range [][]string{nil, {"d1", "d3"}} {
							docs, err := s.Load(ctx, owner, want)
							if err != nil {
								t.Errorf("Load: %v", err)
								return
							}
							for _, d := range docs {
								if err := checkWhole(d); err != nil {
									t.Error(err)
									return
								}
							}
						}
						if _, err := s.Selection(ctx, owner, 7); err != nil {
							t.Errorf("Selection: %v", err)
							return
						}
						if _, err := s.Version(ctx, owner); err != nil {
							t.Errorf("Version: %v", err)
							return
						}
					}
				})
			}
			wg.Wait()
			close(stopped)
			readWG.Wait()

			// The counter is the version's low bits (Redis adds its epoch above them).
			if got, want := mustVersion(ctx, t, s, owner)&(1<<epochShift-1), writes.Load(); got != want {
				t.Errorf("Version = %d, want %d (one per successful write)", got, want)
			}
			for _, d := range mustLoad(ctx, t, s, owner, nil) {
				if err := checkWhole(d); err != nil {
					t.Error(err)
				}
				// The SHA-256 index points at every surviving document.
				if m, err := s.FindSHA(ctx, owner, d.Meta.SHA256); err != nil || m.ID != d.Meta.ID {
					t.Errorf("FindSHA(%s) = %q, %v; want %s", d.Meta.SHA256, m.ID, err, d.Meta.ID)
				}
			}
		})
	}
}
