package plan

import "time"

// Debug explains an answer the planner planned, for the debug payload.
type Debug struct {
	Plan QueryPlan `json:"plan"`
	// Source is how the plan was obtained: "llm", "repair", "default" or "cache".
	Source   string      `json:"source"`
	Attempts int         `json:"attempts"`
	Problems [][]Problem `json:"problems,omitempty"`
	Errors   []string    `json:"errors,omitempty"`
	// Summary is the memory gate's summary of the previous turn given to the planner.
	Summary string `json:"memory_summary,omitempty"`
	// Handler is the kind whose skill answered ("ledger", "rate", "docs", "kb", "news",
	// "clarify", "smalltalk", "ledger_deep"), or "facts" when the executor ran the plan's calls
	// and the answer LLM phrased them.
	Handler string   `json:"handler"`
	Records []Record `json:"records,omitempty"`
	Trigger string   `json:"fallback_trigger,omitempty"`
	// Answer is how a planned reply was worded: "llm", "llm_regenerated", "deterministic".
	Answer string `json:"answer,omitempty"`
	// PostCheck lists what the post-check refused, per attempt.
	PostCheck [][]string `json:"post_check,omitempty"`
}

// Traced records how the planner obtained the plan.
func (d *Debug) Traced(t Trace) {
	d.Source, d.Attempts, d.Problems, d.Errors = t.Source, t.Attempts, t.Problems, t.Errors
}

// Record is what happened to one call of a plan (agent/executor), for the debug payload.
type Record struct {
	Index    int           `json:"index"` // position in the plan; -1 for the fallback
	Tool     Tool          `json:"tool"`
	Status   string        `json:"status"`
	Items    int           `json:"items"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	Error    string        `json:"error,omitempty"`
	Fallback bool          `json:"fallback,omitempty"`
}

// Outcome is the call's status with its error, as a source call's result reads it.
func (r Record) Outcome() string {
	if r.Error != "" {
		return r.Status + ": " + r.Error
	}
	return r.Status
}
