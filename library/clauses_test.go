package library

import (
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/library/retrieval"
)

const leaseText = `ДОГОВОР АРЕНДЫ № А-1
г. Москва 26 января 2026 г.
ООО «Меридиан», именуемое в дальнейшем «Арендодатель», в лице директора Иванова И. И., и ООО «Север», именуемое «Арендатор», заключили договор.

2. СРОК АРЕНДЫ
2.1. Срок аренды устанавливается с 01 февраля 2026 г. по 31 декабря 2026 г. включительно.
2.2. Помещение передаётся по акту не позднее 01 февраля 2026 г.

3. АРЕНДНАЯ ПЛАТА
3.1. Ежемесячная арендная плата составляет 185 760,00 рублей, в том числе НДС 22 %.
3.2. Арендная плата вносится авансом не позднее 5-го числа текущего месяца.

6. ОБЯЗАННОСТИ СТОРОН
6.1. Арендатор обязан:
6.1.1. производить текущий ремонт за свой счёт;
6.1.2. не сдавать помещение в субаренду.

7. ОТВЕТСТВЕННОСТЬ
7.1. За просрочку оплаты Арендатор уплачивает пени 0,1 % за каждый день просрочки.
7.2. За просрочку передачи помещения Арендодатель уплачивает пени 0,1 % от арендной платы.`

const travelText = `4.3. Суточные при заграничных командировках:

Страна пребывания	Суточные за 1 день
Республика Беларусь	3 000 рублей
Турецкая Республика	55 евро
Страны — члены Европейского союза	65 евро
Прочие страны	50 долларов США`

const priceText = "Наименование | Цена без НДС, руб. | Цена с НДС, руб.\nНоутбук Lenovo E16 | 79900 | 97478\nНоутбук HP ProBook | 74500 | 90890\nКартридж TK-3400 | 11480 | 14005.6"

func TestUnits(t *testing.T) {
	us := Units(leaseText)
	find := func(n string) Unit {
		for _, u := range us {
			if u.Number == n {
				return u
			}
		}
		t.Fatalf("no unit %s in %+v", n, us)
		return Unit{}
	}
	if u := find("3.2"); u.Section != "3. АРЕНДНАЯ ПЛАТА" || !strings.HasPrefix(u.Text, "3.2. Арендная плата вносится") {
		t.Errorf("3.2 = %+v", u)
	}
	if u := find("6.1.1"); u.Lead != "6.1. Арендатор обязан:" || u.Quote() != "6.1. Арендатор обязан: … 6.1.1. производить текущий ремонт за свой счёт;" {
		t.Errorf("a subclause reads with its lead: %+v, %q", u, u.Quote())
	}
	if us[0].Kind != UnitText || us[0].Section != "ДОГОВОР АРЕНДЫ № А-1" {
		t.Errorf("the preamble: %+v", us[0])
	}
	// A PDF's line wrapped before a date: the clause goes on («…не позднее» + «15.10.2026. …»).
	wrapped := Units("5. Субарендатор доплачивает обеспечительный платёж в срок не позднее\n15.10.2026. После доплаты платёж составляет 600 118,00 рублей.\n6. Пункт 5.1 сохраняет силу.")
	if len(wrapped) != 2 || !strings.HasSuffix(wrapped[0].Text, "не позднее 15.10.2026. После доплаты платёж составляет 600 118,00 рублей.") {
		t.Errorf("a wrapped date: %+v", wrapped)
	}
	// A form's «Всего к оплате» is the total a question calls «итого».
	if !slices.Contains(clauseTokens("Всего к оплате (9) 367 518,00 X 80 853,96 448 371,96"), clauseTokens("итого")[0]) {
		t.Errorf("«Всего к оплате» is no «итого»: %q", clauseTokens("Всего к оплате"))
	}
	rows := Units(priceText)
	if len(rows) != 3 || rows[2].Kind != UnitRow || rows[2].Number != "3" ||
		rows[2].Text != "Картридж TK-3400 | 11\u00a0480,00 | 14\u00a0005,60" || !strings.HasPrefix(rows[2].Quote(), "Наименование | Цена") {
		t.Errorf("price list rows: %+v", rows)
	}
}

// A question is answered by the unit that states what it asks: the clause with its words side
// by side, of the kind of answer asked, in the document it names.
func TestRankClauses(t *testing.T) {
	docs := []ClauseDoc{
		{ID: "lease", Names: "Договор аренды офиса", Units: Units(leaseText)},
		{ID: "travel", Names: "Положение о командировках", Units: Units(travelText)},
		{ID: "price", Names: "Прайс поставщика", Units: Units(priceText)},
	}
	tests := []struct {
		q       string
		asking  Asking
		context string
		prefer  []string
		want    string // the best unit's text starts so
	}{
		{"до какого числа платить аренду", Asking{Term: true}, "", nil, "3.2."},
		{"сколько аренда в месяц", Asking{Amount: true}, "", nil, "3.1."},
		{"срок аренды до какого", Asking{Term: true}, "", nil, "2.1."},
		{"пени за просрочку оплаты", Asking{}, "", nil, "7.1."},
		{"кто делает текущий ремонт", Asking{}, "", nil, "6.1.1."},
		{"суточные в турции", Asking{Amount: true}, "", nil, "Турецкая Республика"},
		{"суточные германия", Asking{Amount: true}, "", nil, "Страны — члены"},
		{"суточные в грузии", Asking{Amount: true}, "", nil, "Прочие страны"},
		{"а hp", Asking{}, "ноутбук lenovo по прайсу сколько", []string{"price"}, "Ноутбук HP"},
	}
	for _, tt := range tests {
		hits := RankClauses(docs, ClauseQuestion{Text: tt.q, Asking: tt.asking, Context: tt.context, Prefer: tt.prefer})
		if len(hits) == 0 {
			t.Errorf("%q: no unit", tt.q)
			continue
		}
		if !strings.HasPrefix(hits[0].Unit.Text, tt.want) {
			t.Errorf("%q: best unit %q (%.2f), want %q…", tt.q, hits[0].Unit.Text, hits[0].Score, tt.want)
		}
	}
	// A question whose words no unit holds has no hit: the documents do not say it.
	if hits := RankClauses(docs, ClauseQuestion{Text: "страхование помещения"}); len(hits) > 0 && hits[0].Coverage >= 0.5 {
		t.Errorf("страхование: %+v", hits[0])
	}
}

func TestMoneyCell(t *testing.T) {
	for in, want := range map[string]string{"79900": "79\u00a0900,00", "14005.6": "14\u00a0005,60", "950": "950,00",
		"1 500,00": "1 500,00", "22%": "22%", "шт": "шт", "1234567.891": "1\u00a0234\u00a0567,89"} {
		if got := moneyCell(in); got != want {
			t.Errorf("moneyCell(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b  string
		limit int
		want  int
	}{{"суточьн", "суточн", 1, 1}, {"арнед", "аренд", 1, 1}, {"скольо", "сколько", 1, 1}, {"пени", "пени", 1, 0},
		{"ремонт", "монтаж", 2, 3}, {"качетсв", "качеств", 1, 1}} {
		if got := editDistance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestReadHeader(t *testing.T) {
	h := ReadHeader(Units(leaseText))
	if h.Title != "ДОГОВОР АРЕНДЫ № А-1" || h.Number != "А-1" || h.Date.Format("02.01.2006") != "26.01.2026" {
		t.Errorf("header = %+v", h)
	}
	act := ReadHeader(Units("АКТ № 1187 от 30 ноября 2026 г. об оказании услуг\nИсполнитель: ООО «Сеть»\n\n1. Услуги оказаны."))
	if act.Number != "1187" || act.Date.Format("02.01.2006") != "30.11.2026" {
		t.Errorf("act header = %+v", act)
	}
	// The period an act covers is not the day it was drawn up.
	rec := ReadHeader(Units("АКТ СВЕРКИ ВЗАИМНЫХ РАСЧЁТОВ\nза период: 3 квартал 2026 г. (с 01.07.2026 по 30.09.2026)\n\nмежду ООО «А» и ООО «Б»\n\nг. Москва 07 октября 2026 г.\n\nМы, нижеподписавшиеся, составили акт."))
	if rec.Date.Format("02.01.2006") != "07.10.2026" {
		t.Errorf("act of reconciliation header = %+v", rec)
	}
	// An invoice's title «СЧЁТ НА ОПЛАТУ № …» under the supplier's requisites and a payment
	// order's sample (a table of its own): it is the title, with its number and day.
	inv := ReadHeader(Units("ООО «Завод»\n620000, г. Екатеринбург\n\nОбразец заполнения платёжного поручения\n\n| ИНН 6625016830 | КПП 662501001 |\n|---|---|\n| Получатель: ООО «Завод» | |\n| Банк | БИК 046577 |\n\n" +
		"СЧЁТ НА ОПЛАТУ № 2417 от 03 декабря 2026 г.\n\nПоставщик: ООО «Завод»\n\n1. Оплата: не позднее 10.12.2026."))
	if inv.Title != "СЧЁТ НА ОПЛАТУ № 2417 от 03 декабря 2026 г." || inv.Number != "2417" || inv.Date.Format("02.01.2006") != "03.12.2026" {
		t.Errorf("invoice header = %+v", inv)
	}
	if h := ReadHeader(Units("СПРАВКА\nвыдана «31» июня 2026 г.")); !h.Date.IsZero() {
		t.Errorf("an impossible date read as %v", h.Date)
	}
}

// A supplementary agreement's header names the contract it amends, with that contract's date:
// the agreement's own date is the one of its own line.
func TestReadHeaderOfSupplement(t *testing.T) {
	h := ReadHeader(Units("Страница 1 из 2\n\nДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1\nк Договору поставки № 318-П от 24 ноября 2025 г.\n\nг. Москва «21» января 2026 г.\n\n1. Пункт 2.1 изложить так."))
	if h.Title != "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1" || h.Number != "1" || h.Date.Format("02.01.2006") != "21.01.2026" {
		t.Errorf("header = %+v", h)
	}
}

func TestAmendments(t *testing.T) {
	supplement := "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1\nк Договору поставки № 318-П от 24 ноября 2025 г.\n\nг. Москва «21» января 2026 г.\n\n" +
		"1. Пункт 2.2 Договора изложить в следующей редакции:\n«2.2. Общая сумма Договора составляет 1 979 080,00 рублей.»\n\n" +
		"2. Подпункт 3.1.2 Договора изложить в следующей редакции:\n«3.1.2. вторая партия — до 13 марта 2026 г.»\n\n3. Остальные условия не меняются."
	am := Amendments(Units(supplement))
	if len(am) != 2 || am[0].Contract != "318-П" || am[0].Clause != "2.2" || am[0].Text != "2.2. Общая сумма Договора составляет 1 979 080,00 рублей." ||
		am[1].Clause != "3.1.2" || am[1].Unit.Number != "2" {
		t.Errorf("amendments = %+v", am)
	}
	if am := Amendments(Units(leaseText)); am != nil {
		t.Errorf("a contract amends nothing: %+v", am)
	}
	if !SameNumber("318-П", "318-п") || SameNumber("318-П", "") {
		t.Error("SameNumber")
	}
}

// A table a clause introduces belongs to it: its rows name the clause, and read after it.
func TestTableOfAClause(t *testing.T) {
	us := Units("4. ВОЗВРАТ ЗАЙМА\n4.1. Заёмщик возвращает заём по графику:\n\n№\tСрок\tСумма, руб.\n1\t30.09.2026\t4000000\n2\t31.12.2026\t4000000\n\n4.2. Досрочный возврат допускается.")
	var rows []Unit
	for _, u := range us {
		if u.Kind == UnitRow {
			rows = append(rows, u)
		}
	}
	if len(rows) != 2 || rows[1].Clause != "4.1" || rows[1].Quote() != "4.1. Заёмщик возвращает заём по графику:\n№ | Срок | Сумма, руб.\n2 | 31.12.2026 | 4\u00a0000\u00a0000,00" {
		t.Errorf("rows = %+v", rows)
	}
	if last := us[len(us)-1]; last.Number != "4.2" || last.Clause != "" {
		t.Errorf("the clause after the table: %+v", last)
	}
}

// A term the document defines («технику (далее — «Товар»)») is asked in the words it stands
// for, and a clause that sets a moment by an event («с даты подписания УПД») answers «когда».
func TestDefinedTermsAndMoments(t *testing.T) {
	supply := `ДОГОВОР ПОСТАВКИ № 1
1.1. Поставщик обязуется передать в собственность Покупателя компьютерную и офисную технику (далее — «Товар»), а Покупатель обязуется принять и оплатить его.
3.6. Право собственности на Товар и риск его случайной гибели переходят к Покупателю с даты подписания УПД.`
	lease := `ДОГОВОР АРЕНДЫ № 2
1.4. Помещение принадлежит Арендодателю на праве собственности, что подтверждается выпиской из ЕГРН от 14.01.2026.`
	docs := []ClauseDoc{NewClauseDoc("supply", "поставка", Units(supply)), NewClauseDoc("lease", "аренда", Units(lease))}
	if got := definedTerms(Units(supply)); !slices.Contains(got["техник"], "товар") {
		t.Errorf("defined terms: %v", got)
	}
	hits := RankClauses(docs, ClauseQuestion{Text: "когда право собственности на технику переходит к нам", Asking: Asking{When: true, Term: true}})
	if len(hits) == 0 || !strings.HasPrefix(hits[0].Unit.Text, "3.6.") {
		t.Fatalf("best unit: %+v", hits)
	}
	if statesOf(hits[0].Unit.Text)&facetDateBit == 0 {
		t.Errorf("«с даты подписания УПД» states no moment")
	}
}

// Two words of documentSpeak that read as one token stand for the same words: the map is
// built from speakWords in Go's random order, and a clash would make answers differ from run to
// run («задолженность» and «долг» are one token).
func TestDocumentSpeakIsOneMap(t *testing.T) {
	by := map[string]string{}
	for short, long := range speakWords {
		for _, tok := range retrieval.Tokens(short) {
			want := strings.Join(retrieval.Tokens(long), " ")
			if other, ok := by[tok]; ok && other != want {
				t.Errorf("%q reads as %q, which stands for both %q and %q", short, tok, other, want)
			}
			by[tok] = want
		}
	}
}

// A row that holds fewer of the question's words than its table's rows hold together is Partial:
// «принтер hp» over a Pantum printer and an HP laptop is neither.
func TestPartialRow(t *testing.T) {
	docs := []ClauseDoc{NewClauseDoc("price", "Прайс", Units(priceText+"\nПринтер лазерный Pantum | 18450 | 22509"))}
	hits := RankClauses(docs, ClauseQuestion{Text: "сколько стоит принтер hp"})
	if len(hits) == 0 || !hits[0].Partial {
		t.Errorf("принтер hp: %+v", hits)
	}
	if hits := RankClauses(docs, ClauseQuestion{Text: "сколько стоит ноутбук hp"}); len(hits) == 0 || hits[0].Partial || !strings.HasPrefix(hits[0].Unit.Text, "Ноутбук HP") {
		t.Errorf("ноутбук hp: %+v", hits)
	}
}

// TestRankClausesAsAccountantsWrite: the noun a question asks which of names the clause that
// begins with it; an abbreviation, slang and a verb of another stem find the document's words.
func TestRankClausesAsAccountantsWrite(t *testing.T) {
	docs := []ClauseDoc{
		{ID: "agency", Names: "Агентский договор", Units: Units(`АГЕНТСКИЙ ДОГОВОР № 5
1.1. Агент обязуется искать покупателей на товары Принципала.
1.2. Территория деятельности Агента: Тверская и Ярославская области.
1.3. Договор не является эксклюзивным: Принципал вправе привлекать других агентов на той же территории.`)},
		{ID: "policy", Names: "Положение о подотчётных суммах", Units: Units(`ПОЛОЖЕНИЕ О ПОДОТЧЁТНЫХ СУММАХ
1.1. Подотчётные суммы выдаются только работникам, состоящим в трудовых отношениях; лицам, работающим по гражданско-правовым договорам, они не выдаются.
2.1. Расходы, по которым документ утрачен, могут быть возмещены по служебной записке в сумме не более 2 000,00 рублей в месяц.
2.2. Авансовый отчёт представляется в течение 3 рабочих дней.`)},
		{ID: "lease", Names: "Договор субаренды", Units: Units(`ДОГОВОР СУБАРЕНДЫ № 7
3.1. Складское помещение № 2 площадью 500,0 кв. м.
3.2. Офисное помещение № 2/1 площадью 20,0 кв. м.`)},
	}
	for _, tt := range []struct{ q, want string }{
		{"на каких территориях агент", "1.2."}, // the clause that begins with the noun asked
		{"исполнителю по гпх можно дать подотчет", "1.1."},
		{"сотрудник потерял чек возместим", "2.1."},
		{"офис скока метров", "3.2."}, // «офисное помещение»
	} {
		hits := RankClauses(docs, ClauseQuestion{Text: tt.q})
		if len(hits) == 0 || !strings.HasPrefix(hits[0].Unit.Text, tt.want) {
			t.Errorf("%q: best unit %v, want %q…", tt.q, hits[:min(len(hits), 1)], tt.want)
		}
	}
}

// A country asked is one word of the question, however many words its name has: «по России»
// read as «Российская Федерация», «РФ» does not outweigh what is asked of it.
func TestCountryWeighsAsOneWord(t *testing.T) {
	doc := NewClauseDoc("p", "Положение о командировках", Units("1. ОБЩИЕ ПОЛОЖЕНИЯ\n\n"+
		"1.1. Положение устанавливает порядок командировок на территории Российской Федерации и за её пределы в соответствии с Трудовым кодексом РФ и Постановлением Правительства РФ.\n\n"+
		"4. СУТОЧНЫЕ\n\n4.1. Суточные по РФ выплачиваются в размере 1 500 рублей за каждый день.\n\n4.2. Суточные за рубежом — 3 000 рублей за каждый день.\n"))
	hits := RankClauses([]ClauseDoc{doc}, ClauseQuestion{Text: "суточные по россии сколько"})
	if len(hits) == 0 || hits[0].Unit.Number != "4.1" {
		t.Fatalf("best = %+v, want 4.1", hits)
	}
}

// A clause that defines a term states no figure of it: a question of a figure is answered by the
// clause that states it, a question of what the term means by the definition.
func TestDefinitionIsNoFigure(t *testing.T) {
	doc := NewClauseDoc("s", "Договор субаренды склада", Units("1. ТЕРМИНЫ\n\n"+
		"1.3. «Постоянная часть» — фиксированная ежемесячная плата за пользование Складом, рассчитанная по ставкам раздела 4.\n\n"+
		"4. ПЛАТА\n\n4.1. Постоянная часть рассчитывается по ставке 760,00 руб. за 1 кв. м в месяц без НДС.\n"))
	for q, want := range map[string]string{"ставка постоянной части склада": "4.1", "что такое постоянная часть": "1.3"} {
		hits := RankClauses([]ClauseDoc{doc}, ClauseQuestion{Text: q})
		if len(hits) == 0 || hits[0].Unit.Number != want {
			t.Errorf("%q: best %+v, want %s", q, hits, want)
		}
	}
}

// TestClauseTokensGluedMeasures: a figure and its measure written together read as the
// documents write them apart; a code that starts with letters is left whole.
func TestClauseTokensGluedMeasures(t *testing.T) {
	for glued, apart := range map[string]string{"творог 400г": "творог 400 г", "жирность 9%": "жирность 9 %", "10кг, сколько": "10 кг, сколько"} {
		if g, a := clauseTokens(glued), clauseTokens(apart); !slices.Equal(g, a) {
			t.Errorf("clauseTokens(%q) = %q, clauseTokens(%q) = %q", glued, g, apart, a)
		}
	}
	for _, code := range []string{"ИТ-08/2026", "ЧЗ-131", "2-й этап", "ст. 149 НК"} {
		if got := digitGlued.ReplaceAllString(code, "$1 $2"); got != code {
			t.Errorf("%q read as %q", code, got)
		}
	}
}

// TestRankRowByOrdinal: a row numbered under «№ этапа» is asked by its ordinal («второй этап»).
func TestRankRowByOrdinal(t *testing.T) {
	lead := "Календарный план\n№ этапа | Наименование работ | Стоимость этапа, руб."
	doc := NewClauseDoc("d", "Договор подряда", []Unit{
		{Index: 0, Kind: UnitClause, Number: "4.2", Text: "4.2. Каждый этап оплачивается в течение 10 рабочих дней после подписания акта."},
		{Index: 1, Kind: UnitRow, Number: "1", Lead: lead, Text: "1 | Демонтаж | 620 000,00"},
		{Index: 2, Kind: UnitRow, Number: "2", Lead: lead, Text: "2 | Кровля | 1 480 000,00"},
		{Index: 3, Kind: UnitRow, Number: "3", Lead: lead, Text: "3 | Полы | 1 950 000,00"},
	})
	hits := RankClauses([]ClauseDoc{doc}, ClauseQuestion{Text: "стоимость второго этапа"})
	if len(hits) == 0 || hits[0].Unit.Number != "2" {
		t.Fatalf("второй этап: %+v", hits)
	}
}

// TestClauseTokensDimensions: a size reads the same whatever times sign is typed.
func TestClauseTokensDimensions(t *testing.T) {
	want := clauseTokens("короб 600×400×400")
	for _, q := range []string{"короб 600х400х400", "короб 600x400x400", "короб 600 * 400 * 400"} {
		if got := clauseTokens(q); !slices.Equal(got, want) {
			t.Errorf("clauseTokens(%q) = %q, want %q", q, got, want)
		}
	}
}
