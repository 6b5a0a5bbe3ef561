package extract

import (
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// chunkDoc builds a multi-page document full of amounts, INNs and contract numbers.
func chunkDoc(pages int, seed int64) Document {
	rng := rand.New(rand.NewSource(seed))
	words := strings.Fields("поставщик покупатель товар оплата договор акт счёт сумма срок поставки условия " +
		"ответственность стороны обязуется передать принять течение банковских дней подписания")
	d := Document{Format: "txt"}
	for p := 1; p <= pages; p++ {
		var b strings.Builder
		off := 0
		for s := 0; s < 40; s++ {
			if s%10 == 0 {
				h := fmt.Sprintf("%d.%d. Раздел %d", p, s/10+1, s)
				if b.Len() > 0 {
					b.WriteString("\n\n")
				}
				off = len([]rune(b.String()))
				d.Headings = append(d.Headings, Heading{Page: p, Offset: off, Level: 2, Text: h})
				b.WriteString(h + "\n")
			}
			n := 5 + rng.Intn(25)
			for w := 0; w < n; w++ {
				switch rng.Intn(12) {
				case 0:
					fmt.Fprintf(&b, "%d %03d %03d,%02d", 1+rng.Intn(999), rng.Intn(1000), rng.Intn(1000), rng.Intn(100))
				case 1:
					fmt.Fprintf(&b, "ИНН %010d", rng.Int63n(1e10))
				case 2:
					fmt.Fprintf(&b, "№ П-%d/2025", 1+rng.Intn(99))
				default:
					b.WriteString(words[rng.Intn(len(words))])
				}
				if w < n-1 {
					b.WriteByte(' ')
				}
			}
			b.WriteString(". ")
			if rng.Intn(4) == 0 {
				b.WriteString("\n")
			}
		}
		d.Pages = append(d.Pages, Page{Number: p, Text: strings.TrimSpace(b.String())})
	}
	for _, p := range d.Pages {
		d.Chars += len([]rune(p.Text))
	}
	return d
}

var protectedRe = regexp.MustCompile(`\d{1,3}(?: \d{3})+,\d{2}|ИНН \d{10}|№ П-\d+/2025`)

// checkChunks verifies the invariants of Chunks on d.
func checkChunks(t *testing.T, d Document, o ChunkOptions) []Chunk {
	t.Helper()
	chunks := Chunks(d, o)
	text := []rune(d.Text())
	size := o.Size
	if size <= 0 {
		size = 1200
	}
	size = max(size, 16)
	covered := make([]bool, len(text))
	for i, c := range chunks {
		r := []rune(c.Text)
		if c.Index != i || len(r) == 0 || len(r) > size {
			t.Fatalf("chunk %d: index %d, %d runes (size %d)", i, c.Index, len(r), size)
		}
		if c.Start < 0 || c.Start+len(r) > len(text) || string(text[c.Start:c.Start+len(r)]) != c.Text {
			t.Fatalf("chunk %d is not at Start %d", i, c.Start)
		}
		if i > 0 && c.Start <= chunks[i-1].Start {
			t.Fatalf("chunk %d does not advance", i)
		}
		for k := c.Start; k < c.Start+len(r); k++ {
			covered[k] = true
		}
	}
	for k, r := range text {
		if !covered[k] && !unicode.IsSpace(r) {
			t.Fatalf("rune %d (%q) is in no chunk", k, r)
		}
	}
	if !reflect.DeepEqual(chunks, Chunks(d, o)) {
		t.Fatal("not deterministic")
	}
	return chunks
}

func TestChunks(t *testing.T) {
	d := chunkDoc(5, 1)
	o := ChunkOptions{}
	chunks := checkChunks(t, d, o)
	if len(chunks) < 10 {
		t.Fatalf("only %d chunks for %d runes", len(chunks), d.Chars)
	}
	text := []rune(d.Text())
	// Protected spans are never cut: every occurrence in the text lies whole in some chunk that
	// contains its start.
	for _, m := range protectedRe.FindAllStringIndex(string(text), -1) {
		s := len([]rune(string(text)[:m[0]]))
		e := s + len([]rune(string(text)[m[0]:m[1]]))
		ok := false
		for _, c := range chunks {
			if c.Start <= s && e <= c.Start+len([]rune(c.Text)) {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("%q split", string(text[s:e]))
		}
	}
	for i, c := range chunks {
		r := []rune(c.Text)
		// Sizes: every chunk but the last is at least half full.
		if i < len(chunks)-1 && len(r) < 600 {
			t.Errorf("chunk %d has %d runes", i, len(r))
		}
		if i == 0 {
			continue
		}
		prev := chunks[i-1]
		ov := prev.Start + len([]rune(prev.Text)) - c.Start
		if ov <= 0 || ov > 200 {
			t.Errorf("overlap between %d and %d = %d", i-1, i, ov)
		}
	}
	// Page and heading carried from the chunk start.
	pageStart := map[int]int{}
	off := 0
	for _, p := range d.Pages {
		pageStart[p.Number] = off
		off += len([]rune(p.Text)) + len(pageSep)
	}
	for _, c := range chunks {
		wantPage, wantHead := 0, ""
		for _, p := range d.Pages {
			if pageStart[p.Number] <= c.Start {
				wantPage = p.Number
			}
		}
		for _, h := range d.Headings {
			if pageStart[h.Page]+h.Offset <= c.Start {
				wantHead = h.Text
			}
		}
		if c.Page != wantPage || c.Heading != wantHead {
			t.Errorf("chunk %d at %d: page %d heading %q, want %d %q", c.Index, c.Start, c.Page, c.Heading, wantPage, wantHead)
		}
	}
	// Chunks prefer paragraph and sentence ends.
	good := 0
	for _, c := range chunks[:len(chunks)-1] {
		if strings.HasSuffix(c.Text, ".") || strings.HasSuffix(c.Text, "Раздел") || unicode.IsDigit([]rune(c.Text)[len([]rune(c.Text))-1]) {
			good++
		}
	}
	if good*2 < len(chunks) {
		t.Errorf("only %d of %d chunks end at a sentence or heading", good, len(chunks))
	}
}

func TestChunksOptions(t *testing.T) {
	d := chunkDoc(2, 2)
	for _, o := range []ChunkOptions{{Size: 100, Overlap: -1}, {Size: 300, Overlap: 100}, {Size: 50, Overlap: 40}, {Size: 3}, {Size: 100000}} {
		chunks := checkChunks(t, d, o)
		if o.Overlap < 0 {
			for i := 1; i < len(chunks); i++ {
				if chunks[i].Start < chunks[i-1].Start+len([]rune(chunks[i-1].Text)) {
					t.Errorf("overlap with Overlap<0")
				}
			}
		}
	}
	// A single huge word is still cut to the size bound.
	checkChunks(t, Document{Pages: []Page{{1, strings.Repeat("а", 5000)}}}, ChunkOptions{Size: 100})
	if c := Chunks(Document{}, ChunkOptions{}); len(c) != 0 {
		t.Errorf("empty document: %v", c)
	}
	// Real extraction output.
	doc := mustExtract(t, "договор.docx", fixtureDOCX(t))
	chunks := checkChunks(t, doc, ChunkOptions{Size: 80, Overlap: 20})
	if chunks[0].Heading != "1. Предмет договора" || chunks[len(chunks)-1].Page != 2 {
		t.Errorf("docx chunks: %+v", chunks)
	}
}

// A contract's text layer wraps its clauses over lines, as a PDF does. Chunks are cut before a
// clause's number and the next chunk starts at the last clause the previous one holds, so every
// clause lies whole, with its number, in some chunk (answers quote it by its number).
func TestChunksKeepClausesWhole(t *testing.T) {
	wrap := func(s string) string {
		var lines []string
		line := ""
		for _, w := range strings.Fields(s) {
			if line != "" && len([]rune(line))+1+len([]rune(w)) > 90 {
				lines, line = append(lines, line), w
				continue
			}
			line = strings.TrimSpace(line + " " + w)
		}
		return strings.Join(append(lines, line), "\n")
	}
	var b strings.Builder
	var clauses []string
	for sec := 1; sec <= 6; sec++ {
		fmt.Fprintf(&b, "%d. Раздел номер %d\n", sec, sec)
		for c := 1; c <= 4; c++ {
			clause := fmt.Sprintf("%d.%d. Стороны договорились, что условие действует в полном объёме: Покупатель оплачивает товар "+
				"в течение %d банковских дней, а Поставщик обязуется поставить товар надлежащего качества в согласованные сроки "+
				"(п. 5.2. Договора) и по ценам спецификации.", sec, c, sec*c+2)
			clauses = append(clauses, clause)
			b.WriteString(wrap(clause) + "\n")
		}
	}
	d := Document{Pages: []Page{{Number: 1, Text: b.String()}}}
	chunks := checkChunks(t, d, ChunkOptions{})
	for _, clause := range clauses {
		whole := false
		for _, c := range chunks {
			whole = whole || strings.Contains(strings.Join(strings.Fields(c.Text), " "), clause)
		}
		if !whole {
			t.Errorf("no chunk holds %q whole", clause[:30])
		}
	}
	for _, c := range chunks[1:] {
		if !regexp.MustCompile(`^\d\.(\d\.)? `).MatchString(c.Text) {
			t.Errorf("chunk %d starts inside a clause: %q", c.Index, c.Text[:40])
		}
	}
}
