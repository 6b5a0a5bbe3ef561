package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The act's answer in the chat: the heading, the verdict with its figure in bold, the balances
// and turnovers, the lines when they are few (all of them are in the files), and what the act
// takes. Every figure is the templates', exact to the kopeck.

// ActShown is the most lines of an act the chat shows; a longer act is counted and left to its
// files.
const ActShown = 10

// actShortKinds are the lines' kinds as a narrow table says them: the words of BP's printed act.
var actShortKinds = map[string]string{reconcile.KindSale: "Продажа", reconcile.KindPurchase: "Приход",
	reconcile.KindRefund: "Возврат", reconcile.KindReturnFromBuyer: "Возврат", reconcile.KindReturnToVendor: "Возврат",
	reconcile.KindSaleCorrection: "Корр. продажи", reconcile.KindBuyCorrection: "Корр. прихода", reconcile.KindDebtCorrection: "Корр. долга"}

// actMarkdown renders an act.
func (r Result) actMarkdown(mark string) string {
	a := r.Act
	esc := md.Escape
	var b strings.Builder
	// the answer on its opening line: the act and whom the closing balance is in favour of, the
	// figure in bold as every answer's; BP's own wording of the verdict («… руб.») is in the files
	head := "**" + esc(r.actHeading()) + ":** "
	if p, sum, ok := a.Creditor(); ok {
		head += esc("задолженность в пользу "+p.Name+" составляет ") + bold(esc(sum.String()))
	} else {
		head += "взаимной задолженности нет\\."
	}
	r.writeLead(&b, head, mark)
	d, c := a.Turnovers()
	// a phone's table is 32 characters wide: the balance's side goes with its label, the
	// figures stay whole
	short := actDay(a.From, a.To)
	writeTable(&b, [2]string{"Сальдо и обороты", "₽"}, [][2]string{
		{esc(balanceLabel(a.From.Format(short), a.Opening)), amountCell(max(a.Opening, -a.Opening))},
		{"Дебет за период", amountCell(d)},
		{"Кредит за период", amountCell(c)},
		{esc(balanceLabel(a.To.Format(short), a.Closing)), amountCell(max(a.Closing, -a.Closing))},
	})
	switch n := len(a.Lines); {
	case n == 0:
		b.WriteString("\nЗа период движений не было — в акте только сальдо.\n")
	case n <= ActShown:
		fmt.Fprintf(&b, "\n%s за период:\n", ru.Count(n, "документ", "документа", "документов"))
		cells := make([][2]string, 0, n)
		for _, l := range a.Lines {
			for _, side := range actLineSides(l) {
				cells = append(cells, [2]string{esc(actLineLabel(l, short)), esc(signedCell(side))})
			}
		}
		writeTable(&b, [2]string{"Документ", "±, ₽"}, cells)
	default:
		fmt.Fprintf(&b, "\n%s за период — все в файлах акта.\n", ru.Count(n, "документ", "документа", "документов"))
	}
	b.WriteString("\n" + esc(r.actDetails()))
	return strings.TrimSpace(b.String())
}

// actHeading is «Акт сверки с ООО «Альфа» за 01.01.2026 – 31.03.2026», with the contract when
// the act is for one.
func (r Result) actHeading() string {
	a := r.Act
	s := "Акт сверки с " + a.Theirs.Name
	if c := a.ByContract(); c != "" {
		s += " " + c
	}
	return s + " " + periodWords(a.From, a.To)
}

// actDetails says which settlements the act takes and how its sides read.
func (r Result) actDetails() string {
	a := r.Act
	parts := []string{fmt.Sprintf("Дт (+) увеличивает долг %s нам (реализации, наши оплаты), Кт (−) уменьшает (их оплаты, поступления от них).", a.Theirs.Name),
		"Счета 60, 62, 76, займы (58.03, 66, 67) по договорам, как в акте сверки 1С; зачёты авансов внутри расчётов с контрагентом в строки не входят."}
	if a.Contract == "" {
		parts = append(parts, "По всем договорам; по одному — назовите его номер.")
	}
	parts = append(parts, "Акт целиком — в файлах Excel и PDF, колонки "+a.Theirs.Name+" — для их данных.")
	return strings.Join(parts, " ")
}

// actDay is the layout of a day in the act's narrow tables: «05.01» within one year, «05.01.26»
// over several.
func actDay(from, to time.Time) string {
	if from.Year() == to.Year() {
		return "02.01"
	}
	return "02.01.06"
}

// balanceLabel is a balance's row: «На 01.01, Дт», «На 31.03, Кт», «На 31.03» for none.
func balanceLabel(day string, net onec.Kopecks) string {
	switch {
	case net > 0:
		return "На " + day + ", Дт"
	case net < 0:
		return "На " + day + ", Кт"
	}
	return "На " + day
}

// actLineLabel names a line in the narrow table: «05.01 Реализация 7».
func actLineLabel(l reconcile.Line, layout string) string {
	kind := l.Kind
	if short, ok := actShortKinds[kind]; ok {
		kind = short
	}
	s := l.Date.Format(layout) + " " + kind
	if l.Number != "" {
		s += " " + l.Number
	}
	return s
}

// signedCell is a line's figure by its effect on the counterparty's debt to us: a debit «+»,
// a credit «−» (a negative credit, a return to the supplier, «+»): the narrow table has no
// room for two columns.
func signedCell(s lineSide) string {
	sum := s.sum
	if s.name == "Кт" {
		sum = -sum
	}
	if sum > 0 {
		return "+" + amountCell(sum)
	}
	return amountCell(sum) // «−1 200,00»
}

// lineSide is a line's figure on one side.
type lineSide struct {
	name string // Дт, Кт
	sum  onec.Kopecks
}

// actLineSides are a line's figures: its debit, its credit, or both when a document moved both
// ways.
func actLineSides(l reconcile.Line) []lineSide {
	var out []lineSide
	if l.Debit != 0 {
		out = append(out, lineSide{"Дт", l.Debit})
	}
	if l.Credit != 0 {
		out = append(out, lineSide{"Кт", l.Credit})
	}
	return out
}

// SideAmountCell is a net balance on its side without the currency sign: «Дт 1 930 644,06»,
// «Кт 5 000,00», «0,00».
func SideAmountCell(net onec.Kopecks) string {
	return strings.TrimSuffix(SideAmount(net), "\u00a0₽")
}

// PDF is the act of reconciliation as a PDF (agent/reconcile); an error for any other result.
func (r Result) PDF() ([]byte, error) {
	if r.Act == nil || r.ResultMode == Limited {
		return nil, fmt.Errorf("address: no act to print")
	}
	return r.Act.PDF()
}

// PDFName is the act's PDF file name.
func (r Result) PDFName() string {
	if r.Act == nil {
		return ""
	}
	return r.Act.FileName("pdf")
}

// actCaption says what the act's file holds: «Акт сверки с ООО «Альфа» за … в PDF: 9 документов;
// сальдо на 31.03.2026 Дт 3 076 579,33 ₽.»
func (r Result) actCaption(format string) string {
	a := r.Act
	lines := ru.Count(len(a.Lines), "документ", "документа", "документов")
	if len(a.Lines) == 0 {
		lines = "движений нет"
	}
	return fmt.Sprintf("%s в %s: %s; сальдо на %s %s.", r.actHeading(), format, lines, ruDay(a.To), SideAmount(a.Closing))
}

// PDFCaption is actCaption of the PDF.
func (r Result) PDFCaption() string {
	if r.Act == nil {
		return ""
	}
	return r.actCaption("PDF")
}
