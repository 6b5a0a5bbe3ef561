package ledger

import (
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/probes"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/ru"
)

// How a deep-analysis answer is worded: the facts it may phrase, what it says when the
// evidence allows no claim, and the clarifying question.

// discoveryFacts are the findings the answer may phrase. Under a confirmed answer, findings of
// a probe that rests on a guess say so themselves; explain_evidence_basis adds what was read.
func discoveryFacts(ev probes.Evidence, ran []DiscoveryProbe, outcomes map[int]runner.ProbeOutcome, source facts.Source) facts.Payload {
	f := facts.Payload{Limitations: ev.QueryLimitations}
	src := f.AddSource(facts.Source{Title: source.Title})
	add := func(it facts.Item) {
		it.Section, it.Kind, it.Source = facts.General, "ledger_fact", src
		f.Items = append(f.Items, it)
	}
	for i, pr := range ran {
		o, ok := outcomes[i]
		if !ok {
			continue
		}
		for _, it := range o.Facts {
			if ev.AnswerPermission == probes.AnswerConfirmed && !o.Confirmed && pr.Primitive != string(plan.ToolExplainEvidenceBasis) {
				it.Text = probes.WordingBoundedInference + ": " + it.Text
			}
			add(it)
		}
		if pr.Primitive == string(plan.ToolExplainEvidenceBasis) {
			for _, done := range ran {
				if done.ran() && done.Primitive != pr.Primitive {
					what, result := checked(done)
					add(facts.Item{Title: what, Text: result})
				}
			}
		}
	}
	f.Found = len(f.Items) > 0
	f.Coverage = 1
	if ev.AnswerPermission == probes.AnswerBoundedInference {
		f.Coverage = 0.5
	}
	return f
}

// checkedSourcesText is the answer when the evidence allows no claim: the wording, what was
// checked and what was not found.
func checkedSourcesText(ev probes.Evidence, ran []DiscoveryProbe) string {
	var b strings.Builder
	b.WriteString("**" + sentence(ev.Wording()) + ".**")
	var lines []string
	for _, pr := range ran {
		if pr.Primitive == string(plan.ToolExplainEvidenceBasis) {
			continue
		}
		what, result := checked(pr)
		line := what + ": " + result + "."
		if pr.Scope != "" {
			line += " " + pr.Scope
		}
		lines = append(lines, "- "+md.Escape(line))
	}
	if len(lines) > 0 {
		b.WriteString("\n\nЧто проверено:\n" + strings.Join(lines, "\n"))
	}
	if len(ev.UnknownFacts) > 0 {
		var unknown []string
		for _, u := range ev.UnknownFacts {
			unknown = append(unknown, md.Escape(u))
		}
		b.WriteString("\n\nНе найдено: " + strings.Join(unknown, "; ") + ".")
	}
	return b.String()
}

// checked says what one call checked and how it ended.
func checked(pr DiscoveryProbe) (what, result string) {
	what = sentence(primitiveName(pr.Primitive))
	var args []string
	if pr.Args.Entity != "" {
		args = append(args, "«"+ru.Truncate(pr.Args.Entity, 80)+"»")
	}
	if pr.Args.Account != "" {
		args = append(args, "счёт "+pr.Args.Account)
	}
	if len(args) > 0 {
		what += " (" + strings.Join(args, ", ") + ")"
	}
	switch pr.Status {
	case string(runner.ProbeOK):
		result = ru.Count(pr.RowsMatched, "подходящая строка", "подходящие строки", "подходящих строк")
	case string(runner.ProbeEmpty):
		result = "ничего не найдено"
	case string(runner.ProbeError), probeTimeout:
		result = "1С не ответила"
	case string(runner.ProbeUnsupported):
		result = "не выполнялась"
		if len(pr.Limitations) > 0 {
			result += " — " + strings.TrimSuffix(pr.Limitations[0], ".")
		}
	case probeOverBudget:
		result = "не выполнялась — лимит проверок исчерпан"
	case probeNotAllowed:
		result = "не выполнялась — такой способ проверки не разрешён"
	case probeBadArgs:
		result = "не выполнялась — неверные параметры"
	}
	return what, result
}

// primitiveNames are the primitives as the answer names them.
var primitiveNames = map[string]string{
	string(plan.ToolSearchBusinessEntity):    "поиск в справочниках 1С",
	string(plan.ToolInspect1CMetadata):       "план счетов и виды документов",
	string(plan.ToolResolveEntityReference):  "сопоставление с объектом 1С",
	string(plan.ToolQueryMovements):          "проводки по счетам",
	string(plan.ToolQueryDocuments):          "документы",
	string(plan.ToolAggregateByAxis):         "свод по оси",
	string(plan.ToolDrilldownRelatedObjects): "связанные объекты и открытые расчёты",
	string(plan.ToolProbeCoverage):           "наличие данных",
	string(plan.ToolExplainEvidenceBasis):    "основание ответа",
}

func primitiveName(p string) string {
	if n, ok := primitiveNames[p]; ok {
		return n
	}
	return "неизвестная проверка"
}

// clarifyingQuestion is the one question that would let the discovery run: the planner's own;
// else a gap the model named as a question; else the question the policy's reasons call for,
// after the first gap the model named. The planner's question and its gaps are the model's
// words with no source behind them: each is checked against the user's message and bounded
// (postcheck.Unsourced); one that fails is not used.
func clarifyingQuestion(p plan.QueryPlan, dp probes.Plan, message string) string {
	if q, ok := postcheck.Unsourced(p.Clarification, message, maxGap); ok {
		return q
	}
	var gaps []string
	for _, g := range dp.ClarificationGaps {
		if g, ok := postcheck.Unsourced(g, message, maxGap); ok {
			gaps = append(gaps, g)
		}
	}
	for _, g := range gaps {
		if strings.HasSuffix(g, "?") {
			return sentence(g)
		}
	}
	has := func(code string) bool { return slices.Contains(dp.ReasonCodes, code) }
	q := "Что именно проверить в 1С: документы, обороты по счетам или открытые расчёты с контрагентом?"
	switch {
	case has(probes.ReasonSemanticDataNeedMissing):
		q = "Какие данные 1С нужны для ответа: документы, обороты по счетам или расчёты с контрагентом?"
	case has(probes.ReasonTurnMeaningRefMissing), has(probes.ReasonGroundingAxisMissing):
		q = "По какому контрагенту, договору или счёту и за какой период посмотреть данные 1С?"
	}
	if len(gaps) > 0 {
		q = "Для проверки по данным 1С не хватает сведений: " + strings.TrimSuffix(gaps[0], ".") + ". " + q
	}
	return q
}

// maxGap bounds a question back or a gap the model wrote.
const maxGap = 300

// sentence capitalises the first letter.
func sentence(s string) string {
	r := []rune(s)
	if len(r) == 0 {
		return s
	}
	return strings.ToUpper(string(r[:1])) + string(r[1:])
}
