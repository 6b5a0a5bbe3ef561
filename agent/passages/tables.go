package passages

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/retrieval"
	"github.com/finbot/finbot/ru"
)

// A question about a table as a whole — a price list, a tariff sheet, a specification — is
// answered from its cells, not from one row: which rows have a value in a column («какие
// позиции без ндс»), which values a column takes («какая ставка ндс в прайсе»), which of the
// rows the question names is the cheapest or the dearest («самый дешёвый ибп в прайсе»), how
// many rows there are.

var (
	// asksCheapest, asksDearest: the question asks the row with the lowest or highest price or
	// sum among those it names.
	asksCheapest = regexp.MustCompile(`(?i)(сам\p{L}*|наиболее)\s+(дешев|дешёв|недорог|бюджетн|маленьк|низк)|дешевле\s+всего|минимальн\p{L}*\s+(цен|стоимост|сумм|тариф)|(цен|стоимост|сумм|тариф)\p{L}*\s+минимальн`)
	asksDearest  = regexp.MustCompile(`(?i)(сам\p{L}*|наиболее)\s+(дорог|больш|крупн|высок)|дороже\s+всего|максимальн\p{L}*\s+(цен|стоимост|сумм|тариф)|(цен|стоимост|сумм|тариф)\p{L}*\s+максимальн`)
	// asksWhichOfTwo: the question compares two rows it names, one «или» the other («что
	// дешевле оксфорд 240 или 600», «грета или флис — что дороже»).
	asksWhichOfTwo = regexp.MustCompile(`(?i)(^|[^\p{L}])(дешевле|дороже)([^\p{L}]|$)`)
	orWord         = regexp.MustCompile(`(?i)\s+или\s+`)
	// unitPrice: a header cell of a price per unit, not of a sum («Цена за ед.», «Тариф»).
	unitPrice = regexp.MustCompile(`(?i)цен|тариф`)
	// asksWhichRows: the question asks for the rows as a list («какие позиции», «на что», «что
	// в прайсе», «перечисли»).
	asksWhichRows = regexp.MustCompile(`(?i)(^|[^\p{L}])(как\p{L}*|на\s+что|что|перечисли\p{L}*|список|где|у\s+чего|для\s+чего)([^\p{L}]|$)`)
	// asksRowCount: «сколько позиций в прайсе».
	asksRowCount = regexp.MustCompile(`(?i)сколько\s+(всего\s+)?(позици|наименовани|строк|пункт)`)
	// priceColumn, withVATColumn: a header cell of a price or sum, and one that includes VAT.
	priceColumn   = regexp.MustCompile(`(?i)цен|стоимост|сумм|тариф|руб`)
	withVATColumn = regexp.MustCompile(`(?i)с\s+ндс|включая\s+ндс|в\s+т\.?\s?ч\.?\s+ндс`)
)

// noVAT: «нет ндс», «не облагается ндс», «ндс не облагается» — a price list's «без НДС».
var noVAT = regexp.MustCompile(`(?i)(^|[^\p{L}])(нет\s+ндс|не\s+облага\p{L}*\s+ндс|ндс\s+не\s+облага\p{L}*)`)

// notWordRune: a rune that is no letter or digit of a word.
func notWordRune(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }

// tableWords are a question's words that say how it asks about a table, not which rows: they
// name no row.
var tableWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("самый самая самое самые самых наиболее дешевый дешёвый дешевле дешевая дешёвая дорогой дорогая дороже " +
		"максимальная минимальная максимальный минимальный цена цены цену стоимость сумма тариф позиции позиций позиция наименования " +
		"строки строк прайс прайсе прайсу прайса таблице таблица какие какая какой каких что на сколько всего перечисли список где есть " +
		"в по у из для с без из всех весь вся ставка ставке") {
		for _, t := range retrieval.Tokens(w) {
			tableWords[t] = true
		}
	}
}

// sheet is a table of a document read as cells: its header and its rows, each split into as
// many cells as the header has.
type sheet struct {
	doc    int
	header []string
	rows   []library.Unit
	cells  [][]string
}

// sheetOf reads the table of doc whose header is lead: nil when its rows are not cells (a
// scanned table read as lines of words) or fewer than two.
func sheetOf(doc int, units []library.Unit, lead string) *sheet {
	header := strings.Split(lead[strings.LastIndexByte(lead, '\n')+1:], " | ")
	if len(header) < 2 {
		return nil
	}
	s := &sheet{doc: doc, header: header}
	for _, u := range units {
		if u.Kind != library.UnitRow || u.Lead != lead || u.Number == "" {
			continue
		}
		cs := strings.Split(u.Text, " | ")
		if totalRow.MatchString(cs[0]) {
			continue // «Итого | 3 820 210,00 | …»: the table's total, no item (its cells merged)
		}
		if len(cs) > len(header) {
			return nil
		}
		for len(cs) < len(header) {
			cs = append(cs, "") // a spreadsheet's empty last cells («Примечание»)
		}
		for i := range cs {
			cs[i] = strings.TrimSpace(cs[i])
		}
		s.rows = append(s.rows, u)
		s.cells = append(s.cells, cs)
	}
	if len(s.rows) < 2 {
		return nil
	}
	return s
}

// nameColumn is the column that names each row: of the columns whose cells are mostly
// different words (not amounts), the one with the longest cells («Наименование», not «Код»).
func (s *sheet) nameColumn() int {
	best, bestLen := -1, 0
	for c := range s.header {
		words, runes := 0, 0
		for _, r := range s.cells {
			if strings.IndexFunc(r[c], unicode.IsLetter) >= 0 && moneyCell(r[c]) < 0 {
				words++
			}
			runes += len([]rune(r[c]))
		}
		if words*2 > len(s.cells) && s.distinct(c)*2 > len(s.cells) && runes > bestLen {
			best, bestLen = c, runes
		}
	}
	return best
}

// codeColumn is a column before the name column whose cells are short codes of letters and
// figures («ДП-04», «Т-01»), each row's own; -1 when there is none.
func (s *sheet) codeColumn(name int) int {
	for c := 0; c < name; c++ {
		ok := s.distinct(c) == len(s.rows)
		for _, r := range s.cells {
			v := r[c]
			ok = ok && len([]rune(v)) <= 12 && strings.IndexFunc(v, unicode.IsLetter) >= 0 && strings.IndexFunc(v, unicode.IsDigit) >= 0
		}
		if ok {
			return c
		}
	}
	return -1
}

// unitsOf are the different units of measure of rows (a column «Ед.», «Ед. изм.»), in their
// order; nil when the table has no such column.
func (s *sheet) unitsOf(rows []int) []string {
	c := slices.IndexFunc(s.header, func(h string) bool { return unitColumn.MatchString(h) })
	if c < 0 {
		return nil
	}
	var out []string
	for _, i := range rows {
		if u := s.cells[i][c]; !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// priceLine is row i's prices in the columns cols («Цена без НДС: 500,00 ₽; Цена с НДС:
// 500,00 ₽»), with the unit they are for when the sheet names one («за 1 000 руб. стоимости
// партии»: 1,20 ₽ alone would read as a price per item).
func (s *sheet) priceLine(i int, cols []int) string {
	var ps []string
	for _, c := range cols {
		ps = append(ps, strings.TrimSuffix(strings.TrimSpace(s.header[c]), ", руб.")+": "+ru.Money(moneyCell(s.cells[i][c])))
	}
	line := strings.Join(ps, "; ")
	if c := slices.IndexFunc(s.header, func(h string) bool { return unitColumn.MatchString(h) }); c >= 0 && strings.TrimSpace(s.cells[i][c]) != "" {
		line += " (за " + strings.TrimSpace(s.cells[i][c]) + ")"
	}
	return line
}

// unitColumn: a header cell of the unit of measure.
var unitColumn = regexp.MustCompile(`(?i)^\s*ед(\.|иниц)`)

// distinct is how many different values column c has.
func (s *sheet) distinct(c int) int {
	seen := map[string]bool{}
	for _, r := range s.cells {
		seen[cellKey(r[c])] = true
	}
	return len(seen)
}

// priceColumns are the columns of prices or sums whose every cell is an amount: the one without
// VAT first.
func (s *sheet) priceColumns() []int {
	var out []int
	for c, h := range s.header {
		if !priceColumn.MatchString(h) {
			continue
		}
		all := true
		for _, r := range s.cells {
			all = all && moneyCell(r[c]) >= 0
		}
		if all {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(x, y int) int {
		return boolInt(withVATColumn.MatchString(s.header[x])) - boolInt(withVATColumn.MatchString(s.header[y]))
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// moneyCell is a cell's amount in kopecks, or -1 when it is no amount («5 990,00», «5990»).
func moneyCell(c string) int64 {
	c = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(c), "₽"), "руб."))
	if c == "" || strings.ContainsAny(c, "%") {
		return -1
	}
	if !strings.Contains(c, ",") {
		c += ",00"
	}
	k, ok := kopecks(c)
	if !ok || k < 0 {
		return -1
	}
	return k
}

// cellKey is a cell as values compare: lower case, spaces collapsed, «ё» as «е».
func cellKey(c string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ToLower(c), "ё", "е")), " ")
}

// tableFor picks the table a question is about: the table of the best-ranked row of a document
// the question names (or of the best unit, when it is a row).
func tableFor(rds []*readDoc, hits []library.ClauseHit) *sheet {
	for i, h := range hits {
		if h.Unit.Kind != library.UnitRow || !(h.Named || i == 0) || h.Unit.Number == "" {
			continue
		}
		if s := sheetOf(h.Doc, rds[h.Doc].cd.Units, h.Unit.Lead); s != nil {
			return s
		}
	}
	// A document the question names that is a table and little else (a price list).
	for _, h := range hits {
		if !h.Named {
			continue
		}
		rows, lead := 0, ""
		for _, u := range rds[h.Doc].cd.Units {
			if u.Kind == library.UnitRow && u.Number != "" {
				rows++
				lead = cmp.Or(lead, u.Lead)
			}
		}
		if rows*2 > len(rds[h.Doc].cd.Units) && lead != "" {
			return sheetOf(h.Doc, rds[h.Doc].cd.Units, lead)
		}
		break
	}
	return nil
}

// tableAnswer answers a question about a table as a whole; ok is false for any other question,
// or when no table of the documents is what it asks about.
func tableAnswer(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit) (skill.Reply, bool) {
	cheap, dear := asksCheapest.MatchString(q.Text), asksDearest.MatchString(q.Text)
	if !cheap && !dear && asksWhichOfTwo.MatchString(q.Text) && len(orWord.Split(q.Text, -1)) == 2 {
		return whichOfTwo(q, rds, docs, hits)
	}
	count := asksRowCount.MatchString(q.Text)
	which := asksWhichRows.MatchString(q.Text)
	if _, dated := termMonth(q.Text, q.Now); dated && !q.Now.IsZero() && (askedDeadline.MatchString(q.Text) || askedWhen.MatchString(q.Text) || asksTermOf.MatchString(q.Text)) {
		return skill.Reply{}, false // «лизинговый платеж за ноябрь до какого числа»: a day to pay, not the rows of a kind
	}
	if !cheap && !dear && !count && !which {
		// «ставка ндс в прайсе»: a short question of a column's name and the table's asks the
		// values the column takes (or, naming one, the rows that have it) — as «какая …» does;
		// a row it names too makes it no such question (below)
		if len(strings.Fields(q.Text)) > 5 {
			return skill.Reply{}, false
		}
		if _, dated := termMonth(q.Text, q.Now); dated && !q.Now.IsZero() {
			return skill.Reply{}, false // «лизинговый платеж за январь»: a schedule's row by its date, not the rows of a kind
		}
		which = true
	}
	s := tableFor(rds, hits)
	if s == nil {
		return skill.Reply{}, false
	}
	d := docs[s.doc].Meta
	qt := termSet(retrieval.Tokens(q.Text))
	// The question's words as written, «нет ндс» read as a price list writes it («без НДС»).
	qw := map[string]bool{}
	for _, w := range strings.FieldsFunc(cellKey(noVAT.ReplaceAllString(q.Text, "${1}без ндс")), notWordRune) {
		qw[w] = true
	}
	// The question's words that name rows: not how it asks, not a header's, not the document's.
	title := termSet(retrieval.Tokens(d.Title + " " + rds[s.doc].header.Title))
	acronyms := termSet(library.Acronyms(d.Title + " " + d.FileName + " " + rds[s.doc].header.Title)) // «итд»: whose table, not which rows
	var rowTerms []string
	headerTerms := map[string]bool{}
	for _, h := range s.header {
		for _, t := range retrieval.Tokens(h) {
			headerTerms[t] = true
		}
	}
	var asWritten []string                         // the row terms as the question writes them («ибп», «ноутбуки»)
	rowOwn := make([]map[string]bool, len(s.rows)) // each row's terms, read once
	for i, u := range s.rows {
		rowOwn[i] = termSet(retrieval.Tokens(u.Text))
	}
	rowsWith := func(t string) int {
		n := 0
		for _, own := range rowOwn {
			if own[t] {
				n++
			}
		}
		return n
	}
	for _, w := range strings.FieldsFunc(q.Text, notWordRune) {
		for _, t := range retrieval.Tokens(w) {
			// a word of the title names rows too when some rows have it («перевозка» of «Тарифы
			// перевозки»), not when none or all do
			n := rowsWith(t)
			titleOnly := title[t] && (n == 0 || n == len(s.rows))
			if !tableWords[t] && !headerTerms[t] && !titleOnly && !acronyms[t] && !library.QuestionWord(t) && !slices.Contains(rowTerms, t) {
				rowTerms = append(rowTerms, t)
				asWritten = append(asWritten, strings.ToLower(w))
			}
		}
	}
	holds := func(i int) bool {
		for _, t := range rowTerms {
			if !rowOwn[i][t] {
				return false
			}
		}
		return true
	}
	name := s.nameColumn()
	code := s.codeColumn(name)
	label := func(i int) string {
		if name < 0 {
			return s.rows[i].Text
		}
		if code >= 0 {
			return s.cells[i][code] + " " + s.cells[i][name] // «ДП-04 Настройка интеграции…»: as the sheet's rows are known
		}
		return s.cells[i][name]
	}
	prices := s.priceColumns()
	priced := func(i int) string { return s.priceLine(i, prices) }
	place := func(i int) string { return unitPlace(s.rows[i], d) }
	esc := md.Escape
	r := skill.Reply{Sources: []facts.Source{{Title: d.Title}}, Quoted: []string{d.ID}}
	var b strings.Builder
	switch {
	case cheap != dear && len(prices) > 0:
		var rows []int
		for i := range s.rows {
			if holds(i) {
				rows = append(rows, i)
			}
		}
		if len(rows) == 0 || len(rowTerms) == 0 && len(rows) < len(s.rows) {
			return skill.Reply{}, false
		}
		if name >= 0 {
			// «самая дорогая ткань»: the rows that are a fabric («Ткань сигнальная …»), not one
			// that only mentions it («Протокол лабораторных испытаний ткани») — when some are
			heads := slices.DeleteFunc(slices.Clone(rows), func(i int) bool {
				ts := retrieval.Tokens(s.cells[i][name])
				return len(ts) == 0 || !slices.Contains(rowTerms, ts[0])
			})
			if len(heads) > 0 {
				rows = heads
			}
		}
		col := prices[0]
		if asksGross.MatchString(q.Text) {
			col = prices[len(prices)-1]
		}
		slices.SortStableFunc(rows, func(x, y int) int {
			a, b := moneyCell(s.cells[x][col]), moneyCell(s.cells[y][col])
			if dear {
				a, b = b, a
			}
			return int(min(max(a-b, -1), 1))
		})
		what := "Самая низкая цена"
		if dear {
			what = "Самая высокая цена"
		}
		if len(rowTerms) > 0 {
			what += fmt.Sprintf(" среди %d %s «%s»", len(rows), ru.Plural(len(rows), "позиции", "позиций", "позиций"), strings.Join(asWritten, " "))
		}
		fmt.Fprintf(&b, "%s: **%s** — %s [1]\n\n", esc(what), esc(label(rows[0])), esc(priced(rows[0])+", "+place(rows[0])))
		if us := s.unitsOf(rows); len(us) > 1 {
			// «за час» and «за км» compare no prices
			if len(us) > 4 {
				us = append(us[:4], "…")
			}
			b.WriteString(esc("Цены указаны за разные единицы ("+strings.Join(us, ", ")+"): сравнивайте с учётом объёма.") + "\n\n")
		}
		if len(rows) > 1 {
			b.WriteString(esc("Остальные по порядку:") + "\n")
			for _, i := range rows[1:min(len(rows), 6)] {
				fmt.Fprintf(&b, "- %s — %s\n", esc(label(i)), esc(priced(i)+", "+place(i)))
			}
			if len(rows) > 6 {
				b.WriteString(esc(fmt.Sprintf("…и ещё %d.", len(rows)-6)) + "\n")
			}
		}
	case count && len(rowTerms) == 0:
		fmt.Fprintf(&b, "В таблице «%s» **%d** %s [1]", esc(d.Title), len(s.rows), esc(ru.Plural(len(s.rows), "позиция", "позиции", "позиций")))
	case which:
		// A value of a column of few values, that the question names whole («без ндс»): the rows
		// that have it. A column the question names with no value: the values it takes.
		col, val := -1, ""
		for c := range s.header {
			if c == name || s.distinct(c)*2 > len(s.rows) {
				continue
			}
			for _, cs := range s.cells {
				v := cellKey(cs[c])
				ws := strings.FieldsFunc(v, notWordRune)
				if len(ws) == 0 || !slices.ContainsFunc(ws, func(w string) bool { return strings.IndexFunc(w, func(x rune) bool { return x > '9' }) >= 0 }) {
					continue // «22%» is a figure the question may count with, not a value it names
				}
				all := true
				for _, w := range ws {
					all = all && qw[w]
				}
				if all && len(v) > len(val) {
					col, val = c, v
				}
			}
		}
		if col >= 0 && len(rowTerms) > 0 {
			for i, cs := range s.cells {
				if holds(i) && cellKey(cs[col]) != val {
					// «кефир 1% цена без ндс»: a row named whose value is another — «без ндс»
					// asks its price without VAT, not the rows without it
					return skill.Reply{}, false
				}
			}
		}
		switch {
		case col >= 0:
			var rows []int
			for i, cs := range s.cells {
				if cellKey(cs[col]) == val {
					rows = append(rows, i)
				}
			}
			fmt.Fprintf(&b, "%s [1]\n", esc(fmt.Sprintf("«%s» = «%s» — %d %s из %d:", strings.TrimSpace(s.header[col]), s.cells[rows[0]][col], len(rows),
				ru.Plural(len(rows), "позиция", "позиции", "позиций"), len(s.rows))))
			for _, i := range rows[:min(len(rows), 10)] {
				fmt.Fprintf(&b, "- **%s** — %s\n", esc(label(i)), esc(priced(i)+", "+place(i)))
			}
			if len(rows) > 10 {
				b.WriteString(esc(fmt.Sprintf("…и ещё %d.", len(rows)-10)) + "\n")
			}
		default:
			named := -1
			for c, h := range s.header {
				ts := retrieval.Tokens(h)
				if c == name || len(ts) == 0 || s.distinct(c)*2 > len(s.rows) {
					continue
				}
				all, some := true, false // «Ед.»: a header of short words alone names nothing
				for _, t := range ts {
					all = all && (qt[t] || len([]rune(t)) < 3)
					some = some || qt[t] && len([]rune(t)) >= 3
				}
				if all && some {
					named = c
				}
			}
			if named < 0 || len(rowTerms) > 0 {
				return skill.Reply{}, false
			}
			type value struct {
				v    string
				rows []int
			}
			var vs []value
			for i, cs := range s.cells {
				k := slices.IndexFunc(vs, func(x value) bool { return cellKey(x.v) == cellKey(cs[named]) })
				if k < 0 {
					vs = append(vs, value{v: cs[named]})
					k = len(vs) - 1
				}
				vs[k].rows = append(vs[k].rows, i)
			}
			slices.SortStableFunc(vs, func(x, y value) int { return len(y.rows) - len(x.rows) })
			fmt.Fprintf(&b, "%s [1]\n", esc(fmt.Sprintf("«%s» в таблице «%s»:", strings.TrimSpace(s.header[named]), d.Title)))
			for _, v := range vs {
				line := fmt.Sprintf("- **%s** — %d %s", esc(v.v), len(v.rows), esc(ru.Plural(len(v.rows), "позиция", "позиции", "позиций")))
				if len(v.rows) <= 3 && len(v.rows)*2 < len(s.rows) {
					var ls []string
					for _, i := range v.rows {
						ls = append(ls, label(i)+" ("+place(i)+")")
					}
					line += ": " + esc(strings.Join(ls, "; "))
				}
				b.WriteString(line + "\n")
			}
		}
	default:
		return skill.Reply{}, false
	}
	r.Text = strings.TrimSpace(b.String())
	return r, true
}

// termSet is the set of terms ts.
func termSet(ts []string) map[string]bool {
	out := make(map[string]bool, len(ts))
	for _, t := range ts {
		out[t] = true
	}
	return out
}

// whichOfTwo answers which of two rows a question names one «или» the other is cheaper or
// dearer («что дешевле оксфорд 240 или 600»): each side's words pick its rows (a side of a
// figure alone takes the other side's words — «600» is «оксфорд 600»; «240» is «240D» of a
// model's name), and the two are compared by the first price column (with VAT when asked). A
// side that picks no row, or rows of different prices, gets no verdict: nothing is compared
// that the table does not state.
func whichOfTwo(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit) (skill.Reply, bool) {
	s := tableFor(rds, hits)
	if s == nil {
		return skill.Reply{}, false
	}
	prices := s.priceColumns()
	// a specification's unit prices, not its sums of quantity × price
	if unit := slices.DeleteFunc(slices.Clone(prices), func(c int) bool { return !unitPrice.MatchString(s.header[c]) }); len(unit) > 0 {
		prices = unit
	}
	if len(prices) == 0 {
		return skill.Reply{}, false
	}
	d := docs[s.doc].Meta
	title := termSet(retrieval.Tokens(d.Title + " " + rds[s.doc].header.Title))
	rowOwn := make([]map[string]bool, len(s.rows))
	for i, u := range s.rows {
		rowOwn[i] = termSet(retrieval.Tokens(u.Text))
		for t := range rowOwn[i] {
			// a model's number with its letters («240d», «600d») is also the number alone
			if j := strings.IndexFunc(t, func(r rune) bool { return r < '0' || r > '9' }); j > 0 {
				rowOwn[i][t[:j]] = true
			}
		}
	}
	headerTerms := map[string]bool{}
	for _, h := range s.header {
		for _, t := range retrieval.Tokens(h) {
			headerTerms[t] = true
		}
	}
	known := func(t string) bool {
		return slices.ContainsFunc(rowOwn, func(own map[string]bool) bool { return own[t] })
	}
	// Each side's words that name rows: not how the question asks, not the table's title.
	sideTerms := func(text string) []string {
		var out []string
		for _, t := range retrieval.Tokens(text) {
			if tableWords[t] || headerTerms[t] || title[t] && !known(t) || library.QuestionWord(t) || !known(t) {
				continue
			}
			out = append(out, t)
		}
		return out
	}
	parts := orWord.Split(q.Text, 2)
	left, right := sideTerms(parts[0]), sideTerms(parts[1])
	numeric := func(ts []string) bool {
		return len(ts) > 0 && !slices.ContainsFunc(ts, func(t string) bool { return strings.IndexFunc(t, unicode.IsLetter) >= 0 })
	}
	switch {
	case numeric(right) && !numeric(left):
		for _, t := range left {
			if strings.IndexFunc(t, unicode.IsLetter) >= 0 {
				right = append(right, t) // «оксфорд 240 или 600»: «600» is «оксфорд 600»
			}
		}
	case numeric(left) && !numeric(right):
		for _, t := range right {
			if strings.IndexFunc(t, unicode.IsLetter) >= 0 {
				left = append(left, t)
			}
		}
	}
	rowsOf := func(ts []string) []int {
		if len(ts) == 0 {
			return nil
		}
		var out []int
		for i := range s.rows {
			all := true
			for _, t := range ts {
				all = all && rowOwn[i][t]
			}
			if all {
				out = append(out, i)
			}
		}
		return out
	}
	a, b := rowsOf(left), rowsOf(right)
	if len(a) == 0 || len(b) == 0 || slices.ContainsFunc(a, func(i int) bool { return slices.Contains(b, i) }) {
		return skill.Reply{}, false
	}
	col := prices[0]
	if asksGross.MatchString(q.Text) {
		col = prices[len(prices)-1]
	}
	price := func(rows []int) (int64, bool) {
		p := moneyCell(s.cells[rows[0]][col])
		for _, i := range rows[1:] {
			if moneyCell(s.cells[i][col]) != p {
				return 0, false
			}
		}
		return p, p >= 0
	}
	name := s.nameColumn()
	label := func(i int) string {
		if name < 0 {
			return s.rows[i].Text
		}
		return s.cells[i][name]
	}
	line := func(i int) string { return s.priceLine(i, prices) + ", " + unitPlace(s.rows[i], d) }
	esc := md.Escape
	r := skill.Reply{Sources: []facts.Source{{Title: d.Title}}, Quoted: []string{d.ID}}
	var out strings.Builder
	pa, oka := price(a)
	pb, okb := price(b)
	side := func(rows []int) {
		for _, i := range rows[:min(len(rows), 3)] {
			fmt.Fprintf(&out, "- **%s** — %s\n", esc(label(i)), esc(line(i)))
		}
		if len(rows) > 3 {
			out.WriteString(esc(fmt.Sprintf("…и ещё %d.", len(rows)-3)) + "\n")
		}
	}
	column := strings.TrimSuffix(strings.TrimSpace(s.header[col]), ", руб.")
	if !oka || !okb || pa == pb {
		what := "Цены по таблице «" + d.Title + "»"
		if oka && okb && pa == pb {
			what = "Цена одинаковая (" + column + ": " + ru.Money(pa) + ")"
		}
		fmt.Fprintf(&out, "%s: [1]\n", esc(what))
		side(a)
		side(b)
		r.Text = strings.TrimSpace(out.String())
		return r, true
	}
	lo, hi, plo, phi := a, b, pa, pb
	if pb < pa {
		lo, hi, plo, phi = b, a, pb, pa
	}
	verdict := "Дешевле"
	first, second := lo, hi
	if strings.Contains(strings.ToLower(q.Text), "дороже") {
		verdict, first, second = "Дороже", hi, lo
	}
	fmt.Fprintf(&out, "%s — **%s**: %s [1]\n\n", verdict, esc(label(first[0])), esc(line(first[0])))
	fmt.Fprintf(&out, "%s\n", esc(fmt.Sprintf("Против %s у «%s» (%s); разница %s.", ru.Money(map[bool]int64{true: phi, false: plo}[verdict == "Дешевле"]),
		label(second[0]), unitPlace(s.rows[second[0]], d), ru.Money(phi-plo))))
	if us := s.unitsOf(append(slices.Clone(a), b...)); len(us) > 1 {
		out.WriteString("\n" + esc("Цены указаны за разные единицы ("+strings.Join(us, ", ")+"): сравнивайте с учётом объёма.") + "\n")
	}
	r.Text = strings.TrimSpace(out.String())
	return r, true
}
