package library

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// deadlinesArticle is a knowledge-base article as the library extracts its Markdown: the title,
// a lead paragraph, a table under a heading, a paragraph, a list of penalties.
const deadlinesArticle = `Сроки сдачи отчётности

Большинство квартальных отчётов организации сдают **до 25-го числа** месяца, следующего за отчётным периодом. Если срок выпадает на выходной, он переносится на ближайший рабочий день.

Основные сроки
| Отчёт | Период | Срок |
|---|---|---|
| Декларация по НДС | квартал | до 25-го числа месяца после квартала |
| Расчёт по страховым взносам (РСВ) | квартал | до 25-го числа месяца после квартала |
| 6-НДФЛ | квартал / год | до 25-го числа месяца после квартала / до 25 февраля |
| Годовая бухгалтерская отчётность | год | не позднее 31 марта |

Способ подачи
Отчётность подают в электронном виде. Декларацию по НДС на бумаге подать нельзя.

Штрафы и блокировка счёта
- Непредставление 6-НДФЛ — 1 000 руб. за каждый полный или неполный месяц просрочки.
- Если декларация или 6-НДФЛ не поданы в течение 20 рабочих дней после срока, налоговая может приостановить операции по счетам.

Практика
Сдавайте отчёты за несколько дней до срока.`

// vatArticle lists a deadline's dates under the sentence that introduces them, and the
// payment's under another heading.
const vatArticle = `Декларация по НДС: сроки и уплата

Налоговый период и срок подачи
Налоговый период по НДС — квартал. Декларацию подают не позднее 25-го числа месяца, следующего за истёкшим кварталом:
- за I квартал — до 25 апреля;
- за III квартал — до 25 октября;
- за IV квартал — до 25 января следующего года.

Уплата
НДС за квартал уплачивают равными долями не позднее 28-го числа каждого из трёх месяцев, следующих за кварталом.

Резерв
- Размер определяют по результатам инвентаризации:
- просрочка более 90 дней — вся сумма долга;
- до 45 дней — не включается.
- Отчисления в резерв включают во внереализационные расходы.`

// asksDeadline is how the agent reads a question that asks for a time limit of subject (its text
// without the words that ask; "" = the question): agent/understand's Asks.
func asksDeadline(subject string) Asking {
	return Asking{When: true, Term: true, Deadline: true, Subject: subject}
}

// TestArticleQuote: the part of an article that answers, under the heading it stands under —
// the table row that names the report asked about and states its date, not a penalty that
// mentions it; a question that asks for a time limit the article does not state for what it
// names misses.
func TestArticleQuote(t *testing.T) {
	tests := []struct {
		article, query string
		asking         Asking
		text, section  string
		misses         bool
	}{
		{deadlinesArticle, "в какой срок сдавать 6-ндфл", asksDeadline("сдавать 6-ндфл"),
			"6-НДФЛ — период: квартал / год; срок: до 25-го числа месяца после квартала / до 25 февраля", "Основные сроки", false},
		{deadlinesArticle, "6 ндфл за год до какого числа", asksDeadline("6 ндфл за год"),
			"6-НДФЛ — период: квартал / год; срок: до 25-го числа месяца после квартала / до 25 февраля", "Основные сроки", false},
		{deadlinesArticle, "когда сдавать отчётность по НДС", asksDeadline(""),
			"Декларация по НДС — период: квартал; срок: до 25-го числа месяца после квартала", "Основные сроки", false},
		{deadlinesArticle, "когда сдавать рсв", asksDeadline(""),
			"Расчёт по страховым взносам (РСВ) — период: квартал; срок: до 25-го числа месяца после квартала", "Основные сроки", false},
		// The items of a list that answer as well come with it.
		{deadlinesArticle, "какой штраф за несдачу 6-ндфл", Asking{},
			"• Непредставление 6-НДФЛ — 1 000 руб. за каждый полный или неполный месяц просрочки. • Если декларация или 6-НДФЛ " +
				"не поданы в течение 20 рабочих дней после срока, налоговая может приостановить операции по счетам.", "Штрафы и блокировка счёта", false},
		{deadlinesArticle, "можно ли подать декларацию по ндс на бумаге", Asking{},
			"Отчётность подают в электронном виде. Декларацию по НДС на бумаге подать нельзя.", "Способ подачи", false},
		// What the article has no time limit for: «усн» is what the question is about.
		{deadlinesArticle, "до какого числа сдавать декларацию по усн", asksDeadline("сдавать декларацию по усн"),
			"Декларация по НДС — период: квартал; срок: до 25-го числа месяца после квартала", "Основные сроки", true},
		// The sentence that introduces a list comes with it, and the heading is its own, not the
		// payment's.
		{vatArticle, "до какого числа сдать декларацию по ндс за 3 квартал", asksDeadline("сдать декларацию по ндс за 3 квартал"),
			"Налоговый период по НДС — квартал. Декларацию подают не позднее 25-го числа месяца, следующего за истёкшим кварталом: • за I квартал — до 25 апреля; " +
				"• за III квартал — до 25 октября; • за IV квартал — до 25 января следующего года.", "Налоговый период и срок подачи", false},
		{vatArticle, "до какого числа платить ндс", asksDeadline("платить ндс"),
			"НДС за квартал уплачивают равными долями не позднее 28-го числа каждого из трёх месяцев, следующих за кварталом.", "Уплата", false},
		// An item that goes on with the one a colon ends: both, the nesting lost in extraction.
		{vatArticle, "резерв если просрочка больше 90 дней", Asking{},
			"Размер определяют по результатам инвентаризации: • просрочка более 90 дней — вся сумма долга;", "Резерв", false},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			title := strings.SplitN(tt.article, "\n", 2)[0]
			q := ArticleQuote(tt.article, title, "", tt.query, tt.asking, 450)
			got := struct {
				Text, Section string
				Misses        bool
			}{q.Text, q.Section, q.Misses}
			want := struct {
				Text, Section string
				Misses        bool
			}{tt.text, tt.section, tt.misses}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ArticleQuote(%q) mismatch (-want +got):\n%s", tt.query, diff)
			}
		})
	}
}

// TestArticleQuoteRelevance: quotes of different articles compare by what of the question they
// hold, not by how rare its words are in their own article.
func TestArticleQuoteRelevance(t *testing.T) {
	q, a := "в какой срок сдавать 6-ндфл", asksDeadline("сдавать 6-ндфл")
	row := ArticleQuote(deadlinesArticle, "Сроки сдачи отчётности", "", q, a, 450)
	other := ArticleQuote(vatArticle, "Декларация по НДС: сроки и уплата", "", q, a, 450)
	if row.Score <= other.Score || !other.Misses {
		t.Errorf("6-НДФЛ's row scores %.2f (misses %v), the VAT article's quote %q %.2f (misses %v): want the row first and the other missing",
			row.Score, row.Misses, other.Text, other.Score, other.Misses)
	}
}

func TestArticleUnits(t *testing.T) {
	units := articleUnits(deadlinesArticle, "")
	var kinds []string
	for _, u := range units {
		kinds = append(kinds, map[unitKind]string{unitSentence: "s", unitItem: "i", unitRow: "r", unitHeading: "h"}[u.kind]+":"+u.section)
	}
	want := []string{"h:Сроки сдачи отчётности", "s:Сроки сдачи отчётности", "s:Сроки сдачи отчётности",
		"h:Основные сроки", "r:Основные сроки", "r:Основные сроки", "r:Основные сроки", "r:Основные сроки",
		"h:Способ подачи", "s:Способ подачи", "s:Способ подачи",
		"h:Штрафы и блокировка счёта", "i:Штрафы и блокировка счёта", "i:Штрафы и блокировка счёта",
		"h:Практика", "s:Практика"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("articleUnits kinds and sections mismatch (-want +got):\n%s", diff)
	}
	if got := rowText(units[4]); got != "Декларация по НДС — период: квартал; срок: до 25-го числа месяца после квартала" {
		t.Errorf("rowText = %q", got)
	}
	if units[1].text != "Большинство квартальных отчётов организации сдают до 25-го числа месяца, следующего за отчётным периодом." {
		t.Errorf("emphasis not removed: %q", units[1].text)
	}
}

// TestTimeLimits: what states a time limit, and what only looks like one.
func TestTimeLimits(t *testing.T) {
	tests := []struct {
		text            string
		dated, deadline bool
	}{
		{"до 25-го числа месяца после квартала", true, true},
		{"до 25 февраля", true, true},
		{"28-е число", true, true},
		{"накануне этого дня", true, true},
		{"в день увольнения — последний день работы", true, true},
		{"не позднее чем за три дня до начала отпуска", false, true},
		{"в течение 3 рабочих дней после возвращения", false, true},
		{"Общий срок исковой давности — 3 года", false, true},
		{"не реже чем каждые полмесяца", false, true},
		{"непосредственно до или после его передачи", false, true},
		{"по отгрузкам до 1 января 2026 года", false, false},
		{"С 1 января 2026 года основная ставка НДС составляет 22%", false, false},
		{"Федеральным законом от 28.11.2025 № 425-ФЗ", false, false},
		{"пени за каждый день просрочки", false, false},
		{"за третий месяц уведомление не нужно", false, false},
		{"в пределах 700 руб. в день по России", false, false},
	}
	for _, tt := range tests {
		if d, l := isDated(tt.text), hasDeadline(tt.text); d != tt.dated || l != tt.deadline {
			t.Errorf("%q: dated %v, deadline %v; want %v, %v", tt.text, d, l, tt.dated, tt.deadline)
		}
	}
}
