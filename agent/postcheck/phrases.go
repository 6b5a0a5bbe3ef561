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

// forbidden is one entry of the forbidden-phrase table.
type forbidden struct {
	// pattern is matched against the folded answer (lower case, ё→е, Markdown emphasis
	// removed, spaces collapsed); it is wrapped so it starts at a word start.
	pattern string
	// tail: the phrase is forbidden only as a closing remark, in the last two sentences.
	tail bool
}

// forbiddenTable lists the forbidden phrases: meta-talk about the model, its context and its
// access, «ask someone else» tails and confidentiality labels. A phrase that the facts themselves
// contain (a knowledge-base article may well say «обратитесь к специалисту») is a quote, not a
// violation.
var forbiddenTable = []forbidden{
	// «рекомендуется уточнить у Дмитрия», «стоит уточнить эти данные у главбуха», «рекомендую
	// согласовать с юристом»: sending the user to a person («рекомендуется проверить сумму в
	// акте сверки» is advice, not this).
	{pattern: `(?:рекоменд\p{L}*|стоит|лучше|советую|советуем)\s+(?:дополнительно\s+)?(?:(?:уточнить|узнать|спросить)\s+(?:\p{L}+\s+){0,2}?у|(?:согласовать|обсудить|проверить|сверить)\s+(?:\p{L}+\s+){0,2}?с)(?:\s+\p{L}+){1,2}`},
	// «обратитесь к специалисту / к своему бухгалтеру / за консультацией к юристу» at the end.
	{pattern: `(?:обратитесь|обратиться|обращайтесь)\s+(?:за\s+\p{L}+\s+)?к\s+(?:\p{L}+\s+){0,2}?(?:специалист|бухгалтер|юрист|консультант|аудитор|эксперт)\p{L}*`, tail: true},
	{pattern: `проконсультир\p{L}*\s+(?:\p{L}+\s+){0,2}?с\s+(?:\p{L}+\s+){0,2}?(?:специалист|бухгалтер|юрист|консультант|аудитор|эксперт)\p{L}*`, tail: true},
	// «конфиденциальность низкая», «конфиденциальность: средняя», «низкая конфиденциальность»
	{pattern: `конфиденциальност\p{L}*\s*(?:[:—–-]\s*)?(?:низк|средн|высок)\p{L}*`},
	{pattern: `низк\p{L}*\s+(?:уровень\s+)?конфиденциальност\p{L}*`},
	// «как языковая модель», «я — языковая модель», «как ИИ-ассистент»
	{pattern: `как\s+(?:большая\s+)?языков\p{L}*\s+модел\p{L}*`},
	{pattern: `я\s*(?:[—–-]\s*)?(?:всего\s+лишь\s+|лишь\s+|просто\s+)?(?:большая\s+)?языков\p{L}*\s+модел\p{L}*`},
	{pattern: `как\s+(?:ии|ai)[\s-]+(?:ассистент|помощник|модель)\p{L}*`},
	// «я не имею доступа к …», «у меня нет доступа к …»
	{pattern: `я\s+не\s+имею\s+доступа`},
	{pattern: `у\s+меня\s+нет\s+доступа`},
	// «на основе предоставленного контекста», «в предоставленном контексте»
	{pattern: `(?:на\s+основе|на\s+основании|исходя\s+из|согласно|из|в|по)\s+предоставленн\p{L}*\s+(?:мне\s+)?контекст\p{L}*`},
	// «согласно предоставленным фрагментам», «в предоставленных фрагментах»
	{pattern: `(?:на\s+основе|на\s+основании|исходя\s+из|согласно|из|в|по)\s+предоставленн\p{L}*\s+(?:мне\s+)?фрагмент\p{L}*`},
	// «в предоставленных данных», «на основе предоставленных данных»
	{pattern: `(?:на\s+основе|на\s+основании|исходя\s+из|согласно|из|в|по)\s+предоставленн\p{L}*\s+(?:мне\s+)?данн\p{L}*`},
}

// forbiddenRes are forbiddenTable compiled; submatch 1 is the phrase.
var forbiddenRes = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(forbiddenTable))
	for i, f := range forbiddenTable {
		out[i] = regexp.MustCompile(`(?:^|[^\p{L}\p{N}])(` + f.pattern + `)`)
	}
	return out
}()

// forbiddenPhrases finds the table's phrases in flat (the flattened answer), in the order of
// the text; tail phrases count only when they start in one of the last two sentences.
func forbiddenPhrases(flat string, sents []sentence, ref string) []Violation {
	folded := ru.FoldAligned(flat)
	fref := ru.FoldAligned(flatten(ref))
	tailStart := 0
	if n := len(sents); n > 0 {
		tailStart = sents[max(0, n-2)].start
	}
	type found struct {
		start  int
		phrase string
	}
	var fs []found
	for i, re := range forbiddenRes {
		for _, m := range re.FindAllStringSubmatchIndex(folded, -1) {
			phrase := folded[m[2]:m[3]]
			if forbiddenTable[i].tail && m[2] < tailStart || strings.Contains(fref, phrase) {
				continue
			}
			fs = append(fs, found{m[2], phrase})
		}
	}
	slices.SortStableFunc(fs, func(a, b found) int { return a.start - b.start })
	var vs []Violation
	for _, f := range fs {
		vs = append(vs, Violation{ForbiddenPhrase, quote(f.phrase)})
	}
	return vs
}

// sentence is one sentence of the flattened answer.
type sentence struct {
	start int
	text  string // trimmed, list markers removed
}

// abbreviations end with a dot that does not end a sentence («г. Москва», «ст. 346»).
var abbreviations = map[string]bool{
	"г": true, "гг": true, "ст": true, "п": true, "пп": true, "ч": true, "руб": true, "коп": true,
	"тыс": true, "млн": true, "млрд": true, "т": true, "е": true, "к": true, "др": true, "пр": true,
	"см": true, "стр": true, "им": true, "ул": true, "д": true, "обл": true, "р": true, "с": true,
	"ср": true, "напр": true, "шт": true, "мес": true, "кв": true, "№": true,
}

// sentences splits flat at line breaks and at «.», «!», «?», «…» followed by a space (so
// «90.50» stays whole), except after an abbreviation. Pieces without letters (a list number
// «1.», a lone «[1]») are dropped.
func sentences(flat string) []sentence {
	var out []sentence
	add := func(start, end int) {
		s := flat[start:end]
		trimmed := strings.TrimLeftFunc(s, func(r rune) bool {
			return unicode.IsSpace(r) || strings.ContainsRune("-•>#+", r)
		})
		start += len(s) - len(trimmed)
		trimmed = strings.TrimRightFunc(trimmed, unicode.IsSpace)
		if strings.ContainsFunc(trimmed, unicode.IsLetter) {
			out = append(out, sentence{start, trimmed})
		}
	}
	start := 0
	for i := 0; i < len(flat); {
		r, w := utf8.DecodeRuneInString(flat[i:])
		switch {
		case r == '\n':
			add(start, i)
			start = i + w
		case strings.ContainsRune(".!?…", r):
			j := i + w
			for j < len(flat) {
				r2, w2 := utf8.DecodeRuneInString(flat[j:])
				if !strings.ContainsRune(".!?…»\")", r2) {
					break
				}
				j += w2
			}
			next, _ := utf8.DecodeRuneInString(flat[j:])
			if (j == len(flat) || unicode.IsSpace(next)) && !(r == '.' && abbreviations[lastWord(flat[:i])]) {
				add(start, j)
				start = j
			}
			i = j
			continue
		}
		i += w
	}
	add(start, len(flat))
	return out
}

// lastWord is the word s ends with, lower case.
func lastWord(s string) string {
	i := strings.LastIndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && r != '№' })
	return strings.ToLower(s[i+1:])
}

var (
	// denialRe finds a denial: «не найдено», «не удалось найти», «отсутствует», «нет».
	denialRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:не\s+(?:найден|обнаружен|нашл|нашел|удалось\s+(?:найти|обнаружить)|содерж|упомина|указ|привод|приведен|имеется|представлен)\p{L}*|отсутству\p{L}*|нет)(?:[^\p{L}]|$)`)
	// dataNounRe finds what a search-result denial denies: mentions, information, data,
	// records, results — «данных о … нет», «других упоминаний не найдено», «ничего не
	// найдено». The nominative «данные» is left out: «Данные по оплате: задолженности нет» is a
	// fact, not a tail.
	dataNounRe = regexp.MustCompile(`(?:^|[^\p{L}])(?:упоминани\p{L}*|сведени\p{L}*|информаци\p{L}*|данных|записей|результатов|совпадений|ничего)(?:[^\p{L}]|$)`)
)

// denialWords start the words that belong to the denial itself, not to the thing denied: the
// data nouns, the negations, «других», «конкретных», «в документах», «в базе знаний», «в
// контексте».
var denialWords = []string{
	"упоми", "сведе", "инфор", "данны", "запис", "резул", "совпа", "ничег", "найде", "найти",
	"нашл", "обнар", "отсут", "удало", "содер", "указа", "приво", "приве", "имеет", "предс",
	"конкр", "други", "допол", "прочи", "каких", "какой", "какие", "какую", "либо", "нибуд",
	"явных", "прямых", "более", "больш", "также", "кроме", "этого", "этому", "этой", "этим",
	"этот", "этих", "сейча", "момен", "источ", "конте", "предо", "фрагм", "базе", "базы",
	"знани", "докум", "матер", "текст", "файл", "сожал", "можно", "было", "были", "была",
	"есть", "нету", "ваших", "вашем", "вашему", "ваше", "вами", "имеющ", "досту",
}

// aboutQuestion start words that make a denial about the question itself («по вашему запросу
// ничего не найдено», «по этой теме сведений нет»).
var aboutQuestion = []string{"запрос", "вопрос", "теме", "тему"}

// negativeTails finds sentences that deny something the user did not ask about (no
// «конкретных упоминаний не найдено» unless the user asked about absence).
//
// A sentence is a denial when it has a data noun and a negation. What it denies is its other
// words of at least four letters; the denial is allowed when one of them shares its stem with
// a word of the question. Stems are crude: lower case, ё→е, the first five letters of a word
// (four of a five-letter word, whose fifth letter is mostly an ending: «курса» ~ «курсы»), and
// a four-letter stem matches the longer stems it starts («курс» ~ «курсе»). A denial of nothing
// in particular («Других упоминаний не найдено.») is always a tail — except when the whole
// answer is that one sentence and the payload found nothing: then it is the answer.
func negativeTails(sents []sentence, p facts.Payload, question string) []Violation {
	var qstems []string
	for _, w := range words(ru.FoldAligned(question)) {
		qstems = append(qstems, stem(w))
	}
	var vs []Violation
	for _, s := range sents {
		f := ru.FoldAligned(s.text)
		if !denialRe.MatchString(f) || !dataNounRe.MatchString(f) {
			continue
		}
		if len(sents) == 1 && !p.Found {
			return nil
		}
		if aboutAsked(words(f), qstems) {
			continue
		}
		vs = append(vs, Violation{NegativeTail, quote(s.text)})
	}
	return vs
}

// words returns the words of at least four letters of s (folded).
func words(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if utf8.RuneCountInString(w) >= 4 {
			out = append(out, w)
		}
	}
	return out
}

// stem is the crude stem of a word of at least four letters: its first five letters, four of
// a five-letter word, all of a four-letter one.
func stem(w string) string {
	rs := []rune(w)
	return string(rs[:min(5, max(4, len(rs)-1), len(rs))])
}

// aboutAsked reports whether a denial's words (other than the denial's own) name the question
// or something the question asks about.
func aboutAsked(ws, qstems []string) bool {
	for _, w := range ws {
		if startsWithAny(w, denialWords) {
			continue
		}
		if startsWithAny(w, aboutQuestion) {
			return true
		}
		s := stem(w)
		for _, q := range qstems {
			if strings.HasPrefix(s, q) || strings.HasPrefix(q, s) {
				return true
			}
		}
	}
	return false
}

func startsWithAny(w string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

var (
	// sourceHeadingRe is a line that starts the model's own source list: «Источники:»,
	// «**Список источников**», «## Sources», «Источник: Банк России».
	sourceHeadingRe = regexp.MustCompile(`(?i)^(?:источники|источник|список\s+(?:использованных\s+)?источников|использованные\s+источники|список\s+литературы|sources|source|references|ссылки)(?:\s*[:：—–-]|\s*$)`)
	// footnoteLineRe is a line that starts with a footnote mark and a title: «[1] Банк
	// России …» («[1] – …» is an artifact).
	footnoteLineRe = regexp.MustCompile(`^\[\d{1,3}\][ \t]*[\p{L}«"]`)
)

// sourceLists finds a source list the model wrote although code appends the sources: a
// heading line, or lines that start with a footnote mark and a title. It returns one
// violation per list and the spans to leave out of the number check (from a heading to the
// end of the answer, or the footnote lines).
func sourceLists(text string) ([]Violation, []span) {
	var vs []Violation
	var spans []span
	off := 0
	for line := range strings.SplitSeq(text, "\n") {
		start := off
		off += len(line) + 1
		l := strings.TrimLeft(line, " \t#*_>")
		l = strings.TrimRight(l, " \t*_")
		switch {
		case sourceHeadingRe.MatchString(l):
			vs = append(vs, Violation{SourceList, quote(l)})
			spans = append(spans, span{start, len(text)})
			return vs, spans
		case footnoteLineRe.MatchString(l):
			if len(spans) == 0 {
				vs = append(vs, Violation{SourceList, quote(l)})
			}
			if n := len(spans); n > 0 && spans[n-1].end == start { // the next line of the list
				spans[n-1].end = min(off, len(text))
			} else {
				spans = append(spans, span{start, min(off, len(text))})
			}
		}
	}
	return vs, spans
}
