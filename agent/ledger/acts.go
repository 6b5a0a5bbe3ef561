package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/reconcile"
)

// Acts builds our act of reconciliation for the comparison of a counterparty's uploaded act
// (reconcile.OurActs): the asker's base (their /base choice, else the first open to them) and its
// 1C user's rights, the organization, counterparty and contract their act names found in that
// base's catalogs (reconcile.Resolve), then the lane's act recipe over their act's period.
type Acts struct{ s *Skill }

var _ reconcile.OurActs = (*Acts)(nil)

// NewActs returns our acts over runner r, or over o.Bases when set (Options as New takes them;
// only LedgerAccess, Bases, ToolTimeout and Logger matter here).
func NewActs(r Runner, o Options) *Acts { return &Acts{s: New(r, nil, o)} }

// Act is our act for q. What the user is to be told — no access, a name 1C lacks or several that
// fit, an act the lane will not show — is a *reconcile.Refusal; a failing 1C is an error.
func (a *Acts) Act(ctx context.Context, q reconcile.ActQuery) (reconcile.Act, error) {
	s := a.s.ask(ctx, q.UserID, q.ChatID)
	if s.runner == nil {
		return reconcile.Act{}, errors.New("ledger: our act: 1C is not connected")
	}
	if !s.access(q.UserID, q.ChatID) {
		return reconcile.Act{}, &reconcile.Refusal{Text: DeniedText}
	}
	ctx, cancel := context.WithTimeout(ctx, s.toolTO)
	defer cancel()
	cats, err := s.runner.Catalogs(ctx)
	if err != nil {
		return reconcile.Act{}, fmt.Errorf("ledger: our act: catalogs: %w", err)
	}
	org, party, contract, err := reconcile.Resolve(cats, q)
	if err != nil {
		return reconcile.Act{}, err // a *reconcile.Refusal
	}
	f := recipe.Filters{Organization: org.Ref, Counterparty: party.Ref, Contract: contract.Ref,
		PeriodFrom: q.From.Format(time.DateOnly), PeriodTo: q.To.Format(time.DateOnly)}
	res := s.runner.Run(ctx, runner.Decomposition{QuestionMode: runner.ModeLedger, QueryShape: "list", Intent: recipe.ReconciliationAct,
		Filters: f, FallbackRuleHit: "reconcile_compare", Reasons: []string{"акт сверки для сравнения с актом контрагента"}})
	switch {
	case res.ResultMode == runner.Limited && res.LimitedReason == runner.ReasonExecutionError:
		return reconcile.Act{}, fmt.Errorf("ledger: our act with %s: %s", party.Name, res.Message)
	case res.ResultMode == runner.Limited:
		return reconcile.Act{}, &reconcile.Refusal{Text: res.Message}
	case res.Act == nil:
		return reconcile.Act{}, fmt.Errorf("ledger: our act with %s: the lane returned no act (%s)", party.Name, res.ResultMode)
	}
	return *res.Act, nil
}
