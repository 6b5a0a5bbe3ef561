package address

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/finbot/finbot/agent/ru"
)

// Sanitize removes control characters, zero-width and bidi formatting characters and
// collapses whitespace.
//
// Every run of whitespace (line breaks, tabs, no-break and other Unicode spaces) becomes one
// ASCII space and the ends are trimmed. Invalid UTF-8, control characters (Cc), format
// characters (Cf: zero-width spaces and joiners, bidi marks and isolates, BOM, soft hyphen,
// tag characters) and a few invisible fillers and variation selectors are dropped without a
// trace, so «до\u200bлжен» reads as «должен». The result is NFC, so a «й» typed as «и» plus
// a combining breve matches like any other.
func Sanitize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	pendingSpace := false
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		i += w
		switch {
		case r == utf8.RuneError && w <= 1:
			continue
		case unicode.IsSpace(r):
			pendingSpace = b.Len() > 0
			continue
		case unicode.Is(unicode.Cc, r), unicode.Is(unicode.Cf, r), invisibleFiller(r):
			continue
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

// invisibleFiller reports characters that render as nothing but are neither Cc nor Cf:
// the combining grapheme joiner, Hangul and Khmer fillers, variation selectors.
func invisibleFiller(r rune) bool {
	switch {
	case r == 0x034F, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r == 0x3164, r == 0xFFA0:
		return true
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return true
	}
	return false
}

// foldForRules prepares text for the word rules, as agent/route.go does: lower case, ё→е,
// punctuation other than that of numbers and account codes turned into spaces, single spaces,
// and one space at each end, so a pattern can use spaces as Cyrillic word boundaries (Go's \b
// knows only ASCII letters).
func foldForRules(s string) string {
	return " " + ru.Fold(ru.FoldAligned(s)) + " "
}

// clipRunes cuts s to at most n runes.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// writeVerbs change data in 1C whatever follows them.
var writeVerbs = map[string]bool{
	"удали": true, "удалите": true, "удалить": true, "удаляй": true, "удаляйте": true,
	"перепроведи": true, "перепроведите": true, "перепровести": true,
	"распроведи": true, "распроведите": true, "распровести": true,
	"запиши": true, "запишите": true, "исправь": true, "исправьте": true,
	"оплати": true, "оплатите": true, "заплати": true, "заплатите": true, "спиши": true, "спишите": true,
	"сторнируй": true, "сторнируйте": true, "сторнировать": true, "отредактируй": true, "отредактируйте": true,
}

// writeVerbsWithObject change data when a ledger object follows them: «проведи платёжку»,
// «создай документ», «отмени проведение», «загрузи в 1С», but not «проведи анализ» or
// «создай отчёт».
var writeVerbsWithObject = map[string]bool{
	"проведи": true, "проведите": true, "создай": true, "создайте": true, "измени": true, "измените": true,
	"поменяй": true, "поменяйте": true, "отмени": true, "отмените": true, "загрузи": true, "загрузите": true,
	"добавь": true, "добавьте": true, "внеси": true, "внесите": true, "заведи": true, "заведите": true,
	"введи": true, "введите": true, "пометь": true, "пометьте": true, "сформируй": true, "сформируйте": true,
	"закрой": true, "закройте": true, "перенеси": true, "перенесите": true,
}

// writeObjects are stems of what a write verb acts on.
var writeObjects = []string{"документ", "платеж", "платежк", "поручени", "проводк", "операци", "контрагент",
	"договор", "счет", "акт", "реализаци", "поступлени", "списани", "накладн", "запис", "сумм", "проведени",
	"выписк", "остатк", "сальдо", "1с", "базу", "баз", "программ", "удалени", "справочник"}

// readOnlyObjects after a write-looking verb make it a request to build something to read.
var readOnlyObjects = []string{"отчет", "список", "выборк", "таблиц", "сводк", "справк", "перечень", "график",
	"диаграмм", "файл", "анализ", "сверку", "сравнени", "аудит", "оценк", "проверк", "фильтр", "запрос", "вопрос"}

// writeIntentReason returns why rules (foldForRules output) asks to change data in 1C, or "".
func writeIntentReason(rules string) string {
	words := strings.Fields(rules)
	for i, w := range words {
		if i > 0 && words[i-1] == "не" {
			continue
		}
		switch {
		case writeVerbs[w]:
		case writeVerbsWithObject[w] && writeObjectFollows(w, words[i+1:]):
		default:
			continue
		}
		return fmt.Sprintf("просьба изменить данные в 1С («%s»): адресные запросы только читают учёт", w)
	}
	return ""
}

// writeObjectFollows reports whether a ledger object follows verb within four words.
// «Закрой месяц» closes a period in 1C; «измени период» only changes the question.
func writeObjectFollows(verb string, next []string) bool {
	if len(next) == 0 || hasAnyPrefix(next[0], readOnlyObjects) {
		return false
	}
	closing := strings.HasPrefix(verb, "закро")
	for _, w := range next[:min(4, len(next))] {
		if hasAnyPrefix(w, writeObjects) || (closing && (strings.HasPrefix(w, "месяц") || strings.HasPrefix(w, "период"))) {
			return true
		}
	}
	return false
}

func hasAnyPrefix(w string, stems []string) bool {
	for _, s := range stems {
		if strings.HasPrefix(w, s) {
			return true
		}
	}
	return false
}

// injectionRe finds query text and attempts to override instructions in folded text.
var injectionRe = regexp.MustCompile(` (игнорируй|игнорируйте|проигнорируй|проигнорируйте|игнорировать|проигнорировать) |` +
	` забудь\S*( \S+){0,3} (инструкц|правил|указани|ограничени|промпт)|` +
	` (ignore|disregard|forget|override)( \S+){0,3} (instructions?|rules|prompts?|guidelines) |` +
	` (system prompt|системн\S* (промпт|инструкц|сообщени)|developer mode|режим разработчика|jailbreak) |` +
	` (выполни|выполните|выполнить|запусти|запустите|исполни|исполните|execute|run)( \S+){0,2} (запрос|код|команд|скрипт|sql|query|code) |` +
	` выбрать( \S+){0,30} из | выбрать (первые|различные|разрешенные) | объединить все | поместить \S+ из |` +
	` (select|drop|truncate|insert into|delete from|union select|alter table|exec|update \S+ set) |` +
	` (ты теперь|теперь ты|представь что ты|притворись|act as|you are now) |` +
	` (покажи|выведи|раскрой|напечатай|print|reveal|show)( \S+){0,2} (промпт|инструкци|prompt|instructions) `)

// metadataPathRe finds 1C metadata paths such as «Справочник.Пользователи» in aligned text,
// where the dot survives.
var metadataPathRe = regexp.MustCompile(`(?:^|[^\p{L}])(справочник|документ|регистрсведений|регистрнакопления|регистрбухгалтерии|регистррасчета|плансчетов|константа|перечисление|журналдокументов)\.\p{L}`)

// injectionReason returns why the question carries a query or instructions for the model, or "".
// rules is the foldForRules form, aligned the foldAligned form (it keeps dots).
func injectionReason(rules, aligned string) string {
	if m := injectionRe.FindString(rules); m != "" {
		return fmt.Sprintf("в сообщении текст запроса или попытка изменить инструкции («%s»): такие запросы не выполняются", clipRunes(strings.TrimSpace(m), 60))
	}
	if m := metadataPathRe.FindStringSubmatch(aligned); m != nil {
		return fmt.Sprintf("в сообщении обращение к объекту метаданных 1С («%s.…»): произвольные запросы не выполняются", m[1])
	}
	return ""
}

// looksLikeQuery reports whether a filter value carries query text or instructions rather
// than a name, a number or a date.
func looksLikeQuery(value string) bool {
	return injectionReason(foldForRules(value), ru.FoldAligned(value)) != "" || strings.ContainsAny(value, ";{}<>`")
}
