package md

import "testing"

func TestEscape(t *testing.T) {
	tests := map[string]string{
		"ООО «Рога_и*Копыта»": `ООО «Рога\_и\*Копыта»`,
		"a\\(b)c":             `a\\\(b\)c`,
		"1+1=2!":              `1\+1=2\!`,
		"[x](y)":              `\[x\]\(y\)`,
		"":                    "",
	}
	for in, want := range tests {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
}
