package kb_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/kb"
)

// FuzzParse feeds arbitrary bytes to Parse. It must not panic, every error
// must be one of the documented kinds, and every article it returns must
// keep the package's promises.
func FuzzParse(f *testing.F) {
	// Two real articles rather than the whole sample: the fuzzer minimises every
	// interesting input, and doing that to a 100 KB file stalls it.
	var sample bytes.Buffer
	w := csv.NewWriter(&sample)
	w.Write([]string{"title", "content", "topic", "jurisdiction", "updated_at"})
	for _, a := range kb.Sample()[:2] {
		w.Write([]string{a.Title, a.Content, a.Topic, a.Jurisdiction, a.Updated.Format(time.DateOnly)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Fatal(err)
	}
	f.Add(sample.Bytes())
	f.Add([]byte(header + "Акт сверки,Текст,Расчёты,РФ,2026-01-15\n"))
	f.Add([]byte("\uFEFFtitle;content;topic;jurisdiction;updated_at\nА;\"много\nстрок; \"\"кавычки\"\"\";Т;РФ;15.01.2026\n"))
	f.Add([]byte(header + ",,,,\nА,Б,,,\nА,Б,,,2026-02-30\n"))
	f.Add([]byte(header + "\"незакрытая,,,,\n"))
	f.Add([]byte("title,content\n\xff"))

	f.Fuzz(func(t *testing.T, data []byte) {
		articles, err := kb.Parse(strings.NewReader(string(data)))
		var pe *kb.ParseError
		switch {
		case err == nil:
		case errors.As(err, &pe):
			if len(pe.Problems) == 0 {
				t.Error("ParseError without problems")
			}
			for _, p := range pe.Problems {
				if !strings.HasPrefix(p, "строка ") {
					t.Errorf("problem %q does not name its row", p)
				}
			}
		case errors.Is(err, kb.ErrFormat), errors.Is(err, kb.ErrTooLarge):
			if articles != nil {
				t.Errorf("%d articles with a fatal error %v", len(articles), err)
			}
		default:
			t.Errorf("unexpected error kind: %v", err)
		}
		ids := make(map[string]bool)
		for _, a := range articles {
			if a.Title == "" || strings.TrimSpace(a.Content) == "" || a.Updated.IsZero() {
				t.Errorf("incomplete article %+v", a)
			}
			if a.ID != kb.ArticleID(a.Title) || ids[a.ID] {
				t.Errorf("bad or repeated ID %q for %q", a.ID, a.Title)
			}
			ids[a.ID] = true
			if !utf8.ValidString(a.Title) || !utf8.ValidString(a.Content) {
				t.Errorf("invalid UTF-8 in %q", a.Title)
			}
			if h, m, s := a.Updated.Clock(); h != 0 || m != 0 || s != 0 || a.Updated.Location() != time.UTC {
				t.Errorf("%q: updated %v is not midnight UTC", a.Title, a.Updated)
			}
			_ = a.Markdown()
		}
	})
}
