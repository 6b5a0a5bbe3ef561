package ledger

import (
	"fmt"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/ru"
)

// The facts of the reports (the turnover sheet and the account card): a sheet line with its
// six figures, a card posting with its running balance, and the total, amounts exact.

// reportItem is one line of a sheet or one posting of a card.
func reportItem(res runner.Result, row runner.Row, it facts.Item) facts.Item {
	add := func(name, value string) {
		if value != "" {
			it.Fields = append(it.Fields, facts.Field{Name: name, Value: value})
		}
	}
	if res.Intent == recipe.AccountCard {
		it.Title = document(row)
		it.Text = fmt.Sprintf("%s, корр. счёт %s: дебет %s, кредит %s, сальдо %s", it.Title, row.Corr, row.Debit, row.Credit, runner.SideAmount(row.Amount))
		add("Счёт", row.Account)
		add("Корр. счёт", row.Corr)
		add("Контрагент", row.Party)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Сальдо", runner.SideAmount(row.Amount))
		return it
	}
	t := row.Sheet
	if t == nil {
		t = &runner.Turnover{}
	}
	it.Title = row.Name
	if row.Party == "" {
		it.Title = fmt.Sprintf("Счёт %s %s", row.Account, row.Name)
	}
	it.Text = fmt.Sprintf("%s: сальдо на начало Дт %s, Кт %s; обороты Дт %s, Кт %s; сальдо на конец Дт %s, Кт %s", it.Title,
		t.OpenDebit, t.OpenCredit, t.Debit, t.Credit, t.CloseDebit, t.CloseCredit)
	add("Счёт", row.Account)
	add("Контрагент", row.Party)
	add("Договор", row.Deal)
	add("Сальдо на начало Дт", t.OpenDebit.String())
	add("Сальдо на начало Кт", t.OpenCredit.String())
	add("Оборот Дт", t.Debit.String())
	add("Оборот Кт", t.Credit.String())
	add("Сальдо на конец Дт", t.CloseDebit.String())
	add("Сальдо на конец Кт", t.CloseCredit.String())
	return it
}

// reportTotal is the sheet's total line, or the card's balances and turnovers.
func reportTotal(res runner.Result, it facts.Item) facts.Item {
	if res.Report == nil {
		it.Text = fmt.Sprintf("Всего: %s.", ru.Count(res.Summary.Rows, "строка", "строки", "строк"))
		return it
	}
	t := res.Report.Total
	if res.Intent == recipe.AccountCard {
		it.Text = fmt.Sprintf("Сальдо на начало %s; обороты: дебет %s, кредит %s; сальдо на конец %s — %s.", runner.SideAmount(t.OpenNet()),
			t.Debit, t.Credit, runner.SideAmount(t.CloseNet()), ru.Count(res.Summary.Rows, "проводка", "проводки", "проводок"))
		it.Fields = []facts.Field{{Name: "Сальдо на начало", Value: runner.SideAmount(t.OpenNet())}, {Name: "Оборот Дт", Value: t.Debit.String()},
			{Name: "Оборот Кт", Value: t.Credit.String()}, {Name: "Сальдо на конец", Value: runner.SideAmount(t.CloseNet())}}
		return it
	}
	it.Text = fmt.Sprintf("Итого: сальдо на начало Дт %s, Кт %s; обороты Дт %s, Кт %s; сальдо на конец Дт %s, Кт %s.",
		t.OpenDebit, t.OpenCredit, t.Debit, t.Credit, t.CloseDebit, t.CloseCredit)
	it.Fields = []facts.Field{{Name: "Сальдо на начало Дт", Value: t.OpenDebit.String()}, {Name: "Сальдо на начало Кт", Value: t.OpenCredit.String()},
		{Name: "Оборот Дт", Value: t.Debit.String()}, {Name: "Оборот Кт", Value: t.Credit.String()},
		{Name: "Сальдо на конец Дт", Value: t.CloseDebit.String()}, {Name: "Сальдо на конец Кт", Value: t.CloseCredit.String()}}
	return it
}
