package library

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

// A document read as its clauses: a contract, a policy or an act is numbered clauses («3.5.
// Постоянная часть арендной платы вносится…»), the lines before them (the title, the parties)
// and tables (a specification, an act's services, a price list). A question is answered with the
// units that state what it asks, wherever they are in the document, not with the passage the
// search happened to cut around them.

// UnitKind is what a unit of a document is.
type UnitKind uint8

const (
	// UnitClause is a numbered clause («3.5. …»), with its subclauses as units of their own.
	UnitClause UnitKind = iota
	// UnitText is an unnumbered paragraph: the title, the preamble naming the parties.
	UnitText
	// UnitRow is a table row, read with its table's header.
	UnitRow
)

// Unit is one clause, paragraph or table row of a document.
type Unit struct {
	Kind UnitKind
	// Number is the clause's number («3.5», «6.2.2»); for a row, its row in the table, header
	// excluded (the price list's first item is row 1).
	Number string
	// Section is the heading the unit stands under («3. АРЕНДНАЯ ПЛАТА И ПОРЯДОК РАСЧЁТОВ»).
	Section string
	// Lead is the clause a subclause completes («6.2. Арендатор обязан:» for 6.2.2), or a row's
	// table header.
	Lead string
	// Text is the unit, whitespace collapsed; a row's cells are joined by « | ».
	Text string
	// Index is the unit's place in the document.
	Index int
	// Clause is, for a row of a table a clause introduces («4.1. … по следующему графику:»),
	// that clause's number; the row's Lead then starts with the clause.
	Clause string
}

// Quote is how the unit reads quoted: a subclause after its lead, a row after its header.
func (u Unit) Quote() string {
	if u.Lead == "" {
		return u.Text
	}
	if u.Kind == UnitRow {
		return u.Lead + "\n" + u.Text
	}
	return u.Lead + " … " + u.Text
}

// Units reads a document's text as its units.
func Units(text string) []Unit {
	var (
		units   []Unit
		section string
		cur     *Unit // the clause or paragraph being read; nil after a blank line or a table
		header  []string
		row     int
		intro   *Unit                 // the clause a table belongs to («…по следующему графику:»)
		tbl     *textTable            // a table printed as text lines (a PDF's), being read
		leads   = map[string]string{} // clause number → its text, for subclauses' leads
	)
	lines := strings.Split(PlainText(text), "\n")
	for i := range lines {
		lines[i] = strings.Join(strings.Fields(lines[i]), " ")
	}
	// Tab-separated or « | »-joined lines are table rows (DOCX and XLSX extraction write them so).
	cells := func(raw string) []string {
		var cs []string
		switch {
		case strings.Contains(raw, "\t"):
			cs = strings.Split(raw, "\t")
		case strings.Count(raw, " | ") >= 1:
			cs = strings.Split(raw, " | ")
		default:
			return nil
		}
		for i := range cs {
			cs[i] = strings.Join(strings.Fields(cs[i]), " ")
		}
		return cs
	}
	raw := strings.Split(PlainText(text), "\n")
	add := func(u Unit) {
		u.Section, u.Index = section, len(units)
		units = append(units, u)
		cur = &units[len(units)-1]
	}
	for li, line := range lines {
		if line == "" || pageFurniture.MatchString(line) {
			cur, header = nil, nil
			if line == "" && tbl != nil && (cur == nil || cur.Kind != UnitRow) {
				tbl = nil
			}
			continue
		}
		if cs := cells(raw[li]); cs != nil {
			cur = nil
			if header == nil {
				header, row, intro = cs, 0, nil
				if n := len(units); n > 0 && units[n-1].Kind == UnitClause && strings.HasSuffix(units[n-1].Text, ":") {
					in := units[n-1] // «4.1. … в соответствии со следующим графиком:» and its table
					intro = &in
				}
				continue
			}
			row++
			for i := range cs {
				if i < len(header) && moneyColumn.MatchString(header[i]) {
					cs[i] = moneyCell(cs[i])
				}
			}
			u := Unit{Kind: UnitRow, Number: strconv.Itoa(row), Lead: strings.Join(header, " | "), Text: strings.Join(cs, " | ")}
			if intro != nil {
				u.Clause, u.Lead = intro.Number, intro.Text+"\n"+u.Lead
			}
			add(u)
			cur = nil
			continue
		}
		header, intro = nil, nil
		if tbl != nil {
			switch m := rowNumber.FindStringSubmatch(line); {
			case m != nil && m[1] != "" && (tbl.last == 0 || m[1] == strconv.Itoa(tbl.last+1)), m != nil && m[1] == "" && m[2] != "", tableTotal.MatchString(line):
				// «2 Выездные работы…» (a table may go on another's numbering: «4 МФУ…» after 1–3),
				// «01.07.2026 Сальдо начальное…», «Итого 129 320,00»
				n := ""
				if m != nil && m[1] != "" {
					tbl.last, _ = strconv.Atoi(m[1])
					n = m[1]
				}
				tbl.rows++
				u := Unit{Kind: UnitRow, Number: n, Lead: tbl.header, Text: line}
				if tbl.intro != nil {
					u.Clause, u.Lead = tbl.intro.Number, tbl.intro.Text+"\n"+u.Lead
				}
				add(u)
				continue
			case cur == nil && tbl.rows == 0 && !clauseStart.MatchString(line):
				tbl.header += " " + line // the header wrapped onto a second line
				continue
			case cur != nil && cur.Kind == UnitRow && !clauseStart.MatchString(line) && !fieldLine.MatchString(line):
				cur.Text += " " + line // a row's cell wrapped onto the next line of the page
				continue
			}
			tbl = nil
		}
		if textTableHeader(line) {
			tbl = &textTable{header: line}
			if n := len(units); n > 0 && units[n-1].Kind == UnitClause && strings.HasSuffix(units[n-1].Text, ":") {
				in := units[n-1]
				tbl.intro = &in
			}
			cur = nil
			continue
		}
		next := ""
		for _, l := range lines[li+1:] {
			if l != "" {
				next = l
				break
			}
		}
		if isHeading(line, next) {
			section, cur = line, nil
			continue
		}
		parts := clauseUnits(line)
		if m := subclauseStart.FindStringSubmatch(line); m != nil && (len(parts) == 0 || parts[0].number == "") {
			parts = []clauseUnit{{number: m[1], text: line}} // «6.1.1. передать Помещение…»: a subclause in lower case
		}
		for _, part := range parts {
			switch {
			case part.number != "":
				lead := ""
				if dot := strings.LastIndexByte(part.number, '.'); dot > 0 {
					if l, ok := leads[part.number[:dot]]; ok && strings.HasSuffix(l, ":") {
						lead = l
					}
				}
				add(Unit{Kind: UnitClause, Number: part.number, Lead: lead, Text: part.text})
				leads[part.number] = part.text
			case cur != nil && continues(cur, part.text):
				cur.Text += " " + part.text // a wrapped line of a PDF, a clause's second paragraph
				if cur.Kind == UnitClause {
					leads[cur.Number] = cur.Text
				}
			default:
				add(Unit{Kind: UnitText, Text: part.text})
			}
		}
	}
	return units
}

// textTable is a table a PDF prints as lines of text: its header line («№ Наименование работ,
// услуг Ед. Кол-во Цена…»), then a line a row, numbered 1, 2, 3…, wrapped where a cell is long.
type textTable struct {
	header string
	intro  *Unit
	rows   int // rows read
	last   int // the last row's number
}

// textTableHeader: a line that starts with «№» and names two columns or more.
func textTableHeader(line string) bool {
	return strings.HasPrefix(line, "№") && len(columnWords.FindAllString(line, 3)) >= 2
}

var (
	columnWords = regexp.MustCompile(`(?i)наименовани|дата|документ|кол-?во|количеств|цена|сумма|стоимост|ед\.|дебет|кредит|ндс|срок`)
	// rowNumber is a row line: its number, or a date a balance row starts with.
	rowNumber = regexp.MustCompile(`^(?:(\d{1,3})\s+\S|(\d{2}\.\d{2}\.\d{4})\s)`)
	// tableTotal is a table's closing row: totals, turnovers, a closing balance.
	tableTotal = regexp.MustCompile(`(?i)^(итого|всего|обороты|сальдо)`)
	// clauseStart is a numbered clause's line («2. Всего оказано…»).
	clauseStart = regexp.MustCompile(`^\d{1,2}(\.\d{1,3})*\.\s`)
	// fieldLine is a form's «Name: value» line («Основание: Договор № 47/У…»): a unit of its own.
	fieldLine = regexp.MustCompile(`^\p{Lu}\p{Ll}+(\s\p{Ll}+)?:\s+\S`)
)

// pageFurniture is a printed page's number line («Страница 1 из 2», «- 3 -»), no part of the text.
var pageFurniture = regexp.MustCompile(`(?i)^(страница|стр\.?|лист)\s*\d+(\s*(из|/)\s*\d+)?$|^[-–—]\s*\d+\s*[-–—]$`)

// subclauseStart is a line that starts with a clause number of two levels or more, whatever
// follows it.
var subclauseStart = regexp.MustCompile(`^(\d{1,2}(?:\.\d{1,3}){1,3})\.?\s`)

// continues reports whether text, a line without a clause number, goes on the unit cur: a
// PDF's wrapped line starts in lower case or, in a clause, after a line that ends mid-sentence;
// a line of its own (a table row printed as text, a new paragraph) starts otherwise.
func continues(cur *Unit, text string) bool {
	if cur.Kind == UnitRow {
		return false
	}
	first, _ := utf8.DecodeRuneInString(text)
	last, _ := utf8.DecodeLastRuneInString(cur.Text)
	switch {
	case unicode.IsLower(first):
		return true
	case strings.ContainsRune("№/", last) || initialEnd.MatchString(cur.Text):
		// «…заказ покупателя №» + «5518 от 20.11.2026», «ИНН/КПП 5029076410 /» + «502901001»,
		// «…главный бухгалтер Т.» + «С. Фомина»: a line cut in the middle of a number or a name
		return !rowStart.MatchString(text) || strings.ContainsRune("№/", last)
	case cur.Kind == UnitClause && unicode.IsDigit(first) && (unicode.IsLetter(last) || strings.ContainsRune("—–-,(«", last)):
		// «…в срок не позднее» + «15.10.2026. После доплаты…»: a clause's sentence goes on,
		// though its next line starts with a date as a balance row does
		return true
	case strings.ContainsRune(".;!?", last) || rowStart.MatchString(text) || fieldLine.MatchString(text) || formField.MatchString(cur.Text):
		return false
	case unicode.IsDigit(first):
		// «…водоснабжения за август» + «2026 г. 15 644,90»; «…по второй партии —» + «116 380,00 рублей.»
		return unicode.IsLetter(last) || unicode.IsDigit(last) || strings.ContainsRune("—–-,(«", last)
	}
	// A clause goes on to its next line; a paragraph when its line was full (a PDF's wrap).
	return cur.Kind == UnitClause || utf8.RuneCountInString(cur.Text) >= 60 && last != ':'
}

// formField: a text that ends with a printed form's field number («… 20.11.2026 [8]», «… (2а)»):
// the field is complete, the next line is another.
var formField = regexp.MustCompile(`(\[\d{1,2}\]|\(\d{1,2}\p{Ll}?\))$`)

// initialEnd: a text that ends with a person's initial («…бухгалтер Т.»), not a sentence.
var initialEnd = regexp.MustCompile(`(^|[\s(])\p{Lu}\.$`)

// rowStart is a table row printed as text: a row number and a date, or a number and a word.
var rowStart = regexp.MustCompile(`^(\d{1,3}\s+)?\d{2}\.\d{2}\.\d{4}|^\d{1,3}\s+\p{Lu}`)

// isHeading: a section's title — a short line without a final stop, in capitals or followed
// by the section's first clause («3. АРЕНДНАЯ ПЛАТА…» before «3.1. …»).
func isHeading(line, next string) bool {
	if !isTitleLine(line) {
		return false
	}
	upper := strings.ToUpper(line) == line && strings.ToLower(line) != line && !requisites.MatchString(line)
	if m := clauseNumber.FindStringSubmatch(line); m != nil {
		n := m[1]
		return upper || strings.HasPrefix(next, n+".") && !strings.HasPrefix(next, n+". ")
	}
	return upper && utf8.RuneCountInString(line) > 3
}

// namedSection: a section's title that names itself one («Раздел 7. …», «Статья 2. …»,
// «Глава 3. …») in any case. Units keeps it a paragraph of its own (its clauses stay under the
// document's title, which their ranking reads as their context); TermOf reads it as the
// section it opens.
var namedSection = regexp.MustCompile(`(?i)^(раздел|статья|глава)\s+\d{1,2}\.?\s+\p{L}`)

// requisites is a line of a company's details («ИНН 7743815260, КПП 774301001»), in capitals
// but no heading.
var requisites = regexp.MustCompile(`^(ИНН|КПП|ОГРН|БИК|ОКПО|Р/С|К/С)(\s|$)`)

// Facets of a unit: what kinds of answer it states.
var (
	// facetMoney: «97 600,00», «1 500 руб.», or a spreadsheet's price cell (« | 79900 |»).
	facetMoney   = regexp.MustCompile(`\d[\d  ]*,\d{2}(\s*[^\s%\d]|$)|\d+(\.\d+)?\s*(\([^()]{1,80}\)\s*)?(руб|₽)|\|\s*\d{3,}(\.\d+)?\s*(\||$)`)
	facetPercent = regexp.MustCompile(`%|процент|п\.\s?п\.|(^|[^\p{L}])ставк`)
	// facetTerm: a time limit as timeLimit reads it, a date, the word «срок» itself, or a
	// moment an event sets («с даты подписания УПД», «одновременно с возвратом»).
	facetTerm = regexp.MustCompile(timeLimit.String() + `|(?i)срок|` + facetDate.String() + `|` + facetMoment.String())
	// facetMoment: a moment an event sets — it answers «когда» as a date does.
	facetMoment = regexp.MustCompile(`(?i)(^|[^\p{L}])(с|со)\s+(даты|момента|дня)\s|одновременно\s+с\s`)
	facetWhen   = regexp.MustCompile(facetDate.String() + `|` + facetMoment.String())
	// …or a sanction in other words: «За просрочку возврата Склада … вносит Постоянную часть в
	// двойном размере».
	facetPenalty = regexp.MustCompile(`(?i)пен[иеяь]|неустойк|штраф|(^|[^\p{L}])за\s+просрочк|в\s+двойном\s+размере`)
	// …or a person by name and patronymic («Жукова Анна Павловна»), or a role a person holds
	// («сервис-менеджер», «ответственным лицом», «представитель»).
	facetParty = regexp.MustCompile(`ООО|АО |ИП |ИНН|именуем|в лице|директор|бухгалтер|(?i:менеджер|руководител|представител|ответственн\p{L}*\s+лиц|контактн\p{L}*\s+лиц)|` +
		`\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+(вич|вна|ична|ич)([^\p{L}]|$)`)
	// facetClock: a time of day («с 19:00 до 22:00», «до 18.00 часов»).
	facetClock = regexp.MustCompile(`(^|[^\d.,:])([01]?\d|2[0-3])[:.][0-5]\d([^\d.,:]|$)`)
	facetDate  = regexp.MustCompile(`\d{1,2}\.\d{1,2}\.\d{2,4}|\d{1,2}\s+(январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)\p{L}*\s+\d{4}`)
)

// ClauseQuestion is what a question asks of a document's units.
type ClauseQuestion struct {
	Text   string
	Asking Asking
	// Context is the question a follow-up continues («абонентка сколько в месяц» before «а без
	// ндс»): its terms weigh half, and tell which clause is meant when the follow-up names too
	// little to.
	Context string
	// Prefer are the documents the continued answer quoted: a follow-up is about them.
	Prefer []string
}

// asks are the kinds of answer a question asks for, read from its words.
type asks struct {
	term, amount, percent, penalty, party, date, clock bool
}

var (
	asksPercent = regexp.MustCompile(`(?i)(^|[^\p{L}])ставк|процент|%|тариф`)
	// …or its consequences: «что будет, если склад вернём позже», «чем грозит», «какая ответственность».
	asksPenalty = regexp.MustCompile(`(?i)пен[иеяь]|неустойк|штраф|что\s+(нам\s+)?будет[^?]*если|если[^?]*что\s+(нам\s+)?будет|чем\s+(это\s+)?грозит|какая\s+ответственност|какие\s+санкци|последстви`)
	asksParty   = regexp.MustCompile(`(?i)(^|\s)(кто|кем|кого|с кем|кому)(\s|$|\?)|сторон[аыу]|исполнител|подрядчик|арендодател|поставщик\b|подписал|инн\b`)
	// asksIncluded: «доставка входит в цену?» asks whether, not how much.
	asksIncluded = regexp.MustCompile(`(?i)(входит|входят|включен\p{L}*|включает\p{L}*)\s+(ли\s+)?(в\s+)?(цен|стоимост|сумм|плат)`)
	// …and «какой обеспечительный платёж», «плата какая была»: which one of a sum's names.
	asksAmount = regexp.MustCompile(`(?i)(^|\s)(сколько|почем|почём)(\s|$|\?)|сумм[аеуы]|цен[аеуы]?(\s|$|\?)|стоимост|размер|` +
		`(^|\s)(как(ой|ая|ов|ова)\s+(\p{L}+\s+)?(плат[её]ж|плата|взнос|депозит|аванс|вознаграждени\p{L}*|тариф|лимит)|(плат[её]ж|плата|взнос|депозит|аванс|вознаграждени\p{L}*|лимит)(\s+\p{L}+){0,4}\s+как(ой|ая|ов|ова))(\s|$|\?)`)
	// byHowMuch: «на сколько» asks a change, which a contract states as a percentage as often.
	byHowMuch = regexp.MustCompile(`(?i)(^|\s)на\s*сколько(\s|$|\?)`)
	// asksHowMuch: «сколько», «почём» ask an amount whatever else the question names; «сумма»,
	// «цена» may only name what a term is asked of («срок перечисления суммы займа»).
	asksHowMuch = regexp.MustCompile(`(?i)(^|\s)(сколько|почем|почём)(\s|$|\?)`)
	// asksTermWord: the question asks a time limit in so many words.
	asksTermWord = regexp.MustCompile(`(?i)(^|\s)(срок\p{L}*|когда|до\s+какого|в\s+течение\s+скольких)(\s|$|\?)`)
	asksDuration = regexp.MustCompile(`(?i)сколько\s+((рабочих|календарных|банковских|полных|целых)\s+)?(дн|день|месяц|лет|год|недел|час|времен)|(^|\s)как\s+долго(\s|$)`)
	// asksClock: a time of day is asked («во сколько убираются», «в какое время приёмка»).
	asksClock = regexp.MustCompile(`(?i)(^|\s)(во\s+сколько|в\s+какое\s+время|с\s+какого\s+часа|до\s+скольки|со\s+скольки|часы\s+работы)(\s|$|\?)`)
	asksDate  = regexp.MustCompile(`(?i)(^|\s)(когда|какого числа|до какого|с какого|дата|датой|от какого)(\s|$|\?)|номер и дата`)
)

func readAsks(q ClauseQuestion) asks {
	t := strings.ToLower(q.Text)
	return asks{
		term: q.Asking.Term || q.Asking.When,
		amount: q.Asking.Amount && !asksClock.MatchString(t) || asksAmount.MatchString(t) && !asksDuration.MatchString(t) && !asksIncluded.MatchString(t) && !asksClock.MatchString(t) &&
			(asksHowMuch.MatchString(t) || !asksTermWord.MatchString(t)),
		percent: asksPercent.MatchString(t) || byHowMuch.MatchString(t), // «на сколько поднимут» — by a percentage too
		penalty: asksPenalty.MatchString(t),
		party:   asksParty.MatchString(t),
		date:    asksDate.MatchString(t),
		clock:   asksClock.MatchString(t),
	}
}

// ClauseDoc is a document's units for RankClauses.
type ClauseDoc struct {
	ID string
	// Names are what the document is called: its title and the name the user gave its file.
	Names string
	Units []Unit
	// terms are each unit's terms, read once (NewClauseDoc), and companies the terms of the
	// companies' names in it (ООО «…»); RankClauses reads them itself when they are missing.
	terms     []clauseTerms
	companies map[string]bool
	// defined are the words a term the document defines stands for: «техник» → «товар» of
	// «компьютерную и офисную технику (далее — «Товар»)».
	defined map[string][]string
	title   string          // the header's title («АКТ № 1187 от 30 ноября 2026 г. об оказании услуг»)
	named   map[string]bool // the terms of its names, first line and title, read once (RankClauses adds its parties' per call)
	vocab   []string        // the units' own terms, sorted, each once: words that start alike are neighbours
}

// definition: a term the document defines — «(далее — «Товар»)» after what it stands for. (A
// party's role, «именуемое в дальнейшем «Исполнитель»», is not one: the role is in every other
// clause, and «сетевые решения» would weigh them all.)
var definition = regexp.MustCompile(`\(далее\s*[—–-]?\s*«([^»]{2,40})»`)

// definedTerms maps the words a defined term stands for to the term's own words: the last
// words before «(далее — «X»)», at most three, within the sentence.
func definedTerms(us []Unit) map[string][]string {
	out := map[string][]string{}
	for _, u := range us {
		for _, m := range definition.FindAllStringSubmatchIndex(u.Text, -1) {
			before := u.Text[:m[0]]
			if i := strings.LastIndexAny(before, ".;:(»"); i >= 0 {
				before = before[i+1:]
			}
			ws := clauseTokens(before)
			tt := clauseTokens(u.Text[m[2]:m[3]])
			for _, w := range ws[max(0, len(ws)-3):] {
				if !slices.Contains(tt, w) {
					out[w] = append(out[w], tt...)
				}
			}
		}
	}
	return out
}

// companyTerms are the terms of the companies' names the units write (ООО «Сетевые Решения»).
func companyTerms(us []Unit) map[string]bool {
	out := map[string]bool{}
	for _, u := range us {
		for _, m := range quotedName.FindAllStringSubmatch(u.Text, -1) {
			if strings.Contains(strings.ToLower(m[1]), "банк") {
				continue // a bank of the requisites («Альфа-Банк») is no party
			}
			for _, t := range clauseTokens(m[1]) {
				out[t] = true
			}
			if a := acronym(m[1]); a != "" {
				out[a] = true // «итд» for «Ивановский Текстильный Дом», as accountants write it
			}
		}
	}
	return out
}

// Acronyms are the initials of every run of two to four capitalised words of a title («Прайс
// Ивановский Текстильный Дом с 01.11.2026» → «пи», …, «итд»), three letters or more: how a user
// names the company a file is of.
func Acronyms(title string) []string {
	var out []string
	words := strings.FieldsFunc(title, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for i := range words {
		for n := 3; n <= 4 && i+n <= len(words); n++ {
			if a := acronym(strings.Join(words[i:i+n], " ")); a != "" && utf8.RuneCountInString(a) >= 3 && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// acronym is a company name of two to four words written as its initials («Ивановский
// Текстильный Дом» → «итд»), "" for a name of one word or more than four; «АйТи» and «IT» count
// as one word.
func acronym(name string) string {
	var b strings.Builder
	words := strings.FieldsFunc(name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) < 2 || len(words) > 4 {
		return ""
	}
	for _, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return "" // «Дом и сад» is no name of initials
		}
		b.WriteRune(unicode.ToLower(r))
	}
	ts := clauseTokens(b.String())
	if len(ts) != 1 {
		return ""
	}
	return ts[0]
}

// NewClauseDoc is a document ready for RankClauses: its units' terms read once, so that a
// document kept between questions is not read again for each.
func NewClauseDoc(id, names string, units []Unit) ClauseDoc {
	d := ClauseDoc{ID: id, Names: names, Units: units, terms: make([]clauseTerms, len(units)), companies: companyTerms(units),
		defined: definedTerms(units), title: ReadHeader(units).Title}
	d.named = set(clauseTokens(d.Names + " " + firstLine(units) + " " + onPayment.ReplaceAllString(d.title, "$1")))
	for _, a := range Acronyms(d.Names + " " + d.title) {
		d.named[a] = true // «прайс итд» for «Прайс Ивановский Текстильный Дом…»
	}
	for i, u := range units {
		d.terms[i] = unitTermsOf(u)
	}
	tableContext(units, d.terms)
	d.vocab = vocabOf(d.terms)
	return d
}

// onPayment: a form's title «СЧЁТ НА ОПЛАТУ»: «на оплату» names no invoice — every payment
// asked of would name it.
var onPayment = regexp.MustCompile(`(?i)(сч[её]т)\s+на\s+оплату`)

// tableContext gives a clause that introduces a table («1. Исполнитель оказал, а Заказчик
// принял следующие услуги:») its rows' terms as context: «какие услуги за ноябрь» is answered
// by the clause with its table.
func tableContext(us []Unit, terms []clauseTerms) {
	for i, u := range us {
		if u.Kind != UnitClause || !strings.HasSuffix(u.Text, ":") {
			continue
		}
		for j, r := range us[i+1:] {
			if r.Kind != UnitRow || r.Clause != u.Number {
				break
			}
			for t := range terms[i+1+j].own {
				terms[i].ctx[t] = true
			}
			if j == 0 {
				for _, t := range clauseTokens(r.Lead) {
					terms[i].ctx[t] = true // the header: «Остаток после платежа»
				}
			}
			terms[i].states |= terms[i+1+j].states // the amounts and dates its table states
		}
	}
}

// unitTermsOf reads a unit's terms: its own, its section's and lead's, its neighbouring pairs.
func unitTermsOf(u Unit) clauseTerms {
	// «Общество с ограниченной ответственностью» is a company's form: no «ответственность» a
	// question asks about
	toks := clauseTokens(legalFormWords.ReplaceAllString(u.Text, " "))
	for _, m := range numericDate.FindAllStringSubmatch(u.Text, -1) {
		// «31.12.2026» is in December: «вернуть в декабре» asks for it
		if mo, err := strconv.Atoi(m[1]); err == nil && mo >= 1 && mo <= 12 {
			toks = append(toks, monthTerm[mo-1]...)
		}
	}
	for _, m := range countedNoun.FindAllStringSubmatch(u.Text, -1) {
		// «3 квартал», «2-я партия» is asked as «третий квартал», «вторая партия»
		if n, err := strconv.Atoi(m[1]); err == nil && n >= 1 && n <= len(ordinalTerm) {
			toks = append(toks, ordinalTerm[n-1])
		}
	}
	if u.Kind == UnitRow {
		// a row numbered under «№ этапа», «№ партии»: «второй этап» asks row 2
		header := u.Lead[strings.LastIndexByte(u.Lead, '\n')+1:]
		if numberedRows.MatchString(header) {
			if n, err := strconv.Atoi(u.Number); err == nil && n >= 1 && n <= len(ordinalTerm) {
				toks = append(toks, ordinalTerm[n-1])
			}
		}
	}
	for _, w := range compoundWord.FindAllStringSubmatch(u.Text, -1) {
		toks = append(toks, clauseTokens(w[2])...) // «нижеподписавшиеся» are who signed («кто подписал»)
	}
	for _, m := range hyphenWord.FindAllStringSubmatch(u.Text, -1) {
		// «машино-места» is also asked as «машиномест», «бизнес-класс» as «бизнескласс»
		toks = append(toks, clauseTokens(m[1]+m[2])...)
	}
	next := make(map[[2]string]bool, len(toks))
	for i := 1; i < len(toks); i++ {
		next[[2]string{toks[i-1], toks[i]}] = true
	}
	head := ""
	if u.Kind == UnitClause {
		// the first word after the clause's number: its tokens come first, and have no letter
		if i := slices.IndexFunc(toks, func(t string) bool { return strings.IndexFunc(t, unicode.IsLetter) >= 0 }); i >= 0 {
			head = toks[i]
		}
	}
	var forMonth map[string]bool
	for _, m := range monthPaidFor.FindAllStringSubmatch(strings.ToLower(u.Text), -1) {
		if forMonth == nil {
			forMonth = map[string]bool{}
		}
		for _, t := range clauseTokens(m[1]) {
			forMonth[t] = true
		}
	}
	return clauseTerms{own: set(toks), ctx: set(clauseTokens(u.Section + " " + u.Lead)), next: next, head: head, forMonth: forMonth,
		states: statesOf(u.Text), limit: timeLimit.MatchString(u.Text), penalty: facetPenalty.MatchString(u.Text),
		period: periodLimit.MatchString(u.Text), dayOfMonth: dayOfMonth.MatchString(u.Text),
		opening: u.Kind == UnitRow && openingRow.MatchString(u.Text)}
}

// The facets' bits, in facetFactor's order.
const (
	facetTermBit Facets = 1 << iota
	facetMoneyBit
	facetPercentBit
	facetPenaltyBit
	facetPartyBit
	facetDateBit
	facetClockBit
)

// statesOf are the kinds of answer a unit's text states.
func statesOf(text string) Facets {
	var f Facets
	for bit, re := range map[Facets]*regexp.Regexp{facetTermBit: facetTerm, facetMoneyBit: facetMoney, facetPercentBit: facetPercent,
		facetPenaltyBit: facetPenalty, facetPartyBit: facetParty, facetDateBit: facetWhen, facetClockBit: facetClock} {
		t := text
		if bit == facetTermBit {
			t = referredTerm.ReplaceAllString(text, " ") // «в сроки, предусмотренные Договором» states none
		}
		if re.MatchString(t) {
			f |= bit
		}
	}
	return f
}

// referredTerm: a term a clause leaves to others («уплатить проценты в сроки и в порядке,
// предусмотренные Договором», «в срок, установленный Спецификацией»).
var referredTerm = regexp.MustCompile(`(?i)(в\s+)?сроки?(\s+и\s+(в\s+)?порядке)?,?\s+(предусмотренн|установленн|указанн|определённ|определенн|согласованн)\p{L}*`)

// ClauseHit is a unit that answers a question, with how well.
type ClauseHit struct {
	Doc  int // index into the documents ranked
	Unit Unit
	// Score is the weight of the question's terms the unit holds, raised when it states the
	// kind of answer asked; Coverage is the share of the question's weight it holds (its
	// section, lead and document title counted).
	Score, Coverage float64
	// Named: the question names the unit's document (a term of its title or file name: «по
	// займу», «в прайсе»), and no other document more.
	Named bool
	// Affinity is how much of the question the unit's document's names hold (0: none);
	// Titled is the share of the question's own words that are names of the unit's document,
	// in some form (1: «меридиану» for the lease of «Меридиан Недвижимость»; ½: «северсталь
	// логистик» for the loan of «ТехноЛайн Логистик»).
	Affinity, Titled float64
	// AnyNamed: the question names some document by its title or file name (not necessarily
	// this unit's).
	AnyNamed bool
	// Matched is how many of the question's terms the unit, its section or its lead holds.
	Matched int
	// Asked are the kinds of answer the question asks for, States those the unit states: a
	// question asking two («сколько и до какого числа») is answered by a unit for each.
	Asked, States Facets
	// Partial: a table's row that holds fewer of the question's words than the rows of its
	// table hold together — what is asked is split across rows («принтер hp»: a Pantum printer,
	// an HP laptop), so no one row is it.
	Partial bool
	// Limit: the unit states a time limit as a period or a deadline («в течение 10 дней», «не
	// позднее 5-го числа»), not only a date.
	Limit bool
	// Policy: the unit's document is an internal policy of the user's company (a «Положение»,
	// «Регламент», «Инструкция», «Порядок»): its own rules, set by passages.Evidence.
	Policy bool
	// Unknown are the question's own words (of five letters or more) no document has at all:
	// what it asks about may not be there («страхование» in a lease that never mentions it).
	Unknown []string
}

// maxQuestionTerms bounds the terms of a question RankClauses weighs (half as many more of the
// question a follow-up continues): ranking costs units × terms.
const maxQuestionTerms = 64

// questionStop are words of a question that say how it asks, not what: they weigh nothing.
var questionStop = map[string]bool{}

func init() {
	for _, w := range []string{"какой", "какая", "какие", "каким", "какую", "сколько", "скольо", "скока", "скоко", "когда", "кто", "что", "где",
		"есть", "ли", "по", "в", "на", "за", "и", "а", "у", "нас", "нам", "мы", "это", "до", "с", "со", "от", "или",
		"можно", "нужно", "надо", "должны", "должен", "как", "почем", "почём", "там", "тоже", "еще", "ещё", "всего", "всех",
		"числа", "число", "какого", "чтоб", "чтобы", "будет", "было", "если",
		"найди", "найти", "покажи", "подскажи", "скажи", "посмотри", "проверь", "дай", "напомни",
		"мой", "моих", "моем", "моём", "моей", "мои", "моего", "наш", "нашем", "нашей", "наших", "нашего", "наши",
		"размер", "размере", "величина", "значит", "получается", "тогда",
		"стоит", "стоят", "обойдется", "обойдётся", "выйдет"} {
		for _, t := range retrieval.Tokens(w) {
			questionStop[t] = true
		}
	}
}

// QuestionWord reports whether the term t (retrieval.Tokens) only says how a question asks
// («какой», «сколько», «у нас»), not what it asks about.
func QuestionWord(t string) bool { return questionStop[t] }

// DocumentWord reports whether the term t names a kind of document («договор», «соглашение»,
// «положение»): in «в каких договорах есть пени» it frames the question, it is not asked about.
func DocumentWord(t string) bool { return documentWords[t] }

// RankClauses scores every unit of docs for q and returns the units that hold any of its
// terms, best first. A term weighs by how rare it is among the units (a word every clause of
// a lease has, «аренд», says little about which clause answers); a document whose title names
// what the question names («по займу» and «Договор займа…») has its units preferred; a unit
// that states the kind of answer asked (a term, an amount, a rate, a penalty, a party, a date)
// is preferred to one that only shares words.
func RankClauses(docs []ClauseDoc, q ClauseQuestion) []ClauseHit {
	qt := distinct(clauseTokens(inMyDocuments.ReplaceAllString(q.Text, "")))
	if q.Asking.Subject != "" {
		qt = distinct(append(clauseTokens(q.Asking.Subject), qt...))
	}
	qt = slices.DeleteFunc(qt, func(t string) bool { return questionStop[t] })
	terms := make([][]clauseTerms, len(docs))
	for di, d := range docs {
		terms[di] = d.terms
		if len(terms[di]) != len(d.Units) {
			terms[di] = make([]clauseTerms, len(d.Units))
			for ui, u := range d.Units {
				terms[di][ui] = unitTermsOf(u)
			}
		}
	}
	vocabs := make([][]string, len(docs))
	for di, d := range docs {
		vocabs[di] = d.vocab
		if vocabs[di] == nil {
			vocabs[di] = vocabOf(terms[di])
		}
	}
	qt, countryShare := withCountries(qt, q.Text, terms)
	// «обеспечит. платежа»: a word cut short with a dot, a lower-case word after it, is the
	// documents' word that starts so.
	for _, m := range abbreviation.FindAllStringSubmatch(q.Text, -1) {
		short := strings.ToLower(m[2])
		toks := clauseTokens(short)
		if len(toks) != 1 {
			continue
		}
		if full, ok := prefixTerm(strings.ReplaceAll(short, "ё", "е"), terms); ok {
			if i := slices.Index(qt, toks[0]); i >= 0 {
				qt[i] = full
			}
		}
	}
	if asksBasis.MatchString(q.Text) {
		qt = append(qt, basisTerms...) // a form writes the contract it follows as «Основание: Договор № …»
	}
	expanded := map[[2]string]bool{} // neighbours only because one word was written out as several
	spoken := map[string]bool{}      // a word written out so: another word of the documents says it («залог»)
	for i := 0; i < len(qt); i++ {
		if ws, ok := documentSpeak[qt[i]]; ok {
			if len(ws) > 1 {
				spoken[qt[i]] = true
			}
			qt = slices.Replace(qt, i, i+1, ws...) // «допник»: a document writes «дополнительное соглашение»
			if len(ws) > 2 {
				// «коммуналка» is «электроэнергия» or «водоснабжение», not the two side by side
				for k := 1; k < len(ws); k++ {
					expanded[[2]string{ws[k-1], ws[k]}] = true
				}
			}
			i += len(ws) - 1
		}
	}
	qt = distinct(qt)
	qt = qt[:min(len(qt), maxQuestionTerms)] // a pasted page is no question: its first words
	own := len(qt)
	// The continued questions, the latest first: a follow-up's follow-up («а hp» after «ноутбук
	// lenovo») is about what the latest turn named.
	turns := strings.Split(q.Context, "\n")
	older := map[string]bool{}
	for k := len(turns) - 1; k >= 0; k-- {
		for _, t := range distinct(clauseTokens(turns[k])) {
			if len(qt) >= own+maxQuestionTerms/2 {
				break
			}
			if !questionStop[t] && !slices.Contains(qt, t) {
				qt = append(qt, t) // the continued question's terms, after the message's own
				older[t] = k < len(turns)-1
			}
		}
	}
	if len(qt) == 0 {
		return nil
	}
	a := readAsks(q)
	if q.Context != "" && a == (asks{}) {
		a = readAsks(ClauseQuestion{Text: q.Context}) // «а без ндс?» asks what «сколько в месяц» asked
	}
	// Document frequency of the question's terms over all units.
	// The question's neighbouring terms («срок аренды»): a unit that has them side by side says
	// what the question says, not just its words.
	// A question word between two terms parts them: «проценты по займу когда уплачиваем» asks
	// no «займа и уплатить».
	var parts []map[string]bool
	for _, seg := range questionWord.Split(strings.ToLower(q.Text), -1) {
		parts = append(parts, set(clauseTokens(seg)))
	}
	apart := func(x, y string) bool {
		return !slices.ContainsFunc(parts, func(p map[string]bool) bool { return p[x] && p[y] }) &&
			slices.ContainsFunc(parts, func(p map[string]bool) bool { return p[x] }) &&
			slices.ContainsFunc(parts, func(p map[string]bool) bool { return p[y] })
	}
	var pairs [][2]string
	for i := 1; i < len(qt); i++ {
		if !expanded[[2]string{qt[i-1], qt[i]}] && !(i < own && apart(qt[i-1], qt[i])) {
			pairs = append(pairs, [2]string{qt[i-1], qt[i]})
		}
	}

	n := 0
	df := map[string]int{}
	titleTerms := make([]map[string]bool, len(docs))
	partyTerms := make([]map[string]bool, len(docs)) // its counterparties' names (ООО «…»), the user's own company aside
	companies := make([]map[string]bool, len(docs))
	inDocs := map[string]int{}
	defined := make([]map[string][]string, len(docs))
	for di, d := range docs {
		companies[di] = d.companies
		if companies[di] == nil {
			companies[di] = companyTerms(d.Units)
		}
		defined[di] = d.defined
		if defined[di] == nil {
			defined[di] = definedTerms(d.Units)
		}
		for t := range companies[di] {
			inDocs[t]++
		}
	}
	for di, d := range docs {
		if d.named != nil {
			titleTerms[di] = maps.Clone(d.named) // its parties' terms are added below, for this call's documents
		} else {
			titleTerms[di] = set(clauseTokens(d.Names + " " + firstLine(d.Units) + " " + d.title))
		}
		partyTerms[di] = map[string]bool{}
		for t := range companies[di] {
			if len(docs) > 1 && inDocs[t] == len(docs) {
				continue // the user's own company, in every document
			}
			// A counterparty's name says which document as its title does: «меридиан» is the
			// lease with ООО «Меридиан Недвижимость» as much as the act of reconciliation with it.
			titleTerms[di][t] = true
			partyTerms[di][t] = true
		}
		for ui := range d.Units {
			own, ctx := terms[di][ui].own, terms[di][ui].ctx
			n++
			for _, t := range qt {
				// «срок» is in every clause that states a term, in so many words or not: it weighs
				// as what so many clauses hold.
				if own[t] || ctx[t] || t == "срок" && a.term && terms[di][ui].limit {
					df[t]++
				}
			}
		}
	}
	if n == 0 {
		return nil
	}
	// A brand written in Cyrillic («леново», «самсунг») is the documents' Latin name.
	for _, w := range cyrillicWord.FindAllString(strings.ToLower(q.Text), -1) {
		toks := clauseTokens(w)
		if len(toks) != 1 || df[toks[0]] > 0 {
			continue
		}
		if lat, ok := latinTerm(ru.Skeleton(ru.Translit(w)), vocabs); ok {
			if i := slices.Index(qt, toks[0]); i >= 0 && !slices.Contains(qt, lat) {
				qt[i] = lat
				df[lat] = unitsHolding(lat, terms)
			}
		}
	}
	// A word no unit has may be a typo of one they have («суточьные», «арнеда»): read as that one.
	fixedFrom := map[string]string{} // the word read so, by the question's word
	for i, t := range qt {
		if df[t] > 0 || utf8.RuneCountInString(t) < 5 {
			continue
		}
		fix, ok := nearTerm(t, terms)
		if !ok {
			fix, ok = prefixTerm(t, terms) // «обеспечит.» is «обеспечительный»
		}
		if ok && !slices.Contains(qt, fix) {
			fixedFrom[fix] = t
			qt[i] = fix
			df[fix] = unitsHolding(fix, terms)
		}
	}
	// Another form of a question's word («перечисления» and «перечисляет», «оплачивает» and
	// «оплатить»): a unit term that shares all but its ending with it matches at a discount.
	variants := map[string][]string{}
	for _, t := range qt {
		if v := append(stemVariants(t, vocabs), longerForms(t, vocabs)...); len(v) > 0 {
			variants[t] = v
		}
	}
	// «… входит в аренду или платим отдельно»: the words of the alternative after «или» say how
	// the question may be answered, not what it is about — a document that does not use them
	// may still answer. (They keep their weight: «до 5 или до 10 числа» names what is asked.)
	alt := map[string]bool{}
	if m := orAlternative.FindStringSubmatch(strings.ToLower(q.Text)); m != nil {
		for _, t := range clauseTokens(m[2]) {
			alt[t] = !parameter(t) && !strings.ContainsAny(t, "0123456789") // «360 или 365 дней»: figures are what is asked
		}
		for _, t := range clauseTokens(strings.ToLower(q.Text)[:strings.Index(strings.ToLower(q.Text), m[0])]) {
			delete(alt, t) // a word of the question itself too
		}
	}
	for fix, t := range fixedFrom {
		if alt[t] {
			alt[fix] = true // «или доплачиваем», read as «выплачиваем»: still the alternative
		}
	}
	var unknown []string
	for _, t := range qt[:own] {
		if alt[t] || spoken[t] {
			continue
		}
		if df[t] == 0 && utf8.RuneCountInString(t) >= 6 && !slices.ContainsFunc(titleTerms, func(m map[string]bool) bool { return m[t] }) &&
			!sharesStem(t, terms) {
			unknown = append(unknown, t)
		}
	}
	// A follow-up is about what it names itself, when some unit holds that.
	ownTerms := false
	if own < len(qt) {
		for _, t := range qt[:own] {
			// «а за год», «а за декабрь»: a figure or a period to count with, not a subject
			ownTerms = ownTerms || df[t] > 0 && !parameter(t) && !monthTerms[t]
		}
	}
	// «аренда за квартал», «абонентка за полгода»: a span to count a payment over, not a subject
	// («ежеквартально проводят сверку» is no answer to it)
	spans := map[string]bool{}
	for _, m := range countedSpan.FindAllStringSubmatch(strings.ToLower(q.Text), -1) {
		for _, t := range clauseTokens(m[2]) {
			spans[t] = true
		}
	}
	weight := map[string]float64{}
	total := 0.0
	for i, t := range qt {
		w := math.Log(1 + float64(n)/float64(1+df[t]))
		if f, ok := countryShare[t]; ok {
			w *= f
		}
		if documentWords[t] {
			w *= 0.2
		}
		if i >= own {
			w /= 2
			if older[t] {
				w /= 4 // an earlier turn's: «lenovo» once «а hp» has followed it
			}
		}
		if alt[t] {
			w *= altWeight // «…или платим отдельно»: how it may be answered, not what it is about
		}
		weight[t] = w
		if (!ownTerms || i < own) && !parameter(t) && !spans[t] && !alt[t] {
			total += w // a follow-up's coverage is that of its own terms; «4 млн», «10 дней» are its figures
		}
	}
	// The documents the question names by title.
	affinity := make([]float64, len(docs))
	best := 0.0
	for di := range docs {
		for _, t := range qt {
			if titleTerms[di][t] && !documentWords[t] && !spans[t] {
				affinity[di] += weight[t] // (a span counted over names no act «за 3 квартал»)
			}
		}
		best = max(best, affinity[di])
	}
	// The share of the question's own words that name each document, in any form of theirs.
	titled := make([]float64, len(docs))
	for di := range docs {
		all, held := 0, 0
		for _, t := range qt[:own] {
			if parameter(t) {
				continue
			}
			all++
			if titleTerms[di][t] || slices.ContainsFunc(variants[t], func(v string) bool { return titleTerms[di][v] }) {
				held++
			}
		}
		if all > 0 {
			titled[di] = float64(held) / float64(all)
		}
	}
	// A follow-up whose own words name no document («а за декабрь значит до») stays in the
	// documents the dialog is about: another document's clause is no answer to it.
	ownNamesNone := true
	for di := range docs {
		for _, t := range qt[:own] {
			// (a month or a figure of a title — «СЧЁТ … от 03 декабря 2026 г.» — dates it: «а
			// декабрь» names no document)
			if titleTerms[di][t] && !documentWords[t] && !monthTerms[t] && !parameter(t) {
				ownNamesNone = false
			}
		}
	}
	if len(q.Prefer) > 0 {
		top := best + 1
		for di, d := range docs {
			if slices.Contains(q.Prefer, d.ID) {
				affinity[di] = top // the document the dialog is about
				best = top
			}
		}
	}
	// A word the documents the question names never use («страхование» of «в договоре аренды»,
	// «главный бухгалтер» of «Сетевых Решений», «виза» of the travel policy) may be used
	// elsewhere: it is unknown to them.
	if best > 0 && len(q.Prefer) == 0 {
		for _, t := range qt[:own] {
			if utf8.RuneCountInString(t) < 5 || slices.Contains(unknown, t) || documentWords[t] || monthTerms[t] || parameter(t) || alt[t] || asOfWords[t] || spoken[t] {
				continue
			}
			present := false
			for di := range docs {
				if affinity[di] == best && (titleTerms[di][t] || inDoc(t, terms[di])) {
					present = true
					break
				}
			}
			if !present {
				unknown = append(unknown, t)
			}
		}
	}
	// «аренда за январь»: the month a payment is for
	forMonth := map[string]bool{}
	for _, m := range monthPaidFor.FindAllStringSubmatch(strings.ToLower(q.Text), -1) {
		for _, t := range clauseTokens(m[1]) {
			forMonth[t] = monthTerms[t]
		}
	}
	dayAsked := asksDay.MatchString(q.Text)
	focus := ""
	if m := askedNoun.FindStringSubmatch(q.Text); m != nil {
		if ts := clauseTokens(m[1]); len(ts) == 1 && !parameter(ts[0]) {
			focus = ts[0]
		}
	}
	asksOpening := asksOpening.MatchString(q.Text)
	// The rows' own terms of the question, and each table's: a row that holds fewer of them than
	// its table does is Partial («принтер hp»: a Pantum printer's row, an HP laptop's row).
	type rowTable struct {
		doc  int
		lead string
	}
	// «2 часа», «100 м2»: the measure of a quantity the question counts with — every row of a
	// tariff has one, so it says nothing of which row is asked.
	measured := map[string]bool{}
	for _, m := range quantityMeasure.FindAllStringSubmatch(strings.ToLower(q.Text), -1) {
		for _, t := range clauseTokens(m[1]) {
			measured[t] = true
		}
	}
	rowHeld := map[int][]string{}
	tableHeld := map[rowTable][]string{}
	// The question names a document by its number: a term with digits of the best one's title
	// and of no other's («1187»; not «318-П» of the contract and of its supplementary agreement).
	byNumber := false
	for _, t := range qt[:own] {
		if !strings.ContainsAny(t, "0123456789") || monthTerms[t] || best == 0 {
			continue
		}
		titled := 0
		for di := range docs {
			if titleTerms[di][t] {
				titled++
			}
		}
		for di := range docs {
			byNumber = byNumber || titled == 1 && titleTerms[di][t] && affinity[di] == best
		}
	}
	var hits []ClauseHit
	for di, d := range docs {
		for ui, u := range d.Units {
			ut := terms[di][ui]
			s, cov, matched, content := 0.0, 0.0, 0, false
			var ownHeld []string // the question's own terms a row holds in its own cells
			for i, t := range qt {
				counts := (!ownTerms || i < own) && !parameter(t) && !spans[t]
				switch {
				case ut.own[t] || t == "срок" && a.term && ut.limit:
					// a clause states a term as a period or a date, not with the word «срок»
					if u.Kind == UnitRow && i < own && ut.own[t] && !titleTerms[di][t] && !measured[t] && !parameter(t) {
						ownHeld = append(ownHeld, t)
					}
					w := weight[t]
					content = content || !titleTerms[di][t] && !documentWords[t] && !monthTerms[t]
					if partyTerms[di][t] || titleTerms[di][t] && (strings.ContainsAny(t, "0123456789") || monthTerms[t]) {
						w *= 0.2 // «Сетевые Решения», «318-П», «акт за ноябрь» say which document, not which of its clauses
					} else if parameters[t] || spans[t] || forMonth[t] && !ut.forMonth[t] {
						// «за год», «10 дней»: what the question counts with, not what it is about;
						// «аренда за январь» and a clause that dates something in January
						// («индексируются с 01 января») — not one for January («за апрель 2026 г.»)
						w *= 0.3
					}
					s += w
					if counts {
						cov += weight[t]
						matched++
					}
				case ut.ctx[t]:
					s += weight[t] / 2
					// a clause's table or lead is its content; a row's header is every row's
					content = content || u.Kind == UnitClause && !titleTerms[di][t] && !documentWords[t] && !monthTerms[t]
					if counts {
						cov += weight[t]
						matched++ // its section or lead («Суточные за 1 день» over «Республика Казахстан»)
					}
				case !titleTerms[di][t] && slices.ContainsFunc(defined[di][t], func(v string) bool { return ut.own[v] }):
					// «техника» of the clauses that say «Товар» (not «обслуживание» of a title
					// that says which document, though its «Услуги» are defined so)
					s += weight[t] * variantWeight
					content = true
					if counts {
						cov += weight[t]
						matched++
					}
				case titleTerms[di][t] && counts:
					cov += weight[t]
				case slices.ContainsFunc(variants[t], func(v string) bool { return ut.own[v] }):
					s += weight[t] * variantWeight
					content = true
					if counts {
						cov += weight[t] * variantWeight
						matched++
					}
				}
			}
			if s == 0 || ownTerms && !ownMatch(qt[:own], ut.own, ut.ctx) {
				continue // a follow-up's unit holds something of the message itself («а hp» after a Lenovo)
			}
			for _, p := range pairs {
				if ut.next[p] || ut.next[[2]string{p[1], p[0]}] { // «без ндс сумма» is «сумма без НДС»
					s += (weight[p[0]] + weight[p[1]]) / 2
				}
			}
			if u.Kind == UnitText && d.title != "" && u.Text == d.title {
				content = false // the title line («СЧЁТ НА ОПЛАТУ № 2417 от …») names the document
			}
			if !content && u.Kind == UnitText {
				s *= 0.3 // it only names the document («Приложение № 1 к Договору поставки № 318-П»): no content
			}
			if u.Kind == UnitText && !a.party && preamble.MatchString(u.Text) {
				s *= 0.5 // the parties' names and requisites: «Общество с ограниченной ответственностью» answers no question of liability
			}
			f, asked, states := facetFactor(a, ut.states)
			s *= f
			if !a.penalty && ut.penalty {
				s *= 0.85 // a penalty clause names amounts and terms of something else than asked
			}
			if dayAsked && !a.amount && ut.dayOfMonth {
				s *= 1.3 // «до какого числа платить»: «не позднее 5-го числа», not «в течение 5 дней»
			}
			if focus != "" && ut.head == focus {
				s *= 1.8 // «на каких территориях …»: «Территория деятельности Агента: …» is about it
			}
			if u.Kind == UnitClause && (a.amount || a.term || a.percent || a.date) && definingClause.MatchString(u.Text) && !asksMeaning.MatchString(q.Text) {
				s *= definitionWeight // «1.3. «Постоянная часть» — … по ставкам раздела 4»: a word defined, no figure stated
			}
			if ut.opening && !asksOpening {
				s *= 0.7 // «сколько мы должны по акту сверки»: the closing balance, not the opening one
			}
			if best > 0 && affinity[di] < best {
				s *= 0.6 // another document than the one the question names
				if len(q.Prefer) > 0 && ownNamesNone {
					continue // …or the one the dialog is about, when the follow-up names none
				}
				if byNumber {
					s *= 0.5 // …by its number («акт 1187», «по 318-П»): no other document is meant
				}
			}
			hits = append(hits, ClauseHit{Doc: di, Unit: u, Score: s, Coverage: cov / total, Named: best > 0 && affinity[di] == best, AnyNamed: best > 0, Affinity: affinity[di], Titled: titled[di], Matched: matched, Unknown: unknown, Asked: asked, States: states, Limit: ut.period})
			if len(ownHeld) > 0 {
				key := rowTable{di, u.Lead}
				rowHeld[len(hits)-1] = ownHeld
				for _, t := range ownHeld {
					if !slices.Contains(tableHeld[key], t) {
						tableHeld[key] = append(tableHeld[key], t)
					}
				}
			}
		}
	}
	for i, held := range rowHeld {
		hits[i].Partial = len(tableHeld[rowTable{hits[i].Doc, hits[i].Unit.Lead}]) > len(held)
	}
	slices.SortStableFunc(hits, func(x, y ClauseHit) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		// Equal scores in the documents' order (as listed: as uploaded), then their units'.
		if x.Doc != y.Doc {
			return cmp.Compare(x.Doc, y.Doc)
		}
		return cmp.Compare(x.Unit.Index, y.Unit.Index)
	})
	return hits
}

// facetFactor raises the score of a unit that states the kind of answer asked and lowers one
// that states none of the kinds asked.
func facetFactor(a asks, states Facets) (float64, Facets, Facets) {
	f, asked, met := 1.0, 0, 0
	var want, have Facets
	check := func(ask bool, bit Facets) {
		if !ask {
			return
		}
		asked++
		want |= bit
		if states&bit != 0 {
			met++
			have |= bit
		}
	}
	check(a.term, facetTermBit)
	check(a.amount && !a.percent, facetMoneyBit)
	check(a.percent, facetPercentBit)
	if a.penalty && !a.percent {
		// a penalty is asked as its rate («пени по аренде») or its sum («штраф агенту за
		// просрочку отчёта» — 1 500,00 рублей за каждый день): either states it
		asked++
		want |= facetPercentBit
		if states&(facetPercentBit|facetMoneyBit) != 0 {
			met++
			have |= states & (facetPercentBit | facetMoneyBit)
		}
	}
	check(a.penalty, facetPenaltyBit)
	check(a.party, facetPartyBit)
	check(a.date && !a.term, facetDateBit)
	check(a.clock, facetClockBit)
	if asked > 0 {
		f = 0.7 + 0.6*float64(met)/float64(asked)
	}
	return f, want, have
}

// Facets are kinds of answer — a term, an amount, a rate, a penalty, a party, a date — as bits.
type Facets uint8

func set(ts []string) map[string]bool {
	m := make(map[string]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

// firstLine is a document's own title line («ДОГОВОР АРЕНДЫ НЕЖИЛОГО ПОМЕЩЕНИЯ № А-07/26»).
func firstLine(us []Unit) string {
	for _, u := range us {
		if u.Section != "" {
			// «ДОГОВОР № 47/У» over «возмездного оказания услуг по абонентскому обслуживанию …»:
			// a line that goes on in lower case is the title's (not «за период: 3 квартал 2026 г.»,
			// whose dates would name the act to any question of a date)
			if r := []rune(u.Text); u.Kind == UnitText && len(r) > 0 && unicode.IsLower(r[0]) && !strings.ContainsAny(u.Text, "0123456789") {
				return u.Section + " " + string(r[:min(len(r), 120)])
			}
			return u.Section
		}
		if u.Kind == UnitClause {
			return "" // a document that opens with its clauses has no title line of its own
		}
		if u.Kind == UnitText {
			if r := []rune(u.Text); len(r) > 120 {
				return string(r[:120])
			}
			return u.Text
		}
	}
	return ""
}

// ownMatch reports whether a unit (its text or its context) holds one of terms.
func ownMatch(terms []string, own, ctx map[string]bool) bool {
	for _, t := range terms {
		if own[t] || ctx[t] {
			return true
		}
	}
	return false
}

// moneyColumn is a table column of roubles («Цена без НДС, руб.», «Сумма с НДС»).
var moneyColumn = regexp.MustCompile(`(?i)руб|₽|цена|сумма|стоимост|ндс,`)

// moneyCell writes a spreadsheet's bare number in a money column as roubles and kopecks:
// 14005.6 → «14 005,60». Anything else is left as it is.
func moneyCell(c string) string {
	f, err := strconv.ParseFloat(c, 64)
	if err != nil || strings.ContainsAny(c, " ,") || f < 0 || f > 1e15 {
		return c
	}
	kop := int64(math.Round(f * 100))
	return ru.Decimal(fmt.Sprintf("%d.%02d", kop/100, kop%100))
}

// clauseTerms are a unit's terms: its own, those of its section and lead, its neighbouring pairs;
// and what it states: its facets, a time limit, a penalty.
type clauseTerms struct {
	own, ctx       map[string]bool
	next           map[[2]string]bool
	states         Facets
	limit, penalty bool
	period         bool   // periodLimit: a period or a deadline, not a date alone
	dayOfMonth     bool   // dayOfMonth: «не позднее 5-го числа»
	opening        bool   // openingRow: a table's opening balance
	head           string // a clause's first term («Территория деятельности Агента: …» — «территор»)
	// forMonth are the months the unit holds as a month something is for («за апрель 2026 г.»);
	// any other month it holds dates something («индексируются с 01 января 2027 г.»).
	forMonth map[string]bool
}

// countedSpan: a span of months a payment is counted over («за квартал», «за полгода», «за 3
// месяца»).
var countedSpan = regexp.MustCompile(`(^|[^\p{L}])за\s+(квартал|полгода|полугодие|\d{1,2}\s+месяц\p{L}*)([^\p{L}]|$)`)

// definingClause: a clause that defines a term («1.3. «Постоянная часть» — фиксированная
// ежемесячная плата …»); asksMeaning: a question of what a term means.
var (
	definingClause = regexp.MustCompile(`^\d{1,2}(\.\d{1,3}){0,3}\.?\s*«[^»]{2,60}»\s*(\([^()]{1,40}\)\s*)?[—–-]`)
	asksMeaning    = regexp.MustCompile(`(?i)что\s+(так\p{L}*|значит|означает|понимается|считается)|определени`)
)

// definitionWeight lowers a term's definition for a question of a figure.
const definitionWeight = 0.6

// quantityMeasure: a figure's measure in a question («2 часа», «35 кв.м», «100 м2»).
var quantityMeasure = regexp.MustCompile(`\d\s*(\p{L}{1,6}(?:\.\s*\p{L}{1,3})?)(?:[^\p{L}]|$)`)

// askedNoun: the noun a question asks which of («на каких территориях», «какой лимит»).
var askedNoun = regexp.MustCompile(`(?i)(?:^|[^\p{L}])как(?:ой|ая|ое|ие|их|им|ую|ом|ому|ова|овы|ов)\s+(\p{L}{4,})`)

// abbreviation is a word cut short with a dot inside a sentence («обеспечит. платежа»).
var abbreviation = regexp.MustCompile(`(^|\s)(\p{L}{4,})\.\s+\p{Ll}`)

// numericDate is a date written in digits, its month captured.
var numericDate = regexp.MustCompile(`\b\d{1,2}\.(\d{1,2})\.\d{4}\b`)

// countedNoun: a figure that numbers what follows it — «3 квартал», «2-я партия», «4 этаж».
var countedNoun = regexp.MustCompile(`(?:^|[^\d,.])(\d{1,2})(?:-?(?:й|я|е|го|м|ой))?\s+(?:квартал|парти|этаж|полугоди|месяц|недел|очеред|этап|год)`)

// numberedRows: a table's header that numbers its rows by what they are («№ этапа», «№
// партии», «№ платежа»), not by position alone («№», «№ п/п»).
var numberedRows = regexp.MustCompile(`^№\s+(этап\p{L}*|парти\p{L}*|платеж\p{L}*|платёж\p{L}*|транш\p{L}*|очеред\p{L}*)`)

// ordinalTerm are the ordinals' terms, «первый» to «двенадцатый», as the question's words read.
var ordinalTerm [12]string

// compoundWord: a compound word whose rest is a word of its own («нижеподписавшиеся»,
// «вышеуказанный»; «гофрокороб», «электромонтаж», «стрейчплёнка» — a user says «короб»,
// «монтаж», «плёнка»).
var compoundWord = regexp.MustCompile(`(?i)(^|[^\p{L}])(?:ниже|выше|гофро|стрейч|электро|термо|гидро)-?(\p{L}{4,})`)

func init() {
	for i, w := range []string{"первый", "второй", "третий", "четвёртый", "пятый", "шестой", "седьмой", "восьмой", "девятый", "десятый", "одиннадцатый", "двенадцатый"} {
		ordinalTerm[i] = retrieval.Tokens(w)[0]
	}
}

// monthTerm are each month's terms as a question names it («в декабре», «за май»).
var monthTerm [12][]string

func init() {
	for i := range 12 {
		m := time.Month(i + 1)
		monthTerm[i] = distinct(append(retrieval.Tokens(ru.MonthName(m)), append(retrieval.Tokens(ru.MonthGenitive(m)), retrieval.Tokens(ru.MonthPrepositional(m))...)...))
	}
}

// preamble is the paragraph that names the parties («…, именуемое в дальнейшем «Арендатор», в
// лице…»).
var preamble = regexp.MustCompile(`именуем\p{L}*\s+(в\s+дальнейшем\s+)?«`)

// hyphenWord is a compound written with a hyphen.
var hyphenWord = regexp.MustCompile(`(\p{L}{3,})-(\p{L}{3,})`)

// cyrillicWord is a word of Cyrillic letters long enough to be a name.
var cyrillicWord = regexp.MustCompile(`[а-яё]{4,}`)

// latinTerm is the one Latin term of the units whose consonants are sk («lnv»: «lenovo»).
func latinTerm(sk string, vocabs [][]string) (string, bool) {
	if utf8.RuneCountInString(sk) < 3 {
		return "", false
	}
	found := ""
	for _, v := range vocabs {
		// a sorted vocabulary has its Latin words together, after the figures
		i, _ := slices.BinarySearch(v, "a")
		for ; i < len(v) && v[i][0] >= 'a' && v[i][0] <= 'z'; i++ {
			if ru.Skeleton(v[i]) != sk {
				continue
			}
			if found != "" && found != v[i] {
				return "", false // two names fit: neither is meant surely
			}
			found = v[i]
		}
	}
	return found, found != ""
}

// prefixTerm is the term of the units that t abbreviates («обеспечит» for «обеспечительн»):
// the one they hold most often of those that start with t.
func prefixTerm(t string, terms [][]clauseTerms) (string, bool) {
	count := map[string]int{}
	for _, ds := range terms {
		for _, ut := range ds {
			for w := range ut.own {
				if len(w) > len(t) && strings.HasPrefix(w, t) {
					count[w]++
				}
			}
		}
	}
	best, n := "", 0
	for w, c := range count {
		if c > n || c == n && w < best {
			best, n = w, c
		}
	}
	return best, n > 0
}

// nearTerm is the one term of the units within one edit of t (two for a long one), when there is
// exactly one at the least distance.
func nearTerm(t string, terms [][]clauseTerms) (string, bool) {
	limit := 1
	if utf8.RuneCountInString(t) >= 8 {
		limit = 2
	}
	best, bestD, ties := "", limit+1, 0
	seen := map[string]bool{}
	for _, ds := range terms {
		for _, ut := range ds {
			for w := range ut.own {
				if seen[w] {
					continue
				}
				seen[w] = true
				if d := editDistance(t, w, limit); d < bestD {
					best, bestD, ties = w, d, 1
				} else if d == bestD {
					ties++
				}
			}
		}
	}
	return best, bestD <= limit && ties == 1
}

// editDistance is the Damerau–Levenshtein distance of a and b (adjacent transpositions count
// one), or limit+1 when it exceeds limit.
func editDistance(a, b string, limit int) int {
	x, y := []rune(a), []rune(b)
	if d := len(x) - len(y); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		low := cur[0]
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			low = min(low, cur[j])
		}
		if low > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(y)], limit+1)
}

// documentSpeak is how documents write what accountants abbreviate: the terms a question's
// term stands for in a document's text.
var documentSpeak = map[string][]string{}

// speakWords are documentSpeak as written: a word of a question, the words a document writes
// for it. Two words of one token must stand for the same words (TestDocumentSpeakIsOneMap):
// which of them init met last would decide otherwise.
var speakWords = map[string]string{
	"допсоглашение": "дополнительное соглашение", "ндфл": "налог на доходы физических лиц",
	"дог": "договор", "допник": "дополнительное соглашение", "абонентка": "абонентская плата",
	"абонентку": "абонентская плата", "абонентки": "абонентская плата", "абонентке": "абонентская плата", "абонентской": "абонентская плата",
	"абонка": "абонентская плата", "абонку": "абонентская плата", "абонки": "абонентская плата", "абонетка": "абонентская плата", "абонетку": "абонентская плата",
	"коммуналки": "коммунальные электроэнергия водоснабжение", "коммуналкой": "коммунальные электроэнергия водоснабжение",
	"коммуналка": "коммунальные электроэнергия водоснабжение", "коммуналку": "коммунальные электроэнергия водоснабжение",
	"коммунальные": "коммунальные электроэнергия водоснабжение", "коммуналке": "коммунальные электроэнергия водоснабжение",
	"электричество": "электроэнергия", "электричества": "электроэнергия", "свет": "электроэнергия", "вода": "водоснабжение", "воду": "водоснабжение",
	"капремонт": "капитальный ремонт", "капремонта": "капитальный ремонт", "текущка": "текущий ремонт",
	"поднять": "увеличение изменить", "поднимут": "увеличение изменить", "повысить": "увеличение изменить", "повысят": "увеличение изменить", "подорожание": "увеличение",
	"снизить": "уменьшение", "снизят": "уменьшение",
	"предупредить": "уведомить", "предупреждать": "уведомить", "предупреждение": "уведомление",
	"сальдо": "сальдо задолженность", "задолженность": "задолженность остаток",
	"гендиректор": "генеральный директор", "гендиректору": "генеральный директор", "гендир": "генеральный директор",
	"главбух": "главный бухгалтер", "главбуху": "главный бухгалтер", "замдиректора": "заместитель директора",
	"допсоглашению": "дополнительное соглашение", "ндсом": "ндс",
	// a contract caps with «не более», «не менее»
	"максимум": "более", "максимальный": "более", "максимальная": "более", "макс": "более",
	"минимум": "менее", "минимальный": "менее",
	// a travel policy writes «проживание», «наём жилого помещения», «воздушным транспортом»
	"гостиница": "гостиница проживание", "гостиницу": "гостиница проживание", "гостинице": "гостиница проживание",
	"отель": "гостиница проживание", "отеле": "гостиница проживание", "отелю": "гостиница проживание",
	"самолет": "самолет воздушный", "самолёт": "самолет воздушный", "авиабилет": "билет воздушный",
	"питер": "санкт-петербург", "питере": "санкт-петербург", "спб": "санкт-петербург", "мск": "москва",
	"поезд": "поезд железнодорожный", "поездом": "поезд железнодорожный", "поезде": "поезд железнодорожный", "жд": "железнодорожный", "ржд": "железнодорожный",
	"самолетом": "самолет воздушный", "самолётом": "самолет воздушный",
	"машина": "автомобиль", "машине": "автомобиль", "машиной": "автомобиль", "авто": "автомобиль",
	"бензин": "топливо", "бензина": "топливо", "гсм": "топливо",
	// a lease measures its premises as «площадь … кв. м»
	"квадратов": "площадь квадратный", "квадратура": "площадь", "метраж": "площадь", "квадраты": "площадь квадратный",
	"залог": "залог обеспечительный", "залога": "залог обеспечительный", "депозит": "обеспечительный", "депозита": "обеспечительный",
	"реакции": "реагирования", "реакция": "реагирования", "реакцию": "реагирования",
	"выезд": "выезд выездные", "выезды": "выезд выездные", "выездов": "выезд выездные",
	"окончания": "окончание прекращение", "окончании": "окончание прекращение",
	// accountants' abbreviations a contract or a policy writes out
	"гпх": "гражданско-правовой", "гпд": "гражданско-правовой", "тко": "твердые коммунальные отходы",
	"тмц": "товарно-материальные ценности", "ттн": "товарно-транспортная накладная",
	"ип": "индивидуальный предприниматель", "юрлицо": "юридическое лицо", "юрлица": "юридическое лицо",
	"физлицо": "физическое лицо", "физлица": "физическое лицо", "физлицам": "физическое лицо",
	"финдир": "финансовый директор", "финдиректор": "финансовый директор", "финдиректора": "финансовый директор",
	"наличка": "наличные", "налик": "наличные", "налом": "наличные", "безнал": "безналичный", "безналом": "безналичный",
	"фура": "автомобиль", "фуру": "автомобиль", "фуры": "автомобиль", "грузовик": "автомобиль",
	"командировочные": "командировка суточные",
	// a contract ends «отказавшись от Договора» as often as by «расторжение»
	"расторжение": "расторжение отказ", "расторжении": "расторжение отказ",
	"расторгнуть": "расторгнуть отказ", "расторгать": "расторгнуть отказ",
	// a contract writes what is paid as «оплата», «вносится», «перечисляет»; a user says «заплатить»
	// (not the shared stemmer's family: «заплатили налог» would weigh the knowledge base's every
	// article on payments)
	"заплатить": "оплата", "заплачу": "оплата",
	// premises are «возвращены» by a lease's words, «освобождены» by a user's
	"освободить": "освободить возврат",
	// services in office slang and a contract's words
	"клининг": "клининг уборка", "генералка": "генеральная уборка", "туалетка": "туалетная бумага", "мыло": "мыло моющие",
	// «брак» is what a contract calls «некачественный», «ненадлежащего качества», «несоответствие»
	"брак": "брак некачественный ненадлежащий несоответствие", "брака": "брак некачественный ненадлежащий несоответствие",
	"браком": "брак некачественный ненадлежащий несоответствие", "бракованный": "брак некачественный ненадлежащий несоответствие",
	"бракованного": "брак некачественный ненадлежащий несоответствие", "бракованные": "брак некачественный ненадлежащий несоответствие",
	// «плохая уборка» is what a contract calls «некачественная» or «ненадлежащая»
	"плохой": "некачественный ненадлежащий", "плохо": "некачественный ненадлежащий",
	// words cut short without a dot («доп работы», «раб места», «техподдержка»)
	"доп": "дополнительный", "допы": "дополнительный", "осн": "основной", "ежемес": "ежемесячный",
	"обсл": "обслуживание", "обслуж": "обслуживание", "раб": "рабочий", "календ": "календарный", "мес": "месяц",
	"техподдержка": "техническая поддержка", "техподдержки": "техническая поддержка", "техподдержку": "техническая поддержка",
	"зп": "заработная плата", "зарплата": "заработная плата", "зарплату": "заработная плата", "зарплаты": "заработная плата",
	// a contract's «засчитывается», «погашаются», «конфиденциальная информация» in a user's words
	"зачесть": "зачет засчитывается", "зачтут": "зачет засчитывается", "зачтем": "зачет засчитывается", "засчитать": "зачет засчитывается",
	"незачтенный": "зачет засчитывается", "незачтенным": "зачет засчитывается", "незачтенная": "зачет засчитывается", "незачтенного": "зачет засчитывается",
	"зачтено": "зачет засчитывается", "зачтенный": "зачет засчитывается",
	"гарантийка": "гарантийный удержание", "гарантийку": "гарантийный удержание", "гарантийки": "гарантийный удержание",
	"гасятся": "погашение погашаются", "гасится": "погашение погашаются", "гасить": "погашение погашаются", "погасить": "погашение погашаются",
	"факторинг": "факторинг факторинговый уступка требования", "факторингу": "факторинг факторинговый уступка требования",
	"факторинга": "факторинг факторинговый уступка требования", "цессия": "уступка требования", "цессию": "уступка требования",
	"nda": "конфиденциальность конфиденциальная", "нда": "конфиденциальность конфиденциальная",
	"персданные": "персональные данные", "персданных": "персональные данные", "пдн": "персональные данные",
	// a lease's «машино-место» and «постоянная часть», forms' names, in a user's words
	"парковка": "парковка машино-место", "парковку": "парковка машино-место", "парковки": "парковка машино-место",
	"парковке": "парковка машино-место", "стоянка": "стоянка машино-место", "стоянку": "стоянка машино-место",
	"постоянка": "постоянная часть", "постоянку": "постоянная часть", "постоянки": "постоянная часть",
	"дс": "дополнительное соглашение", "допка": "дополнительное соглашение", "допку": "дополнительное соглашение",
	"спека": "спецификация", "спеку": "спецификация", "спеке": "спецификация", "спеки": "спецификация",
	"сф": "счет-фактура", "счф": "счет-фактура", "товарка": "товарная накладная", "товарку": "товарная накладная",
	"доверка": "доверенность", "доверку": "доверенность", "доверке": "доверенность",
	"эцп": "электронная подпись", "кэп": "электронная подпись", "укэп": "электронная подпись",
}

func init() {
	for short, long := range speakWords {
		for _, t := range retrieval.Tokens(short) {
			documentSpeak[t] = retrieval.Tokens(long)
		}
	}
}

// sharesStem reports whether some unit has a term that begins as t does (five letters): a
// derivation the stemmer keeps apart («подняли» and «поднятие») is no unknown word.
func sharesStem(t string, terms [][]clauseTerms) bool {
	r := []rune(t)
	prefix := string(r[:min(len(r), 5)])
	for _, ds := range terms {
		for _, ut := range ds {
			for w := range ut.own {
				if strings.HasPrefix(w, prefix) {
					return true
				}
			}
		}
	}
	return false
}

// altWeight is what a word of the alternative after «или» weighs («…входит в аренду или платим
// отдельно»): a clause that answers the question need not use it.
const altWeight = 0.4

// variantWeight is what another form of a question's word weighs (stemVariants).
const variantWeight = 0.7

// stemVariants are the units' terms that are another form of t: they share its first six
// letters at least and all of it but its last two.
func stemVariants(t string, vocabs [][]string) []string {
	r := []rune(t)
	if len(r) < 6 || parameter(t) {
		return nil
	}
	return withPrefix(vocabs, string(r[:max(6, len(r)-2)]), func(w string) bool { return w != t })
}

// longerForms are the units' terms that are t with up to two letters more («выезд» and
// «выездн»: «выезд специалиста», «выездные работы»), for a t of five letters.
//
// A t of four letters has its adjective only («офис» and «офисн»: «офисное помещение»).
func longerForms(t string, vocabs [][]string) []string {
	n := utf8.RuneCountInString(t)
	if n == 4 && !parameter(t) && !strings.ContainsAny(t, "0123456789") {
		return withPrefix(vocabs, t, func(w string) bool { return w == t+"н" || w == t+"ск" || w == t+"ов" })
	}
	if n != 5 || parameter(t) {
		return nil
	}
	return withPrefix(vocabs, t, func(w string) bool { return w != t && utf8.RuneCountInString(w) <= n+2 })
}

// withPrefix are the terms of the sorted vocabularies that start with prefix and keep accepts,
// sorted, each once.
func withPrefix(vocabs [][]string, prefix string, keep func(string) bool) []string {
	var out []string
	for _, v := range vocabs {
		i, _ := slices.BinarySearch(v, prefix)
		for ; i < len(v) && strings.HasPrefix(v[i], prefix); i++ {
			if keep(v[i]) && !slices.Contains(out, v[i]) {
				out = append(out, v[i])
			}
		}
	}
	slices.Sort(out)
	return out
}

// unitsHolding is how many units hold t, in their text, section or lead.
func unitsHolding(t string, terms [][]clauseTerms) int {
	n := 0
	for _, ds := range terms {
		for _, ut := range ds {
			if ut.own[t] || ut.ctx[t] {
				n++
			}
		}
	}
	return n
}

// vocabOf is the sorted set of the units' own terms.
func vocabOf(units []clauseTerms) []string {
	var v []string
	for _, ut := range units {
		for w := range ut.own {
			v = append(v, w)
		}
	}
	slices.Sort(v)
	return slices.Compact(v)
}

// inDoc reports whether a document's units hold t, or a word that starts as t does (its
// first five letters).
func inDoc(t string, units []clauseTerms) bool {
	r := []rune(t)
	prefix := string(r[:min(len(r), 5)])
	for _, ut := range units {
		if ut.own[t] || ut.ctx[t] {
			return true
		}
		for w := range ut.own {
			if strings.HasPrefix(w, prefix) {
				return true
			}
		}
	}
	return false
}

// clauseFold joins, for matching a question with a document's clauses, terms the search keeps
// apart: «подписание акта» is what «подписывает акт» does.
var clauseFold = map[string]string{"подписан": "подпис",
	// «вернулся из командировки» — «после возвращения»; «сдать авансовый» — «представляет
	// авансовый отчёт»; «привезти партию» — «поставка партии»; «когда истекает» — «окончания».
	"вернул": "возврат", "возвращен": "возврат", "привезт": "постав", "привезут": "постав", "привез": "постав",
	"сдач": "представ", "представля": "представ", "представлен": "представ", "истека": "оконч",
	// «просрочили», «задержим», «опоздаем с оплатой» — «за просрочку оплаты»
	"просроч": "просрочк", "задерж": "просрочк", "задержк": "просрочк", "опозда": "просрочк", "опоздан": "просрочк",
	// «сколько можно потратить на отель» — «расходы по найму»
	"потрат": "расход", "трат": "расход",
	// «что входит в постоянную часть» — «в постоянную часть включены»
	"вход": "включ", "включа": "включ"}

// clauseTokens are the retrieval terms of text, folded by clauseFold.
func clauseTokens(text string) []string {
	if strings.Contains(text, "того") || strings.Contains(text, "сего") || strings.Contains(text, "СЕГО") {
		text = itogo.ReplaceAllString(text, "${1}итог$3") // the stemmer reads «итого» as «ит», which is IT
	}
	if strings.Contains(text, "кв") || strings.Contains(text, "м2") || strings.Contains(text, "м²") {
		text = squareMetre.ReplaceAllString(text, "${1}квадратный метр$2") // not «кв.», a quarter
	}
	if strings.ContainsAny(text, "хХxX×*") {
		// «600х400х400», «1200x1000», «1,2 × 100 м»: a size's figures, however the times sign is typed
		for range 2 { // «a×b×c»: the match of «a×b» consumes b
			text = dimensionTimes.ReplaceAllString(text, "$1 $2")
		}
	}
	text = digitGlued.ReplaceAllString(text, "$1 $2") // «400г», «9%» as «400 г», «9 %» are written in documents
	ts := retrieval.Tokens(text)
	for i, t := range ts {
		if f, ok := clauseFold[t]; ok {
			ts[i] = f
		}
	}
	return ts
}

// dimensionTimes: a times sign between two figures of a size («600х400», «1200 x 1000»).
var dimensionTimes = regexp.MustCompile(`(\d)\s*[хХxX×*]\s*(\d)`)

// digitGlued: a figure and its measure written together («400г», «10кг», «9%»); not a code
// that starts with letters («ИТ-08», «ЧЗ-131»).
var digitGlued = regexp.MustCompile(`(\d)(%|\p{Ll}{1,3}(?:[^\p{L}]|$))`)

// squareMetre: «кв. м», «кв.м», «м2», «м²» — the tokenizer reads «кв» as a quarter.
var squareMetre = regexp.MustCompile(`(^|[^\p{L}])(?:[Кк]в\.?\s?м\.?|м2|м²)([^\p{L}\d]|$)`)

// itogo is the word «итого», any case.
var itogo = regexp.MustCompile(`(^|[^\p{L}])([Ии]того|ИТОГО|Всего\s+к\s+оплате|ВСЕГО\s+К\s+ОПЛАТЕ)([^\p{L}]|$)`)

// parameters are the words of the figures a question gives («4 млн», «на 10 дней»): what it
// computes with, not what a clause must say.
var parameters = map[string]bool{}

func init() {
	for _, w := range []string{"миллион", "тысяча", "рубль", "день", "дней", "процент", "копейка", "год", "года", "году", "штука", "штуки", "штук", "шт"} {
		for _, t := range retrieval.Tokens(w) {
			parameters[t] = true
		}
	}
}

// inMyDocuments is a question's «В моих документах:» (the button that asks the documents what 1C
// answered): it says where to look, not what.
var inMyDocuments = regexp.MustCompile(`(?i)^\s*в\s+(моих|наших)\s+документах\s*:?\s*`)

// asksBasis: the question asks which contract a document follows («акт 1187 по какому
// договору»).
var (
	asksBasis  = regexp.MustCompile(`(?i)(по|на\s+основании)\s+как\p{L}*\s+(договор|контракт)|основани`)
	basisTerms = retrieval.Tokens("основание")
)

// legalFormWords: a company's legal form written out («Общество с ограниченной
// ответственностью», «Публичное акционерное общество»).
var legalFormWords = regexp.MustCompile(`(?i)(общество\s+с\s+ограниченной\s+ответственностью|(публичное\s+|непубличное\s+)?акционерное\s+общество|индивидуальный\s+предприниматель)`)

// monthPaidFor: a month something is for («за январь», «за ноябрь 2026 г.»).
var monthPaidFor = regexp.MustCompile(`(?:^|[^\p{L}])за\s+(январ\p{L}*|феврал\p{L}*|март\p{L}*|апрел\p{L}*|ма[йяе]|июн\p{L}*|июл\p{L}*|август\p{L}*|сентябр\p{L}*|октябр\p{L}*|ноябр\p{L}*|декабр\p{L}*)`)

// monthTerms are the months' names as terms: a unit that holds only them of a question dates
// something («г. Москва «24» ноября 2025 г.») rather than answers it.
var monthTerms = map[string]bool{}

func init() {
	for _, ts := range monthTerm {
		for _, t := range ts {
			monthTerms[t] = true
		}
	}
}

// parameter reports whether t is a number or a figure's unit.
func parameter(t string) bool {
	if parameters[t] {
		return true
	}
	for _, r := range t {
		if r < '0' || r > '9' {
			return false
		}
	}
	return t != ""
}

// asksDay: the question asks a day of the month («до какого числа», «какого числа»), and
// dayOfMonth is a clause that states one («не позднее 5-го числа текущего месяца»).
var (
	asksDay    = regexp.MustCompile(`(?i)как(ого|ое)\s+числ`)
	dayOfMonth = regexp.MustCompile(`(?i)\d{1,2}\s*[-–]?\s*(го|е|ое)?\s*(\([^()]{1,30}\)\s*)?числа`)
)

// openingRow is a table's opening balance («Сальдо начальное», «входящий остаток»);
// asksOpening a question about it («на начало периода», «входящее сальдо»).
var (
	openingRow  = regexp.MustCompile(`(?i)сальдо\s+начальн|начальн\p{L}*\s+сальдо|входящ\p{L}*\s+(сальдо|остат)|остат\p{L}*\s+на\s+начало`)
	asksOpening = regexp.MustCompile(`(?i)начал|входящ`)
)

// asOfWords say when, not what: «на конец сентября», «на начало года».
var asOfWords = map[string]bool{"конец": true, "конц": true, "начал": true, "середин": true}

// orAlternative: «… или платим отдельно», the alternative a yes-or-no question offers.
var orAlternative = regexp.MustCompile(`(^|[^\p{L}])или\s+([^?.!,;]{1,60})`)

// questionWord: a word that asks, between the terms of a question.
var questionWord = regexp.MustCompile(`(^|[^\p{L}])(когда|сколько|скока|какой|какая|какое|какие|каком|какую|каких|где|кто|что|чем|зачем|почему|как|куда|откуда|ли)([^\p{L}]|$)`)

// quotedName is a company's name in quotes after its legal form (ООО «Сетевые Решения»), not
// a defined role («Поставщик»).
var quotedName = regexp.MustCompile(`(?:ООО|АО|ПАО|ЗАО|ОАО|ИП|НКО|АНО)\s*«([^»]{2,80})»`)

// Party reports whether f holds the party kind: the question asks who.
func (f Facets) Party() bool { return f&facetPartyBit != 0 }

// Money reports whether f holds the amount kind.
func (f Facets) Money() bool { return f&facetMoneyBit != 0 }

// Penalty: a penalty — the question asks one («пени по займу»), or the unit states one.
func (f Facets) Penalty() bool { return f&facetPenaltyBit != 0 }

// Answers reports whether a unit stating f states some kind of answer asked: a period answers
// «когда» as well as a date («пароли когда отдают» — «в течение 5 рабочих дней»), a rate an
// amount asked of a penalty.
func (f Facets) Answers(asked Facets) bool {
	return f&asked != 0 || asked&facetDateBit != 0 && f&facetTermBit != 0 ||
		asked&facetPenaltyBit != 0 && f&(facetPercentBit|facetMoneyBit) != 0
}

// MoneyBit is the facet of an amount in roubles; FigureBits those of any figure a question may
// ask (an amount, a rate, a date, a term).
const (
	MoneyBit   = facetMoneyBit
	FigureBits = facetMoneyBit | facetPercentBit | facetDateBit | facetTermBit
)

// MentionsKind reports whether the question names the kind of one of docs by a word of its
// title («по положению» and «Положение о командировках», «в договоре» and «Договор аренды»).
func MentionsKind(question string, docs []ClauseDoc) bool {
	for _, t := range clauseTokens(question) {
		if !documentWords[t] {
			continue
		}
		for _, d := range docs {
			if slices.Contains(clauseTokens(d.Names+" "+d.title), t) {
				return true
			}
		}
	}
	return false
}
