package config

import (
	"fmt"
	"strings"
	"testing"
)

// channelsEnv is a real-1C configuration with the ledger gate open to users 1, 2 and chat -100.
func channelsEnv(extra map[string]string) map[string]string {
	m := map[string]string{"ONEC_URL": "http://1c:6003", "LEDGER_ALLOWED_USER_IDS": "1,2", "LEDGER_ALLOWED_CHAT_IDS": "-100"}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

func TestOneCChannels(t *testing.T) {
	c, err := Load(env(channelsEnv(map[string]string{
		"ONEC_CHANNELS": "north | ООО Северный ветер — бухгалтерия | users=1, 2 | chats=-100 | org=7701234567;\n" +
			"south|ООО Южный порт|users=2|restricted\nshared|Общая база|all",
		"ONEC_TOKEN":          "common-token",
		"ONEC_CHANNEL_TOKENS": "south=south-secret",
		"ONEC_ORGANIZATION":   "7700000000",
	})))
	if err != nil {
		t.Fatal(err)
	}
	got := c.OneCBases()
	if len(got) != 3 {
		t.Fatalf("bases = %+v", got)
	}
	n, s, sh := got[0], got[1], got[2]
	if n.ID != "north" || n.Title != "ООО Северный ветер — бухгалтерия" || fmt.Sprint(n.Users) != "[1 2]" || fmt.Sprint(n.Chats) != "[-100]" ||
		n.Organization != "7701234567" || n.Restricted || n.All || n.Token.Reveal() != "common-token" {
		t.Errorf("north = %+v", n)
	}
	if s.ID != "south" || !s.Restricted || s.Token.Reveal() != "south-secret" || s.Organization != "7700000000" || fmt.Sprint(s.Users) != "[2]" {
		t.Errorf("south = %+v", s)
	}
	if sh.ID != "shared" || !sh.All || len(sh.Users) != 0 {
		t.Errorf("shared = %+v", sh)
	}
	if secrets := strings.Join(c.Secrets(), " "); !strings.Contains(secrets, "south-secret") || !strings.Contains(secrets, "common-token") {
		t.Errorf("Secrets() = %q: the channel tokens are not redacted", secrets)
	}
	if out := fmt.Sprintf("%v %+v", c, c); strings.Contains(out, "south-secret") {
		t.Error("a channel token printed")
	}
}

// TestOneCChannelsBackCompatible: without ONEC_CHANNELS there is one base, on ONEC_CHANNEL, with
// the single-channel settings, open to everyone the ledger lists let through.
func TestOneCChannelsBackCompatible(t *testing.T) {
	c, err := Load(env(map[string]string{"ONEC_URL": "http://1c:6003", "ONEC_CHANNEL": "buh", "ONEC_TOKEN": "tok1",
		"ONEC_RESTRICTED_USER": "true", "ONEC_ORGANIZATION": "7701234567"}))
	if err != nil {
		t.Fatal(err)
	}
	got := c.OneCBases()
	if len(c.OneCChannels) != 0 || len(got) != 1 {
		t.Fatalf("bases = %+v", got)
	}
	if b := got[0]; b.ID != "buh" || b.Title != "" || !b.All || !b.Restricted || b.Token.Reveal() != "tok1" || b.Organization != "7701234567" {
		t.Errorf("base = %+v", b)
	}
	if c, _ := Load(env(nil)); c.OneCBases()[0].ID != "default" {
		t.Errorf("default base = %+v", c.OneCBases())
	}
}

func TestOneCChannelsInvalid(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want string
	}{
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north"}), "entry 1: must be channel|title"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|users=1;north|Ещё|users=2"}), `names channel "north" twice`},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "no th|Север|users=1"}), `channel "no th" must be 1–59 characters`},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": strings.Repeat("x", 60) + "|Север|users=1"}), "must be 1–59 characters"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north| |users=1"}), `channel "north" needs a title`},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север"}), "names no users=, chats= or all"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|users=-100"}), "users= must list numeric Telegram user IDs"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|chats=abc"}), "chats= must list numeric"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|admins=1"}), `unknown field "admins=1"`},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|all", "ONEC_CHANNEL": "buh"}), "ONEC_CHANNEL is not used with ONEC_CHANNELS"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|all", "ONEC_URL": ""}), "ONEC_CHANNELS needs ONEC_URL"},
		{map[string]string{"ONEC_URL": "http://1c:6003", "ONEC_CHANNELS": "north|Север|all"}, "LEDGER_ALLOWED_CHAT_IDS are both empty"},
		{channelsEnv(map[string]string{"ONEC_CHANNEL_TOKENS": "north=s3cr3t-token"}), "ONEC_CHANNEL_TOKENS is set without ONEC_CHANNELS"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|all", "ONEC_CHANNEL_TOKENS": "south=s3cr3t-token"}), `names channel "south", which ONEC_CHANNELS does not list`},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|all", "ONEC_CHANNEL_TOKENS": "s3cr3t-token"}), "entry 1 must be channel=token"},
		{channelsEnv(map[string]string{"ONEC_CHANNELS": "north|Север|all", "ONEC_CHANNEL_TOKENS": "s3cr3t token=x"}), "entry 1 names no channel"},
	} {
		_, err := Load(env(tt.env))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v; want %q", tt.env, err, tt.want)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%v: the error quotes a token: %v", tt.env, err)
		}
	}
}
