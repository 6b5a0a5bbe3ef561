package agent

import (
	"errors"

	"github.com/finbot/finbot/agent/skill"
)

// The agent's error vocabulary. The front end turns these, and only these, into user text.
var (
	// ErrEmpty means the message had nothing to answer.
	ErrEmpty = errors.New("agent: empty message")
	// ErrUnavailable means a data source the answer needs is unavailable. The skills return it
	// too (it is skill.ErrUnavailable).
	ErrUnavailable = skill.ErrUnavailable
	// ErrTooLong means the message is longer than the agent accepts.
	ErrTooLong = errors.New("agent: message too long")
)
