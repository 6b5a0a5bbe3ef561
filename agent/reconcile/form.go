package reconcile

import (
	"strings"

	"github.com/finbot/finbot/integrations/onec"
)

// The act's printed form, shared by the XLSX and the PDF: BP 3.0's «Акт сверки»
// (Documents/АктСверкиВзаиморасчетов/Templates/ПФ_MXL_АктСверки) — the heading, the two sides'
// columns (ours filled, the counterparty's left for them), the opening balance, each line, the
// turnovers, the closing balance, both verdicts and the signatures.

// formRow is one row of the table: a label or a line on our side, with its debit and credit.
type formRow struct {
	date, document string
	debit, credit  onec.Kopecks
	total          bool // a balance or the turnovers: its label spans the date and the document
}

// heading is the lines above the table.
func (a Act) heading() []string {
	out := []string{
		"взаимных расчётов за период: " + a.From.Format("02.01.2006") + " – " + a.To.Format("02.01.2006"),
		"между " + a.Ours.Label(),
		"и " + a.Theirs.Label(),
	}
	if c := a.ByContract(); c != "" {
		out = append(out, c)
	}
	return append(out, "Мы, нижеподписавшиеся, представитель "+a.Ours.Name+", с одной стороны, и представитель "+a.Theirs.Name+
		", с другой стороны, составили настоящий акт сверки в том, что состояние взаимных расчётов по данным учёта следующее:")
}

// rows are the table's rows on our side: the opening balance, the lines, the turnovers, the
// closing balance; a balance on its side (debit: the counterparty owes us).
func (a Act) rows() []formRow {
	split := func(label string, net onec.Kopecks) formRow {
		r := formRow{document: label, total: true}
		if net > 0 {
			r.debit = net
		} else {
			r.credit = -net
		}
		return r
	}
	out := []formRow{split("Сальдо начальное", a.Opening)}
	for _, l := range a.Lines {
		out = append(out, formRow{date: l.Date.Format("02.01.2006"), document: l.printed(), debit: l.Debit, credit: l.Credit})
	}
	d, c := a.Turnovers()
	return append(out, formRow{document: "Обороты за период", debit: d, credit: c, total: true}, split("Сальдо конечное", a.Closing))
}

// printed is a line's document as the table prints it: «Реализация (акт, накладная) (7 от
// 05.01.2026)», BP's «Продажа (7 от 05.01.26)».
func (l Line) printed() string {
	if l.Number == "" {
		return l.Kind + " (от " + l.Date.Format("02.01.2006") + ")"
	}
	return l.Kind + " (" + l.Number + " от " + l.Date.Format("02.01.2006") + ")"
}

// sideHeader is a side's header: «По данным ООО «Альфа», руб.».
func sideHeader(p Party) string { return "По данным " + p.Name + ", руб." }

// FileName is the act's file name with the extension ext («xlsx», «pdf»): «Акт сверки ООО
// «Альфа» 01.01.2026–31.03.2026.pdf»; characters a file name cannot hold are left out.
func (a Act) FileName(ext string) string {
	name := "Акт сверки " + a.Theirs.Name + " " + a.From.Format("02.01.2006") + "–" + a.To.Format("02.01.2006")
	name = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`/\:*?"<>|`, r) || r < ' ' {
			return -1
		}
		return r
	}, name)
	return name + "." + ext
}

// signed is the signature block of a side as BP's form prints it: the head and the chief
// accountant with their names where they are known, blank lines for the name otherwise.
func signed(p Party) []string {
	name := func(s string) string {
		if s == "" {
			return "________________"
		}
		return s
	}
	return []string{"От " + p.Name, "",
		"Руководитель ______________ (" + name(p.Director) + ")", "",
		"Главный бухгалтер ______________ (" + name(p.Accountant) + ")", "М.П."}
}

// theirVerdict is the counterparty's verdict line, left for them to fill as BP leaves it.
func (a Act) theirVerdict() string {
	return "По данным " + a.Theirs.Name + " на " + a.To.Format("02.01.2006") + " ______________________________"
}
