package reconcile

// The comparison in Russian Markdown: a short list of differences, each with its amounts, and
// how they make up the difference of the closing balances.

import (
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// maxListed is how many differences the message lists; the rest are in the Excel file.
const maxListed = 12

// Markdown is the comparison as the answer's text; cite is appended to the title line («[1]»).
func (c Comparison) Markdown(cite string) string {
	var b strings.Builder
	them := c.theirName()
	title := "Сверка с " + md.Escape(them)
	if p := c.period(); p != "" {
		title += " за " + p
	}
	money := c.Money()
	switch {
	case len(c.Diffs) == 0:
		fmt.Fprintf(&b, "**%s: расхождений нет**", title)
	default:
		fmt.Fprintf(&b, "**%s: %s**", title, ru.Count(len(c.Diffs), "расхождение", "расхождения", "расхождений"))
	}
	if cite != "" {
		b.WriteString(" " + cite)
	}
	b.WriteString("\n\n")
	if c.Theirs.Grouped {
		b.WriteString("Их акт — итоги по месяцам, без документов: сверяю обороты каждого месяца.\n\n")
	}
	if c.Flipped {
		fmt.Fprintf(&b, "Столбцы их акта не говорят, чья это сторона; с нашими документами они сходятся, если читать их наоборот, — так и сверяю (%s).\n\n",
			md.Escape(strings.Join(c.Theirs.Columns, "; ")))
	}
	if c.NoBalances {
		b.WriteString("Сальдо в их акте не указано: сверяю только документы.\n\n")
	}
	if len(c.Diffs) == 0 {
		fmt.Fprintf(&b, "Сальдо на начало — %s, на конец — %s по обоим актам", balance(c.Ours.Opening, them), balance(c.Ours.Closing, them))
		if c.Theirs.Grouped {
			b.WriteString("; обороты всех месяцев совпадают.")
		} else {
			b.WriteString("; все документы совпали: " + c.matchedWords() + ".")
		}
		c.notes(&b)
		return b.String()
	}
	if !c.NoBalances {
		fmt.Fprintf(&b, "Сальдо конечное у нас %s, у них %s", balance(c.Ours.Closing, them), balance(c.Theirs.Closing, them))
		if c.Gap != 0 {
			fmt.Fprintf(&b, " — разница %s", ru.Money(abs(c.Gap)))
		}
		b.WriteString(".\n\n")
	}
	for i, d := range c.Diffs {
		if i == maxListed {
			fmt.Fprintf(&b, "- …и ещё %d — в файле Excel.\n", len(c.Diffs)-maxListed)
			break
		}
		b.WriteString("- " + c.item(d) + "\n")
	}
	if len(money) > 0 {
		b.WriteString("\n" + c.explain(money))
	}
	if !c.Theirs.Grouped {
		b.WriteString("\n\nДокументов сопоставлено: " + c.matchedWords() + ".")
	}
	c.notes(&b)
	return b.String()
}

// item is one difference in words.
func (c Comparison) item(d Diff) string {
	them := c.theirName()
	switch d.Kind {
	case DiffOpening:
		s := fmt.Sprintf("**Сальдо начальное**: у нас %s, у них %s — разница %s", balance(d.OursAmount, them), balance(d.TheirsAmount, them), signedMoney(d.Effect))
		if !c.Theirs.HasOpening {
			s += " (в их акте его нет — выведено из конечного сальдо и оборотов)"
		}
		return s + "."
	case DiffOnlyOurs:
		return fmt.Sprintf("**Нет у них**: %s — %s.", describe(*d.Ours), sideWords(*d.Ours))
	case DiffOnlyTheirs:
		return fmt.Sprintf("**Нет у нас**: %s — %s.", describe(*d.Theirs), sideWords(*d.Theirs))
	case DiffSum:
		s := fmt.Sprintf("**Другая сумма**: %s — у нас %s, у них %s", describe(*d.Ours), sideWords(*d.Ours), sideWords(*d.Theirs))
		if !d.Ours.Date.Equal(d.Theirs.Date) {
			s += fmt.Sprintf(" датой %s", date(d.Theirs.Date))
		}
		return s + fmt.Sprintf(" — разница %s.", signedMoney(d.Effect))
	case DiffDate:
		return fmt.Sprintf("**Другая дата**: %s, %s — у них %s; на сальдо не влияет.", describe(*d.Ours), ru.Money(abs(d.OursAmount)), date(d.Theirs.Date))
	case DiffMonth:
		return fmt.Sprintf("**%s**: у нас %s, у них %s — разница %s.", upperFirst(monthName(d.Month)), turnover(d.Ours), turnover(d.Theirs), signedMoney(d.Effect))
	case DiffTheirTotals:
		return fmt.Sprintf("**Их итог**: сальдо конечное в их акте %s, а их начальное сальдо и строки дают %s.", balance(d.TheirsAmount, them), balance(d.OursAmount, them))
	case DiffOurTotals:
		return fmt.Sprintf("**Наш итог**: сальдо конечное %s, а начальное сальдо и документы дают %s.", balance(d.OursAmount, them), balance(d.TheirsAmount, them))
	}
	return ""
}

// explain says how the differences make up the difference of the closing balances.
func (c Comparison) explain(money []Diff) string {
	var parts []string
	for _, d := range money {
		if d.Effect == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", signedMoney(d.Effect), reason(d)))
	}
	what := "Разница сальдо (у нас минус у них)"
	if c.NoBalances {
		what = "Разница оборотов (у нас минус у них)"
	}
	if len(parts) == 0 {
		return what + " — ноль: расхождения в суммах взаимно погашаются."
	}
	return fmt.Sprintf("%s %s = %s — сходится.", what, signedMoney(c.Gap), strings.TrimPrefix(strings.Join(parts, " "), "+"))
}

// reason is a difference's name in the explanation.
func reason(d Diff) string {
	switch d.Kind {
	case DiffOpening:
		return "начальное сальдо"
	case DiffOnlyOurs:
		return "нет у них"
	case DiffOnlyTheirs:
		return "нет у нас"
	case DiffSum:
		if n := d.Ours.Number; n != "" {
			return "сумма № " + md.Escape(n)
		}
		return "сумма"
	case DiffMonth:
		return monthName(d.Month)
	case DiffTheirTotals:
		return "их итог"
	case DiffOurTotals:
		return "наш итог"
	}
	return string(d.Kind)
}

func (c Comparison) notes(b *strings.Builder) {
	for _, n := range c.Theirs.Notes {
		b.WriteString("\n\n" + md.Escape(n))
	}
	if c.Theirs.Scanned {
		b.WriteString("\n\n_Их акт прочитан с фото или скана: цифры, которые не читались наверняка, я не угадывал, но найденные расхождения сверьте с оригиналом._")
	}
}

// matchedWords is «8 из 9 наших и 9 их».
func (c Comparison) matchedWords() string {
	return fmt.Sprintf("%d из %d наших и %d их", matched(c.Pairs), len(c.Ours.Lines), len(c.Theirs.Lines))
}

// theirName is the counterparty as their act or ours names it.
func (c Comparison) theirName() string {
	for _, n := range []string{c.Ours.Theirs.Name, c.Theirs.Theirs.Name} {
		if n != "" {
			return extract.Defang(n)
		}
	}
	return "контрагентом"
}

// period is «01.01.2026 – 31.03.2026».
func (c Comparison) period() string {
	from, to := c.Ours.From, c.Ours.To
	if from.IsZero() {
		from, to = c.Theirs.From, c.Theirs.To
	}
	if from.IsZero() || to.IsZero() {
		return ""
	}
	return date(from) + " – " + date(to)
}

// describe names a line as its side wrote it: «Реализация № СВ00-000050 от 18.03.2026».
func describe(l Line) string {
	s := strings.TrimSpace(l.Kind)
	if l.Number != "" && !strings.Contains(s, l.Number) {
		s += " № " + l.Number
	}
	if !l.Date.IsZero() && !strings.Contains(s, date(l.Date)) && !strings.Contains(s, l.Date.Format("02.01.06")) {
		s += " от " + date(l.Date)
	}
	return md.Escape(extract.Defang(s))
}

// sideWords is a line's sum with its side, ours: «461 036,40 ₽ по дебету».
func sideWords(l Line) string {
	switch {
	case l.Debit != 0 && l.Credit != 0:
		return fmt.Sprintf("%s по дебету и %s по кредиту", ru.Money(int64(l.Debit)), ru.Money(int64(l.Credit)))
	case l.Credit != 0:
		return ru.Money(int64(l.Credit)) + " по кредиту"
	}
	return ru.Money(int64(l.Debit)) + " по дебету"
}

// turnover is a month's turnovers on one side: «дебет 685 570,14 ₽, кредит 714 465,33 ₽»; «нет
// документов» for none.
func turnover(l *Line) string {
	if l == nil {
		return "нет документов"
	}
	return fmt.Sprintf("дебет %s, кредит %s", ru.Money(int64(l.Debit)), ru.Money(int64(l.Credit)))
}

// balance says a balance with its direction: «3 076 579,33 ₽ в нашу пользу», «… в пользу ООО
// «Альфа»», «ноль».
func balance(k onec.Kopecks, them string) string {
	switch {
	case k > 0:
		return ru.Money(int64(k)) + " в нашу пользу"
	case k < 0:
		return ru.Money(int64(-k)) + " в пользу " + md.Escape(them)
	}
	return "0,00\u00a0₽"
}

// signedMoney is an amount with its sign: «+461 036,40 ₽», «−54,00 ₽».
func signedMoney(k onec.Kopecks) string {
	if k > 0 {
		return "+" + ru.Money(int64(k))
	}
	return ru.Money(int64(k))
}

func abs(k onec.Kopecks) int64 {
	if k < 0 {
		return int64(-k)
	}
	return int64(k)
}

func date(t time.Time) string { return t.Format("02.01.2006") }

// monthName is «январь 2026».
func monthName(m time.Time) string { return ru.MonthName(m.Month()) + " " + fmt.Sprint(m.Year()) }

// upperFirst capitalises a sentence's first word: «Январь 2026».
func upperFirst(s string) string {
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}
