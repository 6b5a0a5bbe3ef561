// Package postcheck is the deterministic check of an answer the answer LLM wrote, made before
// the answer is sent.
//
// The model may only phrase the facts it was given (facts.Payload). Check finds what it must not
// do: technical artifacts (confidence scores, internal ids, «[1] – …» link lines, raw JSON),
// forbidden phrases, «других упоминаний не найдено» tails about things nobody asked about, a
// source list of its own (code appends the sources) and numbers or dates that are not in the
// facts. Instructions turns what Check found into extra instructions for one regeneration.
// A Checker (New) checks several answers against the same facts; its CheckPartial judges the
// Settled part of an answer still being streamed, so that nothing unchecked is shown.
//
// The rules, each documented where it is implemented:
//   - empty: nothing but white space and Markdown marks (Check);
//   - artifact: artifactRules (artifacts.go) — «(confidence: …)», «уверенность: 0.8», «doc_id»,
//     «chunk», «чанк», «фрагмент № 2», «u:123», base32 document ids, UUIDs and 1C GUIDs,
//     «kb-» ids, e1cib links, «[1] – …» at a line start, raw JSON; ids quoted from the facts or
//     the question and ids inside URLs are allowed;
//   - source_list: sourceLists (phrases.go) — «Источники:», «Список источников», «Sources:»,
//     lines «[1] Банк России…»;
//   - forbidden_phrase: forbiddenTable (phrases.go), one table;
//   - negative_tail: negativeTails (phrases.go) — denials of things the question does not name;
//   - invented_number: Numbers (numbers.go) says how numbers, dates, times and document
//     numbers are read and what is ignored; known.has (known.go) says when one is in the facts
//     (of the question, only dates and the parts of dates and periods count).
//
// The check is plain text matching, no model: it errs on the side of letting an answer through
// where a rule would have to guess (see each rule's comment), and the phrase rules are
// case-insensitive and treat ё as е.
package postcheck

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/ru"
)

// Kind names the rule an answer broke.
type Kind string

// The rules, in the order Check reports them.
const (
	// Empty: the answer has no letters or digits at all.
	Empty Kind = "empty"
	// Artifact: confidence scores, internal ids, «[1] – …» link lines, raw JSON, mentions of
	// fragments and chunks of the context (artifacts.go).
	Artifact Kind = "artifact"
	// SourceList: the model wrote its own «Источники:» list (phrases.go).
	SourceList Kind = "source_list"
	// ForbiddenPhrase: a phrase from the forbidden table (phrases.go).
	ForbiddenPhrase Kind = "forbidden_phrase"
	// NegativeTail: «других упоминаний не найдено» about something the user did not ask about
	// (phrases.go).
	NegativeTail Kind = "negative_tail"
	// InventedNumber: a number, date, time or document number the facts do not contain
	// (numbers.go, known.go).
	InventedNumber Kind = "invented_number"
	// Unattributed: a figure, date or name that the source its sentence cites does not hold,
	// or that a sentence presents as 1C's or the Bank of Russia's when no source of that origin
	// holds it (attribution.go).
	Unattributed Kind = "unattributed"
	// ForeignLink: a link no source the answer cites holds (links.go). DropForeignLinks removes
	// them from a whole answer; a streamed part that shows one is not shown.
	ForeignLink Kind = "foreign_link"
)

// Violation is one broken rule. Detail says in Russian what exactly matched: the phrase, the
// sentence, the id or the number as the answer wrote it. It goes to logs and, through
// Instructions, into the stricter regeneration prompt.
type Violation struct {
	Kind   Kind
	Detail string
}

// Check returns every violation of answer against the facts it had to phrase, nil when there
// are none. question is the user's question: its dates and the parts of its dates and periods
// may be repeated (a sum, rate, count, time or number the user typed may not, unless the facts
// have it: see known.addQuestion), ids quoted from it are not artifacts, and a negative
// statement about something it asks about is allowed.
//
// The answer is Markdown as the model wrote it; Telegram MarkdownV2 escapes («31\.03\.2026»)
// are undone before checking. Violations come in the order of the Kind constants, each kind in
// the order of the answer's text, and the same violation is reported once.
func Check(answer string, p facts.Payload, question string) []Violation {
	return New(p, question).Check(answer)
}

// Unsourced checks text a model wrote with no source behind it — a question back, a button's
// label, a gap it names: it may carry no figure, date, name or link the user's message does not
// have, nor anything else Check refuses. It returns the text cut to at most n characters, or
// false when the text fails or is empty; text with a link is refused whole, since what would be
// left need not say what the model meant.
func Unsourced(text, message string, n int) (string, bool) {
	c := New(facts.Payload{}, message)
	text = strings.TrimSpace(text)
	if text == "" || c.DropForeignLinks(text) != text || len(c.Check(text)) > 0 {
		return "", false
	}
	return ru.Truncate(text, n), true
}

// Checker is Check for one set of facts and one question, prepared once: the texts the answer
// may quote and the numbers it may state. An answer, its regeneration and every partial text of
// a streamed answer are then checked against exactly the same facts. A Checker is read-only
// after New and safe for concurrent use.
type Checker struct {
	p        facts.Payload
	question string
	ref      string
	known    *known
	attr     *attribution
}

// New prepares the check of answers to question over the facts p.
func New(p facts.Payload, question string) *Checker {
	return &Checker{p: p, question: question, ref: reference(p, question), known: newKnown(p, question),
		attr: newAttribution(p, question)}
}

// Check is the package-level Check against the Checker's facts and question.
func (c *Checker) Check(answer string) []Violation {
	if !visible(answer) {
		return []Violation{{Empty, "ответ пустой"}}
	}
	return c.rules(answer)
}

// CheckPartial checks the settled part of an answer that is still being written (streamed):
// settled is Settled of the text so far. Every rule but Empty applies, so what a settled part
// breaks, the whole answer breaks as well; nil for a part with nothing to judge yet. The
// caller shows settled, never more of the text, and only while nothing has been found.
func (c *Checker) CheckPartial(settled string) []Violation {
	if !hasAlnum(settled) {
		return nil
	}
	// A whole answer loses its foreign links (DropForeignLinks); a part being shown keeps what
	// it has, so one with a foreign link is not shown.
	return append(c.rules(settled), c.foreignLinks(settled)...)
}

// rules applies every rule but Empty.
func (c *Checker) rules(answer string) []Violation {
	text := unescape(answer)
	arts, skip := artifacts(text, c.ref)
	srcs, srcSkip := sourceLists(text)
	skip = append(skip, srcSkip...)

	flat := flatten(text)
	sents := sentences(flat)

	var vs []Violation
	vs = append(vs, arts...)
	vs = append(vs, srcs...)
	vs = append(vs, forbiddenPhrases(flat, sents, c.ref)...)
	vs = append(vs, negativeTails(sents, c.p, c.question)...)
	invented, at := inventedNumbers(text, skip, c.known)
	vs = append(vs, invented...)
	vs = append(vs, c.attr.attribute(text, append(skip, at...))...)
	return dedup(vs)
}

// numberReach is how many words without digits may stand between two parts of one number,
// date or range: «1 500 000», «31 марта 2026», «с 1 по 31 марта», «1,5 млн руб.».
const numberReach = 2

// Settled returns the part of a streamed, unfinished answer that the words still to come
// cannot change: the text up to its last white space (the last word may be cut), less a
// trailing run of words with digits that a following word could still join into another
// number or date: «120» may become «120 000,00», «31» the date «31 марта 2026», «с 1 по» the
// range «с 1 по 31 марта». A run ends at a line break or after numberReach words without
// digits; a settled run is judged whole. Settled(s) is a prefix of s.
// footnoteWordRe is a footnote mark as a word, with the punctuation after it: «[1],», «[2].».
var footnoteWordRe = regexp.MustCompile(`^\[\d{1,3}(?:[,;–—-]\d{1,3})*\][.,;:)]*$`)

func Settled(partial string) string {
	end := strings.LastIndexFunc(partial, unicode.IsSpace)
	if end < 0 {
		return ""
	}
	_, w := utf8.DecodeRuneInString(partial[end:])
	settled := strings.TrimRightFunc(partial[:end], unicode.IsSpace)
	if strings.ContainsRune(partial[len(settled):end+w], '\n') {
		return settled // a line break ends every number before it
	}
	line := strings.LastIndexByte(settled, '\n') + 1
	type word struct {
		start int
		digit bool
	}
	var words []word
	for i := line; i < len(settled); {
		r, n := utf8.DecodeRuneInString(settled[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		wd := word{start: i}
		for i < len(settled) {
			r, n = utf8.DecodeRuneInString(settled[i:])
			if unicode.IsSpace(r) {
				break
			}
			wd.digit = wd.digit || unicode.IsDigit(r)
			i += n
		}
		if footnoteWordRe.MatchString(settled[wd.start:i]) {
			wd.digit = false // «[1],» ends a number, it does not continue one
		}
		words = append(words, wd)
	}
	cut, gap := -1, 0
	for k := len(words) - 1; k >= 0 && gap <= numberReach; k-- {
		if words[k].digit {
			cut, gap = words[k].start, 0
		} else {
			gap++
		}
	}
	if cut < 0 {
		return settled
	}
	return strings.TrimRightFunc(settled[:cut], unicode.IsSpace)
}

// Instructions turns violations into extra instructions for one regeneration of the answer:
// a heading and «- …» lines. Artifacts, forbidden phrases and negative tails are each listed on
// one line; every invented number gets its own («Число 15 000 отсутствует в фактах — убери его
// или возьми из фактов.»). Lines follow the order of vs. It returns "" for no violations.
func Instructions(vs []Violation) string {
	if len(vs) == 0 {
		return ""
	}
	var order []string             // lines and grouped kinds, in order of first appearance
	details := map[Kind][]string{} // grouped kinds' distinct details
	seen := map[string]bool{}
	for _, v := range vs {
		switch v.Kind {
		case Artifact, ForbiddenPhrase, NegativeTail:
			key := "\x00" + string(v.Kind)
			if !seen[key] {
				seen[key] = true
				order = append(order, key)
			}
			if !slices.Contains(details[v.Kind], v.Detail) {
				details[v.Kind] = append(details[v.Kind], v.Detail)
			}
		default:
			if line := instruction(v); !seen[line] {
				seen[line] = true
				order = append(order, line)
			}
		}
	}
	var b strings.Builder
	b.WriteString("Предыдущий вариант ответа не прошёл проверку. Напиши ответ заново по тем же фактам и исправь:")
	for _, line := range order {
		if kind, grouped := strings.CutPrefix(line, "\x00"); grouped {
			line = groupInstruction(Kind(kind), details[Kind(kind)])
		}
		b.WriteString("\n- ")
		b.WriteString(line)
	}
	return b.String()
}

// groupInstruction is the one line for all artifacts, forbidden phrases or negative tails.
func groupInstruction(k Kind, details []string) string {
	switch k {
	case Artifact:
		return "Не пиши служебные пометки и идентификаторы: " + strings.Join(details, "; ") + "."
	case ForbiddenPhrase:
		return "Не пиши " + strings.Join(details, ", ") + " и подобные фразы."
	}
	return "Не пиши " + strings.Join(details, ", ") + " — не сообщай, что чего-то не нашлось, если пользователь об этом не спрашивал."
}

// instruction is the line for a violation that gets a line of its own.
func instruction(v Violation) string {
	switch v.Kind {
	case Empty:
		return "Ответ оказался пустым — напиши ответ по фактам."
	case SourceList:
		return "Не пиши свой список источников (" + v.Detail + "): программа добавит его сама."
	case InventedNumber:
		pronoun := "его"
		if strings.HasPrefix(v.Detail, "дата") {
			pronoun = "её"
		}
		return upperFirst(v.Detail) + " отсутствует в фактах — убери " + pronoun + " или возьми из фактов."
	case Unattributed:
		return upperFirst(v.Detail) + ". Ставь после утверждения номер того источника, где это написано, а чего нет в источниках — не пиши."
	case ForeignLink:
		return "Не давай ссылок, которых нет у источников: " + v.Detail + "."
	}
	return "Исправь: " + v.Detail + "."
}

func dedup(vs []Violation) []Violation {
	if len(vs) == 0 {
		return nil
	}
	seen := map[Violation]bool{}
	out := vs[:0]
	for _, v := range vs {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// reference is every text the answer may quote — the payload's item titles, texts, groups and
// fields, limitations and source titles, and the question — one per line.
func reference(p facts.Payload, question string) string {
	var b strings.Builder
	add := func(s string) {
		if s != "" {
			b.WriteString(s)
			b.WriteByte('\n')
		}
	}
	for _, s := range factTexts(p) {
		add(s)
	}
	add(question)
	return b.String()
}

// factTexts lists the payload's texts in which the model may find numbers: item titles,
// texts, groups, field names and values, limitations and source titles (not URLs).
func factTexts(p facts.Payload) []string {
	var out []string
	for _, it := range p.Items {
		out = append(out, it.Title, it.Text, it.Group)
		for _, f := range it.Fields {
			out = append(out, f.Name, f.Value)
		}
	}
	out = append(out, p.Limitations...)
	for _, s := range p.Sources {
		out = append(out, s.Title)
	}
	return out
}

// hasAlnum reports whether s has a letter or a digit.
func hasAlnum(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// unescape undoes Markdown backslash escapes: a backslash before ASCII punctuation is dropped
// («31\.03\.2026» → «31.03.2026», «\[1\] \- …» → «[1] - …»).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(asciiPunct, s[i+1]) >= 0 {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// flatten prepares text for the phrase rules: Markdown emphasis and code marks are removed,
// runs of horizontal white space (tabs, no-break and thin spaces included) become one space;
// line breaks stay.
func flatten(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '*' || r == '_' || r == '`' || r == '~':
			continue
		case r == '\n':
			b.WriteByte('\n')
			space = false
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

func upperFirst(s string) string {
	r, w := utf8.DecodeRuneInString(s)
	if w == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[w:]
}

// quote puts s in Russian quotes for a detail, on one line and shortened.
func quote(s string) string {
	return "«" + ru.Truncate(strings.Join(strings.Fields(s), " "), 80) + "»"
}

// span is a byte range [start, end) of the checked text.
type span struct{ start, end int }

func overlaps(a span, spans []span) bool {
	for _, b := range spans {
		if a.start < b.end && b.start < a.end {
			return true
		}
	}
	return false
}
