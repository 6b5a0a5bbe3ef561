package library

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/library/retrieval"
)

// Countries as documents name them: a travel policy's table says «Турецкая Республика»,
// «Объединённые Арабские Эмираты», «Страны — члены Европейского союза», «Прочие страны»; an
// accountant asks «суточные в турции», «оаэ», «в германию», «грузия». A question that names a
// country is read with the country's official name and, for a member of the European Union, the
// Union's; a country no unit names falls under «прочие страны».

type country struct {
	names    []string // how people write it (any case, any form: stems are compared)
	official string   // how a document names it
	eu       bool
}

var countryTable = []country{
	{[]string{"россия", "россии", "россию", "рф"}, "Российская Федерация", false},
	{[]string{"беларусь", "белоруссия", "белоруссии", "рб"}, "Республика Беларусь", false},
	{[]string{"казахстан", "казахстане"}, "Республика Казахстан", false},
	{[]string{"узбекистан"}, "Республика Узбекистан", false},
	{[]string{"армения", "армении"}, "Республика Армения", false},
	{[]string{"киргизия", "кыргызстан"}, "Киргизская Республика", false},
	{[]string{"таджикистан"}, "Республика Таджикистан", false},
	{[]string{"азербайджан"}, "Азербайджанская Республика", false},
	{[]string{"грузия", "грузии"}, "Грузия", false},
	{[]string{"молдова", "молдавия"}, "Республика Молдова", false},
	{[]string{"турция", "турции", "турцию"}, "Турецкая Республика", false},
	{[]string{"оаэ", "эмираты", "эмиратах", "дубай"}, "Объединённые Арабские Эмираты", false},
	{[]string{"китай", "китае", "кнр"}, "Китайская Народная Республика", false},
	{[]string{"индия", "индии"}, "Республика Индия", false},
	{[]string{"вьетнам"}, "Социалистическая Республика Вьетнам", false},
	{[]string{"таиланд", "тайланд"}, "Королевство Таиланд", false},
	{[]string{"египет", "египте"}, "Арабская Республика Египет", false},
	{[]string{"израиль"}, "Государство Израиль", false},
	{[]string{"сербия", "сербии"}, "Республика Сербия", false},
	{[]string{"сша", "америка", "америке"}, "Соединённые Штаты Америки", false},
	{[]string{"великобритания", "англия", "англии"}, "Соединённое Королевство", false},
	{[]string{"швейцария", "швейцарии"}, "Швейцарская Конфедерация", false},
	{[]string{"япония", "японии"}, "Япония", false},
	{[]string{"германия", "германии", "германию", "фрг"}, "Федеративная Республика Германия", true},
	{[]string{"франция", "франции", "францию"}, "Французская Республика", true},
	{[]string{"италия", "италии", "италию"}, "Итальянская Республика", true},
	{[]string{"испания", "испании", "испанию"}, "Королевство Испания", true},
	{[]string{"польша", "польше", "польшу"}, "Республика Польша", true},
	{[]string{"чехия", "чехии", "чехию"}, "Чешская Республика", true},
	{[]string{"австрия", "австрии"}, "Австрийская Республика", true},
	{[]string{"нидерланды", "голландия", "голландии"}, "Королевство Нидерландов", true},
	{[]string{"бельгия", "бельгии"}, "Королевство Бельгия", true},
	{[]string{"финляндия", "финляндии"}, "Финляндская Республика", true},
	{[]string{"швеция", "швеции"}, "Королевство Швеция", true},
	{[]string{"греция", "греции"}, "Греческая Республика", true},
	{[]string{"кипр", "кипре"}, "Республика Кипр", true},
	{[]string{"латвия", "латвии"}, "Латвийская Республика", true},
	{[]string{"литва", "литве"}, "Литовская Республика", true},
	{[]string{"эстония", "эстонии"}, "Эстонская Республика", true},
	{[]string{"венгрия", "венгрии"}, "Венгрия", true},
	{[]string{"португалия", "португалии"}, "Португальская Республика", true},
	{[]string{"болгария", "болгарии"}, "Республика Болгария", true},
	{[]string{"румыния", "румынии"}, "Румыния", true},
}

// countryStems maps the stem of each way a country is written to its entry.
var countryStems = map[string]int{}

func init() {
	for i, c := range countryTable {
		for _, n := range c.names {
			for _, t := range retrieval.Tokens(n) {
				countryStems[t] = i
			}
		}
	}
}

// countryTerms returns, for each country text names, the terms of how a document names it
// (its official name; the European Union's for a member), by the country's entry.
func countryTerms(text string) map[int][]string {
	out := map[int][]string{}
	for _, t := range retrieval.Tokens(text) {
		i, ok := countryStems[t]
		if !ok || out[i] != nil {
			continue
		}
		c := countryTable[i]
		name := c.official
		if c.eu {
			name += " европейского союза"
		}
		var ts []string
		for _, w := range retrieval.Tokens(name) {
			if !generic[w] {
				ts = append(ts, w)
			}
		}
		for _, n := range c.names {
			// its abbreviation too: a table's header says «Суточные по РФ»
			if utf8.RuneCountInString(n) <= 3 {
				for _, w := range retrieval.Tokens(n) {
					if !slices.Contains(ts, w) {
						ts = append(ts, w)
					}
				}
			}
		}
		out[i] = ts
	}
	return out
}

// generic are the words of official names every other country has too: they tell no country.
var generic = map[string]bool{}

func init() {
	for _, w := range []string{"республика", "королевство", "государство", "народная", "федеративная", "социалистическая", "арабская"} {
		for _, t := range retrieval.Tokens(w) {
			generic[t] = true
		}
	}
}

// otherCountries are the words of the row for the countries a table does not list.
var otherCountries = strings.Fields("прочие страны")

// withCountries returns the question's terms qt with each country text names read as the
// documents name it: its official name's terms instead of the word asked; when no unit names
// the country, the row of «прочие страны». terms are the units' terms, by document.
//
// share is, for each term of a country's name, the part of a term's weight it has: a country
// is one word asked, whether its name has one word or three («Российская Федерация», «РФ»).
func withCountries(qt []string, text string, terms [][]clauseTerms) (_ []string, share map[string]float64) {
	cs := countryTerms(text)
	if len(cs) == 0 {
		return qt, nil
	}
	share = map[string]float64{}
	for _, ts := range cs {
		for _, t := range ts {
			share[t] = 1 / float64(len(ts))
		}
	}
	qt = slices.DeleteFunc(slices.Clone(qt), func(t string) bool { _, ok := countryStems[t]; return ok })
	named := func(t string) bool {
		for _, ds := range terms {
			for _, ut := range ds {
				if ut.own[t] {
					return true
				}
			}
		}
		return false
	}
	for _, ts := range cs {
		for _, t := range ts {
			if !slices.Contains(qt, t) {
				qt = append(qt, t)
			}
		}
		if !slices.ContainsFunc(ts, named) {
			for _, w := range otherCountries {
				for _, t := range retrieval.Tokens(w) {
					if !slices.Contains(qt, t) {
						qt = append(qt, t)
					}
				}
			}
		}
	}
	return qt, share
}
