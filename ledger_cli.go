package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
)

const ledgerUsage = `использование:
  finbot ledger export [--demo default|realistic] КАТАЛОГ

Записывает демо-базу 1С в КАТАЛОГ шестью JSON-файлами формата демо-базы
(organizations, counterparties, contracts, documents, movements, chart_of_accounts;
описание — shared/demo-ledger/README.md), чтобы любую цифру ответа можно было
проверить независимым расчётом по тем же данным.

  --demo default     встроенная демо-база (по умолчанию; её цифры проверяют тесты)
  --demo realistic   база, устроенная как настоящая (ONEC_DEMO=realistic): 1 537
                     контрагентов, счета-фактуры на 19.03, 76.АВ/76.ВА, валютные
                     договоры, сторно, обособленное подразделение, количества`

// ledgerCommand is `finbot ledger …`.
func ledgerCommand(args []string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stdout, ledgerUsage)
		if len(args) == 0 {
			return errors.New("ledger: no subcommand")
		}
		return nil
	}
	if args[0] != "export" {
		fmt.Fprintln(stdout, ledgerUsage)
		return fmt.Errorf("ledger: unknown subcommand %q", args[0])
	}
	fs := flag.NewFlagSet("ledger export", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // the usage below is the help
	demo := fs.String("demo", ledgergen.DemoDefault, "default | realistic")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, ledgerUsage)
			return nil
		}
		fmt.Fprintln(stdout, ledgerUsage)
		return fmt.Errorf("ledger export: %w", err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stdout, ledgerUsage)
		return errors.New("ledger export: one directory expected")
	}
	name := strings.ToLower(*demo)
	l, err := ledgergen.Base(name)
	if err != nil {
		return fmt.Errorf("ledger export: %w", err)
	}
	dir := fs.Arg(0)
	if err := onec.WriteLedger(dir, l); err != nil {
		return fmt.Errorf("ledger export: %w", err)
	}
	fmt.Fprintf(stdout, "Демо-база «%s» записана в %s: организаций %d, контрагентов %d, договоров %d, документов %d, проводок %d.\n",
		name, dir, len(l.Organizations), len(l.Counterparties), len(l.Contracts), len(l.Documents), len(l.Movements))
	return nil
}
