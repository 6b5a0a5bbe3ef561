package bot

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/golden"
)

// phoneLine is a text line's width on a 360-pixel phone in the message font, where a longer line
// wraps; a table's monospace lines are tgmd.TableWidth wide at most.
const phoneLine = 40

// phoneScreen is a reply as a phone shows it: the messages the bot sends, every text line
// wrapped at phoneLine; with what a golden file keeps — the opening line and the lines on the
// screen.
func phoneScreen(ans api.Answer) (screen, first string, lines int) {
	var text strings.Builder
	for i, m := range render(ans) { // as the bot sends it, tables fitted to tgmd.TableWidth
		if i > 0 {
			text.WriteString("\n\n")
		}
		text.WriteString(m.Text)
	}
	first, _, _ = strings.Cut(text.String(), "\n")
	m := struct{ Text string }{text.String()}
	var b strings.Builder
	for _, l := range strings.Split(m.Text, "\n") {
		r := []rune(l)
		for len(r) > phoneLine { // a line wraps at its last space that fits
			cut := phoneLine
			for i := phoneLine; i > 0; i-- {
				if r[i] == ' ' {
					cut = i
					break
				}
			}
			b.WriteString(string(r[:cut]) + "\n")
			r = []rune(strings.TrimLeft(string(r[cut:]), " "))
			lines++
		}
		b.WriteString(string(r) + "\n")
		lines++
	}
	return b.String(), first, lines
}

// TestPhoneShapes: each kind of 1C answer as a phone shows it (golden files in
// testdata/phone): the answer on its opening line, the scope in one short line, a table no
// wider than the screen, the rest counted.
func TestPhoneShapes(t *testing.T) {
	a, _ := hostileAgent(t)
	for i, tt := range []struct{ name, q string }{
		{"receivables", "кто нам должен на 31.03.2026"},
		{"payables", "кому мы должны на 31.03.2026"},
		{"top_debtor", "кто самый крупный должник на 31.03.2026"},
		{"open_items_supplier", "сколько мы должны промпоставке на 31.03.2026"},
		{"open_items_both_sides", "расчёты с универсалом на 25.04.2026"},
		{"balance_51", "остаток по 51 на 01.04.2026"},
		{"balance_60_expanded", "сальдо 60 на 31.12.2025"},
		{"documents", "документы альфы за март 2026"},
		{"bank_operations", "оплаты от альфы за март 2026"},
		{"open_contracts", "незакрытые договоры на 31.03.2026"},
		{"drilldown_62", "расшифруй остаток по 62 на 31.03.2026"},
		{"sheet_62", "осв по 62 за март 2026"},
		{"card_51", "карточка 51 за март 2026"},
		{"act_alfa", "акт сверки с альфой за 1 квартал 2026"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ans, err := a.Answer(t.Context(), api.Request{UserID: int64(9100 + i), ChatID: int64(9100 + i), Text: tt.q})
			if err != nil {
				t.Fatal(err)
			}
			screen, first, lines := phoneScreen(ans)
			if !strings.Contains(first, "₽") {
				t.Errorf("%q: the opening line states no figure: %q", tt.q, first)
			}
			for _, l := range strings.Split(screen, "\n") {
				if n := utf8.RuneCountInString(l); n > phoneLine {
					t.Errorf("%q: a line of %d runes on a %d-wide screen: %q", tt.q, n, phoneLine, l)
				}
			}
			head := fmt.Sprintf("Q: %s\nfirst line: %s\ncharacters: %d, lines on a %d-wide screen: %d\n\n", tt.q, first,
				utf8.RuneCountInString(ans.Text), phoneLine, lines)
			golden.Check(t, filepath.Join("testdata", "phone", tt.name+".golden"), head+screen)
		})
	}
}
