package app

import (
	"bytes"
	"strings"
	"testing"
)

// ONEC_DEMO=realistic through the whole app, as an accountant asks it: the balance of an
// account with counterparty subconto is summed per counterparty in 1C and fits the proxy's
// 1,000 rows the app asks the realistic base through («остаток по 62»: 813 counterparties, it
// had been 2,061 rows and cut), with its open settlement documents counted; where even that
// is past the limit (76), the answer says it was cut and shows no total.
func TestBalanceOfRealisticBaseThroughTheApp(t *testing.T) {
	if testing.Short() {
		t.Skip("the realistic base takes a few seconds to generate")
	}
	a, err := New(t.Context(), loadConfig(t, map[string]string{"ONEC_DEMO": "realistic"}), Options{Console: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for _, tt := range []struct {
		q         string
		want, not []string
	}{
		// the head with its обособленное подразделение (6,450 and 4,701 documents for the head alone)
		{"остаток по 62 на 31.03.2026", []string{"Остаток по счёту 62 на 31.03.2026", "Открытых документов расчётов: 7230", "реалистичная",
			"включая обособленные подразделения: ООО «Северный ветер» (Казанский филиал)"}, []string{"обрезан"}},
		{"остаток по 60 на 31.03.2026", []string{"Остаток по счёту 60 на 31.03.2026", "Открытых документов расчётов: 5249"}, []string{"обрезан"}},
		{"остаток по 76 на 31.03.2026", []string{"обрезан на 1000 строк", "76.01"}, []string{"Остаток по счёту 76 на"}},
		// quantities (issue #29): the goods of 41 with their units beside the sums, the papers
		// named by a word two suppliers' names share, an item 1C does not have, the command
		{"остаток по 41 на 31.03.2026", []string{"Остаток по счёту 41 на 31.03.2026", "По номенклатуре — 40 позиций", "Картон гофрированный — 292 931,1 м2"}, nil},
		{"сколько штук бумаги на складе на 31.03.2026", []string{"Бумага — 2 позиции, остаток на 31.03.2026: 47 092 пачк",
			"Бумага офисная А3 — 14 837 пачк"}, []string{"Бумага и Ко", "Склад-Сервис"}},
		{"остаток товара снегоход в штуках", []string{"Не нашёл в 1С номенклатуру «снегоход»"}, nil},
		{"/stock цемент 31.03.2026", []string{"Остаток «Цемент М500» на 31.03.2026:", " т на сумму"}, nil},
	} {
		var out bytes.Buffer
		ans, _ := a.Ask(t.Context(), &out, 1, 0, tt.q)
		if ans == nil || ans.Scenario != "1c" {
			t.Errorf("%q: scenario %+v; want 1C:\n%s", tt.q, ans, out.String())
			continue
		}
		text := strings.ReplaceAll(strings.ReplaceAll(out.String(), "\\", ""), "\u00a0", " ") // figures keep no-break spaces
		for _, w := range tt.want {
			if !strings.Contains(text, w) {
				t.Errorf("%q: no %q in\n%s", tt.q, w, text)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(text, n) {
				t.Errorf("%q: %q in\n%s", tt.q, n, text)
			}
		}
	}
}
