package understand

import "testing"

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
