package postcheck

import (
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/facts"
)

func v(k Kind, detail string) Violation { return Violation{k, detail} }

const (
	ratesQuestion = "курсы доллара, евро и юаня на 31 марта"
	// ratesOK is a correct answer on ratesPayload.
	ratesOK = "Курсы Банка России на 31 марта 2026 года:\n\n" +
		"- **USD** — 90,5012 ₽ (+0,3512 ₽) [1]\n" +
		"- **EUR** — 98,12 ₽ (−0,21 ₽) [1]\n" +
		"- **CNY** — 12,45 ₽ (+0,015 ₽) [1]\n\n" +
		"Курсы действуют во вторник, 31.03.2026."
	ledgerQuestion = "открытые позиции по Альфе на конец марта"
	// ledgerOK is a correct answer on ledgerPayload: «1,25 млн» is 1 250 000,00, 3 is the
	// number of items, dates in three formats.
	ledgerOK = "По ООО «Альфа» на 31.03.2026 открыто **1,25 млн ₽** по 3 документам:\n\n" +
		"1. Реализация товаров и услуг № СВ00-000050 от 18.03.2026 — 461 036,40 ₽\n" +
		"2. Реализация товаров и услуг № СВ00-000028 от 9 февраля 2026 г. — 685 570,14 ₽\n" +
		"3. Поступление на расчётный счёт СВ00-000003 от 2026-01-16 — переплата 51 516,61 ₽\n\n" +
		"Все документы — по договору поставки № 178/2024 от 25 апреля 2024 года, счёт 62."
	leaseQuestion = "Есть ли в договоре аренды штрафы за просрочку оплаты?"
	leaseOK       = "Да. За просрочку внесения арендной платы договор предусматривает пени 0,1 % от суммы задолженности за каждый день просрочки (п. 6.2) [1]."
)

type checkCase struct {
	name     string
	payload  facts.Payload
	question string
	answer   string
	want     []Violation
}

func runChecks(t *testing.T, tests []checkCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Check(tt.answer, tt.payload, tt.question)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Check(%q)\n got: %q\nwant: %q", tt.answer, got, tt.want)
			}
		})
	}
}

func TestCheckPasses(t *testing.T) {
	runChecks(t, []checkCase{
		{"rates", ratesPayload(), ratesQuestion, ratesOK, nil},
		{"rates MarkdownV2 escaped", ratesPayload(), ratesQuestion,
			"*Курсы Банка России на 31\\.03\\.2026*\n\n• USD — 90,5012 ₽ \\(\\+0,3512 ₽\\) \\[1\\]\n• EUR — 98,12 ₽ \\(−0,21 ₽\\) \\[1\\]\n• CNY — 12,45 ₽ \\[1\\]", nil},
		{"rates day and month without year", ratesPayload(), ratesQuestion,
			"На 31 марта доллар стоит 90,5012 ₽, евро — 98,12 ₽, юань — 12,45 ₽. Курсы на 31.03 установлены Банком России [1].", nil},
		{"rates footnotes and list numbering ignored", ratesPayload(), ratesQuestion,
			"1. USD — 90,5012 ₽ [1]\n2. EUR — 98,12 ₽ [1, 2]\n3) CNY — 12,45 ₽ [7]\n4. Все курсы — на 31.03.2026.\n**5.** Изменения: +0,3512 ₽, −0,21 ₽, +0,015 ₽.", nil},
		{"rates link in URL", ratesPayload(), ratesQuestion,
			"Курс доллара на 31.03.2026 — 90,5012 ₽ ([cbr.ru](https://www.cbr.ru/currency_base/daily/?UniDbQuery.To=31.03.2026&id=k3j5m2n7p4q6r2s5)).", nil},
		{"ledger", ledgerPayload(), ledgerQuestion, ledgerOK, nil},
		{"ledger exact total and thousands", ledgerPayload(), ledgerQuestion,
			"Открыто 1 250 000,00 ₽ (1 250 тыс. ₽, 1,25 миллиона рублей, 1250000 руб.) по трём документам на 31.03.2026.", nil},
		{"ledger special spaces", ledgerPayload(), ledgerQuestion,
			"Итого 1\u00a0250\u00a0000,00\u00a0₽: 461\u202f036,40 ₽, 685\u2009570,14 ₽ и переплата 51\u2007516,61 ₽.", nil},
		{"key rate percent, dates, time, year", keyRatePayload(), "какая сейчас ключевая ставка?",
			"Ключевая ставка — **21%** годовых, действует с 28 октября 2024 года [1].\n\n" +
				"14 февраля 2025 г. Банк России сохранил её на уровне 21,00 %; пресс-релиз вышел в 13:30 мск [2]. " +
				"В 2025 году это первое заседание, с октября 2024 ставка не менялась.", nil},
		{"ordinals, forms, quarters ignored", keyRatePayload(), "ставка для расчёта пеней",
			"Для пеней в 1 квартале 2025 года берите ставку 21 % [1] — это 3-й квартал подряд без изменений; она же нужна для 6-НДФЛ и учёта в 1С.", nil},
		{"counts, groups and the rest", groupedPayload(), "кто нам должен и кому должны мы",
			"Показаны 3 контрагента из 8, в 2 группах:\n\n**Поставщики** (2)\n- ООО «Вектор» — 120 000,00 ₽\n- ООО «Гранит» — 45 300,00 ₽\n\n" +
				"**Покупатели** (1)\n- ООО «Альфа» — 1,25 млн ₽ (счёт 62)\n\nЕщё 5 (по запросу могу вывести).", nil},
		{"lease", leasePayload(), leaseQuestion, leaseOK, nil},
		{"document number from facts", leasePayload(), leaseQuestion,
			"Да, договор аренды № 12/2025 предусматривает пени 0,1 % в день [1].", nil},
	})
}

func TestCheckInventedNumbers(t *testing.T) {
	runChecks(t, []checkCase{
		{"invented rate", ratesPayload(), ratesQuestion,
			"Курс доллара на 31.03.2026 — 92,15 ₽ [1].",
			[]Violation{v(InventedNumber, "число 92,15")}},
		{"rounded rate", ratesPayload(), ratesQuestion,
			"Курс доллара на 31.03.2026 — 90,50 ₽ [1].",
			[]Violation{v(InventedNumber, "число 90,50")}},
		{"computed amount", ratesPayload(), "сколько рублей за 250 долларов?",
			"250 долларов по курсу 90,5012 ₽ — это 22 625,30 ₽.",
			[]Violation{v(InventedNumber, "число 250"), v(InventedNumber, "число 22 625,30")}},
		{"dates not in facts", ratesPayload(), ratesQuestion,
			"Курс доллара 90,5012 ₽ установлен 30.03.2026 и действует до 1 апреля (2026-04-01).",
			[]Violation{v(InventedNumber, "дата 30.03.2026"), v(InventedNumber, "дата 1 апреля"), v(InventedNumber, "дата 2026-04-01")}},
		{"year not in facts", ratesPayload(), ratesQuestion,
			"Курс доллара 90,5012 ₽ — максимум с 2025 года.",
			[]Violation{v(InventedNumber, "число 2025")}},
		{"count not the number of items", ledgerPayload(), ledgerQuestion,
			"Открыто 1 250 000,00 ₽ по 4 документам.",
			[]Violation{v(InventedNumber, "число 4")}},
		{"million not in facts", ledgerPayload(), ledgerQuestion,
			"Открыто около 1,3 млн ₽.",
			[]Violation{v(InventedNumber, "число 1,3 млн")}},
		{"document number not in facts", ledgerPayload(), ledgerQuestion,
			"Последний документ — № СВ00-000051 на 461 036,40 ₽, см. также СВ00-000051.",
			[]Violation{v(InventedNumber, "номер СВ00-000051")}},
		{"percent and time not in facts", keyRatePayload(), "ключевая ставка",
			"Ставка — 21,5 % годовых [1], решение объявлено в 14:00.",
			[]Violation{v(InventedNumber, "число 21,5 %"), v(InventedNumber, "время 14:00")}},
		{"rest count wrong", groupedPayload(), "кто должен",
			"Показаны 3 из 8. Ещё 6 (по запросу могу вывести).",
			[]Violation{v(InventedNumber, "число 6")}},
	})
}

// The question's dates and the parts of its dates and periods may be repeated; a sum, a rate,
// a count, a time or a number the user typed is not a fact and must come from the facts.
func TestCheckQuestionNumbers(t *testing.T) {
	runChecks(t, []checkCase{
		{"date", ratesPayload(), "как менялся курс доллара с 15.01.2026 по 31.03.2026?",
			"С 15.01.2026 данные не загружены; на 31.03.2026 курс доллара — 90,5012 ₽ [1].", nil},
		{"date in words", ratesPayload(), "курс доллара на 15 января 2026 года",
			"Курс на 15 января 2026 г. не загружен, на 31.03.2026 — 90,5012 ₽ [1].", nil},
		{"day and month", ratesPayload(), "курс доллара на 15 января",
			"На 15 января курса нет, на 31 марта — 90,5012 ₽ [1].", nil},
		{"day and month as a number", ratesPayload(), "курс доллара на 15.01",
			"На 15.01 курса нет, на 31.03.2026 — 90,5012 ₽ [1].", nil},
		{"year", ratesPayload(), "курс доллара в 2025 году",
			"В 2025 году курса нет; на 31.03.2026 — 90,5012 ₽ [1].", nil},
		{"period length", ratesPayload(), "как менялся курс доллара за последние 2 месяца?",
			"За последние 2 месяца есть курс на 31.03.2026: 90,5012 ₽ [1].", nil},
		{"period length reused as a count", ratesPayload(), "как менялся курс доллара за последние 2 месяца?",
			"Курс доллара на 31.03.2026 — 90,5012 ₽, изменился 2 раза [1].",
			[]Violation{v(InventedNumber, "число 2")}},
		{"sum", ratesPayload(), "сколько рублей за 250 долларов по курсу на 31.03.2026?",
			"Курс доллара на 31.03.2026 — 90,5012 ₽ [1], пересчитайте 250 долларов по нему.",
			[]Violation{v(InventedNumber, "число 250")}},
		{"rate", ratesPayload(), "правда, что доллар на 31 марта стоит 95,5 ₽?",
			"Нет: не 95,5 ₽, а 90,5012 ₽ [1].",
			[]Violation{v(InventedNumber, "число 95,5")}},
		{"count", ratesPayload(), "покажи 5 валют на 31 марта",
			"Вот 5 валют: USD — 90,5012 ₽ [1].",
			[]Violation{v(InventedNumber, "число 5")}},
		{"percent", keyRatePayload(), "ключевая ставка всё ещё 16 % годовых?",
			"Нет, ставка — 21% годовых [1], а не 16 %.",
			[]Violation{v(InventedNumber, "число 16 %")}},
		{"time", ratesPayload(), "курс доллара на 31.03.2026 в 15:00",
			"В 15:00 курс доллара — 90,5012 ₽ [1].",
			[]Violation{v(InventedNumber, "время 15:00")}},
		{"document number", ledgerPayload(), "что по счёту № 4471?",
			"Счёт № 4471 не найден; открыта реализация № СВ00-000050 на 461 036,40 ₽.",
			[]Violation{v(InventedNumber, "номер 4471")}},
	})
}

func TestCheckArtifacts(t *testing.T) {
	art := func(detail string) []Violation { return []Violation{v(Artifact, detail)} }
	base := "Курс доллара на 31.03.2026 — 90,5012 ₽ [1]"
	runChecks(t, []checkCase{
		{"confidence", ratesPayload(), ratesQuestion, base + " (confidence: 0.82).", art("оценка уверенности «(confidence: 0.82)»")},
		{"уверенность", ratesPayload(), ratesQuestion, base + ". Уверенность: 0.8", art("оценка уверенности «Уверенность: 0.8»")},
		{"score", ratesPayload(), ratesQuestion, base + " (score=0.91).", art("оценка уверенности «(score=0.91)»")},
		{"doc_id", ratesPayload(), ratesQuestion, base + ", doc_id: 7.", art("внутренний идентификатор «doc_id: 7»")},
		{"chunk", ratesPayload(), ratesQuestion, base + " (chunk 17).", art("упоминание фрагментов контекста «chunk 17»")},
		{"чанк", ratesPayload(), ratesQuestion, base + ", как указано в чанке.", art("упоминание фрагментов контекста «чанке»")},
		{"фрагмент №", ratesPayload(), ratesQuestion, "Во фрагменте № 2 сказано: " + base + ".", art("упоминание фрагментов контекста «фрагменте № 2»")},
		{"user id", ratesPayload(), ratesQuestion, base + " (запрос u:123).", art("внутренний идентификатор «u:123»")},
		{"prefixed id", ratesPayload(), ratesQuestion, base + ", источник project:cbr-rates.", art("внутренний идентификатор «project:cbr-rates»")},
		{"base32 document id", ratesPayload(), ratesQuestion, base + " (документ k3j5m2n7p4q6r2s5).", art("идентификатор документа «k3j5m2n7p4q6r2s5»")},
		{"uuid", ledgerPayload(), ledgerQuestion, "Реализация № СВ00-000050 (14d1b307-ca1d-4008-8f7a-4383b855c7b1) — 461 036,40 ₽.", art("идентификатор GUID «14d1b307-ca1d-4008-8f7a-4383b855c7b1»")},
		{"1C ref without dashes", ledgerPayload(), ledgerQuestion, "Реализация № СВ00-000050, ref 8481fbe968d9447996a385e8d38089de.", art("внутренний идентификатор «8481fbe968d9447996a385e8d38089de»")},
		{"1C navigation link", ledgerPayload(), ledgerQuestion, "Документ: e1cib/data/Документ.РеализацияТоваровУслуг?ref=8481fbe9", art("ссылка 1С «e1cib/data/Документ.РеализацияТоваровУслуг?ref=8481fbe9»")},
		{"kb id", leasePayload(), leaseQuestion, leaseOK + " См. kb-3f2a9c1d0b7e.", art("идентификатор статьи «kb-3f2a9c1d0b7e»")},
		{"link line en dash", ratesPayload(), ratesQuestion, base + ".\n\n[1] – Банк России, курсы валют", art("сноска-ссылка в начале строки «[1] – Банк России, курсы валют»")},
		{"link line escaped hyphen", ratesPayload(), ratesQuestion, base + "\\.\n\n\\[1\\] \\- cbr\\.ru", art("сноска-ссылка в начале строки «[1] - cbr.ru»")},
		{"json", ratesPayload(), ratesQuestion, base + ".\n\n```json\n{\"currency\": \"USD\", \"rate\": 90.5012, \"rank\": 3}\n```", art("фрагмент JSON «{\"currency\": \"USD\", \"rate\": 90.5012, \"rank\": 3}»")},
		// Not an artifact, but not a fact either: an id the user typed is not in the facts.
		{"guid the user asked about", ledgerPayload(), "что за документ 14d1b307-ca1d-4008-8f7a-4383b855c7b1?",
			"Документ 14d1b307-ca1d-4008-8f7a-4383b855c7b1 — реализация № СВ00-000050 от 18.03.2026 на 461 036,40 ₽.",
			[]Violation{v(InventedNumber, "номер 14d1b307-ca1d-4008-8f7a-4383b855c7b1")}},
		{"prose is not an artifact", ratesPayload(), ratesQuestion,
			base + ". С уверенностью можно сказать, что курс вырос: фрагмент отчёта ЦБ это подтверждает. ИНН:7707083893 не нужен.",
			[]Violation{v(InventedNumber, "число 7707083893")}},
		{"several in text order", ratesPayload(), ratesQuestion, "(doc_id: 3) " + base + " (confidence: high)",
			[]Violation{v(Artifact, "внутренний идентификатор «doc_id: 3»"), v(Artifact, "оценка уверенности «(confidence: high)»")}},
	})
}

func TestCheckForbiddenPhrases(t *testing.T) {
	fp := func(detail string) []Violation { return []Violation{v(ForbiddenPhrase, detail)} }
	base := "Курс доллара на 31.03.2026 — 90,5012 ₽ [1]."
	kb := ratesPayload()
	kb.Items = append(kb.Items, facts.Item{Section: facts.KnowledgeBase, Kind: "kb_article", Title: "Валютная переоценка",
		Text: "При сомнениях в порядке переоценки обратитесь к специалисту по валютному контролю."})
	runChecks(t, []checkCase{
		{"уточнить у", ratesPayload(), ratesQuestion, base + " Рекомендуется уточнить у главного бухгалтера.", fp("«рекомендуется уточнить у главного бухгалтера»")},
		{"стоит согласовать с", ratesPayload(), ratesQuestion, base + " Курс для учёта стоит согласовать с вашим аудитором.", fp("«стоит согласовать с вашим аудитором»")},
		{"advice is not sending to a person", ratesPayload(), ratesQuestion, base + " Рекомендуется проверить сумму в акте сверки.", nil},
		{"обратитесь к специалисту as a tail", ratesPayload(), ratesQuestion, base + " Если нужна консультация, обратитесь к специалисту.", fp("«обратитесь к специалисту»")},
		{"обратитесь к бухгалтеру as a tail", ratesPayload(), ratesQuestion, base + "\n\nДля переоценки обратитесь к своему бухгалтеру. Спасибо!", fp("«обратитесь к своему бухгалтеру»")},
		{"обратитесь не в конце", ratesPayload(), ratesQuestion, "Если курс нужен для таможни, обратитесь к бухгалтеру. " + base + " Курс евро — 98,12 ₽. Курс юаня — 12,45 ₽.", nil},
		{"проконсультируйтесь", ratesPayload(), ratesQuestion, base + " Проконсультируйтесь с налоговым консультантом.", fp("«проконсультируйтесь с налоговым консультантом»")},
		{"конфиденциальность низкая", ratesPayload(), ratesQuestion, base + " Конфиденциальность низкая.", fp("«конфиденциальность низкая»")},
		{"низкая конфиденциальность", ratesPayload(), ratesQuestion, base + " (низкая конфиденциальность)", fp("«низкая конфиденциальность»")},
		{"как языковая модель", ratesPayload(), ratesQuestion, "Как языковая модель, я не прогнозирую курсы. " + base, fp("«как языковая модель»")},
		{"upper case and ё", ratesPayload(), ratesQuestion, base + " Я — ЯЗЫКОВАЯ МОДЕЛЬ, и всё.", fp("«я — языковая модель»")},
		{"нет доступа", ratesPayload(), ratesQuestion, base + " Я не имею доступа к базе 1С.", fp("«я не имею доступа»")},
		{"у меня нет доступа", ratesPayload(), ratesQuestion, base + " У меня нет доступа к интернету.", fp("«у меня нет доступа»")},
		{"на основе контекста", ratesPayload(), ratesQuestion, "На основе предоставленного контекста: " + base, fp("«на основе предоставленного контекста»")},
		{"согласно фрагментам", ratesPayload(), ratesQuestion, "Согласно предоставленным фрагментам, " + base, fp("«согласно предоставленным фрагментам»")},
		{"в предоставленных данных", ratesPayload(), ratesQuestion, base + " В предоставленных данных курса на завтра нет.", fp("«в предоставленных данных»")},
		{"Markdown inside the phrase", ratesPayload(), ratesQuestion, base + " **Как языковая** _модель_ я не шучу.", fp("«как языковая модель»")},
		{"quoted from the facts", kb, "переоценка валютных счетов", base + " При сомнениях обратитесь к специалисту по валютному контролю.", nil},
	})
}

func TestCheckNegativeTails(t *testing.T) {
	nt := func(detail string) []Violation { return []Violation{v(NegativeTail, detail)} }
	notFound := facts.Payload{Found: false}
	runChecks(t, []checkCase{
		{"about the asked thing", leasePayload(), leaseQuestion, leaseOK + " Других упоминаний о штрафах в договоре не найдено.", nil},
		{"about the question itself", leasePayload(), leaseQuestion, leaseOK + " По вашему запросу больше ничего не найдено.", nil},
		{"about nothing in particular", leasePayload(), leaseQuestion, leaseOK + " Конкретных упоминаний не найдено.", nt("«Конкретных упоминаний не найдено.»")},
		{"other mentions", ledgerPayload(), ledgerQuestion, ledgerOK + " Других упоминаний не найдено.", nt("«Других упоминаний не найдено.»")},
		{"информация отсутствует", leasePayload(), leaseQuestion, leaseOK + "\n\nИнформация о залоговом обеспечении отсутствует.", nt("«Информация о залоговом обеспечении отсутствует.»")},
		{"данных нет", leasePayload(), leaseQuestion, leaseOK + " Данных о страховании имущества нет.", nt("«Данных о страховании имущества нет.»")},
		{"asked about absence", leasePayload(), "Есть ли в договоре аренды залог?", "Сведений о залоге в договоре аренды нет [1].", nil},
		{"a fact with нет is not a tail", ledgerPayload(), ledgerQuestion, ledgerOK + " По реализации № СВ00-000050 оплаты нет.", nil},
		{"single no-data answer", notFound, "что в договоре о неустойке за простой вагонов?", "Других упоминаний не найдено.", nil},
		{"single no-data answer when found", leasePayload(), leaseQuestion, "Других упоминаний не найдено.", nt("«Других упоминаний не найдено.»")},
		{"stem of a four-letter word", ratesPayload(), "курс рупии", "Курс доллара 90,5012 ₽ [1]. Информации о курсе рупии нет.", nil},
	})
}

func TestCheckSourceList(t *testing.T) {
	base := "Курс доллара на 31.03.2026 — 90,5012 ₽ [1]."
	runChecks(t, []checkCase{
		{"Источники", ratesPayload(), ratesQuestion, base + "\n\n**Источники:**\n1. Банк России — официальные курсы валют (cbr.ru), 2025",
			[]Violation{v(SourceList, "«Источники:»")}},
		{"Sources", ratesPayload(), ratesQuestion, base + "\n\nSources:\n- cbr.ru/currency_base, 17.05.2024",
			[]Violation{v(SourceList, "«Sources:»")}},
		{"Список источников heading", ratesPayload(), ratesQuestion, base + "\n\n## Список источников\n\n- Банк России",
			[]Violation{v(SourceList, "«Список источников»")}},
		{"footnote lines", ratesPayload(), ratesQuestion, base + "\n\n[1] Банк России — официальные курсы валют (cbr.ru)\n[2] Интерфакс, 2024",
			[]Violation{v(SourceList, "«[1] Банк России — официальные курсы валют (cbr.ru)»")}},
		{"the word in a sentence", ratesPayload(), ratesQuestion, "Источник курсов — Банк России. " + base, nil},
	})
}

func TestCheckEmpty(t *testing.T) {
	for _, a := range []string{"", "  \n\t ", "** **", "\u00a0"} {
		got := Check(a, ratesPayload(), ratesQuestion)
		if want := []Violation{v(Empty, "ответ пустой")}; !slices.Equal(got, want) {
			t.Errorf("Check(%q) = %q, want %q", a, got, want)
		}
	}
}

// TestCheckEverything: one answer breaking every rule reports each, in Kind order.
func TestCheckEverything(t *testing.T) {
	got := Check(badAnswer, ratesPayload(), ratesQuestion)
	var kinds []Kind
	for _, v := range got {
		if len(kinds) == 0 || kinds[len(kinds)-1] != v.Kind {
			kinds = append(kinds, v.Kind)
		}
	}
	want := []Kind{Artifact, SourceList, ForbiddenPhrase, NegativeTail, InventedNumber}
	if !slices.Equal(kinds, want) {
		t.Errorf("kinds = %q, want %q\n%q", kinds, want, got)
	}
	for _, v := range got {
		if v.Detail == "" || strings.ContainsAny(v.Detail, "\n") {
			t.Errorf("bad detail %q", v)
		}
	}
}

// badAnswer breaks every rule.
const badAnswer = "На основе предоставленного контекста: курс USD на 31.03.2026 — 92,15 ₽ (confidence: 0.82) [1], " +
	"курс EUR — 98,12 ₽ (doc_id: k3j5m2n7p4q6r2s5), курс CNY на 30.03.2026 — 12,45 ₽.\n\n" +
	"Других упоминаний не найдено. Рекомендуется уточнить у главного бухгалтера.\n\n" +
	"[1] – Банк России\n\n**Источники:**\n1. cbr.ru"
