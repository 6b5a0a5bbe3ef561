package probes

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
)

func TestNormalizeReasonCode(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"registered code unchanged", "guarded_mcp_discovery_plan_allowed", "guarded_mcp_discovery_plan_allowed"},
		{"allowed punctuation kept", "a.b:c-d_e", "a.b:c-d_e"},
		{"ascii lower-cased", "Confirmed_Facts", "confirmed_facts"},
		{"cyrillic kept and lower-cased", "Нет Данных", "нет_данных"},
		{"cyrillic with digits and dot", "Остаток по счёту 60.01", "остаток_по_счёту_60.01"},
		{"ё kept", "ЁЛКА", "ёлка"},
		{"spaces become underscore", "plan blocked", "plan_blocked"},
		{"a run becomes one underscore", "plan / blocked!!", "plan_blocked"},
		{"outer whitespace trimmed", "  \t code \n", "code"},
		{"leading and trailing underscores trimmed", "__a__b__", "a__b"},
		{"foreign edges trimmed", "!!code??", "code"},
		{"nbsp and bom are foreign", "\ufeffx\u00a0y\ufeff", "x_y"},
		{"only foreign characters is null", "!!! ???", ""},
		{"only underscores is null", "____", ""},
		{"empty is null", "", ""},
		{"whitespace is null", " \u3000 ", ""},
		{"combining mark is not a letter", "e\u0301x", "e_x"},
		{"letter numbers and other numbers kept", "Ⅻ²٣", "ⅻ²٣"},
		{"cjk kept", "中文 код", "中文_код"},
		{"emoji is foreign", "ok😀done", "ok_done"},
		{"non-bmp letter lower-cased", "\U00010400x", "\U00010428x"},
		{"invalid utf-8 byte is foreign", "a\xffb", "a_b"},
		{"dotted capital I gets combining dot", "İD", "i\u0307d"},
		{"final sigma at word end", "ΟΔΟΣ", "οδος"},
		{"final sigma before ignorable dot", "ΑΣ.", "ας."},
		{"medial sigma before a letter", "ΑΣΑ", "ασα"},
		{"sigma before ignorable then letter", "ΑΣ:Β", "ασ:β"},
		{"sigma alone is not final", "Σ", "σ"},
		{"sigma after separator is not final", "1_Σ", "1_σ"},
		{"modifier letter is skipped as ignorable", "AΣʰ", "aςʰ"},
		{"cut to 120", strings.Repeat("a", 200), strings.Repeat("a", 120)},
		{"cut counts characters not bytes", strings.Repeat("Д", 200), strings.Repeat("д", 120)},
		{"cut happens after underscore trim", strings.Repeat("a", 119) + " b", strings.Repeat("a", 119) + "_"},
		{"non-bmp letter fitting exactly", strings.Repeat("a", 118) + "\U00010400b", strings.Repeat("a", 118) + "\U00010428"},
		// JavaScript's slice would keep a lone high surrogate here; the cut drops the pair.
		{"non-bmp letter straddling the cut is dropped", strings.Repeat("a", 119) + "\U00010400b", strings.Repeat("a", 119)},
		{"under 120 kept whole", strings.Repeat("z", 120), strings.Repeat("z", 120)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := normalizeReasonCode(tt.in)
			if got != tt.want {
				t.Errorf("normalizeReasonCode(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if n := len(utf16.Encode([]rune(got))); n > maxReasonCodeUnits {
				t.Errorf("result is %d UTF-16 units long", n)
			}
			// A normalised code normalises to itself, except where the cut left
			// a trailing "_" or lower-casing produced a combining mark.
			if again := normalizeReasonCode(got); got != "" && !strings.HasSuffix(got, "_") && !strings.Contains(got, "\u0307") && again != got {
				t.Errorf("not idempotent: %q → %q", got, again)
			}
		})
	}
}

func TestPushReason(t *testing.T) {
	var codes []string
	for _, v := range []string{"Foo Bar", "foo_bar", "FOO  BAR", "!!!", "", "baz", "Foo Bar"} {
		codes = pushReason(codes, v)
	}
	if want := []string{"foo_bar", "baz"}; !slices.Equal(codes, want) {
		t.Errorf("codes = %q, want %q", codes, want)
	}
	// Codes already present are compared after normalisation only on the
	// new side: an unnormalised code already in the list is not matched.
	codes = pushReason([]string{"Raw Code"}, "Raw Code")
	if want := []string{"Raw Code", "raw_code"}; !slices.Equal(codes, want) {
		t.Errorf("codes = %q, want %q", codes, want)
	}
}

func TestJSTrim(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  a  ", "a"},
		{"\t\n\v\f\ra\r\n", "a"},
		{"\u00a0a\u00a0", "a"},
		{"\ufeffa\ufeff", "a"},             // JS trims BOM; strings.TrimSpace does not
		{"\u0085a\u0085", "\u0085a\u0085"}, // JS keeps NEL; strings.TrimSpace does not
		{"\u2028a\u2029", "a"},
		{"\u3000\u2000a\u200a\u202f\u205f", "a"},
		{"\u180ea", "\u180ea"}, // Mongolian vowel separator is Cf, not a space
		{"\u200ba", "\u200ba"}, // zero-width space is Cf, not a space
		{"a b", "a b"},
		{"   ", ""},
	}
	for _, tt := range tests {
		if got := jsTrim(tt.in); got != tt.want {
			t.Errorf("jsTrim(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestToStringList(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nil gives empty", nil, []string{}},
		{"empty gives empty", []string{}, []string{}},
		{"trim and drop empty", []string{" a ", "", "   ", "b"}, []string{"a", "b"}},
		{"dedupe after trim keeping first", []string{"b", " a", "a ", "b", "\ufeffb"}, []string{"b", "a"}},
		{"case-sensitive", []string{"A", "a"}, []string{"A", "a"}},
		{"inner whitespace kept", []string{"счёт 60", "счёт  60"}, []string{"счёт 60", "счёт  60"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := toStringList(tt.in)
			if got == nil {
				t.Fatal("toStringList returned nil")
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("toStringList(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestJSToLowerMatchesStringsToLowerElsewhere(t *testing.T) {
	for _, s := range []string{"", "ABC", "Привет", "ǅ", "ẞ", "K", "Ⅻ", "\U00010400", "ı", "ΑΒΓ"} {
		if got, want := jsToLower(s), strings.ToLower(s); got != want {
			t.Errorf("jsToLower(%q) = %q, want %q", s, got, want)
		}
	}
}
