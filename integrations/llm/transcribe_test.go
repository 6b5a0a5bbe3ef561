package llm

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"
)

// speechStandIn serves OpenAI's POST /v1/audio/transcriptions with a recorded body and checks
// the multipart request the way the service reads it: the audio in the file part under a name
// whose extension tells the format, with its Content-Type, and the fields model, language and
// response_format.
func speechStandIn(t *testing.T, status int, fixture string, calls *atomic.Int32) *httptest.Server {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.Method != http.MethodPost || r.URL.Path != "/v1/audio/transcriptions" {
			t.Errorf("request %s %s, want POST /v1/audio/transcriptions", r.Method, r.URL.Path)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer sk-speech-key" {
			t.Errorf("Authorization = %q", got)
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			t.Errorf("not a multipart form: %v", err) // the handler's goroutine: no Fatal
			return
		}
		for field, want := range map[string]string{"model": "whisper-1", "language": "ru", "response_format": "json"} {
			if got := r.FormValue(field); got != want {
				t.Errorf("field %s = %q, want %q", field, got, want)
			}
		}
		f, fh, err := r.FormFile("file")
		if err != nil {
			t.Errorf("no file part: %v", err)
			return
		}
		audio, _ := io.ReadAll(f)
		if fh.Filename != "voice.ogg" || fh.Header.Get("Content-Type") != "audio/ogg" || string(audio) != "OggS…" {
			t.Errorf("file part %q (%s), %q", fh.Filename, fh.Header.Get("Content-Type"), audio)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newTranscriber(url string) *Transcriber {
	return NewTranscriber(Options{BaseURL: url + "/v1", APIKey: "sk-speech-key", Model: "whisper-1", Timeout: 2 * time.Second,
		BreakerTimeout: time.Hour}, "ru")
}

func TestTranscribe(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		want    string
		wantErr error
	}{
		{"ok, trimmed", 200, "transcription_ok.json", "Кто нам должен на 31 марта?", nil},
		{"no speech", 200, "transcription_empty.json", "", nil},
		{"a file the service cannot read", 400, "transcription_bad_file.json", "", ErrUnavailable},
		{"wrong key", 401, "transcription_unauthorized.json", "", ErrUnavailable},
		{"rate limited", 429, "transcription_rate_limited.json", "", ErrRateLimited},
		{"server error", 500, "transcription_server_error.json", "", ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			tr := newTranscriber(speechStandIn(t, tt.status, tt.fixture, &calls).URL)
			got, err := tr.Transcribe(t.Context(), "voice.ogg", []byte("OggS…"))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("Transcribe() error = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("Transcribe() = %q, want %q", got, tt.want)
			}
			if calls.Load() != 1 {
				t.Errorf("upstream calls = %d, want 1", calls.Load())
			}
		})
	}
}

// Recordings the service cannot read are their senders' fault: however many there are, the
// breaker stays closed. Server errors open it after three; a wrong key at once.
func TestTranscriberBreaker(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		fixture string
		calls   int32 // of 5 attempts, how many reach the service
		state   string
	}{
		{"bad files", 400, "transcription_bad_file.json", 5, "closed"},
		{"server errors", 500, "transcription_server_error.json", 3, "open"},
		{"wrong key", 401, "transcription_unauthorized.json", 1, "open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			tr := newTranscriber(speechStandIn(t, tt.status, tt.fixture, &calls).URL)
			for range 5 {
				if _, err := tr.Transcribe(t.Context(), "voice.ogg", []byte("OggS…")); !errors.Is(err, ErrUnavailable) {
					t.Errorf("Transcribe() error = %v, want ErrUnavailable", err)
				}
			}
			if calls.Load() != tt.calls || tr.State() != tt.state {
				t.Errorf("upstream calls %d, breaker %s; want %d, %s", calls.Load(), tr.State(), tt.calls, tt.state)
			}
		})
	}
}

func TestAudioContentType(t *testing.T) {
	for name, want := range map[string]string{
		"voice.ogg": "audio/ogg", "audio.MP3": "audio/mpeg", "audio.m4a": "audio/mp4", "audio.wav": "audio/wav",
		"audio.webm": "audio/webm", "audio.flac": "audio/flac", "audio.amr": "application/octet-stream",
	} {
		if got := audioContentType(name); got != want {
			t.Errorf("audioContentType(%q) = %q, want %q", name, got, want)
		}
	}
}
