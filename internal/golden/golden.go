// Package golden compares what a test produced with a file kept beside it (a golden file), and
// rewrites the file under `go test -update`. Only tests import it.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files from current output")

// Updating reports whether the test runs with -update.
func Updating() bool { return *update }

// Check compares got with the file at path (relative to the test's package, e.g.
// "testdata/x.golden") and returns the file's content. Under -update it first writes got
// there, creating the folder.
func Check(t testing.TB, path, got string) (want string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden file (go test -run '%s' -update writes it): %v", t.Name(), err)
	}
	if diff := cmp.Diff(string(b), got); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update accepts it):\n%s", path, diff)
	}
	return string(b)
}
