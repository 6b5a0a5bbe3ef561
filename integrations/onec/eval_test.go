package onec

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"
)

// The demo runs the text it is sent: a template edited in a test copy answers what the edited
// text says. Each case mutates one clause and checks the answer against what the new text
// means, computed from the ledger; no per-template code could follow these edits.
func TestEvaluatorFollowsTheText(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	ctx := context.Background()
	runText := func(t *testing.T, tpl *template, text string, params map[string]any) []map[string]any {
		t.Helper()
		rows, err := d.query(ctx, tpl, text, params, MaxDemoRows)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	counterpartyOf := func(r map[string]any) string { ref, _ := RefOf(r["Контрагент"]); return ref.UUID }

	// The account conditions of Остатки, wherever the template reads it (its balances and the
	// open documents it counts), whatever their indentation.
	accountCondition := regexp.MustCompile(`Счет\.Код = &СчетКод\s+ИЛИ Счет\.Код ПОДОБНО &СчетМаска`)
	mutateAccount := func(t *testing.T, id, repl string) (*template, string) {
		t.Helper()
		tpl := templateByID[id]
		if !accountCondition.MatchString(tpl.text) {
			t.Fatalf("%s has no account condition", id)
		}
		return tpl, accountCondition.ReplaceAllLiteralString(tpl.text, repl)
	}
	t.Run("the account condition of Остатки names 60.01 instead of the parameters", func(t *testing.T) {
		tpl, text := mutateAccount(t, idBalanceSnapshot, `Счет.Код = "60.01"`)
		before, after := runText(t, tpl, tpl.text, p), runText(t, tpl, text, p)
		if len(after) == 0 || len(before) == 0 {
			t.Fatalf("rows: %d before, %d after", len(before), len(after))
		}
		if got, want := netOf(t, after, "СуммаОстатокДт", "СуммаОстатокКт"), rawBalance(d.l, "60.01", p); got != want {
			t.Errorf("60.01 net %v, raw ledger %v", got, want)
		}
		if got, was := netOf(t, after, "СуммаОстатокДт", "СуммаОстатокКт"), netOf(t, before, "СуммаОстатокДт", "СуммаОстатокКт"); got == was {
			t.Errorf("the net is %v with either condition", got)
		}
	})
	t.Run("В ИЕРАРХИИ over the account: 62 and its sub-accounts", func(t *testing.T) {
		tpl, text := mutateAccount(t, idBalanceSnapshot,
			`Счет В ИЕРАРХИИ (ВЫБРАТЬ С.Ссылка ИЗ ПланСчетов.Хозрасчетный КАК С ГДЕ С.Код = "62")`)
		if diff := rowsDiff(runText(t, tpl, tpl.text, p), runText(t, tpl, text, p)); diff != "" {
			t.Errorf("В ИЕРАРХИИ (62) differs from Код = 62 ИЛИ ПОДОБНО 62.%%: %s", diff)
		}
	})
	t.Run("the counterparty condition of Обороты dropped", func(t *testing.T) {
		tpl, text := mutate(t, idOpenItemsByParty, "\n\t\t\t\t\tИ Субконто1 = &Контрагент", "")
		params := with(p, "Договор", nil)
		before, after := runText(t, tpl, tpl.text, params), runText(t, tpl, text, params)
		others := 0
		for _, r := range after {
			if counterpartyOf(r) != p["Контрагент"].(map[string]any)["УникальныйИдентификатор"] {
				others++
			}
		}
		if others == 0 || len(after) <= len(before) {
			t.Errorf("without the condition: %d rows (%d of other counterparties), %d with it; want more, of others", len(after), others, len(before))
		}
	})
	t.Run("Субконто2 В (&Договор) reads as Субконто2 = &Договор", func(t *testing.T) {
		tpl, text := mutate(t, idOpenItemsByParty, "ИЛИ Субконто2 = &Договор", "ИЛИ Субконто2 В (&Договор)")
		if diff := rowsDiff(runText(t, tpl, tpl.text, p), runText(t, tpl, text, p)); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("a contract compared with the settlement document matches nothing", func(t *testing.T) {
		tpl, text := mutate(t, idOpenItemsByParty, "ИЛИ Субконто2 = &Договор", "ИЛИ Субконто3 = &Договор")
		if rows := runText(t, tpl, text, p); len(rows) != 0 {
			t.Errorf("%d rows; want none", len(rows))
		}
	})
	t.Run("documents in ascending date order", func(t *testing.T) {
		tpl, text := mutate(t, idDocumentsByParty, "Дата УБЫВ,", "Дата,")
		rows := runText(t, tpl, text, p)
		if len(rows) < 2 || rows[0]["Дата"].(string) > rows[len(rows)-1]["Дата"].(string) {
			t.Errorf("first %v, last %v; want ascending", rows[0]["Дата"], rows[len(rows)-1]["Дата"])
		}
	})
	first, last := rawPostingBounds(d.l, "")
	first62, _ := rawPostingBounds(d.l, "62.01")
	for _, tt := range []struct {
		name, old, repl string
		want            []string
	}{
		{"МАКСИМУМ: the latest posting", "МИНИМУМ(", "МАКСИМУМ(", []string{last}},
		{"the first posting on 62.01", "Хозрасчетный.Активность", "Хозрасчетный.СчетДт.Код = \"62.01\"", []string{first62}},
		{"ДвиженияССубконто without bounds reads every record", "РегистрБухгалтерии.Хозрасчетный КАК",
			"РегистрБухгалтерии.Хозрасчетный.ДвиженияССубконто(, , , , ) КАК", []string{first}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tpl, text := mutate(t, idFirstPosting, tt.old, tt.repl)
			var got []string
			for _, r := range runText(t, tpl, text, nil) {
				got = append(got, r["Период"].(string))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Период = %v, want %v", got, tt.want)
			}
		})
	}
}

// Each template's figures, run by the evaluator, against a computation over the raw files:
// balances (Остатки), turnovers (Обороты), the account card (ОстаткиИОбороты and
// ДвиженияССубконто).
func TestEvaluatorAgainstRawLedger(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	p60 := with(p, "СчетКод", "60", "СчетМаска", "60.%", "Контрагент", nil, "НачалоПериода", "2025-04-01T00:00:00",
		"КонецПериода", "2025-06-30T23:59:59")
	for _, tt := range []struct {
		id     string
		params map[string]any
		check  func(t *testing.T, rows []map[string]any, params map[string]any)
	}{
		{idBalanceSnapshot, p, func(t *testing.T, rows []map[string]any, params map[string]any) {
			if got, want := netOf(t, rows, "СуммаОстатокДт", "СуммаОстатокКт"), rawBalance(d.l, "62", params); got != want {
				t.Errorf("net %v, raw %v", got, want)
			}
		}},
		{idReceivables, with(p, "НаДату", "2025-07-01T00:00:00"), func(t *testing.T, rows []map[string]any, params map[string]any) {
			if got, want := netOf(t, rows, "СуммаОстатокДт", "СуммаОстатокКт"), rawBalance(d.l, "62", params); got != want {
				t.Errorf("net %v, raw %v", got, want)
			}
		}},
		{idOpenItemsByParty, with(p, "Договор", nil), func(t *testing.T, rows []map[string]any, params map[string]any) {
			// Only the open settlement documents of 60, 62, 76 come back, each with its balance.
			got := map[[2]string]Kopecks{}
			for _, r := range rows {
				dt, _ := AmountOf(r["СуммаОстатокДт"])
				kt, _ := AmountOf(r["СуммаОстатокКт"])
				doc, _ := r["ДокументРасчетов"].(map[string]any)
				id, _ := doc["УникальныйИдентификатор"].(string)
				got[[2]string{r["Счет"].(string), id}] += dt - kt
			}
			if diff := gocmp.Diff(rawOpenItems(d.l, params), got); diff != "" {
				t.Errorf("open items (-raw +template):\n%s", diff)
			}
		}},
		{idCardBalances, p60, func(t *testing.T, rows []map[string]any, params map[string]any) {
			open, dt, kt := rawCard(d.l, params)
			want := []Kopecks{open, dt, kt, open + dt - kt}
			for i, col := range []string{"НачальноеСальдо", "ОборотДт", "ОборотКт", "КонечноеСальдо"} {
				if got := sumOf(t, rows, col); got != want[i] {
					t.Errorf("%s %v, raw %v", col, got, want[i])
				}
			}
		}},
		{idCardMovements, p60, func(t *testing.T, rows []map[string]any, params map[string]any) {
			_, dt, kt := rawCard(d.l, params)
			var got Kopecks
			for _, r := range rows {
				a, _ := AmountOf(r["Сумма"])
				if like(r["СчетДт"].(string), "60%") {
					got += a
				}
				if like(r["СчетКт"].(string), "60%") {
					got -= a
				}
			}
			if got != dt-kt {
				t.Errorf("card net %v, raw %v", got, dt-kt)
			}
		}},
	} {
		t.Run(tt.id, func(t *testing.T) {
			tpl := templateByID[tt.id]
			rows, err := d.query(context.Background(), tpl, tpl.text, tt.params, MaxDemoRows)
			if err != nil || len(rows) == 0 {
				t.Fatalf("%d rows, %v", len(rows), err)
			}
			tt.check(t, rows, tt.params)
		})
	}
}

// What the evaluator does not execute it refuses, naming the construct.
func TestEvaluatorRefusesUnsupported(t *testing.T) {
	d := standin(t)
	p := demoParams(d)
	for _, tt := range []struct {
		name, id, old, repl, want string
	}{
		{"a right join", idCatalogAccounts, "ЛЕВОЕ СОЕДИНЕНИЕ ПланСчетов.Хозрасчетный.ВидыСубконто КАК Субконто3",
			"ПРАВОЕ СОЕДИНЕНИЕ ПланСчетов.Хозрасчетный.ВидыСубконто КАК Субконто3", "ПРАВОЕ СОЕДИНЕНИЕ"},
		{"СРЕДНЕЕ", idOpenContracts, "СУММА(Ост.СуммаОстатокДт)", "СРЕДНЕЕ(Ост.СуммаОстатокДт)", "СРЕДНЕЕ"},
		{"a division", idCardBalances, "ЕСТЬNULL(СУММА(Строки.ОборотДт), 0) КАК", "ЕСТЬNULL(СУММА(Строки.ОборотДт), 0) / 2 КАК", "деление"},
		{"an unknown function", idCatalogOrgs, "Организации.ИНН КАК ИНН", "ПОДСТРОКА(Организации.ИНН, 1, 4) КАК ИНН", "функция ПОДСТРОКА"},
		{"ВЫРАЗИТЬ", idCatalogOrgs, "Организации.ИНН КАК ИНН", "ВЫРАЗИТЬ(Организации.ИНН КАК Строка(4)) КАК ИНН", "ВЫРАЗИТЬ"},
		{"a periodicity", idCardBalances, "&КонецПериода,\n\t\t\t\t,", "&КонецПериода,\n\t\t\t\tМесяц,",
			"Периодичность"},
		{"ИТОГИ", idCatalogOrgs, "УПОРЯДОЧИТЬ ПО\n\tНаименование", "УПОРЯДОЧИТЬ ПО\n\tНаименование\nИТОГИ ПО\n\tНаименование", "ИТОГИ"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tpl, text := mutate(t, tt.id, tt.old, tt.repl)
			rows, err := d.query(context.Background(), tpl, text, p, 100)
			var qe *QueryError
			if !errors.As(err, &qe) || !strings.Contains(qe.Message, tt.want) || !strings.HasPrefix(qe.Message, "{(") {
				t.Fatalf("query = %d rows, %v; want a positioned QueryError naming %q", len(rows), err, tt.want)
			}
		})
	}
}

// rawPostings are the records of posted documents, straight from the files.
func rawPostings(l *Ledger) []Movement {
	posted := map[string]bool{}
	for _, doc := range l.Documents {
		posted[doc.Ref] = doc.Posted
	}
	var out []Movement
	for _, m := range l.Movements {
		if p, ok := posted[m.RecorderRef]; !ok || p {
			out = append(out, m)
		}
	}
	return out
}

func rawPostingBounds(l *Ledger, accountDr string) (first, last string) {
	var lo, hi time.Time
	for _, m := range rawPostings(l) {
		if accountDr != "" && m.AccountDr != accountDr {
			continue
		}
		if lo.IsZero() || m.Period.Before(lo) {
			lo = m.Period.Time
		}
		if m.Period.After(hi) {
			hi = m.Period.Time
		}
	}
	return WireDate(lo.Unix()), WireDate(hi.Unix())
}

func paramUUID(p map[string]any, name string) string {
	m, _ := p[name].(map[string]any)
	s, _ := m["УникальныйИдентификатор"].(string)
	return s
}

func paramTime(t string) time.Time {
	v, _ := time.Parse(dateTimeLayout, t)
	return v
}

// matches: the account code is the token or one of its sub-accounts (README «Account match»).
func matches(code, token string) bool { return code == token || strings.HasPrefix(code, token+".") }

// rawBalance is the net (Дт − Кт) of the organization's records before НаДату on the account.
func rawBalance(l *Ledger, token string, p map[string]any) Kopecks {
	org, asOf := paramUUID(p, "Организация"), paramTime(p["НаДату"].(string))
	var net Kopecks
	for _, m := range rawPostings(l) {
		if m.OrganizationRef != org || !m.Period.Before(asOf) {
			continue
		}
		if matches(m.AccountDr, token) {
			net += m.Amount
		}
		if matches(m.AccountCr, token) {
			net -= m.Amount
		}
	}
	return net
}

// rawOpenItems are the non-zero balances before НаДату per settlement account (60, 62, 76 and
// their sub-accounts) and settlement document of the sides that carry the counterparty and a
// contract: BP's open items of a counterparty, computed from the raw records.
func rawOpenItems(l *Ledger, p map[string]any) map[[2]string]Kopecks {
	org, cp, asOf := paramUUID(p, "Организация"), paramUUID(p, "Контрагент"), paramTime(p["НаДату"].(string))
	out := map[[2]string]Kopecks{}
	add := func(acc string, subs []Subconto, amount Kopecks) {
		if !matches(acc, "60") && !matches(acc, "62") && !matches(acc, "76") {
			return
		}
		var party, contract bool
		doc := ""
		for _, s := range subs {
			switch s.Kind {
			case "Контрагенты":
				party = s.Ref == cp
			case "ДоговорыКонтрагентов":
				contract = s.Ref != ""
			case "ДокументыРасчетовСКонтрагентами":
				doc = s.Ref
			}
		}
		if party && contract {
			out[[2]string{acc, doc}] += amount
		}
	}
	for _, m := range rawPostings(l) {
		if m.OrganizationRef != org || !m.Period.Before(asOf) {
			continue
		}
		add(m.AccountDr, m.SubcontoDr, m.Amount)
		add(m.AccountCr, m.SubcontoCr, -m.Amount)
	}
	for k, v := range out {
		if v == 0 {
			delete(out, k)
		}
	}
	return out
}

// rawCard is the opening net before НачалоПериода and the turnovers of the period, on 60.
func rawCard(l *Ledger, p map[string]any) (open, dt, kt Kopecks) {
	org := paramUUID(p, "Организация")
	from, to := paramTime(p["НачалоПериода"].(string)), paramTime(p["КонецПериода"].(string))
	for _, m := range rawPostings(l) {
		if m.OrganizationRef != org || m.Period.After(to) {
			continue
		}
		before := m.Period.Before(from)
		if matches(m.AccountDr, "60") {
			if before {
				open += m.Amount
			} else {
				dt += m.Amount
			}
		}
		if matches(m.AccountCr, "60") {
			if before {
				open -= m.Amount
			} else {
				kt += m.Amount
			}
		}
	}
	return open, dt, kt
}

func sumOf(t *testing.T, rows []map[string]any, col string) Kopecks {
	t.Helper()
	var s Kopecks
	for _, r := range rows {
		a, err := AmountOf(r[col])
		if err != nil {
			t.Fatalf("%s: %v", col, err)
		}
		s += a
	}
	return s
}

func netOf(t *testing.T, rows []map[string]any, dtCol, ktCol string) Kopecks {
	return sumOf(t, rows, dtCol) - sumOf(t, rows, ktCol)
}

func rowsDiff(a, b []map[string]any) string {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) == string(jb) {
		return ""
	}
	return "rows differ: " + strings.Join([]string{string(ja)[:min(200, len(ja))], string(jb)[:min(200, len(jb))]}, " vs ")
}
