package agent

import (
	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/ru"
)

// EscapeMarkdown makes a dynamic value (a counterparty name, a document title, a currency name
// from the Bank of Russia) literal inside the agent's Markdown.
func EscapeMarkdown(s string) string { return md.Escape(s) }

// formatDecimal writes d the Russian way: a comma before the fraction, no-break spaces between
// thousands, exactly places digits after the comma ("1 234,5000").
func formatDecimal(d decimal.Decimal, places int32) string { return ru.Decimal(d.StringFixed(places)) }

// formatSigned is formatDecimal with an explicit sign: "+0,5600", "−1,2000", "0,0000".
func formatSigned(d decimal.Decimal, places int32) string {
	if d.Round(places).IsPositive() {
		return "+" + formatDecimal(d, places)
	}
	return formatDecimal(d, places)
}
