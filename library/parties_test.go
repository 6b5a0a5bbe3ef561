package library

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// actText is an act of services as a PDF's text layer gives it: the issuer's name and
// requisites over the title, the form's fields, a table printed as lines (a long cell wrapped),
// its totals.
const actText = `ООО «Сетевые Решения»
ИНН 7743815260, КПП 774301001

АКТ № 1187 от 30 ноября 2026 г.
об оказании услуг

Исполнитель: ООО «Сетевые Решения», ИНН 7743815260, КПП 774301001
Заказчик: ООО «ТехноЛайн», ИНН 7728345613, КПП 772801001
Основание: Договор № 47/У от 12.01.2026 возмездного оказания услуг по абонентскому обслуживанию
ИТ-инфраструктуры

1. Исполнитель оказал, а Заказчик принял следующие услуги:

№ Наименование работ, услуг Ед. Кол-во Цена с НДС, руб. Сумма с НДС, руб.
1 Абонентское обслуживание за ноябрь 2026 г. мес. 1 97 600,00 97 600,00
2 Выездные работы сверх 20 часов в месяц час 7 2 440,00 17 080,00 3
080,00
Итого 114 680,00

2. Всего оказано услуг на сумму 114 680,00 руб.`

func TestUnitsOfAForm(t *testing.T) {
	us := Units(actText)
	var texts []string
	for _, u := range us {
		if u.Section != "" {
			t.Errorf("a line of requisites is no heading: %+v", u)
		}
		texts = append(texts, u.Text)
	}
	for _, want := range []string{
		"Заказчик: ООО «ТехноЛайн», ИНН 7728345613, КПП 772801001",
		"Основание: Договор № 47/У от 12.01.2026 возмездного оказания услуг по абонентскому обслуживанию ИТ-инфраструктуры",
	} {
		if !strings.Contains(strings.Join(texts, "\n"), "\n"+want+"\n") {
			t.Errorf("a form's field is a unit of its own: want %q in\n%s", want, strings.Join(texts, "\n"))
		}
	}
	var rows []Unit
	for _, u := range us {
		if u.Kind == UnitRow {
			rows = append(rows, u)
		}
	}
	if len(rows) != 3 {
		t.Fatalf("rows = %+v", rows)
	}
	if rows[1].Number != "2" || rows[1].Clause != "1" || !strings.HasSuffix(rows[1].Text, "17 080,00 3 080,00") ||
		!strings.Contains(rows[1].Lead, "№ Наименование работ, услуг") || !strings.HasPrefix(rows[1].Lead, "1. Исполнитель оказал") {
		t.Errorf("a row printed as text, its wrapped cell joined, under its header and clause: %+v", rows[1])
	}
	if rows[2].Number != "" || rows[2].Text != "Итого 114 680,00" {
		t.Errorf("totals: %+v", rows[2])
	}
	if h := ReadHeader(us); h.Title != "АКТ № 1187 от 30 ноября 2026 г. об оказании услуг" || h.Number != "1187" || h.Date.Format("02.01.2006") != "30.11.2026" {
		t.Errorf("header = %+v", h)
	}
	// A table that goes on another's numbering («позиции 4–6»).
	cont := Units("3. Цену второй партии установить в следующем размере:\n№ поз. Наименование Товара Кол-во, шт. Цена за ед.\n4 МФУ 3 100 500,00\n5 ИБП 8 18 200,00\nИтого 529 000,00")
	if len(cont) != 4 || cont[1].Number != "4" || cont[2].Number != "5" || cont[2].Clause != "3" {
		t.Errorf("rows 4–6: %+v", cont)
	}
}

func TestParties(t *testing.T) {
	preamble := `ДОГОВОР АРЕНДЫ № А-07/26

Общество с ограниченной ответственностью «Меридиан Недвижимость» (ООО «Меридиан Недвижимость»), ИНН 7716452096, КПП 771601001, именуемое в дальнейшем «Арендодатель», в лице генерального директора Корнилова Андрея Викторовича, действующего на основании Устава, с одной стороны, и Индивидуальный предприниматель Савельева Ольга Николаевна, ИНН 772834561390, именуемая в дальнейшем «Арендатор», с другой стороны, совместно именуемые «Стороны», заключили настоящий Договор о нижеследующем.

1. ПРЕДМЕТ ДОГОВОРА
1.1. Арендодатель передаёт, а Арендатор принимает помещение.`
	got := Parties(Units(preamble))
	want := []Party{
		{Role: "Арендодатель", Name: "ООО «Меридиан Недвижимость»", INN: "7716452096", By: "генерального директора Корнилова Андрея Викторовича", Unit: 0},
		{Role: "Арендатор", Name: "ИП Савельева Ольга Николаевна", INN: "772834561390", Unit: 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("preamble parties:\n got %+v\nwant %+v", got, want)
	}
	form := Parties(Units(actText))
	if len(form) != 2 || form[0].Role != "Исполнитель" || form[0].Name != "ООО «Сетевые Решения»" || form[0].INN != "7743815260" ||
		form[1].Role != "Заказчик" || form[1].Name != "ООО «ТехноЛайн»" {
		t.Errorf("a form's parties: %+v", form)
	}
	// «(далее — «Принципал»)» names a side too; «(далее — «Товар»)» defines a term.
	agency := Parties(Units("АГЕНТСКИЙ ДОГОВОР № АГ-09/2026\n\nООО «Альтаир Трейд», ИНН 7705123452 (далее — «Принципал»), в лице генерального директора " +
		"Воронцовой Марины Алексеевны, и ООО «Маркет Партнёр», ИНН 5047183528 (далее — «Агент»), в лице генерального директора Зайцева Артёма Олеговича, " +
		"заключили договор: Агент ищет покупателей на продукцию (далее — «Товар»)."))
	if len(agency) != 2 || agency[0].Role != "Принципал" || agency[0].Name != "ООО «Альтаир Трейд»" || !strings.Contains(agency[0].By, "Воронцовой") ||
		agency[1].Role != "Агент" || agency[1].INN != "5047183528" || !strings.Contains(agency[1].By, "Зайцева") {
		t.Errorf("sides named «далее — …»: %+v", agency)
	}
	if ps := Parties(Units("ПОЛОЖЕНИЕ О КОМАНДИРОВКАХ\n\n1. Общие положения\n1.1. Положение действует с 01.01.2026.")); ps != nil {
		t.Errorf("a policy names no parties: %+v", ps)
	}
}

func TestAsksReadsWordsWhole(t *testing.T) {
	for _, c := range []struct {
		q    string
		want asks
	}{
		{"сумма дог. поставки", asks{amount: true}}, // «поставки» holds «ставк»: no rate asked
		{"доставка входит в цену товара?", asks{}},  // whether, not how much
		{"какая ставка по займу", asks{percent: true}},
	} {
		if got := readAsks(ClauseQuestion{Text: c.q}); got != c.want {
			t.Errorf("readAsks(%q) = %+v, want %+v", c.q, got, c.want)
		}
	}
	if statesOf("пени в размере 0,05 % за каждый день")&facetMoneyBit != 0 {
		t.Error("a percentage is no amount")
	}
	if statesOf("составляет 1 957 400,00 (один миллион…) рублей")&facetMoneyBit == 0 {
		t.Error("an amount")
	}
	// a term a clause leaves to others states none; one it sets does
	if statesOf("1.1. Заёмщик обязуется возвратить Сумму займа и уплатить проценты на неё в сроки и в порядке, предусмотренные Договором.")&facetTermBit != 0 {
		t.Error("«в сроки, предусмотренные Договором» is no term")
	}
	if statesOf("3.4. Проценты уплачиваются не позднее 15-го числа месяца, следующего за кварталом; срок может быть продлён.")&facetTermBit == 0 {
		t.Error("a term")
	}
}

func TestRankClausesReadsAbbreviationsAndCompounds(t *testing.T) {
	docs := []ClauseDoc{NewClauseDoc("lease", "Договор аренды", Units(`5. ОБЕСПЕЧИТЕЛЬНЫЙ ПЛАТЁЖ
5.1. Арендатор обязуется обеспечить внесение платежа в срок.
5.3. По окончании срока аренды обеспечительный платёж возвращается Арендатору в течение 10 (десяти) рабочих дней.
1.5. Арендатору предоставляется право пользования 2 (двумя) машино-местами.`))}
	for q, want := range map[string]string{
		"размер обеспечит. платежа": "5.3", // «обеспечит.» is cut short: «обеспечительный», not «обеспечить»
		"сколько машиномест":        "1.5", // «машино-местами» written as one word
	} {
		hits := RankClauses(docs, ClauseQuestion{Text: q})
		if len(hits) == 0 || hits[0].Unit.Number != want {
			t.Errorf("%q: best %+v, want %s", q, hits, want)
		}
	}
}

func TestRankClausesFollowsTheLatestTurn(t *testing.T) {
	docs := []ClauseDoc{NewClauseDoc("price", "Прайс", Units(priceText))}
	// «ноутбук lenovo» → «а hp» → «а без ндс»: the HP's row, not the Lenovo's.
	hits := RankClauses(docs, ClauseQuestion{Text: "а без ндс", Context: "сколько стоит ноутбук lenovo\nа hp"})
	if len(hits) == 0 || !strings.Contains(hits[0].Unit.Text, "HP") || len(hits) > 1 && hits[1].Score > hits[0].Score*0.85 {
		t.Errorf("hits = %+v", hits)
	}
}

func TestRankClausesUnknownToTheNamedDocument(t *testing.T) {
	docs := []ClauseDoc{
		NewClauseDoc("lease", "Договор аренды", Units(leaseText)),
		NewClauseDoc("policy", "Положение о командировках", Units("4.7. Суточные сверх 700 рублей облагаются НДФЛ и страховыми взносами.")),
	}
	// The lease never speaks of insurance; the policy's «страховыми взносами» is no answer.
	hits := RankClauses(docs, ClauseQuestion{Text: "есть ли в договоре аренды страхование помещения"})
	if len(hits) == 0 || !slices.ContainsFunc(hits[0].Unknown, func(w string) bool { return strings.HasPrefix(w, "страх") }) {
		t.Errorf("«страхование» is unknown to the lease: %+v", hits)
	}
}

func TestRankClausesDocumentWithoutTitleLine(t *testing.T) {
	// A PDF that opens with its clause: the paragraph after it is content, not the title.
	doc := NewClauseDoc("x", "Договор аренды № А-7", Units("4. Арендная плата\n\nАрендная плата составляет 185 000 рублей в месяц и вносится до 5 числа."))
	hits := RankClauses([]ClauseDoc{doc}, ClauseQuestion{Text: "найди в договоре аренды размер арендной платы"})
	if len(hits) == 0 || !strings.Contains(hits[0].Unit.Text, "185 000") || len(hits[0].Unknown) > 0 {
		t.Errorf("hits = %+v", hits)
	}
}

func TestRankClausesTravelWords(t *testing.T) {
	policy := NewClauseDoc("policy", "Положение о командировках", Units(`5. РАСХОДЫ НА ПРОЖИВАНИЕ
5.1. Расходы по найму жилого помещения возмещаются по фактическим затратам, но не более следующих лимитов за 1 (одни) сутки:
Место командировки	Лимит за сутки
г. Москва	9 000 рублей
г. Санкт-Петербург	8 000 рублей
6.1. Расходы на проезд возмещаются в размере стоимости проезда: воздушным транспортом — в салоне экономического класса.`))
	for q, want := range map[string]string{
		"лимит на гостиницу в питере":               "Санкт-Петербург",
		"сколько можно потратить на отель в москве": "Москва",
		"какой класс билетов на самолет":            "экономического класса",
	} {
		hits := RankClauses([]ClauseDoc{policy}, ClauseQuestion{Text: q})
		if len(hits) == 0 || !strings.Contains(hits[0].Unit.Text+hits[0].Unit.Lead, want) {
			t.Errorf("%q: best %+v, want %q", q, hits, want)
		}
	}
}

func TestPartyProxy(t *testing.T) {
	us := Units("ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2\n\nОбщество с ограниченной ответственностью «Склад» (ООО «Склад»), ИНН 5036128740, именуемое в дальнейшем «Субарендодатель», в лице генерального директора Тарасова И. П., действующего на основании Устава, с одной стороны, и Общество с ограниченной ответственностью «Альтаир Трейд» (ООО «Альтаир Трейд»), ИНН 7705123452, именуемое в дальнейшем «Субарендатор», в лице коммерческого директора Лаптева Дениса Николаевича, действующего на основании доверенности № 27 от 12.01.2026, с другой стороны, заключили настоящее соглашение.")
	ps := Parties(us)
	if len(ps) != 2 {
		t.Fatalf("parties: %+v", ps)
	}
	if ps[0].Proxy != "" || ps[1].Proxy != "доверенности № 27 от 12.01.2026" || ps[1].By != "коммерческого директора Лаптева Дениса Николаевича" {
		t.Errorf("%+v", ps)
	}
}
