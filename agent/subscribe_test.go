package agent

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/cbr/cbrtest"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
)

// A subscription said in words goes the way of a question: understood as one by the parser,
// answered by the digest skill, kept in the store.
func TestSubscriptionPhrasedThroughTheAgent(t *testing.T) {
	bank := cbrtest.New(t)
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	store := history.NewMemorySubscriptions()
	a := New(Deps{History: history.NewMemory(100, history.Limits{MaxTurns: 20, MaxChars: 8000, TTL: time.Hour}),
		Rates: cbr.New(cbr.Options{BaseURL: bank.URL, HTTPClient: &http.Client{}}), Digests: store,
		Ledger: runner.NewLane(d, runner.Options{Organization: d.MainOrganization()})},
		Options{LedgerAccess: func(int64, int64) bool { return true }})
	ans, err := a.Answer(t.Context(), api.Request{ChatID: 3, UserID: 3, Text: "присылай курсы каждое утро в 9"})
	if err != nil {
		t.Fatal(err)
	}
	if ans.Kind != understand.KindSubscribe || ans.Debug.Route.Skill != "digest" || !strings.HasPrefix(ans.Text, "Готово: **утренняя сводка** — каждый день в 09:00") {
		t.Errorf("answer: %s/%s %q", ans.Kind, ans.Debug.Route.Skill, ans.Text)
	}
	if subs, _ := store.Chat(t.Context(), 3); len(subs) != 1 || subs[0].ID != "morning" {
		t.Errorf("stored: %v", subs)
	}
	ans, err = a.Answer(t.Context(), api.Request{ChatID: 3, UserID: 3, Text: "отпишись от утренней сводки"})
	if err != nil || !strings.HasPrefix(ans.Text, "Отменил: **Утренняя сводка**") {
		t.Errorf("unsubscribe: %q, %v", ans.Text, err)
	}
}
