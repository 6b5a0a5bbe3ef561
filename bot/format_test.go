package bot

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/bot/tgmd"
)

// Dynamic values (counterparty names, document titles) must come out exactly as they are.
func TestEscapeMarkdownRoundTrip(t *testing.T) {
	names := []string{
		`ООО «Рога_и*Копыта»`, `ИП Иванов [И.И.] (филиал #2)`, `A\B_C*D~E|F{G}H.I!J+K-L=M>N<O`,
		"`code` **bold**", `1. не список`, `# не заголовок`, `АО "Звезда & Ко"`, `_*[]()~>#+-=|{}.!`,
	}
	for _, name := range names {
		got := tgmd.Convert(api.EscapeMarkdown(name))
		if got.Text != name || len(got.Entities) != 0 {
			t.Errorf("Convert(EscapeMarkdown(%q)) = %q with %d entities", name, got.Text, len(got.Entities))
		}
	}
}

func TestRenderPutsFootnotesInLastPart(t *testing.T) {
	long := strings.Repeat("Абзац ответа про сальдо по счёту 62.01 и акты сверки.\n\n", 200) // ~11,000 characters
	ans := api.Answer{Text: long, Sources: []api.Source{
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

// In the console and `ask` a footnote shows its address: a terminal cannot open the link
// entity Telegram would carry it in. A news footnote keeps its headline and site, then the page.
func TestConsoleFootnotesShowTheirAddress(t *testing.T) {
	tests := []struct {
		name string
		ans  api.Answer
		want string
	}{
		{"rates", api.Answer{Text: "**Курсы Банка России на 14\\.03\\.2026** [1]\n\n- **EUR** — евро: **88,1000 ₽**",
			Sources: []api.Source{{Title: "Банк России, курсы на 14.03.2026", URL: "https://www.cbr.ru/currency_base/daily/?UniDbQuery.Posted=True&UniDbQuery.To=14.03.2026"}}},
			"Курсы Банка России на 14.03.2026 [1]\n\n• EUR — евро: 88,1000 ₽\n\nИсточники\n\n" +
				"[1] Банк России, курсы на 14.03.2026 (https://www.cbr.ru/currency_base/daily/?UniDbQuery.Posted=True&UniDbQuery.To=14.03.2026)"},
		{"news", api.Answer{Text: "1. 13.03.2026 — Банк России сохранил ставку [1]\n2. 12.03.2026 — Ставка НДС \\(2026\\) [2]",
			Sources: []api.Source{
				{Title: "Банк России сохранил ставку — cbr.ru", URL: "https://www.cbr.ru/press/pr/?file=13032026.htm"},
				{Title: "Ставка НДС (2026) — klerk.ru", URL: "https://www.klerk.ru/buh/news/1 (2)/"},
			}},
			"1. 13.03.2026 — Банк России сохранил ставку [1]\n2. 12.03.2026 — Ставка НДС (2026) [2]\n\nИсточники\n\n" +
				"[1] Банк России сохранил ставку — cbr.ru (https://www.cbr.ru/press/pr/?file=13032026.htm)\n" +
				"[2] Ставка НДС (2026) — klerk.ru (https://www.klerk.ru/buh/news/1%20%282%29/)"},
		{"1C without an address", api.Answer{Text: "**Итого нам должны: 1 000,00 ₽** [1]",
			Sources: []api.Source{{Title: "1С: Кто должен нам, ООО «Северный ветер», демо-база (встроенная)"}}},
			"Итого нам должны: 1 000,00 ₽ [1]\n\nИсточники\n\n[1] 1С: Кто должен нам, ООО «Северный ветер», демо-база (встроенная)"},
		{"a link in the text", api.Answer{Text: "См\\. [ст\\. 330 ГК РФ](https://www.consultant.ru/330) и https://www.cbr.ru/"},
			"См. ст. 330 ГК РФ (https://www.consultant.ru/330) и https://www.cbr.ru/"},
		{"emoji before the link", api.Answer{Text: "📄 [договор](https://example.com/d) 📈"}, "📄 договор (https://example.com/d) 📈"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ans := tt.ans
			a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) { return ans, nil }}
			var out strings.Builder
			_, replies := NewConsole(a, &out, ConsoleOptions{UserID: 1}).Ask(t.Context(), "вопрос")
			if len(replies) != 1 || replies[0] != tt.want {
				t.Errorf("reply:\n%q\nwant:\n%q", replies, tt.want)
			}
			if !strings.Contains(out.String(), tt.want) {
				t.Errorf("console printed:\n%s", out.String())
			}
		})
	}
}

// What the agent escapes and `ask --json` unescapes still converts to the literal value: no
// name becomes formatting once the escapes a reader does not need are gone.
func TestUnescapedMarkdownKeepsNamesLiteral(t *testing.T) {
	names := []string{
		`ООО «Рога_и*Копыта»`, `ИП Иванов [И.И.] (филиал #2)`, `A\B_C*D~E|F{G}H.I!J+K-L=M>N<O`,
		"`code` **bold**", `1. не список`, `# не заголовок`, `- не список`, `> не цитата`, `12) не список`,
		`АО "Звезда & Ко"`, `_*[]()~>#+-=|{}.!`, `31.03.2026`, `ООО «Гранит-М» (основная)`,
	}
	for _, name := range names {
		got := tgmd.Convert(md.Unescape(api.EscapeMarkdown(name)))
		if got.Text != name || len(got.Entities) != 0 {
			t.Errorf("Convert(Unescape(EscapeMarkdown(%q))) = %q with %d entities", name, got.Text, len(got.Entities))
		}
	}
}

func TestUptime(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0 с"}, {59 * time.Second, "59 с"}, {5*time.Minute + 6*time.Second, "5 мин 6 с"},
		{time.Hour + 2*time.Minute + 3*time.Second, "1 ч 2 мин"}, {2*24*time.Hour + 3*time.Hour, "2 д 3 ч 0 мин"},
	} {
		if got := uptime(tt.d); got != tt.want {
			t.Errorf("uptime(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
