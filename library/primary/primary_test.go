package primary

import (
	"os"
	"strings"
	"testing"
	"time"
)

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// findings joins the checks as «✓ …» / «✗ …» lines, no-break spaces as spaces.
func findings(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		mark := "✗ "
		if f.OK {
			mark = "✓ "
		}
		b.WriteString(mark + strings.ReplaceAll(f.Text, "\u00a0", " ") + "\n")
	}
	return b.String()
}

// TestParseRecognised: the fields of the rendered documents as tesseract read them (the text
// recorded by library/ocr's TestRecognise -record), with its noise: «175 000;:00», «105.829,58»,
// «OOO» in Latin letters, «без.НДС», «of» for «от».
func TestParseRecognised(t *testing.T) {
	tests := []struct {
		file                   string
		kind                   Kind
		number, date           string
		seller, sellerINN, kpp string
		lines                  int
		net, vat, gross        int64
	}{
		{"invoice.txt", Invoice, "28", "02.03.2026", "", "2196164974", "275001001", 2, 65604355, 14432958, 80037313},
		{"upd.txt", UPD, "117", "10.04.2026", "ООО «Техснаб»", "6900523822", "202801001", 2, 1940000, 425000, 2365000},
		{"act.txt", Act, "15", "31.03.2026", "ООО «Новый Подряд»", "7701234568", "770101001", 1, 0, 0, 4500000},
		{"album-1.txt", Invoice, "28", "02.03.2026", "ООО «Бумага и Ко»", "2196164974", "275001001", 2, 0, 0, 0},
	}
	for _, tt := range tests {
		d := Parse(read(t, tt.file))
		if d.Kind != tt.kind || d.Number != tt.number || d.Date.Format("02.01.2006") != tt.date {
			t.Errorf("%s: %s № %s от %s, want %s № %s от %s", tt.file, d.Kind, d.Number, d.Date.Format("02.01.2006"), tt.kind, tt.number, tt.date)
		}
		if tt.seller != "" && d.Seller.Name != tt.seller || d.Seller.INN != tt.sellerINN || d.Seller.KPP != tt.kpp {
			t.Errorf("%s: seller %+v", tt.file, d.Seller)
		}
		if d.Buyer.Name != "ООО «Северный ветер»" || d.Buyer.INN != "1031699119" || d.Buyer.KPP != "776601001" {
			t.Errorf("%s: buyer %+v", tt.file, d.Buyer)
		}
		if len(d.Lines) != tt.lines {
			t.Errorf("%s: %d lines, want %d", tt.file, len(d.Lines), tt.lines)
		}
		for _, l := range d.Lines {
			if !l.Read {
				t.Errorf("%s: line %d not read: %s", tt.file, l.No, l.Text)
			}
		}
		if d.Totals.Net != tt.net || d.Totals.VAT != tt.vat || d.Totals.Gross != tt.gross {
			t.Errorf("%s: totals %+v", tt.file, d.Totals)
		}
	}
	// The invoice's lines, exactly.
	d := Parse(read(t, "invoice.txt"))
	l := d.Lines[1]
	if l.Name != "Доставка и разгрузка" || l.Unit != "усл" || l.Quantity.RatString() != "1" || l.Price != 48104355 ||
		l.Net != 48104355 || l.Rate != "22%" || l.VAT != 10582958 || l.Gross != 58687313 {
		t.Errorf("invoice line 2: %+v", l)
	}
}

// TestChecksRecognised: what the checks say of the rendered documents — all well for the
// invoice, the planted VAT of the УПД named with its difference, the act's ИНН named.
func TestChecksRecognised(t *testing.T) {
	got := findings(Check(Parse(read(t, "invoice.txt"))))
	if strings.Contains(got, "✗") || !strings.Contains(got, "✓ Всего 800 373,13 = 656 043,55 + НДС 144 329,58") {
		t.Errorf("invoice:\n%s", got)
	}
	got = findings(Check(Parse(read(t, "upd.txt"))))
	for _, want := range []string{
		"✗ НДС в строке 2: 1 830,00 ≠ 22 % от 8 400,00 = 1 848,00",
		"✗ НДС итого: 4 250,00 ≠ 22 % от 19 400,00 = 4 268,00",
		"✓ ИНН продавца 6900523822: контрольные цифры сходятся",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("upd: no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "НДС в строке 1") {
		t.Errorf("upd: line 1 is right:\n%s", got)
	}
	got = findings(Check(Parse(read(t, "act.txt"))))
	if !strings.Contains(got, "✗ ИНН продавца 7701234568: контрольная цифра не сходится — по первым цифрам должно быть …0, а не …8") {
		t.Errorf("act:\n%s", got)
	}
}

// TestChecks: the checks on typed text — each rate, VAT inside the total, a wrong product, a
// 20 % rate in 2026, an ИНН of a wrong length, a line whose figures do not bind.
func TestChecks(t *testing.T) {
	tests := []struct {
		name, text string
		want, not  []string
	}{
		{"ten percent", "Счёт на оплату № 5 от 12.01.2026\nПоставщик: ООО «Хлеб», ИНН 2196164974, КПП 275001001\n" +
			"1 Хлеб шт 100 45,00 4 500,00 10% 450,00 4 950,00\nИтого без НДС: 4 500,00\nНДС 10%: 450,00\nВсего к оплате: 4 950,00",
			[]string{"✓ НДС итого 450,00 = 10 % от 4 500,00", "✓ Всего 4 950,00 = 4 500,00 + НДС 450,00"}, []string{"✗"}},
		{"zero rate", "УПД № 9 от 12.01.2026\n1 Экспорт шт 2 1 000,00 2 000,00 0% 0,00 2 000,00\nВсего к оплате: 2 000,00 0,00 2 000,00",
			[]string{"✓ НДС в строках посчитан верно"}, []string{"✗"}},
		{"VAT inside", "Счёт на оплату № 7 от 15.02.2026\n1 Бумага пач 10 366,00 3 660,00\nИтого: 3 660,00\nВ том числе НДС (22%): 660,00\nВсего к оплате: 3 660,00",
			[]string{"✓ НДС 660,00 = 22/122 от 3 660,00", "✓ Всего 3 660,00 = сумме строк"}, []string{"✗"}},
		{"VAT inside wrong", "Счёт на оплату № 7 от 15.02.2026\n1 Бумага пач 10 366,00 3 660,00\nВ том числе НДС (22%): 610,00\nВсего к оплате: 3 660,00",
			[]string{"✗ НДС итого: 610,00 ≠ 22/122 от 3 660,00 = 660,00"}, nil},
		{"twenty in 2026", "Счёт-фактура № 3 от 20.01.2026\n1 Стол шт 1 10 000,00 10 000,00 20% 2 000,00 12 000,00",
			[]string{"✗ Ставка 20 % в документе от 20.01.2026: с 1 января 2026 года основная ставка НДС — 22 %"}, nil},
		{"sum off", "Счёт на оплату № 8 от 01.02.2026\n1 Стол шт 2 100,00 200,00\n2 Стул шт 4 50,00 200,00\nИтого: 450,00",
			[]string{"✗ Всего 450,00 ≠ сумме строк 400,00 (разница 50,00)"}, nil},
		{"unbound line", "Счёт на оплату № 8 от 01.02.2026\n1 Стол шт 10 100,00 1 001,00\nИтого: 1 001,00",
			[]string{"✗ Строка 1 не прочитана"}, []string{"сумме строк"}},
		{"short INN", "Акт № 1 от 01.02.2026\nИсполнитель: ООО «Икс» ИНН 770123456 КПП 770101001\n1 Услуга усл 1 10,00 10,00",
			nil, []string{"ИНН продавца 770123456: контрольн"}},
		{"IP INN", "Акт № 1 от 01.02.2026\nИсполнитель: ИП Петров И.С. ИНН 288844798348\n1 Услуга усл 1 10,00 10,00 без НДС 10,00",
			[]string{"✓ ИНН продавца 288844798348: контрольные цифры сходятся"}, nil},
		{"lookalikes", "Счёт на оплату № 8 от 01.02.2026\n1 Стол шт 2 1О0,00 2ОО,00\nИтого: 2ОО,ОО",
			[]string{"✓ Всего 200,00 = сумме строк"}, nil},
	}
	for _, tt := range tests {
		got := findings(Check(Parse(tt.text)))
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: no %q in\n%s", tt.name, w, got)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: %q in\n%s", tt.name, w, got)
			}
		}
	}
}

// TestReceiptAndUnreadable: a till receipt is told as such with its fiscal attributes; a picture
// with no text is no document.
func TestReceiptAndUnreadable(t *testing.T) {
	d := Parse(read(t, "receipt.txt"))
	if d.Kind != Receipt || d.Till.Total != 125000 || d.Till.FN != "9999078900012345" || d.Till.FD != "12345" || d.Till.FP != "1234567890" {
		t.Errorf("receipt: %+v", d)
	}
	if Check(d) != nil {
		t.Error("a receipt has no checks of an invoice")
	}
	for _, text := range []string{"", "| _ ^ .\n` ~", "ааа ббб"} {
		if d := Parse(text); !d.Unreadable() {
			t.Errorf("%q read as a document: %+v", text, d)
		}
	}
	if d := Parse(read(t, "invoice.txt")); d.Unreadable() {
		t.Error("the invoice unreadable")
	}
}

// TestDates: the dates a title writes; an impossible one is not read.
func TestDates(t *testing.T) {
	for in, want := range map[string]string{"02.03.2026": "2026-03-02", "2 марта 2026 г.": "2026-03-02", "«15» января 2026": "2026-01-15",
		"31.02.2026": "0001-01-01", "02.03.26": "2026-03-02"} {
		if got := dateOf(in).Format(time.DateOnly); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}

// FuzzParse: any text parses and checks without a panic.
func FuzzParse(f *testing.F) {
	f.Add("Счёт на оплату № 5 от 12.01.2026\n1 Хлеб шт 100 45,00 4 500,00 10% 450,00 4 950,00\nИтого: 4 950,00")
	f.Add("КАССОВЫЙ ЧЕК\nИТОГ =1 250,00\nФН 9999078900012345 ФД 12345 ФП 1234567890")
	f.Add("Поставщик:\nИНН")
	f.Fuzz(func(t *testing.T, text string) {
		Check(Parse(text))
	})
}
