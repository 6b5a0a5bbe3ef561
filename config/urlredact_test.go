package config

import (
	"strings"
	"testing"
)

func TestRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://api.example.com/v1", "https://api.example.com/v1"},
		{"https://user:pw@host:8443/x", "https://user:xxxxx@host:8443/x"},
		{"https://tok123@host/x", "https://xxxxx@host/x"},
		{"https://host/x?api_key=k1&v=2", "https://host/x?api_key=xxxxx&v=xxxxx"},
		{"https://host/x?k1secret", "https://host/x?xxxxx"},
		{"https://host/cb#access_token=t1&x=y", "https://host/cb#access_token=xxxxx&x=xxxxx"},
		// URLs net/url refuses: read by hand.
		{"redis://:p4ss@host:port/0", "redis://:xxxxx@host:port/0"},
		{"https://u:pa/ss@host:1/x?t=1", "https://u:xxxxx@host:1/x?t=xxxxx"},
		{"https://u:pa?ss#x@host", "https://u:xxxxx@host"},
		{"https://host/%zz?token=t1", "https://host/%zz?token=xxxxx"},
		{"http://tok%zz@host", "http://xxxxx@host"},
		// No "//": what stands before an '@' is still user info.
		{"user:pw@host:6379", "user:xxxxx@host:6379"},
		{"localhost:6379", "localhost:6379"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := redactURL(tt.in); got != tt.want {
			t.Errorf("redactURL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// An error about any URL setting names the setting and never quotes a password or token the
// URL carries, whether net/url parses it or not: Load's errors are printed before any
// redactor exists.
func TestURLErrorsHideSecrets(t *testing.T) {
	var keys []string
	for _, v := range Vars() {
		if strings.HasSuffix(v.Name, "_URL") {
			keys = append(keys, v.Name)
		}
	}
	if len(keys) < 8 {
		t.Fatalf("URL settings = %v, want every *_URL of Vars", keys)
	}
	// secrets are the parts of the values below that must never show.
	secrets := []string{"p4ssw0rd", "tok-s3cret", "fr4g-s3cret", "w0rd-s3cret"}
	values := []struct {
		name string
		raw  func(scheme string) string // scheme: the setting's own (https or redis)
	}{
		{"bad port", func(s string) string { return s + "://user:p4ssw0rd@host:bad/x?token=tok-s3cret" }},
		{"wrong scheme", func(string) string { return "ftp://user:p4ssw0rd@host/x?token=tok-s3cret#sig=fr4g-s3cret" }},
		{"bad escape", func(s string) string { return s + "://user:p4ssw0rd@host/%zz?api_key=tok-s3cret" }},
		{"slash in the password", func(s string) string { return s + "://user:p4ss/w0rd-s3cret@host/0" }},
		{"no scheme", func(string) string { return "user:p4ssw0rd@host:6379?token=tok-s3cret" }},
		{"space in the host", func(s string) string { return s + "://user:p4ssw0rd@ho st/?token=tok-s3cret" }},
	}
	for _, key := range keys {
		scheme := "https"
		if key == "REDIS_URL" {
			scheme = "redis"
		}
		for _, v := range values {
			t.Run(key+"/"+v.name, func(t *testing.T) {
				raw := v.raw(scheme)
				_, err := Load(env(map[string]string{key: raw}))
				if err == nil {
					t.Fatalf("Load accepted %s=%s", key, raw)
				}
				if !strings.Contains(err.Error(), key) {
					t.Errorf("error does not name %s: %v", key, err)
				}
				for _, s := range secrets {
					if strings.Contains(err.Error(), s) {
						t.Errorf("%s=%s: the error quotes %q: %v", key, raw, s, err)
					}
				}
			})
		}
	}
}
