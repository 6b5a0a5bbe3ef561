package anon

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
)

// bigCatalogs is testCatalogs with n counterparties more, as a real base has.
func bigCatalogs(n int) *recipe.Catalogs {
	c := testCatalogs()
	stems := []string{"Торг", "Снаб", "Строй", "Пром", "Агро", "Техно", "Инвест", "Логист", "Маркет", "Сервис"}
	for i := range n {
		c.Counterparties = append(c.Counterparties, recipe.Entity{Ref: fmt.Sprint("x", i),
			Name: fmt.Sprintf("ООО «%s%s-%d»", stems[i%len(stems)], []string{"Альянс", "Групп", "Восток", "Холдинг"}[i/len(stems)%4], i)})
		c.Contracts = append(c.Contracts, recipe.Entity{Ref: fmt.Sprint("k", i), Number: fmt.Sprintf("Д-%d/2025", i)})
	}
	return c
}

// BenchmarkMask masks typical requests: the answer model's facts (4.5 KB: twelve 1C rows, an
// ИНН, a КПП, an account) and the planner's whole prompt (its instructions and examples and a
// question naming two counterparties), under the demo-sized catalogs and under 5,000
// counterparties; and restores a reply of 300 characters.
func BenchmarkMask(b *testing.B) {
	facts, err := os.ReadFile(filepath.Join("testdata", "facts_request.txt"))
	if err != nil {
		b.Fatal(err)
	}
	planner, err := prompts.Planner(prompts.PlannerData{Question: "Что по Альфе на 31 марта и сколько должен Вектор Плюс?"})
	if err != nil {
		b.Fatal(err)
	}
	// A reply as long as the answer model's usually are, in the placeholders the request got.
	const reply = "**Открытые позиции**\n\nИтого открыто по ООО «[КОНТРАГЕНТ_1]»: 3 076 579,33 ₽ по 12 документам [1]. " +
		"По ООО «[КОНТРАГЕНТ_2]» открытых позиций нет [1]. Данные 1С на 31.03.2026, все договоры, счета 60 и 62 [1]."
	for _, cat := range []struct {
		name string
		c    *recipe.Catalogs
	}{{"demo", testCatalogs()}, {"5000", bigCatalogs(5000)}} {
		DictionaryOf(cat.c) // built once per base, then cached
		for _, req := range []struct{ name, text string }{{"facts", string(facts)}, {"planner", planner}} {
			b.Run(cat.name+"/"+req.name, func(b *testing.B) {
				g, _ := New(Options{})
				b.SetBytes(int64(len(req.text)))
				b.ReportAllocs()
				for b.Loop() {
					ctx := WithSession(b.Context(), NewSession(func() *recipe.Catalogs { return cat.c }))
					_, restore, err := g.Outgoing(ctx, llm.Chat, []string{req.text})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := restore(reply); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
	b.Run("dictionary/5000", func(b *testing.B) {
		c := bigCatalogs(5000)
		for b.Loop() {
			newDictionary(c)
		}
	})
}
