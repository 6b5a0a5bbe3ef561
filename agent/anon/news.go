package anon

import (
	"context"
	"regexp"
	"strings"
	"unicode"

	"github.com/finbot/finbot/integrations/tavily"
)

// NewsSearcher is a web news search (*tavily.Client).
type NewsSearcher interface {
	Search(ctx context.Context, q tavily.Query) (tavily.Response, error)
	Configured() bool
}

// News keeps the ledger's names out of news searches: a query loses every name and number
// the anonymiser would mask (the requester's catalogs come with the Session in ctx), whatever
// the mode — a web search is never self-hosted. A query left with no word is not sent: it
// finds nothing.
type News struct {
	Next NewsSearcher
}

// Configured reports whether the search behind is configured.
func (n News) Configured() bool { return n.Next != nil && n.Next.Configured() }

// Search searches q without the identifiers its text holds.
func (n News) Search(ctx context.Context, q tavily.Query) (tavily.Response, error) {
	var dicts []*Dictionary
	if s := sessionFrom(ctx); s != nil {
		if d := s.dictionary(); d != nil {
			dicts = append(dicts, d)
		}
	}
	q.Text = StripIdentifiers(q.Text, dicts)
	if !strings.ContainsFunc(q.Text, unicode.IsLetter) {
		return tavily.Response{}, nil
	}
	return n.Next.Search(ctx, q)
}

// emptyName is what a name's removal leaves: a legal form and empty quotes.
var emptyName = regexp.MustCompile(`(?:\b(?:ООО|АО|ПАО|ЗАО|ОАО|ИП)\s*)?[«"“„]\s*[»"”“]|(?:^|\s)(?:ООО|АО|ПАО|ЗАО|ОАО|ИП)(?:\s|$)`)

// StripIdentifiers is text without the names and numbers the anonymiser finds in it.
func StripIdentifiers(text string, dicts []*Dictionary) string {
	hs := detect(text, dicts)
	if len(hs) == 0 {
		return text
	}
	var b strings.Builder
	last := 0
	for _, h := range hs {
		b.WriteString(text[last:h.start])
		b.WriteByte(' ')
		last = h.end
	}
	b.WriteString(text[last:])
	out := emptyName.ReplaceAllString(b.String(), " ")
	return strings.Join(strings.Fields(out), " ")
}
