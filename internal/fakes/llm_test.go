package fakes_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/internal/fakes"
)

// llmClient is the bot's LLM client pointed at l.
func llmClient(l *fakes.LLM, timeout time.Duration) *llm.Client {
	return llm.New(llm.Options{BaseURL: l.URL(), APIKey: "k", Model: "test/model", Timeout: timeout, BreakerTimeout: time.Minute})
}

var ask = []llm.Message{{Role: "system", Content: "Ты — планировщик."}, {Role: "user", Content: "курс доллара"}}

// The script by kind, plain and streamed, with the usage of each call.
func TestLLMScript(t *testing.T) {
	l := fakes.NewTestLLM(t, fakes.LLMOptions{Key: "k",
		Script: map[string][]fakes.Reply{"plan": {{Content: "первый план"}, {Content: "второй план"}}},
		Usage:  func(r *fakes.Request, content string) (int, int) { return len(r.Messages), len([]rune(content)) }})
	c := llmClient(l, 10*time.Second)
	var usage llm.Usage
	ctx := llm.WithUsage(t.Context(), &usage)
	var got []string
	for range 2 {
		out, err := c.Complete(ctx, ask, llm.Call{})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, out)
	}
	var deltas []string
	out, err := c.Stream(ctx, ask, llm.Call{}, func(d string) { deltas = append(deltas, d) })
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, out)
	other, err := c.Complete(ctx, []llm.Message{{Role: "user", Content: "привет"}}, llm.Call{JSON: true})
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, other)
	if diff := cmp.Diff([]string{"первый план", "второй план", "второй план", "Готов помочь."}, got); diff != "" {
		t.Errorf("replies (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"вто", "второй ", "второй план"}, deltas); diff != "" {
		t.Errorf("the text so far after each chunk (-want +got):\n%s", diff)
	}
	if usage.Calls() != 4 || usage.PromptTokens() != 7 || usage.CompletionTokens() != 11+11+11+13 {
		t.Errorf("usage %d calls, %d+%d tokens", usage.Calls(), usage.PromptTokens(), usage.CompletionTokens())
	}
	if l.Count("plan") != 3 || l.Count("other") != 1 || !l.Streamed() || l.Prompt("plan", -1) != "курс доллара" {
		t.Errorf("counts %v, streamed %v, last plan prompt %q", l.Counts(), l.Streamed(), l.Prompt("plan", -1))
	}
	if r := l.Requests(); r[3].ResponseFormat != "json_object" || r[3].Model != "test/model" {
		t.Errorf("request = %+v", r[3])
	}
}

// OpenRouter's errors and a model that misbehaves, each as the client sees it.
func TestLLMFaults(t *testing.T) {
	tests := []struct {
		name   string
		reply  fakes.Reply
		stream bool
		want   error
	}{
		{"429 with Retry-After", fakes.Reply{Status: 429, Header: map[string]string{"Retry-After": "7"}}, false, llm.ErrRateLimited},
		{"502", fakes.Reply{Status: 502}, false, llm.ErrUnavailable},
		{"error in a 200", fakes.Reply{ErrorIn200: 502}, false, llm.ErrUnavailable},
		{"error event in a stream", fakes.Reply{ErrorIn200: 502}, true, llm.ErrUnavailable},
		{"cut completion", fakes.Reply{Content: "Курс доллара — 81 ₽", Cut: true}, false, llm.ErrUnavailable},
		{"cut stream", fakes.Reply{Content: "Курс доллара — 81 ₽", Cut: true}, true, llm.ErrUnavailable},
		{"past the deadline", fakes.Reply{Content: "поздно", Delay: time.Hour}, false, context.DeadlineExceeded},
		{"invalid JSON", fakes.Reply{Raw: `{"choices":[`}, false, llm.ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := fakes.NewTestLLM(t, fakes.LLMOptions{Respond: func(*fakes.Request) fakes.Reply { return tt.reply }})
			c := llmClient(l, 500*time.Millisecond)
			var err error
			if tt.stream {
				_, err = c.Stream(t.Context(), ask, llm.Call{}, func(string) {})
			} else {
				_, err = c.Complete(t.Context(), ask, llm.Call{})
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// A key is checked when set; a wrong one is 401, as OpenRouter answers it.
func TestLLMKey(t *testing.T) {
	l := fakes.NewTestLLM(t, fakes.LLMOptions{Key: "right"})
	c := llm.New(llm.Options{BaseURL: l.URL(), APIKey: "wrong", Model: "m", Timeout: time.Second})
	if _, err := c.Complete(t.Context(), ask, llm.Call{}); !errors.Is(err, llm.ErrUnavailable) || !strings.Contains(err.Error(), "401") {
		t.Errorf("wrong key: %v, want a 401", err)
	}
	if n := len(l.Requests()); n != 0 {
		t.Errorf("%d requests recorded, want none: it was refused", n)
	}
}

// The stand-in's /audio/transcriptions as the bot's transcriber sees it: by default it hears
// the recording's bytes as the words; Transcribe scripts the replies, errors in OpenAI's
// envelope; a file whose extension OpenAI does not take is refused with its 400; a wrong key
// with its 401. Every request is recorded with its form fields.
func TestLLMTranscriptions(t *testing.T) {
	tests := []struct {
		name  string
		reply func(*fakes.Transcription) fakes.Reply // nil: the stand-in's default
		file  string
		key   string
		want  string
		err   error
		heard int // requests recorded
	}{
		{"the recording's words", nil, "voice.ogg", "k", "Курс евро на завтра?", nil, 1},
		{"a scripted transcript", func(*fakes.Transcription) fakes.Reply { return fakes.Reply{Content: " Кто нам должен? "} }, "voice.ogg", "k", "Кто нам должен?", nil, 1},
		{"silence", func(*fakes.Transcription) fakes.Reply { return fakes.Reply{Content: ""} }, "voice.ogg", "k", "", nil, 1},
		{"server error", func(*fakes.Transcription) fakes.Reply { return fakes.Reply{Status: 500} }, "voice.ogg", "k", "", llm.ErrUnavailable, 1},
		{"rate limited", func(*fakes.Transcription) fakes.Reply {
			return fakes.Reply{Status: 429, Message: "Rate limit reached for whisper-1"}
		}, "voice.ogg", "k", "", llm.ErrRateLimited, 1},
		{"past the deadline", func(*fakes.Transcription) fakes.Reply { return fakes.Reply{Content: "поздно", Delay: time.Hour} }, "voice.ogg", "k", "", context.DeadlineExceeded, 1},
		{"a format OpenAI does not take", nil, "voice.amr", "k", "", llm.ErrUnavailable, 0},
		{"wrong key", nil, "voice.ogg", "wrong", "", llm.ErrUnavailable, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := fakes.NewTestLLM(t, fakes.LLMOptions{Key: "k", Transcribe: tt.reply})
			tr := llm.NewTranscriber(llm.Options{BaseURL: l.URL() + "/v1", APIKey: tt.key, Model: "whisper-1", Timeout: 500 * time.Millisecond}, "ru")
			got, err := tr.Transcribe(t.Context(), tt.file, []byte("Курс евро на завтра?"))
			if !errors.Is(err, tt.err) || (tt.err == nil && err != nil) || got != tt.want {
				t.Errorf("Transcribe() = %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
			heard := l.Transcriptions()
			if len(heard) != tt.heard || l.Count("transcription") != tt.heard {
				t.Fatalf("%d transcriptions recorded, %d counted; want %d", len(heard), l.Count("transcription"), tt.heard)
			}
			if tt.heard == 0 {
				return
			}
			want := fakes.Transcription{Model: "whisper-1", Language: "ru", ResponseFormat: "json", FileName: tt.file,
				ContentType: "audio/ogg", Audio: []byte("Курс евро на завтра?")}
			h := heard[0]
			h.Header, h.Arrived = nil, time.Time{}
			if diff := cmp.Diff(want, h); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}
