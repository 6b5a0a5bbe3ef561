// Package primary reads a primary document — a счёт на оплату, a УПД, an акт, a товарная
// накладная — from its recognised text (OCR of a photo or a scan), and checks what it read: the
// ИНН's check digits, quantity × price = sum in each line, the VAT of each line and of the whole
// at its rate, the total against the lines. A till receipt is told as such, and so is a picture
// with no text to speak of.
//
// OCR noise is normalised only where a figure's shape leaves no doubt (a kopecks separator read as
// «;» or «.», a thousands dot, «О» for 0 inside a figure); a field that cannot be read for sure is
// left unread, never guessed: its zero value, reported as not read.
package primary

import (
	"math/big"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// Kind is what the document is.
type Kind string

const (
	Unknown    Kind = ""
	Invoice    Kind = "invoice"     // счёт на оплату
	UPD        Kind = "upd"         // универсальный передаточный документ
	VATInvoice Kind = "vat_invoice" // счёт-фактура
	Act        Kind = "act"         // акт (об оказании услуг, выполненных работ)
	Waybill    Kind = "waybill"     // товарная накладная (ТОРГ-12)
	Receipt    Kind = "receipt"     // кассовый чек
	// Reconciliation is an act of reconciliation (акт сверки взаиморасчётов): no primary document,
	// its lines are compared with 1C's (agent/reconcile), not checked here.
	Reconciliation Kind = "reconciliation"
)

// Name is the kind as a heading says it: «Счёт на оплату», «УПД».
func (k Kind) Name() string {
	switch k {
	case Invoice:
		return "Счёт на оплату"
	case UPD:
		return "УПД"
	case VATInvoice:
		return "Счёт-фактура"
	case Act:
		return "Акт"
	case Waybill:
		return "Товарная накладная"
	case Receipt:
		return "Кассовый чек"
	case Reconciliation:
		return "Акт сверки"
	}
	return "Документ"
}

// Party is a seller or a buyer as the document names it; empty fields were not read.
type Party struct {
	Name, INN, KPP string
}

// Line is a goods line. Read is false when its quantity, price and sum could not be bound by
// quantity × price = sum: only Text is then known.
type Line struct {
	No       int
	Name     string
	Unit     string
	Quantity *big.Rat
	Price    int64 // kopecks
	Net      int64 // the sum before VAT as printed (or the sum of a line with no VAT column)
	// Rate as normalised: "22%", "10%", "0%", "без НДС", "" for none printed.
	Rate       string
	VAT, Gross int64
	// VATRead and GrossRead: those figures were printed and read.
	VATRead, GrossRead bool
	Read               bool
	Text               string // the line as recognised (normalised)
}

// Totals are the document's totals; a figure whose flag is false was not read.
type Totals struct {
	Net, VAT, Gross          int64
	HasNet, HasVAT, HasGross bool
	// Rate is the rate the totals name («НДС 22%»), "без НДС" when the document says there is
	// none; "" when not named.
	Rate string
	// Included: the VAT is «в том числе» — inside the total, not on top.
	Included bool
}

// Till is what a till receipt shows.
type Till struct {
	Total      int64
	HasTotal   bool
	FN, FD, FP string
}

// Document is what was read.
type Document struct {
	Kind   Kind
	Number string
	Date   time.Time // zero: not read
	Seller Party
	Buyer  Party
	Lines  []Line
	Totals Totals
	Till   Till
	// Letters counts the letters recognised: a page with very few is no document.
	Letters int
}

// Unreadable reports whether the text is too little to be a document.
func (d Document) Unreadable() bool {
	return d.Kind != Receipt && d.Letters < 40 && len(d.Lines) == 0 && !d.Totals.HasGross
}

// Parse reads a document from its recognised text (pages joined by blank lines).
func Parse(text string) Document {
	var d Document
	raw := strings.Split(text, "\n")
	lines := make([]string, 0, len(raw))
	for _, l := range raw {
		for _, r := range l {
			if unicode.IsLetter(r) {
				d.Letters++
			}
		}
		if n := normalize(l); n != "" {
			lines = append(lines, n)
		}
	}
	low := strings.ToLower(strings.Join(lines, "\n"))
	d.Kind = kindOf(low)
	if d.Kind == Receipt {
		d.Till = tillOf(lines)
		return d
	}
	d.Number, d.Date = titleOf(lines)
	d.Seller, d.Buyer = partiesOf(lines)
	inTable := make([]bool, len(lines))
	for i, l := range lines {
		if gl, ok := goodsLine(l); ok {
			d.Lines = append(d.Lines, gl)
			inTable[i] = true
		}
	}
	d.Totals = totalsOf(lines, inTable)
	return d
}

// ---- normalisation ----

var (
	// kopecksSep: «175 000;:00», «8 400.00» — the separator before the kopecks misread; the
	// figure must not go on as a date does («02.03.2026»).
	kopecksSep = regexp.MustCompile(`(\d)\s?[.;:,]{1,3}\s?(\d{2})([^\d.,]|$)`)
	// thousandsDot: «105.829,58» — a dot between digit groups.
	thousandsDot = regexp.MustCompile(`(\d)[.'](\d{3})([ ,]|$)`)
	// gluedPercent: «22%105 829,58».
	gluedPercent = regexp.MustCompile(`(\d)\s?%\s?(\d)`)
	// noVAT: «без НДС», «без.НДС», «Без налога (НДС)».
	noVAT = regexp.MustCompile(`(?i)без\W{0,3}(?:ндс|налога\W{0,3}\(?ндс\)?)`)
	// lookalikes are letters OCR reads for digits inside a figure.
	lookalikes = strings.NewReplacer("О", "0", "O", "0", "о", "0", "o", "0", "З", "3", "з", "3", "l", "1", "I", "1", "|", "1", "б", "6", "Б", "6")
	figureLike = regexp.MustCompile(`^[0-9ОOоoЗзlI|бБ]*[0-9][0-9ОOоoЗзlI|бБ]*(?:[,.][0-9ОOоoЗз]{2})?$`)
)

// normalize cleans one recognised line: noise tokens dropped, figures mended where their
// shape leaves no doubt.
func normalize(line string) string {
	var toks []string
	for _, t := range strings.Fields(line) {
		t = strings.Trim(t, "`'‘’^_|°•.:;·~")
		if t == "" || !strings.ContainsFunc(t, func(r rune) bool {
			return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '%' || r == '№' || r == '='
		}) {
			continue
		}
		if figureLike.MatchString(t) && strings.ContainsAny(t, "0123456789") && len([]rune(t)) > 1 {
			t = lookalikes.Replace(t)
		}
		toks = append(toks, t)
	}
	s := strings.Join(toks, " ")
	s = gluedPercent.ReplaceAllString(s, "$1% $2")
	s = noVAT.ReplaceAllString(s, "без НДС")
	for range 2 { // overlapping matches
		s = kopecksSep.ReplaceAllString(s, "$1,$2$3")
		s = thousandsDot.ReplaceAllString(s, "$1 $2$3")
	}
	return s
}

// ---- kind, title ----

// has reports whether low holds word as a word (Cyrillic-aware boundaries).
func has(low, word string) bool {
	for i := 0; ; {
		j := strings.Index(low[i:], word)
		if j < 0 {
			return false
		}
		j += i
		before, after := rune(' '), rune(' ')
		if j > 0 {
			before = lastRune(low[:j])
		}
		if k := j + len(word); k < len(low) {
			after = []rune(low[k:])[0]
		}
		if !unicode.IsLetter(before) && !unicode.IsLetter(after) {
			return true
		}
		i = j + len(word)
	}
}

func lastRune(s string) rune {
	r := []rune(s)
	return r[len(r)-1]
}

func kindOf(low string) Kind {
	low = strings.ReplaceAll(low, "ё", "е")
	switch {
	case has(low, "кассовый чек") || (has(low, "фн") && has(low, "фд")) || has(low, "фп") && strings.Contains(low, "итог"):
		return Receipt
	case strings.Contains(low, "акт сверки") || strings.Contains(low, "сверки взаимо"):
		return Reconciliation
	case strings.Contains(low, "универсальный передаточный") || has(low, "упд") ||
		strings.Contains(low, "счет-фактура") && has(low, "статус"):
		return UPD
	case strings.Contains(low, "товарная накладная") || strings.Contains(low, "торг-12"):
		return Waybill
	case strings.Contains(low, "счет на оплату") || strings.Contains(low, "счет на оплат"):
		return Invoice
	case strings.Contains(low, "счет-фактура"):
		return VATInvoice
	case has(low, "акт"):
		return Act
	}
	return Unknown
}

var (
	// titleRe: «№ 28 от 02.03.2026», OCR's «Ne 28», «No 28», «N 28».
	titleRe  = regexp.MustCompile(`(?i)(?:№|N[eoº°]?|Nо)\s*([A-ZА-Я0-9][A-ZА-Я0-9/\-]*)\s+[оo0][тtf]\s+(.{6,24})`)
	dateNum  = regexp.MustCompile(`^(\d{1,2})[.,/](\d{1,2})[.,/](\d{4}|\d{2})`)
	dateWord = regexp.MustCompile(`^«?(\d{1,2})»?\s+([а-яё]+)\s+(\d{4})`)
)

// titleOf is the document's number and date from its first «№ … от …».
func titleOf(lines []string) (string, time.Time) {
	for _, l := range lines {
		m := titleRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		return m[1], dateOf(strings.TrimSpace(m[2]))
	}
	return "", time.Time{}
}

// dateOf reads «02.03.2026» or «2 марта 2026»; zero when it is no valid date.
func dateOf(s string) time.Time {
	var y, mo, d int
	if m := dateNum.FindStringSubmatch(s); m != nil {
		d, mo, y = atoi(m[1]), atoi(m[2]), atoi(m[3])
		if y < 100 {
			y += 2000
		}
	} else if m := dateWord.FindStringSubmatch(strings.ToLower(s)); m != nil {
		d, y = atoi(m[1]), atoi(m[3])
		for k := time.January; k <= time.December; k++ {
			if ru.MonthGenitive(k) == m[2] {
				mo = int(k)
			}
		}
	}
	if mo < 1 || mo > 12 || d < 1 || y < 2000 || y > 2100 {
		return time.Time{}
	}
	t := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d {
		return time.Time{} // 31.02
	}
	return t
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// ---- parties ----

var (
	sellerLabels = []string{"поставщик", "продавец", "исполнитель", "подрядчик", "грузоотправитель"}
	buyerLabels  = []string{"покупатель", "заказчик", "плательщик", "грузополучатель"}
	innRe        = regexp.MustCompile(`(?i)ИНН\s*(?:/\s*КПП)?\W{0,3}((?:\d\s?){9,11}\d)(?:\s*/\s*(\d{9}))?`)
	kppRe        = regexp.MustCompile(`(?i)КПП\W{0,3}([0-9]{4}[0-9A-Z]{2}[0-9]{3})`)
	innCut       = regexp.MustCompile(`(?i)[,;]?\s*(ИНН|КПП|адрес|р/с|тел).*$`)
)

// partiesOf finds the seller and the buyer by their labels; a label's ИНН and КПП are on its
// line or the next two (until another label).
func partiesOf(lines []string) (seller, buyer Party) {
	sellerRank, buyerRank := len(sellerLabels), len(buyerLabels)
	for i, l := range lines {
		low := strings.ToLower(l)
		for rank, lab := range sellerLabels {
			if rank < sellerRank && strings.HasPrefix(low, lab) {
				seller, sellerRank = partyAt(lines, i, lab), rank
			}
		}
		for rank, lab := range buyerLabels {
			if rank < buyerRank && strings.HasPrefix(low, lab) {
				buyer, buyerRank = partyAt(lines, i, lab), rank
			}
		}
	}
	return seller, buyer
}

func partyAt(lines []string, i int, label string) Party {
	var p Party
	rest := strings.TrimSpace(string([]rune(lines[i])[len([]rune(label)):]))
	rest = strings.TrimLeft(rest, ":;.- ")
	p.Name = cleanName(innCut.ReplaceAllString(rest, ""))
	for j := i; j < len(lines) && j <= i+2; j++ {
		if j > i && isLabel(lines[j]) {
			break
		}
		if m := innRe.FindStringSubmatch(lines[j]); m != nil && p.INN == "" {
			p.INN = strings.ReplaceAll(m[1], " ", "")
			if m[2] != "" {
				p.KPP = m[2]
			}
		}
		if m := kppRe.FindStringSubmatch(lines[j]); m != nil && p.KPP == "" {
			p.KPP = m[1]
		}
		if j > i && p.Name == "" {
			p.Name = cleanName(innCut.ReplaceAllString(lines[j], ""))
		}
	}
	return p
}

var (
	latinLike     = strings.NewReplacer("A", "А", "B", "В", "C", "С", "E", "Е", "H", "Н", "K", "К", "M", "М", "O", "О", "P", "Р", "T", "Т", "X", "Х", "a", "а", "c", "с", "e", "е", "o", "о", "p", "р", "x", "х", "y", "у")
	onlyLatinLike = regexp.MustCompile(`^[ABCEHKMOPTXacepoxy]+$`)
)

// cleanName mends a name as OCR reads it: «OOO» in Latin letters is «ООО», a dot glued to a
// quote («ООО.«Новый») is a space, a stray letter after the closing quote is noise.
func cleanName(s string) string {
	s = strings.ReplaceAll(s, ".«", " «")
	ws := strings.Fields(s)
	cyr := 0
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			cyr++
		}
	}
	for i, w := range ws {
		if cyr > 0 && onlyLatinLike.MatchString(w) {
			ws[i] = latinLike.Replace(w)
		}
	}
	if q := slices.IndexFunc(ws, func(w string) bool { return strings.HasSuffix(w, "»") }); q >= 0 && q < len(ws)-1 {
		tail := ws[q+1:]
		if len(tail) == 1 && len([]rune(tail[0])) <= 2 {
			ws = ws[:q+1]
		}
	}
	return strings.Join(ws, " ")
}

func isLabel(l string) bool {
	low := strings.ToLower(l)
	for _, lab := range append(append([]string{}, sellerLabels...), buyerLabels...) {
		if strings.HasPrefix(low, lab) {
			return true
		}
	}
	return false
}

// ---- goods lines ----

var (
	// lineStart: a goods line starts with its number: «1 », «2. », «3) ».
	lineStart = regexp.MustCompile(`^(\d{1,3})[.)]?\s+(.+)$`)
	hasKopeck = regexp.MustCompile(`\d,\d{2}(?:\s|$)`)
	units     = map[string]bool{"шт": true, "пач": true, "усл": true, "кг": true, "м": true, "л": true, "рул": true, "упак": true,
		"уп": true, "компл": true, "час": true, "ед": true, "т": true, "м2": true, "м3": true, "км": true, "мес": true, "пог": true, "набор": true}
)

// goodsLine reads a line of the goods table.
func goodsLine(l string) (Line, bool) {
	m := lineStart.FindStringSubmatch(l)
	if m == nil || !hasKopeck.MatchString(l) {
		return Line{}, false
	}
	gl := Line{No: atoi(m[1]), Text: l}
	// The name runs to the unit or the first figure.
	var name []string
	for _, w := range strings.Fields(m[2]) {
		bare := strings.ToLower(strings.TrimRight(w, ".,"))
		if units[bare] {
			gl.Unit = bare
			break
		}
		if w[0] >= '0' && w[0] <= '9' && len(name) > 0 && !strings.ContainsFunc(w, unicode.IsLetter) {
			break
		}
		name = append(name, w)
	}
	gl.Name = strings.Join(name, " ")
	il, printed, ok := library.ReadInvoiceLineAsPrinted(m[2])
	if !ok {
		return gl, true
	}
	gl.Read, gl.Quantity, gl.Price, gl.Net = true, il.Quantity, il.Price, il.Net
	gl.Rate = rateName(il.Rate)
	gl.VAT, gl.Gross, gl.VATRead, gl.GrossRead = il.VAT, il.Gross, printed.VAT, printed.Gross
	return gl, true
}

// rateName normalises a rate: «22 %» → «22%», «без ндс» → «без НДС».
func rateName(r string) string {
	if strings.Contains(strings.ToLower(r), "без") {
		return "без НДС"
	}
	return strings.ReplaceAll(r, " ", "")
}

// ---- totals ----

var (
	amountRe = regexp.MustCompile(`\d{1,3}(?: \d{3})+,\d{2}|\d+,\d{2}`)
	rateRe   = regexp.MustCompile(`(\d{1,2})\s?%`)
)

func amountsIn(s string) []int64 {
	var out []int64
	for _, a := range amountRe.FindAllString(s, -1) {
		r, ok := new(big.Rat).SetString(strings.ReplaceAll(strings.ReplaceAll(a, " ", ""), ",", "."))
		if ok {
			out = append(out, ru.Kopecks(r))
		}
	}
	return out
}

// totalsOf reads the totals from the lines outside the goods table.
func totalsOf(lines []string, inTable []bool) Totals {
	var t Totals
	grossRank := 0 // «к оплате» beats «итого»
	for i, l := range lines {
		if inTable[i] {
			continue
		}
		low := strings.ToLower(strings.ReplaceAll(l, "ё", "е"))
		if strings.Contains(low, "без ндс") && !strings.Contains(low, "итого") && !strings.Contains(low, "всего") && !strings.Contains(low, "сумма") {
			t.Rate = "без НДС"
		}
		a := amountsIn(l)
		if len(a) == 0 {
			continue
		}
		total := strings.Contains(low, "итого") || strings.Contains(low, "всего") || strings.Contains(low, "к оплате")
		switch {
		case total && len(a) == 3 && a[0]+a[1] == a[2]:
			t.Net, t.VAT, t.Gross, t.HasNet, t.HasVAT, t.HasGross = a[0], a[1], a[2], true, true, true
			grossRank = 3
		case total && strings.Contains(low, "без ндс"):
			t.Net, t.HasNet = a[len(a)-1], true
		case strings.Contains(low, "ндс") && !strings.Contains(low, "без ндс") && !strings.Contains(low, "с ндс"):
			t.VAT, t.HasVAT = a[len(a)-1], true
			t.Included = strings.Contains(low, "в том числе") || strings.Contains(low, "в т.ч") || strings.Contains(low, "втом числе")
			if m := rateRe.FindStringSubmatch(l); m != nil {
				t.Rate = m[1] + "%"
			}
		case total:
			rank := 1
			if strings.Contains(low, "к оплате") || strings.Contains(low, "с ндс") || strings.Contains(low, "на сумму") {
				rank = 2
			}
			if rank >= grossRank {
				t.Gross, t.HasGross, grossRank = a[len(a)-1], true, rank
			}
		}
	}
	return t
}

// ---- till receipts ----

var (
	tillTotal = regexp.MustCompile(`(?i)ИТОГ\W{0,3}=?\s*(\d{1,3}(?: \d{3})*,\d{2}|\d+,\d{2})`)
	tillFN    = regexp.MustCompile(`(?i)ФН\W{0,3}(\d{16})`)
	tillFD    = regexp.MustCompile(`(?i)ФД\W{0,3}(\d{1,10})`)
	tillFP    = regexp.MustCompile(`(?i)ФП\W{0,3}(\d{6,10})`)
)

func tillOf(lines []string) Till {
	var t Till
	for _, l := range lines {
		if m := tillTotal.FindStringSubmatch(l); m != nil && !t.HasTotal {
			if a := amountsIn(m[1]); len(a) == 1 {
				t.Total, t.HasTotal = a[0], true
			}
		}
		if m := tillFN.FindStringSubmatch(l); m != nil {
			t.FN = m[1]
		}
		if m := tillFD.FindStringSubmatch(l); m != nil {
			t.FD = m[1]
		}
		if m := tillFP.FindStringSubmatch(l); m != nil {
			t.FP = m[1]
		}
	}
	return t
}

// Normalize mends one recognised line as Parse does: noise tokens dropped, a figure's lookalike
// letters and misread separators mended only where its shape leaves no doubt. A reader of
// recognised tables (an act of reconciliation) applies it to each cell.
func Normalize(line string) string { return normalize(line) }
