package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/golden"
)

// The reports on the demo ledger, as a user asks for them: golden files of the rendered answer
// and the unified result (testdata/lane/report_*.golden; go test -update rewrites them).
func TestReportGolden(t *testing.T) {
	mar := func(f recipe.Filters) recipe.Filters { f.PeriodFrom, f.PeriodTo = "2026-03-01", "2026-03-31"; return f }
	tests := []struct {
		name, question string
		d              Decomposition
	}{
		{"sheet_q1", "осв за 1 квартал", ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31"})},
		{"sheet_62_march", "оборотка по 62 за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Account: "62"}))},
		{"sheet_60_by_counterparty", "осв по 60 по контрагентам за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Account: "60", Detail: recipe.DetailCounterparty}))},
		{"sheet_62_by_contract_granit", "осв по 62 по Гранит за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Account: "62", Counterparty: "Гранит"}))},
		{"sheet_granit", "оборотка по Гранит за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Counterparty: "Гранит"}))},
		{"sheet_51_day", "обороты по 51 за 02.03.2026", ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-03-02", PeriodTo: "2026-03-02", Account: "51"})},
		{"sheet_trade_red", "осв ветер трейд за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Organization: "Северный ветер Трейд"}))},
		{"sheet_76_empty", "осв по 76 за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Account: "76"}))},
		{"sheet_no_period", "осв по 62", ask(recipe.TurnoverSheet, recipe.Filters{Account: "62"})},
		{"sheet_detail_no_account", "осв по контрагентам за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Detail: recipe.DetailCounterparty}))},
		{"sheet_51_by_counterparty", "осв 51 по контрагентам за март", ask(recipe.TurnoverSheet, mar(recipe.Filters{Account: "51", Detail: recipe.DetailCounterparty}))},
		{"sheet_reversed", "осв с 31.03 по 01.03", ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-03-31", PeriodTo: "2026-03-01"})},
		{"card_60_alfa_postavka", "карточка 60 по Альфа Поставка за март", ask(recipe.AccountCard, mar(recipe.Filters{Account: "60", Counterparty: "Альфа Поставка"}))},
		{"card_51_march", "карточка 51 за март", ask(recipe.AccountCard, mar(recipe.Filters{Account: "51"}))},
		{"card_62_alfa_2025", "карточка счета 62 по Альфе за 2025 год", ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Account: "62", Counterparty: "Альфе"})},
		{"card_60_granit_empty", "карточка 60 по Гранит за март", ask(recipe.AccountCard, mar(recipe.Filters{Account: "60", Counterparty: "Гранит"}))},
		{"card_51_april", "карточка 51 за апрель", ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2026-04-01", PeriodTo: "2026-04-30", Account: "51"})},
		{"card_no_account", "карточка за март", ask(recipe.AccountCard, mar(recipe.Filters{}))},
		{"card_51_by_counterparty", "карточка 51 по Альфе за март", ask(recipe.AccountCard, mar(recipe.Filters{Account: "51", Counterparty: "Альфе"}))},
		{"card_future", "карточка 62 за май 2026", ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2026-05-01", PeriodTo: "2026-05-31", Account: "62"})},

		{"sheet_before_data", "осв за 2023", ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2023-01-01", PeriodTo: "2023-12-31"})},
		{"card_62_straddling", "карточка 62 за декабрь 2024 – январь 2025", ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2024-12-01", PeriodTo: "2025-01-31", Account: "62"})},
	}
	lane, _ := newTestLane(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := lane.Run(t.Context(), tt.d)
			unified, _ := json.MarshalIndent(res, "", "  ")
			got := fmt.Sprintf("Q: %s\n\n%s\n\n--- result\n%s\n--- debug\nmode=%s intent=%s recipe=%s status=%s rows=%d/%d/%d/%d/%d queries=%s reason=%s\n",
				tt.question, res.MarkdownCited("[1]"), unified, res.Debug.DetectedMode, res.Debug.DetectedIntent, res.Debug.SelectedRecipe,
				res.Debug.MCPCallStatus, res.Debug.RawRowsReceived, res.Debug.RowsAfterAccountScope, res.Debug.RowsMaterialized,
				res.Debug.RowsAfterRecipeFilter, res.Debug.RowsMatched, strings.Join(res.Debug.QueriesSent, ","), res.LimitedReason)
			golden.Check(t, filepath.Join("testdata", "lane", "report_"+tt.name+".golden"), got)
		})
	}
}

// The sheet's invariants, for every account of the demo chart and several periods, both
// organizations: each line's closing balance is its opening balance plus the debit turnover
// minus the credit turnover; over the whole chart the total's debit and credit columns are
// equal; a synthetic account's turnovers are its sub-accounts' sums; and the card's last
// running balance is the sheet's closing balance of the account (collapsed), with its
// turnovers the sheet's.
func TestReportInvariants(t *testing.T) {
	lane, _ := newTestLane(t)
	periods := [][2]string{{"2025-01-01", "2025-01-31"}, {"2025-01-01", "2025-12-31"}, {"2026-01-01", "2026-03-31"}, {"2026-03-01", "2026-03-31"}}
	for _, org := range []string{"", "Северный ветер Трейд"} {
		for _, p := range periods {
			f := recipe.Filters{PeriodFrom: p[0], PeriodTo: p[1], Organization: org, Limit: recipe.MaxLimit}
			res := lane.Run(t.Context(), ask(recipe.TurnoverSheet, f))
			if res.ResultMode == Limited || res.Report == nil {
				t.Fatalf("%s %v: %s", org, p, res.Message)
			}
			tot := res.Report.Total
			if tot.OpenDebit != tot.OpenCredit || tot.Debit != tot.Credit || tot.CloseDebit != tot.CloseCredit || tot.Debit == 0 {
				t.Errorf("%s %v: double entry broken: %+v", org, p, tot)
			}
			if len(res.Limitations) > 0 {
				t.Errorf("%s %v: limitations %q", org, p, res.Limitations)
			}
			var sum Turnover
			top := map[string]Turnover{}
			subs := map[string]Turnover{}
			for _, row := range res.All {
				s := *row.Sheet
				if s.CloseNet() != s.OpenNet()+s.Debit-s.Credit {
					t.Errorf("%s %v %s: closing %v ≠ opening %v + %v − %v", org, p, row.Account, s.CloseNet(), s.OpenNet(), s.Debit, s.Credit)
				}
				if row.Level == 0 {
					sum.add(s)
					top[row.Account] = s
					continue
				}
				g, _, _ := strings.Cut(row.Account, ".")
				x := subs[g]
				x.add(s)
				subs[g] = x
			}
			if sum != tot {
				t.Errorf("%s %v: total %+v is not the sum of the accounts' lines %+v", org, p, tot, sum)
			}
			for g, x := range subs {
				if top[g].Debit != x.Debit || top[g].Credit != x.Credit || top[g].CloseNet() != x.CloseNet() {
					t.Errorf("%s %v: %s is not the sum of its sub-accounts: %+v vs %+v", org, p, g, top[g], x)
				}
			}
			// The card of every account, and of a sub-account: its closing balance is the sheet's.
			for _, row := range res.All {
				card := lane.Run(t.Context(), ask(recipe.AccountCard, recipe.Filters{PeriodFrom: p[0], PeriodTo: p[1], Organization: org, Account: row.Account}))
				if card.ResultMode == Limited {
					t.Errorf("%s %v card %s: %s", org, p, row.Account, card.Message)
					continue
				}
				c, s := card.Report.Total, *row.Sheet
				last := c.OpenNet()
				if n := len(card.All); n > 0 {
					last = card.All[n-1].Amount
				}
				if last != s.CloseNet() || c.CloseNet() != s.CloseNet() || c.OpenNet() != s.OpenNet() || c.Debit != s.Debit || c.Credit != s.Credit {
					t.Errorf("%s %v %s: card opening %v, turnovers %v/%v, last running %v, closing %v; sheet %+v", org, p, row.Account,
						c.OpenNet(), c.Debit, c.Credit, last, c.CloseNet(), s)
				}
			}
		}
	}
}

// The sheet by counterparty adds up to the account's line: the breakdown loses nothing.
func TestSheetBreakdownAddsUp(t *testing.T) {
	lane, _ := newTestLane(t)
	for _, account := range []string{"60", "62", "62.01", "60.02", "19.03"} {
		for _, detail := range []string{recipe.DetailCounterparty, recipe.DetailContract} {
			res := lane.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2025-07-01", PeriodTo: "2026-03-31", Account: account, Detail: detail, Limit: recipe.MaxLimit}))
			if res.ResultMode == Limited {
				t.Fatalf("%s %s: %s", account, detail, res.Message)
			}
			var sum Turnover
			for _, row := range res.All {
				sum.add(*row.Sheet)
			}
			if sum != res.Report.Total {
				t.Errorf("%s by %s: the lines add up to %+v, the account's total is %+v", account, detail, sum, res.Report.Total)
			}
			if len(res.Limitations) > 0 {
				t.Errorf("%s by %s: limitations %q", account, detail, res.Limitations)
			}
		}
	}
}

// A card longer than one query's rows: 1C's answer is cut, the answer says so, and the
// turnovers and the closing balance still come whole from the balances.
func TestCardCutAtTheRowLimit(t *testing.T) {
	d, _ := demo(t)
	full := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization()})
	cut := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: 60}) // above the catalogs' rows, below the card's
	q := ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Account: "62"})
	want, got := full.Run(t.Context(), q), cut.Run(t.Context(), q)
	if got.ResultMode == Limited || !got.Report.Cut || got.Report.Postings != 60 || want.Report.Cut || len(want.All) <= 60 {
		t.Fatalf("cut: mode %s, report %+v; full cut %v", got.ResultMode, got.Report, want.Report.Cut)
	}
	if got.Report.Total != want.Report.Total {
		t.Errorf("the cut card's balances %+v differ from the full card's %+v", got.Report.Total, want.Report.Total)
	}
	if diff := cmp.Diff(want.All[:60], got.All); diff != "" {
		t.Errorf("the cut card's postings are not the full card's first ones (-full +cut):\n%s", diff)
	}
	text := got.Markdown()
	for _, s := range []string{"показаны первые 60", want.Report.Total.Debit.String(), want.Report.Total.Credit.String(), SideAmount(want.Report.Total.CloseNet())} {
		if !strings.Contains(text, s) {
			t.Errorf("the cut card does not say %q:\n%s", s, text)
		}
	}
	// A card of exactly the limit whose postings add up to the turnovers is whole.
	exact := NewLane(d, Options{Now: fixedNow, Organization: d.MainOrganization(), MaxRows: len(want.All)})
	if res := exact.Run(t.Context(), q); res.Report.Cut || len(res.Limitations) > 0 {
		t.Errorf("a card of exactly %d postings is reported cut: %q", len(want.All), res.Limitations)
	}
}

// A source that fails: the report says 1C is down, and states no figure.
func TestReportSourceDown(t *testing.T) {
	d, _ := demo(t)
	src := &failingReports{Source: d}
	lane := NewLane(src, Options{Now: fixedNow, Organization: d.MainOrganization()})
	for _, q := range []Decomposition{
		ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-03-01", PeriodTo: "2026-03-31"}),
		ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2026-03-01", PeriodTo: "2026-03-31", Account: "51"}),
	} {
		res := lane.Run(t.Context(), q)
		if res.ResultMode != Limited || res.LimitedReason != ReasonExecutionError || strings.Contains(res.Markdown(), "₽") {
			t.Errorf("%s: %s %s\n%s", q.Intent, res.ResultMode, res.LimitedReason, res.Markdown())
		}
	}
}

// failingReports answers the catalogs and fails every report template.
type failingReports struct{ Source }

func (f *failingReports) Query(ctx context.Context, id string, p onec.Params, limit int) (*onec.Result, error) {
	if strings.HasPrefix(id, "address.turnover_sheet") || strings.HasPrefix(id, "address.account_card") {
		return nil, fmt.Errorf("1C is down: %w", context.DeadlineExceeded)
	}
	return f.Source.Query(ctx, id, p, limit)
}

// The sheet offers each account's card for the same period; the button runs it, and the card
// closes at the line's balance. Forged period anchors are refused.
func TestSheetDrillsToCards(t *testing.T) {
	lane, _ := newTestLane(t)
	sheet := lane.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2026-01-01", PeriodTo: "2026-03-31", Organization: "Северный ветер Трейд"}))
	drills := sheet.Drills()
	if len(drills) != maxDrills {
		t.Fatalf("%d drills, want %d: %+v", len(drills), maxDrills, drills)
	}
	for i, d := range drills {
		if len(d.Data) > 64 || !IsDrill(d.Data) {
			t.Errorf("drill %q: bad callback data", d.Data)
		}
		card, err := lane.Drill(t.Context(), d.Data)
		if err != nil {
			t.Fatalf("Drill(%q): %v", d.Data, err)
		}
		row := sheet.Rows[i]
		if card.Intent != recipe.AccountCard || card.Account != row.Account || card.Organization != sheet.Organization ||
			!card.From.Equal(sheet.From) || !card.To.Equal(sheet.To) {
			t.Errorf("Drill(%q) = %s %s %s %v..%v", d.Data, card.Intent, card.Account, card.Organization, card.From, card.To)
			continue
		}
		if card.Report.Total.CloseNet() != row.Sheet.CloseNet() || card.Report.Total.Debit != row.Sheet.Debit {
			t.Errorf("card %s closes at %v with Дт %v; the sheet's line: %+v", row.Account, card.Report.Total.CloseNet(), card.Report.Total.Debit, *row.Sheet)
		}
	}
	org := sheet.OrgRef[:refPrefixLen]
	if want := "b:ac:p20260101:20260331:" + org + ":" + sheet.Rows[0].Account; drills[0].Data != want {
		t.Errorf("data %q, want %q", drills[0].Data, want)
	}
	for _, forged := range []string{"b:ac:p20260401:20260331:" + org + ":62", "b:ac:p2026:20260331:" + org + ":62", "b:ac:p20260101:20260331:" + org + ":",
		"b:ac:p20260101:20260331:9:62", "b:ac:p20260101:20260331:000000000000:62", "b:op:p20260101:20260331:" + org + ":62",
		"a:11:p20260101:20260331:1:62"} {
		if _, err := lane.Drill(t.Context(), forged); err == nil {
			t.Errorf("Drill(%q) accepted forged data", forged)
		}
	}
}

// «осв по 62 по договору …» is that contract's line, with its own total, never the other
// contracts of its counterparty; a contract without figures on the account says so; the card,
// whose templates have no contract, says it cannot narrow to one.
func TestSheetOfOneContract(t *testing.T) {
	l, _ := newTestLane(t)
	all := l.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Account: "62", Counterparty: "Альфа", Detail: recipe.DetailContract, Limit: recipe.MaxLimit}))
	if len(all.All) < 2 {
		t.Fatalf("Альфа's contracts on 62: %d lines, want several to choose from", len(all.All))
	}
	want := all.All[0]
	one := l.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Account: "62", Contract: want.DealID, Limit: recipe.MaxLimit}))
	if len(one.All) != 1 || one.All[0].DealID != want.DealID || *one.All[0].Sheet != *want.Sheet || one.Report.Total != *want.Sheet {
		t.Fatalf("one contract: %+v, total %+v; want the line %+v", one.All, one.Report, want)
	}
	if md := one.Markdown(); !strings.Contains(md, "по одному договору") {
		t.Errorf("the answer does not say its total is the contract's:\n%s", md)
	}
	noAccount := l.Run(t.Context(), ask(recipe.TurnoverSheet, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Contract: want.DealID}))
	if noAccount.ResultMode != Limited || strings.Contains(noAccount.Markdown(), "₽") {
		t.Errorf("a contract without an account: %s\n%s", noAccount.ResultMode, noAccount.Markdown())
	}
	card := l.Run(t.Context(), ask(recipe.AccountCard, recipe.Filters{PeriodFrom: "2025-01-01", PeriodTo: "2025-12-31", Account: "62", Contract: want.DealID}))
	if card.ResultMode != Limited || strings.Contains(card.Markdown(), "₽") {
		t.Errorf("a card of one contract: %s\n%s", card.ResultMode, card.Markdown())
	}
}
