package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
)

// withoutDocuments is the demo base as one where settlements are not kept per document (BP's
// setting off): the chart's 60, 62 and 76 carry no ДокументыРасчетовСКонтрагентами kind, and the
// register's third subconto of those accounts is empty (the toolkit writes a query's NULL as "").
type withoutDocuments struct{ Source }

func (w withoutDocuments) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	res, err := w.Source.Query(ctx, id, p, limit)
	if err != nil {
		return nil, err
	}
	for i, a := range res.Accounts {
		if strings.HasPrefix(a.Code, "60") || strings.HasPrefix(a.Code, "62") || strings.HasPrefix(a.Code, "76") {
			res.Accounts[i].ByDocuments = false
			res.Accounts[i].Subconto = []string{"Контрагенты", "Договоры"}
		}
	}
	if strings.HasPrefix(id, "address.open_items") {
		for i := range res.Balances {
			res.Balances[i].SettlementDocument, res.Balances[i].DocumentDate, res.Balances[i].DocumentNumber = onec.Ref{}, time.Time{}, ""
		}
	}
	return res, nil
}

// Open items in a base that keeps no settlement documents are the counterparty's contracts,
// each named, with the same total as the documents give where they are kept, and the answer
// says why; never one unnamed row.
func TestOpenItemsWithoutSettlementDocuments(t *testing.T) {
	d, _ := demo(t)
	org := d.MainOrganization()
	with := NewLane(d, Options{Now: fixedNow, Organization: org})
	without := NewLane(withoutDocuments{d}, Options{Now: fixedNow, Organization: org})
	q := ask(recipe.OpenItemsByParty, recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Альфа", Status: "open"})
	a, b := with.Run(t.Context(), q), without.Run(t.Context(), q)
	if len(a.All) == 0 || len(b.All) == 0 {
		t.Fatalf("rows: with documents %d, without %d", len(a.All), len(b.All))
	}
	sum := func(rows []Row) (s onec.Kopecks) {
		for _, r := range rows {
			s += r.Amount
		}
		return s
	}
	if sum(a.All) != sum(b.All) {
		t.Errorf("open total without documents %s, with them %s", sum(b.All), sum(a.All))
	}
	for _, r := range b.All {
		if r.Type != noDocumentsType || r.Deal == "" {
			t.Errorf("row without documents = %+v, want a named contract", r)
		}
	}
	md := b.Markdown()
	if !strings.Contains(md, "не ведётся учёт по документам расчётов") || strings.Contains(md, "№  от") {
		t.Errorf("answer without documents:\n%s", md)
	}
	if strings.Contains(a.Markdown(), "не ведётся учёт") {
		t.Error("the base with documents is said to keep none")
	}
}
