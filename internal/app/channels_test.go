package app

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
	"github.com/finbot/finbot/internal/testredis"
)

// Two 1C bases on one stand-in proxy: «north» is the demo company, «south» the same books
// under another organization's name, so that an answer shows which base gave it.
func twoBases(t *testing.T) (*onectest.Server, string) {
	t.Helper()
	north, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	for i := range l.Organizations {
		l.Organizations[i].Name = strings.Replace(l.Organizations[i].Name, "Северный ветер", "Южный порт", 1)
	}
	south := onec.NewDemo(l)
	return onectest.NewServer(t, north, onectest.WithChannel("north"), onectest.WithBase("south", south)), north.MainOrganization()
}

// channelsApp is finbot serving the two bases: users 1, 2 and 3 and chats -100 and -200 pass the
// ledger lists; user 1 may use both bases, user 2 only south, user 4 north but is not in the
// lists; group -100 uses south, group -200 no base. A fake Bot API answers getMe.
func channelsApp(t *testing.T, srv *onectest.Server, org, redisURL, prefix string) *App {
	t.Helper()
	tg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true,"result":{"id":123,"is_bot":true,"first_name":"finbot","username":"finbot_bases_bot"}}`))
	}))
	t.Cleanup(tg.Close)
	cfg := loadConfig(t, map[string]string{"TELEGRAM_TOKEN": "123:bases", "TELEGRAM_API_URL": tg.URL, "METRICS_ADDR": "",
		"REDIS_URL": redisURL, "REDIS_PREFIX": prefix, "ONEC_URL": srv.URL,
		"LEDGER_ALLOWED_USER_IDS": "1,2,3", "LEDGER_ALLOWED_CHAT_IDS": "-100,-200",
		"ONEC_CHANNELS": fmt.Sprintf("north|ООО Северный ветер — бухгалтерия|users=1,4|org=%s;\n"+
			"south|ООО Южный порт — бухгалтерия|users=1,2|chats=-100|org=%s", org, org)})
	a, err := New(t.Context(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	return a
}

// answered is the answer of one message, with which base gave it ("north", "south", or ""
// when no query reached 1C).
func answered(t *testing.T, a *App, srv *onectest.Server, req api.Request) (api.Answer, string) {
	t.Helper()
	n, s := len(srv.QueriesOn("north")), len(srv.QueriesOn("south"))
	ans, err := a.Agent.Answer(t.Context(), req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	var base string
	if len(srv.QueriesOn("north")) > n {
		base = "north"
	}
	if len(srv.QueriesOn("south")) > s {
		if base != "" {
			t.Fatalf("%+v: both bases were asked", req)
		}
		base = "south"
	}
	return ans, base
}

const debtsQuestion = "кто нам должен на 31.03.2026"

func ask(userID, chatID int64, text string) api.Request {
	return api.Request{UserID: userID, ChatID: chatID, Group: chatID < 0, Text: text}
}

func press(userID, chatID int64, data string) api.Request {
	return api.Request{UserID: userID, ChatID: chatID, Group: chatID < 0, Command: ledger.BaseCommand, Text: data}
}

// TestChannelsPerUser: every 1C question goes to the base chosen for its asker and says which
// base answered; /base lists only the asker's bases, the choice is kept in Redis and outlives
// the agent; a forged press naming another base chooses nothing; a group uses the chat's
// mapping; the ledger lists stay the first gate.
func TestChannelsPerUser(t *testing.T) {
	rdb := testredis.Client(t)
	prefix := testredis.Prefix(t, rdb)
	srv, org := twoBases(t)
	a := channelsApp(t, srv, org, testredis.URL(), prefix)

	// Before any choice: the first base open to the asker, named under the answer.
	ans, base := answered(t, a, srv, ask(1, 1, debtsQuestion))
	northAnswer := ans
	if base != "north" || !strings.Contains(ans.Text, "Северный ветер") || !hasSource(ans, "ООО Северный ветер — бухгалтерия") {
		t.Fatalf("user 1 before choosing: base %q\n%s\n%+v", base, ans.Text, ans.Sources)
	}
	ans, base = answered(t, a, srv, ask(2, 2, debtsQuestion))
	if base != "south" || !strings.Contains(ans.Text, "Южный порт") || !hasSource(ans, "ООО Южный порт — бухгалтерия") {
		t.Fatalf("user 2: base %q\n%s\n%+v", base, ans.Text, ans.Sources)
	}

	// /base: user 1's two bases as buttons, the current one marked.
	ans, _ = answered(t, a, srv, press(1, 1, ""))
	if got := buttonData(ans); !slices.Equal(got, []string{"base:north", "base:south"}) || !strings.HasPrefix(ans.Buttons[0].Text, "✓") {
		t.Fatalf("/base of user 1: %q %+v", ans.Text, ans.Buttons)
	}
	if ans, _ = answered(t, a, srv, press(1, 1, "base:south")); !strings.Contains(ans.Text, "Готово") {
		t.Fatalf("choosing south: %q", ans.Text)
	}
	if _, base = answered(t, a, srv, ask(1, 1, debtsQuestion)); base != "south" {
		t.Fatalf("after choosing south, base %q answered", base)
	}
	// A drilldown under north's answer, pressed now, runs on north — the base of its answer,
	// which the two bases' shared references would not tell — and says so.
	var drill string
	for _, d := range buttonData(northAnswer) {
		if strings.HasPrefix(d, "b:") {
			drill = d
			break
		}
	}
	if drill == "" {
		t.Fatalf("no drilldown under north's answer: %+v", northAnswer.Buttons)
	}
	drillReq := api.Request{UserID: 1, ChatID: 1, Command: "drill", Text: drill}
	if ans, base = answered(t, a, srv, drillReq); base != "north" || !hasSource(ans, "ООО Северный ветер — бухгалтерия") {
		t.Fatalf("north's drilldown after choosing south: base %q\n%s\n%+v", base, ans.Text, ans.Sources)
	}
	// User 2, to whom north is not open, is told the button is stale; nothing runs.
	if ans, base = answered(t, a, srv, api.Request{UserID: 2, ChatID: 2, Command: "drill", Text: drill}); base != "" || strings.Contains(ans.Text, "₽") {
		t.Fatalf("user 2 pressing north's drilldown: base %q\n%s", base, ans.Text)
	}

	// A new agent over the same Redis (a restart, another replica) keeps the choice.
	b := channelsApp(t, srv, org, testredis.URL(), prefix)
	if _, base = answered(t, b, srv, ask(1, 1, debtsQuestion)); base != "south" {
		t.Fatalf("after a restart, base %q answered", base)
	}
	if keys, err := rdb.Keys(t.Context(), prefix+"*base:chat:1:user:1").Result(); err != nil || len(keys) != 1 {
		t.Errorf("the choice in Redis: %v, %v", keys, err)
	}

	// A forged press naming a base that is not the user's chooses nothing.
	ans, base = answered(t, b, srv, press(2, 2, "base:north"))
	if base != "" || strings.Contains(ans.Text, "Готово") || slices.Contains(buttonData(ans), "base:north") {
		t.Fatalf("forged press: base %q, %q %+v", base, ans.Text, ans.Buttons)
	}
	if _, base = answered(t, b, srv, ask(2, 2, debtsQuestion)); base != "south" {
		t.Fatalf("after a forged press, base %q answered user 2", base)
	}
	if ans, _ = answered(t, b, srv, api.Request{UserID: 2, ChatID: 2, Command: ledger.BaseCommand, Text: "north"}); strings.Contains(ans.Text, "Готово") {
		t.Fatalf("«/base north» by user 2: %q", ans.Text)
	}

	// A group uses the chat's mapping: user 1 sees only south there, and cannot pick north.
	ans, base = answered(t, b, srv, ask(1, -100, debtsQuestion))
	if base != "south" {
		t.Fatalf("group -100: base %q\n%s", base, ans.Text)
	}
	if ans, _ = answered(t, b, srv, press(1, -100, "")); len(ans.Buttons) != 0 || !strings.Contains(ans.Text, "одна база") {
		t.Fatalf("/base in group -100: %q %+v", ans.Text, ans.Buttons)
	}
	if ans, _ = answered(t, b, srv, press(1, -100, "base:north")); strings.Contains(ans.Text, "Готово") {
		t.Fatalf("picking north in group -100: %q", ans.Text)
	}
	if _, base = answered(t, b, srv, ask(3, -100, debtsQuestion)); base != "south" {
		t.Fatalf("user 3 in group -100: base %q", base)
	}

	// Refused before 1C: a user the lists let through but no base is open to (3), a group with
	// no base (-200), a user a base maps but the lists keep out (4).
	for _, req := range []api.Request{ask(3, 3, debtsQuestion), ask(1, -200, debtsQuestion), ask(4, 4, debtsQuestion),
		press(3, 3, "base:north"), press(4, 4, "base:north")} {
		ans, base := answered(t, b, srv, req)
		if base != "" || strings.Contains(ans.Text, "₽") || strings.Contains(ans.Text, "Готово") {
			t.Errorf("%+v: base %q answered\n%s", req, base, ans.Text)
		}
	}
	for _, line := range b.Status(t.Context()) {
		if strings.Contains(line, "1С") && !strings.Contains(line, "канал") {
			t.Errorf("status line %q does not name the channel", line)
		}
	}
}

func hasSource(ans api.Answer, title string) bool {
	return slices.ContainsFunc(ans.Sources, func(s api.Source) bool { return strings.Contains(s.Title, title) })
}

func buttonData(ans api.Answer) []string {
	var out []string
	for _, b := range ans.Buttons {
		out = append(out, b.Data)
	}
	return out
}
