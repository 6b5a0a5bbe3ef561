package plan

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/ru"
)

// Rules tune validation to the user's situation and the bot's configuration.
type Rules struct {
	// ConfidenceThreshold is the lowest acceptable plan confidence (default 0.5).
	ConfidenceThreshold float64
	// MaxToolCalls bounds the tool calls of one plan, the fallback not counted (default 4).
	MaxToolCalls int
	// HasDocuments: the user has uploaded documents (search_user_documents).
	HasDocuments bool
	// HasSelection: the user has selected documents (load_documents_full, document_ids).
	HasSelection bool
	// HasLedger: 1C is connected and this user may see it (ledger_query, discovery).
	HasLedger bool
	// HasLLMNews: the web news search is connected (fetch_finance_news). Without it, news come
	// from the Bank of Russia only (fetch_cbr_data, mode news).
	HasLLMNews bool
	// Tools are the tools this installation serves this requester, from the agent's table of
	// meanings (Offering); nil = every tool the flags above allow. The discovery primitives
	// follow HasLedger.
	Tools []Tool
}

// Offering is r for an installation that serves tools: the flags follow the list.
func (r Rules) Offering(tools []Tool) Rules {
	r.Tools = tools
	r.HasDocuments = slices.Contains(tools, ToolSearchUserDocuments)
	r.HasLedger = slices.Contains(tools, ToolLedgerQuery)
	r.HasLLMNews = slices.Contains(tools, ToolFetchFinanceNews)
	return r
}

// Rule defaults.
const (
	DefaultConfidenceThreshold = 0.5
	DefaultMaxToolCalls        = 4
)

func (r Rules) withDefaults() Rules {
	if r.ConfidenceThreshold <= 0 || math.IsNaN(r.ConfidenceThreshold) {
		r.ConfidenceThreshold = DefaultConfidenceThreshold
	}
	if r.MaxToolCalls <= 0 {
		r.MaxToolCalls = DefaultMaxToolCalls
	}
	return r
}

// Limits bounds; zero means the default.
const (
	maxItemsLimit      = 50
	maxGroupsLimit     = 10
	maxParagraphsLimit = 6
	maxClarifyRunes    = 300
	maxOptions         = 5
	maxOptionRunes     = 64
)

// Problem is one reason a plan is refused. Messages are Russian: they are shown to the model in
// the repair call.
type Problem struct {
	Field   string `json:"field"` // e.g. "tool_calls[1].args.top_k"; empty for the whole plan
	Message string `json:"message"`
}

// String formats the problem as "field: message".
func (p Problem) String() string {
	if p.Field == "" {
		return p.Message
	}
	return p.Field + ": " + p.Message
}

// checker collects problems.
type checker struct{ probs []Problem }

func (c *checker) add(field, format string, args ...any) {
	c.probs = append(c.probs, Problem{Field: field, Message: fmt.Sprintf(format, args...)})
}

// Validate checks a plan against the schema's rules and the user's situation and returns every
// problem found (none for a valid plan). Document ids are only checked for shape here: whether
// they belong to the user's library is the executor's check.
func Validate(p QueryPlan, r Rules) []Problem {
	r = r.withDefaults()
	c := &checker{}
	c.intents(p)
	c.toolCalls(p, r)
	c.fallback(p, r)
	c.presentation(p, r)
	c.clarification(p)
	c.ledger(p)
	c.discovery(p)
	c.entities(p.Entities)
	return c.probs
}

func (c *checker) intents(p QueryPlan) {
	if len(p.Kinds) == 0 {
		c.add("intents", "нужно хотя бы одно намерение из: %s", join(Kinds()))
	}
	for i, in := range p.Kinds {
		if !slices.Contains(Kinds(), in) {
			c.add(fmt.Sprintf("intents[%d]", i), "неизвестное намерение %q; допустимы: %s", clip(string(in)), join(Kinds()))
		}
	}
}

// onlyTalk reports whether the plan only chats or asks back: then it calls no tools.
func onlyTalk(p QueryPlan) bool {
	for _, in := range p.Kinds {
		if in != understand.KindSmallTalk && in != understand.KindClarify {
			return false
		}
	}
	return len(p.Kinds) > 0
}

func (c *checker) toolCalls(p QueryPlan, r Rules) {
	switch {
	case len(p.ToolCalls) == 0 && len(p.Kinds) > 0 && !onlyTalk(p):
		c.add("tool_calls", "нужен хотя бы один вызов инструмента: без вызовов обходятся только smalltalk и clarify")
	case len(p.ToolCalls) > 0 && onlyTalk(p):
		c.add("tool_calls", "для smalltalk и clarify инструменты не вызываются: оставь tool_calls пустым")
	}
	if len(p.ToolCalls) > r.MaxToolCalls {
		c.add("tool_calls", "не больше %d вызовов инструментов, а в плане %d", r.MaxToolCalls, len(p.ToolCalls))
	}
	for i, call := range p.ToolCalls {
		field := fmt.Sprintf("tool_calls[%d]", i)
		seen := map[int]bool{}
		for _, d := range call.DependsOn {
			switch {
			case d < 0 || d >= i:
				if i == 0 {
					c.add(field+".depends_on", "первый вызов не может зависеть от других")
				} else {
					c.add(field+".depends_on", "%d — можно ссылаться только на более ранние вызовы, с 0 по %d", d, i-1)
				}
			case seen[d]:
				c.add(field+".depends_on", "%d указан дважды", d)
			}
			seen[d] = true
		}
		c.call(field, call.Tool, call.Decode, p, r)
	}
}

func (c *checker) fallback(p QueryPlan, r Rules) {
	f := p.Fallback
	for i, w := range f.When {
		if w != WhenNoResults && w != WhenLowCoverage {
			c.add(fmt.Sprintf("fallback.when[%d]", i), "%q — допустимы только %s и %s", clip(w), WhenNoResults, WhenLowCoverage)
		}
	}
	if !f.Enabled {
		if f.Tool != "" && !slices.Contains(Tools(), f.Tool) {
			c.add("fallback.tool", "неизвестный инструмент %q; допустимы: %s", clip(string(f.Tool)), join(Tools()))
		}
		return
	}
	if f.Tool == "" {
		c.add("fallback.tool", "у включённого fallback должен быть инструмент")
		return
	}
	if len(f.When) == 0 {
		c.add("fallback.when", "укажи, когда включать fallback: %s и/или %s", WhenNoResults, WhenLowCoverage)
	}
	c.call("fallback", f.Tool, f.Decode, p, r)
}

func (c *checker) presentation(p QueryPlan, r Rules) {
	if !slices.Contains(Styles(), p.RenderStyle) {
		c.add("render_style", "%q — допустимы: %s", clip(string(p.RenderStyle)), join(Styles()))
	}
	if p.AnswerStyle != AnswerNaturalRU {
		c.add("answer_style", "%q — допустимо только %s", clip(p.AnswerStyle), AnswerNaturalRU)
	}
	if p.QuestionMode != ModeDirect && p.QuestionMode != ModeDeepAnalysis {
		c.add("question_mode", "%q — допустимы только %s и %s", clip(p.QuestionMode), ModeDirect, ModeDeepAnalysis)
	}
	switch {
	case math.IsNaN(p.Confidence) || p.Confidence > 1 || p.Confidence < 0:
		c.add("confidence", "%v — нужно число от 0 до 1", p.Confidence)
	case p.Confidence < r.ConfidenceThreshold:
		c.add("confidence", "%.2f — ниже порога %.2f: план ненадёжен; если вопрос неясен, выбери clarify с вариантами", p.Confidence, r.ConfidenceThreshold)
	}
	limit := func(field string, v, max int) {
		if v < 0 || v > max {
			c.add("limits."+field, "%d — нужно от 1 до %d (0 — по умолчанию)", v, max)
		}
	}
	limit("max_items", p.Limits.MaxItems, maxItemsLimit)
	limit("max_groups", p.Limits.MaxGroups, maxGroupsLimit)
	limit("max_paragraphs", p.Limits.MaxParagraphs, maxParagraphsLimit)
}

func (c *checker) clarification(p QueryPlan) {
	text := strings.TrimSpace(p.Clarification)
	switch {
	case slices.Contains(p.Kinds, understand.KindClarify) && text == "":
		c.add("clarification", "для clarify нужен уточняющий вопрос пользователю")
	case utf8.RuneCountInString(text) > maxClarifyRunes:
		c.add("clarification", "длиннее %d символов: нужен один короткий вопрос", maxClarifyRunes)
	}
	if len(p.ClarificationOptions) > 0 && text == "" {
		c.add("clarification_options", "варианты ответа бывают только вместе с уточняющим вопросом")
	}
	if len(p.ClarificationOptions) > maxOptions {
		c.add("clarification_options", "не больше %d вариантов, а указано %d", maxOptions, len(p.ClarificationOptions))
	}
	for i, o := range p.ClarificationOptions {
		n := utf8.RuneCountInString(strings.TrimSpace(o))
		if n == 0 || n > maxOptionRunes {
			c.add(fmt.Sprintf("clarification_options[%d]", i), "нужен текст кнопки от 1 до %d символов", maxOptionRunes)
		}
	}
}

func (c *checker) ledger(p QueryPlan) {
	if p.Ledger != nil {
		if !slices.Contains(p.Kinds, understand.KindLedger) {
			c.add("ledger", "ledger задаётся только для намерения ledger")
		}
		c.recipe("address.recipe", p.Ledger.Recipe)
		c.filters("address.filters", p.Ledger.Filters)
	}
	if slices.Contains(p.Kinds, understand.KindLedger) && !hasTool(p, ToolLedgerQuery) {
		c.add("tool_calls", "для ledger нужен вызов ledger_query")
	}
}

func (c *checker) discovery(p QueryPlan) {
	deep := slices.Contains(p.Kinds, understand.KindLedgerDeep)
	if deep && p.QuestionMode != ModeDeepAnalysis {
		c.add("question_mode", "для ledger_deep нужен question_mode %q", ModeDeepAnalysis)
	}
	if !deep && p.QuestionMode == ModeDeepAnalysis {
		c.add("question_mode", "%q бывает только с намерением ledger_deep", ModeDeepAnalysis)
	}
	if deep && p.Discovery == nil {
		c.add("discovery", "для ledger_deep нужно предложение discovery")
	}
	d := p.Discovery
	if d == nil {
		return
	}
	if !deep {
		c.add("discovery", "discovery задаётся только для намерения ledger_deep")
	}
	if strings.TrimSpace(d.SemanticDataNeed) == "" {
		c.add("discovery.semantic_data_need", "опиши одной фразой, какие данные нужны")
	}
	if len(d.ProposedPrimitives) == 0 {
		c.add("discovery.proposed_primitives", "нужен хотя бы один примитив из: %s", join(DiscoveryPrimitives()))
	}
	for i, t := range d.ProposedPrimitives {
		if !t.Discovery() {
			c.add(fmt.Sprintf("discovery.proposed_primitives[%d]", i), "%q — не примитив discovery; допустимы: %s", clip(string(t)), join(DiscoveryPrimitives()))
		}
	}
	for i, a := range d.RequiredAxes {
		if !slices.Contains(Axes, a) {
			c.add(fmt.Sprintf("discovery.required_axes[%d]", i), "%q — допустимы: %s", clip(a), strings.Join(Axes, ", "))
		}
	}
	m := d.TurnMeaning
	if a := m.AskedAggregationAxis; a != "" && !slices.Contains(Axes, a) {
		c.add("discovery.turn_meaning.asked_aggregation_axis", "%q — допустимы: %s", clip(a), strings.Join(Axes, ", "))
	}
	if math.IsNaN(m.MeaningConfidence) || m.MeaningConfidence < 0 || m.MeaningConfidence > 1 {
		c.add("discovery.turn_meaning.meaning_confidence", "%v — нужно число от 0 до 1", m.MeaningConfidence)
	}
}

func (c *checker) entities(es []Entity) {
	for i, e := range es {
		field := fmt.Sprintf("entities[%d]", i)
		if !slices.Contains(EntityTypes, e.Type) {
			c.add(field+".type", "%q — допустимы: %s", clip(e.Type), strings.Join(EntityTypes, ", "))
		}
		if n := utf8.RuneCountInString(strings.TrimSpace(e.Name)); n == 0 || n > maxValueRunes {
			c.add(field+".name", "нужно название от 1 до %d символов", maxValueRunes)
		}
		if utf8.RuneCountInString(e.Value) > maxValueRunes {
			c.add(field+".value", "длиннее %d символов", maxValueRunes)
		}
	}
}

func hasTool(p QueryPlan, t Tool) bool {
	for _, c := range p.ToolCalls {
		if c.Tool == t {
			return true
		}
	}
	return false
}

// join lists enum values for a message.
func join[T ~string](vs []T) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// clip shortens a value the model wrote before it is quoted back to it.
func clip(s string) string { return ru.Truncate(s, 60) }
