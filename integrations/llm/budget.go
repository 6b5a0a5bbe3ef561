package llm

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrBudgetSpent: the time an answer allows for LLM calls has run out. It comes wrapped in
// ErrUnavailable: the caller answers as it does without an LLM.
var ErrBudgetSpent = errors.New("llm: the answer's time for LLM calls is spent")

type budgetKey struct{}

// WithBudget gives every LLM call made under the returned context one deadline, until: the
// planner, its repair, the query expansion and the answer model share it, so a slow service
// costs an answer at most that long in all, however many calls the answer makes. A call that
// would start after it fails at once; one running when it passes is cut. Neither counts
// against the service's breaker: it is the answer's limit, not the service's failure.
func WithBudget(ctx context.Context, until time.Time) context.Context {
	if prev, ok := budgetOf(ctx); ok && prev.Before(until) {
		return ctx // an enclosing, earlier budget stands
	}
	return context.WithValue(ctx, budgetKey{}, until)
}

func budgetOf(ctx context.Context) (time.Time, bool) {
	t, ok := ctx.Value(budgetKey{}).(time.Time)
	return t, ok
}

// callContext is the context of one call: the timeout from now, cut at the budget's deadline
// when that comes first.
func callContext(ctx context.Context, timeout time.Duration) (context.Context, context.CancelFunc, error) {
	until, ok := budgetOf(ctx)
	if !ok {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		return ctx, cancel, nil
	}
	if !time.Now().Before(until) {
		return nil, nil, fmt.Errorf("%w: %w", ErrUnavailable, ErrBudgetSpent)
	}
	bctx, cancelBudget := context.WithDeadlineCause(ctx, until, ErrBudgetSpent)
	tctx, cancel := context.WithTimeout(bctx, timeout)
	return tctx, func() { cancel(); cancelBudget() }, nil
}

// budgetCut marks err as the budget's doing when the budget's deadline ended the call.
func budgetCut(ctx context.Context, err error) error {
	if err != nil && errors.Is(context.Cause(ctx), ErrBudgetSpent) && !errors.Is(err, ErrBudgetSpent) {
		return fmt.Errorf("%w: %w", ErrBudgetSpent, err)
	}
	return err
}
