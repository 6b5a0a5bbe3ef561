package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil))
	if err != nil {
		t.Fatalf("Load with no configuration: %v", err)
	}
	if c.HasLLM() || c.RedisURL != "" || c.LLMBaseURL != DefaultLLMBaseURL || c.HistoryMaxTurns != 20 ||
		c.HistoryTTL != 168*time.Hour || c.PollTimeout != 30*time.Second || c.MetricsAddr != "127.0.0.1:9090" || c.StreamMode != "auto" {
		t.Errorf("defaults = %+v", c)
	}
}

// TestMetricsAddrEmptyDisables: METRICS_ADDR set empty switches the ops server off, as
// documented; unset, it is the loopback default.
func TestMetricsAddrEmptyDisables(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{nil, "127.0.0.1:9090"},
		{map[string]string{"METRICS_ADDR": ""}, ""},
		{map[string]string{"METRICS_ADDR": "  "}, ""},
		{map[string]string{"METRICS_ADDR": ":9191"}, ":9191"},
	} {
		c, err := LoadLookup(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
		if err != nil || c.MetricsAddr != tt.want {
			t.Errorf("env %v: MetricsAddr %q, %v; want %q", tt.env, c.MetricsAddr, err, tt.want)
		}
	}
}

func TestEveryVarHasADefaultThatLoads(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range Vars() {
		if seen[v.Name] {
			t.Errorf("%s listed twice", v.Name)
		}
		seen[v.Name] = true
		if v.Description == "" {
			t.Errorf("%s has no description", v.Name)
		}
	}
}

func TestErrorsAreAllReported(t *testing.T) {
	_, err := Load(env(map[string]string{
		"HISTORY_MAX_TURNS": "много",
		"LLM_TIMEOUT":       "10",
		"ALLOWED_USER_IDS":  "12, abc",
		"REDIS_URL":         "localhost:6379",
		"WEBHOOK_URL":       "http://example.com/hook",
		"LOG_LEVEL":         "loud",
		"TELEGRAM_API_URL":  "ftp://x",
		"STREAM_MODE":       "typewriter",
	}))
	if err == nil {
		t.Fatal("Load accepted invalid values")
	}
	for _, key := range []string{"HISTORY_MAX_TURNS", "LLM_TIMEOUT", "ALLOWED_USER_IDS", "REDIS_URL", "WEBHOOK_URL", "WEBHOOK_SECRET", "LOG_LEVEL", "TELEGRAM_API_URL", "STREAM_MODE"} {
		if !strings.Contains(err.Error(), key) {
			t.Errorf("error does not mention %s:\n%v", key, err)
		}
	}
}

func TestStreamMode(t *testing.T) {
	for _, m := range []string{"auto", "draft", "edit", "off"} {
		c, err := Load(env(map[string]string{"STREAM_MODE": " " + strings.ToUpper(m) + " "}))
		if err != nil || c.StreamMode != m {
			t.Errorf("STREAM_MODE=%s: %q, %v", m, c.StreamMode, err)
		}
	}
}

func TestIDs(t *testing.T) {
	c, err := Load(env(map[string]string{"ALLOWED_USER_IDS": "1, 2;3", "ALLOWED_CHAT_IDS": "-1001234567890"}))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(c.AllowedUserIDs) != "[1 2 3]" || fmt.Sprint(c.AllowedChatIDs) != "[-1001234567890]" {
		t.Errorf("ids = %v %v", c.AllowedUserIDs, c.AllowedChatIDs)
	}
}

// Secrets must not leak through fmt, slog (text and JSON, nested) or encoding/json.
func TestSecretsNeverPrint(t *testing.T) {
	c, err := Load(env(map[string]string{
		"TELEGRAM_TOKEN": "123456:AAH-super-secret", "LLM_API_KEY": "sk-or-v1-deadbeef",
		"WEBHOOK_URL": "https://bot.example.com/tg", "WEBHOOK_SECRET": "hook_secret_1",
		"REDIS_URL": "redis://user:redispass@localhost:6379/0",
	}))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "%v %+v %#v %s\n", c, c, c, c.TelegramToken)
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "cfg", c, "token", c.TelegramToken)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("config", "cfg", c, "key", c.LLMAPIKey)
	b, _ := json.Marshal(c)
	buf.Write(b)
	for _, s := range []string{"AAH-super-secret", "sk-or-v1-deadbeef", "hook_secret_1", "redispass"} {
		if strings.Contains(buf.String(), s) {
			t.Errorf("secret %q leaked:\n%s", s, buf.String())
		}
	}
	if got := c.Secrets(); len(got) != 4 {
		t.Errorf("Secrets() = %d values, want 4 (token, webhook secret, LLM key, Redis password)", len(got))
	}
	if c.TelegramToken.Reveal() != "123456:AAH-super-secret" {
		t.Error("Reveal lost the value")
	}
}

// Voice messages fall back to the LLM's service and key, but the LLM's key never goes to a
// service of TRANSCRIBE_URL's own; TRANSCRIBE_MODEL set empty turns them off.
func TestTranscription(t *testing.T) {
	const llmKey, ownKey = "sk-llm-key", "sk-speech-key"
	tests := []struct {
		name     string
		env      map[string]string
		on       bool
		url, key string
		model    string
	}{
		{"nothing set", nil, false, DefaultLLMBaseURL, "", "whisper-1"},
		{"the LLM's key alone: no service named", map[string]string{"LLM_API_KEY": llmKey}, false, DefaultLLMBaseURL, llmKey, "whisper-1"},
		{"a self-hosted server without a key", map[string]string{"LLM_API_KEY": llmKey, "TRANSCRIBE_URL": "http://whisper:8000/v1/"},
			true, "http://whisper:8000/v1", "", "whisper-1"},
		{"a service with its own key", map[string]string{"TRANSCRIBE_URL": "https://api.openai.com/v1", "TRANSCRIBE_API_KEY": ownKey},
			true, "https://api.openai.com/v1", ownKey, "whisper-1"},
		{"the LLM's URL named again", map[string]string{"LLM_API_KEY": llmKey, "TRANSCRIBE_URL": DefaultLLMBaseURL, "TRANSCRIBE_MODEL": "openai/whisper-1"},
			true, DefaultLLMBaseURL, llmKey, "openai/whisper-1"},
		{"turned off", map[string]string{"LLM_API_KEY": llmKey, "TRANSCRIBE_MODEL": ""}, false, DefaultLLMBaseURL, llmKey, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := LoadLookup(func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok })
			if err != nil {
				t.Fatal(err)
			}
			if c.HasTranscription() != tt.on || c.TranscribeBaseURL() != tt.url || c.TranscribeAPIKey.Reveal() != tt.key || c.TranscribeModel != tt.model {
				t.Errorf("on %v, url %q, key %q, model %q; want %v, %q, %q, %q", c.HasTranscription(), c.TranscribeBaseURL(),
					c.TranscribeAPIKey.Reveal(), c.TranscribeModel, tt.on, tt.url, tt.key, tt.model)
			}
			if c.TranscribeTimeout != time.Minute || c.VoiceMaxDuration != 5*time.Minute {
				t.Errorf("timeout %s, max duration %s; want 1m0s and 5m0s", c.TranscribeTimeout, c.VoiceMaxDuration)
			}
		})
	}
	c, err := Load(env(map[string]string{"TRANSCRIBE_API_KEY": ownKey, "LLM_API_KEY": llmKey}))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Secrets(); len(got) != 2 {
		t.Errorf("Secrets() = %d values, want 2 (the LLM key and the speech key)", len(got))
	}
}

// ONEC_DEMO names a demo base; a misspelt one is an error, not the default base in silence.
func TestOneCDemo(t *testing.T) {
	for _, tt := range []struct {
		value   string
		want    string
		wantErr bool
	}{
		{"", "default", false},
		{"default", "default", false},
		{"Realistic", "realistic", false},
		{"real", "", true},
	} {
		c, err := LoadLookup(func(k string) (string, bool) {
			if k == "ONEC_DEMO" && tt.value != "" {
				return tt.value, true
			}
			return "", false
		})
		if (err != nil) != tt.wantErr || (err == nil && c.OneCDemo != tt.want) {
			t.Errorf("ONEC_DEMO=%q: %q, %v; want %q (error %v)", tt.value, c.OneCDemo, err, tt.want, tt.wantErr)
		}
	}
}

// TestOneCAging: the aging's bounds of days overdue (ONEC_AGING_BUCKETS) and the default payment
// term (ONEC_DEFAULT_PAYMENT_DAYS), their defaults and every way they can be wrong.
func TestOneCAging(t *testing.T) {
	for _, tt := range []struct {
		buckets, days string
		want          string
		wantErr       string
	}{
		{"", "", "[30 60 90] 0", ""},
		{" 15, 45 ", "10", "[15 45] 10", ""},
		{"10,20,30,60,90,180", "365", "[10 20 30 60 90 180] 365", ""},
		{"10,20,30,60,90,180,365", "", "", "ONEC_AGING_BUCKETS must list at most 6 bounds, got 7"},
		{"60,30", "", "", "ONEC_AGING_BUCKETS must ascend, got 30 after 60"},
		{"30,30", "", "", "must ascend"},
		{"0,30", "", "", "ONEC_AGING_BUCKETS must list days between 1 and 3650, got 0"},
		{"30;60", "", "", `must list whole numbers of days separated by commas, such as 30,60,90, got "30;60"`},
		{"", "-1", "", "ONEC_DEFAULT_PAYMENT_DAYS must be between 0 and 3650, got -1"},
		{"", "тридцать", "", "ONEC_DEFAULT_PAYMENT_DAYS must be a whole number"},
	} {
		c, err := Load(env(map[string]string{"ONEC_AGING_BUCKETS": tt.buckets, "ONEC_DEFAULT_PAYMENT_DAYS": tt.days}))
		switch {
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%q, %q: error %v, want %q", tt.buckets, tt.days, err, tt.wantErr)
		case tt.wantErr == "" && err != nil:
			t.Errorf("%q, %q: %v", tt.buckets, tt.days, err)
		case tt.wantErr == "" && fmt.Sprint(c.OneCAgingBuckets, " ", c.OneCDefaultPaymentDays) != tt.want:
			t.Errorf("%q, %q: %v %d, want %s", tt.buckets, tt.days, c.OneCAgingBuckets, c.OneCDefaultPaymentDays, tt.want)
		}
	}
}
