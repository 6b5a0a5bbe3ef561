package agent

import (
	"context"
	"time"

	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/integrations/tavily"
)

// LLM completes chats. *llm.Client satisfies it.
type LLM interface {
	Complete(ctx context.Context, msgs []llm.Message, call llm.Call) (string, error)
}

// History keeps dialogs. *history.Redis and *history.Memory satisfy it.
type History interface {
	Load(ctx context.Context, key string) ([]history.Turn, error)
	Append(ctx context.Context, key string, turns ...history.Turn) error
	Reset(ctx context.Context, key string) error
}

// Rates is the Bank of Russia. *cbr.Client satisfies it.
type Rates interface {
	DailyRates(ctx context.Context, day time.Time) (cbr.Daily, error)
	Dynamic(ctx context.Context, charCode string, from, to time.Time) (cbr.Dynamic, error)
	KeyRate(ctx context.Context, from, to time.Time) (cbr.KeyRates, error)
	News(ctx context.Context, from, to time.Time) (cbr.News, error)
}

// NewsSearch finds finance news on the web. *tavily.Client satisfies it.
type NewsSearch interface {
	Search(ctx context.Context, q tavily.Query) (tavily.Response, error)
	Configured() bool
}
