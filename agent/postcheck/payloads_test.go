package postcheck

import "github.com/finbot/finbot/agent/facts"

// Realistic payloads the tests check answers against.

func field(name, value string) facts.Field { return facts.Field{Name: name, Value: value} }

var cbrRates = facts.Source{Title: "Банк России — официальные курсы валют (cbr.ru)", URL: "https://www.cbr.ru/currency_base/daily/"}

// ratesPayload: official rates of three currencies on 31.03.2026.
func ratesPayload() facts.Payload {
	rate := func(code, value, change string) facts.Item {
		return facts.Item{Section: facts.External, Kind: "rate", Title: code, Source: 1, Fields: []facts.Field{
			field("Курс", value), field("Изменение", change), field("Дата", "31.03.2026"),
		}}
	}
	return facts.Payload{
		Found: true,
		Items: []facts.Item{
			rate("USD", "90,5012 ₽", "+0,3512 ₽"),
			rate("EUR", "98,1200 ₽", "−0,2100 ₽"),
			rate("CNY", "12,4500 ₽", "+0,0150 ₽"),
		},
		Sources:     []facts.Source{cbrRates},
		Coverage:    1,
		Limitations: []string{"Курсы установлены Банком России на 31.03.2026 (вторник)."},
	}
}

// ledgerPayload: open items of ООО «Альфа» in 1C on 31.03.2026.
func ledgerPayload() facts.Payload {
	row := func(doc, debit, credit, rest string) facts.Item {
		return facts.Item{Section: facts.UserDocuments, Kind: "ledger_row", Title: doc, Source: 1, Fields: []facts.Field{
			field("Дебет", debit), field("Кредит", credit), field("Остаток", rest),
		}}
	}
	return facts.Payload{
		Found: true,
		Items: []facts.Item{
			row("Реализация товаров и услуг № СВ00-000050 от 18.03.2026", "461 036,40 ₽", "0,00 ₽", "461 036,40 ₽"),
			row("Реализация товаров и услуг № СВ00-000028 от 09.02.2026", "685 570,14 ₽", "0,00 ₽", "685 570,14 ₽"),
			row("Поступление на расчётный счёт № СВ00-000003 от 16.01.2026", "0,00 ₽", "51 516,61 ₽", "−51 516,61 ₽"),
		},
		Sources:  []facts.Source{{Title: "1С:Бухгалтерия — демо-база «Северный ветер»"}},
		Coverage: 1,
		Limitations: []string{
			"Данные 1С на 31.03.2026; организация ООО «Северный ветер»; счёт 62.",
			"Итого открыто по ООО «Альфа»: 1 250 000,00 ₽ по договору поставки № 178/2024 от 25.04.2024.",
		},
	}
}

// keyRatePayload: the key rate and the press release time.
func keyRatePayload() facts.Payload {
	return facts.Payload{
		Found: true,
		Items: []facts.Item{
			{Section: facts.External, Kind: "key_rate", Title: "Ключевая ставка", Source: 1, Fields: []facts.Field{
				field("Ставка", "21,00 %"), field("Действует с", "28.10.2024"),
			}},
			{Section: facts.External, Kind: "news", Title: "Банк России сохранил ключевую ставку", Source: 2,
				Text: "Совет директоров Банка России 14 февраля 2025 года принял решение сохранить ключевую ставку на уровне 21,00% годовых. Пресс-релиз опубликован в 13:30 по московскому времени."},
		},
		Sources: []facts.Source{
			{Title: "Банк России — ключевая ставка (cbr.ru)", URL: "https://www.cbr.ru/hd_base/KeyRate/"},
			{Title: "Банк России — новости (cbr.ru)", URL: "https://www.cbr.ru/news/"},
		},
		Coverage: 1,
	}
}

// leasePayload: a passage of an uploaded lease agreement.
func leasePayload() facts.Payload {
	return facts.Payload{
		Found: true,
		Items: []facts.Item{
			{Section: facts.UserDocuments, Kind: "passage", Title: "Договор аренды № 12/2025", Source: 1,
				Text: "6.2. За просрочку внесения арендной платы Арендатор уплачивает пени в размере 0,1 % от суммы задолженности за каждый день просрочки."},
		},
		Sources:  []facts.Source{{Title: "Договор аренды № 12/2025, стр. 3"}},
		Coverage: 0.8,
	}
}

// groupedPayload: counterparties grouped in GROUPED_BULLETS, 3 of 8 shown.
func groupedPayload() facts.Payload {
	cp := func(group, name, debt string) facts.Item {
		return facts.Item{Section: facts.UserDocuments, Kind: "ledger_total", Title: name, Group: group, Source: 1,
			Fields: []facts.Field{field("Сальдо", debt)}}
	}
	return facts.Payload{
		Found: true,
		Items: []facts.Item{
			cp("Поставщики", "ООО «Вектор»", "120 000,00 ₽"),
			cp("Поставщики", "ООО «Гранит»", "45 300,00 ₽"),
			cp("Покупатели", "ООО «Альфа»", "1 250 000,00 ₽"),
		},
		Sources:  []facts.Source{{Title: "1С:Бухгалтерия — оборотно-сальдовая ведомость по счетам 60, 62"}},
		Coverage: 1,
		Total:    8,
	}
}
