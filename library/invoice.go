package library

import (
	"math/big"
	"regexp"
	"strings"

	"github.com/finbot/finbot/ru"
)

// An invoice's goods line read from its text — a УПД, a счёт-фактура, a товарная накладная whose
// table a PDF's text layer prints as a line of words and figures, no cells: «1 ТП-0412 Плёнка
// стрейч 500 мм × 20 мкм, рулон 300 м — 736 рул 120 412,50 49 500,00 без акциза 22% 10 890,00
// 60 390,00 —». Digit groups are spaced as thousands are («2 400 58,35 140 040,00»), so which
// figures are the quantity, the price and the sum is read by the arithmetic that binds them:
// quantity × price = sum without VAT, that sum × the rate = the VAT, the two = the total.

// InvoiceLine is a goods line's figures, amounts in kopecks.
type InvoiceLine struct {
	Quantity *big.Rat
	Price    int64 // without VAT, per unit
	Net      int64 // the sum without VAT
	// Rate is the VAT rate as the line writes it («22%», «без НДС»); VAT and Gross its VAT and the
	// sum with it (VAT is 0 and Gross = Net for a line without VAT).
	Rate       string
	VAT, Gross int64
}

var (
	// lineRate: the line's VAT rate: «22%», «10 %», «0%», «без НДС».
	lineRate = regexp.MustCompile(`(?i)(?:^|\s)(\d{1,2}\s?%|без\s+ндс)(?:\s|$)`)
	// lastGroup, wholeAmount: an amount's last digit group with its kopecks; an amount written
	// without spaces.
	lastGroup   = regexp.MustCompile(`^\d{1,3},\d{2}$`)
	wholeAmount = regexp.MustCompile(`^\d+,\d{2}$`)
	// figureToken: a token of a figure: a digit group, or one with a decimal comma.
	figureToken = regexp.MustCompile(`^\d+(?:,\d+)?$`)
)

// ReadInvoiceLine reads the figures of a goods line; ok is false when no reading makes quantity ×
// price = sum and, for a line with a rate, sum × rate = VAT and sum + VAT = total (to the kopeck).
func ReadInvoiceLine(text string) (InvoiceLine, bool) {
	loc := lineRate.FindStringSubmatchIndex(text)
	if loc == nil {
		return InvoiceLine{}, false
	}
	rate := strings.TrimSpace(text[loc[2]:loc[3]])
	pct, exempt, ok := rateOf(rate)
	if !ok {
		return InvoiceLine{}, false
	}
	after := figuresAfter(text[loc[3]:])
	var found InvoiceLine
	readGoods(text[:loc[2]], func(qty *big.Rat, price, net int64) bool {
		l := InvoiceLine{Quantity: qty, Price: price, Net: net, Rate: rate, Gross: net}
		if exempt {
			found, ok = l, true
			return true
		}
		if vat, gross, bound := vatAfter(after, net, pct); bound {
			l.VAT, l.Gross = vat, gross
			found, ok = l, true
			return true
		}
		return false
	})
	if found.Quantity == nil {
		return InvoiceLine{}, false
	}
	return found, true
}

// ReadInvoiceLineAsPrinted reads a goods line as it is printed, so that a wrong figure can be
// named: quantity × price = sum must bind as ReadInvoiceLine reads them, but the VAT and the
// total after the rate are taken as written — each amount closed by its kopecks — whether or not
// they add up (VATRead and GrossRead say which were there). A line with no rate ends with its
// sum (Rate ""). A line whose VAT binds reads as ReadInvoiceLine reads it. ok is false when no
// reading makes quantity × price = sum.
func ReadInvoiceLineAsPrinted(text string) (l InvoiceLine, printed Printed, ok bool) {
	if l, ok := ReadInvoiceLine(text); ok {
		return l, Printed{VAT: !strings.Contains(strings.ToLower(l.Rate), "без"), Gross: true}, true
	}
	rate, before, rest := "", text, ""
	if loc := lineRate.FindStringSubmatchIndex(text); loc != nil {
		rate, before, rest = strings.TrimSpace(text[loc[2]:loc[3]]), text[:loc[2]], text[loc[3]:]
	}
	_, exempt, rateOK := rateOf(rate)
	if rate != "" && !rateOK {
		return InvoiceLine{}, Printed{}, false
	}
	amounts := amountsByKopecks(figuresAfter(rest))
	readGoods(before, func(qty *big.Rat, price, net int64) bool {
		l, ok = InvoiceLine{Quantity: qty, Price: price, Net: net, Rate: rate, Gross: net}, true
		return true
	})
	if !ok {
		return InvoiceLine{}, Printed{}, false
	}
	switch {
	case rate == "":
	case exempt && len(amounts) > 0:
		l.Gross, printed.Gross = amounts[len(amounts)-1], true
	case !exempt && len(amounts) >= 2:
		l.VAT, l.Gross, printed.VAT, printed.Gross = amounts[0], amounts[1], true, true
	case !exempt && len(amounts) == 1:
		l.VAT, l.Gross, printed.VAT = amounts[0], l.Net+amounts[0], true
	}
	return l, printed, true
}

// Printed says which of a line's figures after its rate were printed (and read).
type Printed struct{ VAT, Gross bool }

// rateOf reads a rate as lineRate finds it: the percentage, or exempt for «без НДС».
func rateOf(rate string) (pct *big.Rat, exempt, ok bool) {
	if strings.Contains(strings.ToLower(rate), "без") {
		return nil, true, true
	}
	pct, ok = new(big.Rat).SetString(strings.TrimSpace(strings.TrimSuffix(strings.ReplaceAll(rate, " ", ""), "%")))
	return pct, false, ok
}

// readGoods offers each reading of the figures at the end of text as quantity, price and sum
// with quantity × price = sum, from the right, until take returns true.
func readGoods(text string, take func(qty *big.Rat, price, net int64) bool) {
	before := figuresBefore(text)
	before = before[max(0, len(before)-10):] // quantity, price and sum: ten digit groups at most
	// The last three figures are quantity, price and sum, each one or more digit groups; try
	// every split, from the right.
	for netLen := 1; netLen <= 4 && netLen <= len(before); netLen++ {
		net, ok := amountOf(before[len(before)-netLen:])
		if !ok {
			continue
		}
		rest := before[:len(before)-netLen]
		for priceLen := 1; priceLen <= 3 && priceLen <= len(rest); priceLen++ {
			price, ok := amountOf(rest[len(rest)-priceLen:])
			if !ok {
				continue
			}
			qrest := rest[:len(rest)-priceLen]
			for qtyLen := 1; qtyLen <= 3 && qtyLen <= len(qrest); qtyLen++ {
				qty, ok := quantityOf(qrest[len(qrest)-qtyLen:])
				if !ok || qty.Sign() <= 0 {
					continue
				}
				if ru.Kopecks(new(big.Rat).Mul(qty, big.NewRat(price, 100))) != net {
					continue
				}
				if take(qty, price, net) {
					return
				}
			}
		}
	}
}

// amountsByKopecks reads digit groups as amounts, each closed by the group with its kopecks:
// «1», «830,00», «10», «230,00» are 1 830,00 and 10 230,00. A group that breaks the pattern
// ends the reading.
func amountsByKopecks(fs []string) []int64 {
	var out []int64
	start := 0
	for i, g := range fs {
		if !strings.Contains(g, ",") {
			continue
		}
		a, ok := amountOf(fs[start : i+1])
		if !ok {
			return out
		}
		out = append(out, a)
		start = i + 1
	}
	return out
}

// figuresBefore are the figure tokens at the end of text, in order (the words before them cut).
func figuresBefore(text string) []string {
	fs := strings.Fields(text)
	i := len(fs)
	for i > 0 && figureToken.MatchString(fs[i-1]) {
		i--
	}
	// skip a word between the sum and the rate («без акциза»)
	if i == len(fs) {
		j := len(fs)
		for j > 0 && !figureToken.MatchString(fs[j-1]) && len(fs)-j < 3 {
			j--
		}
		i = j
		for i > 0 && figureToken.MatchString(fs[i-1]) {
			i--
		}
		return fs[i:j]
	}
	return fs[i:]
}

// figuresAfter are the figure tokens at the start of text.
func figuresAfter(text string) []string {
	fs := strings.Fields(text)
	i := 0
	for i < len(fs) && figureToken.MatchString(fs[i]) {
		i++
	}
	return fs[:i]
}

// vatAfter reads the VAT and the total after the rate: their digit groups split so that net ×
// rate = VAT (rounded to the kopeck) and net + VAT = total.
func vatAfter(fs []string, net int64, pct *big.Rat) (int64, int64, bool) {
	fs = fs[:min(len(fs), 8)] // the VAT and the total are three digit groups each at most
	want := ru.Kopecks(new(big.Rat).Mul(big.NewRat(net, 100), new(big.Rat).Quo(pct, big.NewRat(100, 1))))
	for k := 1; k < len(fs); k++ {
		vat, ok1 := amountOf(fs[:k])
		for m := k + 1; m <= len(fs); m++ {
			gross, ok2 := amountOf(fs[k:m])
			if ok1 && ok2 && vat == want && gross == net+vat {
				return vat, gross, true
			}
		}
	}
	return 0, 0, false
}

// amountOf reads digit groups as one amount with kopecks: «49», «500,00» is 49 500,00; only the
// last group has the comma, the others have three digits (the first one to three).
func amountOf(groups []string) (int64, bool) {
	var b strings.Builder
	for i, g := range groups {
		last := i == len(groups)-1
		switch {
		case last && !lastGroup.MatchString(g) && !(len(groups) == 1 && wholeAmount.MatchString(g)):
			return 0, false
		case !last && strings.Contains(g, ","):
			return 0, false
		case i > 0 && !last && len(g) != 3, i == 0 && !last && len(g) > 3:
			return 0, false
		}
		b.WriteString(g)
	}
	k, ok := new(big.Rat).SetString(strings.ReplaceAll(b.String(), ",", "."))
	if !ok {
		return 0, false
	}
	return ru.Kopecks(k), true
}

// quantityOf reads digit groups as a quantity: «2 400», «120», «1,5».
func quantityOf(groups []string) (*big.Rat, bool) {
	for i, g := range groups {
		if i > 0 && (len(strings.SplitN(g, ",", 2)[0]) != 3) || i == 0 && len(groups) > 1 && len(g) > 3 ||
			strings.Contains(g, ",") && i != len(groups)-1 {
			return nil, false
		}
	}
	return new(big.Rat).SetString(strings.ReplaceAll(strings.Join(groups, ""), ",", "."))
}
