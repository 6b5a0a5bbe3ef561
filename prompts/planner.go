package prompts

// PlannerRecipe is one 1C recipe of the 1C lane, as the planner sees it.
type PlannerRecipe struct {
	Name     string // "list_receivables_counterparties"
	Meaning  string // "Кто должен нам"
	Required string // required filters, comma-separated: "as_of_date"
}

// PlannerFilter is one filter of the 1C recipes.
type PlannerFilter struct {
	Key     string // "as_of_date"
	Meaning string // "дата среза, ГГГГ-ММ-ДД"
}

// PlannerData fills planner.tmpl: the prompt that asks the model for a QueryPlan (JSON).
type PlannerData struct {
	Question string
	// Summary is the memory gate's summary of the previous turn; empty when the question stands
	// alone.
	Summary      string
	Today        string   // "2026-04-10"
	SelectedDocs []string // titles of the selected documents; empty when none
	HasDocuments bool     // the user has uploaded documents
	HasLedger    bool     // 1C data is available to this user
	HasNews      bool     // the web news search is connected
	// Unavailable lists the tools that cannot run now, comma-separated; empty when all can.
	Unavailable   string
	MaxToolCalls  int
	Threshold     string // the lowest acceptable confidence, e.g. "0.5"
	Recipes       []PlannerRecipe
	Filters       []PlannerFilter
	DocumentTypes string // the document_type values, comma-separated
	Schema        string // the JSON Schema of the plan
}

// Planner renders the prompt that asks the model for a JSON query plan.
func Planner(d PlannerData) (string, error) { return render("planner.tmpl", d) }

// PlannerRepairData fills planner_repair.tmpl.
type PlannerRepairData struct {
	Raw      string   // the model's previous reply; empty when it gave none
	Problems []string // why the plan was refused, one per line
}

// PlannerRepair renders the follow-up that shows the model its refused plan and the problems,
// and asks for a corrected plan.
func PlannerRepair(d PlannerRepairData) (string, error) { return render("planner_repair.tmpl", d) }
