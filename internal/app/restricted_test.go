package app

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/onectest"
	"github.com/finbot/finbot/internal/testredis"
)

// restrictedBase is the demo base on the toolkit's stand-in as a 1C user whom RLS confines to
// ООО «Северный ветер Трейд» sees it: the other organization hidden, a query without РАЗРЕШЕННЫЕ
// refused with 1C's «Нарушение прав доступа!».
func restrictedBase(t *testing.T) (*onectest.Restricted, onec.Organization) {
	t.Helper()
	l, err := onec.LoadDemo()
	if err != nil {
		t.Fatal(err)
	}
	trade := l.Organizations[1]
	if !strings.Contains(trade.Name, "Трейд") {
		t.Fatalf("organizations %+v: want the second to be ООО «Северный ветер Трейд»", l.Organizations)
	}
	return onectest.NewRestricted(l, trade.Ref), trade
}

// ONEC_RESTRICTED_USER through the whole app, over the stand-in of a restricted 1C user: the
// answer has the figures of the organization the user may see and says they cover only what
// this user may see; nothing was refused for want of РАЗРЕШЕННЫЕ.
func TestRestrictedUserThroughTheApp(t *testing.T) {
	rls, trade := restrictedBase(t)
	srv := onectest.NewServer(t, rls)
	a, err := New(t.Context(), loadConfig(t, map[string]string{"ONEC_URL": srv.URL, "ONEC_RESTRICTED_USER": "true"}), Options{Console: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var out bytes.Buffer
	ans, _ := a.Ask(t.Context(), &out, 1, 0, debtsQuestion)
	text := strings.ReplaceAll(out.String(), "\\", "")
	if ans == nil || ans.Scenario != "1c" || !strings.Contains(text, runner.RightsNote) || !strings.Contains(text, trade.Name) {
		t.Errorf("scenario %+v; want the debts of %s with the rights note:\n%s", ans, trade.Name, text)
	}
	if n := len(rls.Refused()); n != 0 || len(srv.Queries()) == 0 {
		t.Errorf("%d of %d queries refused for want of РАЗРЕШЕННЫЕ", n, len(srv.Queries()))
	}
}

// A channel marked «restricted» in ONEC_CHANNELS: its answers carry the rights note, another
// channel's (a user with full rights) do not.
func TestRestrictedChannel(t *testing.T) {
	rdb := testredis.Client(t)
	prefix := testredis.Prefix(t, rdb)
	rls, trade := restrictedBase(t)
	full, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	srv := onectest.NewServer(t, full, onectest.WithChannel("north"), onectest.WithBase("south", rls))
	tg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true,"result":{"id":123,"is_bot":true,"first_name":"finbot","username":"finbot_bases_bot"}}`))
	}))
	t.Cleanup(tg.Close)
	cfg := loadConfig(t, map[string]string{"TELEGRAM_TOKEN": "123:bases", "TELEGRAM_API_URL": tg.URL, "METRICS_ADDR": "",
		"REDIS_URL": testredis.URL(), "REDIS_PREFIX": prefix, "ONEC_URL": srv.URL, "LEDGER_ALLOWED_USER_IDS": "1,2",
		"ONEC_CHANNELS": fmt.Sprintf("north|Бухгалтерия|users=1|org=%s;\nsouth|Трейд, ограниченный пользователь|users=2|restricted",
			full.MainOrganization())})
	a, err := New(t.Context(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	for _, tt := range []struct {
		user int64
		base string
		note bool
		org  string
	}{
		{1, "north", false, "ООО «Северный ветер»"},
		{2, "south", true, trade.Name},
	} {
		ans, base := answered(t, a, srv, ask(tt.user, tt.user, debtsQuestion))
		text := strings.ReplaceAll(ans.Text, "\\", "")
		if base != tt.base || strings.Contains(text, runner.RightsNote) != tt.note || !strings.Contains(text, tt.org) {
			t.Errorf("user %d: base %q, rights note want %v, organization %s:\n%s", tt.user, base, tt.note, tt.org, text)
		}
	}
	if n := len(rls.Refused()); n != 0 {
		t.Errorf("%d queries refused for want of РАЗРЕШЕННЫЕ", n)
	}
}
