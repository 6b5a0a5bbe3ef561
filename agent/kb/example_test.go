package kb_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/kb"
)

func ExampleParse() {
	// Excel in the Russian locale separates cells with semicolons.
	csv := "title;content;topic;jurisdiction;updated_at\n" +
		"Акт сверки;\"Акт сверки — документ, в котором стороны сопоставляют расчёты.\n\n## Кто подписывает\n- руководитель\";Расчёты с контрагентами;РФ;15.01.2026\n" +
		"Ставка НДС;НДС 22% с 2026 года.;НДС;РФ;1 января\n"
	articles, err := kb.Parse(strings.NewReader(csv))
	var pe *kb.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe) // shown to whoever maintains the spreadsheet
	} else if err != nil {
		fmt.Println("rejected:", err)
		return
	}
	for _, a := range articles {
		fmt.Println(a.ID, a.Title, a.Updated.Format("2006-01-02"))
	}
	// Output:
	// строка 3: дата «1 января» не распознана (updated_at): нужна дата вида 2026-01-15 или 15.01.2026
	// kb-2190878fe662 Акт сверки 2026-01-15
}

func ExampleArticle_Markdown() {
	a := kb.Sample()[0]
	fmt.Println(strings.SplitN(a.Markdown(), "\n", 4)[2])
	// Output:
	// _Тема: Расчёты с контрагентами · Юрисдикция: РФ · Обновлено: 16.03.2026_
}
