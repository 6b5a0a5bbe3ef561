package passages

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// What a form comes to — «на какую сумму упд», «ндс по акту», «сумма спецификации с ндс»: the
// total the form itself states (its «Итого»/«Всего» lines or row, «на сумму …, в том числе НДС
// …»), read as the sum without VAT, the VAT and the sum with it, which must add up; the one asked
// opens the answer.

var (
	// formKind: a kind of form a question names, whose total it may ask.
	formKind = regexp.MustCompile(`(?i)(^|[^\p{L}])(акт\p{L}*|упд|сч[её]т\p{L}*|накладн\p{L}*|торг-?12|спецификац\p{L}*|смет\p{L}*)([^\p{L}]|$)`)
	// asksFormSum: the question asks a sum, not a count or a date.
	asksFormSum = regexp.MustCompile(`(?i)на\s+как\p{L}*\s+сумм|на\s+сколько|сумм\p{L}*|итог\p{L}*|всего|стоимост\p{L}*|(^|[^\p{L}])ндс([^\p{L}]|$)|сколько|скока`)
	// notFormSum: what the question asks instead of a total («сколько позиций», «акт сверки»).
	notFormSum = regexp.MustCompile(`(?i)позици|строк|наименован|сверк|когда|до\s+какого|срок|кто|подписа|дата|числа|долж|долг|остал|оплачен|оплатил|аванс`)
	// vatOnly: «ндс по акту» asks the VAT itself, not the sum with or without it.
	vatOnly = regexp.MustCompile(`(?i)(^|[^\p{L}])ндс([^\p{L}]|$)`)
	// withVAT: «с ндс», «с учётом ндс», «включая ндс».
	withVAT = regexp.MustCompile(`(?i)(^|[^\p{L}])(с|вкл\p{L}*|с\s+уч[её]том)\s+ндс`)
	// totalLine: a form's total («Итого без НДС: 245 100,00», «Всего к оплате», «НДС 22 %: …»,
	// «Общая стоимость Товара по Спецификации № 1 — …», «… на сумму 299 022,00 руб.»).
	totalLine = regexp.MustCompile(`(?i)^[\s|№\d.()]*(итого|всего|ндс|общая\s+стоимость|сумма\s+ндс)|на\s+сумму|в\s+(том\s+числе|т\.\s?ч\.)\s+ндс`)
	// midTotal: a total's label inside a line («… РОССИЯ — Всего к оплате (9) …»).
	midTotal = regexp.MustCompile(`(?i)(всего\s+к\s+оплате|итого\s+к\s+оплате)`)
	// netLabel, vatLabel, grossLabel: how a total line names its sum.
	netLabel = regexp.MustCompile(`(?i)(итого|всего|сумма)[^:]{0,20}без\s+(ндс|налога)`)
	vatLabel = regexp.MustCompile(`(?i)^[\s|]*(в\s+том\s+числе\s+|в\s+т\.\s?ч\.\s+)?(сумма\s+)?ндс\s*(\d{1,2}\s*%)?`)
	// exemptLine: the part of a form's total no VAT is charged on («Без НДС (залог за
	// возвратную тару): 10 000,00»): no sum of it is the form's.
	exemptLine = regexp.MustCompile(`(?i)^[\s|]*без\s+ндс`)
	grossLabel = regexp.MustCompile(`(?i)(с|включая)\s+(ндс|налогом)|к\s+оплате|^[\s|]*всего`)
)

// formTotals are a form's sums: without VAT, the VAT, with VAT; 0 when not read.
type formTotals struct {
	net, vat, gross int64
	// rates are the VAT by rate when the form charges several («НДС 10 %», «НДС 22 %»).
	rates []rateVAT
}

// rateVAT is the VAT a form charges at one rate.
type rateVAT struct {
	rate string
	k    int64
}

// docTotalFor is the line (Markdown) that states the total of the form the question names, with
// the units it reads it from; "" when the question asks no such sum, no best hit's document is a
// form of that kind, or its totals are missing, several or do not add up.
func docTotalFor(q Question, hits []library.ClauseHit, rds []*readDoc, docs []docstore.Doc) (string, []library.ClauseHit) {
	kind := formKind.FindStringSubmatch(q.Text)
	if kind == nil || !asksFormSum.MatchString(q.Text) || notFormSum.MatchString(q.Text) || len(hits) == 0 {
		return "", nil
	}
	stem := formStem(kind[2])
	// the best hits' documents, then those the question names by their titles
	var cands []library.ClauseHit
	for i, h := range hits {
		if (i < formHits || h.Named && h.Titled > 0) && !slices.ContainsFunc(cands, func(c library.ClauseHit) bool { return c.Doc == h.Doc }) {
			cands = append(cands, h)
		}
	}
	for _, h := range cands {
		rd, d := rds[h.Doc], docs[h.Doc]
		title := strings.ToLower(rd.header.Title + " " + d.Meta.Title)
		whole := strings.Contains(strings.ReplaceAll(title, "ё", "е"), strings.ReplaceAll(stem, "ё", "е"))
		var scope []library.Unit
		for _, u := range rd.cd.Units {
			if whole || strings.Contains(strings.ToLower(u.Section), stem) {
				scope = append(scope, u)
			}
		}
		if len(scope) == 0 {
			continue
		}
		if !namesNoLine(q, rd.header.Title+" "+d.Meta.Title+" "+scope[0].Section) {
			return "", nil // «короба сколько штук по упд»: a line of it, not its total
		}
		t, used, ok := totalsOf(scope)
		if !ok {
			continue // «акт сверки» has no sums with VAT: perhaps the act of services named too
		}
		name := d.Meta.Title // as the user named the file
		if !whole {
			name = strings.TrimSpace(scope[0].Section) + " (" + d.Meta.Title + ")"
		}
		esc := md.Escape
		byRate := "" // « (по ставке 10 % — …, по ставке 22 % — …)» when the form charges several
		if len(t.rates) > 1 {
			var parts []string
			for _, r := range t.rates {
				parts = append(parts, "по ставке "+r.rate+" — "+ru.Money(r.k))
			}
			byRate = " (" + strings.Join(parts, ", ") + ")"
		}
		vat := ru.Money(t.vat) + byRate
		var line string
		switch {
		case vatOnly.MatchString(q.Text) && !withVAT.MatchString(q.Text) && !withoutVAT.MatchString(q.Text) && t.vat > 0:
			line = esc("НДС по «"+name+"»: ") + "**" + esc(ru.Money(t.vat)) + "**" + esc(byRate) +
				esc(fmt.Sprintf(" (без НДС %s, с НДС %s).", ru.Money(t.net), ru.Money(t.gross)))
		case withoutVAT.MatchString(q.Text):
			line = esc("«"+name+"» без НДС: ") + "**" + esc(ru.Money(t.net)) + "**" + esc(fmt.Sprintf(" (НДС %s, с НДС %s).", vat, ru.Money(t.gross)))
		default:
			line = esc("Сумма «"+name+"»: ") + "**" + esc(ru.Money(t.gross)) + "**" + esc(fmt.Sprintf(" с НДС, в т.ч. НДС %s; без НДС %s.", vat, ru.Money(t.net)))
		}
		var quoted []library.ClauseHit
		for _, u := range used {
			quoted = append(quoted, library.ClauseHit{Doc: h.Doc, Unit: u})
		}
		return line, quoted
	}
	return "", nil
}

// formStem is the stem a form's kind shares with its title: «акта» — «акт», «счёта» — «сч»,
// «спецификации» — «специф».
func formStem(kind string) string {
	k := strings.ToLower(kind)
	for _, s := range []string{"акт", "упд", "сч", "наклад", "торг", "специф", "смет"} {
		if strings.HasPrefix(k, s) {
			return s
		}
	}
	return k
}

// formHits is how many of the best hits docTotalFor looks for the form among.
const formHits = 3

// totalsOf reads a form's totals from its units: each total line's sums by their labels, or a
// total row's three sums that add up (without VAT + VAT = with VAT); the missing one of three
// from the other two. ok is false when the form states none, two different sums of one kind, or
// sums that do not add up.
func totalsOf(us []library.Unit) (formTotals, []library.Unit, bool) {
	var t formTotals
	var used []library.Unit
	set := func(p *int64, k int64) bool {
		if *p != 0 && *p != k {
			return false
		}
		*p = k
		return true
	}
	for _, u := range us {
		// a unit's lines: a PDF's last line of goods may be read with the total under it
		for _, line := range strings.Split(u.Text, "\n") {
			text := strings.ReplaceAll(line, " | ", " ")
			if loc := midTotal.FindStringIndex(text); loc != nil && loc[0] > 0 && !totalLine.MatchString(text) {
				text = text[loc[0]:] // «… 475 800,00 643 РОССИЯ — Всего к оплате (9) 6 996 050,00 X …»: a PDF's line of goods and the total after it
			}
			if !totalLine.MatchString(text) {
				continue
			}
			var sums []int64
			for _, m := range firstAmount.FindAllString(text, -1) {
				if k, ok := kopecks(m); ok {
					sums = append(sums, k)
				}
			}
			if len(sums) == 0 {
				continue
			}
			took := true
			switch {
			case exemptLine.MatchString(text):
				continue
			case len(sums) == 1 && vatLabel.MatchString(text) && vatLabel.FindStringSubmatch(text)[3] != "":
				// «В том числе НДС 10 %: 11 742,40» beside «НДС 22 %: 1 254,00»: the VAT by rate, added
				rate := strings.Join(strings.Fields(vatLabel.FindStringSubmatch(text)[3]), " ")
				if slices.ContainsFunc(t.rates, func(r rateVAT) bool { return r.rate == rate }) {
					return formTotals{}, nil, false
				}
				t.rates = append(t.rates, rateVAT{rate, sums[0]})
			case len(sums) >= 3 && addsUp(sums, &t):
			case vatIncluded.MatchString(text):
				m := vatIncluded.FindStringSubmatch(text)
				g, _ := kopecks(m[1])
				v, _ := kopecks(m[2])
				took = set(&t.gross, g) && set(&t.vat, v)
			case len(sums) == 1 && netLabel.MatchString(text):
				took = set(&t.net, sums[0])
			case len(sums) == 1 && vatLabel.MatchString(text):
				took = set(&t.vat, sums[0])
			case len(sums) == 1 && grossLabel.MatchString(text):
				took = set(&t.gross, sums[0])
			default:
				continue
			}
			if !took {
				return formTotals{}, nil, false
			}
			if !slices.ContainsFunc(used, func(o library.Unit) bool { return o.Index == u.Index }) {
				used = append(used, u)
			}
		}
	}
	if len(t.rates) > 0 {
		var vat int64
		for _, r := range t.rates {
			vat += r.k
		}
		if t.vat != 0 && t.vat != vat {
			return formTotals{}, nil, false
		}
		t.vat = vat
		if len(t.rates) == 1 {
			t.rates = nil // one rate: the VAT says it
		}
	}
	switch {
	case t.gross != 0 && t.vat != 0 && t.net == 0:
		t.net = t.gross - t.vat
	case t.net != 0 && t.vat != 0 && t.gross == 0:
		t.gross = t.net + t.vat
	case t.net != 0 && t.gross != 0 && t.vat == 0:
		t.vat = t.gross - t.net
	}
	if t.net <= 0 || t.vat < 0 || t.gross <= 0 || t.net+t.vat != t.gross {
		return formTotals{}, nil, false
	}
	return t, used[:min(len(used), formQuotes)], true
}

// formQuotes bounds the total lines quoted.
const formQuotes = 3

// addsUp finds in a total row's sums three that add up, in order — without VAT, the VAT, with
// VAT («367 518,00 X 80 853,96 448 371,96») — and sets them in t unless t holds others.
func addsUp(sums []int64, t *formTotals) bool {
	for i := range sums {
		for j := i + 1; j < len(sums); j++ {
			for k := j + 1; k < len(sums); k++ {
				if sums[i]+sums[j] != sums[k] {
					continue
				}
				for _, p := range []struct{ have, want int64 }{{t.net, sums[i]}, {t.vat, sums[j]}, {t.gross, sums[k]}} {
					if p.have != 0 && p.have != p.want {
						return false
					}
				}
				t.net, t.vat, t.gross = sums[i], sums[j], sums[k]
				return true
			}
		}
	}
	return false
}
