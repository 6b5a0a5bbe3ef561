package plan

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/invopop/jsonschema"
)

// JSONSchema lists the tools as an enum.
func (Tool) JSONSchema() *jsonschema.Schema {
	return enumSchema("Инструмент.", Tools())
}

// JSONSchema lists the render styles as an enum.
func (Style) JSONSchema() *jsonschema.Schema {
	return enumSchema("Стиль ответа: BULLETS — список, GROUPED_BULLETS — списки по группам, SHORT — 1–3 абзаца, TABLE — таблица.", Styles())
}

func enumSchema[T ~string](desc string, values []T) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	for _, v := range values {
		s.Enum = append(s.Enum, string(v))
	}
	return s
}

// filterMeanings explain the 1C filters, for the schema and the planner prompt. A test checks
// that every field of runner.Filters has one.
var filterMeanings = []struct{ Key, Meaning string }{
	{recipe.FilterPeriodFrom, "начало периода, ГГГГ-ММ-ДД"},
	{recipe.FilterPeriodTo, "конец периода, ГГГГ-ММ-ДД"},
	{recipe.FilterAsOfDate, "дата среза, ГГГГ-ММ-ДД; для «на конец февраля» — последний день месяца"},
	{recipe.FilterOrganization, "наша организация, как названа"},
	{recipe.FilterCounterparty, "контрагент, как назван (падеж не меняй)"},
	{"inn", "ИНН контрагента, 10 или 12 цифр"},
	{recipe.FilterContract, "номер договора, как написан"},
	{recipe.FilterAccount, "счёт учёта: 60, 62.01"},
	{recipe.FilterDocumentType, "вид документа 1С"},
	{recipe.FilterDocumentRef, "номер или ссылка документа"},
	{recipe.FilterStatus, "open, closed или all"},
	{recipe.FilterLimit, "сколько строк, 1–200"},
	{recipe.FilterSort, "date_desc, amount_desc или name_asc"},
	{recipe.FilterDetail, "разрез оборотно-сальдовой ведомости: counterparty (по контрагентам) или contract (по договорам)"},
}

func filterMeaning(key string) string {
	for _, f := range filterMeanings {
		if f.Key == key {
			return f.Meaning
		}
	}
	return ""
}

var schemaOnce = sync.OnceValue(buildSchema)

// Schema returns the JSON Schema of QueryPlan, generated from the Go types: enums for intents,
// tools, styles and recipes, and for each tool the shape of its args (if tool == X then args is
// XArgs). The result is compact JSON and the same on every call.
func Schema() json.RawMessage {
	b := schemaOnce()
	return append(json.RawMessage(nil), b...)
}

func buildSchema() []byte {
	r := reflector()
	root := r.Reflect(&QueryPlan{})
	// Reflect every argument type with the same reflector and merge their $defs; then ArgsByTool
	// ties args to tool (if tool is one of X then args is XArgs) for ToolCall and Fallback.
	var byTool []*jsonschema.Schema
	for _, g := range toolsByArgs() {
		s := r.ReflectFromType(g.typ)
		for name, d := range s.Definitions {
			root.Definitions[name] = d
		}
		tool := &jsonschema.Schema{Const: string(g.tools[0])}
		if len(g.tools) > 1 {
			tool = enumSchema("", g.tools)
			tool.Type = ""
		}
		byTool = append(byTool, &jsonschema.Schema{
			If:   property("tool", tool, true),
			Then: property("args", &jsonschema.Schema{Ref: "#/$defs/" + r.Namer(g.typ)}, false),
		})
	}
	root.Definitions["ArgsByTool"] = &jsonschema.Schema{AllOf: byTool}
	root.Definitions["LedgerRecipe"] = enumSchema("Рецепт 1С (ledger_query).", recipe.Names())
	for _, name := range []string{"ToolCall", "Fallback"} {
		d, ok := root.Definitions[name]
		if !ok {
			panic("plan: schema has no " + name)
		}
		d.AllOf = []*jsonschema.Schema{{Ref: "#/$defs/ArgsByTool"}}
		if args, ok := d.Properties.Get("args"); ok {
			args.Type = "object"
		}
	}
	b, err := json.Marshal(root)
	if err != nil {
		panic(fmt.Sprintf("plan: marshal schema: %v", err))
	}
	return b
}

// toolsByArgs groups the tools by argument type, in Tools() order.
func toolsByArgs() []struct {
	typ   reflect.Type
	tools []Tool
} {
	var out []struct {
		typ   reflect.Type
		tools []Tool
	}
	index := map[reflect.Type]int{}
	for _, t := range Tools() {
		typ := reflect.TypeOf(argsFor(t)).Elem()
		i, ok := index[typ]
		if !ok {
			i = len(out)
			index[typ] = i
			out = append(out, struct {
				typ   reflect.Type
				tools []Tool
			}{typ: typ})
		}
		out[i].tools = append(out[i].tools, t)
	}
	return out
}

// property is an object schema constraining one property.
func property(key string, s *jsonschema.Schema, required bool) *jsonschema.Schema {
	o := &jsonschema.Schema{Properties: jsonschema.NewProperties()}
	o.Properties.Set(key, s)
	if required {
		o.Required = []string{key}
	}
	return o
}

func reflector() *jsonschema.Reflector {
	addressPkg := reflect.TypeOf(recipe.Filters{}).PkgPath()
	return &jsonschema.Reflector{
		Anonymous:                  true,
		RequiredFromJSONSchemaTags: true,
		// buildSchema adds LedgerRecipe; the kinds are agent/understand's, listed by Kinds.
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			switch t {
			case reflect.TypeOf(recipe.Name("")):
				return &jsonschema.Schema{Ref: "#/$defs/LedgerRecipe"}
			case reflect.TypeOf(understand.Kind("")):
				return enumSchema("Намерение.", Kinds())
			}
			return nil
		},
		Namer: func(t reflect.Type) string {
			if t.PkgPath() == addressPkg {
				return "Ledger" + t.Name()
			}
			return t.Name()
		},
		LookupComment: func(t reflect.Type, field string) string {
			if t != reflect.TypeOf(recipe.Filters{}) || field == "" {
				return ""
			}
			f, _ := t.FieldByName(field)
			return filterMeaning(jsonName(f))
		},
	}
}

// jsonName is the JSON key of a struct field.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}
