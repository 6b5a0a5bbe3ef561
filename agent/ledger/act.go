package ledger

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/ru"
)

// The act of reconciliation (runner/act.go) beyond the runner's answer: its files with the
// reply — the Excel in BP's two-sided form and the PDF as BP prints it —, its buttons (either
// file again, the counterparty's aging on the act's last day), and its facts for the planner's
// ledger_query: each line and the balances, amounts exact.

// actOf reports whether res is an act of reconciliation with figures.
func actOf(res runner.Result) bool { return res.Act != nil && res.ResultMode != runner.Limited }

// actReply gives an act's reply its files and its buttons: «Акт в Excel» and «Акт в PDF» send
// the kept act's file again (with id "" — the act could not be kept — they are left out), and
// the counterparty's aging on the act's last day is asked as a question. A file that cannot be
// made is left out and said.
func actReply(r *skill.Reply, res runner.Result, id string) {
	if data, err := res.XLSX(); err == nil {
		r.Document = &skill.Document{Name: res.ExportName(), Bytes: data, Caption: res.ExportCaption()}
	} else {
		r.Degraded = append(r.Degraded, "act_xlsx_failed")
	}
	if data, err := res.PDF(); err == nil {
		r.Attachments = append(r.Attachments, skill.Document{Name: res.PDFName(), Bytes: data, Caption: res.PDFCaption()})
	} else {
		r.Degraded = append(r.Degraded, "act_pdf_failed")
	}
	if id != "" {
		r.Buttons = append(r.Buttons, skill.Button{Text: "Акт в Excel", Data: ExportPrefix + id},
			skill.Button{Text: "Акт в PDF", Data: PDFPrefix + id, SameRow: true})
	}
	r.Buttons = append(r.Buttons, skill.Button{Text: AgingOf(res.Act.Theirs.Name, res.To.Format("02.01.2006"))})
}

// AgingOf is the question a button asks for a counterparty's aging on a day: «Просрочка ООО
// «Альфа» на 31.03.2026» — its debt to us by days overdue, or ours to it when it owes nothing.
func AgingOf(name, day string) string { return "Просрочка " + name + " на " + day }

// ActOf is the question that asks for the act of reconciliation with a counterparty: «акт сверки
// с ООО «Альфа»» (the counterparty's card offers it), with the period when one is given.
func ActOf(name, period string) string {
	return strings.TrimSpace("акт сверки с " + name + " " + period)
}

// exportPDF sends a kept act as its PDF.
func exportPDF(res runner.Result) (skill.Reply, error) {
	if !actOf(res) {
		return skill.Text("PDF есть только у акта сверки, а в этом ответе его нет."), nil
	}
	data, err := res.PDF()
	if err != nil {
		return skill.Reply{}, fmt.Errorf("export pdf: %w", err)
	}
	return skill.Reply{Recipe: string(res.Intent), Text: res.PDFCaption(),
		Document: &skill.Document{Name: res.PDFName(), Bytes: data, Caption: "Источник: " + res.Source}}, nil
}

// actItem is one line of an act: its document and its debit or credit.
func actItem(row runner.Row, it facts.Item) facts.Item {
	it.Title = row.Name
	var sides []string
	if row.Debit != 0 {
		sides = append(sides, "дебет "+row.Debit.String())
		it.Fields = append(it.Fields, facts.Field{Name: "Дебет", Value: row.Debit.String()})
	}
	if row.Credit != 0 {
		sides = append(sides, "кредит "+row.Credit.String())
		it.Fields = append(it.Fields, facts.Field{Name: "Кредит", Value: row.Credit.String()})
	}
	it.Text = row.Name + ": " + strings.Join(sides, ", ")
	it.Fields = append([]facts.Field{{Name: "Документ", Value: row.Name}}, it.Fields...)
	return it
}

// actTotal is the act's balances, turnovers and verdict.
func actTotal(res runner.Result, it facts.Item) facts.Item {
	a := res.Act
	if a == nil {
		it.Text = fmt.Sprintf("Всего: %s.", ru.Count(res.Summary.Rows, "документ", "документа", "документов"))
		return it
	}
	d, c := a.Turnovers()
	opening, closing := runner.SideAmount(a.Opening), runner.SideAmount(a.Closing)
	it.Title = "Акт сверки с " + a.Theirs.Name
	it.Text = fmt.Sprintf("Сальдо на %s: %s; обороты за период: дебет %s, кредит %s; сальдо на %s: %s. %s",
		a.From.Format("02.01.2006"), opening, d, c, a.To.Format("02.01.2006"), closing, a.Verdict())
	it.Fields = []facts.Field{{Name: "Сальдо на начало", Value: opening}, {Name: "Дебет за период", Value: d.String()},
		{Name: "Кредит за период", Value: c.String()}, {Name: "Сальдо на конец", Value: closing},
		{Name: "Документов", Value: fmt.Sprint(len(a.Lines))}, {Name: "Итог сверки", Value: a.Verdict()}}
	return it
}
