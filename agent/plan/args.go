package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// Argument bounds and defaults.
const (
	maxQueryRunes   = 500 // a search query
	maxValueRunes   = 200 // a name, a filter value, a document id
	maxDocumentIDs  = 20
	defaultTopK     = 5
	maxTopK         = 20
	defaultNewsMax  = 5
	maxNewsResults  = 10
	maxDiscoveryRow = 500
)

// SearchUserDocumentsArgs are the arguments of search_user_documents: passages of the user's
// documents (all of them, or only DocumentIDs from the selection). Validate checks the ids'
// shape only; the executor checks them against the user's library.
type SearchUserDocumentsArgs struct {
	Query       string   `json:"query" jsonschema:"required,minLength=1,maxLength=500"`
	TopK        int      `json:"top_k,omitempty" jsonschema:"minimum=1,maximum=20,default=5"`
	DocumentIDs []string `json:"document_ids,omitempty" jsonschema:"maxItems=20" jsonschema_description:"Только из выбранных документов; пусто — искать во всех."`
}

// LoadDocumentsFullArgs are the arguments of load_documents_full: whole selected documents. The
// model names them as the prompt lists the selection; the executor resolves the names or ids
// against the user's library and may search instead when they are too large.
type LoadDocumentsFullArgs struct {
	DocumentIDs []string `json:"document_ids" jsonschema:"required,minItems=1,maxItems=20" jsonschema_description:"Выбранные документы, как они перечислены в запросе."`
}

// SearchGeneralKBArgs are the arguments of search_general_kb: the knowledge base of terms,
// accounting rules and regulations.
type SearchGeneralKBArgs struct {
	Query string `json:"query" jsonschema:"required,minLength=1,maxLength=500"`
	TopK  int    `json:"top_k,omitempty" jsonschema:"minimum=1,maximum=20,default=5"`
	Topic string `json:"topic,omitempty"`
}

// FetchFinanceNewsArgs are the arguments of fetch_finance_news: a web search for finance news.
type FetchFinanceNewsArgs struct {
	Query       string `json:"query" jsonschema:"required,minLength=1,maxLength=500"`
	MaxResults  int    `json:"max_results,omitempty" jsonschema:"minimum=1,maximum=10,default=5"`
	SearchDepth string `json:"search_depth,omitempty" jsonschema:"enum=basic,enum=advanced"`
}

// DiscoveryArgs are the arguments shared by the discovery primitives. Dates are "YYYY-MM-DD".
type DiscoveryArgs struct {
	Entity       string `json:"entity,omitempty" jsonschema_description:"Контрагент, договор или иной объект, как назван."`
	Account      string `json:"account,omitempty" jsonschema_description:"Счёт учёта: 60, 62.01."`
	DateFrom     string `json:"date_from,omitempty" jsonschema:"format=date"`
	DateTo       string `json:"date_to,omitempty" jsonschema:"format=date"`
	Axis         string `json:"axis,omitempty" jsonschema:"enum=counterparty,enum=contract,enum=account,enum=document_type,enum=month"`
	DocumentType string `json:"document_type,omitempty"`
	Limit        int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=500"`
}

// argsFor returns a new value of the argument type of t, or nil for an unknown tool.
func argsFor(t Tool) any {
	switch t {
	case ToolSearchUserDocuments:
		return &SearchUserDocumentsArgs{}
	case ToolLoadDocumentsFull:
		return &LoadDocumentsFullArgs{}
	case ToolSearchGeneralKB:
		return &SearchGeneralKBArgs{}
	case ToolFetchCBRData:
		return &understand.RateArgs{}
	case ToolFetchFinanceNews:
		return &FetchFinanceNewsArgs{}
	case ToolLedgerQuery:
		return &understand.LedgerArgs{}
	}
	if t.Discovery() {
		return &DiscoveryArgs{}
	}
	return nil
}

// Decode decodes the call's arguments into v (a pointer to the tool's *Args type), refusing
// fields v does not have. Missing or null arguments decode as an empty object.
func (c ToolCall) Decode(v any) error { return decodeArgs(c.Args, v) }

// Decode decodes the fallback's arguments into v, like ToolCall.Decode.
func (f Fallback) Decode(v any) error { return decodeArgs(f.Args, v) }

func decodeArgs(raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("plan: args: %w", err)
	}
	if dec.More() {
		return fmt.Errorf("plan: args: trailing data after the object")
	}
	return nil
}

// encodeArgs marshals typed arguments; the types above always marshal.
func encodeArgs(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("plan: marshal %T: %v", v, err))
	}
	return b
}

// Query is the search query of a search call (the user's documents, the knowledge base,
// news), trimmed; "" for other tools or arguments that do not decode.
func (c ToolCall) Query() string {
	args := argsFor(c.Tool)
	if args == nil || c.Decode(args) != nil {
		return ""
	}
	switch a := args.(type) {
	case *SearchUserDocumentsArgs:
		return strings.TrimSpace(a.Query)
	case *SearchGeneralKBArgs:
		return strings.TrimSpace(a.Query)
	case *FetchFinanceNewsArgs:
		return strings.TrimSpace(a.Query)
	}
	return ""
}

// CBRMode is the mode of a fetch_cbr_data call ("" for other tools or arguments that do not
// decode).
func (c ToolCall) CBRMode() string {
	var a understand.RateArgs
	if c.Tool != ToolFetchCBRData || c.Decode(&a) != nil {
		return ""
	}
	return a.Mode
}

// Planned reads a plan that is one call a decision carries — a 1C recipe or a Bank of Russia
// call — for understand.Parser.FromPlan; ok is false for any other plan. A ledger call without
// a recipe or filters takes the plan's Ledger ones.
func (p QueryPlan) Planned() (understand.Planned, bool) {
	if len(p.ToolCalls) != 1 {
		return understand.Planned{}, false
	}
	call := p.ToolCalls[0]
	switch call.Tool {
	case ToolLedgerQuery:
		var args understand.LedgerArgs
		if call.Decode(&args) != nil {
			return understand.Planned{}, false
		}
		if p.Ledger != nil {
			if args.Recipe == "" {
				args.Recipe = p.Ledger.Recipe
			}
			if args.Filters == (recipe.Filters{}) {
				args.Filters = p.Ledger.Filters
			}
		}
		return understand.Planned{Ledger: &args}, true
	case ToolFetchCBRData:
		var args understand.RateArgs
		if call.Decode(&args) != nil {
			return understand.Planned{}, false
		}
		return understand.Planned{Rate: &args}, true
	}
	return understand.Planned{}, false
}
