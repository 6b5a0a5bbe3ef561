package ledger

import (
	"context"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/ru"
)

// actRunner is a base whose catalogs hold ООО «Альфа» under its own ref and whose act says which
// base built it; asked records the act recipes run.
type actRunner struct {
	namedRunner
	asked *[]runner.Decomposition
}

func (r actRunner) Catalogs(context.Context) (recipe.Catalogs, error) {
	return recipe.Catalogs{
		Organizations:  []recipe.Entity{{Ref: string(r.namedRunner) + "-org", Name: "ООО «Северный ветер»", INN: "1031699119"}},
		Counterparties: []recipe.Entity{{Ref: string(r.namedRunner) + "-alfa", Name: "ООО «Альфа»", INN: "9366414049"}},
	}, nil
}

func (r actRunner) Run(_ context.Context, d runner.Decomposition) runner.Result {
	*r.asked = append(*r.asked, d)
	return runner.Result{ResultMode: "full", Act: &reconcile.Act{Source: "1С: " + string(r.namedRunner)}}
}

// TestActsOfTheAskersBase: with several 1C bases our act is built in the asker's — the first open
// to them, then the one they chose with /base —, with that base's references and their act's
// period; a user no base is open to is refused.
func TestActsOfTheAskersBase(t *testing.T) {
	var asked []runner.Decomposition
	bases, err := NewBases([]Base{
		{ID: "north", Title: "Север", Runner: actRunner{"north", &asked}, Users: []int64{1}},
		{ID: "south", Title: "Юг", Runner: actRunner{"south", &asked}, Users: []int64{1, 2}},
	}, BasesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	acts := NewActs(nil, Options{Bases: bases, LedgerAccess: func(int64, int64) bool { return true }})
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, ru.Moscow) }
	q := reconcile.ActQuery{UserID: 1, ChatID: 1, Organization: reconcile.Party{INN: "1031699119"},
		Counterparty: reconcile.Party{Name: "ООО \"Альфа\""}, From: day(1, 1), To: day(3, 31)}
	ctx := t.Context()
	for _, step := range []struct {
		user   int64
		choose string
		want   string
	}{{1, "", "north"}, {1, "south", "south"}, {2, "", "south"}} {
		if step.choose != "" {
			if _, err := bases.Choose(ctx, step.user, step.user, step.choose); err != nil {
				t.Fatal(err)
			}
		}
		q.UserID, q.ChatID = step.user, step.user
		act, err := acts.Act(ctx, q)
		if err != nil || act.Source != "1С: "+step.want {
			t.Fatalf("user %d: act of %q, %v; want %s's", step.user, act.Source, err, step.want)
		}
		f := asked[len(asked)-1]
		if f.Intent != recipe.ReconciliationAct || f.Filters.Counterparty != step.want+"-alfa" || f.Filters.Organization != step.want+"-org" ||
			f.Filters.PeriodFrom != "2026-01-01" || f.Filters.PeriodTo != "2026-03-31" {
			t.Errorf("user %d: ran %+v", step.user, f)
		}
	}
	q.UserID, q.ChatID = 3, 3
	if _, err := acts.Act(ctx, q); err == nil {
		t.Errorf("an act for a user no base is open to")
	} else if r, ok := err.(*reconcile.Refusal); !ok || r.Text != DeniedText {
		t.Errorf("user without a base: %v", err)
	}
}
