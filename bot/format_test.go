package bot

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/bot/tgmd"
)

// Dynamic values (counterparty names, document titles) must come out exactly as they are.
func TestEscapeMarkdownRoundTrip(t *testing.T) {
	names := []string{
		`ООО «Рога_и*Копыта»`, `ИП Иванов [И.И.] (филиал #2)`, `A\B_C*D~E|F{G}H.I!J+K-L=M>N<O`,
		"`code` **bold**", `1. не список`, `# не заголовок`, `АО "Звезда & Ко"`, `_*[]()~>#+-=|{}.!`,
	}
	for _, name := range names {
		got := tgmd.Convert(agent.EscapeMarkdown(name))
		if got.Text != name || len(got.Entities) != 0 {
			t.Errorf("Convert(EscapeMarkdown(%q)) = %q with %d entities", name, got.Text, len(got.Entities))
		}
	}
}

func TestRenderPutsFootnotesInLastPart(t *testing.T) {
	long := strings.Repeat("Абзац ответа про сальдо по счёту 62.01 и акты сверки.\n\n", 200) // ~11,000 characters
	ans := agent.Answer{Text: long, Sources: []agent.Source{
		{Title: "Договор № П-15/2025 (ООО «Альфа»)", URL: "https://example.com/a(1)"},
		{Title: "База знаний: учёт авансов"},
	}}
	parts := render(ans)
	if len(parts) < 3 {
		t.Fatalf("render made %d parts, want ≥ 3", len(parts))
	}
	for i, p := range parts {
		if n := len(utf16.Encode([]rune(p.Text))); n > maxMessageUnits {
			t.Errorf("part %d has %d UTF-16 units", i, n)
		}
		if err := p.Validate(); err != nil {
			t.Errorf("part %d: %v", i, err)
		}
	}
	last := parts[len(parts)-1]
	for _, want := range []string{"Источники", "[1] Договор № П-15/2025 (ООО «Альфа»)", "[2] База знаний: учёт авансов"} {
		if !strings.Contains(last.Text, want) {
			t.Errorf("last part lacks %q:\n%s", want, last.Text)
		}
	}
	var link bool
	for _, e := range last.Entities {
		link = link || (e.Type == "text_link" && e.URL == "https://example.com/a%281%29")
	}
	if !link {
		t.Errorf("footnote link missing: %+v", last.Entities)
	}
}
