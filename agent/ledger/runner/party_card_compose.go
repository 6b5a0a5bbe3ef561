package runner

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The counterparty card in Russian: the net of the settlements first, then each part under its
// own heading with its own footnote — the settlements, the overdue, the open contracts with
// their terms, the latest payments, the latest documents. Every figure is a template's, exact to
// the kopeck.

// cardShownContracts bounds the contracts the card lists; the rest are in the export.
const cardShownContracts = 5

// CardMarkdown is the card's text with a footnote mark after each part's figures, and the
// titles those marks point at, in order ([1] is the first title). A limited result has no
// marks and no titles.
func (r Result) CardMarkdown() (string, []string) { return r.cardText(true) }

// cardText renders the card; with cite, each part's figures carry its footnote mark.
func (r Result) cardText(cite bool) (string, []string) {
	pc := r.PartyCard
	var titles []string
	mark := func(title string) string {
		if !cite || title == "" {
			return ""
		}
		for i, t := range titles {
			if t == title {
				return fmt.Sprintf(" [%d]", i+1)
			}
		}
		titles = append(titles, title)
		return fmt.Sprintf(" [%d]", len(titles))
	}
	esc := md.Escape
	var b strings.Builder
	r.writeLead(&b, r.cardHeadline()+mark(pc.Sources.Balances), "")

	if pc.TheyOwe != 0 || pc.WeOwe != 0 || pc.Advanced != 0 || pc.Prepaid != 0 {
		b.WriteString("\n**Расчёты**" + mark(pc.Sources.Balances) + "\n")
		side := func(label string, debt onec.Kopecks, advance onec.Kopecks, advanceWord string) {
			if debt == 0 && advance == 0 {
				return
			}
			line := "- " + label + ": "
			if debt != 0 {
				line += esc(debt.String())
			} else {
				line += "долга нет"
			}
			if advance != 0 {
				line += esc("; " + advanceWord + " " + advance.String())
			}
			b.WriteString(line + "\n")
		}
		side("Должен нам", pc.TheyOwe, pc.Advanced, "наш аванс ему (или переплата)")
		side("Мы должны", pc.WeOwe, pc.Prepaid, "его аванс нам (или переплата)")
	} else {
		b.WriteString("\nРасчёты на эту дату закрыты: задолженности нет ни у них, ни у нас." + mark(pc.Sources.Balances) + "\n")
	}

	if pc.Receivable != nil || pc.Payable != nil {
		b.WriteString("\n**Просрочка**\n")
		names := IntervalNames(pc.Bounds)
		aged := func(label string, a *CardAging, src string) {
			if a == nil {
				return
			}
			if a.Overdue == 0 {
				fmt.Fprintf(&b, "- %s: %s, просроченного нет%s\n", label, esc(a.Debt.String()), mark(src))
				return
			}
			var parts []string
			for i, v := range a.Totals {
				if i > 0 && v != 0 {
					parts = append(parts, fmt.Sprintf("%s %s", strings.ToLower(names[i]), v))
				}
			}
			line := fmt.Sprintf("- %s: просрочено %s из %s — %s", label, bold(esc(a.Overdue.String())), esc(a.Debt.String()), esc(strings.Join(parts, "; ")))
			if days := overdueDays(a.Earliest, r.AsOf); days > 0 {
				line += esc(fmt.Sprintf("; дольше всего — %s", daysWord(days)))
			}
			b.WriteString(line + mark(src) + "\n")
		}
		aged("Их долг", pc.Receivable, pc.Sources.Receivable)
		aged("Наш долг", pc.Payable, pc.Sources.Payable)
		if agingDebt(pc.Receivable) != pc.TheyOwe || agingDebt(pc.Payable) != pc.WeOwe {
			// the aging counts the open debt documents, the settlements the contracts' nets
			b.WriteString("\n" + esc("Долг в просрочке — по документам расчётов: переплата по отдельному документу его не уменьшает, "+
				"поэтому он может отличаться от долга в расчётах по договорам.") + "\n")
		}
	}

	if len(pc.Contracts) > 0 {
		b.WriteString("\n**Договоры с остатком**" + mark(pc.Sources.Balances) + "\n")
		for _, c := range pc.Contracts[:min(len(pc.Contracts), cardShownContracts)] {
			b.WriteString("- " + esc(cardContractLine(c, pc.DefaultDays)) + "\n")
		}
		if rest := len(pc.Contracts) - cardShownContracts; rest > 0 {
			fmt.Fprintf(&b, "…и ещё %d — в выгрузке в Excel.\n", rest)
		}
	}

	if pc.InCount+pc.OutCount > 0 {
		b.WriteString("\n**Последние оплаты по банку**" + mark(pc.Sources.Payments) + "\n")
		pays := func(label string, rows []Row, n int) {
			if n == 0 {
				fmt.Fprintf(&b, "\n%s: не было.\n", label)
				return
			}
			fmt.Fprintf(&b, "\n%s — %s:\n", label, esc(cardCount(len(rows), n, "оплата", "оплаты", "оплат")))
			for _, x := range rows {
				fmt.Fprintf(&b, "- %s — %s\n", docCell(x), esc(x.Amount.String()))
			}
		}
		pays("От них", pc.In, pc.InCount)
		pays("Мы им", pc.Out, pc.OutCount)
	}

	if len(pc.Documents) > 0 {
		since := ""
		if !pc.DocsFrom.IsZero() {
			since = " с " + ruDay(pc.DocsFrom)
		}
		count := ru.Count(pc.DocCount, "документ", "документа", "документов")
		if len(pc.Documents) < pc.DocCount {
			count = fmt.Sprintf("%d из %d", len(pc.Documents), pc.DocCount)
		}
		fmt.Fprintf(&b, "\n**Последние документы**%s — %s%s:\n", mark(pc.Sources.Documents), esc(count), esc(since))
		for _, x := range pc.Documents {
			line := "- " + docCell(x) + " — " + esc(x.Amount.String())
			if x.Posted != nil && !*x.Posted {
				line += " (не проведён)"
			}
			b.WriteString(line + "\n")
		}
	}
	b.WriteString("\n" + esc(r.cardDetails()))
	return strings.TrimSpace(b.String()), titles
}

// cardHeadline is the card's opening line: the counterparty, its INN, the date and the net of
// the settlements in bold.
func (r Result) cardHeadline() string {
	pc := r.PartyCard
	esc := md.Escape
	who := "**" + esc(r.Party) + "**"
	if pc.INN != "" {
		who += esc(", ИНН " + pc.INN)
	}
	both := (pc.TheyOwe+pc.Advanced) != 0 && (pc.WeOwe+pc.Prepaid) != 0
	net := max(pc.Net, -pc.Net)
	var what string
	switch {
	case pc.Net > 0 && both:
		what = "в целом должен нам " + bold(esc(net.String())) + " (сальдо расчётов)"
	case pc.Net > 0:
		what = "должен нам " + bold(esc(net.String()))
	case pc.Net < 0 && both:
		what = "в целом мы должны ему " + bold(esc(net.String())) + " (сальдо расчётов)"
	case pc.Net < 0:
		what = "мы должны ему " + bold(esc(net.String()))
	case both:
		what = "встречные долги равны, сальдо " + bold(esc(net.String()))
	default:
		what = "расчёты закрыты"
	}
	return fmt.Sprintf("%s %s: %s.", who, esc(r.when()), what)
}

// cardContractLine says an open contract: its number and date, who owes on it, its accounts and
// its payment term.
func cardContractLine(c CardContract, defaultDays int) string {
	name := c.Name
	if c.Number != "" {
		name = "№ " + c.Number
		if c.Date != "" {
			name += " от " + shortDate(c.Date)
		}
	}
	owes := "в нашу пользу"
	if c.Net < 0 {
		owes = "в их пользу"
	}
	line := fmt.Sprintf("%s — %s %s (сч. %s)", name, owes, max(c.Net, -c.Net), strings.Join(c.Accounts, ", "))
	if c.Currency != "" {
		line += ", валюта " + c.Currency
	}
	if c.TermSet {
		return line + "; срок оплаты " + daysWord(c.TermDays) + " по договору"
	}
	return line + "; срок оплаты в договоре не задан (в просрочке — " + daysWord(defaultDays) + " по умолчанию)"
}

// cardCount is «последние 3 из 12», or «5 документов» when all are shown.
func cardCount(shown, all int, one, few, many string) string {
	if shown >= all {
		return ru.Count(all, one, few, many)
	}
	return fmt.Sprintf("последние %d из %d", shown, all)
}

// cardDetails says what the card's parts read.
func (r Result) cardDetails() string {
	return "Расчёты — сальдо по счетам 60, 62, 76 в разрезе договоров, как в ОСВ с развёрнутым сальдо; авансы и переплаты — отдельно от долга. " +
		"Просрочка — по срокам оплаты договоров, как в отчёте «Задолженность по срокам долга». Оплаты — банковские выписки; кассовые документы — в списке документов."
}
