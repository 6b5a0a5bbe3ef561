// Command finbot-load plays simulated accountants against finbot, built as `finbot serve`
// builds it, through an in-process fake Bot API and stand-ins for the LLM, the Bank of Russia
// and Tavily, and reports replies, latency, peak memory and the send rates against Telegram's
// limits (internal/load; docs/load-report.md).
//
//	go run ./cmd/finbot-load -users 1000 -messages 10 -out load.md
//	go run ./cmd/finbot-load -h
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/finbot/finbot/internal/load"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := load.Run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "finbot-load:", err)
		os.Exit(1)
	}
}
