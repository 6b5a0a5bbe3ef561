package render

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/internal/golden"
	"github.com/finbot/finbot/ru"
)

func TestFactsGolden(t *testing.T) {
	empty := facts.Payload{Found: false}
	notFound := facts.Payload{Found: false, Items: ratesPayload().Items, Sources: ratesPayload().Sources}
	foundNoItems := facts.Payload{Found: true, Limitations: []string{"Данные 1С на 31.03.2026."}}
	total := receivablesPayload()
	total.Total = 12345 + len(total.Items)
	tests := []struct {
		name  string
		p     facts.Payload
		style Style
		l     Limits
	}{
		{"rates_bullets", ratesPayload(), Bullets, Limits{}},
		{"rates_grouped", ratesPayload(), Grouped, Limits{}}, // no groups: bullets
		{"rates_short", ratesPayload(), Short, Limits{}},
		{"rates_table", ratesPayload(), Table, Limits{}},
		{"receivables_bullets", receivablesPayload(), Bullets, Limits{MaxItems: 10}},
		{"receivables_grouped", receivablesPayload(), Grouped, Limits{}},
		{"receivables_grouped_limited", receivablesPayload(), Grouped, Limits{MaxItems: 5, MaxGroups: 1}},
		{"receivables_short", receivablesPayload(), Short, Limits{}},
		{"receivables_table", receivablesPayload(), Table, Limits{MaxItems: 10}},
		{"receivables_total_bullets", total, Bullets, Limits{}},
		{"documents_bullets", documentsPayload(), Bullets, Limits{}},
		{"documents_short", documentsPayload(), Short, Limits{}},
		{"documents_table", documentsPayload(), Table, Limits{}}, // no fields: bullets
		{"kb_bullets", kbPayload(), Bullets, Limits{}},
		{"kb_short", kbPayload(), Short, Limits{}},
		{"empty", empty, Bullets, Limits{}},
		{"not_found_with_items", notFound, Table, Limits{}},
		{"found_no_items", foundNoItems, Grouped, Limits{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Facts(tt.p, tt.style, tt.l)
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), got)
			if again := Facts(tt.p, tt.style, tt.l); again != got {
				t.Errorf("not deterministic:\n%s\n---\n%s", got, again)
			}
			checkClean(t, got)
		})
	}
}

func TestContextGolden(t *testing.T) {
	tests := []struct {
		name     string
		p        facts.Payload
		maxChars int
	}{
		{"context_all", allSections(), 0},
		{"context_truncated", allSections(), 1500},
		{"context_empty", facts.Payload{}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Context(tt.p, tt.maxChars)
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), fmt.Sprintf("included: %d\n\n%s", n, got))
			checkClean(t, got)
		})
	}
}

// artifact finds the technical artifacts the final text must not carry.
var artifact = regexp.MustCompile(`(?i)confidence|уверенность:|\[\d+\][ \t]*[-–—]|\d\]\[`)

func checkClean(t *testing.T, s string) {
	t.Helper()
	if m := artifact.FindString(s); m != "" {
		t.Errorf("technical artifact %q in:\n%s", m, s)
	}
	if !utf8.ValidString(s) {
		t.Errorf("invalid UTF-8: %q", s)
	}
}

func TestFactsAllSectionsEveryStyle(t *testing.T) {
	// Every style over the mixed payload: deterministic, clean and with only marks that exist.
	p := allSections()
	mark := regexp.MustCompile(`\[(\d+)\]`)
	for _, st := range []Style{Bullets, Grouped, Short, Table, "bogus"} {
		got := Facts(p, st, Limits{})
		checkClean(t, got)
		for _, m := range mark.FindAllStringSubmatchIndex(got, -1) {
			if m[0] > 0 && got[m[0]-1] == '\\' {
				continue // an escaped bracket of a name
			}
			var n int
			fmt.Sscan(got[m[2]:m[3]], &n)
			if n < 1 || n > len(p.Sources) {
				t.Errorf("%s: mark [%d] of %d sources", st, n, len(p.Sources))
			}
			if got[m[0]-1] != ' ' {
				t.Errorf("%s: mark %q not after a space", st, got[m[0]:m[1]])
			}
		}
	}
	if Facts(p, "bogus", Limits{}) != Facts(p, Bullets, Limits{}) {
		t.Error("an unknown style is not rendered as BULLETS")
	}
}

func TestFactsEscapesMarkdown(t *testing.T) {
	p := facts.Payload{Found: true, Sources: []facts.Source{osv62},
		Limitations: []string{"Организация *Вектор* — данные_на 31.03.2026"},
		Items: []facts.Item{{Title: "ООО «Рога_и*Копыта» [1]", Group: "Покупатели_2", Source: 1,
			Text:   "Долг по [договору](http://x) #15 — `1 250 000,00 ₽`",
			Fields: []facts.Field{{Name: "Сумма|итого", Value: "1 250 000,00 ₽"}}}}}
	want := map[Style][]string{
		Bullets: {`- **ООО «Рога\_и\*Копыта» \[1\]** — Долг по \[договору\]\(http://x\) \#15 — ` + "\\`1 250 000,00 ₽\\`" + ` [1]`},
		Grouped: {`**Покупатели\_2**`},
		Table:   {`**ООО «Рога\_и\*Копыта» \[1\]** [1]`, `Сумма\|итого: 1 250 000,00 ₽`},
		Short:   {`**ООО «Рога\_и\*Копыта» \[1\]** — Долг по`},
	}
	for st, parts := range want {
		got := Facts(p, st, Limits{})
		for _, w := range parts {
			if !strings.Contains(got, w) {
				t.Errorf("%s: want %q in:\n%s", st, w, got)
			}
		}
		if lim := `_Организация \*Вектор\* — данные\_на 31\.03\.2026_`; !strings.HasSuffix(got, "\n\n"+lim) {
			t.Errorf("%s: limitation not last as %q:\n%s", st, lim, got)
		}
	}
	ctx, _ := Context(p, 0)
	if w := `- ООО «Рога\_и\*Копыта» \[1\] — Долг по`; !strings.Contains(ctx, w) {
		t.Errorf("Context: want %q in:\n%s", w, ctx)
	}
}

func TestFactsDropsArtifacts(t *testing.T) {
	p := facts.Payload{Found: true, Sources: []facts.Source{contract},
		Items: []facts.Item{
			{Title: "Срок оплаты", Text: "[1] – 10 банковских дней (confidence: 0.87)", Source: 1},
			{Title: "Неустойка", Text: "0,1 % в день [score=0,42]", Source: 7}, // no such source
			{Title: "Список", Text: "Основания:\n[1] — договор;\n  [2] - акт", Source: 1},
		}}
	for _, st := range []Style{Bullets, Grouped, Short, Table} {
		got := Facts(p, st, Limits{})
		checkClean(t, got)
		if strings.Contains(got, "[7]") || strings.Contains(got, "0,42") || strings.Contains(got, "0\\.87") {
			t.Errorf("%s: artifact left:\n%s", st, got)
		}
	}
	got := Facts(p, Bullets, Limits{})
	want := "- **Срок оплаты** — 10 банковских дней [1]\n- **Неустойка** — 0,1 % в день\n- **Список** — Основания: договор; акт [1]"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestFactsLimits checks the «ещё N» rule of every style at the edges.
func TestFactsLimits(t *testing.T) {
	tail := " (по запросу могу вывести)"
	tests := []struct {
		name  string
		items int
		total int
		style Style
		l     Limits
		shown int    // items listed
		more  string // the «ещё» line, "" = none
	}{
		{"bullets exactly max", 10, 0, Bullets, Limits{}, 10, ""},
		{"bullets max+1", 11, 0, Bullets, Limits{}, 10, "ещё 1" + tail},
		{"bullets fewer", 3, 0, Bullets, Limits{}, 3, ""},
		{"bullets total", 10, 25, Bullets, Limits{}, 10, "ещё 15" + tail},
		{"bullets total below items", 5, 2, Bullets, Limits{}, 5, ""},
		{"bullets total thousands", 10, 12350, Bullets, Limits{}, 10, "ещё 12" + nbsp + "340" + tail},
		{"bullets total under 10000", 10, 9999, Bullets, Limits{}, 10, "ещё 9989" + tail},
		{"bullets small max", 4, 0, Bullets, Limits{MaxItems: 3}, 3, "ещё 1" + tail},
		{"table exactly max", 10, 0, Table, Limits{}, 10, ""},
		{"table max+2", 12, 0, Table, Limits{}, 10, "ещё 2" + tail},
		{"table total", 4, 40, Table, Limits{MaxItems: 4}, 4, "ещё 36" + tail},
		{"table one", 1, 0, Table, Limits{MaxItems: 1}, 1, ""},
		{"table total one", 1, 2, Table, Limits{MaxItems: 1}, 1, "ещё 1" + tail},
		{"short exactly max", 4, 0, Short, Limits{}, 4, ""},
		{"short over", 6, 0, Short, Limits{}, 4, "ещё 2" + tail},
		{"short total", 2, 7, Short, Limits{MaxParagraphs: 3}, 2, "ещё 5" + tail},
		{"short one", 2, 0, Short, Limits{MaxParagraphs: 1}, 1, "ещё 1" + tail},
		{"grouped ungrouped exactly max", 10, 0, Grouped, Limits{}, 10, ""},
		{"grouped ungrouped total", 10, 11, Grouped, Limits{}, 10, "ещё 1" + tail},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := manyItems(tt.items)
			p.Total = tt.total
			got := Facts(p, tt.style, tt.l)
			if n := strings.Count(got, "Контрагент"); n != tt.shown {
				t.Errorf("listed %d items, want %d:\n%s", n, tt.shown, got)
			}
			last := got[strings.LastIndex(got, "\n")+1:]
			hasMore := strings.HasPrefix(last, "ещё")
			switch {
			case tt.more == "" && strings.Contains(got, "ещё"):
				t.Errorf("unexpected «ещё» line:\n%s", got)
			case tt.more != "" && (!hasMore || last != tt.more):
				t.Errorf("last line %q, want %q", last, tt.more)
			case tt.more != "" && !strings.Contains(got, "\n\n"+tt.more):
				t.Errorf("«ещё» line not a paragraph of its own:\n%s", got)
			}
		})
	}
}

func TestFactsGroupedLimits(t *testing.T) {
	p := facts.Payload{Found: true}
	add := func(group string, n int) {
		for i := range n {
			p.Items = append(p.Items, facts.Item{Title: fmt.Sprintf("%s-%d", group, i), Group: group})
		}
	}
	add("", 2) // ungrouped first, still listed last
	add("А", 3)
	add("Б", 1)
	add("В", 2)
	add("Г", 1)
	add("Д", 1)
	got := Facts(p, Grouped, Limits{MaxItems: 2, MaxGroups: 3})
	want := strings.Join([]string{
		"**А**\n- **А\\-0**\n- **А\\-1**",
		"ещё 1 (по запросу могу вывести)",
		"**Б**\n- **Б\\-0**",
		"**В**\n- **В\\-0**\n- **В\\-1**",
		"ещё 3 группы (по запросу могу вывести)",
	}, "\n\n")
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = Facts(p, Grouped, Limits{MaxItems: 2, MaxGroups: 6})
	if !strings.HasSuffix(got, "**Прочее**\n- **\\-0**\n- **\\-1**") {
		t.Errorf("«Прочее» not last:\n%s", got)
	}
	if strings.Contains(got, "групп") {
		t.Errorf("groups line with every group shown:\n%s", got)
	}
	got = Facts(p, Grouped, Limits{MaxItems: 2, MaxGroups: 5})
	if !strings.HasSuffix(got, "ещё 1 группа (по запросу могу вывести)") {
		t.Errorf("one hidden group:\n%s", got)
	}
}

func TestFactsSkipsEmptyItems(t *testing.T) {
	p := manyItems(10)
	p.Items = append(p.Items, facts.Item{Kind: "fact", Fields: []facts.Field{{Name: "Сумма"}}}, facts.Item{Text: " \n "})
	if got := Facts(p, Bullets, Limits{}); strings.Contains(got, "ещё") || strings.Count(got, "\n- ") != 9 {
		t.Errorf("empty items listed or counted:\n%s", got)
	}
	if got := Facts(facts.Payload{Found: true, Items: []facts.Item{{}}}, Bullets, Limits{}); got != NotFound {
		t.Errorf("only empty items: %q", got)
	}
}

func TestParseStyle(t *testing.T) {
	tests := []struct {
		in   string
		want Style
		ok   bool
	}{
		{"BULLETS", Bullets, true},
		{" bullets ", Bullets, true},
		{"GROUPED_BULLETS", Grouped, true},
		{"grouped-bullets", Grouped, true},
		{"Grouped bullets", Grouped, true},
		{"grouped", Grouped, true},
		{"short", Short, true},
		{"TABLE", Table, true},
		{"", Bullets, false},
		{"list", Bullets, false},
	}
	for _, tt := range tests {
		if got, ok := ParseStyle(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("ParseStyle(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestEscKeepsNoBreakSpaces(t *testing.T) {
	in := "Сумма\n\t 1" + nbsp + "250" + nbsp + "000,00" + nbsp + "₽  к\u2028оплате "
	want := "Сумма 1" + nbsp + "250" + nbsp + "000,00" + nbsp + "₽ к оплате"
	if got := esc(in); got != want {
		t.Errorf("esc = %q, want %q", got, want)
	}
}

func TestContextSectionsAndSources(t *testing.T) {
	p := allSections()
	text, n := Context(p, 0)
	if n != len(p.Items) {
		t.Errorf("included %d of %d", n, len(p.Items))
	}
	var heads []string
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "## ") {
			heads = append(heads, l)
		}
	}
	want := []string{"## General Facts", "## User Documents", "## Knowledge Base", "## External Data", "## Limitations", "## Sources"}
	if strings.Join(heads, "|") != strings.Join(want, "|") {
		t.Errorf("headings %q, want %q", heads, want)
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "- ") && !strings.Contains(text[:strings.Index(text, l)], "## Limitations") &&
			!regexp.MustCompile(` \[\d+\]$`).MatchString(l) {
			t.Errorf("fact line without a source mark: %q", l)
		}
	}
	// Only the sections with items, and an unknown section counts as General Facts.
	q := documentsPayload()
	q.Items = append(q.Items, facts.Item{Section: "Misc", Text: "Без раздела."})
	text, _ = Context(q, 0)
	if !strings.HasPrefix(text, "## General Facts\n- Без раздела\\.\n\n## User Documents\n") ||
		strings.Contains(text, "Knowledge Base") || strings.Contains(text, "External Data") {
		t.Errorf("sections:\n%s", text)
	}
	// Items are complete: the whole passage, fields and group.
	text, _ = Context(allSections(), 0)
	for _, w := range []string{
		"в размере 0,1 % от неоплаченной суммы за каждый день просрочки, но не более 10 % от суммы поставки [3]",
		"- АО «Гранит» — Сумма: 980" + nbsp + "450,50" + nbsp + "₽; Просрочено: 120" + nbsp + "000,00" + nbsp + "₽; Группа: Покупатели [1]",
	} {
		if !strings.Contains(text, w) {
			t.Errorf("want %q in:\n%s", w, text)
		}
	}
}

func TestContextTruncation(t *testing.T) {
	p := allSections()
	full, all := Context(p, 0)
	fullLen := utf8.RuneCountInString(full)
	prevN := -1
	for max := 1; max <= fullLen+10; max += 7 {
		text, n := Context(p, max)
		if l := utf8.RuneCountInString(text); l > max {
			t.Fatalf("max %d: %d runes", max, l)
		}
		if n < prevN {
			t.Errorf("max %d: included %d after %d at a smaller bound", max, n, prevN)
		}
		prevN = n
		facts := 0
		body, _, _ := strings.Cut(text, "## Limitations")
		for _, l := range strings.Split(body, "\n") {
			if strings.HasPrefix(l, "- ") {
				facts++
			}
		}
		if facts != n {
			t.Errorf("max %d: %d fact lines, included %d", max, facts, n)
		}
		note := fmt.Sprintf("(контекст сокращён: не вошли ещё %s)", ru.Count(all-n, "факт", "факта", "фактов"))
		switch {
		case n < all && n > 0 && !strings.Contains(text, note):
			t.Errorf("max %d: no note %q:\n%s", max, note, text)
		case n == all && strings.Contains(text, "контекст сокращён"):
			t.Errorf("max %d: note without truncation", max)
		}
	}
	if text, n := Context(p, fullLen); text != full || n != all {
		t.Errorf("exact bound changed the text (%d of %d)", n, all)
	}
	// The largest section gives way first: with a bound that drops a few items, the receivables
	// (General Facts, by far the largest) lose their last rows and the other sections stay whole.
	text, n := Context(p, fullLen-200)
	if n >= all || !strings.Contains(text, "## External Data\n- USD") || !strings.Contains(text, "- CNY") ||
		strings.Contains(text, "ООО «Ромашка»") {
		t.Errorf("dropped from the wrong place (%d of %d):\n%s", n, all, text)
	}
	// Sources no included item cites are not listed; the cited ones keep their numbers.
	for _, max := range []int{600, 900, 1200, 1500} {
		text, _ = Context(p, max)
		facts, sources, _ := strings.Cut(text, "## Sources\n")
		for i := range p.Sources {
			mark := fmt.Sprintf("[%d]", i+1)
			if cited, listed := strings.Contains(facts, mark), strings.Contains(sources, mark+" "); cited != listed {
				t.Errorf("max %d: source %s cited %v, listed %v:\n%s", max, mark, cited, listed, text)
			}
		}
	}
}

func TestContextTotalNote(t *testing.T) {
	p := manyItems(3)
	p.Total = 40
	text, n := Context(p, 0)
	if n != 3 || !strings.Contains(text, "(всего найдено фактов: 40, в контексте: 3)") {
		t.Errorf("included %d:\n%s", n, text)
	}
}

func TestContextHugeLimitation(t *testing.T) {
	p := manyItems(2)
	p.Limitations = []string{strings.Repeat("очень длинное ограничение ", 20)}
	text, n := Context(p, 100)
	if n != 0 || utf8.RuneCountInString(text) > 100 {
		t.Errorf("included %d, %d runes:\n%s", n, utf8.RuneCountInString(text), text)
	}
}

func TestFactsItemShapes(t *testing.T) {
	p := facts.Payload{Found: true, Sources: []facts.Source{kbAct}, Items: []facts.Item{
		{Title: "Только заголовок", Source: 1},
		{Text: "Только текст без заголовка", Source: 1},
		{Fields: []facts.Field{{Value: "== значение без имени"}, {Name: "Пусто"}}},
		{Title: "Карточка", Text: "=== строка текста", Fields: []facts.Field{{Name: "Поле", Value: "1"}}},
	}}
	tests := map[Style]string{
		Bullets: "- **Только заголовок** [1]\n- Только текст без заголовка [1]\n- == значение без имени\n- **Карточка** — === строка текста",
		Short:   "**Только заголовок**. [1]\n\nТолько текст без заголовка. [1]\n\n== значение без имени.\n\n**Карточка** — === строка текста.",
		Table:   "**Только заголовок** [1]\n\nТолько текст без заголовка [1]\n\n\\== значение без имени\n\n**Карточка**\n\\=== строка текста\nПоле: 1",
	}
	for st, want := range tests {
		if got := Facts(p, st, Limits{}); got != want {
			t.Errorf("%s:\n got %q\nwant %q", st, got, want)
		}
	}
	ctx, _ := Context(p, 0)
	want := "## General Facts\n- Только заголовок [1]\n- Только текст без заголовка [1]\n- == значение без имени\n- Карточка — === строка текста; Поле: 1\n\n## Sources\n[1] База знаний: Акт сверки взаиморасчётов"
	if ctx != want {
		t.Errorf("Context:\n got %q\nwant %q", ctx, want)
	}
}
