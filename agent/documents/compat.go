package documents

import "github.com/finbot/finbot/agent/passages"

// What the agent's root still calls by these names until it answers through the skill: delete
// this file with that code (the names live in agent/passages).
var (
	Extractive    = passages.Extractive
	ExtractiveKB  = passages.ExtractiveKB
	MissingClause = passages.MissingClause
	NothingFound  = passages.NothingFound
	Serialize     = passages.Serialize
	Sources       = passages.Sources
)

// Deprecated names of agent/passages, for the agent's root until it answers through the skill.
const (
	ExtractiveQuotes = passages.ExtractiveQuotes
	SelectedOverlap  = passages.SelectedOverlap
)
