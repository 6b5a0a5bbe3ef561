package agent

import (
	"context"

	"github.com/finbot/finbot/agent/news"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
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

// Results keeps, for a while, the results that answers' buttons are bound to (a 1C result under
// a random id), under keys the agent builds in a chat's scope. *history.RedisResults and
// *history.MemoryResults satisfy it.
type Results interface {
	Put(ctx context.Context, key string, data []byte) error
	// Get's ok is false when nothing is kept under key (never, or no longer).
	Get(ctx context.Context, key string) (data []byte, ok bool, err error)
}

// Rates is the Bank of Russia, as the rates skill asks it. *cbr.Client satisfies it.
type Rates = rates.Bank

// NewsSearch finds finance news on the web, as the news skill asks it. *tavily.Client satisfies it.
type NewsSearch = news.Searcher
