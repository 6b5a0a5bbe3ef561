// Package plan is the planner stage of the agent: one LLM call turns the user's question into a
// QueryPlan (strict JSON: the kinds of question — agent/understand's vocabulary —, entities, tool
// calls, limits, render style), which is decoded,
// normalized and validated here; one repair call fixes an invalid plan, and an emergency default
// plan (no keyword rules) stands in when the model cannot produce a valid one.
//
// The package only plans. Executing the tool calls, checking document ids against the user's
// library and talking to 1C belong to the executor.
package plan

import (
	"encoding/json"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// Kinds lists the kinds of question a plan may carry (agent/understand's vocabulary), in a
// stable order. docs covers both a search of all documents and a question about the selected
// ones (the selection decides); ledger_deep and general are only ever planned.
func Kinds() []understand.Kind {
	return []understand.Kind{understand.KindDocs, understand.KindKB, understand.KindRate, understand.KindKeyRate,
		understand.KindNews, understand.KindSmallTalk, understand.KindLedger, understand.KindLedgerDeep, understand.KindClarify,
		understand.KindGeneral}
}

// Tool is a tool the executor can call.
type Tool string

// The tools. The discovery primitives serve ledger_deep only.
const (
	ToolSearchUserDocuments Tool = "search_user_documents"
	ToolLoadDocumentsFull   Tool = "load_documents_full"
	ToolSearchGeneralKB     Tool = "search_general_kb"
	ToolFetchCBRData        Tool = "fetch_cbr_data"
	ToolFetchFinanceNews    Tool = "fetch_finance_news"
	ToolLedgerQuery         Tool = "ledger_query"

	ToolSearchBusinessEntity    Tool = "search_business_entity"
	ToolInspect1CMetadata       Tool = "inspect_1c_metadata"
	ToolResolveEntityReference  Tool = "resolve_entity_reference"
	ToolQueryMovements          Tool = "query_movements"
	ToolQueryDocuments          Tool = "query_documents"
	ToolAggregateByAxis         Tool = "aggregate_by_axis"
	ToolDrilldownRelatedObjects Tool = "drilldown_related_objects"
	ToolProbeCoverage           Tool = "probe_coverage"
	ToolExplainEvidenceBasis    Tool = "explain_evidence_basis"
)

// Tools lists every tool in a stable order: the scenario tools, then the discovery primitives.
func Tools() []Tool {
	return append([]Tool{ToolSearchUserDocuments, ToolLoadDocumentsFull, ToolSearchGeneralKB,
		ToolFetchCBRData, ToolFetchFinanceNews, ToolLedgerQuery}, DiscoveryPrimitives()...)
}

// DiscoveryPrimitives lists the tools of guarded 1C discovery.
func DiscoveryPrimitives() []Tool {
	return []Tool{ToolSearchBusinessEntity, ToolInspect1CMetadata, ToolResolveEntityReference,
		ToolQueryMovements, ToolQueryDocuments, ToolAggregateByAxis, ToolDrilldownRelatedObjects,
		ToolProbeCoverage, ToolExplainEvidenceBasis}
}

// Discovery reports whether t is a discovery primitive.
func (t Tool) Discovery() bool {
	for _, d := range DiscoveryPrimitives() {
		if t == d {
			return true
		}
	}
	return false
}

// Style is how the answer is laid out.
type Style string

// Render styles.
const (
	StyleBullets        Style = "BULLETS"
	StyleGroupedBullets Style = "GROUPED_BULLETS"
	StyleShort          Style = "SHORT"
	StyleTable          Style = "TABLE"
)

// Styles lists every render style.
func Styles() []Style { return []Style{StyleBullets, StyleGroupedBullets, StyleShort, StyleTable} }

// Answer styles and question modes.
const (
	AnswerNaturalRU  = "NATURAL_RU"
	ModeDirect       = "direct"
	ModeDeepAnalysis = "deep_analysis"
)

// Fallback triggers.
const (
	WhenNoResults   = "NO_RESULTS"
	WhenLowCoverage = "LOW_COVERAGE"
)

// EntityTypes are the values of Entity.Type.
var EntityTypes = []string{"counterparty", "contract", "organization", "currency", "account", "date",
	"period", "document", "topic"}

// Axes are the aggregation axes of discovery.
var Axes = []string{"counterparty", "contract", "account", "document_type", "month"}

// QueryPlan is the planner's output: what the question asks and which tools answer it.
type QueryPlan struct {
	Kinds       []understand.Kind `json:"intents" jsonschema:"required,minItems=1" jsonschema_description:"Намерения запроса; можно несколько."`
	Entities    []Entity          `json:"entities,omitempty" jsonschema_description:"Сущности, названные в вопросе."`
	ToolCalls   []ToolCall        `json:"tool_calls" jsonschema:"required" jsonschema_description:"Вызовы инструментов по порядку; пусто только для smalltalk и clarify."`
	Fallback    Fallback          `json:"fallback" jsonschema_description:"Запасной вызов, если основные ничего не нашли."`
	Limits      Limits            `json:"limits" jsonschema_description:"Лимиты ответа; 0 — по умолчанию."`
	RenderStyle Style             `json:"render_style" jsonschema:"required"`
	AnswerStyle string            `json:"answer_style,omitempty" jsonschema:"enum=NATURAL_RU"`
	Confidence  float64           `json:"confidence" jsonschema:"required,minimum=0,maximum=1" jsonschema_description:"Уверенность в плане, от 0 до 1."`
	// QuestionMode is "direct" or "deep_analysis" (the latter only with ledger_deep).
	QuestionMode string `json:"question_mode,omitempty" jsonschema:"enum=direct,enum=deep_analysis"`
	// Ledger is the 1C recipe and its filters, for ledger.
	Ledger *LedgerPlan `json:"ledger,omitempty" jsonschema_description:"Рецепт 1С и фильтры, для ledger."`
	// Discovery is the proposal that guards ledger_deep.
	Discovery *DiscoveryProposal `json:"discovery,omitempty" jsonschema_description:"Предложение для ledger_deep."`
	// Clarification is the question put to the user (clarify); options become buttons.
	Clarification        string   `json:"clarification,omitempty" jsonschema:"maxLength=300" jsonschema_description:"Уточняющий вопрос пользователю (для clarify)."`
	ClarificationOptions []string `json:"clarification_options,omitempty" jsonschema:"maxItems=5" jsonschema_description:"До 5 коротких вариантов ответа — кнопки."`
}

// Entity is something the question names.
type Entity struct {
	Type  string `json:"type" jsonschema:"required,enum=counterparty,enum=contract,enum=organization,enum=currency,enum=account,enum=date,enum=period,enum=document,enum=topic"`
	Name  string `json:"name" jsonschema:"required" jsonschema_description:"Как названо в вопросе."`
	Value string `json:"value,omitempty" jsonschema_description:"Нормализованное значение: дата ГГГГ-ММ-ДД, код валюты, номер счёта."`
}

// ToolCall is one tool invocation. Calls without dependencies may run concurrently.
type ToolCall struct {
	Tool Tool `json:"tool" jsonschema:"required"`
	// Args are the tool's arguments; their shape depends on Tool (see the *Args types).
	Args json.RawMessage `json:"args" jsonschema:"required" jsonschema_description:"Аргументы инструмента; набор полей зависит от tool."`
	// DependsOn are indexes of earlier calls whose results this one needs.
	DependsOn []int `json:"depends_on,omitempty" jsonschema_description:"Индексы более ранних вызовов, результаты которых нужны этому."`
}

// Fallback is the call made when the main calls find nothing or too little.
type Fallback struct {
	Enabled bool            `json:"enabled"`
	Tool    Tool            `json:"tool,omitempty"`
	Args    json.RawMessage `json:"args,omitempty"`
	When    []string        `json:"when,omitempty" jsonschema:"enum=NO_RESULTS,enum=LOW_COVERAGE"`
}

// Limits bound the answer; zero means the default (filled by Normalize).
type Limits struct {
	MaxItems      int `json:"max_items,omitempty" jsonschema:"minimum=0,maximum=50" jsonschema_description:"Пунктов в списке (1–50, по умолчанию 10)."`
	MaxGroups     int `json:"max_groups,omitempty" jsonschema:"minimum=0,maximum=10" jsonschema_description:"Групп (1–10, по умолчанию 4)."`
	MaxParagraphs int `json:"max_paragraphs,omitempty" jsonschema:"minimum=0,maximum=6" jsonschema_description:"Абзацев (1–6, по умолчанию 4)."`
}

// LedgerPlan is the 1C recipe of a ledger question and its filters.
type LedgerPlan struct {
	Recipe  recipe.Name    `json:"recipe" jsonschema:"required"`
	Filters recipe.Filters `json:"filters"`
}

// DiscoveryProposal guards ledger_deep: the model states what data it needs and which
// primitives it proposes before any of them may run.
type DiscoveryProposal struct {
	SemanticDataNeed   string      `json:"semantic_data_need" jsonschema:"required" jsonschema_description:"Какие данные нужны, одной фразой."`
	TurnMeaning        TurnMeaning `json:"turn_meaning" jsonschema:"required"`
	ProposedPrimitives []Tool      `json:"proposed_primitives" jsonschema:"required,minItems=1" jsonschema_description:"Примитивы discovery, которые предлагается вызвать."`
	RequiredAxes       []string    `json:"required_axes,omitempty" jsonschema:"enum=counterparty,enum=contract,enum=account,enum=document_type,enum=month"`
	ClarificationGaps  []string    `json:"clarification_gaps,omitempty" jsonschema_description:"Чего не хватает для уверенного анализа."`
}

// TurnMeaning is the model's reading of the question for discovery.
type TurnMeaning struct {
	AskedDomainFamily         string   `json:"asked_domain_family" jsonschema:"required" jsonschema_description:"Область: расчёты с контрагентами, банк, продажи, закупки, остатки…"`
	AskedActionFamily         string   `json:"asked_action_family" jsonschema:"required" jsonschema_description:"Действие: сравнить, объяснить, найти причину, оценить динамику…"`
	AskedAggregationAxis      string   `json:"asked_aggregation_axis,omitempty" jsonschema:"enum=counterparty,enum=contract,enum=account,enum=document_type,enum=month"`
	ExplicitEntityCandidates  []string `json:"explicit_entity_candidates,omitempty"`
	ExplicitOrganizationScope string   `json:"explicit_organization_scope,omitempty"`
	ExplicitDateScope         string   `json:"explicit_date_scope,omitempty"`
	MeaningConfidence         float64  `json:"meaning_confidence" jsonschema:"required,minimum=0,maximum=1"`
}
