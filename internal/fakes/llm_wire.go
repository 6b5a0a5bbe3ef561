package fakes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// How the stand-in writes its replies: OpenRouter's chat.completion and chat.completion.chunk
// objects and its error envelope {"error":{"code","message","metadata"?}} (wire-formats.md §6).

func (l *LLM) write(w http.ResponseWriter, r *http.Request, req *Request, rep Reply) {
	w.Header().Set("Content-Type", "application/json")
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	switch {
	case rep.Raw != "":
		io.WriteString(w, rep.Raw)
	case rep.Status != 0:
		msg := rep.Message
		if msg == "" {
			msg = "Provider returned error"
		}
		writeError(w, rep.Status, msg)
	case rep.ErrorIn200 != 0 && req.Stream:
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, ": OPENROUTER PROCESSING\n\n")
		event(w, map[string]any{"id": "gen-1", "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": req.Model,
			"error":   upstreamError(rep.ErrorIn200),
			"choices": []map[string]any{{"index": 0, "delta": map[string]any{"content": ""}, "finish_reason": "error"}}})
	case rep.ErrorIn200 != 0:
		writeJSON(w, map[string]any{"error": upstreamError(rep.ErrorIn200)})
	case req.Stream:
		l.stream(w, r, req, rep)
	default:
		prompt, completion := l.usage(req, rep.Content)
		body := marshal(map[string]any{"id": "gen-1", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []map[string]any{{"index": 0, "message": map[string]any{"role": "assistant", "content": rep.Content}, "finish_reason": "stop"}},
			"usage":   usage(prompt, completion)})
		if rep.Cut {
			body = body[:len(body)/2] // the connection closes in the middle
		}
		w.Write(body)
	}
}

// stream writes server-sent events as OpenRouter streams them: a keep-alive comment, the
// content in chunks, a chunk with finish_reason and usage, then [DONE].
func (l *LLM) stream(w http.ResponseWriter, r *http.Request, req *Request, rep Reply) {
	w.Header().Set("Content-Type", "text/event-stream")
	io.WriteString(w, ": OPENROUTER PROCESSING\n\n")
	n := rep.Chunks
	if n <= 0 {
		n = l.opts.Chunks
	}
	runes := []rune(rep.Content)
	for i := range n {
		part := string(runes[i*len(runes)/n : (i+1)*len(runes)/n])
		event(w, chunk(req, map[string]any{"content": part}, nil))
		if rep.Cut {
			return // the connection closes mid-stream
		}
		if i < n-1 && l.opts.ChunkGap > 0 {
			t := time.NewTimer(l.opts.ChunkGap)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
	}
	prompt, completion := l.usage(req, rep.Content)
	last := chunk(req, map[string]any{}, "stop")
	last["usage"] = usage(prompt, completion)
	event(w, last)
	io.WriteString(w, "data: [DONE]\n\n")
	flush(w)
}

func chunk(req *Request, delta map[string]any, finish any) map[string]any {
	return map[string]any{"id": "gen-1", "object": "chat.completion.chunk", "created": time.Now().Unix(), "model": req.Model,
		"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}}
}

func (l *LLM) usage(req *Request, content string) (prompt, completion int) {
	if l.opts.Usage == nil {
		return 100, 20
	}
	return l.opts.Usage(req, content)
}

func usage(prompt, completion int) map[string]int {
	return map[string]int{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}
}

func upstreamError(code int) map[string]any {
	return map[string]any{"code": code, "message": "Upstream error from provider", "metadata": map[string]any{"provider_name": "X"}}
}

// writeError answers with status and OpenRouter's error object.
func writeError(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	writeJSON(w, map[string]any{"error": map[string]any{"code": status, "message": message}})
}

func writeJSON(w io.Writer, v any) { w.Write(marshal(v)) }

// event writes one server-sent event and flushes it.
func event(w io.Writer, v any) {
	fmt.Fprintf(w, "data: %s\n\n", marshal(v))
	flush(w)
}

func flush(w io.Writer) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// marshal encodes v as JSON, leaving <, > and & as they are.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // maps of plain values: cannot fail
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
