package passages

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/library"
)

// TestGrossOfVAT: a net price asked with VAT gets the VAT the document charges on top — the
// column the question names of a tariff row, a clause's one price — and nothing is added where
// the document bears no VAT or its price already includes it.
func TestGrossOfVAT(t *testing.T) {
	forwarding := library.Units("3.1. Стоимость услуг определяется по тарифам. Тарифы указаны без НДС; НДС по ставке 22 % начисляется сверх тарифа.\n" +
		"3.5. Погрузочно-разгрузочные работы — 650,00 рублей за 1 час работы одного грузчика без НДС.")
	row := library.Unit{Kind: library.UnitRow, Number: "1", Lead: "№ | Тип ТС | Работа по городу, руб./час | Пробег за МКАД, руб./км",
		Text: "1 | Фургон «ГАЗель» | 1 450,00 | 38,00"}
	forwarding = append(forwarding, row)
	licence := library.Units("4.2. Вознаграждение составляет 620 500,00 рублей, НДС не облагается (пп. 26 п. 2 ст. 149 НК РФ).")
	lease := library.Units("3.2. Арендная плата составляет 185 760,00 рублей в месяц, в том числе НДС 22 % — 33 497,70 рубля.")
	place := func(h library.ClauseHit) string { return "п. " + h.Unit.Number }
	tests := []struct {
		q    string
		doc  []library.Unit
		unit int
		want string // "" for no line
	}{
		{"грузчик час с ндс", forwarding, 1, "650,00\u00a0₽ без НДС \\+ НДС 22 % 143,00\u00a0₽ = **793,00\u00a0₽**"},
		{"газель по городу час с ндс", forwarding, 2, "Работа по городу, руб\\./час: 1\u00a0450,00\u00a0₽ без НДС \\+ НДС 22 % 319,00\u00a0₽ = **1\u00a0769,00\u00a0₽**"},
		{"пробег за мкад км с ндс", forwarding, 2, "Пробег за МКАД, руб\\./км: 38,00\u00a0₽ без НДС \\+ НДС 22 % 8,36\u00a0₽ = **46,36\u00a0₽**"},
		{"грузчик с ндс почём", forwarding, 1, "НДС начисляется сверх цены — п\\. 3\\.1"}, // the clause that states the rate is cited
		{"лицензии с ндс сколько", licence, 0, "НДС сюда не добавляется"},
		{"аренда с ндс сколько", lease, 0, ""},     // it includes VAT already
		{"грузчик час сколько", forwarding, 1, ""}, // VAT not asked
	}
	for _, tt := range tests {
		cds := []library.ClauseDoc{library.NewClauseDoc("d", "Договор", tt.doc)}
		got := grossOfVAT(Question{Text: tt.q}, []library.ClauseHit{{Unit: tt.doc[tt.unit]}}, cds, place)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("grossOfVAT(%q) = %q, want %q in it", tt.q, got, tt.want)
		}
	}
}

// TestInvoiceLineFor: a УПД's goods line printed as text answers what its cells would.
func TestInvoiceLineFor(t *testing.T) {
	line := library.ClauseHit{Unit: library.Unit{Kind: library.UnitRow, Number: "2", Lead: "№ п/п Код товара Наименование товара …",
		Text: "2 ТП-1188 Короб из гофрокартона 600×400×400 мм — 796 шт 2 400 58,35 140 040,00 без акциза 22% 30 808,80 170 848,80 — —"}}
	place := func(h library.ClauseHit) string { return "таблица, строка " + h.Unit.Number }
	tests := []struct{ q, want string }{
		{"короб по чем за штуку с ндс", "170\u00a0848,80\u00a0₽ ÷ 2400 = **71,19\u00a0₽** \\(цена без НДС 58,35\u00a0₽, НДС 22%, округлено до копейки"},
		{"сколько ндс по коробам", "НДС 22% по строке: **30\u00a0808,80\u00a0₽**"},
		{"короба с ндс на какую сумму", "140\u00a0040,00\u00a0₽ \\+ 30\u00a0808,80\u00a0₽ = **170\u00a0848,80\u00a0₽**"},
		{"сколько коробов", ""}, // the quote has the quantity
	}
	for _, tt := range tests {
		got := invoiceLineFor(Question{Text: tt.q}, []library.ClauseHit{line}, place)
		if tt.want == "" && got != "" || !strings.Contains(got, tt.want) {
			t.Errorf("invoiceLineFor(%q) = %q, want %q in it", tt.q, got, tt.want)
		}
	}
}
