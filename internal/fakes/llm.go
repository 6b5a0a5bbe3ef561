package fakes

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// LLM is a stand-in for an OpenAI-compatible chat-completions API as OpenRouter serves it:
// POST …/chat/completions, answered as a whole completion or, for "stream": true, as server-sent
// events, with usage; OpenRouter's errors as an HTTP status (Retry-After included) or inside a
// 200. Each call is classified into a kind (Classify: by default by finbot's prompts, CallKind)
// and answered from the kind's script, or by Respond. A reply may come late, be cut off, or be
// any body at all. It records every request. It transcribes speech too (llm_audio.go): POST
// …/audio/transcriptions, OpenAI's multipart form, answered by Transcribe or, without it, with
// the recording's bytes read as text: a test "says" what it puts in the file.
//
// The client's requests go to URL()/chat/completions and URL()/audio/transcriptions.
type LLM struct {
	*Server
	opts LLMOptions

	mu             sync.Mutex
	calls          map[string]int // by kind; "transcription" for /audio/transcriptions
	requests       []Request
	transcriptions []Transcription
	spent          time.Duration
}

// LLMOptions configures an LLM.
type LLMOptions struct {
	// Key, when set, is the API key every request must carry ("Authorization: Bearer <Key>");
	// others get 401.
	Key string
	// Classify names the kind of a call; nil is CallKind.
	Classify func(*Request) string
	// Script holds the replies to each kind of call, in order; a kind whose replies are used up
	// repeats its last.
	Script map[string][]Reply
	// Respond answers a call whose kind has no script; nil answers "Готов помочь.".
	Respond func(*Request) Reply
	// Transcribe answers an /audio/transcriptions call: Content is the transcript; Status,
	// Message, Raw, Delay and Header work as for chat, errors in OpenAI's envelope. nil
	// answers with the recording's bytes as the transcript.
	Transcribe func(*Transcription) Reply
	// Latency is waited before every reply's first byte (on top of the reply's own Delay).
	Latency time.Duration
	// Chunks is how many chunks a stream carries the content in (default 3); ChunkGap is waited
	// between two.
	Chunks   int
	ChunkGap time.Duration
	// Usage counts the tokens of a call and its reply's content; nil counts 100 and 20.
	Usage func(r *Request, content string) (prompt, completion int)
	// InProcess runs the stand-in without a listener: reach it through Client, or serve it
	// (an LLM is an http.Handler) from a server of your own, one a test takes down and brings
	// back, say.
	InProcess bool
	// Unrecorded keeps no requests (Requests and Transcriptions are empty; counts are kept):
	// for long runs that measure memory.
	Unrecorded bool
}

// Reply is one answer of the stand-in. With none of Status, ErrorIn200 and Raw set it is a
// completion of Content (for a transcription, the transcript Content).
type Reply struct {
	Content string
	// Status, when set, answers with that HTTP status and OpenRouter's error object; Message is
	// its message (default "Provider returned error").
	Status  int
	Message string
	// ErrorIn200 answers 200 with an error object of this code, as OpenRouter does when the
	// model fails after it started: the whole body, or an event of a stream.
	ErrorIn200 int
	// Raw is the whole body, as is (invalid JSON, odd shapes); Header may set its Content-Type.
	Raw string
	// Delay is waited before the first byte; a reply later than the client's deadline is a
	// timeout. The stand-in gives up when the client does.
	Delay  time.Duration
	Header map[string]string
	// Cut ends the reply early: a stream after its first chunk, without the usage chunk and
	// "data: [DONE]"; a whole completion in the middle of its JSON.
	Cut bool
	// Chunks overrides LLMOptions.Chunks for this reply.
	Chunks int
}

// Request is one chat-completions call as the stand-in read it.
type Request struct {
	Kind     string
	Model    string
	Messages []ChatMessage
	Stream   bool
	// ResponseFormat is the type of response_format ("json_object", "json_schema"), if any.
	ResponseFormat string
	Body           []byte
	Header         http.Header
	Arrived        time.Time
}

// ChatMessage is one message of a request.
type ChatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// First is the content of the request's first message (the system prompt); "" if none.
func (r *Request) First() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[0].Content
}

// Last is the content of the request's last message (the user's); "" if none.
func (r *Request) Last() string {
	if len(r.Messages) == 0 {
		return ""
	}
	return r.Messages[len(r.Messages)-1].Content
}

// CallKind classifies a call by finbot's prompts, from its first message: "plan" (the planner
// and its repair), "answer" (the answer over facts), "docs" (the answer over document
// passages), "other" (anything else: small talk, query expansion, the clarifying question…).
func CallKind(r *Request) string {
	first := r.First()
	switch {
	case strings.Contains(first, "Ты — планировщик"):
		return "plan"
	case strings.Contains(first, "\nФакты:\n"):
		return "answer"
	case strings.Contains(first, "Источник [1]"):
		return "docs"
	}
	return "other"
}

// NewLLM starts a stand-in; Close stops it.
func NewLLM(opts LLMOptions) *LLM {
	if opts.Classify == nil {
		opts.Classify = CallKind
	}
	if opts.Chunks <= 0 {
		opts.Chunks = 3
	}
	l := &LLM{opts: opts, calls: map[string]int{}}
	l.Server = newServer(l, opts.InProcess)
	return l
}

// NewTestLLM is NewLLM for a test: the stand-in stops when the test ends.
func NewTestLLM(t testing.TB, opts LLMOptions) *LLM {
	l := NewLLM(opts)
	t.Cleanup(l.Close)
	return l
}

// SetReplies replaces the script of kind. The calls of kind counted so far stay counted: the
// next call gets the last of replies unless more calls are to come than were made.
func (l *LLM) SetReplies(kind string, replies ...Reply) {
	l.mu.Lock()
	defer l.mu.Unlock()
	script := maps.Clone(l.opts.Script)
	if script == nil {
		script = map[string][]Reply{}
	}
	script[kind] = replies
	l.opts.Script = script
}

// Count is how many calls of kind the stand-in got.
func (l *LLM) Count(kind string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.calls[kind]
}

// Counts is the calls so far by kind.
func (l *LLM) Counts() map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.calls)
}

// Requests returns every request so far, in order.
func (l *LLM) Requests() []Request { return cloneLocked(&l.mu, &l.requests) }

// Prompt is the last message of the i-th call of kind (from the end if i < 0); "" if there is
// no such call.
func (l *LLM) Prompt(kind string, i int) string {
	var of []Request
	for _, r := range l.Requests() {
		if r.Kind == kind {
			of = append(of, r)
		}
	}
	if i < 0 {
		i += len(of)
	}
	if i < 0 || i >= len(of) {
		return ""
	}
	return of[i].Last()
}

// Streamed reports whether any request asked for a stream.
func (l *LLM) Streamed() bool {
	return slices.ContainsFunc(l.Requests(), func(r Request) bool { return r.Stream })
}

// Spent is the time the stand-in spent answering, waits included: benchmarks subtract it to
// measure the client's own time.
func (l *LLM) Spent() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.spent
}

// ResetSpent sets Spent back to zero.
func (l *LLM) ResetSpent() {
	l.mu.Lock()
	l.spent = 0
	l.mu.Unlock()
}

func (l *LLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() {
		l.mu.Lock()
		l.spent += time.Since(start)
		l.mu.Unlock()
	}()
	if strings.HasSuffix(r.URL.Path, "/audio/transcriptions") {
		l.transcribe(w, r, start)
		return
	}
	if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, http.StatusNotFound, "Not Found")
		return
	}
	if l.opts.Key != "" && r.Header.Get("Authorization") != "Bearer "+l.opts.Key {
		writeError(w, http.StatusUnauthorized, "No auth credentials found")
		return
	}
	req, err := readRequest(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	req.Arrived = start
	req.Kind = l.opts.Classify(req)
	rep := l.reply(req)
	if d := l.opts.Latency + rep.Delay; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	l.write(w, r, req, rep)
}

// reply records the call and picks its reply.
func (l *LLM) reply(req *Request) Reply {
	l.mu.Lock()
	n := l.calls[req.Kind]
	l.calls[req.Kind]++
	if !l.opts.Unrecorded {
		l.requests = append(l.requests, *req)
	}
	script := l.opts.Script[req.Kind]
	l.mu.Unlock()
	switch {
	case len(script) > 0:
		return script[min(n, len(script)-1)]
	case l.opts.Respond != nil:
		return l.opts.Respond(req)
	}
	return Reply{Content: "Готов помочь."}
}

func readRequest(r *http.Request) (*Request, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, err
	}
	var in struct {
		Model          string        `json:"model"`
		Messages       []ChatMessage `json:"messages"`
		Stream         bool          `json:"stream"`
		ResponseFormat *struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		return nil, err
	}
	if len(in.Messages) == 0 {
		return nil, errNoMessages
	}
	req := &Request{Model: in.Model, Messages: in.Messages, Stream: in.Stream, Body: body, Header: r.Header.Clone()}
	if in.ResponseFormat != nil {
		req.ResponseFormat = in.ResponseFormat.Type
	}
	return req, nil
}

type requestError string

func (e requestError) Error() string { return string(e) }

const errNoMessages = requestError("messages: at least one message is required")
