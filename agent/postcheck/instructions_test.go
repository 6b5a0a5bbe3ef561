package postcheck

import (
	"path/filepath"
	"testing"

	"github.com/finbot/finbot/internal/golden"
)

func TestInstructionsGolden(t *testing.T) {
	tests := []struct {
		name string
		vs   []Violation
	}{
		// Every rule broken at once, as Check reports it.
		{"instructions_all", Check(badAnswer, ratesPayload(), ratesQuestion)},
		// Numbers only: one line each, «её» for dates.
		{"instructions_numbers", Check(
			"Курс доллара на 30.03.2026 — 92,15 ₽, евро — 98,12 ₽; всего 15 000 ₽ по № СВ00-000051, в 14:00. Курс доллара 92,15 ₽.",
			ratesPayload(), ratesQuestion)},
		{"instructions_empty", Check("", ratesPayload(), ratesQuestion)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Instructions(tt.vs)
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), got+"\n")
		})
	}
}

func TestInstructionsNone(t *testing.T) {
	if got := Instructions(nil); got != "" {
		t.Errorf("Instructions(nil) = %q, want empty", got)
	}
}
