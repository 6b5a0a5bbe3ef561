package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/internal/app"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

const docsUsage = `usage:
  finbot docs add  --user ID [--chat ID] FILE…   extract, index and store files as that user's (or group's) documents
  finbot docs list --user ID [--chat ID]         list them
  finbot docs rm   --user ID [--chat ID] DOC…    delete documents by id
A negative --chat is a group: its documents belong to the group.`

// docsCommand is `finbot docs …`: the upload pipeline for administrators and bulk loading.
func docsCommand(ctx context.Context, args []string, a *app.App, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New(docsUsage)
	}
	op, args := args[0], args[1:]
	fs := flag.NewFlagSet("docs "+op, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	user := fs.Int64("user", 0, "Telegram user ID")
	chat := fs.Int64("chat", 0, "chat ID; negative = a group")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("docs %s: %w\n%s", op, err, docsUsage)
	}
	if *user == 0 {
		return fmt.Errorf("docs %s: --user is required\n%s", op, docsUsage)
	}
	if !a.DurableDocs() {
		return errors.New("docs: documents are stored in Redis, and REDIS_URL is not set (documents in memory would vanish with this process)")
	}
	req := api.Request{UserID: *user, ChatID: *chat, Group: *chat < 0}
	if req.ChatID == 0 {
		req.ChatID = *user
	}
	owner := api.Owner(req)
	switch op {
	case "add":
		if fs.NArg() == 0 {
			return fmt.Errorf("docs add: no files given\n%s", docsUsage)
		}
		failed := 0
		for _, path := range fs.Args() {
			m, err := addFile(ctx, a.Docs, owner, *user, path)
			switch {
			case err != nil:
				failed++
				fmt.Fprintf(stdout, "✗ %s: %s\n", path, err)
			default:
				fmt.Fprintf(stdout, "✓ %s → %s «%s»: %d стр., %s, %s\n", path, m.ID, m.Title, m.Pages,
					ru.Count(m.Chars, "знак", "знака", "знаков"), ru.Count(m.Chunks, "фрагмент", "фрагмента", "фрагментов"))
			}
		}
		if failed > 0 {
			return fmt.Errorf("docs add: %d of %d files not added", failed, fs.NArg())
		}
		return nil
	case "list":
		ms, err := a.Docs.List(ctx, owner)
		if err != nil {
			return err
		}
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "ID\tTITLE\tFORMAT\tPAGES\tCHARS\tCHUNKS\tADDED")
		for _, m := range ms {
			fmt.Fprintf(w, "%s\t%s\t%s\t%d\t%d\t%d\t%s\n", m.ID, m.Title, m.Format, m.Pages, m.Chars, m.Chunks, m.Added.Format("2006-01-02 15:04"))
		}
		return w.Flush()
	case "rm":
		if fs.NArg() == 0 {
			return fmt.Errorf("docs rm: no document ids given\n%s", docsUsage)
		}
		for _, id := range fs.Args() {
			m, err := a.Docs.Remove(ctx, owner, id)
			if err != nil {
				return fmt.Errorf("docs rm %s: %w", id, err)
			}
			fmt.Fprintf(stdout, "удалён %s «%s»\n", m.ID, m.Title)
		}
		return nil
	default:
		return fmt.Errorf("docs: unknown operation %q\n%s", op, docsUsage)
	}
}

// addFile reads a file within the upload limit and adds it; refusals come back in Russian.
func addFile(ctx context.Context, lib *library.Library, owner string, user int64, path string) (docstore.Meta, error) {
	f, err := os.Open(path)
	if err != nil {
		return docstore.Meta{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, api.MaxUploadBytes+1))
	if err != nil {
		return docstore.Meta{}, err
	}
	if len(data) > api.MaxUploadBytes {
		return docstore.Meta{}, errors.New("файл больше 20 МБ")
	}
	added, err := lib.Add(ctx, owner, user, path, data)
	if err != nil {
		if msg := library.UserMessage(err); msg != "" {
			return docstore.Meta{}, errors.New(msg)
		}
		return docstore.Meta{}, err
	}
	return added.Meta, nil
}

const kbUsage = `usage:
  finbot kb ingest FILE.csv   replace the knowledge base in Redis with the articles of FILE.csv
  finbot kb check FILE.csv    validate FILE.csv without storing it
CSV columns: title,content,topic,jurisdiction,updated_at (see README).`

// kbCommand is `finbot kb …`.
func kbCommand(ctx context.Context, args []string, a *app.App, stdout io.Writer) error {
	if len(args) != 2 || (args[0] != "ingest" && args[0] != "check") {
		return errors.New(kbUsage)
	}
	f, err := os.Open(args[1])
	if err != nil {
		return fmt.Errorf("kb: %w", err)
	}
	defer f.Close()
	articles, perr := kb.Parse(f)
	var pe *kb.ParseError
	if perr != nil && !errors.As(perr, &pe) {
		return fmt.Errorf("kb: %s: %w", args[1], perr)
	}
	if pe != nil {
		fmt.Fprintf(stdout, "В файле есть ошибки (%d), эти строки не загружены:\n", len(pe.Problems))
		for _, p := range pe.Problems {
			fmt.Fprintf(stdout, "  %s\n", p)
		}
	}
	if len(articles) == 0 {
		return errors.New("kb: no valid articles")
	}
	if args[0] == "check" {
		fmt.Fprintf(stdout, "Статей без ошибок: %d.\n", len(articles))
		return perr
	}
	chunks, degraded, err := a.IngestKnowledgeBase(ctx, articles)
	if err != nil {
		return fmt.Errorf("kb ingest: %w", err)
	}
	fmt.Fprintf(stdout, "База знаний заменена: %s, %s.\n", ru.Count(len(articles), "статья", "статьи", "статей"),
		ru.Count(chunks, "фрагмент", "фрагмента", "фрагментов"))
	if len(degraded) > 0 {
		fmt.Fprintf(stdout, "Внимание: %s — статьи доступны только лексическому поиску.\n", strings.Join(degraded, ", "))
	}
	return perr
}
