package runner

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/ru"
)

// The offset candidates in Russian: what could be netted in all and with whom first, then the
// pairs of contracts, each counterparty's sides and what is not netted (advances, currency), and
// that an offset needs both parties' act.

// offsetsMarkdown renders an offsets result.
func (r Result) offsetsMarkdown(mark string) string {
	of := r.Offsets
	esc := md.Escape
	var b strings.Builder
	n := len(of.Parties)
	head := fmt.Sprintf("%s встречные долги есть у %s: зачесть можно до %s.", upperFirst(esc(r.when())),
		esc(ru.Count(n, "контрагента", "контрагентов", "контрагентов")), bold(esc(of.Total.String())))
	if r.Party != "" && n == 1 {
		p := of.Parties[0]
		head = fmt.Sprintf("%s %s должен нам %s, мы ему — %s: зачесть можно до %s.", upperFirst(esc(r.when())), esc(p.Name),
			esc(p.Receivable.String()), esc(p.Payable.String()), bold(esc(p.Netted.String())))
	}
	r.writeLead(&b, head, mark)
	var cells [][2]string
	for _, row := range r.Rows[:min(len(r.Rows), ShownTop)] {
		cells = append(cells, [2]string{esc(offsetLabel(row, r.Party != "")), amountCell(row.Amount)})
	}
	writeTable(&b, [2]string{"Договоры: долг нам ↔ наш долг", "Пара, ₽"}, cells)
	restLine(&b, r.Summary.Rows-len(cells))
	b.WriteString("\n")
	for _, p := range of.Parties[:min(len(of.Parties), ShownTop)] {
		line := fmt.Sprintf("%s: должен нам %s, мы ему %s — к зачёту до %s", p.Name, p.Receivable, p.Payable, p.Netted)
		var aside []string
		if p.Advanced != 0 {
			aside = append(aside, "выданный аванс "+p.Advanced.String())
		}
		if p.Prepaid != 0 {
			aside = append(aside, "полученный аванс "+p.Prepaid.String())
		}
		if p.Currency > 0 {
			aside = append(aside, ru.Count(p.Currency, "валютная строка", "валютные строки", "валютных строк"))
		}
		if len(aside) > 0 {
			line += "; не зачитываются: " + strings.Join(aside, ", ")
		}
		b.WriteString("- " + esc(line) + ".\n")
	}
	if rest := len(of.Parties) - ShownTop; rest > 0 {
		fmt.Fprintf(&b, "…и ещё %d — в выгрузке в Excel.\n", rest)
	}
	b.WriteString("\n" + esc(offsetsDetails()))
	return strings.TrimSpace(b.String())
}

// offsetLabel names a pair in a narrow table: the company (unless the answer is about one) and
// the two contracts' numbers.
func offsetLabel(row Row, oneParty bool) string {
	pair := contractNumber(row.Offset.Receivable.Name) + " ↔ " + contractNumber(row.Offset.Payable.Name)
	if oneParty {
		return pair
	}
	return shortParty(row.Party) + ": " + pair
}

// offsetsDetails says how the figures read and that an offset is an agreement.
func offsetsDetails() string {
	return "Пара — меньшая из двух сумм: долга нам по одному договору и нашего долга по другому; контрагент в целом — не больше меньшей из его сторон, " +
		"поэтому пары одного контрагента не складываются. Долг нам — дебет 62 и 76, наш долг — кредит 60 и 76; авансы (60.02, 62.02), переплаты и валютные договоры не зачитываются. " +
		"Зачёт — только по соглашению обеих сторон: акт взаимозачёта подписывают оба, в 1С его проводит «Корректировка долга» (зачёт взаимных требований)."
}
