package ledger

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger/lane"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

func newLane(t *testing.T) *lane.Lane {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	return lane.NewLane(d, lane.Options{Now: now, Organization: d.MainOrganization()})
}

// One lane result is read two ways, and both cite the same source.
func TestReadTwoWays(t *testing.T) {
	d, err := Decompose("кто нам должен на 31 марта", plan.LedgerQueryArgs{Recipe: lane.IntentReceivables,
		Filters: lane.Filters{AsOfDate: "2026-03-31", Limit: 5}})
	if err != nil {
		t.Fatal(err)
	}
	res := newLane(t).Run(t.Context(), d)
	r := Reply(res)
	if !strings.Contains(r.Text, "[1]") || len(r.Sources) != 1 || r.Sources[0].Title != res.SourceTitle() {
		t.Errorf("Reply text %q, sources %+v: want the figures footnoted with %q", r.Text, r.Sources, res.SourceTitle())
	}
	if last := r.Buttons[len(r.Buttons)-1]; last.Data != ExportData {
		t.Errorf("last button %+v, want the export of %d rows", last, res.Summary.Rows)
	}
	p, err := Facts(res)
	if err != nil {
		t.Fatalf("Facts() error: %v", err)
	}
	if len(p.Items) != 6 || p.Items[5].Kind != "ledger_total" || len(p.Sources) != 1 || p.Sources[0] != r.Sources[0] {
		t.Errorf("Facts %+v: want 5 rows and the total, citing the reply's source", p)
	}
}

// An ambiguous name: the tool's error lists the candidates the reply offers as buttons, and a
// button's choice re-runs the request with that candidate.
func TestAmbiguous(t *testing.T) {
	l := newLane(t)
	d, err := Decompose("", plan.LedgerQueryArgs{Recipe: lane.IntentOpenItemsByParty,
		Filters: lane.Filters{AsOfDate: "2026-03-31", Counterparty: "Сев"}})
	if err != nil {
		t.Fatal(err)
	}
	res := l.Run(t.Context(), d)
	_, err = Facts(res)
	var lim *Limited
	if !errors.As(err, &lim) || errors.Is(err, skill.ErrUnavailable) || len(res.Candidates) != 2 {
		t.Fatalf("Facts error %v with %d candidates, want a *Limited offering 2", err, len(res.Candidates))
	}
	r := Reply(res)
	if len(r.Buttons) < 2 || !strings.Contains(err.Error(), r.Buttons[1].Text) || r.Buttons[1].Data != ChoiceData+"1" {
		t.Errorf("buttons %+v, error %q: want the candidates in both", r.Buttons, err)
	}
	chosen, ok := Choice(res, r.Buttons[1].Data)
	if !ok || chosen.Filters.Counterparty != res.Candidates[1].Ref {
		t.Errorf("Choice(%q) = %+v, %v; want the second candidate", r.Buttons[1].Data, chosen.Filters, ok)
	}
	if _, ok := Choice(res, ChoiceData+"7"); ok {
		t.Error("Choice of a candidate the result does not have succeeded")
	}
}

func TestDecomposeRefusesBadArguments(t *testing.T) {
	for _, recipe := range []lane.Intent{"", "drop_everything"} {
		if _, err := Decompose("", plan.LedgerQueryArgs{Recipe: recipe}); !errors.Is(err, skill.ErrArgs) {
			t.Errorf("Decompose(recipe %q) error = %v, want skill.ErrArgs", recipe, err)
		}
	}
}
