package understand

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
)

func TestWrittenDative(t *testing.T) {
	for _, c := range []struct {
		written, name string
		want          bool
	}{
		{"меридиану", "ООО «Меридиан»", true},
		{"ромашке", "ООО «Ромашка»", true},
		{"алтаю", "ООО «Алтай»", true},
		{"меридиан", "ООО «Меридиан»", false},
		{"меридиана", "ООО «Меридиан»", false}, // whose: the genitive
		{"альфой", "ООО «Альфа»", false},       // «перед альфой»: the instrumental, said by «перед»
	} {
		if got := writtenDative(c.written, c.name); got != c.want {
			t.Errorf("writtenDative(%q, %q) = %v, want %v", c.written, c.name, got, c.want)
		}
	}
}

// A document's part after «по» is no company 1C does not know: «первый платёж по графику» had
// answered «Не нашёл в 1С контрагента «графику»».
func TestDocumentPartIsNoCompany(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	none := func() *recipe.Catalogs { return nil }
	for _, text := range []string{"если выберем только 45 млн какой будет первый платёж по графику", "долг по спецификации"} {
		if d := p.Understand(Input{Text: text, Now: now}, nil, none); d.Unknown != "" {
			t.Errorf("%q: unknown company %q", text, d.Unknown)
		}
	}
}
