package retrieval

import (
	"slices"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		// words, case, ё, stop words
		{"lower case and stop words", "Договор И ПОСТАВКА на складе", []string{"договор", "постав", "склад"}},
		{"ё folds to е", "платёж Платеж ПЛАТЁЖ", []string{"оплат", "оплат", "оплат"}},
		{"english stemming", "The payments were delayed", []string{"payment", "delay"}},
		{"english stop words only", "and the of to", nil},
		{"short acronyms are not stemmed", "ИНН КПП НДС ООО", []string{"инн", "кпп", "ндс", "ооо"}},
		{"single letters dropped", "г. т. п. Москва", []string{"москв"}},
		{"question words dropped; «стоит» is the «стоимость» asked", "какой срок? сколько стоит? кто подписал?", []string{"срок", "стоимост", "подпис"}},
		{"сколько typed in a hurry", "скока скоко", nil},
		{"a number with its case ending is the number", "до 10го, 10-го числа, в 2-х экземплярах, 5ти дней", []string{"10", "10", "числ", "2", "экземпляр", "5", "ден"}},
		{"a code with a number sign stays a code", "№ 1-е", []string{"1-е", "№1-е"}},
		{"one family: notify, wish", "сообщить уведомляет уведомление известить хотим желании", []string{"уведом", "уведом", "уведом", "уведом", "желан", "желан"}},
		{"one family: lost, reimbursed, employee", "потерял утрачен возместим возмещены сотрудник работник", []string{"утрат", "утрат", "возмещ", "возмещ", "работник", "работник"}},
		{"one family: licence, sublicence", "лицензии сублицензионный", []string{"лиценз", "лиценз"}},
		{"hyphenated words split", "счёт-фактура", []string{"счет", "фактур"}},
		{"slashed words split", "ИНН/КПП", []string{"инн", "кпп"}},
		{"abbreviation руб.", "100 руб.", []string{"100", "рубл"}},
		{"percent sign", "0,1%", []string{"0.1", "0", "процент"}},
		{"ruble sign", "500 ₽", []string{"500", "рубл"}},
		{"soft hyphen inside a word", "дого\u00adвор", []string{"договор"}},
		{"decomposed й", "неустои\u0306ка", []string{"неустойк"}},
		{"decomposed ё", "зачте\u0308н", Tokens("зачтен")},
		{"mixed-script word folded to Cyrillic", "OOO Tехснаб", []string{"ooo", "техснаб"}},
		// numbers
		{"amount with spaces and kopecks", "1 250 000,00", []string{"1250000"}},
		{"amount with dot", "1250000.00", []string{"1250000"}},
		{"amount with dot groups", "1.250.000,00", []string{"1250000"}},
		{"amount english style", "1,250,000.00", []string{"1250000"}},
		{"amount with no-break spaces", "1\u00a0250\u00a0000,00", []string{"1250000"}},
		{"amount with narrow no-break spaces", "1\u202f250\u202f000", []string{"1250000"}},
		{"non-zero kopecks keep integer part too", "206 570,50", []string{"206570.50", "206570"}},
		{"year is not a thousands group", "2026 150 000", []string{"2026", "150000"}},
		{"four-digit group is not joined", "1 2345", []string{"1", "2345"}},
		{"scale word млн", "3 млн", []string{"3", "3000000", "миллион"}},
		{"scale word тыс. with decimal", "1,25 тыс.", []string{"1.25", "1", "1250", "тысяч"}},
		{"short numbers lose leading zeros", "05", []string{"5"}},
		// dates
		{"date dd.mm.yyyy", "01.03.2026", []string{"2026-03-01", "--03-01"}},
		{"date iso", "2026-03-01", []string{"2026-03-01", "--03-01"}},
		{"date d.m.yy", "1.3.26", []string{"2026-03-01", "--03-01"}},
		{"date with slashes", "01/03/2026", []string{"2026-03-01", "--03-01"}},
		{"textual date with year", "1 марта 2026 г.", []string{"2026-03-01", "--03-01", "март", "2026"}},
		{"textual date in contract quotes", "«31» марта 2026 г.", []string{"2026-03-31", "--03-31", "март", "2026"}},
		{"textual date without year", "на 31 марта", []string{"--03-31", "март"}},
		{"impossible textual date is a number", "30 февраля", []string{"30", "феврал"}},
		{"29 February of a leap year", "29 февраля 2028", []string{"2028-02-29", "--02-29", "феврал", "2028"}},
		{"29 February without a year", "29 февраля", []string{"--02-29", "феврал"}},
		{"invalid date is a code", "31.02.2026", []string{"31.02.2026", "31.02"}},
		// identifiers
		{"INN and KPP whole", "ИНН 7714583920 КПП 771401001", []string{"инн", "7714583920", "кпп", "771401001"}},
		{"12-digit INN", "ИНН 500100732259", []string{"инн", "500100732259"}},
		{"INN/KPP pair", "7714583920/771401001", []string{"7714583920/771401001", "7714583920", "771401001"}},
		{"contract number", "П-15/2025", []string{"п-15/2025", "п-15"}},
		{"contract number prefix", "П-15", []string{"п-15", "п15"}}, // and as typed without the hyphen
		{"form code typed joined", "КС-2", []string{"кс-2", "кс2"}},
		{"number sign", "№ 77", []string{"77", "№77"}},
		{"number sign without space", "№77", []string{"77", "№77"}},
		{"number sign with code", "№ П-15/2025", []string{"п-15/2025", "№п-15/2025", "п-15"}},
		{"1C document number", "СВ00-000123", []string{"св00-000123", "св00", "св", "000123", "123"}},
		{"1C number typed in Latin", "CB00-000123", []string{"св00-000123", "св00", "св", "000123", "123"}},
		{"Latin code stays Latin", "INV-2025-001", []string{"inv-2025-001", "inv-2025"}},
		{"account code", "62.01", []string{"62.01", "62"}},
		{"account code with sub-subaccount", "90.01.1", []string{"90.01.1", "90.01"}},
		{"account code with letters", "76.АВ", []string{"76", "ав"}},
		{"bank account", "40702810938000123456", []string{"40702810938000123456"}},
		{"BIK keeps leading zero", "044525225", []string{"044525225", "44525225"}},
		{"number with unit glued", "2026г.", []string{"2026г", "2026"}},
		{"range with en dash", "10–15 дней", []string{"10-15", "ден"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokens(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestStemFamilies checks that inflected forms (and the curated derivational
// families) of one lemma map to one term.
func TestStemFamilies(t *testing.T) {
	families := [][]string{
		{"договор", "договора", "договоров", "договором", "договору", "договоре", "договорный"},
		{"поставка", "поставки", "поставку", "поставкой", "поставщик", "поставщика", "поставщиком", "поставлять"},
		{"оплата", "оплаты", "оплату", "оплатой", "платёж", "платежа", "платежом", "оплачивает", "выплата", "выплачивается"},
		// an adjective made of a noun meets the noun: a title's «агентский» and a question's «агенту»
		{"агент", "агенту", "агентом", "агентский", "агентского"},
		{"склад", "склада", "складской", "складского"},
		{"транспорт", "транспорта", "транспортный", "транспортной"},
		{"границей", "границы", "заграничных", "заграничной", "зарубежной"},
		{"отчёт", "отчета", "отчитаться", "отчитался", "отчитывается"},
		{"неустойка", "неустойки", "неустойку", "пени", "пеня", "штраф", "штрафа"},
		{"аренда", "аренды", "аренду", "арендная", "арендной"},
		{"лизинг", "лизинга", "лизингу", "лизинговый", "лизингового"},
		{"комиссия", "комиссии", "комиссионные", "комиссионное"},
		{"сумма", "суммы", "сумму", "суммой"},
		{"акт", "акта", "акту", "актом", "акте"},
		{"сверка", "сверки", "сверку", "сверяемся"},
		{"срок", "срока", "сроки", "сроков", "сроком"},
		{"задолженность", "задолженности", "долг", "долга"},
		{"день", "дня", "дней", "дням"},
		{"счёт", "счет", "счета", "счёта"},
		{"подписал", "подписали", "подписи", "подписью", "подписант"},
		{"остаток", "остатка", "оставшиеся", "осталось"},
		{"просрочка", "просрочки", "просрочили", "просроченной", "опоздание", "опоздали", "задержка", "задержали"},
		{"экспедиция", "экспедиции", "экспедитор", "экспедитору"},
		// an imperfective verb meets its perfective: «предъявляются» and «предъявить»
		{"предъявить", "предъявляются", "предъявляет"},
		{"оформить", "оформляет", "оформляются"},
		{"комплектация", "комплектации", "собрать", "соберём", "сборка", "отбор"},
		{"invoice", "invoices", "invoiced"},
		{"payment", "payments"},
	}
	// …and nouns that only look like such adjectives keep their stems.
	for _, pair := range [][2]string{{"выписка", "выпи"}, {"пропуск", "пропу"}, {"сторона", "сторо"}} {
		if got := Tokens(pair[0]); slices.Contains(got, pair[1]) {
			t.Errorf("Tokens(%q) = %q: cut as an adjective", pair[0], got)
		}
	}
	for _, fam := range families {
		want := Tokens(fam[0])
		if len(want) != 1 {
			t.Fatalf("Tokens(%q) = %q, want one term", fam[0], want)
		}
		for _, w := range fam[1:] {
			if got := Tokens(w); !slices.Equal(got, want) {
				t.Errorf("Tokens(%q) = %q, want %q (as %q)", w, got, want, fam[0])
			}
		}
	}
}

func TestTokensSameAcrossFormats(t *testing.T) {
	same := [][]string{
		{"1 250 000,00", "1250000.00", "1.250.000,00", "1 250 000", "1250000", "1,25 млн"},
		{"01.03.2026", "1.3.2026", "2026-03-01", "1 марта 2026", "01/03/2026"},
		{"СВ00-000123", "CB00-000123", "св00-000123"},
	}
	for _, group := range same {
		first := Tokens(group[0])
		for _, s := range group[1:] {
			if !overlaps(Tokens(s), first) {
				t.Errorf("Tokens(%q) = %q shares no term with Tokens(%q) = %q", s, Tokens(s), group[0], first)
			}
		}
	}
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

func TestTokensLongInput(t *testing.T) {
	junk := strings.Repeat("ab", 200) + " " + strings.Repeat("1", 100) + " " + strings.Repeat("a-", 50) + "1"
	for _, term := range Tokens(junk) {
		if len(term) > maxWordBytes {
			t.Errorf("term of %d bytes: %q", len(term), term)
		}
	}
}

func TestTokensConcurrent(t *testing.T) {
	text := "Оплата по счёту № СВ00-000123 от 05.03.2026 на сумму 187 560,00 руб."
	want := Tokens(text)
	done := make(chan bool)
	for range 8 {
		go func() {
			for range 200 {
				if got := Tokens(text); !slices.Equal(got, want) {
					t.Errorf("concurrent Tokens = %q, want %q", got, want)
				}
			}
			done <- true
		}()
	}
	for range 8 {
		<-done
	}
}
