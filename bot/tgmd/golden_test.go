package tgmd

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files (and testdata/long.md) in testdata")

// formatMessage renders m readably: the text, a line "---", then one line
// per entity with its type, offset+length, the quoted text it covers and its
// URL or language.
func formatMessage(m Message) string {
	var sb strings.Builder
	sb.WriteString(m.Text)
	sb.WriteString("\n---\n")
	for _, e := range m.Entities {
		fmt.Fprintf(&sb, "%s %d+%d %s", e.Type, e.Offset, e.Length,
			strconv.Quote(UTF16Slice(m.Text, e.Offset, e.Length)))
		if e.URL != "" {
			sb.WriteString(" url=" + e.URL)
		}
		if e.Language != "" {
			sb.WriteString(" lang=" + e.Language)
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// formatParts renders the parts of a split message, each after a line
// "=== part N (X units)".
func formatParts(parts []Message) string {
	var sb strings.Builder
	for i, p := range parts {
		fmt.Fprintf(&sb, "=== part %d (%d units)\n", i+1, UTF16Len(p.Text))
		sb.WriteString(formatMessage(p))
	}
	return sb.String()
}

func TestGolden(t *testing.T) {
	cases := []string{
		"names", "cyrillic", "emoji", "table_narrow", "table_wide",
		"code", "links", "lists", "quote", "html", "long",
	}
	for _, name := range cases {
		t.Run(name, func(t *testing.T) {
			var src string
			if name == "long" {
				src = longMarkdown(t)
			} else {
				src = readFile(t, filepath.Join("testdata", name+".md"))
			}
			m := Convert(src)
			if err := m.Validate(); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			got := formatMessage(m)
			if name == "long" {
				parts := Split(m, TelegramLimit)
				checkParts(t, m, parts, TelegramLimit)
				got = formatParts(parts)
			}
			golden(t, filepath.Join("testdata", name+".golden"), got)
		})
	}
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readFile(t, path)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s mismatch (-want +got; run go test -update to accept):\n%s", path, diff)
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// longMarkdown returns testdata/long.md, rewriting it from generateLong
// first when -update is set.
func longMarkdown(t testing.TB) string {
	t.Helper()
	path := filepath.Join("testdata", "long.md")
	if *update {
		if err := os.WriteFile(path, []byte(generateLong()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return readFile(t, path)
}

func TestLongFixtureUpToDate(t *testing.T) {
	got := longMarkdown(t)
	if diff := cmp.Diff(generateLong(), got); diff != "" {
		t.Errorf("testdata/long.md is stale (run go test -update):\n%s", diff)
	}
	if n := utf8.RuneCountInString(got); n < 9000 || n > 12000 {
		t.Errorf("long.md has %d runes, want about 10,000", n)
	}
}

// generateLong builds a deterministic ~10,000-character agent answer with
// headings, paragraphs, lists, tables, code and quotes.
func generateLong() string {
	topics := []string{
		"Учёт основных средств", "НДС при импорте", "Зарплата и НДФЛ",
		"Страховые взносы", "Авансовые отчёты", "Сверка с контрагентами",
		"Налог на прибыль", "Упрощённая система", "Кассовая дисциплина",
		"Инвентаризация", "Резервы по сомнительным долгам", "Закрытие года",
	}
	sentences := []string{
		"По данным учёта на **30.09.2024** остаток по счёту 60 составляет 1 245 300,00 ₽.",
		"Обратите внимание на _сроки_: декларация подаётся до 25-го числа месяца, следующего за кварталом.",
		"Контрагент ООО «Рога_и*Копыта» прислал акт сверки с расхождением [см. письмо](https://example.com/mail/42).",
		"Согласно ст. 252 НК РФ расходы должны быть `экономически обоснованы` и документально подтверждены.",
		"📈 Выручка выросла на 12 %, а 💶 валютные поступления — на ~~8 %~~ 9 %.",
		"Если сумма превышает 100 000 ₽, нужен приказ руководителя и подпись главного бухгалтера.",
		"Проводка Дт 91.02 Кт 63 отражает начисление резерва по сомнительным долгам.",
	}
	var sb strings.Builder
	sb.WriteString("# Ответ по вашему запросу\n\nНиже собраны рекомендации по закрытию периода. Проверьте каждый пункт.\n\n")
	for i := 0; utf8.RuneCountInString(sb.String()) < 9800; i++ {
		topic := topics[i%len(topics)]
		fmt.Fprintf(&sb, "## %d. %s\n\n", i+1, topic)
		for j := range 3 {
			sb.WriteString(sentences[(i+j)%len(sentences)])
			sb.WriteString(" ")
			sb.WriteString(sentences[(i+j+3)%len(sentences)])
			sb.WriteString("\n\n")
		}
		switch i % 4 {
		case 0:
			sb.WriteString("- Проверить первичные документы\n- Сверить остатки\n  - по банку\n  - по кассе\n- Подписать акты\n\n")
		case 1:
			sb.WriteString("| Счёт | Сумма |\n|---|---:|\n| 51 | 120 000 |\n| 50 | 5 300 |\n\n")
		case 2:
			sb.WriteString("```sql\nSELECT account, SUM(amount)\nFROM entries\n\nGROUP BY account;\n```\n\n")
		case 3:
			sb.WriteString("> **Важно:** изменения вступают в силу с 01.01.2025.\n\n")
		}
	}
	sb.WriteString("Если остались вопросы — напишите, я помогу. 🙂\n")
	return sb.String()
}
