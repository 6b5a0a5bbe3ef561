package passages

import "testing"

func TestSameWord(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"полам", "пола", true},
		{"полы", "пола", true},
		{"кровлю", "кровли", true},
		{"пол", "полиуретанового", false}, // a short word is no prefix of a long one
		{"для", "для", false},             // words every text has
		{"этап", "этапа", true},
		{"мусор", "муж", false},
	} {
		if got := sameWord(c.a, c.b); got != c.want {
			t.Errorf("sameWord(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestCapBase(t *testing.T) {
	for _, c := range []struct{ words, want string }{
		{"стоимости этапа", "row"},
		{"Цены Договора дополнительными соглашениями ", "price"},
		{"абонентской платы без НДС за этот период", "monthly"},
		{"неоплаченной суммы", ""}, // a sum the documents do not state
		{"стоимости перевозки", ""},
	} {
		if got := capBase(c.words); got != c.want {
			t.Errorf("capBase(%q) = %q, want %q", c.words, got, c.want)
		}
	}
}

func TestNetOfMonthly(t *testing.T) {
	if k, ok := netOfMonthly("Абонентская плата составляет 128 100,00 рублей в месяц, в том числе НДС 22 % — 23 100,00 рубля.", 12810000); !ok || k != 10500000 {
		t.Errorf("with VAT within: %d %v", k, ok)
	}
	if k, ok := netOfMonthly("Абонентская плата составляет 180 000,00 рублей в месяц без НДС.", 18000000); !ok || k != 18000000 {
		t.Errorf("without VAT: %d %v", k, ok)
	}
	if _, ok := netOfMonthly("Абонентская плата составляет 97 600,00 рублей в месяц.", 9760000); ok {
		t.Error("no VAT stated: no net")
	}
}
