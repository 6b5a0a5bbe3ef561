package fakes

import (
	"io"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"
)

// The stand-in's speech-to-text: POST …/audio/transcriptions as OpenAI documents it (the API
// reference's "Create transcription", which go-openai's AudioRequest writes): a multipart/form-
// data body with the audio in the file part, whose file name's extension tells the format, and
// the fields model (required), language (ISO-639-1), prompt and response_format (json by
// default; text; verbose_json). A json answer is {"text":"…"}, a text one the bare text. Errors
// are OpenAI's envelope {"error":{"message","type","param","code"}} with the HTTP status.

// Transcription is one /audio/transcriptions call as the stand-in read it.
type Transcription struct {
	Model, Language, Prompt, ResponseFormat string
	// FileName and ContentType are the file part's, as sent.
	FileName, ContentType string
	Audio                 []byte
	Header                http.Header
	Arrived               time.Time
}

// TranscriptionFormats are the file extensions OpenAI's transcription endpoint accepts, as its
// 400 lists them.
var TranscriptionFormats = []string{"flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"}

// Transcriptions returns every transcription request so far, in order.
func (l *LLM) Transcriptions() []Transcription { return cloneLocked(&l.mu, &l.transcriptions) }

// transcribe answers POST …/audio/transcriptions.
func (l *LLM) transcribe(w http.ResponseWriter, r *http.Request, start time.Time) {
	if r.Method != http.MethodPost {
		writeOpenAIError(w, http.StatusMethodNotAllowed, "Method not allowed", "")
		return
	}
	if l.opts.Key != "" && r.Header.Get("Authorization") != "Bearer "+l.opts.Key {
		writeOpenAIError(w, http.StatusUnauthorized, "Incorrect API key provided.", "")
		return
	}
	req, msg, param := readTranscription(r)
	if msg != "" {
		writeOpenAIError(w, http.StatusBadRequest, msg, param)
		return
	}
	req.Arrived = start
	l.mu.Lock()
	l.calls["transcription"]++
	if !l.opts.Unrecorded {
		l.transcriptions = append(l.transcriptions, *req)
	}
	respond := l.opts.Transcribe
	l.mu.Unlock()
	rep := Reply{Content: string(req.Audio)}
	if respond != nil {
		rep = respond(req)
	}
	if d := l.opts.Latency + rep.Delay; d > 0 {
		t := time.NewTimer(d)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	switch {
	case rep.Raw != "":
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		io.WriteString(w, rep.Raw)
	case rep.Status != 0:
		msg := rep.Message
		if msg == "" {
			msg = "The server had an error while processing your request. Sorry about that!"
		}
		writeOpenAIError(w, rep.Status, msg, "")
	case req.ResponseFormat == "text":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, rep.Content+"\n")
	case req.ResponseFormat == "verbose_json":
		w.Header().Set("Content-Type", "application/json")
		writeJSON(w, map[string]any{"task": "transcribe", "language": req.Language, "duration": 0, "text": rep.Content, "segments": []any{}})
	default:
		w.Header().Set("Content-Type", "application/json")
		writeJSON(w, map[string]any{"text": rep.Content})
	}
}

// readTranscription reads the multipart form; msg (and the param it names) say why OpenAI
// would refuse it with a 400.
func readTranscription(r *http.Request) (req *Transcription, msg, param string) {
	ct := r.Header.Get("Content-Type")
	if !strings.HasPrefix(ct, "multipart/form-data") {
		return nil, "Invalid Content-Type header (" + ct + "), expected multipart/form-data.", ""
	}
	if err := r.ParseMultipartForm(32 << 20); err != nil {
		return nil, "Could not parse multipart form", ""
	}
	defer r.MultipartForm.RemoveAll()
	value := func(k string) string {
		if v := r.MultipartForm.Value[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	req = &Transcription{Model: value("model"), Language: value("language"), Prompt: value("prompt"),
		ResponseFormat: value("response_format"), Header: r.Header.Clone()}
	files := r.MultipartForm.File["file"]
	if len(files) == 0 {
		return nil, "Missing required parameter: 'file'.", "file"
	}
	audio, err := readPart(files[0])
	if err != nil {
		return nil, "Could not parse multipart form", "file"
	}
	req.FileName, req.ContentType, req.Audio = files[0].Filename, files[0].Header.Get("Content-Type"), audio
	switch {
	case req.Model == "":
		return nil, "Missing required parameter: 'model'.", "model"
	case !slices.Contains(TranscriptionFormats, strings.TrimPrefix(strings.ToLower(path.Ext(req.FileName)), ".")):
		return nil, "Invalid file format. Supported formats: ['" + strings.Join(TranscriptionFormats, "', '") + "']", "file"
	case !slices.Contains([]string{"", "json", "text", "verbose_json"}, req.ResponseFormat):
		return nil, "response_format '" + req.ResponseFormat + "' is not supported by the stand-in", "response_format"
	}
	return req, "", ""
}

func readPart(fh *multipart.FileHeader) ([]byte, error) {
	f, err := fh.Open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// writeOpenAIError answers with status and OpenAI's error envelope.
func writeOpenAIError(w http.ResponseWriter, status int, message, param string) {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusTooManyRequests:
		typ = "requests"
	case status >= 500:
		typ = "server_error"
	}
	var p any
	if param != "" {
		p = param
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	writeJSON(w, map[string]any{"error": map[string]any{"message": message, "type": typ, "param": p, "code": nil}})
}
