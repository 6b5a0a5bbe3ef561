package docstore

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestStoreContract runs the same behavioural table against Redis and Memory.
func TestStoreContract(t *testing.T) {
	const owner = "u:1"
	a := makeDoc("a", 20, 3, 4)  // vectors and text
	b := makeDoc("b", 10, 0, 0)  // no chunks, no vectors, no text
	c := makeDoc("c", 20, 2, 0)  // same Added as a: ID breaks the tie
	d := makeDoc("d", 30, 5, 16) // added last

	tests := []struct {
		name string
		run  func(ctx context.Context, t *testing.T, s store)
	}{
		{"empty owner", func(ctx context.Context, t *testing.T, s store) {
			if got, err := s.List(ctx, owner); err != nil || len(got) != 0 {
				t.Errorf("List = %v, %v; want empty", got, err)
			}
			if got := mustLoad(ctx, t, s, owner, nil); len(got) != 0 {
				t.Errorf("Load(nil) = %v, want empty", got)
			}
			if v := mustVersion(ctx, t, s, owner); v != 0 {
				t.Errorf("Version = %d, want 0", v)
			}
			if got := mustSelection(ctx, t, s, owner, 7); len(got) != 0 {
				t.Errorf("Selection = %q, want empty", got)
			}
			wantNotFound(t, "Get", func() error { _, err := s.Get(ctx, owner, "a"); return err })
			wantNotFound(t, "Delete", func() error { return s.Delete(ctx, owner, "a") })
			wantNotFound(t, "FindSHA", func() error { _, err := s.FindSHA(ctx, owner, "sha-a"); return err })
			wantNotFound(t, "Receipt", func() error { _, err := s.Receipt(ctx, owner, 1, 1); return err })
		}},

		{"round trip", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, d, c, b, a)
			for _, want := range []Doc{a, b, c, d} {
				got, err := s.Get(ctx, owner, want.Meta.ID)
				if err != nil {
					t.Fatalf("Get(%q): %v", want.Meta.ID, err)
				}
				if diff := cmp.Diff(want.Meta, got); diff != "" {
					t.Errorf("Get(%q) (-want +got):\n%s", want.Meta.ID, diff)
				}
			}
			list, err := s.List(ctx, owner)
			if err != nil {
				t.Fatalf("List: %v", err)
			}
			if diff := cmp.Diff(metas(b, a, c, d), list); diff != "" {
				t.Errorf("List (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]Doc{b, a, c, d}, mustLoad(ctx, t, s, owner, nil)); diff != "" {
				t.Errorf("Load(nil) (-want +got):\n%s", diff)
			}
			got := mustLoad(ctx, t, s, owner, []string{"d", "nope", "a", "d"})
			if diff := cmp.Diff([]Doc{a, d}, got); diff != "" {
				t.Errorf("Load(d, nope, a, d) (-want +got):\n%s", diff)
			}
			if got := mustLoad(ctx, t, s, owner, []string{}); len(got) != 0 {
				t.Errorf("Load([]) = %d docs, want none", len(got))
			}
			// LoadChunks: the same documents without their text and vectors.
			chunksOnly, err := s.LoadChunks(ctx, owner, []string{"d", "nope", "a"})
			if err != nil {
				t.Fatalf("LoadChunks: %v", err)
			}
			bare := func(d Doc) Doc { d.Text, d.Vectors = "", nil; return d }
			if diff := cmp.Diff([]Doc{bare(a), bare(d)}, chunksOnly); diff != "" {
				t.Errorf("LoadChunks(d, nope, a) (-want +got):\n%s", diff)
			}
		}},

		{"EachVector reads the vectors in pieces and notices a replaced document", func(ctx context.Context, t *testing.T, s store) {
			big := makeDoc("big", 40, 300, 1536) // 1.8 MB of vectors: two pieces
			mustPut(ctx, t, s, owner, a, b, big)
			for _, want := range []Doc{a, b, big} {
				var got [][]float32
				err := s.EachVector(ctx, owner, want.Meta, func(i int, v []float32) {
					if i != len(got) {
						t.Fatalf("%s: vector %d after %d", want.Meta.ID, i, len(got))
					}
					got = append(got, slices.Clone(v))
				})
				if err != nil {
					t.Fatalf("EachVector(%s): %v", want.Meta.ID, err)
				}
				if diff := cmp.Diff(want.Vectors, got); diff != "" {
					t.Errorf("EachVector(%s) (-want +got):\n%s", want.Meta.ID, diff)
				}
			}
			// The caller read a's metadata when it had 3 chunks; it has 5 now.
			old := a.Meta
			mustPut(ctx, t, s, owner, makeDoc("a", 20, 5, 4))
			if err := s.EachVector(ctx, owner, old, func(int, []float32) {}); !errors.Is(err, ErrChanged) {
				t.Errorf("EachVector of a replaced document: %v, want ErrChanged", err)
			}
			if err := s.Delete(ctx, owner, "big"); err != nil {
				t.Fatal(err)
			}
			if err := s.EachVector(ctx, owner, big.Meta, func(int, []float32) {}); !errors.Is(err, ErrChanged) && !errors.Is(err, ErrNotFound) {
				t.Errorf("EachVector of a deleted document: %v, want ErrChanged or ErrNotFound", err)
			}
		}},

		{"Put sets Meta.Chunks and keeps time instants", func(ctx context.Context, t *testing.T, s store) {
			x := makeDoc("x", 0, 2, 0)
			x.Meta.Chunks = 99
			moscow := time.FixedZone("MSK", 3*3600)
			x.Meta.Added = time.Now().In(moscow) // monotonic reading and a zone
			mustPut(ctx, t, s, owner, x)
			got, err := s.Get(ctx, owner, "x")
			if err != nil {
				t.Fatalf("Get: %v", err)
			}
			if got.Chunks != 2 {
				t.Errorf("Meta.Chunks = %d, want 2", got.Chunks)
			}
			if !got.Added.Equal(x.Meta.Added) {
				t.Errorf("Added = %v, want %v", got.Added, x.Meta.Added)
			}
		}},

		{"replace an existing id", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b)
			a2 := makeDoc("a", 40, 2, 0) // fewer chunks, no vectors
			a2.Meta.Title, a2.Meta.SHA256, a2.Text = "Новая редакция", "sha-a2", ""
			mustPut(ctx, t, s, owner, a2)
			if diff := cmp.Diff([]Doc{b, a2}, mustLoad(ctx, t, s, owner, nil)); diff != "" {
				t.Errorf("Load after replacing a (-want +got):\n%s", diff)
			}
			wantNotFound(t, "FindSHA(old sha)", func() error { _, err := s.FindSHA(ctx, owner, "sha-a"); return err })
			if got, err := s.FindSHA(ctx, owner, "sha-a2"); err != nil || got.ID != "a" {
				t.Errorf("FindSHA(new sha) = %q, %v; want a", got.ID, err)
			}
		}},

		{"delete", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b)
			mustSelect(ctx, t, s, owner, 7, []string{"a", "b"}, true)
			if err := s.SetReceipt(ctx, owner, 100, 1, "a"); err != nil {
				t.Fatalf("SetReceipt: %v", err)
			}
			before := mustVersion(ctx, t, s, owner)
			if err := s.Delete(ctx, owner, "a"); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if v := mustVersion(ctx, t, s, owner); v <= before {
				t.Errorf("Version after Delete = %d, want > %d", v, before)
			}
			wantNotFound(t, "Get", func() error { _, err := s.Get(ctx, owner, "a"); return err })
			wantNotFound(t, "Delete again", func() error { return s.Delete(ctx, owner, "a") })
			wantNotFound(t, "FindSHA", func() error { _, err := s.FindSHA(ctx, owner, "sha-a"); return err })
			wantNotFound(t, "Receipt", func() error { _, err := s.Receipt(ctx, owner, 100, 1); return err })
			if got := mustLoad(ctx, t, s, owner, []string{"a"}); len(got) != 0 {
				t.Errorf("Load(a) = %d docs, want none", len(got))
			}
			if diff := cmp.Diff([]Doc{b}, mustLoad(ctx, t, s, owner, nil)); diff != "" {
				t.Errorf("Load(nil) (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"b"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection (-want +got):\n%s", diff)
			}
			// The same id stored again is a new document: not selected, no receipt.
			mustPut(ctx, t, s, owner, a)
			if diff := cmp.Diff([]string{"b"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection after re-Put (-want +got):\n%s", diff)
			}
			wantNotFound(t, "Receipt after re-Put", func() error { _, err := s.Receipt(ctx, owner, 100, 1); return err })
		}},

		{"version changes on every write", func(ctx context.Context, t *testing.T, s store) {
			writes := []func() error{
				func() error { return s.Put(ctx, owner, a) },
				func() error { return s.Put(ctx, owner, a) }, // same content still counts
				func() error { return s.Put(ctx, owner, b) },
				func() error { return s.Delete(ctx, owner, "a") },
				func() error { return s.Replace(ctx, owner, []Doc{c, d}) },
				func() error { return s.Replace(ctx, owner, nil) },
				func() error { return s.Put(ctx, owner, a) },
			}
			last := mustVersion(ctx, t, s, owner)
			for i, w := range writes {
				if err := w(); err != nil {
					t.Fatalf("write %d: %v", i, err)
				}
				v := mustVersion(ctx, t, s, owner)
				if v <= last {
					t.Errorf("after write %d Version = %d, want > %d", i, v, last)
				}
				last = v
			}
			if v := mustVersion(ctx, t, s, "u:other"); v != 0 {
				t.Errorf("Version of an untouched owner = %d, want 0", v)
			}
		}},

		{"owners are isolated", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, "u:1", a)
			if err := s.SetReceipt(ctx, "u:1", 100, 1, "a"); err != nil {
				t.Fatalf("SetReceipt: %v", err)
			}
			for _, other := range []string{"u:2", "u:12", "u:1x", "g:u:1"} {
				wantNotFound(t, other+" Get", func() error { _, err := s.Get(ctx, other, "a"); return err })
				wantNotFound(t, other+" Delete", func() error { return s.Delete(ctx, other, "a") })
				wantNotFound(t, other+" Select", func() error { return s.Select(ctx, other, 7, []string{"a"}, true) })
				wantNotFound(t, other+" SetReceipt", func() error { return s.SetReceipt(ctx, other, 100, 2, "a") })
				wantNotFound(t, other+" Receipt", func() error { _, err := s.Receipt(ctx, other, 100, 1); return err })
				wantNotFound(t, other+" FindSHA", func() error { _, err := s.FindSHA(ctx, other, "sha-a"); return err })
				if got := mustLoad(ctx, t, s, other, []string{"a"}); len(got) != 0 {
					t.Errorf("%s Load(a) = %d docs, want none", other, len(got))
				}
				if got := mustLoad(ctx, t, s, other, nil); len(got) != 0 {
					t.Errorf("%s Load(nil) = %d docs, want none", other, len(got))
				}
				if got := mustSelection(ctx, t, s, other, 7); len(got) != 0 {
					t.Errorf("%s Selection = %q, want empty", other, got)
				}
				if err := s.Replace(ctx, other, nil); err != nil {
					t.Fatalf("%s Replace: %v", other, err)
				}
			}
			if diff := cmp.Diff([]Doc{a}, mustLoad(ctx, t, s, "u:1", nil)); diff != "" {
				t.Errorf("u:1 after other owners' writes (-want +got):\n%s", diff)
			}
			if id, err := s.Receipt(ctx, "u:1", 100, 1); err != nil || id != "a" {
				t.Errorf("u:1 Receipt = %q, %v; want a", id, err)
			}
		}},

		{"selection", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b, c, d) // List order: b a c d
			mustSelect(ctx, t, s, owner, 7, []string{"d", "a"}, true)
			mustSelect(ctx, t, s, owner, 7, []string{"b", "a"}, true)
			mustSelect(ctx, t, s, owner, 8, []string{"c"}, true)
			if diff := cmp.Diff([]string{"b", "a", "d"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection(7) (-want +got):\n%s", diff)
			}
			mustSelect(ctx, t, s, owner, 7, []string{"a", "nope"}, false) // unselecting an unknown id is fine
			mustSelect(ctx, t, s, owner, 7, nil, true)
			wantNotFound(t, "Select(unknown)", func() error { return s.Select(ctx, owner, 7, []string{"c", "nope"}, true) })
			if diff := cmp.Diff([]string{"b", "d"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection(7) after unselect and a failed select (-want +got):\n%s", diff)
			}
			if err := s.Delete(ctx, owner, "d"); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if diff := cmp.Diff([]string{"b"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection(7) after Delete (-want +got):\n%s", diff)
			}
			if err := s.ClearSelection(ctx, owner, 7); err != nil {
				t.Fatalf("ClearSelection: %v", err)
			}
			if got := mustSelection(ctx, t, s, owner, 7); len(got) != 0 {
				t.Errorf("Selection(7) after ClearSelection = %q, want empty", got)
			}
			if diff := cmp.Diff([]string{"c"}, mustSelection(ctx, t, s, owner, 8)); diff != "" {
				t.Errorf("Selection(8) (-want +got):\n%s", diff)
			}
		}},

		{"Replace leaves selections alone", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b)
			mustSelect(ctx, t, s, owner, 7, []string{"a", "b"}, true)
			if err := s.Replace(ctx, owner, []Doc{b, d}); err != nil {
				t.Fatalf("Replace: %v", err)
			}
			if diff := cmp.Diff([]string{"b"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection after Replace without a (-want +got):\n%s", diff)
			}
			if err := s.Replace(ctx, owner, []Doc{a, b, d}); err != nil {
				t.Fatalf("Replace: %v", err)
			}
			if diff := cmp.Diff([]string{"b", "a"}, mustSelection(ctx, t, s, owner, 7)); diff != "" {
				t.Errorf("Selection after a came back (-want +got):\n%s", diff)
			}
		}},

		{"receipts", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b)
			set := []struct {
				chat int64
				msg  int
				id   string
			}{{100, 1, "a"}, {100, 2, "b"}, {-100123, 1, "b"}, {100, 1, "b"} /* overwrites */}
			for _, r := range set {
				if err := s.SetReceipt(ctx, owner, r.chat, r.msg, r.id); err != nil {
					t.Fatalf("SetReceipt(%d, %d, %q): %v", r.chat, r.msg, r.id, err)
				}
			}
			for _, want := range set[1:] {
				if id, err := s.Receipt(ctx, owner, want.chat, want.msg); err != nil || id != want.id {
					t.Errorf("Receipt(%d, %d) = %q, %v; want %q", want.chat, want.msg, id, err, want.id)
				}
			}
			wantNotFound(t, "Receipt(unknown)", func() error { _, err := s.Receipt(ctx, owner, 100, 3); return err })
			wantNotFound(t, "SetReceipt(unknown doc)", func() error { return s.SetReceipt(ctx, owner, 100, 3, "nope") })
		}},

		{"FindSHA", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b)
			if got, err := s.FindSHA(ctx, owner, "sha-a"); err != nil || !cmp.Equal(got, a.Meta) {
				t.Errorf("FindSHA(sha-a) = %+v, %v; want a", got, err)
			}
			wantNotFound(t, "FindSHA(empty)", func() error { _, err := s.FindSHA(ctx, owner, ""); return err })
			wantNotFound(t, "FindSHA(unknown)", func() error { _, err := s.FindSHA(ctx, owner, "sha-zz"); return err })

			// Duplicates: the last Put wins; deleting it falls back to the first in List order.
			dup1, dup2 := makeDoc("dup1", 50, 1, 0), makeDoc("dup2", 60, 1, 0)
			dup1.Meta.SHA256, dup2.Meta.SHA256 = "sha-a", "sha-a"
			mustPut(ctx, t, s, owner, dup2, dup1)
			wantSHA := func(want string) {
				t.Helper()
				got, err := s.FindSHA(ctx, owner, "sha-a")
				if want == "" {
					if !errors.Is(err, ErrNotFound) {
						t.Errorf("FindSHA(sha-a) = %q, %v; want ErrNotFound", got.ID, err)
					}
					return
				}
				if err != nil || got.ID != want {
					t.Errorf("FindSHA(sha-a) = %q, %v; want %q", got.ID, err, want)
				}
			}
			wantSHA("dup1")
			if err := s.Delete(ctx, owner, "dup1"); err != nil {
				t.Fatal(err)
			}
			wantSHA("a")
			a2 := a
			a2.Meta.SHA256 = "sha-other"
			mustPut(ctx, t, s, owner, a2)
			wantSHA("dup2")
			if err := s.Delete(ctx, owner, "dup2"); err != nil {
				t.Fatal(err)
			}
			wantSHA("")
		}},

		{"Replace", func(ctx context.Context, t *testing.T, s store) {
			mustPut(ctx, t, s, owner, a, b, c)
			b2 := makeDoc("b", 10, 2, 4)
			b2.Meta.Title = "Обновлено"
			b2.Meta.Topic, b2.Meta.Jurisdiction, b2.Meta.Updated = "НДС", "RU", t0.Add(time.Hour)
			if err := s.Replace(ctx, owner, []Doc{d, b2}); err != nil {
				t.Fatalf("Replace: %v", err)
			}
			if diff := cmp.Diff([]Doc{b2, d}, mustLoad(ctx, t, s, owner, nil)); diff != "" {
				t.Errorf("Load after Replace (-want +got):\n%s", diff)
			}
			wantNotFound(t, "Get(a)", func() error { _, err := s.Get(ctx, owner, "a"); return err })
			wantNotFound(t, "FindSHA(sha-a)", func() error { _, err := s.FindSHA(ctx, owner, "sha-a"); return err })
			if got, err := s.FindSHA(ctx, owner, "sha-d"); err != nil || got.ID != "d" {
				t.Errorf("FindSHA(sha-d) = %q, %v; want d", got.ID, err)
			}

			// An invalid set changes nothing.
			v := mustVersion(ctx, t, s, owner)
			bad := [][]Doc{
				{a, a},
				{a, {Meta: Meta{ID: "x:y"}}},
				{a, {Meta: Meta{ID: "v", Dims: 2}, Chunks: []Chunk{{Text: "t"}}}},
			}
			for _, docs := range bad {
				if err := s.Replace(ctx, owner, docs); !errors.Is(err, ErrInvalid) {
					t.Errorf("Replace(%d docs) = %v, want ErrInvalid", len(docs), err)
				}
			}
			if diff := cmp.Diff([]Doc{b2, d}, mustLoad(ctx, t, s, owner, nil)); diff != "" {
				t.Errorf("Load after invalid Replace (-want +got):\n%s", diff)
			}
			if got := mustVersion(ctx, t, s, owner); got != v {
				t.Errorf("Version after invalid Replace = %d, want %d", got, v)
			}

			if err := s.Replace(ctx, owner, []Doc{}); err != nil {
				t.Fatalf("Replace(empty): %v", err)
			}
			if got := mustLoad(ctx, t, s, owner, nil); len(got) != 0 {
				t.Errorf("Load after Replace(empty) = %d docs, want none", len(got))
			}
		}},

		{"returned values are copies", func(ctx context.Context, t *testing.T, s store) {
			in := makeDoc("a", 20, 3, 4)
			mustPut(ctx, t, s, owner, in)
			in.Chunks[0].Text = "changed by the caller after Put"
			in.Vectors[0][0] = 999

			got := mustLoad(ctx, t, s, owner, nil)
			got[0].Chunks[0].Text = "changed by the caller after Load"
			got[0].Vectors[0][0] = 999
			got[0].Vectors[0] = append(got[0].Vectors[0], 999) // must not spill into vector 1

			if diff := cmp.Diff([]Doc{a}, mustLoad(ctx, t, s, owner, nil)); diff != "" {
				t.Errorf("stored document changed through a caller's slice (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(a.Vectors[1], got[0].Vectors[1]); diff != "" {
				t.Errorf("append to vector 0 changed vector 1 (-want +got):\n%s", diff)
			}
		}},
	}

	for _, sc := range stores() {
		t.Run(sc.name, func(t *testing.T) {
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					tt.run(t.Context(), t, sc.open(t))
				})
			}
		})
	}
}

// TestStoreRejectsInvalid checks that every method rejects bad owners, bad
// ids and inconsistent documents with ErrInvalid, and stores nothing.
func TestStoreRejectsInvalid(t *testing.T) {
	good := makeDoc("a", 0, 2, 3)
	badOwners := []string{"", "u 1", "u\t1", "u\n1", "u\u00a01", "{u:1}", "u:{1", "u:1}"}
	badIDs := []string{"", "a:b", ":", strings.Repeat("x", MaxIDLen+1)}
	badDocs := map[string]Doc{
		"negative dims":          {Meta: Meta{ID: "v", Dims: -1}},
		"vectors without dims":   {Meta: Meta{ID: "v"}, Chunks: []Chunk{{Text: "t"}}, Vectors: [][]float32{{1}}},
		"dims without vectors":   {Meta: Meta{ID: "v", Dims: 2}, Chunks: []Chunk{{Text: "t"}}},
		"fewer vectors":          {Meta: Meta{ID: "v", Dims: 1}, Chunks: []Chunk{{Text: "t"}, {Text: "u"}}, Vectors: [][]float32{{1}}},
		"more vectors":           {Meta: Meta{ID: "v", Dims: 1}, Chunks: []Chunk{{Text: "t"}}, Vectors: [][]float32{{1}, {2}}},
		"vector of wrong length": {Meta: Meta{ID: "v", Dims: 2}, Chunks: []Chunk{{Text: "t"}, {Text: "u"}}, Vectors: [][]float32{{1, 2}, {3}}},
		"time out of range":      {Meta: Meta{ID: "v", Added: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}},
	}

	// calls invokes every method with owner and id.
	calls := func(ctx context.Context, s store, owner, id string) map[string]error {
		d := good
		d.Meta.ID = id
		errs := map[string]error{
			"Put":        s.Put(ctx, owner, d),
			"Delete":     s.Delete(ctx, owner, id),
			"Select":     s.Select(ctx, owner, 1, []string{id}, true),
			"Unselect":   s.Select(ctx, owner, 1, []string{id}, false),
			"SetReceipt": s.SetReceipt(ctx, owner, 1, 1, id),
			"Replace":    s.Replace(ctx, owner, []Doc{d}),
		}
		_, errs["Get"] = s.Get(ctx, owner, id)
		_, errs["Load"] = s.Load(ctx, owner, []string{id})
		if owner != "u:1" { // methods without an id
			_, errs["List"] = s.List(ctx, owner)
			_, errs["Load(nil)"] = s.Load(ctx, owner, nil)
			_, errs["FindSHA"] = s.FindSHA(ctx, owner, "sha")
			_, errs["Version"] = s.Version(ctx, owner)
			_, errs["Selection"] = s.Selection(ctx, owner, 1)
			_, errs["Receipt"] = s.Receipt(ctx, owner, 1, 1)
			errs["ClearSelection"] = s.ClearSelection(ctx, owner, 1)
		}
		return errs
	}

	for _, sc := range stores() {
		t.Run(sc.name, func(t *testing.T) {
			ctx := t.Context()
			s := sc.open(t)
			for _, owner := range badOwners {
				for name, err := range calls(ctx, s, owner, "a") {
					if !errors.Is(err, ErrInvalid) {
						t.Errorf("owner %q: %s = %v, want ErrInvalid", owner, name, err)
					}
				}
			}
			for _, id := range badIDs {
				for name, err := range calls(ctx, s, "u:1", id) {
					if !errors.Is(err, ErrInvalid) {
						t.Errorf("id %q: %s = %v, want ErrInvalid", id, name, err)
					}
				}
			}
			for name, d := range badDocs {
				if err := s.Put(ctx, "u:1", d); !errors.Is(err, ErrInvalid) {
					t.Errorf("Put(%s) = %v, want ErrInvalid", name, err)
				}
			}
			if v := mustVersion(ctx, t, s, "u:1"); v != 0 {
				t.Errorf("Version = %d after only invalid writes, want 0", v)
			}
			// The longest valid id works.
			long := good
			long.Meta.ID = strings.Repeat("x", MaxIDLen)
			mustPut(ctx, t, s, "u:1", long)
		})
	}
}

// wantNotFound fails the test unless call returns ErrNotFound.
func wantNotFound(t *testing.T, what string, call func() error) {
	t.Helper()
	if err := call(); !errors.Is(err, ErrNotFound) {
		t.Errorf("%s = %v, want ErrNotFound", what, err)
	}
}
