package skill

import (
	"testing"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/understand"
)

func TestCombine(t *testing.T) {
	rep := Reply{Text: "По договору: 30 дней [1].", Sources: []facts.Source{{Title: "Договор"}}, Scenario: S1Search}
	kb := Reply{Text: "Обычно 30 дней [1].", Sources: []facts.Source{{Title: "База знаний"}}, Scenario: S2General,
		Trace: Trace{"kb": 1}}
	empty := Reply{Text: "Не нашёл.", Scenario: S2General, Unanswered: true}
	nearest := Reply{Text: "Ближе всего: п. 1.1 [1].", Sources: []facts.Source{{Title: "Договор"}}, Scenario: S2General, Nearest: true}
	for _, tt := range []struct {
		name     string
		h        Handoff
		other    Reply
		text     string
		sources  int
		kind     understand.Kind
		scenario Scenario
	}{
		{"appended, footnotes after", Handoff{Kind: understand.KindKB, Append: true}, kb,
			"По договору: 30 дней [1].\n\nОбычно 30 дней [2].", 2, understand.KindKB, S2General},
		{"appended only if found: kept with the note", Handoff{Kind: understand.KindKB, Append: true, OnlyIfFound: true, Note: "В базе знаний нет."}, empty,
			"В базе знаний нет.\n\nПо договору: 30 дней [1].", 1, "", S1Search},
		{"appended though empty", Handoff{Kind: understand.KindKB, Append: true}, empty,
			"По договору: 30 дней [1].\n\nНе нашёл.", 1, "", S1Search},
		{"instead, with a prefix", Handoff{Kind: understand.KindKB, Prefix: "В документах нет. "}, kb,
			"В документах нет. Обычно 30 дней [1].", 1, understand.KindKB, S2General},
		{"instead only if found", Handoff{Kind: understand.KindKB, OnlyIfFound: true}, empty,
			"По договору: 30 дней [1].", 1, "", S1Search},
		{"instead, with a suffix", Handoff{Kind: understand.KindKB, OnlyIfFound: true, Suffix: "\n\n_Или назовите контрагента._"}, kb,
			"Обычно 30 дней [1].\n\n_Или назовите контрагента._", 1, understand.KindKB, S2General},
		{"the nearest clause is found, unless an answer is asked", Handoff{Kind: understand.KindKB, OnlyIfFound: true}, nearest,
			"Ближе всего: п. 1.1 [1].", 1, understand.KindKB, S2General},
		{"direct: the nearest clause is no answer", Handoff{Kind: understand.KindKB, OnlyIfFound: true, Direct: true}, nearest,
			"По договору: 30 дней [1].", 1, "", S1Search},
		{"direct: an answer is taken", Handoff{Kind: understand.KindKB, OnlyIfFound: true, Direct: true}, kb,
			"Обычно 30 дней [1].", 1, understand.KindKB, S2General},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.h.Combine(rep, tt.other)
			if got.Text != tt.text || len(got.Sources) != tt.sources || got.Kind != tt.kind || got.Scenario != tt.scenario {
				t.Errorf("got %q, %d sources, kind %q, scenario %q", got.Text, len(got.Sources), got.Kind, got.Scenario)
			}
		})
	}
}
