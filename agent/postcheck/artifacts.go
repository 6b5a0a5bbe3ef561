package postcheck

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// artifactRule finds one kind of technical artifact («(confidence: …)», internal ids, «[1] – …»).
type artifactRule struct {
	label string // what it is, in Russian, for the detail
	re    *regexp.Regexp
	// group is the submatch that is the artifact (0 = the whole match); rules for Cyrillic
	// words match a non-letter before the word, since \b is ASCII-only.
	group int
	// id marks identifiers: allowed when the same text is in the facts or the question (a
	// user who pasted a GUID may see it back), and not looked for inside URLs.
	id bool
	// keep, when set, must accept the match (conditions RE2 cannot say).
	keep func(m string) bool
}

// artifactRules are the artifacts, checked in this order; a match overlapping an earlier one is
// not reported again.
var artifactRules = []artifactRule{
	// «(confidence: 0.82)», «confidence=high», a bare «confidence».
	{label: "оценка уверенности", re: regexp.MustCompile(`(?i)\(?\bconfidence\b(?:[ \t]*[:=][ \t]*[0-9a-zа-яё.,%]+)?\)?`)},
	// «уверенность: 0.8», «(достоверность = 90 %)»: only with a colon or «=» and a number, so
	// «с уверенностью можно сказать» is prose.
	{label: "оценка уверенности", re: regexp.MustCompile(`(?i)(?:^|[^\p{L}])(\(?(?:уверенност|достоверност|релевантност)\p{L}*[ \t]*[:=][ \t]*\d+(?:[.,]\d+)?[ \t]*%?\)?)`), group: 1},
	{label: "оценка уверенности", re: regexp.MustCompile(`(?i)\(?\b(?:score|relevance|similarity|rank)\b[ \t]*[:=][ \t]*\d+(?:[.,]\d+)?\)?`)},
	// Field names of internal records, with a value if any: «doc_id», «(chunk_id: 17)».
	{label: "внутренний идентификатор", re: regexp.MustCompile(`(?i)\b[a-z]+_id\b(?:[ \t]*[:=][ \t]*[\w.:-]+)?`)},
	{label: "упоминание фрагментов контекста", re: regexp.MustCompile(`(?i)\bchunks?\b(?:[ \t]*[#№:]?[ \t]*\d+)?`)},
	{label: "упоминание фрагментов контекста", re: regexp.MustCompile(`(?i)(?:^|[^\p{L}])(чанк\p{L}*)`), group: 1},
	// «фрагмент № 3», «во фрагменте 2», «фрагмент №»: a fragment with a number is the
	// context's, not the document's («фрагмент договора» is prose).
	{label: "упоминание фрагментов контекста", re: regexp.MustCompile(`(?i)(?:^|[^\p{L}])(фрагмент\p{L}*[ \t]*(?:№[ \t]*\d*|#[ \t]*\d+|\d+))`), group: 1},
	// UUIDs, including 1C object references (36-character GUIDs).
	{label: "идентификатор GUID", re: regexp.MustCompile(`(?i)\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), id: true},
	// 1C navigation links: «e1cib/data/Документ.Реализация?ref=…».
	{label: "ссылка 1С", re: regexp.MustCompile(`(?i)\be1cib/\S+`), id: true},
	// Knowledge-base article ids: «kb-» and 12 hex digits.
	{label: "идентификатор статьи", re: regexp.MustCompile(`(?i)\bkb-[0-9a-f]{12}\b`), id: true},
	// Document ids: 16 characters of lower-case base32. Ids without a digit (about 4 %) are
	// let through rather than flagging 16-letter English words.
	{label: "идентификатор документа", re: regexp.MustCompile(`\b[a-z2-7]{16}\b`), id: true, keep: hasASCIIDigit},
	// Hashes and 1C refs without dashes: 24+ hex digits with both letters and digits (a long
	// account number has no letters).
	{label: "внутренний идентификатор", re: regexp.MustCompile(`(?i)\b[0-9a-f]{24,}\b`), id: true, keep: func(m string) bool {
		return hasASCIIDigit(m) && strings.ContainsFunc(m, unicode.IsLetter)
	}},
	// Prefixed ids: «u:123», «project:ai-portfolio», «doc:7». Lower-case Latin only, so
	// «ИНН:7707083893», «Итого:5» and «https://» (a slash follows) are not ids.
	{label: "внутренний идентификатор", re: regexp.MustCompile(`\b[a-z][a-z_]{0,15}:[a-z0-9][a-z0-9_.\-]*`), id: true, keep: func(m string) bool {
		scheme, _, _ := strings.Cut(m, ":")
		return scheme != "mailto" && scheme != "tel"
	}},
	// «[1] – Банк России…» at a line start: the model's copy of a reference list.
	{label: "сноска-ссылка в начале строки", re: regexp.MustCompile(`(?m)^[ \t>*_-]*(\[\d{1,3}\][ \t]*[–—-][^\n]*)`), group: 1},
	// Raw JSON: a brace followed by a quoted key and a colon.
	{label: "фрагмент JSON", re: regexp.MustCompile(`\{[ \t\r\n]*"[^"\n]{1,64}"[ \t\r\n]*:`)},
}

// urlRe finds URLs, inside which ids are parts of addresses, not artifacts.
var urlRe = regexp.MustCompile(`(?i)\b(?:https?://|www\.)[^\s<>"«»)\]]+`)

// artifacts returns the artifacts of text, in the order of the text, and their spans (numbers
// inside them are not checked again). ref is the facts and the question, for ids quoted from
// them.
func artifacts(text, ref string) ([]Violation, []span) {
	var urls []span
	for _, m := range urlRe.FindAllStringIndex(text, -1) {
		urls = append(urls, span{m[0], m[1]})
	}
	lref := strings.ToLower(ref)
	type found struct {
		span
		v Violation
	}
	var fs []found
	var spans []span
	for _, r := range artifactRules {
		for _, m := range r.re.FindAllStringSubmatchIndex(text, -1) {
			sp := span{m[2*r.group], m[2*r.group+1]}
			if r.label == "фрагмент JSON" {
				sp.end = jsonEnd(text, sp.start)
			} else {
				sp.end = sp.start + len(strings.TrimRight(text[sp.start:sp.end], ".,;:-"))
			}
			s := text[sp.start:sp.end]
			if s == "" || overlaps(sp, spans) || r.keep != nil && !r.keep(s) {
				continue
			}
			if r.id && (overlaps(sp, urls) || strings.Contains(lref, strings.ToLower(s))) {
				continue
			}
			spans = append(spans, sp)
			fs = append(fs, found{sp, Violation{Artifact, r.label + " " + quote(s)}})
		}
	}
	slices.SortStableFunc(fs, func(a, b found) int { return a.start - b.start })
	vs := make([]Violation, len(fs))
	for i, f := range fs {
		vs[i] = f.v
	}
	return vs, spans
}

// jsonEnd returns the end of the brace block starting at text[start] ('{'): after its closing
// brace, or after at most 4000 bytes, or at the end of text.
func jsonEnd(text string, start int) int {
	depth, inString := 0, false
	limit := min(len(text), start+4000)
	for i := start; i < limit; i++ {
		c := text[i]
		switch {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return limit
}

func hasASCIIDigit(s string) bool {
	return strings.ContainsAny(s, "0123456789")
}
