package runner

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

const (
	beforeDataPhrase = "В базе 1С нет данных раньше 31.12.2024"
	dataStartsPhrase = "Данные в базе 1С начинаются с 31.12.2024"
)

// firstPostingSource answers register.first_posting with an error or with NULL (an empty
// register), and every other template from the demo base.
type firstPostingSource struct {
	Source
	fail bool
}

func (s *firstPostingSource) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	if id != qFirstPosting {
		return s.Source.Query(ctx, id, p, limit)
	}
	if s.fail {
		return nil, &onec.QueryError{Message: "{(1, 1)}: Недостаточно прав на чтение регистра"}
	}
	return &onec.Result{ID: id, Kind: onec.RowsFirstPosting, Fetched: 1, Received: 1, Dropped: map[string]int{},
		FirstPosting: []onec.FirstPostingRow{{}}}, nil
}

// The demo base's first posting is «Ввод остатков» at 31.12.2024 23:59:59. Every as-of recipe
// asked before that day, and every period recipe whose period ends before it, says the base has
// no data then; a period that begins before it and ends on or after it answers as before, with
// one line saying where the data starts; on and after that day nothing changes — the answer is
// the one a lane that never learnt the day gives.
func TestBeforeFirstPosting(t *testing.T) {
	d, _ := demo(t)
	knows := NewLane(d, Options{Now: fixedNow, Organization: mainOrg})
	blind := NewLane(&firstPostingSource{Source: d, fail: true}, Options{Now: fixedNow, Organization: mainOrg})
	asOf := func(i recipe.Name, f recipe.Filters) func(string) Decomposition {
		return func(day string) Decomposition { f.AsOfDate = day; return ask(i, f) }
	}
	period := func(i recipe.Name, f recipe.Filters) func(string, string) Decomposition {
		return func(from, to string) Decomposition { f.PeriodFrom, f.PeriodTo = from, to; return ask(i, f) }
	}
	asOfRecipes := map[string]func(string) Decomposition{
		"receivables":    asOf(recipe.Receivables, recipe.Filters{}),
		"payables":       asOf(recipe.Payables, recipe.Filters{}),
		"balance 51":     asOf(recipe.AccountBalance, recipe.Filters{Account: "51"}),
		"open items":     asOf(recipe.OpenItemsByParty, recipe.Filters{Counterparty: "Альфа Поставка", Status: "open"}),
		"open contracts": asOf(recipe.OpenContracts, recipe.Filters{Status: "open"}),
		"drilldown 62":   asOf(recipe.DocumentsFormBalance, recipe.Filters{Account: "62"}),
		"party's debt":   asOf(recipe.Receivables, recipe.Filters{Counterparty: "АО «Вектор»"}),
	}
	periodRecipes := map[string]func(string, string) Decomposition{
		"documents":   period(recipe.DocumentsByParty, recipe.Filters{Counterparty: "АО «Вектор»"}),
		"by contract": period(recipe.DocumentsByContract, recipe.Filters{Contract: "П-77/2024"}),
		"bank ops":    period(recipe.BankOpsByParty, recipe.Filters{Counterparty: "Альфа Поставка"}),
		"sheet":       period(recipe.TurnoverSheet, recipe.Filters{}),
		"sheet 62":    period(recipe.TurnoverSheet, recipe.Filters{Account: "62", Detail: recipe.DetailCounterparty}),
		"card 62":     period(recipe.AccountCard, recipe.Filters{Account: "62"}),
	}
	for name, q := range asOfRecipes {
		t.Run(name, func(t *testing.T) {
			for _, day := range []string{"2023-06-30", "2024-12-30"} {
				res := knows.Run(t.Context(), q(day))
				if res.ResultMode != Limited || res.LimitedReason != ReasonEmptyMatch || !strings.HasPrefix(res.Message, beforeDataPhrase) ||
					!strings.Contains(res.Message, "На "+shortDate(day)+" база ничего не покажет") || !strings.Contains(res.Message, "не раньше 31.12.2024") {
					t.Errorf("on %s: %s %s %q, want that the base has no data before 31.12.2024", day, res.ResultMode, res.LimitedReason, res.Message)
				}
			}
			for _, day := range []string{"2024-12-31", "2025-01-01", "2026-03-31"} {
				got, want := knows.Run(t.Context(), q(day)), blind.Run(t.Context(), q(day))
				if got.Markdown() != want.Markdown() || strings.Contains(got.Markdown(), "первой проводки") {
					t.Errorf("on %s the answer changed:\n%s\nwant:\n%s", day, got.Markdown(), want.Markdown())
				}
			}
		})
	}
	for name, q := range periodRecipes {
		t.Run(name, func(t *testing.T) {
			res := knows.Run(t.Context(), q("2023-01-01", "2024-12-30"))
			if res.ResultMode != Limited || res.LimitedReason != ReasonEmptyMatch || !strings.HasPrefix(res.Message, beforeDataPhrase) ||
				!strings.Contains(res.Message, "За 01.01.2023 – 30.12.2024 база ничего не покажет") {
				t.Errorf("before: %s %s %q, want that the base has no data before 31.12.2024", res.ResultMode, res.LimitedReason, res.Message)
			}
			// Straddling: the answer as before, and one line where the data starts.
			got, want := knows.Run(t.Context(), q("2024-12-01", "2025-03-31")), blind.Run(t.Context(), q("2024-12-01", "2025-03-31"))
			said := got.Message + strings.Join(got.Notes, "\n")
			if strings.Count(said, dataStartsPhrase) != 1 || strings.Contains(said, beforeDataPhrase) || got.ResultMode != want.ResultMode ||
				got.Summary.Rows != want.Summary.Rows || got.Summary.TotalAmount != want.Summary.TotalAmount ||
				!strings.Contains(got.Markdown(), "начинаются с 31\\.12\\.2024") {
				t.Errorf("straddling: %s\nwant the answer of\n%s\nwith one line that the data starts on 31.12.2024", got.Markdown(), want.Markdown())
			}
			for _, p := range [][2]string{{"2024-12-31", "2025-03-31"}, {"2025-01-01", "2026-03-31"}} {
				got, want := knows.Run(t.Context(), q(p[0], p[1])), blind.Run(t.Context(), q(p[0], p[1]))
				if got.Markdown() != want.Markdown() || strings.Contains(got.Markdown(), "первая проводка") {
					t.Errorf("%v: the answer changed:\n%s\nwant:\n%s", p, got.Markdown(), want.Markdown())
				}
			}
		})
	}
}

// When 1C does not tell the first posting — the query fails, or the register is empty (NULL) —
// the catalogs still load and every answer is what it was: «никто не должен» stays, no note.
func TestFirstPostingUnknownChangesNothing(t *testing.T) {
	d, _ := demo(t)
	for _, fail := range []bool{true, false} {
		src := &firstPostingSource{Source: d, fail: fail}
		l := NewLane(src, Options{Now: fixedNow, Organization: mainOrg})
		res := l.Run(t.Context(), ask(recipe.Receivables, recipe.Filters{AsOfDate: "2024-01-01"}))
		if res.ResultMode != Limited || res.LimitedReason != ReasonEmptyMatch || res.Message != "На 01.01.2024 по счёту 62 никто нам не должен." {
			t.Errorf("fail=%v: %s %s %q, want the answer as it was", fail, res.ResultMode, res.LimitedReason, res.Message)
		}
		if !containsID(res.Debug.QueriesSent, qFirstPosting) {
			t.Errorf("fail=%v: queries %v, want the first posting asked with the catalogs", fail, res.Debug.QueriesSent)
		}
		res = l.Run(t.Context(), ask(recipe.DocumentsByParty, recipe.Filters{PeriodFrom: "2024-12-01", PeriodTo: "2025-01-31", Counterparty: "АО «Вектор»"}))
		if res.ResultMode == Limited || len(res.Notes) != 0 {
			t.Errorf("fail=%v: %s %q, notes %q; want the documents with no note", fail, res.ResultMode, res.Message, res.Notes)
		}
		if containsID(res.Debug.QueriesSent, qFirstPosting) {
			t.Errorf("fail=%v: the first posting asked again: %v (it is cached with the catalogs)", fail, res.Debug.QueriesSent)
		}
	}
	var qe *onec.QueryError
	if _, err := (&firstPostingSource{Source: d, fail: true}).Query(t.Context(), qFirstPosting, nil, 1); !errors.As(err, &qe) {
		t.Fatalf("the failing source does not fail: %v", err)
	}
}

func containsID(ids []string, id string) bool {
	for _, s := range ids {
		if s == id {
			return true
		}
	}
	return false
}
