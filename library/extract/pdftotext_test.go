package extract

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The comparison of our PDF reader with poppler's pdftotext (issue #31, «Text PDFs»): the same
// corpus (pdfcorpus_test.go) through both, scored against the known text. The figures are in
// docs/benchmarks.md, the decision in docs/design-notes.md; BenchmarkPDFReaders measures speed and
// peak memory.

// pdftotextPath finds the command; without it the comparison skips, unless FINBOT_REQUIRE_OCR=1
// (the CI machine installs poppler-utils with tesseract).
func pdftotextPath(t testing.TB) string {
	p, err := lookPDFToText()
	if err != nil {
		if os.Getenv("FINBOT_REQUIRE_OCR") == "1" {
			t.Fatalf("pdftotext is required (FINBOT_REQUIRE_OCR=1): %v", err)
		}
		t.Skip("pdftotext not installed (Debian poppler-utils)")
	}
	return p
}

func lookPDFToText() (string, error) { return exec.LookPath("pdftotext") }

// popplerRun is one pdftotext run: its text (pages split at form feeds), wall time and peak RSS.
type popplerRun struct {
	pages  []string
	wall   time.Duration
	maxRSS int64 // bytes
}

var errPopplerOutput = errors.New("pdftotext: output over the limit")

// runPDFToText runs pdftotext as the bot would: the input in a temporary file, a clean
// environment, a timeout through ctx, the output bounded (the process is killed past it).
func runPDFToText(ctx context.Context, bin string, data []byte, maxOut int64, args ...string) (popplerRun, error) {
	return runPDFToTextIn(ctx, nil, bin, data, maxOut, args...)
}

// runPDFToTextIn runs pdftotext under a wrapper command (nil = none). With GNU time as the
// wrapper ("/usr/bin/time -f maxrss=%M") the peak RSS is pdftotext's own: Go starts a child
// with vfork, and Linux then counts the parent's high-water RSS in the child's ru_maxrss, so the
// direct child's figure is the test binary's; time forks pdftotext from its own small image.
func runPDFToTextIn(ctx context.Context, wrap []string, bin string, data []byte, maxOut int64, args ...string) (popplerRun, error) {
	var r popplerRun
	dir, err := os.MkdirTemp("", "finbot-pdf-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	in := filepath.Join(dir, "in.pdf")
	if err := os.WriteFile(in, data, 0o600); err != nil {
		return r, err
	}
	argv := append(append(append(append([]string(nil), wrap...), bin, "-q", "-enc", "UTF-8"), args...), in, "-")
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	// Its own process group, killed whole: a wrapper's child must not outlive the timeout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.Env = []string{}
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return r, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 4096}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return r, err
	}
	out, rerr := io.ReadAll(io.LimitReader(stdout, maxOut+1))
	if int64(len(out)) > maxOut {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		rerr = errPopplerOutput
	}
	werr := cmd.Wait()
	r.wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.maxRSS = ru.Maxrss << 10 // kilobytes on Linux
	}
	if wrap != nil {
		r.maxRSS = 0
		if i := strings.LastIndex(stderr.String(), "maxrss="); i >= 0 {
			if kb, err := strconv.ParseInt(strings.TrimSpace(stderr.String()[i+7:]), 10, 64); err == nil {
				r.maxRSS = kb << 10
			}
		}
	}
	switch {
	case rerr != nil:
		return r, rerr
	case ctx.Err() != nil:
		return r, ctx.Err()
	case werr != nil:
		return r, fmt.Errorf("pdftotext: %w: %s", werr, strings.TrimSpace(stderr.String()))
	case wrap != nil && strings.Contains(stderr.String(), "Command exited with non-zero status"):
		return r, fmt.Errorf("pdftotext: %s", strings.TrimSpace(stderr.String()))
	}
	r.pages = strings.Split(strings.TrimSuffix(string(out), "\f"), "\f")
	return r, nil
}

type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if k := l.n - l.b.Len(); k > 0 {
		l.b.Write(p[:min(k, len(p))])
	}
	return len(p), nil
}

// popplerText is pdftotext's output as the document would store it: each page normalised, the
// non-empty pages separated by a blank line (Document.Text).
func popplerText(pages []string) string {
	var parts []string
	for _, p := range pages {
		if p = Normalize(p); p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, pageSep)
}

// popplerModes are the pdftotext invocations compared: reading order (the default), -layout
// (physical layout, columns of spaces) and -raw (content-stream order).
var popplerModes = []struct {
	name string
	args []string
}{
	{"pdftotext", nil},
	{"pdftotext -layout", []string{"-layout"}},
	{"pdftotext -raw", []string{"-raw"}},
}

var pdftotextModes = flag.Bool("pdftotext-modes", false, "TestPDFReaderQuality: compare -layout and -raw too")

// TestPDFReaderQuality scores our reader on the corpus always, and pdftotext beside it when the
// command is installed. Our reader must keep what the downstream relies on: every clause number
// at a line start, every table row on one line, every amount whole, and the words in order.
// Run with -v for the per-document table (`-args -pdftotext-modes` for -layout and -raw as well).
func TestPDFReaderQuality(t *testing.T) {
	corpus := pdfCorpus(t)
	ours := &pdfTotals{}
	for _, c := range corpus {
		d, err := Extract(context.Background(), "x.pdf", c.data, Limits{})
		if c.fail {
			if !errors.Is(err, ErrEncrypted) {
				t.Errorf("%s: %v, want ErrEncrypted", c.name, err)
			}
			continue
		}
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		s := scorePDF(c.want, d.Text(), c.rows) // on failure: the denominators
		ours.add(c.name, c.want, s, err)
		t.Logf("ours      %-40s %s", c.name, fmtScore(s, err))
	}
	t.Logf("ours total: %s (failed on %v)", ours, ours.names)
	// Floors for our reader (deterministic: no poppler involved). It refuses two files that
	// pdftotext reads (AES-256, a wrong cross-reference table); long table rows and amounts that
	// the printing wraps over two lines are lost to every reader alike.
	w := float64(ours.words)
	if ours.recall/w < 0.99 || ours.order/w < 0.99 || ours.clauses < ours.clausesN-1 ||
		float64(ours.rows) < 0.8*float64(ours.rowsN) || float64(ours.amounts) < 0.97*float64(ours.amountsN) {
		t.Errorf("our reader fell below its floors: %s", ours)
	}
	if want := "[encrypted/aes256_owner.pdf hand/xref offsets wrong]"; fmt.Sprint(ours.names) != want {
		t.Errorf("our reader failed on %v, want %s", ours.names, want)
	}

	bin := pdftotextPath(t)
	modes := popplerModes[:1]
	if *pdftotextModes {
		modes = popplerModes
	}
	for _, m := range modes {
		tot := &pdfTotals{}
		for _, c := range corpus {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			r, err := runPDFToText(ctx, bin, c.data, 64<<20, m.args...)
			cancel()
			if c.fail {
				if err == nil {
					t.Errorf("%s %s: read without the password", m.name, c.name)
				}
				continue
			}
			if c.want == "" {
				if err != nil {
					t.Errorf("%s %s: %v", m.name, c.name, err)
				}
				continue
			}
			s := scorePDF(c.want, popplerText(r.pages), c.rows) // on failure: the denominators
			tot.add(c.name, c.want, s, err)
			t.Logf("%-17s %-40s %s", m.name, c.name, fmtScore(s, err))
		}
		t.Logf("%s total: %s (failed on %v)", m.name, tot, tot.names)
	}
}

func fmtScore(s pdfScore, err error) string {
	if err != nil {
		return "FAILED: " + outcome(err)
	}
	return fmt.Sprintf("R %.3f P %.3f O %.3f clauses %d/%d rows %d/%d amounts %d/%d",
		s.recall, s.precision, s.order, s.clauses, s.clausesN, s.rows, s.rowsN, s.amounts, s.amountsN)
}
