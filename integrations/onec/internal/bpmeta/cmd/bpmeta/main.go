// Command bpmeta regenerates integrations/onec/testdata/bp30-metadata.json, the BP 3.0 metadata
// extract finbot's query templates are checked against, from a configuration dump in a git
// repository (a bare one will do: fetch github:kassya20/buh).
//
//	go run ./integrations/onec/internal/bpmeta/cmd/bpmeta -git /path/to/buh.git \
//		-out integrations/onec/testdata/bp30-metadata.json
//
// With -scan (the default) it also parses every query text of BP's own modules with qlang and
// records how BP uses each virtual table of the accounting register; a BP query passing more
// positional parameters than the extract's table has fails the run.
package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"

	"github.com/finbot/finbot/integrations/onec/internal/bpmeta"
)

// The objects finbot's templates read, extracted in full. Add one here when a template starts
// reading it, and regenerate.
var full = []string{
	"Справочник.Организации", "Справочник.Контрагенты", "Справочник.ДоговорыКонтрагентов",
	"Справочник.БанковскиеСчета", "Справочник.Банки", "Справочник.Валюты",
	"Документ.ПоступлениеНаРасчетныйСчет", "Документ.СписаниеСРасчетногоСчета", "Документ.РеализацияТоваровУслуг",
	"Документ.ПоступлениеТоваровУслуг", "Документ.АктСверкиВзаиморасчетов", "Документ.ВводНачальныхОстатков",
	"Документ.КорректировкаДолга", "Документ.ПриходныйКассовыйОрдер", "Документ.РасходныйКассовыйОрдер",
	"Документ.ВозвратТоваровОтПокупателя", "Документ.ВозвратТоваровПоставщику", "Документ.КорректировкаПоступления",
	"Документ.КорректировкаРеализации", "Документ.СчетФактураПолученный", "Документ.СчетФактураВыданный",
	"Перечисление.ЮридическоеФизическоеЛицо", "Перечисление.ВидыДоговоровКонтрагентов",
	"Справочник.Номенклатура", "Справочник.КлассификаторЕдиницИзмерения",
	"ПланСчетов.Хозрасчетный", "ПланВидовХарактеристик.ВидыСубконтоХозрасчетные", "РегистрБухгалтерии.Хозрасчетный",
}

// The tabular sections whose columns are extracted (the others are listed by name).
var tabular = []string{
	"Документ.ВводНачальныхОстатков.РасчетыСКонтрагентами",
	"Документ.АктСверкиВзаиморасчетов.ПоДаннымОрганизации", "Документ.АктСверкиВзаиморасчетов.ПоДаннымКонтрагента",
	"Документ.ПоступлениеНаРасчетныйСчет.РасшифровкаПлатежа", "Документ.СписаниеСРасчетногоСчета.РасшифровкаПлатежа",
	"Документ.ПриходныйКассовыйОрдер.РасшифровкаПлатежа", "Документ.РасходныйКассовыйОрдер.РасшифровкаПлатежа",
	"Документ.РеализацияТоваровУслуг.Товары", "Документ.РеализацияТоваровУслуг.Услуги",
	"Документ.ПоступлениеТоваровУслуг.Товары", "Документ.ПоступлениеТоваровУслуг.Услуги",
	"Документ.КорректировкаДолга.ДебиторскаяЗадолженность", "Документ.КорректировкаДолга.КредиторскаяЗадолженность",
}

// The predefined accounts detailed with their subconto kinds: money, settlements, VAT, and the
// quantity accounts (materials, goods, finished products).
var accountPrefixes = []string{"10", "19", "41", "43", "50", "51", "52", "55", "57", "60", "62", "66", "67", "68", "69", "70", "71", "73", "75", "76"}

var nameKinds = []string{bpmeta.Catalog, bpmeta.Document, bpmeta.ChartOfAccounts, bpmeta.ChartOfCharacteristic,
	bpmeta.AccountingRegister}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "bpmeta:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fl := flag.NewFlagSet("bpmeta", flag.ContinueOnError)
	gitDir := fl.String("git", "", "the git directory of the configuration dump (kassya20/buh)")
	rev := fl.String("rev", "HEAD", "the revision to read")
	repo := fl.String("repo", "kassya20/buh", "the repository's name, recorded as the source")
	out := fl.String("out", "integrations/onec/testdata/bp30-metadata.json", "the file to write")
	scan := fl.Bool("scan", true, "parse BP's own query texts and record how they use the virtual tables")
	maxErrors := fl.Int("errors", 20, "how many of BP's query texts that do not parse to list")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *gitDir == "" {
		return errors.New("-git is required")
	}
	commit, err := gitOutput(ctx, *gitDir, "rev-parse", *rev+"^{commit}")
	if err != nil {
		return err
	}
	r, err := newReader(ctx, *gitDir, commit)
	if err != nil {
		return err
	}
	defer r.Close()
	x, err := bpmeta.Build(r.Read, bpmeta.Spec{
		Repository: *repo, Commit: commit, Full: full, Tabular: tabular, AccountPrefixes: accountPrefixes, NameKinds: nameKinds,
		Regenerate: "go run ./integrations/onec/internal/bpmeta/cmd/bpmeta -git <" + *repo + " git dir> -rev " + commit,
	})
	if err != nil {
		return err
	}
	if *scan {
		if err := scanBP(ctx, x, r, *gitDir, commit, *maxErrors, stderr); err != nil {
			return err
		}
	}
	b, err := bpmeta.Marshal(x)
	if err != nil {
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}

// scanBP records how BP's modules use the register's virtual tables.
func scanBP(ctx context.Context, x *bpmeta.Extract, r *reader, gitDir, commit string, maxErrors int, stderr io.Writer) error {
	list, err := gitOutput(ctx, gitDir, "ls-tree", "-r", "--name-only", "-z", commit)
	if err != nil {
		return err
	}
	stats := bpmeta.ScanStats{MaxErrors: maxErrors}
	for _, reg := range x.Objects {
		if reg.Register == nil {
			continue
		}
		for _, path := range strings.Split(list, "\x00") {
			if !strings.HasSuffix(path, ".bsl") {
				continue
			}
			b, err := r.Read(path)
			if errors.Is(err, fs.ErrNotExist) {
				continue // the snapshot leaves out its largest files
			}
			if err != nil {
				return err
			}
			bpmeta.RecordUsage(reg, path, string(b), &stats)
		}
		for _, vt := range reg.Register.VirtualTables {
			if u := vt.BPUsage; u != nil && u.MaxParams > len(vt.Params) {
				return fmt.Errorf("%s.%s: BP passes %d parameters (%s), the extract knows %d",
					reg.FullName(), vt.Name, u.MaxParams, u.Example, len(vt.Params))
			}
		}
	}
	fmt.Fprintf(stderr, "bpmeta: %d query texts in BP's modules, %d parse\n", stats.Queries, stats.Parsed)
	for _, e := range stats.Errors {
		fmt.Fprintln(stderr, "  ", e)
	}
	return nil
}

func gitOutput(ctx context.Context, gitDir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"--git-dir", gitDir}, args...)...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	b, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(string(b)), nil
}

// reader reads files of one commit through a long-running git cat-file --batch.
type reader struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	commit string
}

func newReader(ctx context.Context, gitDir, commit string) (*reader, error) {
	cmd := exec.CommandContext(ctx, "git", "--git-dir", gitDir, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &reader{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20), commit: commit}, nil
}

// Read returns a file's content; a path the commit lacks, or whose blob the snapshot left out,
// is fs.ErrNotExist.
func (r *reader) Read(path string) ([]byte, error) {
	if _, err := fmt.Fprintf(r.in, "%s:%s\n", r.commit, path); err != nil {
		return nil, err
	}
	header, err := r.out.ReadString('\n')
	if err != nil {
		return nil, err
	}
	fields := strings.Fields(header)
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, fmt.Errorf("%s: %w", path, fs.ErrNotExist)
	}
	if len(fields) != 3 {
		return nil, fmt.Errorf("git cat-file: unexpected header %q", header)
	}
	size, err := strconv.Atoi(fields[2])
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %q: %w", header, err)
	}
	b := make([]byte, size+1) // the content and a newline
	if _, err := io.ReadFull(r.out, b); err != nil {
		return nil, err
	}
	return bytes.TrimPrefix(b[:size], []byte("\uFEFF")), nil
}

// Close ends git cat-file.
func (r *reader) Close() error {
	r.in.Close()
	return r.cmd.Wait()
}
