package understand_test

import (
	"fmt"
	"testing"

	"github.com/finbot/finbot/agent/understand"
)

func TestProbe(t *testing.T) {
	cats := demoCatalogs(t)
	p := understand.NewParser()
	for _, q := range []string{"сколько должны гранитовские", "документы гранита за март", "что платили склад-сервису в 2025", "поступления на расчетный от гранита за февраль", "сколько нам должен магнит", "кто должен северному ветру трейд на конец 1 кв"} {
		d := p.Parse(understand.Input{Text: q, Now: corpusToday, Docs: corpusDocs, Catalogs: cats})
		fmt.Printf("%q %s %s rule=%s cp=%q cand=%v unk=%q org=%q\n", q, d.Kind, d.Recipe, d.Rule, d.Counterparty.Value.Name, d.Candidates, d.Unknown, d.Organization.Value.Name)
		for _, tk := range understand.Tokenize(q) { fmt.Print(tk.Stem, " ") }
		fmt.Println()
	}
}
