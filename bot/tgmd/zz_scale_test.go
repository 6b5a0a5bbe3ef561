package tgmd

import (
	"strings"
	"testing"
	"time"
)

func TestScaleTmp(t *testing.T) {
	gens := map[string]func(n int) string{
		"quotes":   func(n int) string { return strings.Repeat(">", n) + " x" },
		"lists":    func(n int) string { return strings.Repeat("- ", n) + "x" },
		"emph":     func(n int) string { return strings.Repeat("*", n) + "x" + strings.Repeat("*", n) },
		"links":    func(n int) string { return strings.Repeat("[", n) + "x" + strings.Repeat("](http://a.ru)", n) },
		"boldcode": func(n int) string { return strings.Repeat("**a `b` ", n) },
		"nestbold": func(n int) string { return strings.Repeat("**a *b _c ", n) + strings.Repeat("`x` ", n) + strings.Repeat("_ d* e**", n) },
		"amp":      func(n int) string { return strings.Repeat("&aaaaaaaaaaaaaaaaaaaaaaaaaa", n) },
		"table":    func(n int) string { return "|a|b|\n|-|-|\n" + strings.Repeat("|x|y|\n", n) },
		"nestlist": func(n int) string { var sb strings.Builder; for i := 0; i < n; i++ { sb.WriteString(strings.Repeat("  ", i) + "- x\n") }; return sb.String() },
		"words":    func(n int) string { return strings.Repeat("слово ", n) },
	}
	for name, g := range gens {
		var prev time.Duration
		for _, n := range []int{2000, 8000} {
			in := g(n)
			st := time.Now()
			m := Convert(in)
			parts := Split(m, 100)
			d := time.Since(st)
			t.Logf("%s n=%d in=%d out=%d ents=%d parts=%d %v ratio=%.1f", name, n, len(in), len(m.Text), len(m.Entities), len(parts), d, float64(d)/float64(max(prev, 1)))
			prev = d
		}
	}
}
