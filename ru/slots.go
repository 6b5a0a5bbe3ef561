package ru

// Where a number is a date and where it is an account code.
//
// Accountants write short dates without a year, «на 1.05», and account codes of the same
// shape, «62.01», often in one message: «сальдо 62.01 на 1.05». The rule:
//
//   - A number right after an account word — «счёт», «сч.», «субсчёт», «сальдо»,
//     «остаток», «оборот», «оборотка», «ОСВ» in any case, also with «по» between
//     («остатки по 10.01») — is an account, never a date, and never a [DateError]
//     («сальдо 31.02»). A full date with a four-digit year stays a date there
//     («сальдо 01.05.2025»).
//   - A day and month without a year, «1.05», «01/05», «5.4», is a date only in a date
//     slot — right after «на», «за», «с», «по», «к», «до», «от» (so also «по состоянию
//     на», «начиная с», «с … по …») — or when it is the whole text («01.05», a reply to
//     «на какую дату?»). Elsewhere it is not a date: «10.01 на 1.03» is 1 March, «62.01»
//     and «сч 60.01» have no date.
//   - In a date slot such a number is a date even when it is not a valid one: «на 31.02»,
//     «на 32.01», «на 1.13» are a [DateError]. It is not a date when its first part is 0
//     or 40 and more (a decimal «на 0.25», an account «на 62.01»: no month has 40 days
//     and accounts 30–39 do not exist), when its second part is 00 («до 18.00»), when an
//     amount follows («на 1.5 %», «на 2.5 млн»), or when it reads as a clock time
//     (minutes 13–59) after «к», «до», «от» or before «до» («с 9.30 до 18.30»).
//
// Full dates «01.03.2026», «01.03.26» and «2026-03-01» are dates anywhere except a
// two-digit-year one after an account word («сч 10.01.12»).

// slotWords are the prepositions after which a short number is a date.
var slotWords = set("на", "за", "с", "со", "c", "по", "к", "до", "от")

// clockWords are the prepositions after which a time-like short number is a time.
var clockWords = set("к", "до", "от")

// dateSlot reports whether token i stands where a date is expected: right after a date
// preposition and not after an account word, or after a dash that follows a date in a
// slot («за 1.02 - 15.03»).
func (p *parser) dateSlot(i int) bool {
	if s := p.punct(i - 1); (s == "-" || s == "..") && i >= 2 && p.toks[i-2].kind == tNum {
		return len(p.toks[i-2].parts) == 3 || p.dateSlot(i-2)
	}
	return slotWords[p.word(i-1)] && !p.accountPos(i)
}

// accountPos reports whether token i follows an account word, directly, after «по» or
// after the dot of an abbreviation: «сальдо 01.05», «остатки по 51», «по сч. 62.01».
func (p *parser) accountPos(i int) bool {
	k := i - 1
	if p.word(k) == "по" {
		k--
	}
	if p.punct(k) == "." && p.adjacent(k-1) {
		k--
	}
	return accountWord(p.word(k))
}

// alone reports whether tokens [i, end) are all of the text but punctuation.
func (p *parser) alone(i, end int) bool {
	for k, t := range p.toks {
		if (k < i || k >= end) && t.kind != tPunct {
			return false
		}
	}
	return true
}

// amountAt reports whether the token at i makes the number before it an amount: «%», a
// currency sign or a quantity word («руб.», «млн», «п.п.»).
func (p *parser) amountAt(i int) bool {
	if w := p.word(i); w != "" && !yearWords[w] && isQuantityWord(w) {
		return true
	}
	s := p.punct(i)
	return s == "%" || s == "₽" || s == "$" || s == "€"
}

// shortDate reads a day and month without a year, «1.05», «01/05», at token i when it is
// a date by the rule above. The values are not validated beyond that rule.
func (p *parser) shortDate(i int) (d, m int, ok bool) {
	t := p.toks[i]
	if t.kind != tNum || len(t.parts) != 2 || (t.seps[0] != "." && t.seps[0] != "/") {
		return 0, 0, false
	}
	d, m, clock, ok := shortParts(t.parts[0], t.parts[1])
	if !ok || !(p.dateSlot(i) || p.alone(i, i+1)) || p.amountAt(i+1) {
		return 0, 0, false
	}
	if clock && (clockWords[p.word(i-1)] || p.word(i+1) == "до") {
		return 0, 0, false
	}
	return d, m, true
}

// shortParts reads the day and month of a short date: one or two digits each, the day
// 1–39, the month not 0. clock reports the shape of a time, h.mm with h ≤ 23 and mm
// 13–59.
func shortParts(a, b string) (d, m int, clock, ok bool) {
	if len(a) > 2 || len(b) > 2 {
		return 0, 0, false, false
	}
	d, m = atoi(a), atoi(b)
	if d < 1 || d > 39 || m < 1 {
		return 0, 0, false, false
	}
	return d, m, len(b) == 2 && d <= 23 && m >= 13 && m <= 59, true
}
