package agent

import "github.com/finbot/finbot/agent/md"

// EscapeMarkdown makes a dynamic value (a counterparty name, a document title, a currency name
// from the Bank of Russia) literal inside the agent's Markdown.
func EscapeMarkdown(s string) string { return md.Escape(s) }
