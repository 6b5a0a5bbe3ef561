package agent

import "context"

// InlineResult is one offer of inline mode ("@finbot usd" in any chat): public figures only —
// ledger data never appears here.
type InlineResult struct {
	ID          string
	Title       string
	Description string
	Text        string // Markdown sent to the chat when the result is chosen
}

// Inline answers an inline query with today's Bank of Russia rates and the key rate.
func (a *Agent) Inline(ctx context.Context, query string) ([]InlineResult, error) {
	if a.rates == nil {
		return nil, nil
	}
	var out []InlineResult
	for _, o := range a.rates.Offers(ctx, query) {
		out = append(out, InlineResult(o))
	}
	return out, nil
}
