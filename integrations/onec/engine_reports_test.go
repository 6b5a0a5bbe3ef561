package onec_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
)

// --- the oracle of the reports, from shared/demo-ledger/README.md ---

// periodFigures are the net opening balance (at the end of the day before the period) and the
// period's debit and credit turnovers of one cell.
type periodFigures struct{ Open, Dt, Kt onec.Kopecks }

func (f periodFigures) Close() onec.Kopecks { return f.Open + f.Dt - f.Kt }

// cell is an account with a counterparty and a contract ("" where the side has none).
type cell struct{ Acc, Cp, Ctr string }

// periodCells loops over every movement: a posted document's, of the organization, with the
// account token on a side; before the first day it is the opening balance, from the first to
// the end of the last day a turnover. keep filters by the side.
func (o *oracle) periodCells(org, token string, from, to time.Time, keep func(side) bool) map[cell]periodFigures {
	out := map[cell]periodFigures{}
	dayBefore := from.AddDate(0, 0, -1)
	for i, m := range o.l.Movements {
		if !o.counts(m, org, to) {
			continue
		}
		for _, s := range o.sides[i] {
			if !accountMatches(s.acc, token) || !keep(s) {
				continue
			}
			k := cell{s.acc, s.cp, s.ctr}
			f := out[k]
			switch {
			case onOrBefore(m.Period.Time, dayBefore):
				f.Open += s.sign * m.Amount
			case s.sign > 0:
				f.Dt += m.Amount
			default:
				f.Kt += m.Amount
			}
			out[k] = f
		}
	}
	return out
}

// sheetFigures are the six columns of a sheet row.
type sheetFigures struct{ OpenDt, OpenKt, Dt, Kt, CloseDt, CloseKt onec.Kopecks }

func (s *sheetFigures) add(f periodFigures) {
	if f.Open > 0 {
		s.OpenDt += f.Open
	} else {
		s.OpenKt -= f.Open
	}
	if c := f.Close(); c > 0 {
		s.CloseDt += c
	} else {
		s.CloseKt -= c
	}
	s.Dt += f.Dt
	s.Kt += f.Kt
}

// sheetOracle groups the cells by key, splitting each cell's net by its sign.
func sheetOracle(cells map[cell]periodFigures, key func(cell) string) map[string]sheetFigures {
	out := map[string]sheetFigures{}
	for c, f := range cells {
		if f == (periodFigures{}) {
			continue
		}
		s := out[key(c)]
		s.add(f)
		out[key(c)] = s
	}
	return out
}

func sheetRowFigures(t testing.TB, row map[string]any) sheetFigures {
	t.Helper()
	return sheetFigures{money(t, row["НачальныйОстатокДт"]), money(t, row["НачальныйОстатокКт"]), money(t, row["ОборотДт"]),
		money(t, row["ОборотКт"]), money(t, row["КонечныйОстатокДт"]), money(t, row["КонечныйОстатокКт"])}
}

func periodParams(org string, from, to string, account string) map[string]any {
	code, mask := account, account+".%"
	if account == "" {
		code, mask = "", "%"
	}
	return map[string]any{"НачалоПериода": from + "T00:00:00", "КонецПериода": to + "T23:59:59",
		"Организация": ref(onec.TypeOrganization, org), "СчетКод": code, "СчетМаска": mask, "Контрагент": nil}
}

var reportPeriods = [][2]string{
	{"2025-01-01", "2025-01-31"}, {"2025-03-01", "2025-03-31"}, {"2025-01-01", "2025-12-31"},
	{"2026-01-01", "2026-03-31"}, {"2026-03-01", "2026-03-31"}, {"2024-12-31", "2024-12-31"}, {"2026-04-01", "2026-04-30"},
}

// The sheet by account equals the oracle for every period, both organizations and the whole
// chart, an account with its sub-accounts, and one sub-account; and it balances.
func TestTurnoverSheetByAccount(t *testing.T) {
	l, d, o := fixture(t)
	for _, org := range l.Organizations {
		for _, p := range reportPeriods {
			for _, account := range []string{"62", "60.01", "51", "19.03", "90", "000"} {
				t.Run(fmt.Sprintf("%s/%s..%s/%q", org.Name, p[0], p[1], account), func(t *testing.T) {
					from, to := day(t, p[0]), day(t, p[1])
					want := sheetOracle(o.periodCells(org.Ref, account, from, to, func(side) bool { return true }),
						func(c cell) string { return c.Acc })
					rows := run(t, d, "address.turnover_sheet.by_account", periodParams(org.Ref, p[0], p[1], account))
					got := map[string]sheetFigures{}
					var prev string
					for _, r := range rows {
						acc := r["Счет"].(string)
						if acc <= prev {
							t.Errorf("rows not ordered by account: %s after %s", acc, prev)
						}
						prev = acc
						if r["Забалансовый"] != false {
							t.Errorf("%s: Забалансовый = %v", acc, r["Забалансовый"])
						}
						f := sheetRowFigures(t, r)
						got[acc] = f
						// closing = opening + debit turnover − credit turnover, on the net.
						if f.CloseDt-f.CloseKt != f.OpenDt-f.OpenKt+f.Dt-f.Kt {
							t.Errorf("%s: closing %v − %v ≠ opening %v − %v + %v − %v", acc, f.CloseDt, f.CloseKt, f.OpenDt, f.OpenKt, f.Dt, f.Kt)
						}
					}
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("sheet (-oracle +demo):\n%s", diff)
					}
				})
			}
		}
	}
}

// The sheet by counterparty and by contract: each cell (account, counterparty, contract) is
// split by its own sign, so a customer's advance on 62.02 and its debt on 62.01 both show.
func TestTurnoverSheetBySubconto(t *testing.T) {
	l, d, o := fixture(t)
	org := l.DefaultOrganization().Ref
	for _, p := range reportPeriods {
		for _, account := range []string{"62", "60", "62.02", "76", "19.03", "51"} {
			cells := o.periodCells(org, account, day(t, p[0]), day(t, p[1]), func(side) bool { return true })
			for _, byContract := range []bool{false, true} {
				id := "address.turnover_sheet.by_counterparty"
				key := func(c cell) string { return c.Cp }
				if byContract {
					id = "address.turnover_sheet.by_contract"
					key = func(c cell) string { return c.Cp + "/" + c.Ctr }
				}
				t.Run(fmt.Sprintf("%s..%s/%s/%s", p[0], p[1], account, id), func(t *testing.T) {
					want := sheetOracle(cells, key)
					rows := run(t, d, id, periodParams(org, p[0], p[1], account))
					got := map[string]sheetFigures{}
					var names []string
					for _, r := range rows {
						cp := uuidOf(t, r["Контрагент"], onec.TypeCounterparty)
						k := cp
						name, _ := r["КонтрагентНаименование"].(string)
						if cp != "" && name == "" || cp == "" && r["КонтрагентНаименование"] != onec.WireNull { // a query's NULL is ""
							t.Errorf("row %v: КонтрагентНаименование %#v", cp, r["КонтрагентНаименование"])
						}
						if byContract {
							k += "/" + uuidOf(t, r["Договор"], onec.TypeContract)
						}
						if _, dup := got[k]; dup {
							t.Errorf("two rows for %s", k)
						}
						got[k] = sheetRowFigures(t, r)
						names = append(names, name)
					}
					if !slices.IsSorted(names) {
						t.Errorf("rows not ordered by КонтрагентНаименование: %q", names)
					}
					if diff := gocmp.Diff(want, got); diff != "" {
						t.Errorf("sheet (-oracle +demo):\n%s", diff)
					}
				})
			}
		}
	}
}

// The whole chart's sheet (СчетМаска "%"): accountMatches needs a token, so the oracle takes
// every top-level account of the register. Double entry: over the whole chart the debit and
// credit columns total the same, for the opening balance, the turnovers and the closing one.
func TestTurnoverSheetWholeChart(t *testing.T) {
	l, d, o := fixture(t)
	tops := map[string]bool{}
	for _, m := range l.Movements {
		for _, acc := range []string{m.AccountDr, m.AccountCr} {
			top, _, _ := cutDot(acc)
			tops[top] = true
		}
	}
	for _, org := range l.Organizations {
		for _, p := range reportPeriods {
			want := map[string]sheetFigures{}
			for top := range tops {
				for acc, f := range sheetOracle(o.periodCells(org.Ref, top, day(t, p[0]), day(t, p[1]), func(side) bool { return true }),
					func(c cell) string { return c.Acc }) {
					want[acc] = f
				}
			}
			got := map[string]sheetFigures{}
			var total sheetFigures
			for _, r := range run(t, d, "address.turnover_sheet.by_account", periodParams(org.Ref, p[0], p[1], "")) {
				f := sheetRowFigures(t, r)
				got[r["Счет"].(string)] = f
				total = sheetFigures{total.OpenDt + f.OpenDt, total.OpenKt + f.OpenKt, total.Dt + f.Dt, total.Kt + f.Kt,
					total.CloseDt + f.CloseDt, total.CloseKt + f.CloseKt}
			}
			if total.OpenDt != total.OpenKt || total.Dt != total.Kt || total.CloseDt != total.CloseKt || total.Dt == 0 && p[0] < "2026-04" {
				t.Errorf("%s %v: double entry broken: total %+v", org.Name, p, total)
			}
			if diff := gocmp.Diff(want, got); diff != "" {
				t.Errorf("%s %v: whole chart (-oracle +demo):\n%s", org.Name, p, diff)
			}
		}
	}
}

func cutDot(code string) (string, string, bool) {
	for i := range code {
		if code[i] == '.' {
			return code[:i], code[i+1:], true
		}
	}
	return code, "", false
}

// The card: the movements of the period, oldest first, with the balances of the period; its
// last running balance is the sheet's closing balance, with or without a counterparty.
func TestAccountCard(t *testing.T) {
	l, d, o := fixture(t)
	org := l.DefaultOrganization().Ref
	byName := map[string]string{}
	for _, cp := range l.Counterparties {
		byName[cp.Name] = cp.Ref
	}
	tests := []struct {
		account, cp string
		from, to    string
	}{
		{"51", "", "2026-04-01", "2026-04-30"},
		{"60", "", "2026-03-01", "2026-03-31"},
		{"60", "ООО «Гранит»", "2026-03-01", "2026-03-31"},
		{"62", "ООО «Альфа»", "2025-01-01", "2025-12-31"},
		{"62.01", "АО «Вектор»", "2026-01-01", "2026-03-31"},
		{"62", "", "2024-12-31", "2024-12-31"}, // the opening balances' own day
		{"76", "", "2026-01-01", "2026-03-31"}, // no records: zeros, no rows
		{"60", "ООО «Альфа»", "2026-03-01", "2026-03-31"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%s/%s..%s", tt.account, tt.cp, tt.from, tt.to), func(t *testing.T) {
			p := periodParams(org, tt.from, tt.to, tt.account)
			p["Контрагент"] = nullable(onec.TypeCounterparty, byName[tt.cp])
			keep := func(s side) bool { return tt.cp == "" || s.cp == byName[tt.cp] }
			var want periodFigures
			for _, f := range o.periodCells(org, tt.account, day(t, tt.from), day(t, tt.to), keep) {
				want.Open, want.Dt, want.Kt = want.Open+f.Open, want.Dt+f.Dt, want.Kt+f.Kt
			}
			bal := run(t, d, "address.account_card.balances", p)
			if len(bal) != 1 {
				t.Fatalf("balances: %d rows, want 1", len(bal))
			}
			got := periodFigures{money(t, bal[0]["НачальноеСальдо"]), money(t, bal[0]["ОборотДт"]), money(t, bal[0]["ОборотКт"])}
			if got != want || money(t, bal[0]["КонечноеСальдо"]) != want.Close() {
				t.Errorf("balances %+v closing %v, oracle %+v closing %v", got, bal[0]["КонечноеСальдо"], want, want.Close())
			}
			rows := run(t, d, "address.account_card.movements", p)
			running, dtSum, ktSum := want.Open, onec.Kopecks(0), onec.Kopecks(0)
			var prev time.Time
			for _, r := range rows {
				period, err := time.Parse("2006-01-02T15:04:05Z", r["Период"].(string)) // the toolkit's form
				if err != nil {
					t.Fatal(err)
				}
				if period.Before(prev) || period.Before(day(t, tt.from)) || period.After(day(t, tt.to).Add(24*time.Hour-time.Second)) {
					t.Errorf("movement at %s: out of order or out of the period", period)
				}
				prev = period
				amount := money(t, r["Сумма"])
				onDt := accountMatches(r["СчетДт"].(string), tt.account) && (tt.cp == "" || uuidOf(t, r["КонтрагентДт"], onec.TypeCounterparty) == byName[tt.cp])
				onKt := accountMatches(r["СчетКт"].(string), tt.account) && (tt.cp == "" || uuidOf(t, r["КонтрагентКт"], onec.TypeCounterparty) == byName[tt.cp])
				if !onDt && !onKt {
					t.Errorf("a movement off the account: %v", r)
				}
				if onDt {
					running += amount
					dtSum += amount
				}
				if onKt {
					running -= amount
					ktSum += amount
				}
			}
			if dtSum != want.Dt || ktSum != want.Kt || running != want.Close() {
				t.Errorf("movements: Дт %v Кт %v, last running balance %v; oracle Дт %v Кт %v closing %v", dtSum, ktSum, running, want.Dt, want.Kt, want.Close())
			}
			// The card's closing balance is the sheet's: the account's row (net) when no
			// counterparty is given.
			if tt.cp == "" {
				var sheet onec.Kopecks
				for _, r := range run(t, d, "address.turnover_sheet.by_account", periodParams(org, tt.from, tt.to, tt.account)) {
					f := sheetRowFigures(t, r)
					sheet += f.CloseDt - f.CloseKt
				}
				if sheet != running {
					t.Errorf("card's last running balance %v ≠ the sheet's closing balance %v", running, sheet)
				}
			}
		})
	}
}

// The period's ends: a record at 00:00:00 of the first day is a turnover, not the opening
// balance; one at 23:59:59 of the last day is in the period. The opening balances of
// 31.12.2024 23:59:59 are the turnovers of that day and the opening balance of 01.01.2025.
func TestReportPeriodBoundaries(t *testing.T) {
	l, d, _ := fixture(t)
	org := l.DefaultOrganization().Ref
	var opening onec.Kopecks // the credit of 000 on 31.12.2024 is the balances entered
	for _, m := range l.Movements {
		if m.OrganizationRef == org && m.Period.Format(time.DateOnly) == "2024-12-31" && m.AccountDr == "000" {
			opening += m.Amount
		}
	}
	if opening == 0 {
		t.Fatal("no opening balances on 31.12.2024 23:59:59 in the demo ledger")
	}
	dayRows := run(t, d, "address.turnover_sheet.by_account", periodParams(org, "2024-12-31", "2024-12-31", "000"))
	nextRows := run(t, d, "address.turnover_sheet.by_account", periodParams(org, "2025-01-01", "2025-01-01", "000"))
	if len(dayRows) != 1 || len(nextRows) != 1 {
		t.Fatalf("rows of 000: %d on 31.12.2024, %d on 01.01.2025", len(dayRows), len(nextRows))
	}
	if f := sheetRowFigures(t, dayRows[0]); f.Dt != opening || f.OpenDt != 0 || f.OpenKt != 0 {
		t.Errorf("31.12.2024: %+v, want the debit turnover %v and no opening balance", f, opening)
	}
	f := sheetRowFigures(t, nextRows[0])
	if f.Dt != 0 || f.Kt != 0 || f.OpenDt-f.OpenKt != sheetRowFigures(t, dayRows[0]).CloseDt-sheetRowFigures(t, dayRows[0]).CloseKt {
		t.Errorf("01.01.2025: %+v, want the closing balance of 31.12.2024 as its opening and no turnovers", f)
	}
}

// The optional counterparty of the card: null is no filter; a counterparty without records,
// one of another type and an unknown one give a zero row and no movements, as in 1C.
func TestAccountCardCounterpartyGuard(t *testing.T) {
	l, d, _ := fixture(t)
	org := l.DefaultOrganization().Ref
	p := periodParams(org, "2026-03-01", "2026-03-31", "62")
	p["Контрагент"] = nil
	all := run(t, d, "address.account_card.movements", p)
	if len(all) == 0 {
		t.Fatal("no movements of 62 in March 2026")
	}
	for _, v := range []any{
		ref(onec.TypeCounterparty, "00000000-0000-0000-0000-000000000000"),
		ref(onec.TypeContract, l.Contracts[0].Ref),
	} {
		p["Контрагент"] = v
		if rows := run(t, d, "address.account_card.movements", p); len(rows) != 0 {
			t.Errorf("Контрагент %v: %d movements, want none", v, len(rows))
		}
		bal := run(t, d, "address.account_card.balances", p)
		if len(bal) != 1 || money(t, bal[0]["НачальноеСальдо"]) != 0 || money(t, bal[0]["ОборотДт"]) != 0 {
			t.Errorf("Контрагент %v: balances %v, want one zero row", v, bal)
		}
	}
}

// The card of a busy account is cut at the limit, oldest first: the first rows are the same.
func TestAccountCardLimit(t *testing.T) {
	l, d, _ := fixture(t)
	p := periodParams(l.DefaultOrganization().Ref, "2025-01-01", "2025-12-31", "62")
	p["Контрагент"] = nil
	q, _ := onec.Query("address.account_card.movements")
	full, err := d.Execute(context.Background(), q, p, onec.MaxProxyRows)
	if err != nil {
		t.Fatal(err)
	}
	cut, err := d.Execute(context.Background(), q, p, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(full) <= 5 || len(cut) != 5 {
		t.Fatalf("%d rows in full, %d cut", len(full), len(cut))
	}
	if diff := gocmp.Diff(full[:5], cut); diff != "" {
		t.Errorf("the cut card is not the first rows of the full one:\n%s", diff)
	}
}

// Rows of the report templates as the Demo returns them, for review: go test -update rewrites
// testdata/demo_report_*.golden.json.
func TestReportGolden(t *testing.T) {
	l, d, _ := fixture(t)
	byName := map[string]string{}
	for _, cp := range l.Counterparties {
		byName[cp.Name] = cp.Ref
	}
	org := l.DefaultOrganization().Ref
	card := periodParams(org, "2026-03-01", "2026-03-31", "60")
	card["Контрагент"] = ref(onec.TypeCounterparty, byName["ООО «Гранит»"])
	tests := []struct {
		name   string
		id     string
		params map[string]any
		limit  int
	}{
		{"sheet_2026q1", "address.turnover_sheet.by_account", periodParams(org, "2026-01-01", "2026-03-31", ""), 100},
		{"sheet_62_by_counterparty_2026-03", "address.turnover_sheet.by_counterparty", periodParams(org, "2026-03-01", "2026-03-31", "62"), 4},
		{"sheet_60_by_contract_2026-03", "address.turnover_sheet.by_contract", periodParams(org, "2026-03-01", "2026-03-31", "60"), 4},
		{"card_60_granit_2026-03", "address.account_card.movements", card, 100},
		{"card_60_granit_2026-03_balances", "address.account_card.balances", card, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			demoGolden(t, d, "demo_report_"+tt.name+".golden.json", tt.id, tt.params, tt.limit)
		})
	}
}

// The sheet of one counterparty (the records whose Субконто1 is it): by account over the whole
// chart and by contract on one account; the guard of the null counterparty is no filter, and an
// unknown counterparty gives no rows.
func TestTurnoverSheetOfCounterparty(t *testing.T) {
	l, d, o := fixture(t)
	org := l.DefaultOrganization().Ref
	byName := map[string]string{}
	for _, cp := range l.Counterparties {
		byName[cp.Name] = cp.Ref
	}
	for _, name := range []string{"ООО «Гранит»", "ООО «Альфа Поставка»", "ООО «Универсал»", "АО «Вектор»"} {
		cp := byName[name]
		keep := func(s side) bool { return s.cp == cp }
		for _, p := range reportPeriods[:5] {
			t.Run(name+"/"+p[0], func(t *testing.T) {
				params := periodParams(org, p[0], p[1], "")
				params["Контрагент"] = ref(onec.TypeCounterparty, cp)
				want := map[string]sheetFigures{}
				for _, top := range []string{"60", "62", "76", "19"} {
					for acc, f := range sheetOracle(o.periodCells(org, top, day(t, p[0]), day(t, p[1]), keep), func(c cell) string { return c.Acc }) {
						want[acc] = f
					}
				}
				got := map[string]sheetFigures{}
				for _, r := range run(t, d, "address.turnover_sheet.by_account", params) {
					got[r["Счет"].(string)] = sheetRowFigures(t, r)
				}
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Errorf("by account (-oracle +demo):\n%s", diff)
				}
				params = periodParams(org, p[0], p[1], "62")
				params["Контрагент"] = ref(onec.TypeCounterparty, cp)
				want = sheetOracle(o.periodCells(org, "62", day(t, p[0]), day(t, p[1]), keep), func(c cell) string { return c.Ctr })
				got = map[string]sheetFigures{}
				for _, r := range run(t, d, "address.turnover_sheet.by_contract", params) {
					if uuidOf(t, r["Контрагент"], onec.TypeCounterparty) != cp {
						t.Errorf("a row of another counterparty: %v", r["Контрагент"])
					}
					got[uuidOf(t, r["Договор"], onec.TypeContract)] = sheetRowFigures(t, r)
				}
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Errorf("62 by contract (-oracle +demo):\n%s", diff)
				}
			})
		}
	}
	params := periodParams(org, "2026-01-01", "2026-03-31", "")
	params["Контрагент"] = ref(onec.TypeCounterparty, "00000000-0000-0000-0000-000000000000")
	for _, id := range []string{"address.turnover_sheet.by_account", "address.turnover_sheet.by_counterparty", "address.turnover_sheet.by_contract"} {
		if rows := run(t, d, id, params); len(rows) != 0 {
			t.Errorf("%s of an unknown counterparty: %d rows, want none", id, len(rows))
		}
	}
}
