package testscans

// The documents of the OCR tests, with what each one says. Our organization is the demo ledger's
// ООО «Северный ветер» (ИНН 1031699119, КПП 776601001).

var buyer = Party{Role: "Покупатель", Name: "ООО «Северный ветер»", INN: "1031699119", KPP: "776601001"}

var header = Line{No: "№", Name: "Наименование товара, работ, услуг", Unit: "Ед.", Qty: "Кол-во", Price: "Цена",
	Net: "Сумма без НДС", Rate: "НДС", VAT: "Сумма НДС", Gross: "Всего"}

// Invoice is a счёт на оплату of the demo ledger's supplier ООО «Бумага и Ко»: posted in 1C as
// «Поступление СВ00-000028 от 02.03.2026» for 800 373,13; every figure adds up.
func Invoice() Doc {
	return Doc{
		Head:    []string{"ООО «Бумага и Ко»", "Банк получателя: ПАО Сбербанк  БИК 044525225"},
		Title:   "СЧЁТ НА ОПЛАТУ № 28 от 02.03.2026",
		Parties: []Party{{Role: "Поставщик", Name: "ООО «Бумага и Ко»", INN: "2196164974", KPP: "275001001"}, buyer},
		Header:  header,
		Lines: []Line{
			{"1", "Бумага офисная А4", "пач", "500", "350,00", "175 000,00", "22%", "38 500,00", "213 500,00"},
			{"2", "Доставка и разгрузка", "усл", "1", "481 043,55", "481 043,55", "22%", "105 829,58", "586 873,13"},
		},
		Totals: []string{"Итого без НДС: 656 043,55", "НДС 22%: 144 329,58", "Всего к оплате: 800 373,13"},
		Foot:   []string{"Руководитель ________ Иванов И.И.     Бухгалтер ________ Петрова А.А."},
	}
}

// UPD is a УПД of the supplier ООО «Техснаб» with a wrong VAT in line 2 (1 830,00 printed, 22 %
// of 8 400,00 is 1 848,00), so its total VAT is wrong too; 1C has no such document.
func UPD() Doc {
	return Doc{
		Head:    []string{"Универсальный передаточный документ    Статус: 1"},
		Title:   "Счёт-фактура № 117 от 10.04.2026",
		Parties: []Party{{Role: "Продавец", Name: "ООО «Техснаб»", INN: "6900523822", KPP: "202801001"}, buyer},
		Header:  header,
		Lines: []Line{
			{"1", "Картридж лазерный", "шт", "4", "2 750,00", "11 000,00", "22%", "2 420,00", "13 420,00"},
			{"2", "Бумага для принтера", "пач", "24", "350,00", "8 400,00", "22%", "1 830,00", "10 230,00"},
		},
		Totals: []string{"Всего к оплате:   19 400,00      4 250,00      23 650,00"},
		Foot:   []string{"Товар передал ________ Сидоров П.П.     Товар получил ________"},
	}
}

// Act is an акт of services without VAT from a company 1C does not know, whose ИНН fails its
// checksum (7701234568: the first nine digits call for 0, not 8).
func Act() Doc {
	return Doc{
		Title:   "АКТ № 15 от 31.03.2026",
		Head:    []string{"об оказании услуг"},
		Parties: []Party{{Role: "Исполнитель", Name: "ООО «Новый Подряд»", INN: "7701234568", KPP: "770101001"}, {Role: "Заказчик", Name: buyer.Name, INN: buyer.INN, KPP: buyer.KPP}},
		Header:  header,
		Lines: []Line{
			{"1", "Консультационные услуги", "усл", "1", "45 000,00", "45 000,00", "без НДС", "", "45 000,00"},
		},
		Totals: []string{"Итого: 45 000,00", "Без налога (НДС)", "Всего оказано услуг на сумму 45 000,00 руб."},
		Foot:   []string{"Исполнитель ________     Заказчик ________"},
	}
}

// Receipt is a till receipt (кассовый чек).
func Receipt() Doc {
	return Doc{Text: []string{
		"ООО «Ромашка»",
		"КАССОВЫЙ ЧЕК",
		"Приход",
		"Кофе зерновой 1 кг         1 х 1 250,00",
		"ИТОГ                         =1 250,00",
		"НАЛИЧНЫМИ                    =1 250,00",
		"ИНН 7707083893   СНО: УСН",
		"ФН 9999078900012345   ФД 12345   ФП 1234567890",
	}}
}

// Pages splits d in two pages: the head and the table; the totals and the foot.
func Pages(d Doc) (Doc, Doc) {
	first := d
	first.Totals, first.Foot = nil, nil
	second := Doc{Totals: d.Totals, Foot: d.Foot, Text: []string{"Продолжение, лист 2"}}
	return first, second
}

// ReconciliationAct is ООО «Альфа»'s act of reconciliation with the demo company for the first
// quarter of 2026, photographed: their half only («По данным ООО «Альфа»»), their debit our
// credit. It agrees with the demo ledger but for one planted difference: sale № 28 of 09.02.2026
// for 658 570,14 (685 570,14 in 1C) — the turnovers and the closing balance follow from it.
func ReconciliationAct() Doc {
	return Doc{
		Title: "Акт сверки взаимных расчетов",
		Sub: []string{
			"за период: 01.01.2026 - 31.03.2026",
			"между ООО «Альфа» (ИНН 9366414049) и ООО «Северный ветер» (ИНН 1031699119)",
			"По данным ООО «Альфа», руб.",
		},
		Grid: &Grid{
			Cols: []GridCol{{At: 40}, {At: 140}, {At: 720, Right: true}, {At: 940, Right: true}},
			Rows: [][]string{
				{"Дата", "Документ", "Дебет", "Кредит"},
				{"", "Сальдо начальное", "", "1 930 644,06"},
				{"05.01.2026", "Приход (05.01.2026 № 7)", "", "394 170,36"},
				{"16.01.2026", "Оплата (16.01.2026 № 187)", "566 682,67", ""},
				{"19.01.2026", "Приход (19.01.2026 № 14)", "", "414 417,35"},
				{"23.01.2026", "Приход (23.01.2026 № 20)", "", "590 140,13"},
				{"06.02.2026", "Оплата (06.02.2026 № 241)", "124 325,20", ""},
				{"09.02.2026", "Приход (09.02.2026 № 28)", "", "658 570,14"},
				{"09.02.2026", "Оплата (09.02.2026 № 256)", "590 140,13", ""},
				{"09.03.2026", "Оплата (09.03.2026 № 318)", "118 251,11", ""},
				{"18.03.2026", "Приход (18.03.2026 № 50)", "", "461 036,40"},
				{"", "Обороты за период", "1 399 399,11", "2 518 334,38"},
				{"", "Сальдо конечное", "", "3 049 579,33"},
			},
		},
		Foot: []string{"Главный бухгалтер ООО «Альфа» ________ Тихонова Е. П."},
	}
}
