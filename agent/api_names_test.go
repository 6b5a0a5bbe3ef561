package agent

import "github.com/finbot/finbot/agent/api"

// The agent's tests speak the front ends' vocabulary (agent/api) by its short names.
type (
	Request      = api.Request
	Answer       = api.Answer
	Source       = api.Source
	Button       = api.Button
	Chart        = api.Chart
	Document     = api.Document
	Debug        = api.Debug
	Route        = api.Route
	Scenario     = api.Scenario
	File         = api.File
	InlineResult = api.InlineResult
)

const (
	S1Search         = api.S1Search
	S2General        = api.S2General
	S3Full           = api.S3Full
	S4Retrieve       = api.S4Retrieve
	S5Clarify        = api.S5Clarify
	OneC             = api.OneC
	Command          = api.Command
	MaxQuestionRunes = api.MaxQuestionRunes
	MaxUploadBytes   = api.MaxUploadBytes
	TextButtonPrefix = api.TextButtonPrefix
)

var (
	ErrEmpty       = api.ErrEmpty
	ErrTooLong     = api.ErrTooLong
	ErrUnavailable = api.ErrUnavailable
	EscapeMarkdown = api.EscapeMarkdown
	Owner          = api.Owner
)
