package extract

import (
	"errors"
	"strings"
	"testing"
)

func TestXMLGuard(t *testing.T) {
	lim := xmlLimits{depth: 3, elements: 5, tag: 40, text: 30}
	cases := []struct {
		name, xml string
		ok        bool
	}{
		{"flat", `<?xml version="1.0"?><a><b/><c x="1">text</c></a>`, true},
		{"depth 3", `<a><b><c></c></b></a>`, true},
		{"depth 4", `<a><b><c><d>`, false},
		{"end tags close", `<a></a><a></a><a></a><a></a>`, true},
		{"six elements", `<a/><a/><a/><a/><a/><a/>`, false},
		{"quoted > and />", `<a x="/>" y='>'><b/></a>`, true},
		{"long text", `<a>` + strings.Repeat("x", 31) + `</a>`, false},
		{"text of the limit", `<a>` + strings.Repeat("x", 30) + `</a>`, true},
		{"long tag", `<a ` + strings.Repeat("x", 40) + `/>`, false},
		{"comment with markup", `<a><!-- <b><c><d><e> --></a>`, true},
		{"long comment", `<!--` + strings.Repeat("-", 40) + `-->`, false},
		{"cdata with markup", `<a><![CDATA[<b><c><d>]]></a>`, true},
		{"processing instruction", `<?pi <b><c><d>?><a/>`, true},
		{"doctype", `<!DOCTYPE a [<!ENTITY x "y">]><a/>`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := &xmlGuard{lim: lim, part: "test.xml"}
			var err error
			for i := 0; i < len(c.xml) && err == nil; i += 3 { // fed in pieces, as a reader does
				err = g.feed([]byte(c.xml[i:min(i+3, len(c.xml))]))
			}
			if (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok=%v", err, c.ok)
			}
			if err != nil && !errors.Is(err, ErrTooComplex) {
				t.Errorf("err = %v, not ErrTooComplex", err)
			}
		})
	}
}

func TestPDFGuard(t *testing.T) {
	cases := []struct {
		name, pdf string
		ok        bool
	}{
		{"objects", "1 0 obj << /A [1 2 (a)b)] /B <414243> /C <</D 1>> >> endobj % [[[[\n", true},
		{"string with brackets", "1 0 obj (" + strings.Repeat("[", 200) + ") endobj", true},
		{"deep", "1 0 obj " + strings.Repeat("[", maxPDFNesting+1), false},
		{"deep dicts", "1 0 obj " + strings.Repeat("<< /A ", maxPDFNesting+1), false},
		{"unclosed brackets reset at endobj", strings.Repeat("1 0 obj [[ endobj ", maxPDFNesting), true},
		{"wide", "[" + strings.Repeat("0 ", maxPDFContainer+1) + "]", false},
		{"long string", "(" + strings.Repeat("x", maxPDFToken+1) + ")", false},
		{"long hex", "<" + strings.Repeat("a", maxPDFToken+1) + ">", false},
		{"long name", "/" + strings.Repeat("x", maxPDFToken+1), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := &pdfGuard{what: "test"}
			err := g.feed([]byte(c.pdf))
			if err == nil {
				err = g.finish()
			}
			if (err == nil) != c.ok {
				t.Fatalf("err = %v, want ok=%v", err, c.ok)
			}
			if err != nil && !errors.Is(err, ErrTooComplex) {
				t.Errorf("err = %v, not ErrTooComplex", err)
			}
		})
	}
}
