package plan

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/internal/golden"
)

func TestSchema(t *testing.T) {
	s := Schema()
	var doc map[string]any
	if err := json.Unmarshal(s, &doc); err != nil {
		t.Fatalf("Schema() is not valid JSON: %v", err)
	}
	if doc["$ref"] != "#/$defs/QueryPlan" {
		t.Errorf("Schema() $ref = %v, want #/$defs/QueryPlan", doc["$ref"])
	}
	text := string(s)
	for _, i := range Kinds() {
		if !strings.Contains(text, `"`+string(i)+`"`) {
			t.Errorf("Schema() does not mention intent %s", i)
		}
	}
	for _, tool := range Tools() {
		if !strings.Contains(text, `"`+string(tool)+`"`) {
			t.Errorf("Schema() does not mention tool %s", tool)
		}
	}
	for _, r := range recipe.Names() {
		if !strings.Contains(text, `"`+string(r)+`"`) {
			t.Errorf("Schema() does not mention recipe %s", r)
		}
	}
	for _, st := range Styles() {
		if !strings.Contains(text, `"`+string(st)+`"`) {
			t.Errorf("Schema() does not mention style %s", st)
		}
	}
	// Every $ref points at a definition.
	defs, _ := doc["$defs"].(map[string]any)
	for _, ref := range refs(doc) {
		if _, ok := defs[strings.TrimPrefix(ref, "#/$defs/")]; !ok {
			t.Errorf("Schema() has dangling $ref %s", ref)
		}
	}
	if !bytes.Equal(s, Schema()) {
		t.Error("Schema() differs between calls")
	}
	s[0] = 'x' // the caller's copy
	if Schema()[0] != '{' {
		t.Error("Schema() returned shared memory")
	}
	var out bytes.Buffer
	if err := json.Indent(&out, Schema(), "", "  "); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "schema.golden"), out.String()+"\n")
}

func refs(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" {
				out = append(out, s)
			}
			out = append(out, refs(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, refs(x)...)
		}
	}
	return out
}

// Every field of runner.Filters is explained to the model.
func TestFilterMeanings(t *testing.T) {
	var f map[string]any
	b, _ := json.Marshal(recipe.Filters{PeriodFrom: "x", PeriodTo: "x", AsOfDate: "x", Organization: "x",
		Counterparty: "x", Contract: "x", Account: "x", DocumentType: "x", DocumentRef: "x", Status: "x",
		Limit: 1, Sort: "x", INN: "x", Detail: "x"})
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for key := range f {
		if filterMeaning(key) == "" {
			t.Errorf("filter %q has no meaning in filterMeanings", key)
		}
	}
	if len(filterMeanings) != len(f) {
		t.Errorf("filterMeanings has %d entries, runner.Filters %d fields", len(filterMeanings), len(f))
	}
}

func TestEnums(t *testing.T) {
	if n := len(Kinds()); n != 10 { // docs covers a search and the selected documents
		t.Errorf("len(Kinds()) = %d, want 10", n)
	}
	if n := len(Tools()); n != 15 {
		t.Errorf("len(Tools()) = %d, want 15", n)
	}
	for _, tool := range Tools() {
		if argsFor(tool) == nil {
			t.Errorf("argsFor(%s) = nil", tool)
		}
	}
	if argsFor("web_search") != nil {
		t.Error("argsFor(web_search) != nil")
	}
}
