package understand_test

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/understand"
)

// Cases the corpus does not hold, each with what must be understood.
func TestParseCases(t *testing.T) {
	cats := demoCatalogs(t)
	p := understand.NewParser()
	day := func(d understand.Decision) string {
		if !d.Date.Set {
			return ""
		}
		return d.Date.Value.Format(time.DateOnly)
	}
	tests := []struct {
		text, kind, recipe, contract, counterparty, date string
	}{
		// A contract named by its date: the date is the contract's, not the as-of day.
		{"открытые позиции по договору с альфой от 06.02.2024", "ledger", "open_items_by_contract", "П-77/2024", "ООО «Альфа»", ""},
		{"по договору с альфой от 06.02.2024 что не оплачено на 1.03", "ledger", "open_items_by_contract", "П-77/2024", "ООО «Альфа»", "2026-03-01"},
		// A date that names no contract stays a date.
		{"документы альфы от 07.02.2024", "ledger", "documents_by_counterparty", "", "ООО «Альфа»", ""},
		// A contract number without its letters, and the unknown company of a quoted name.
		{"долг по дог 77/2024", "ledger", "open_items_by_contract", "П-77/2024", "", ""},
		{"сколько должен «Рога и копыта»", "unknown_entity", "open_items_by_counterparty", "", "", ""},
		// A bare «ставка» is the key rate, unless the words after it say what it is the rate of.
		{"ставка сейчас", "key_rate", "", "", "", ""},
		{"ставка аренды за метр", "clarify", "", "", "", ""},
		{"какая ставка по займу", "clarify", "", "", "", ""},
		// A contract by its bare number; a number no contract has; a number of days is no account.
		{"сколько нам должны по договору 178", "ledger", "open_items_by_contract", "178/2024", "", ""},
		{"долг по договору 999/2024", "unknown_entity", "", "", "", ""},
		{"сальдо по 60 счету 2 месяца назад", "ledger", "account_balance_snapshot", "", "", "2026-02-25"},
		// «осв по 19.03 за 1 кв»: the period is «за 1 кв», so 19.03 is the sub-account.
		{"осв по 19.03 за 1 кв", "ledger", "turnover_sheet", "", "", ""},
		// A counterparty written in Latin letters.
		{"долг alfa", "ledger", "open_items_by_counterparty", "", "ООО «Альфа»", ""},
		{"долг vector", "ledger", "open_items_by_counterparty", "", "АО «Вектор»", ""},
		{"сколько должен granit", "ledger", "open_items_by_counterparty", "", "ООО «Гранит»", ""},
		// «привезти» is one letter from «привет», and no greeting.
		{"когда должны привезти вторую партию", "kb", "", "", "", ""},
	}
	for _, tt := range tests {
		d := p.Parse(understand.Input{Text: tt.text, Now: corpusToday, Catalogs: cats})
		if want := map[string]string{"сальдо по 60 счету 2 месяца назад": "60", "осв по 19.03 за 1 кв": "19.03"}[tt.text]; want != "" && d.Account.Value != want {
			t.Errorf("%q: account %q, want %s", tt.text, d.Account.Value, want)
		}
		if string(d.Kind) != tt.kind || string(d.Recipe) != tt.recipe || d.Contract.Value.Number != tt.contract ||
			d.Counterparty.Value.Name != tt.counterparty || day(d) != tt.date {
			t.Errorf("%q: %s %s contract %q counterparty %q date %q; want %s %s %q %q %q", tt.text, d.Kind, d.Recipe,
				d.Contract.Value.Number, d.Counterparty.Value.Name, day(d), tt.kind, tt.recipe, tt.contract, tt.counterparty, tt.date)
		}
	}
}
