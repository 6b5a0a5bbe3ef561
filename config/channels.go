package config

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// OneCChannel is one 1C base the bot asks: a channel of the MCP toolkit proxy at ONEC_URL, with
// its own infobase and its own 1C user (so 1C's own rights apply), and the Telegram users and
// chats that may ask it.
type OneCChannel struct {
	ID           string // the proxy's channel, [a-zA-Z0-9_-]{1,59}
	Title        string // what users see: «ООО Северный ветер — бухгалтерия»; empty for the single channel
	Token        Secret // Bearer token of this channel's 1C side (ONEC_CHANNEL_TOKENS, else ONEC_TOKEN)
	Restricted   bool   // the channel's 1C user has restricted rights (its «restricted», or ONEC_RESTRICTED_USER)
	Organization string // its «org=», else ONEC_ORGANIZATION
	Users        []int64
	Chats        []int64
	// All opens the channel to everyone the ledger access lists let through.
	All bool
}

// maxChannelID keeps «base:<id>», a button's callback data, within Telegram's 64 bytes.
const maxChannelID = 59

// maxChannelTitle keeps a title on one button.
const maxChannelTitle = 64

var channelIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,59}$`)

// OneCBases is the 1C bases of this installation: the ONEC_CHANNELS entries, else one base on
// ONEC_CHANNEL open to everyone the access lists let through (the configuration before
// channels, unchanged).
func (c Config) OneCBases() []OneCChannel {
	if len(c.OneCChannels) > 0 {
		return c.OneCChannels
	}
	return []OneCChannel{{ID: c.OneCChannel, Token: c.OneCToken, Restricted: c.OneCRestricted,
		Organization: c.OneCOrganization, All: true}}
}

// channels reads ONEC_CHANNELS and ONEC_CHANNEL_TOKENS into c.OneCChannels, reporting every
// problem. Entries are separated by «;» or new lines, an entry's fields by «|»:
//
//	id | title | users=1,2 | chats=-1001 | all | restricted | org=7701234567
//
// Errors quote what they can without a secret: ONEC_CHANNELS holds none, so its pieces are
// quoted; of ONEC_CHANNEL_TOKENS only the channel ids are.
func (c *Config) channels(r *reader) {
	const key = "ONEC_CHANNELS"
	raw := r.str(key)
	tokens := string(r.str("ONEC_CHANNEL_TOKENS"))
	if raw == "" {
		if tokens != "" {
			r.fail("ONEC_CHANNEL_TOKENS", "is set without ONEC_CHANNELS")
		}
		return
	}
	if c.OneCURL == "" {
		r.fail(key, "needs ONEC_URL: the channels are those of the 1C MCP toolkit proxy (the demo ledger is one base)")
	}
	if v, ok := r.lookup("ONEC_CHANNEL"); ok && strings.TrimSpace(v) != "" {
		r.fail("ONEC_CHANNEL", "is not used with ONEC_CHANNELS: name every channel there")
	}
	if len(c.LedgerAllowUsers) == 0 && len(c.LedgerAllowChats) == 0 {
		r.fail(key, "is set while LEDGER_ALLOWED_USER_IDS and LEDGER_ALLOWED_CHAT_IDS are both empty: they stay the first gate, so nobody could use a channel")
	}
	for i, entry := range splitEntries(raw) {
		ch, ok := parseChannel(r, i+1, entry)
		if !ok {
			continue
		}
		if slices.ContainsFunc(c.OneCChannels, func(o OneCChannel) bool { return o.ID == ch.ID }) {
			r.fail(key, fmt.Sprintf("names channel %q twice", ch.ID))
			continue
		}
		ch.Restricted = ch.Restricted || c.OneCRestricted
		if ch.Organization == "" {
			ch.Organization = c.OneCOrganization
		}
		ch.Token = c.OneCToken
		c.OneCChannels = append(c.OneCChannels, ch)
	}
	for i, entry := range splitEntries(tokens) {
		id, tok, ok := strings.Cut(entry, "=")
		id, tok = strings.TrimSpace(id), strings.TrimSpace(tok)
		if !ok || id == "" || tok == "" {
			r.fail("ONEC_CHANNEL_TOKENS", fmt.Sprintf("entry %d must be channel=token", i+1))
			continue
		}
		j := slices.IndexFunc(c.OneCChannels, func(o OneCChannel) bool { return o.ID == id })
		if j < 0 {
			if channelIDPattern.MatchString(id) {
				r.fail("ONEC_CHANNEL_TOKENS", fmt.Sprintf("entry %d names channel %q, which ONEC_CHANNELS does not list", i+1, id))
			} else {
				r.fail("ONEC_CHANNEL_TOKENS", fmt.Sprintf("entry %d names no channel of ONEC_CHANNELS", i+1))
			}
			continue
		}
		c.OneCChannels[j].Token = Secret(tok)
	}
}

// splitEntries splits a list on «;» and new lines, dropping empty entries.
func splitEntries(s string) []string {
	var out []string
	for _, e := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' || r == '\r' }) {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

// parseChannel reads entry n of ONEC_CHANNELS.
func parseChannel(r *reader, n int, entry string) (OneCChannel, bool) {
	const key = "ONEC_CHANNELS"
	bad := func(format string, a ...any) (OneCChannel, bool) {
		r.fail(key, fmt.Sprintf("entry %d: ", n)+fmt.Sprintf(format, a...))
		return OneCChannel{}, false
	}
	fields := strings.Split(entry, "|")
	for i := range fields {
		fields[i] = strings.TrimSpace(fields[i])
	}
	if len(fields) < 2 {
		return bad("must be channel|title|users=…|chats=…, got %q", entry)
	}
	ch := OneCChannel{ID: fields[0], Title: strings.Join(strings.Fields(fields[1]), " ")}
	if !channelIDPattern.MatchString(ch.ID) {
		return bad("channel %q must be 1–%d characters of a-z, A-Z, 0-9, _ and - (the proxy's channel; it rides in a button)", ch.ID, maxChannelID)
	}
	if ch.Title == "" || utf8.RuneCountInString(ch.Title) > maxChannelTitle {
		return bad("channel %q needs a title of 1–%d characters (users see it on a button and under answers)", ch.ID, maxChannelTitle)
	}
	for _, f := range fields[2:] {
		name, value, hasValue := strings.Cut(f, "=")
		name, value = strings.ToLower(strings.TrimSpace(name)), strings.TrimSpace(value)
		switch {
		case f == "":
		case name == "all" && !hasValue:
			ch.All = true
		case name == "restricted" && !hasValue:
			ch.Restricted = true
		case name == "org" && hasValue && value != "":
			ch.Organization = value
		case name == "users" && hasValue:
			ids, ok := channelIDs(value, true)
			if !ok {
				return bad("channel %q: users= must list numeric Telegram user IDs (positive; group chats go in chats=), got %q", ch.ID, value)
			}
			ch.Users = append(ch.Users, ids...)
		case name == "chats" && hasValue:
			ids, ok := channelIDs(value, false)
			if !ok {
				return bad("channel %q: chats= must list numeric Telegram chat IDs, got %q", ch.ID, value)
			}
			ch.Chats = append(ch.Chats, ids...)
		default:
			return bad("channel %q: unknown field %q (want users=…, chats=…, all, restricted or org=…)", ch.ID, f)
		}
	}
	if !ch.All && len(ch.Users) == 0 && len(ch.Chats) == 0 {
		return bad("channel %q names no users=, chats= or all: nobody could use it", ch.ID)
	}
	return ch, true
}

// channelIDs reads a comma- or space-separated list of Telegram IDs; users must be positive.
func channelIDs(s string, users bool) ([]int64, bool) {
	var out []int64
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		id, err := strconv.ParseInt(f, 10, 64)
		if err != nil || id == 0 || (users && id < 0) {
			return nil, false
		}
		out = append(out, id)
	}
	return out, len(out) > 0
}
