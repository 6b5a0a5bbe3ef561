package retrieval

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
)

// maxWordBytes bounds the length of a word that is indexed at all: longer
// letter runs are base64, hashes or extraction garbage, never query terms.
const maxWordBytes = 96

// stopWords holds both languages' stop words, already lower-cased with ё
// folded to е. The Russian list is shorter than Snowball's: numerals and
// words such as «срок», «сумма» or «нет» carry meaning in accounting
// questions and stay indexed.
var stopWords = makeSet(
	// Russian: conjunctions, prepositions, particles, pronouns and the
	// question words accountants start their questions with.
	"и", "в", "во", "не", "ни", "что", "чтобы", "чтоб", "как", "а", "но", "да",
	"или", "либо", "же", "ли", "бы", "то", "так", "также", "тоже", "уже", "еще",
	"только", "даже", "вот", "ведь", "к", "ко", "у", "с", "со", "о", "об", "обо",
	"от", "ото", "из", "изо", "за", "на", "по", "под", "подо", "над", "при",
	"про", "для", "до", "без", "через", "перед", "между", "после", "около",
	"я", "мы", "ты", "вы", "он", "она", "оно", "они", "его", "ее", "их", "им",
	"ими", "ему", "ей", "ней", "нее", "него", "них", "ним", "нем", "мне", "меня",
	"нас", "вас", "нам", "вам", "себя", "себе", "свой", "своя", "свое", "свои",
	"своего", "своей", "своих", "своим", "мой", "моя", "наш", "наша", "наше",
	"наши", "нашего", "нашей", "ваш", "этот", "эта", "это", "эти", "этого",
	"этой", "этом", "этим", "этих", "эту", "тот", "та", "те", "того", "той",
	"том", "тем", "тех", "ту", "весь", "вся", "все", "всё", "всего", "всей",
	"всех", "всем", "всю", "который", "которая", "которое", "которые",
	"которого", "которой", "котором", "которым", "которых", "которую",
	"какой", "какая", "какое", "какие", "какого", "какую", "каким", "каких",
	"какому", "каком", "каков", "какова", "каково", "каковы", "кто", "кого",
	"кому", "кем", "чем", "чего", "чему", "где", "куда", "откуда", "когда",
	"зачем", "почему", "сколько", "был", "была", "было", "были", "быть",
	"будет", "будут", "есть", "является", "являются", "может", "можно",
	"нужно", "надо", "если", "тогда", "там", "тут", "здесь", "потом", "мне",
	"скажи", "подскажи", "подскажите", "пожалуйста",
	// «сколько» as typed in a hurry, and filler
	"скока", "скоко", "скольо", "сколко", "скоька", "вообще", "вобще",
	// English.
	"a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "with", "by",
	"at", "from", "is", "are", "was", "were", "be", "been", "it", "its",
	"this", "that", "these", "those", "as", "but", "if", "than", "then", "so",
	"into", "per", "via", "what", "which", "who", "whom", "how", "when",
	"where", "do", "does", "did", "has", "have", "had", "will", "shall",
	"would", "should", "can", "could", "may", "there", "their", "they", "we",
	"you", "he", "she", "our", "your", "my", "me", "about",
)

// abbreviations expands common accounting abbreviations (the trailing dot is
// a separator and never reaches this table) before stemming.
var abbreviations = map[string]string{
	"руб":  "рубль",
	"тыс":  "тысяча",
	"млн":  "миллион",
	"млрд": "миллиард",
	"коп":  "копейка",
	"дн":   "день",
	"мес":  "месяц",
	"кв":   "квартал",
	"ден":  "день",
	"дог":  "договор",
	"сч":   "счет",
	"бух":  "бухгалтер",
	"зп":   "зарплата",
	// «сколько стоит» asks the «стоимость» a contract states (the stemmer leaves «сто», a number)
	"стоит": "стоимость", "стоят": "стоимость", "стоить": "стоимость", "стоило": "стоимость",
	"стоила": "стоимость", "стоили": "стоимость", "стоить-то": "стоимость",
}

// families folds Snowball stems of one derivational family, or plain
// accounting synonyms, onto a single term. Keys and values are stems as
// produced by the stemmers (words of up to three letters are not stemmed
// and appear here verbatim). Keep this list short and general: it encodes
// how accountants phrase things, not the test questions.
var families = map[string]string{
	// поставка / поставщик / поставлять / поставленный товар
	"поставк": "постав", "поставщик": "постав", "поставля": "постав",
	"поставлен": "постав", "постав": "постав", "поставщиц": "постав",
	// оплата / оплачивать / платёж / платёжный / плата / уплата
	"оплат": "оплат", "оплач": "оплат", "оплачива": "оплат", "оплачен": "оплат",
	"платеж": "оплат", "платежн": "оплат", "плат": "оплат", "уплат": "оплат",
	"уплачива": "оплат", "уплач": "оплат", "уплачен": "оплат",
	"выплат": "оплат", "выплач": "оплат", "выплачива": "оплат", "выплачен": "оплат",
	// неустойка = пени + штраф
	"неустойк": "неустойк", "пен": "неустойк", "штраф": "неустойк",
	"штрафн": "неустойк",
	// аренда / арендный; лизинг / лизинговый; комиссия / комиссионный (a contract's title
	// names it by the noun, a user by the adjective: «лизинговый платёж», «комиссионные»)
	"арендн": "аренд", "лизингов": "лизинг", "комиссион": "комисс",
	// accountants' slang: дебиторка, кредиторка, первичка
	"дебиторк": "дебиторск", "кредиторк": "кредиторск", "первичк": "первичн",
	// договор / договорный
	"договорн": "договор",
	// подписать / подпись / подписант
	// («подписания» = «с даты подписания» stays apart: it is everywhere)
	"подписа": "подпис", "подписыва": "подпис", "подписант": "подпис",
	// день: дня / дней / дням
	"ден": "ден", "дня": "ден", "дне": "ден", "дням": "ден", "дн": "ден",
	// аванс / авансовый / предоплата
	"авансов": "аванс", "предоплат": "аванс",
	// гарантия / гарантийный
	"гарантийн": "гарант",
	// задолженность / долг
	"задолжен": "долг",
	// рубль / руб.
	"рублев": "рубл",
	// приёмка / принять / принятие товара
	"приня": "приемк", "принят": "приемк", "приемочн": "приемк",
	// счёт-фактура / фактурный
	"фактурн": "фактур",
	// ставка / ставки already share a stem; налог / налоговый do not
	"налогов": "налог",
	// бухгалтер / бухгалтерский / бухгалтерия
	"бухгалтерск": "бухгалтер",
	// расторгнуть / расторжение
	"расторгнут": "расторжен", "расторга": "расторжен", "расторгнув": "расторжен",
	// конфиденциальная информация / конфиденциальность share «конфиденциальн»
	// месяц / ежемесячный
	"ежемесячн": "месяц", "месячн": "месяц",
	// квартал / ежеквартальный / квартальный (Snowball cuts «квартал», «квартала» to «кварта»)
	"ежеквартальн": "квартал", "квартальн": "квартал", "кварта": "квартал",
	// прибыль: Snowball cuts «прибыли» to «приб»
	"приб": "прибыл",
	// сдать / сдавать / сдача отчётности
	"сдава": "сдач", "сдат": "сдач", "сдает": "сдач", "сдают": "сдач",
	// выставить / выставлять счёт-фактуру
	"выставля": "выстав",
	// заработная плата = зарплата
	"заработн": "зарплат",
	// остаток / осталось / оставшиеся (balance, remainder)
	"остаток": "остат", "остатк": "остат", "оста": "остат", "оставш": "остат",
	// удержание / удерживать (withholding)
	"удержан": "удерж", "удержива": "удерж", "удержа": "удерж",
	// окончание / закончить / завершение
	"окончан": "оконч", "законч": "оконч", "оконча": "оконч", "заверш": "оконч",
	"завершен": "оконч",
	// перечислить / перечисление (of money)
	"перечислен": "перечисл", "перечисля": "перечисл",
	// сверка / сверить / сверяться
	"сверя": "сверк", "свер": "сверк",
	// лимит: Snowball cuts «лимит» as a verb form
	"лим": "лимит",
	// accountants' slang for a contract's terms: абонентка, коммуналка, ноуты, допник
	"абонентк": "абонентск", "коммуналк": "коммунальн", "ноут": "ноутбук",
	"допник": "допсоглашен",
	// заём / займ: Snowball cuts «заём» (ё folded) to «за», which no other word leaves
	"за": "займ",
	// пролонгация / продление / продлевается
	"автопролонгац": "продлен", "пролонгац": "продлен", "продлева": "продлен", "продл": "продлен",
	// вернуть / возврат / возвращается
	"вернут": "возврат", "верн": "возврат", "возвраща": "возврат", "возвращ": "возврат",
	// подпишем / подписал (подписание stays apart, as above)
	"подпиш": "подпис",
	// отказ / отказаться
	"отказа": "отказ", "отказыва": "отказ",
	// подотчёт / подотчётные суммы / подотчётное лицо
	"подотчетн": "подотчет",
	// страховка / страхование / страховать
	"страховк": "страхован", "страхова": "страхован", "застрахова": "страхован",
	// постоянка / постоянная часть; переменка / переменная часть
	"постоянк": "постоя", "постоян": "постоя", "переменк": "перемен",
	// потерять / потеря / утеря / утрата документа
	"потеря": "утрат", "потер": "утрат", "потерян": "утрат", "утер": "утрат", "утеря": "утрат",
	"утерян": "утрат", "утрач": "утрат", "утрачен": "утрат",
	// возместить / возмещение / возмещается
	"возмест": "возмещ", "возмещен": "возмещ", "возмеща": "возмещ",
	// простой / простоял / простоя (of a vehicle); разгрузка = выгрузка
	"простоя": "прост", "просто": "прост", "простаива": "прост", "разгрузк": "выгрузк", "разгруз": "выгрузк",
	// сотрудник = работник
	"сотрудник": "работник", "сотрудниц": "работник",
	// конфиденциальность / тайна / разглашение
	"тайн": "конфиденциальн",
	// лицензия / лицензионный / сублицензионный
	"лицензион": "лиценз", "сублицензион": "лиценз", "сублиценз": "лиценз",
	// уведомить / уведомляет / уведомление; сообщить и известить — то же
	"уведомля": "уведом", "уведомлен": "уведом", "сообщ": "уведом", "сообща": "уведом", "сообщен": "уведом",
	"извест": "уведом", "извеща": "уведом", "извещен": "уведом",
	// хотим / желание (заключить договор на новый срок)
	"хот": "желан", "хоч": "желан",
	// отчитаться / отчитывается / отчёт (a report is what one reports with)
	"отчита": "отчет", "отчитыва": "отчет", "отчитан": "отчет",
	// за границей / заграничный / зарубежный
	"загранич": "границ", "заграничн": "границ", "зарубежн": "границ", "зарубеж": "границ",
	// превысить / превышение / превышает (a limit)
	"превыс": "превыш", "превышен": "превыш", "превыша": "превыш",
	// просрочка / просрочить / просроченный; опоздание и задержка — то же в договоре
	"просрочк": "просроч", "просрочен": "просроч", "просрочива": "просроч", "просрочи": "просроч",
	"опозда": "просроч", "опоздан": "просроч", "опаздыва": "просроч",
	"задержк": "просроч", "задержа": "просроч", "задержива": "просроч", "задержан": "просроч",
	// комплектация заказа = сборка = отбор (of a warehouse's order)
	"комплектац": "комплект", "комплектова": "комплект", "комплекту": "комплект", "сборк": "комплект",
	"собра": "комплект", "собира": "комплект", "собер": "комплект", "отбор": "комплект", "отобра": "комплект",
	// экспедитор / экспедиция (the contract of transport forwarding is named by its party)
	"экспедиторск": "экспедиц", "экспедитор": "экспедиц",
	// уборка / убирать / убрать / уборщица
	"убира": "уборк", "убра": "уборк", "уборщиц": "уборк", "уборщик": "уборк",
	// год / годовой / ежегодный
	"годов": "год", "ежегодн": "год", "лет": "год",
}

// normalizeWord turns one lower-cased letter run (ё already folded) into its
// index term, or "" when the word is dropped. cyr and lat tell whether the
// word has Cyrillic and ASCII Latin letters.
func normalizeWord(w []byte, cyr, lat bool) string {
	if len(w) > maxWordBytes {
		return ""
	}
	s := string(w)
	if cyr && lat {
		// Folding turns one-byte Latin letters into two-byte Cyrillic
		// ones, so the bound is checked again on the folded word.
		s = foldLatinLookalikes(s)
		lat = false
		if len(s) > maxWordBytes {
			return ""
		}
	}
	n := utf8.RuneCountInString(s)
	if n < 2 || stopWords[s] {
		return ""
	}
	if full, ok := abbreviations[s]; ok {
		s = full
		n = utf8.RuneCountInString(s)
	}
	stem := s
	if n > 3 {
		switch {
		case cyr:
			stem = russian.Stem(s, true)
		case lat:
			stem = english.Stem(s, true)
		}
	}
	if f, ok := families[stem]; ok {
		return f
	}
	if cyr {
		stem = aspectBase(stem)
		if f, ok := families[stem]; ok {
			return f
		}
		stem = adjectiveBase(stem)
		if f, ok := families[stem]; ok {
			stem = f
		}
	}
	return stem
}

// familyTerms are the terms families fold onto: a term of its own, never cut further.
var familyTerms = func() map[string]bool {
	m := make(map[string]bool, len(families))
	for _, t := range families {
		m[t] = true
	}
	return m
}()

// adjectiveBase cuts the suffix that makes an adjective of a noun from a Snowball stem, so that
// a document's title and a question's words meet: «агентский» and «агенту», «складской» and
// «склад», «транспортный» and «транспорт». Only after a consonant, and only where a stem of at
// least five letters stays: «выписка», «пропуск», «сторона», «компания» keep theirs.
func adjectiveBase(stem string) string {
	if familyTerms[stem] {
		return stem
	}
	r := []rune(stem)
	n := len(r)
	cut := 0
	switch {
	case n >= 7 && r[n-2] == 'с' && r[n-1] == 'к' && consonant(r[n-3]):
		cut = 2
	case n >= 6 && r[n-1] == 'н' && consonant(r[n-2]) && r[n-2] != 'н':
		cut = 1
	}
	if cut == 0 {
		return stem
	}
	return string(r[:n-cut])
}

// aspectBase folds an imperfective verb's «-вля-/-мля-/-пля-/-бля-» stem onto its perfective's:
// «предъявляются» and «предъявить», «направляет» and «направить», «оформляет» and «оформить»
// (Snowball leaves «предъявля» and «предъяв»). Only where a stem of at least four letters stays.
func aspectBase(stem string) string {
	r := []rune(stem)
	n := len(r)
	if n >= 7 && r[n-2] == 'л' && r[n-1] == 'я' && strings.ContainsRune("вмпбф", r[n-3]) {
		return string(r[:n-2])
	}
	return stem
}

// consonant: a Russian consonant letter (й included; ь and ъ are not).
func consonant(r rune) bool {
	return r >= 'а' && r <= 'я' && !strings.ContainsRune("аеиоуыэюяьъ", r)
}

// latinLookalike maps ASCII Latin letters that print like Cyrillic ones to
// those Cyrillic letters (lower case).
var latinLookalike = [128]rune{
	'a': 'а', 'b': 'в', 'c': 'с', 'e': 'е', 'h': 'н', 'k': 'к', 'm': 'м',
	'o': 'о', 'p': 'р', 't': 'т', 'x': 'х', 'y': 'у',
}

// foldLatinLookalikes replaces Latin lookalikes in s by Cyrillic letters.
func foldLatinLookalikes(s string) string {
	buf := make([]byte, 0, len(s)+8)
	for _, r := range s {
		if r < 128 && latinLookalike[r] != 0 {
			r = latinLookalike[r]
		}
		buf = utf8.AppendRune(buf, r)
	}
	return string(buf)
}

func makeSet(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// sharedStemLimit bounds the process-wide stem cache (about 10 MB).
const sharedStemLimit = 1 << 17

// stemCache is a process-wide word -> term cache shared by all tokenizers,
// so building many small per-owner indexes does not run Snowball on the
// same vocabulary again and again. Each tokenizer keeps a private cache in
// front of it, so the lock is taken once per distinct word per tokenizer.
type stemCache struct {
	mu sync.RWMutex
	m  map[string]string
}

var sharedStems = &stemCache{m: make(map[string]string, 1024)}

func (c *stemCache) get(w []byte) (string, bool) {
	c.mu.RLock()
	term, ok := c.m[string(w)]
	c.mu.RUnlock()
	return term, ok
}

// put stores a term; once the cache is full it stops growing (the common
// vocabulary is already in it by then).
func (c *stemCache) put(w, term string) {
	c.mu.Lock()
	if len(c.m) < sharedStemLimit {
		c.m[w] = term
	}
	c.mu.Unlock()
}
