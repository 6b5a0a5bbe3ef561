package onec

import "testing"

func TestLike(t *testing.T) {
	tests := []struct {
		s, pattern string
		want       bool
	}{
		{"62.01", "62.%", true},
		{"62.01.1", "62.%", true},
		{"62", "62.%", false},
		{"620", "62.%", false},
		{"62.01", "62.0_", true},
		{"62.011", "62.0_", false},
		{"60.02", "6[02].%", true},
		{"61.02", "6[02].%", false},
		{"61.02", "6[^02].%", true},
		{"68.02", "6[5-9].02", true},
		{"51", "%", true},
		{"", "%", true},
		{"", "", true},
		{"51", "", false},
		{"a[b", "a[b", true},
		{"90.01.1", "%.1", true},
		{"90.01.1", "%.01%", true},
	}
	for _, tt := range tests {
		if got := like(tt.s, tt.pattern); got != tt.want {
			t.Errorf("like(%q, %q) = %v, want %v", tt.s, tt.pattern, got, tt.want)
		}
	}
}
