package executor

import "github.com/finbot/finbot/agent/skill"

// Calls are the run's calls as the source calls behind an answer.
func (r Result) Calls() []skill.Call {
	var out []skill.Call
	for _, rec := range r.Records {
		out = append(out, skill.Call{Source: string(rec.Tool), Result: rec.Outcome(), Rows: rec.Items})
	}
	return out
}

// Failed reports whether every call failed: an error or a timeout (no call at all is no
// failure).
func (r Result) Failed() bool {
	failed := 0
	for _, rec := range r.Records {
		if rec.Status == StatusError || rec.Status == StatusTimeout {
			failed++
		}
	}
	return failed > 0 && failed == len(r.Records)
}
