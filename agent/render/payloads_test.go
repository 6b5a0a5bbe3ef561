package render

import (
	"strings"

	"github.com/finbot/finbot/agent/facts"
)

// Realistic payloads the tools hand over. Amounts carry no-break spaces between thousands,
// as the agent formats them.

const nbsp = "\u00a0"

func rub(s string) string { return strings.ReplaceAll(s, " ", nbsp) + nbsp + "₽" }

var (
	cbrRates = facts.Source{Title: "Банк России — официальные курсы валют (cbr.ru)", URL: "https://www.cbr.ru/currency_base/daily/"}
	osv62    = facts.Source{Title: "1С:Бухгалтерия — оборотно-сальдовая ведомость по счёту 62 на 31.03.2026"}
	osv76    = facts.Source{Title: "1С:Бухгалтерия — оборотно-сальдовая ведомость по счёту 76 на 31.03.2026"}
	contract = facts.Source{Title: "Договор поставки № 15 от 10.01.2026.pdf"}
	kbAct    = facts.Source{Title: "База знаний: Акт сверки взаиморасчётов"}
)

func ratesPayload() facts.Payload {
	p := facts.Payload{Found: true, Coverage: 1,
		Limitations: []string{"Курсы установлены Банком России на 20.03.2026 (пятница)."}}
	src := p.AddSource(cbrRates)
	for _, r := range []struct{ code, rate, change string }{
		{"USD", "81,5000", "+0,5600"},
		{"EUR", "88,7412", "−0,1203"},
		{"CNY", "11,2530", "0,0000"},
	} {
		p.Items = append(p.Items, facts.Item{
			Section: facts.External, Kind: "rate", Title: r.code, Source: src,
			Fields: []facts.Field{{Name: "Курс", Value: r.rate + nbsp + "₽"}, {Name: "Изменение", Value: r.change + nbsp + "₽"}},
		})
	}
	return p
}

// receivablesPayload is the debt of 12 counterparties from 1C: 9 buyers (account 62) and 3
// other debtors (account 76), interleaved as the ledger lists them.
func receivablesPayload() facts.Payload {
	p := facts.Payload{Found: true, Coverage: 1,
		Limitations: []string{"Данные 1С на 31.03.2026, организация ООО «Вектор»."}}
	s62, s76 := p.AddSource(osv62), p.AddSource(osv76)
	rows := []struct{ name, amount, overdue string }{
		{"ООО «Альфа»", "1 250 000,00", "0,00"},
		{"АО «Гранит»", "980 450,50", "120 000,00"},
		{"ИП Соколов А. В.", "312 000,00", ""},
		{"ООО «Бета-Трейд»", "275 300,00", "275 300,00"},
		{"ООО «Северный ветер»", "198 760,40", ""},
		{"ООО «Рога_и*Копыта» [1]", "150 000,00", "50 000,00"},
		{"ООО «Лютик»", "96 000,00", ""},
		{"ПАО «Стройинвест»", "88 200,00", ""},
		{"ООО «Дельта»", "45 000,00", ""},
		{"ООО «Омега»", "12 500,00", ""},
		{"ИП Кузнецова Е. П.", "7 800,00", ""},
		{"ООО «Ромашка»", "1 200,00", ""},
	}
	for i, r := range rows {
		it := facts.Item{Section: facts.General, Kind: "ledger_row", Title: r.name,
			Fields: []facts.Field{{Name: "Сумма", Value: rub(r.amount)}}}
		if r.overdue != "" {
			it.Fields = append(it.Fields, facts.Field{Name: "Просрочено", Value: rub(r.overdue)})
		}
		switch i {
		case 2, 6, 10: // the accountable person, a claim and an advance: account 76
			it.Group, it.Source = "Прочие дебиторы", s76
		default:
			it.Group, it.Source = "Покупатели", s62
		}
		p.Items = append(p.Items, it)
	}
	return p
}

func documentsPayload() facts.Payload {
	p := facts.Payload{Found: true, Coverage: 0.8}
	src := p.AddSource(contract)
	p.Items = []facts.Item{
		{Section: facts.UserDocuments, Kind: "passage", Title: "Договор поставки № 15, п. 4.2", Source: src,
			Text: "Покупатель оплачивает товар в течение 10 (десяти) банковских дней\nс даты подписания товарной накладной (ТОРГ-12)."},
		{Section: facts.UserDocuments, Kind: "passage", Title: "Договор поставки № 15, п. 7.1", Source: src,
			Text: "За просрочку оплаты Поставщик вправе потребовать неустойку\n\nв размере 0,1 % от неоплаченной суммы за каждый день просрочки, но не более 10 % от суммы поставки"},
	}
	return p
}

func kbPayload() facts.Payload {
	p := facts.Payload{Found: true, Coverage: 0.7}
	src := p.AddSource(kbAct)
	p.Items = []facts.Item{{
		Section: facts.KnowledgeBase, Kind: "kb_article", Title: "Акт сверки взаиморасчётов", Source: src,
		Text: "Акт сверки — документ, в котором стороны сопоставляют данные о расчётах за период. Подписывают главный бухгалтер и руководитель (или лицо по доверенности).",
	}}
	return p
}

// allSections is what a question about a debtor gathers from everywhere.
func allSections() facts.Payload {
	p := facts.Payload{Found: true}
	p.Merge(receivablesPayload())
	p.Merge(documentsPayload())
	p.Merge(kbPayload())
	p.Merge(ratesPayload())
	return p
}

// manyItems is n plain items with a source, no group.
func manyItems(n int) facts.Payload {
	p := facts.Payload{Found: true}
	src := p.AddSource(osv62)
	for i := range n {
		p.Items = append(p.Items, facts.Item{Kind: "ledger_row", Title: "Контрагент " + strings.Repeat("I", i%5+1),
			Fields: []facts.Field{{Name: "Сумма", Value: rub("1 000,00")}}, Source: src})
	}
	return p
}
