package library

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/library/retrieval"
)

// Excerpt returns the part of text (at most maxRunes) that answers query best: the sentence
// with most of the query's terms, widened with its neighbours while they fit. Cut ends are
// marked with «…». Whitespace is collapsed to single spaces.
func Excerpt(text, query string, maxRunes int) string {
	text = strings.Join(strings.Fields(text), " ")
	if utf8.RuneCountInString(text) <= maxRunes {
		return text
	}
	sents := sentences(text)
	terms := map[string]bool{}
	for _, t := range retrieval.Tokens(query) {
		terms[t] = true
	}
	best, bestScore := 0, -1
	for i, s := range sents {
		score := 0
		seen := map[string]bool{}
		for _, t := range retrieval.Tokens(s) {
			if terms[t] && !seen[t] {
				seen[t] = true
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	lo, hi := best, best+1
	size := utf8.RuneCountInString(sents[best])
	for {
		grew := false
		if hi < len(sents) && size+1+utf8.RuneCountInString(sents[hi]) <= maxRunes {
			size += 1 + utf8.RuneCountInString(sents[hi])
			hi++
			grew = true
		}
		if lo > 0 && size+1+utf8.RuneCountInString(sents[lo-1]) <= maxRunes {
			lo--
			size += 1 + utf8.RuneCountInString(sents[lo])
			grew = true
		}
		if !grew {
			break
		}
	}
	out := strings.Join(sents[lo:hi], " ")
	if r := []rune(out); len(r) > maxRunes { // one sentence longer than the budget
		out = strings.TrimRightFunc(string(r[:maxRunes]), unicode.IsSpace)
		hi = len(sents) + 1
	}
	if lo > 0 {
		out = "…" + out
	}
	if hi < len(sents) || hi > len(sents) {
		out += "…"
	}
	return out
}

// sentences splits text after ". ", "! ", "? ", "; " when the next word starts with a capital
// letter, a digit or a quote, so «п. 5.2» and «руб. 00 коп.» mostly stay whole.
func sentences(text string) []string {
	var out []string
	rs := []rune(text)
	start := 0
	for i := 0; i+2 < len(rs); i++ {
		if !strings.ContainsRune(".!?;", rs[i]) || rs[i+1] != ' ' {
			continue
		}
		next := rs[i+2]
		if !(unicode.IsUpper(next) || unicode.IsDigit(next) || next == '«' || next == '"' || next == '—' || next == '-') {
			continue
		}
		if rs[i] == '.' && i > 0 && isAbbrev(rs[max(0, i-4):i]) {
			continue
		}
		out = append(out, strings.TrimSpace(string(rs[start:i+1])))
		start = i + 2
	}
	if start < len(rs) {
		out = append(out, strings.TrimSpace(string(rs[start:])))
	}
	return out
}

// isAbbrev reports whether the word before a period is a common abbreviation.
func isAbbrev(before []rune) bool {
	w := strings.ToLower(string(before))
	if i := strings.LastIndexAny(w, " («"); i >= 0 {
		w = w[i+1:]
	}
	switch w {
	case "п", "пп", "ст", "стр", "г", "гг", "руб", "коп", "т", "д", "ул", "им", "тел", "№", "см", "рис", "тыс", "млн", "млрд":
		return true
	}
	return false
}

// markdownMarks finds the Markdown a quoted passage must not carry: heading hashes and list
// markers at line starts, bold and italic markers around words, inline code ticks.
var (
	lineMarks     = regexp.MustCompile(`(?m)^[ \t]*(#{1,6}[ \t]+|[-*+][ \t]+|>[ \t]?)`)
	emphasisMarks = regexp.MustCompile(`\*\*|__|` + "`")
)

// PlainText removes Markdown markup from a passage (knowledge-base articles and .md uploads
// are Markdown), so a quote reads as text: list items become «• item».
func PlainText(s string) string {
	s = lineMarks.ReplaceAllStringFunc(s, func(m string) string {
		t := strings.TrimSpace(m)
		if t == "-" || t == "*" || t == "+" {
			return "• "
		}
		return ""
	})
	return emphasisMarks.ReplaceAllString(s, "")
}
