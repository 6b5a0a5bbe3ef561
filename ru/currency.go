package ru

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Currency is a currency the Bank of Russia quotes daily.
type Currency struct {
	Code string // ISO 4217 letter code, "USD"
	Name string // Russian name as the Bank of Russia writes it, in the singular: "Доллар США"
}

// table is the Bank of Russia daily list, sorted by code.
var table = []Currency{
	{"AED", "Дирхам ОАЭ"},
	{"AMD", "Армянский драм"},
	{"AUD", "Австралийский доллар"},
	{"AZN", "Азербайджанский манат"},
	{"BGN", "Болгарский лев"},
	{"BRL", "Бразильский реал"},
	{"BYN", "Белорусский рубль"},
	{"CAD", "Канадский доллар"},
	{"CHF", "Швейцарский франк"},
	{"CNY", "Китайский юань"},
	{"CZK", "Чешская крона"},
	{"DKK", "Датская крона"},
	{"EGP", "Египетский фунт"},
	{"EUR", "Евро"},
	{"GBP", "Фунт стерлингов Соединенного королевства"},
	{"GEL", "Грузинский лари"},
	{"HKD", "Гонконгский доллар"},
	{"HUF", "Венгерский форинт"},
	{"IDR", "Индонезийская рупия"},
	{"INR", "Индийская рупия"},
	{"JPY", "Японская иена"},
	{"KGS", "Киргизский сом"},
	{"KRW", "Вона Республики Корея"},
	{"KZT", "Казахстанский тенге"},
	{"MDL", "Молдавский лей"},
	{"NOK", "Норвежская крона"},
	{"NZD", "Новозеландский доллар"},
	{"PLN", "Польский злотый"},
	{"QAR", "Катарский риал"},
	{"RON", "Румынский лей"},
	{"RSD", "Сербский динар"},
	{"SEK", "Шведская крона"},
	{"SGD", "Сингапурский доллар"},
	{"THB", "Таиландский бат"},
	{"TJS", "Таджикский сомони"},
	{"TMT", "Новый туркменский манат"},
	{"TRY", "Турецкая лира"},
	{"UAH", "Украинская гривна"},
	{"USD", "Доллар США"},
	{"UZS", "Узбекский сум"},
	{"VND", "Вьетнамский донг"},
	{"XDR", "СДР (специальные права заимствования)"},
	{"ZAR", "Южноафриканский рэнд"},
}

// byCode indexes table by code.
var byCode = func() map[string]Currency {
	m := make(map[string]Currency, len(table))
	for _, c := range table {
		m[c.Code] = c
	}
	return m
}()

// Currencies returns the Bank of Russia daily list, sorted by code. The slice is a copy.
func Currencies() []Currency { return slices.Clone(table) }

// LookupCurrency returns the currency with the ISO code, in any letter case.
func LookupCurrency(code string) (Currency, bool) {
	c, ok := byCode[strings.ToUpper(strings.TrimSpace(code))]
	return c, ok
}

// FindCurrencies returns the currencies named in text, in order of appearance, without
// duplicates. It recognises:
//   - ISO codes of the table in any case, as whole words: "USD", "usd", "usd/rub" (RUB is
//     not quoted and is ignored);
//   - Russian names in any case and number: «доллар», «долларами», «евро», «юаней»,
//     «фунтов стерлингов», «иены»/«йены»…, with country adjectives for the ambiguous ones:
//     «канадский доллар» is CAD, bare «доллар» and «бакс» are USD, «манат» is AZN unless
//     «туркменский», «лей» is MDL unless «румынский», «рупия» is INR unless «индонезийская»,
//     «крона» needs its country and «рубль» is a currency only as «белорусский рубль»;
//     «вон» counts only after «корейских», and a capitalised «Лев» next to another word
//     is read as a first name;
//   - the Latin word «euro» (EUR);
//   - the symbols $ (USD; A$, C$, HK$, S$, NZ$ for the other dollars), €, ¥ (CNY), £, and
//     ₸ ₺ ₴ ₹ ₩ ₾ ₼ ֏ ₫.
//
// unknown lists, upper-cased and without duplicates, the 3-letter Latin words written in
// upper case (or any case after "/rate") that are not codes of the table, such as "XYZ":
// callers report them as not quoted by the Bank of Russia. RUB and common non-currency
// abbreviations (PDF, API, INN, VAT…) are never unknown. Both results are nil when empty.
func FindCurrencies(text string) (found []Currency, unknown []string) {
	toks := tokenize(text)
	seen := map[string]bool{}
	add := func(code string) {
		if code != "" && !seen[code] {
			seen[code] = true
			found = append(found, byCode[code])
		}
	}
	afterRate := false
	for i, t := range toks {
		raw := text[t.start:t.end]
		switch t.kind {
		case tPunct:
			if code := symbolCode(toks, text, i); code != "" {
				add(code)
			}
			if t.s == "/" && i+1 < len(toks) && toks[i+1].kind == tWord && toks[i+1].s == "rate" && toks[i+1].start == t.end {
				afterRate = true
			}
		case tWord:
			if isASCIILetters(raw) && len(raw) == 3 {
				up := strings.ToUpper(raw)
				if _, ok := byCode[up]; ok {
					add(up)
				} else if (raw == up || afterRate) && !notCurrency[up] && !slices.Contains(unknown, up) {
					unknown = append(unknown, up)
				}
				continue
			}
			add(nounCode(toks, text, i))
		}
	}
	return found, unknown
}

// notCurrency are upper-case 3-letter words that are never reported as unknown currencies.
var notCurrency = set("RUB", "RUR", "API", "PDF", "XML", "CSV", "XLS", "DOC", "TXT", "ZIP", "URL",
	"SQL", "FAQ", "CEO", "CFO", "CTO", "ERP", "CRM", "SMS", "GPS", "VPN", "LLC", "OOO", "INN", "KPP",
	"BIK", "BIC", "VAT", "ATM", "PIN", "OTP", "UTC", "GMT", "MSK", "USA", "CBR", "ECB", "IMF", "EDO",
	"NDS", "FNS", "OFZ", "IPO", "ETF", "HTTP", "WWW", "BOT", "AND", "THE", "FOR", "NEW")

// symbols maps currency signs to codes. "$" depends on the letters before it.
var symbols = map[string]string{"$": "USD", "€": "EUR", "¥": "CNY", "£": "GBP", "₸": "KZT",
	"₺": "TRY", "₴": "UAH", "₹": "INR", "₩": "KRW", "₾": "GEL", "₼": "AZN", "֏": "AMD", "₫": "VND"}

// dollarPrefixes are the letters glued before "$": A$ is the Australian dollar.
var dollarPrefixes = map[string]string{"a": "AUD", "au": "AUD", "c": "CAD", "ca": "CAD", "can": "CAD",
	"hk": "HKD", "s": "SGD", "sg": "SGD", "nz": "NZD", "us": "USD"}

// symbolCode returns the currency of the sign at toks[i], or "".
func symbolCode(toks []token, text string, i int) string {
	code := symbols[toks[i].s]
	if toks[i].s == "$" && i > 0 && toks[i-1].kind == tWord && toks[i-1].end == toks[i].start {
		if c, ok := dollarPrefixes[strings.ToLower(text[toks[i-1].start:toks[i-1].end])]; ok {
			code = c
		}
	}
	return code
}

// noun is a currency noun: its default code ("" when it needs a country adjective) and
// the adjectives (by prefix) that choose another code.
type noun struct {
	def string
	adj []adjective
}

type adjective struct{ prefix, code string }

var (
	hardNoun = []string{"", "а", "у", "ом", "е", "ы", "ов", "ам", "ами", "ах"}
	softNoun = []string{"ь", "я", "ю", "ем", "е", "и", "ей", "ям", "ями", "ях"}
	femNoun  = []string{"а", "ы", "е", "у", "ой", "ою", "", "ам", "ами", "ах"}
)

// nouns maps every form of a currency noun to its noun.
var nouns = func() map[string]*noun {
	m := map[string]*noun{}
	add := func(n *noun, stems []string, endings ...string) {
		for _, s := range stems {
			for _, e := range endings {
				m[s+e] = n
			}
		}
	}
	dollar := &noun{def: "USD", adj: []adjective{{"австралийск", "AUD"}, {"канадск", "CAD"},
		{"гонконгск", "HKD"}, {"сингапурск", "SGD"}, {"новозеландск", "NZD"}, {"американск", "USD"}}}
	add(dollar, []string{"доллар", "долар", "бакс"}, hardNoun...)
	m["долл"] = dollar
	add(&noun{def: "EUR"}, []string{"евро", "euro"}, "")
	add(&noun{def: "CNY"}, []string{"юан"}, softNoun...)
	pound := &noun{def: "GBP", adj: []adjective{{"египетск", "EGP"}}}
	add(pound, []string{"фунт"}, hardNoun...)
	add(&noun{def: "GBP"}, []string{"стерлинг"}, hardNoun...)
	add(&noun{def: "JPY"}, []string{"иен", "йен"}, femNoun...)
	add(&noun{def: "CHF"}, []string{"франк"}, hardNoun...)
	add(&noun{adj: []adjective{{"белорусск", "BYN"}, {"бел", "BYN"}}}, []string{"рубл"}, softNoun...)
	add(&noun{def: "KZT"}, []string{"тенге"}, "")
	add(&noun{def: "GEL"}, []string{"лари"}, "")
	add(&noun{def: "TJS"}, []string{"сомони"}, "")
	add(&noun{def: "XDR"}, []string{"сдр"}, "")
	add(&noun{def: "TRY"}, []string{"лир"}, femNoun...)
	add(&noun{def: "AED"}, []string{"дирхам"}, hardNoun...)
	add(&noun{def: "INR", adj: []adjective{{"индонезийск", "IDR"}}}, []string{"рупи"}, "я", "и", "ю", "ей", "ею", "й", "ям", "ями", "ях")
	won := &noun{def: "KRW"}
	add(won, []string{"вон"}, "а", "ы", "е", "у", "ой", "ам", "ами", "ах")
	m["вон"] = &noun{adj: []adjective{{"корейск", "KRW"}, {"южнокорейск", "KRW"}}}
	add(&noun{def: "PLN"}, []string{"злот"}, "ый", "ого", "ому", "ым", "ом", "ые", "ых", "ыми")
	add(&noun{def: "UAH"}, []string{"гривн"}, "а", "ы", "е", "у", "ой", "ам", "ами", "ах", "я", "и", "ю", "ей")
	m["гривен"] = m["гривна"]
	add(&noun{def: "MDL", adj: []adjective{{"румынск", "RON"}}}, []string{"ле"}, "й", "я", "ю", "ем", "е", "и", "ев", "ям", "ями", "ях")
	add(&noun{def: "KGS"}, []string{"сом"}, hardNoun...)
	add(&noun{def: "AMD"}, []string{"драм"}, hardNoun...)
	add(&noun{def: "AZN", adj: []adjective{{"туркменск", "TMT"}}}, []string{"манат"}, hardNoun...)
	add(&noun{def: "UZS"}, []string{"сум"}, hardNoun...)
	add(&noun{def: "THB"}, []string{"бат"}, hardNoun...)
	add(&noun{def: "BRL"}, []string{"реал"}, hardNoun...)
	add(&noun{def: "ZAR"}, []string{"ранд", "рэнд"}, hardNoun...)
	add(&noun{def: "VND"}, []string{"донг"}, hardNoun...)
	add(&noun{def: "HUF"}, []string{"форинт"}, hardNoun...)
	add(&noun{def: "BGN"}, []string{"лев"}, hardNoun...)
	add(&noun{def: "RSD"}, []string{"динар"}, hardNoun...)
	add(&noun{def: "QAR"}, []string{"риал"}, hardNoun...)
	add(&noun{adj: []adjective{{"датск", "DKK"}, {"норвежск", "NOK"}, {"чешск", "CZK"}, {"шведск", "SEK"}}},
		[]string{"крон"}, femNoun...)
	return m
}()

// properNames are currency nouns that are also Russian first names («Лев»): written with
// a capital letter next to another word they are read as names.
var properNames = set("лев", "лева", "леву", "левом", "леве")

// nounCode returns the currency named by the word at toks[i] with the adjective before
// it, or "".
func nounCode(toks []token, text string, i int) string {
	n := nouns[toks[i].s]
	if n == nil {
		return ""
	}
	if properNames[toks[i].s] && isCapitalized(text[toks[i].start:toks[i].end]) &&
		((i > 0 && toks[i-1].kind == tWord) || (i+1 < len(toks) && toks[i+1].kind == tWord && isCapitalized(text[toks[i+1].start:toks[i+1].end]))) {
		return ""
	}
	// The adjective before the noun («белорусский рубль», «бел рубль»), or after it («вон
	// южнокорейских», «крона шведская»).
	for _, k := range []int{i - 1, i + 1} {
		if k < 0 || k >= len(toks) || toks[k].kind != tWord {
			continue
		}
		for _, a := range n.adj {
			if strings.HasPrefix(toks[k].s, a.prefix) {
				return a.code
			}
		}
	}
	return n.def
}

// isCapitalized reports whether s starts with an upper-case letter.
func isCapitalized(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}
