package load

import (
	"strings"

	"github.com/finbot/finbot/internal/testdocs"
)

// document is a file a simulated user sends the bot, and what users ask about it: one question
// goes with the file as its caption, the others come later as questions of their own.
type document struct {
	name      string // the file name Telegram reports
	mime      string
	data      []byte
	questions []string
}

// documents are the files of a run, made as the tests make theirs (internal/testdocs): a
// contract as a PDF with a Cyrillic text layer, a reconciliation act as DOCX, a memo as plain
// text. Each is a few kilobytes to a few tens, as the documents accountants send are.
func documents() []*document {
	contract := []testdocs.Section{
		{Heading: "1. Предмет договора", Body: "Поставщик ООО «Техснаб» обязуется поставить Покупателю ООО «Северный ветер» оборудование согласно спецификации на сумму 1 250 000,00 руб., в том числе НДС 20%."},
		{Heading: "2. Порядок расчётов", Body: "2.1. Цена товара включает стоимость упаковки и доставки.\n\n2.2. Покупатель оплачивает товар в течение 20 банковских дней с даты поставки на расчётный счёт Поставщика."},
		{Heading: "5. Ответственность сторон", Body: "5.1. За просрочку поставки Поставщик уплачивает пени 0,1% от стоимости непоставленного товара за каждый день просрочки.\n\n5.2. За просрочку оплаты Покупатель уплачивает неустойку 0,05% от неоплаченной суммы за каждый день просрочки."},
	}
	act := []testdocs.Section{
		{Heading: "Акт сверки взаимных расчётов за I квартал 2026 г.", Body: "между ООО «Северный ветер» и ООО «Энергия» по договору № 14/25 от 10.01.2025."},
		{Heading: "Сальдо", Body: "Сальдо начальное на 01.01.2026: 120 000,00 руб. в пользу ООО «Северный ветер».\n\nОтгружено за период: 340 000,00 руб. Оплачено за период: 300 000,00 руб.\n\nСальдо конечное на 31.03.2026: 160 000,00 руб. в пользу ООО «Северный ветер»."},
	}
	memo := strings.Join([]string{
		"Служебная записка о командировке",
		"Бухгалтер Иванова А. П. направляется в командировку в г. Казань с 14 по 16 апреля 2026 г. для проверки первичных документов филиала.",
		"Суточные — 700 руб. в день, всего 2 100 руб. Проживание оплачивается по счёту гостиницы, не более 4 500 руб. в сутки.",
		"Авансовый отчёт сдаётся в течение 3 рабочих дней после возвращения.",
	}, "\n\n")
	return []*document{
		{name: "dogovor-postavki.pdf", mime: "application/pdf", data: testdocs.PDF("Договор поставки № П-15/2025", contract...),
			questions: []string{"какой срок оплаты по договору?", "какие пени за просрочку поставки?", "на какую сумму договор поставки?"}},
		{name: "akt-sverki.docx", mime: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
			data:      testdocs.DOCX("Акт сверки с ООО «Энергия»", act...),
			questions: []string{"какое конечное сальдо в акте сверки?", "сколько оплачено за период по акту сверки?"}},
		{name: "komandirovka.txt", mime: "text/plain", data: []byte(memo),
			questions: []string{"какие суточные в служебной записке?", "когда сдать авансовый отчёт по командировке?"}},
	}
}
