package plan

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// Default limits, filled by Normalize.
const (
	DefaultMaxItems      = 10
	DefaultMaxGroups     = 4
	DefaultMaxParagraphs = 4
)

// Normalize fills the defaults a model may leave out: render and answer style, question mode,
// limits, fallback trigger, top_k and max_results; it drops repeated intents, upper-cases
// currency codes and carries the recipe between Address and the ledger_query calls. Arguments
// that do not decode are left as they are, for Validate to report.
func Normalize(p *QueryPlan) {
	p.Kinds = dedupe(p.Kinds)
	if p.RenderStyle == "" {
		p.RenderStyle = StyleBullets
	}
	if p.AnswerStyle == "" {
		p.AnswerStyle = AnswerNaturalRU
	}
	if p.QuestionMode == "" {
		p.QuestionMode = ModeDirect
		if slices.Contains(p.Kinds, understand.KindLedgerDeep) {
			p.QuestionMode = ModeDeepAnalysis
		}
	}
	fill := func(v *int, def int) {
		if *v == 0 {
			*v = def
		}
	}
	fill(&p.Limits.MaxItems, DefaultMaxItems)
	fill(&p.Limits.MaxGroups, DefaultMaxGroups)
	fill(&p.Limits.MaxParagraphs, DefaultMaxParagraphs)
	p.Clarification = strings.TrimSpace(p.Clarification)
	for i, o := range p.ClarificationOptions {
		p.ClarificationOptions[i] = strings.TrimSpace(o)
	}

	if p.Ledger == nil {
		for _, c := range p.ToolCalls {
			var a understand.LedgerArgs
			if c.Tool == ToolLedgerQuery && c.Decode(&a) == nil && a.Recipe != "" {
				p.Ledger = &LedgerPlan{Recipe: a.Recipe, Filters: a.Filters}
				break
			}
		}
	}
	for i := range p.ToolCalls {
		p.ToolCalls[i].Args = normalizeArgs(p.ToolCalls[i].Tool, p.ToolCalls[i].Args, p.Ledger)
	}
	if p.Fallback.Enabled {
		if len(p.Fallback.When) == 0 {
			p.Fallback.When = []string{WhenNoResults}
		}
		p.Fallback.Args = normalizeArgs(p.Fallback.Tool, p.Fallback.Args, p.Ledger)
	}
}

func dedupe[T comparable](xs []T) []T {
	var out []T
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// normalizeArgs fills the argument defaults of t; arguments that do not decode come back as
// they were.
func normalizeArgs(t Tool, raw json.RawMessage, addr *LedgerPlan) json.RawMessage {
	args := argsFor(t)
	if args == nil || decodeArgs(raw, args) != nil {
		return raw
	}
	switch a := args.(type) {
	case *SearchUserDocumentsArgs:
		a.Query = strings.TrimSpace(a.Query)
		if a.TopK == 0 {
			a.TopK = defaultTopK
		}
	case *SearchGeneralKBArgs:
		a.Query = strings.TrimSpace(a.Query)
		if a.TopK == 0 {
			a.TopK = defaultTopK
		}
	case *FetchFinanceNewsArgs:
		a.Query = strings.TrimSpace(a.Query)
		if a.MaxResults == 0 {
			a.MaxResults = defaultNewsMax
		}
	case *understand.RateArgs:
		for i, c := range a.Codes {
			a.Codes[i] = strings.ToUpper(strings.TrimSpace(c))
		}
	case *understand.LedgerArgs:
		if addr != nil && a.Recipe == "" {
			a.Recipe = addr.Recipe
		}
		if addr != nil && a.Recipe == addr.Recipe && a.Filters == (recipe.Filters{}) {
			a.Filters = addr.Filters
		}
	}
	return encodeArgs(args)
}

// Default is the emergency plan, used when the model gives no valid plan: a
// broad search of the user's documents (when there are any) and of the knowledge base, answered
// briefly. It uses no keyword rules and always passes Validate with the same rules.
func Default(question string, r Rules) QueryPlan {
	r = r.withDefaults()
	q := strings.TrimSpace(ru.Clip(strings.TrimSpace(question), maxQueryRunes))
	p := QueryPlan{RenderStyle: StyleShort, Confidence: 1, ToolCalls: []ToolCall{}}
	if q == "" {
		p.Kinds = []understand.Kind{understand.KindClarify}
		p.Clarification = "Уточните, пожалуйста, ваш вопрос."
		Normalize(&p)
		return p
	}
	p.Kinds = []understand.Kind{understand.KindGeneral}
	if r.HasDocuments {
		p.ToolCalls = append(p.ToolCalls, ToolCall{Tool: ToolSearchUserDocuments, Args: encodeArgs(SearchUserDocumentsArgs{Query: q})})
	}
	p.ToolCalls = append(p.ToolCalls, ToolCall{Tool: ToolSearchGeneralKB, Args: encodeArgs(SearchGeneralKBArgs{Query: q})})
	if len(p.ToolCalls) > r.MaxToolCalls {
		p.ToolCalls = p.ToolCalls[:r.MaxToolCalls]
	}
	Normalize(&p)
	return p
}
