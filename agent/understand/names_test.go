package understand_test

import (
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/understand"
)

// A company written in Latin letters is the catalog's Cyrillic one; digits the message calls an
// INN that no company has (or that cannot be an INN) are an unknown company — never a question
// about everyone.
func TestLatinNamesAndUnknownINN(t *testing.T) {
	p := understand.NewParser()
	c := demoCatalogs(t)
	now := time.Date(2026, 4, 25, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		text, party, unknown string
	}{
		{"долг romashka", "Ромашка", ""},
		{"сколько должна romashka на 31.03", "Ромашка", ""},
		{"сколько нам должны по инн 7701234567", "", "ИНН 7701234567"},
		{"долг по инн 77012345", "", "ИНН 77012345"},
		{"долг ромашки", "Ромашка", ""},
	}
	for _, tt := range tests {
		d := p.Parse(understand.Input{Text: tt.text, Now: now, Catalogs: c})
		got := ""
		if d.Counterparty.Set {
			got = d.Counterparty.Value.Name
		}
		if tt.party != "" && !strings.Contains(got, tt.party) || tt.party == "" && got != "" {
			t.Errorf("%q: counterparty %q, want %q", tt.text, got, tt.party)
		}
		if d.Unknown != tt.unknown {
			t.Errorf("%q: unknown %q, want %q", tt.text, d.Unknown, tt.unknown)
		}
	}
}
