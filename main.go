// Command finbot is a Telegram assistant for Russian finance and accounting teams.
//
//	finbot serve                         the Telegram bot (long polling, or a webhook with WEBHOOK_URL)
//	finbot chat                          a console chat over the same pipeline
//	finbot ask [--json] [--user ID] [--chat ID] TEXT
//	                                     answer one message and exit
//	finbot ask [--json] [--user ID] [--chat ID] --file PATH [TEXT]
//	                                     send a file (a document, a scan, an audio file)
//	                                     with an optional caption, as Telegram would
//	finbot docs add|list|rm --user ID …  manage a user's documents
//	finbot kb ingest FILE.csv            replace the knowledge base
//
// With no configuration at all every subcommand runs on embedded defaults: in-memory history,
// the demo 1C ledger, no LLM. Settings come from the environment (see README.md).
//
// main reads the subcommand and the configuration and runs the mode; internal/app builds the
// system, the same way for every mode, the load driver and the end-to-end tests.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/config"
	"github.com/finbot/finbot/internal/app"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.LookupEnv, os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "finbot:", err)
		os.Exit(1)
	}
}

const usage = `finbot — ассистент бухгалтерии в Telegram.

Usage:
  finbot serve                                         run the Telegram bot
  finbot chat                                          console chat (no token needed)
  finbot ask [--json] [--user ID] [--chat ID] TEXT     answer one message and exit
  finbot ask [--json] [--user ID] [--chat ID] --file PATH [TEXT]
                                                       send a file as Telegram would: a document
                                                       (PDF, DOCX, XLSX, TXT…) is stored, an audio
                                                       file (OGG, MP3, M4A, WAV…) transcribed; TEXT
                                                       is its caption, asked about the document
  finbot docs add --user ID [--chat ID] FILE…          add documents for a user (or a group)
  finbot docs list --user ID [--chat ID]               list them
  finbot docs rm --user ID [--chat ID] DOC…            delete them
  finbot kb ingest FILE.csv | kb check FILE.csv        load or validate the knowledge base
  finbot ledger export [--demo default|realistic] DIR  write a demo 1C base as JSON files
  finbot env                                           list every environment variable

Configuration is read from the environment; see README.md.`

// run is the whole program: main only supplies the process's surroundings.
// lookupEnv is run's environment, as os.LookupEnv reads it: a variable set empty
// («METRICS_ADDR=») is not one left unset.
func run(ctx context.Context, args []string, lookupEnv func(string) (string, bool), stdin io.Reader, stdout, stderr io.Writer) (err error) {
	getenv := func(k string) string { v, _ := lookupEnv(k); return v }
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return errors.New("no subcommand")
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	case "ledger":
		// Needs no configuration: it writes a demo base, not the bot's data.
		return ledgerCommand(args, stdout)
	case "env":
		for _, v := range config.Vars() {
			fmt.Fprintf(stdout, "%-22s %-30q %s\n", v.Name, v.Default, v.Description)
		}
		return nil
	case "serve", "chat", "ask", "docs", "kb":
	default:
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("unknown subcommand %q", sub)
	}

	cfg, err := config.LoadLookup(lookupEnv)
	if err != nil {
		return fmt.Errorf("config: %w", err)
	}
	level := cfg.LogLevel
	if sub != "serve" && getenv("LOG_LEVEL") == "" {
		level = slog.LevelWarn // keep the console readable
	}
	// Everything that leaves the process from here on — the console, `ask` and its --json,
	// logs, the HTTP servers' error logs, the error run returns — passes one redactor.
	red := cfg.Redactor()
	rout, rerr := red.Writer(stdout), red.Writer(stderr)
	defer rout.Flush()
	defer rerr.Flush()
	stdout, stderr = rout, rerr
	defer func() { err = red.Error(err) }()
	log := slog.New(newRedactor(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: level}), red))

	a, err := app.New(ctx, cfg, app.Options{Logger: log, Console: sub != "serve"})
	if err != nil {
		return err
	}
	defer a.Close()

	switch sub {
	case "serve":
		return a.Run(ctx)
	case "docs":
		return docsCommand(ctx, args, a, stdout)
	case "kb":
		return kbCommand(ctx, args, a, stdout)
	case "chat":
		return a.Chat(ctx, stdin, stdout)
	default:
		return ask(ctx, args, a, stdout)
	}
}

// askResult is the `ask --json` output.
type askResult struct {
	Scenario api.Scenario `json:"scenario"`
	// Kind is what the message asked (agent/understand's vocabulary); Recipe the 1C recipe.
	Kind   understand.Kind `json:"kind,omitempty"`
	Recipe string          `json:"recipe,omitempty"`
	// Text is the answer's Markdown as a reader reads it: without the escapes that only keep
	// names literal for the Telegram converter («31.03.2026», not «31\.03\.2026»).
	Text    string       `json:"text"`
	Sources []api.Source `json:"sources"`
	Buttons []api.Button `json:"buttons,omitempty"`
	Chart   *api.Chart   `json:"chart,omitempty"`
	Debug   *api.Debug   `json:"debug"`
	// Replies are the messages as the user would read them.
	Replies []string `json:"replies"`
	// File is the file `ask --file` sent.
	File *askFile `json:"file,omitempty"`
}

// askFile is what became of the file `ask --file` sent.
type askFile struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
	// As is how it went: "document" (stored, its caption asked about it) or "voice"
	// (transcribed, what it says asked).
	As string `json:"as"`
	// Taken: stored, or heard; false when the bot refused it (the replies say why).
	Taken bool `json:"taken"`
	// Heard is what was recognised of a recording.
	Heard string `json:"heard,omitempty"`
}

const askUsage = "usage: finbot ask [--json] [--user ID] [--chat ID] TEXT, or --file PATH [TEXT]"

func ask(ctx context.Context, args []string, a *app.App, stdout io.Writer) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print one JSON object")
	user := fs.Int64("user", 1, "Telegram user ID to speak as")
	chat := fs.Int64("chat", 0, "chat ID (default: the user's private chat; negative = a group)")
	file := fs.String("file", "", "a file to send, as a Telegram message carries one; TEXT is its caption")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("ask: %w (%s)", err, askUsage)
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" && *file == "" {
		return fmt.Errorf("ask: no message given (%s)", askUsage)
	}
	out := stdout
	if *asJSON {
		out = io.Discard
	}
	var (
		ans     *api.Answer
		replies []string
		sent    *askFile
	)
	if *file != "" {
		s, err := a.AskFile(ctx, out, *user, *chat, *file, text)
		if err != nil {
			return fmt.Errorf("ask --file: %w", err)
		}
		ans, replies = s.Answer, s.Replies
		sent = &askFile{Name: s.Name, Size: s.Size, As: "document", Taken: s.Taken, Heard: s.Heard}
		if s.Voice {
			sent.As = "voice"
		}
	} else {
		ans, replies = a.Ask(ctx, out, *user, *chat, text)
	}
	if *asJSON {
		res := askResult{Scenario: api.Command, Text: strings.Join(replies, "\n\n"), Sources: []api.Source{}, Replies: replies, File: sent}
		if ans != nil {
			res = askResult{Scenario: ans.Scenario, Kind: ans.Kind, Recipe: ans.Recipe, Text: md.Unescape(ans.Text), Sources: ans.Sources,
				Buttons: ans.Buttons, Chart: ans.Chart, Debug: &ans.Debug, Replies: replies, File: sent}
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	if sent != nil && !sent.Taken {
		// The reply said why, as the bot would; the exit status says it to scripts.
		return fmt.Errorf("ask --file: бот не принял файл %s (причина — в ответе)", *file)
	}
	return nil
}
