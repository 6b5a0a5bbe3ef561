package plan_test

import (
	"fmt"

	"github.com/finbot/finbot/agent/plan"
)

func ExampleDefault() {
	r := plan.Rules{HasDocuments: true}
	p := plan.Default("Какой срок оплаты по договору с Техснабом?", r)
	for _, c := range p.ToolCalls {
		fmt.Println(c.Tool, string(c.Args))
	}
	fmt.Println(p.RenderStyle, len(plan.Validate(p, r)))
	// Output:
	// search_user_documents {"query":"Какой срок оплаты по договору с Техснабом?","top_k":5}
	// search_general_kb {"query":"Какой срок оплаты по договору с Техснабом?","top_k":5}
	// SHORT 0
}

func ExampleValidate() {
	p, err := plan.Decode("```json\n" + `{"intents":["rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"15.01.2026","codes":["EUR"]}}],"render_style":"SHORT","confidence":0.9}` + "\n```")
	if err != nil {
		fmt.Println(err)
		return
	}
	plan.Normalize(&p)
	for _, pr := range plan.Validate(p, plan.Rules{}) {
		fmt.Println(pr)
	}
	// Output:
	// tool_calls[0].args.date: "15.01.2026" — нужна существующая дата в формате ГГГГ-ММ-ДД
}
