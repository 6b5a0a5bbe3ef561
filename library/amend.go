package library

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// An amendment: a supplementary agreement that sets a contract's clause anew («Пункт 2.2
// Договора изложить в следующей редакции: «2.2. Общая сумма Договора составляет …»»). A
// clause so amended is answered in its new wording — quoting the original alone would state a
// sum or a date that no longer holds.

// Amendment is one clause of a contract set anew by another document.
type Amendment struct {
	// Contract is the number of the contract amended («318-П»), as the amending document's
	// header names it.
	Contract string
	// Clause is the clause set anew («2.2»); Text its new wording, without the quotes (for a
	// row's new price, the unit that sets it).
	Clause, Text string
	// Row is, for a new price of a tariff's or a price list's row («тариф по строке 4
	// «Дезинфекция холодильной камеры» составляет 59,00 рубля за 1 кв. м»), the row's number,
	// Name the row's name the agreement quotes (may be empty) and Price the new price as
	// written («59,00»); Clause is empty then.
	Row, Name, Price string
	// Old and New are, for an agreement that replaces words of a clause («В пункте 4.2 Договора
	// слова «25 000 000,00 …» заменить словами «35 000 000,00 …»»), the words replaced and
	// their replacement; Text is empty then — the clause's new wording is its text with them
	// replaced (Reworded).
	Old, New string
	// Unit is the amending document's unit that does it.
	Unit Unit
	// From is the first month whose payment the new wording applies to, when the agreement
	// says so («Новый срок применяется начиная с платы за декабрь 2026 г.»): a month before it
	// is paid as the clause read before; zero when it does not say.
	From time.Time
}

var (
	// amendedContract: «к Договору поставки № 318-П от 24 ноября 2025 г.».
	amendedContract = regexp.MustCompile(`(?i)к\s+договору[^№]{0,60}№\s*([\p{L}\d](?:[\p{L}\d/\-.]*[\p{L}\d])?)`)
	// newWording: «Пункт 2.2 Договора изложить в следующей редакции: «…»», «Пункт 3.2 Договора
	// с 01 ноября 2026 г. изложить …» (the day it takes effect in group 2).
	newWording = regexp.MustCompile(`(?i)(?:пункт|подпункт)\s+(\d{1,2}(?:\.\d{1,3}){0,3})\s+договора\s+(?:с\s+(` + headerDate.String() + `)\s*(?:г\.|года)?\s+)?изложить\s+в\s+(?:следующей|новой)\s+редакции\s*:?\s*«`)
	// effectiveLead: «С 01 октября 2026 г. пункт 4.1 Договора изложить …»: the day the new
	// wording takes effect, opening the unit.
	effectiveLead = regexp.MustCompile(`(?i)^(?:\d{1,2}\.\s*)?с\s+(` + headerDate.String() + `)\s*(?:г\.|года)?,?\s+(?:пункт|подпункт)`)
)

// Amendments are the clauses a document sets anew in the contract its header names; none when
// it amends no contract.
func Amendments(us []Unit) []Amendment {
	contract := ""
	for i, u := range us {
		if u.Kind == UnitClause || i >= 6 {
			break
		}
		for _, l := range []string{u.Section, u.Text} {
			if m := amendedContract.FindStringSubmatch(l); m != nil && contract == "" {
				contract = m[1]
			}
		}
	}
	if contract == "" {
		return nil
	}
	var out []Amendment
	for i, u := range us {
		m := newWording.FindStringSubmatchIndex(u.Text)
		if m == nil {
			if am, ok := rowPriceOf(u); ok {
				am.Contract = contract
				out = append(out, am)
			} else if rowsSetAnew.MatchString(u.Text) {
				out = append(out, rowsOf(us, i, contract)...)
			} else if r := wordsReplaced.FindStringSubmatch(u.Text); r != nil {
				am := Amendment{Contract: contract, Clause: r[1], Old: r[2], New: r[3], Unit: u}
				if f := rowFrom.FindStringSubmatch(u.Text); f != nil {
					am.From, _ = firstDate(f[1])
				}
				out = append(out, am)
			}
			continue
		}
		text, last, ok := quotedFrom(us, i, m[1])
		if !ok {
			continue
		}
		am := Amendment{Contract: contract, Clause: u.Text[m[2]:m[3]], Text: text, Unit: u}
		// the transition said in the unit itself or in the paragraph right after the wording
		var after string
		if last == i {
			after = u.Text[m[1]:]
		}
		for _, t := range []string{after, nextText(us, last)} {
			if f := appliesFrom.FindStringSubmatch(t); f != nil {
				if d, ok := firstDate("01 " + f[1] + " " + f[2]); ok {
					am.From = d
					break
				}
			}
			if f := arisingFrom.FindStringSubmatch(t); f != nil {
				if d, ok := firstDate(f[1]); ok {
					am.From = d
					break
				}
			}
		}
		if am.From.IsZero() {
			// «С 01 октября 2026 г. пункт 4.1 … изложить», «Пункт 3.2 Договора с 01 ноября
			// 2026 г. изложить»: from that day on — a month's payment from the month it opens
			eff := ""
			if m[4] >= 0 {
				eff = u.Text[m[4]:m[5]]
			}
			if l := effectiveLead.FindStringSubmatch(u.Text); l != nil {
				eff = l[1]
			}
			if d, ok := firstDate(eff); ok {
				am.From = d
			}
		}
		out = append(out, am)
	}
	return out
}

// appliesFrom: the first payment a new wording applies to («Новый срок применяется начиная с
// платы за декабрь 2026 г.», «…с платежа за ноябрь 2026 года»).
// «…начиная с Постоянной части за ноябрь 2026 г.», «…с абонентской платы за декабрь 2026 г.»;
// arisingFrom: «применяется к просрочкам,
// возникшим с 01.10.2026».
var (
	appliesFrom = regexp.MustCompile(`(?i)применя\p{L}*\s+(?:начиная\s+)?с\s+(?:\p{L}+\s+){0,2}(?:платы|платежа|оплаты|части)\s+за\s+(\p{L}+)\s+(\d{4})`)
	arisingFrom = regexp.MustCompile(`(?i)применя\p{L}*\s+к\s+\p{L}+,?\s+возникш\p{L}*\s+с\s+(` + headerDate.String() + `)`)
)

// Of names what the amendment sets anew: «п. 4.1 договора», «цену по строке 4 «Дезинфекция
// холодильной камеры»».
func (a Amendment) Of() string {
	if a.Row == "" {
		return "п. " + a.Clause + " договора"
	}
	if a.Name != "" {
		return "цену по строке " + a.Row + " «" + a.Name + "»"
	}
	return "цену по строке " + a.Row
}

// rowPrice: an agreement's new price of a table's row — «тариф по строке 4 «Дезинфекция
// холодильной камеры (стены, потолок, стеллажи)» составляет 59,00 рубля за 1 кв. м», «цену
// по строке 2 установить в размере 1 250,00 руб.» (the row in group 1, its quoted name in 2,
// the price in 3); rowFrom: the day it holds from, said before it in the unit («с 01 ноября
// 2026 г. тариф …»).
var (
	rowPrice = regexp.MustCompile(`(?i)(?:тариф|цен|стоимост|ставк)\p{L}*\s+(?:по\s+|в\s+)?строк\p{L}*\s+(?:№\s*)?(\d{1,3})(?:\s+(?:приложения|таблицы)[^«»]{0,30}?)?\s*(?:«((?:[^«»]|«[^«»]*»){1,200})»)?\s*,?\s*` +
		`(?:составляет|составит|устанавлива\p{L}*(?:\s+в\s+размере)?|установить(?:\s+в\s+размере)?|равн\p{L}*)\s+(\d{1,3}(?:[ \x{a0}]\d{3})*,\d{2})`)
	rowFrom = regexp.MustCompile(`(?i)(?:^|[^\p{L}])с\s+(` + headerDate.String() + `)`)
)

// rowPriceOf reads u as an agreement's new price of a table's row (rowPrice), with the day it
// holds from when the unit says it before the price.
func rowPriceOf(u Unit) (Amendment, bool) {
	m := rowPrice.FindStringSubmatchIndex(u.Text)
	if m == nil {
		return Amendment{}, false
	}
	am := Amendment{Row: u.Text[m[2]:m[3]], Price: u.Text[m[6]:m[7]], Text: u.Text, Unit: u}
	if m[4] >= 0 {
		am.Name = u.Text[m[4]:m[5]]
	}
	if f := rowFrom.FindStringSubmatch(u.Text[:m[0]]); f != nil {
		if d, ok := firstDate(f[1]); ok {
			am.From = d
		}
	}
	return am, true
}

// wordsReplaced: «В пункте 4.2 Договора слова «25 000 000,00 (двадцать пять миллионов) рублей»
// заменить словами «35 000 000,00 (тридцать пять миллионов) рублей»».
var wordsReplaced = regexp.MustCompile(`(?i)в\s+(?:пункте|подпункте)\s+(\d{1,2}(?:\.\d{1,3}){0,3})\s+договора\s+слов\p{L}*\s+«([^«»]{1,300})»\s+заменить\s+слов\p{L}*\s+«([^«»]{1,300})»`)

// Reworded is the clause text with the words an amendment replaces replaced (its Old by its
// New, spaces as either writes them); ok is false when the text does not hold them.
func (a Amendment) Reworded(text string) (string, bool) {
	if a.Old == "" {
		return "", false
	}
	fields := strings.Fields(a.Old)
	for i, f := range fields {
		fields[i] = regexp.QuoteMeta(f)
	}
	re, err := regexp.Compile(strings.Join(fields, `[\s\x{00a0}\x{202f}]+`))
	if err != nil {
		return "", false
	}
	loc := re.FindStringIndex(text)
	if loc == nil {
		return "", false
	}
	return text[:loc[0]] + a.New + text[loc[1]:], true
}

// rowsSetAnew: an agreement's unit that sets rows of a contract's table anew, the rows in a
// table after it («С 01 ноября 2026 г. строки 1 и 3 Спецификации № 1 … изложить в следующей
// редакции:», «Цену Товара второй партии (позиции 4–6 Спецификации № 1) установить в следующем
// размере:»).
var rowsSetAnew = regexp.MustCompile(`(?i)(строк\p{L}*|позици\p{L}*)[^.:]{0,120}(изложить\s+в\s+(следующей|новой)\s+редакции|установить\s+в\s+следующем\s+размере)\s*:\s*$`)

// rowsOf are the rows of the table right after us[i] (rowsSetAnew), each a row of the contract's
// table set anew: its number, its name (the longest cell of words) and its new text, from the
// day the unit says.
func rowsOf(us []Unit, i int, contract string) []Amendment {
	var from time.Time
	if f := rowFrom.FindStringSubmatch(us[i].Text); f != nil {
		from, _ = firstDate(f[1])
	}
	var out []Amendment
	for _, r := range us[i+1:] {
		if r.Kind != UnitRow {
			break
		}
		if !strings.Contains(r.Text, " | ") {
			// a scan's table read as one line of text, the rows run together: each row the
			// lead names («строки 1 и 3», «позиции 4–6») is set by it, found there by its name
			for _, n := range rowNumbers(us[i].Text) {
				out = append(out, Amendment{Contract: contract, Row: n, Text: r.Text, Unit: r, From: from})
			}
			break
		}
		if r.Number == "" {
			continue
		}
		name := ""
		for _, c := range strings.Split(r.Text, " | ") {
			if c = strings.TrimSpace(c); strings.IndexFunc(c, func(x rune) bool { return x > 'z' }) >= 0 && len([]rune(c)) > len([]rune(name)) {
				name = c
			}
		}
		out = append(out, Amendment{Contract: contract, Row: r.Number, Name: name, Text: r.Text, Unit: r, From: from})
	}
	return out
}

// rowList: the rows an agreement's unit names («строки 1 и 3», «позиции 4–6», «строк 2, 5»).
var rowList = regexp.MustCompile(`(?i)(?:строк|позици)\p{L}*\s+((?:\d{1,3}\s*(?:,|и|–|-|—)?\s*)+)`)

// rowNumbers are the rows text names, ranges spelt out («4–6»: 4, 5, 6).
func rowNumbers(text string) []string {
	m := rowList.FindStringSubmatch(text)
	if m == nil {
		return nil
	}
	var out []string
	nums := regexp.MustCompile(`\d{1,3}|[–—-]`).FindAllString(m[1], -1)
	for k := 0; k < len(nums); k++ {
		if (nums[k] == "–" || nums[k] == "—" || nums[k] == "-") && k > 0 && k+1 < len(nums) {
			a, _ := strconv.Atoi(nums[k-1])
			b, _ := strconv.Atoi(nums[k+1])
			for x := a + 1; x < b && x-a < 50; x++ {
				out = append(out, strconv.Itoa(x))
			}
			continue
		}
		if _, err := strconv.Atoi(nums[k]); err == nil {
			out = append(out, nums[k])
		}
	}
	return out
}

// quotedFrom is the new wording that opens at byte at of us[i].Text (right after its «) and
// closes at the » that balances it — in the same unit, or in one of the few after it when the
// wording holds a table («3.2. … рассчитывается следующим образом:» and the table's rows); last
// is the unit it closes in. ok is false when no » closes it.
func quotedFrom(us []Unit, i, at int) (text string, last int, ok bool) {
	var b strings.Builder
	depth := 1
	for j := i; j < len(us) && j <= i+quotedUnits; j++ {
		t := us[j].Text
		if j == i {
			t = t[at:]
		} else {
			b.WriteByte('\n')
		}
		for k, r := range t {
			switch r {
			case '«':
				depth++
			case '»':
				depth--
			}
			if depth == 0 {
				b.WriteString(t[:k])
				return strings.TrimSpace(b.String()), j, true
			}
		}
		b.WriteString(t)
	}
	return "", 0, false
}

// quotedUnits bounds the units a new wording may run over.
const quotedUnits = 16

// nextText is the text of the unit after us[i] when it is an unnumbered paragraph, else "".
func nextText(us []Unit, i int) string {
	if i+1 < len(us) && us[i+1].Kind == UnitText {
		return us[i+1].Text
	}
	return ""
}

// SameNumber reports whether two document numbers are one («318-П» and «318-п»).
func SameNumber(a, b string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }
	return a != "" && norm(a) == norm(b)
}
