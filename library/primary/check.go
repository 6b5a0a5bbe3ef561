package primary

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/finbot/finbot/ru"
)

// Finding is one check: OK or not, said in Russian with the difference named.
type Finding struct {
	OK   bool
	Text string
}

// vat2026 is the day the basic VAT rate became 22 % (Federal Law 425-FZ of 28.11.2025).
var vat2026 = time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)

// Amount writes kopecks as a document prints them: «1 830,00» (no-break spaces, no «₽»).
func Amount(k int64) string { return strings.TrimSuffix(ru.Money(k), "\u00a0₽") }

// percentOf is round(base × pct / 100) to the kopeck.
func percentOf(base int64, pct int) int64 {
	return ru.Kopecks(new(big.Rat).Mul(big.NewRat(base, 100), big.NewRat(int64(pct), 100)))
}

// includedOf is the VAT inside a sum with VAT: round(sum × pct / (100 + pct)).
func includedOf(sum int64, pct int) int64 {
	return ru.Kopecks(new(big.Rat).Mul(big.NewRat(sum, 100), big.NewRat(int64(pct), int64(100+pct))))
}

// pct is a rate's percentage; ok false for «без НДС» or none.
func pct(rate string) (int, bool) {
	r := strings.TrimSuffix(rate, "%")
	if r == "" || r == rate {
		return 0, false
	}
	n := 0
	for _, c := range r {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// Check checks what was read. A receipt or an unreadable picture has no checks.
func Check(d Document) []Finding {
	if d.Kind == Receipt || d.Unreadable() {
		return nil
	}
	var out []Finding
	add := func(ok bool, format string, args ...any) {
		out = append(out, Finding{OK: ok, Text: fmt.Sprintf(format, args...)})
	}
	for _, side := range []struct {
		who string
		p   Party
	}{{"продавца", d.Seller}, {"покупателя", d.Buyer}} {
		switch inn := side.p.INN; {
		case inn == "":
		case len(inn) != 10 && len(inn) != 12:
			add(false, "ИНН %s %s: %s, а в ИНН 10 цифр (организация) или 12 (ИП)", side.who, inn, ru.Count(len(inn), "цифра", "цифры", "цифр"))
		case ru.ValidINN(inn):
			add(true, "ИНН %s %s: контрольные цифры сходятся", side.who, inn)
		default:
			want := ru.INNCheckDigits(inn)
			got := inn[len(inn)-len(want):]
			add(false, "ИНН %s %s: контрольная цифра не сходится — по первым цифрам должно быть …%s, а не …%s. ИНН прочитан с ошибкой или в документе опечатка", side.who, inn, want, got)
		}
		if kpp := side.p.KPP; kpp != "" && !ru.ValidKPP(kpp) {
			add(false, "КПП %s %s записан не по форме (9 знаков: 4 цифры, 2 цифры или латинские буквы, 3 цифры)", side.who, kpp)
		}
	}
	// Lines.
	read, unread := 0, []int{}
	var sumNet, sumVAT, sumGross int64
	allVAT, allGross := true, true
	rates := map[string]bool{}
	for _, l := range d.Lines {
		if !l.Read {
			unread = append(unread, l.No)
			continue
		}
		read++
		sumNet += l.Net
		sumVAT += l.VAT
		sumGross += l.Gross
		allVAT = allVAT && (l.VATRead || l.Rate == "без НДС")
		allGross = allGross && l.GrossRead
		if l.Rate != "" {
			rates[l.Rate] = true
		}
		if p, ok := pct(l.Rate); ok && l.VATRead {
			if want := percentOf(l.Net, p); l.VAT != want {
				add(false, "НДС в строке %d: %s ≠ %d %% от %s = %s", l.No, Amount(l.VAT), p, Amount(l.Net), Amount(want))
			}
			if l.GrossRead && l.Net+l.VAT != l.Gross {
				add(false, "Строка %d: %s + НДС %s = %s, а в документе %s", l.No, Amount(l.Net), Amount(l.VAT), Amount(l.Net+l.VAT), Amount(l.Gross))
			}
		}
	}
	if read > 0 {
		add(true, "Количество × цена = сумма: %s из %d", ru.Count(read, "строка", "строки", "строк"), len(d.Lines))
	}
	for _, n := range unread {
		add(false, "Строка %d не прочитана: количество, цена и сумма не сходятся ни при каком прочтении — сверьте её с оригиналом", n)
	}
	lineVATok := true
	for _, f := range out {
		if !f.OK && strings.HasPrefix(f.Text, "НДС в строке") {
			lineVATok = false
		}
	}
	if read > 0 && len(rates) > 0 && lineVATok && allVAT {
		add(true, "НДС в строках посчитан верно")
	}
	// Rate against the date.
	for r := range rates {
		if p, ok := pct(r); ok && !d.Date.IsZero() {
			switch {
			case p == 20 && !d.Date.Before(vat2026):
				add(false, "Ставка 20 %% в документе от %s: с 1 января 2026 года основная ставка НДС — 22 %%", d.Date.Format("02.01.2006"))
			case p == 22 && d.Date.Before(vat2026):
				add(false, "Ставка 22 %% в документе от %s: до 2026 года основная ставка НДС — 20 %%", d.Date.Format("02.01.2006"))
			}
		}
	}
	// Totals against the lines.
	t := d.Totals
	complete := len(unread) == 0 && read > 0
	if complete && t.HasNet {
		if sumNet == t.Net {
			add(true, "Итог без НДС %s = сумме строк", Amount(t.Net))
		} else {
			add(false, "Итог без НДС %s ≠ сумме строк %s (разница %s)", Amount(t.Net), Amount(sumNet), Amount(abs(t.Net-sumNet)))
		}
	}
	if complete && t.HasVAT && allVAT && len(rates) > 0 && !t.Included {
		if sumVAT == t.VAT {
			add(true, "НДС итого %s = сумме НДС строк", Amount(t.VAT))
		} else {
			add(false, "НДС итого %s ≠ сумме НДС строк %s", Amount(t.VAT), Amount(sumVAT))
		}
	}
	if t.HasVAT && len(rates) <= 1 {
		rate := t.Rate
		for r := range rates {
			rate = r
		}
		base, hasBase := t.Net, t.HasNet
		if !hasBase && complete {
			base, hasBase = sumNet, true
		}
		if p, ok := pct(rate); ok {
			switch {
			case t.Included && t.HasGross:
				if want := includedOf(t.Gross, p); want != t.VAT {
					add(false, "НДС итого: %s ≠ %d/%d от %s = %s", Amount(t.VAT), p, 100+p, Amount(t.Gross), Amount(want))
				} else {
					add(true, "НДС %s = %d/%d от %s", Amount(t.VAT), p, 100+p, Amount(t.Gross))
				}
			case !t.Included && hasBase:
				if want := percentOf(base, p); want != t.VAT {
					add(false, "НДС итого: %s ≠ %d %% от %s = %s", Amount(t.VAT), p, Amount(base), Amount(want))
				} else {
					add(true, "НДС итого %s = %d %% от %s", Amount(t.VAT), p, Amount(base))
				}
			}
		}
	}
	if t.HasGross {
		switch {
		case t.HasNet && t.HasVAT && !t.Included:
			if t.Net+t.VAT == t.Gross {
				add(true, "Всего %s = %s + НДС %s", Amount(t.Gross), Amount(t.Net), Amount(t.VAT))
			} else {
				add(false, "Всего %s ≠ %s + НДС %s = %s", Amount(t.Gross), Amount(t.Net), Amount(t.VAT), Amount(t.Net+t.VAT))
			}
		case complete && allGross:
			if sumGross == t.Gross {
				add(true, "Всего %s = сумме строк", Amount(t.Gross))
			} else {
				add(false, "Всего %s ≠ сумме строк %s (разница %s)", Amount(t.Gross), Amount(sumGross), Amount(abs(t.Gross-sumGross)))
			}
		case complete && len(rates) == 0:
			if sumNet == t.Gross {
				add(true, "Всего %s = сумме строк", Amount(t.Gross))
			} else {
				add(false, "Всего %s ≠ сумме строк %s (разница %s)", Amount(t.Gross), Amount(sumNet), Amount(abs(t.Gross-sumNet)))
			}
		}
	}
	return out
}

func abs(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}

// Total is the document's total with VAT as read: the totals' own, else the lines' when every
// line was read; ok false when neither.
func (d Document) Total() (int64, bool) {
	if d.Totals.HasGross {
		return d.Totals.Gross, true
	}
	if d.Kind == Receipt && d.Till.HasTotal {
		return d.Till.Total, true
	}
	var sum int64
	for _, l := range d.Lines {
		if !l.Read || !l.GrossRead && l.Rate != "" {
			return 0, false
		}
		sum += l.Gross
	}
	return sum, len(d.Lines) > 0
}
