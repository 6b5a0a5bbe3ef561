package ledger

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The counterparty card and the offset candidates (runner/party_card.go, runner/offsets.go)
// beyond the runner's answer: their facts for the planner's ledger_query — a card's settlement
// lines and its parts, an offset's pairs and each company's sides — amounts exact.

// cardItem is one settlement line of a card: a contract on an account and its balance.
func cardItem(row runner.Row, it facts.Item) facts.Item {
	it.Title = row.Deal + ", сч. " + row.Account
	side := "дебет (в нашу пользу)"
	if row.Amount < 0 {
		side = "кредит (в их пользу)"
	}
	it.Text = fmt.Sprintf("%s: сальдо %s, %s", it.Title, abs(row.Amount), side)
	it.Fields = []facts.Field{{Name: "Договор", Value: row.Deal}, {Name: "Счёт", Value: row.Account},
		{Name: "Сальдо", Value: row.Amount.String()}}
	return it
}

// cardTotal is the card's parts: both sides and the net, the overdue of each side, the
// payments and documents counted, the latest of each.
func cardTotal(res runner.Result, it facts.Item) facts.Item {
	pc := res.PartyCard
	if pc == nil {
		return it
	}
	add := func(name, value string) { it.Fields = append(it.Fields, facts.Field{Name: name, Value: value}) }
	parts := []string{fmt.Sprintf("%s на %s: должен нам %s, наш аванс ему %s; мы должны %s, его аванс нам %s; сальдо %s (плюс — в нашу пользу)",
		res.Party, res.AsOf.Format("02.01.2006"), pc.TheyOwe, pc.Advanced, pc.WeOwe, pc.Prepaid, pc.Net)}
	add("Контрагент", res.Party)
	if pc.INN != "" {
		add("ИНН", pc.INN)
	}
	add("Должен нам", pc.TheyOwe.String())
	add("Мы должны", pc.WeOwe.String())
	add("Наш аванс ему", pc.Advanced.String())
	add("Его аванс нам", pc.Prepaid.String())
	add("Сальдо расчётов", pc.Net.String())
	names := runner.IntervalNames(pc.Bounds)
	for _, s := range []struct {
		label string
		a     *runner.CardAging
	}{{"Их долг", pc.Receivable}, {"Наш долг", pc.Payable}} {
		if s.a == nil {
			continue
		}
		var by []string
		for i, v := range s.a.Totals {
			if v != 0 {
				by = append(by, strings.ToLower(names[i])+" — "+v.String())
			}
		}
		parts = append(parts, fmt.Sprintf("%s по документам %s, просрочено %s (%s)", s.label, s.a.Debt, s.a.Overdue, strings.Join(by, "; ")))
		add(s.label+": просрочено", s.a.Overdue.String())
	}
	for _, c := range pc.Contracts {
		term := "срок оплаты не задан"
		if c.TermSet {
			term = "срок оплаты " + ru.Count(c.TermDays, "день", "дня", "дней")
		}
		parts = append(parts, fmt.Sprintf("договор %s: сальдо %s, %s", c.Name, c.Net, term))
	}
	for _, p := range []struct {
		label string
		rows  []runner.Row
		n     int
	}{{"оплат от них", pc.In, pc.InCount}, {"наших оплат им", pc.Out, pc.OutCount}, {"документов", pc.Documents, pc.DocCount}} {
		var latest []string
		for _, x := range p.rows {
			latest = append(latest, document(x)+" — "+x.Amount.String())
		}
		parts = append(parts, fmt.Sprintf("%s: %d, последние: %s", p.label, p.n, strings.Join(latest, "; ")))
		add(p.label, strconv.Itoa(p.n))
	}
	it.Text = strings.Join(parts, ". ") + "."
	return it
}

// offsetItem is one pair of an offset: a contract where they owe us, one where we owe them, and
// what the pair could net.
func offsetItem(row runner.Row, it facts.Item) facts.Item {
	o := row.Offset
	if o == nil {
		return it
	}
	it.Title = row.Party
	it.Text = fmt.Sprintf("%s: долг нам по %s — %s, наш долг по %s — %s; пара — %s", row.Party, o.Receivable.Name, o.Receivable.Amount,
		o.Payable.Name, o.Payable.Amount, o.Netted)
	it.Fields = []facts.Field{{Name: "Контрагент", Value: row.Party}, {Name: "Договор: долг нам", Value: o.Receivable.Name},
		{Name: "Долг нам", Value: o.Receivable.Amount.String()}, {Name: "Договор: наш долг", Value: o.Payable.Name},
		{Name: "Наш долг", Value: o.Payable.Amount.String()}, {Name: "Пара", Value: o.Netted.String()}}
	return it
}

// offsetsTotal is each company's sides and what it could net, and the total; that an offset needs
// both parties' act.
func offsetsTotal(res runner.Result, it facts.Item) facts.Item {
	of := res.Offsets
	if of == nil {
		return it
	}
	var parts []string
	for _, p := range of.Parties {
		parts = append(parts, fmt.Sprintf("%s: должен нам %s, мы ему %s, к зачёту до %s (авансы не зачитываются: выданный %s, полученный %s)",
			p.Name, p.Receivable, p.Payable, p.Netted, p.Advanced, p.Prepaid))
	}
	it.Text = fmt.Sprintf("Зачесть можно до %s — %s. %s. Зачёт — только по соглашению обеих сторон, актом взаимозачёта.", of.Total,
		ru.Count(len(of.Parties), "контрагент", "контрагента", "контрагентов"), strings.Join(parts, "; "))
	it.Fields = []facts.Field{{Name: "К зачёту", Value: of.Total.String()}, {Name: "Контрагентов", Value: strconv.Itoa(len(of.Parties))}}
	return it
}

// abs is an amount without its sign.
func abs(k onec.Kopecks) onec.Kopecks { return max(k, -k) }
