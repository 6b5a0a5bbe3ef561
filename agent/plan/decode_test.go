package plan

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/understand"
	"github.com/google/go-cmp/cmp"
)

const ratePlan = `{"intents":["rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mode":"currency","date":"2026-01-15","codes":["EUR"]}}],"render_style":"SHORT","confidence":0.95}`

func TestDecode(t *testing.T) {
	want := QueryPlan{
		Kinds:       []understand.Kind{understand.KindRate},
		ToolCalls:   []ToolCall{{Tool: ToolFetchCBRData, Args: json.RawMessage(`{"mode":"currency","date":"2026-01-15","codes":["EUR"]}`)}},
		RenderStyle: StyleShort,
		Confidence:  0.95,
	}
	tests := []struct {
		name string
		raw  string
	}{
		{"plain", ratePlan},
		{"spaces", "\n\t " + ratePlan + "\n"},
		{"fence", "```json\n" + ratePlan + "\n```"},
		{"bare fence", "```\n" + ratePlan + "\n```"},
		{"prose around", "Вот план:\n" + ratePlan + "\nНадеюсь, это поможет. {не JSON}"},
		{"second object ignored", ratePlan + "\n" + `{"intents":["smalltalk"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode(tt.raw)
			if err != nil {
				t.Fatalf("Decode() error: %v", err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Decode() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		raw    string
		noJSON bool   // errors.Is(err, ErrNoJSON)
		substr string // in the error
	}{
		{"empty", "", true, ""},
		{"prose only", "Не могу составить план.", true, ""},
		{"truncated", `{"intents":["rate"],"tool_calls":[{"tool":"fetch_cbr_data","args":{"mo`, true, ""},
		{"unknown top-level field", `{"intents":["kb"],"tool_calls":[],"render_style":"SHORT","confidence":0.9,"reasoning":"…"}`, false, `unknown field "reasoning"`},
		{"unknown nested field", `{"intents":["kb"],"tool_calls":[],"render_style":"SHORT","confidence":0.9,"limits":{"max_rows":5}}`, false, `unknown field "max_rows"`},
		{"wrong type", `{"intents":"kb","tool_calls":[],"render_style":"SHORT","confidence":0.9}`, false, "cannot unmarshal"},
		{"confidence as string", `{"intents":["kb"],"tool_calls":[],"render_style":"SHORT","confidence":"0.9"}`, false, "cannot unmarshal"},
		{"trailing comma", `{"intents":["kb"],}`, true, "invalid character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(tt.raw)
			if err == nil {
				t.Fatal("Decode() succeeded; want an error")
			}
			if errors.Is(err, ErrNoJSON) != tt.noJSON {
				t.Errorf("Decode() error %v: errors.Is(ErrNoJSON) = %v, want %v", err, !tt.noJSON, tt.noJSON)
			}
			if !strings.Contains(err.Error(), tt.substr) {
				t.Errorf("Decode() error %q does not contain %q", err, tt.substr)
			}
		})
	}
}

// Args stay raw in Decode: an unknown argument is Validate's problem, not a decode error.
func TestDecodeKeepsArgsRaw(t *testing.T) {
	p, err := Decode(`{"intents":["kb"],"tool_calls":[{"tool":"search_general_kb","args":{"query":"НДС","lang":"ru"}}],"render_style":"SHORT","confidence":0.9}`)
	if err != nil {
		t.Fatalf("Decode() error: %v", err)
	}
	var a SearchGeneralKBArgs
	if err := p.ToolCalls[0].Decode(&a); err == nil || !strings.Contains(err.Error(), `unknown field "lang"`) {
		t.Errorf("ToolCall.Decode() error = %v, want unknown field \"lang\"", err)
	}
	probs := Validate(p, Rules{})
	if len(probs) == 0 || probs[0].Field != "tool_calls[0].args" {
		t.Errorf("Validate() = %v, want a problem with tool_calls[0].args", probs)
	}
}

func TestToolCallDecode(t *testing.T) {
	for _, raw := range []string{"", "null", " {} "} {
		var a SearchUserDocumentsArgs
		if err := (ToolCall{Args: json.RawMessage(raw)}).Decode(&a); err != nil {
			t.Errorf("Decode(%q) error: %v", raw, err)
		}
	}
	var a understand.RateArgs
	if err := (ToolCall{Args: json.RawMessage(`{"mode":"currency","codes":["USD"]}`)}).Decode(&a); err != nil {
		t.Fatalf("Decode() error: %v", err)
	}
	if diff := cmp.Diff(understand.RateArgs{Mode: "currency", Codes: []string{"USD"}}, a); diff != "" {
		t.Errorf("Decode() mismatch (-want +got):\n%s", diff)
	}
	if err := (ToolCall{Args: json.RawMessage(`{"mode":1}`)}).Decode(&a); err == nil {
		t.Error("Decode() of a wrong type succeeded")
	}
}
