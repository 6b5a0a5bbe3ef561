package ledger

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
)

// An aging's reply: its drilldowns open a company's documents on the day, the export is every
// row with its intervals and their totals, the other side's aging is a button away, and the
// chart draws the intervals.
func TestAgingReply(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "просрочка по покупателям на 31.03.2026")
	if r.Recipe != string(recipe.ReceivablesAging) || !strings.Contains(plain(r.Text), "из них просрочено **34 817 884,44 ₽** — 18 контрагентов, 25 договоров. [1]") {
		t.Fatalf("reply (%s):\n%s", r.Recipe, r.Text)
	}
	if r.Chart == nil || len(r.Chart.PNG) < 1000 || !strings.HasPrefix(plain(r.Chart.Caption), "Просрочено 34 817 884,44 ₽ из 37 710 522,89 ₽ на 31.03.2026. Источник: 1С: Дебиторка по срокам долга") {
		t.Errorf("chart %+v", r.Chart)
	}
	if d := ask(t, s, 1, 1, "кто нам должен на 31.03.2026"); d.Chart != nil {
		t.Error("a debts list with a chart: only the aging draws one")
	}
	var drills []string
	var export, other string
	for _, b := range r.Buttons {
		switch {
		case runner.IsDrill(b.Data):
			drills = append(drills, b.Text)
			if len(drills) == 1 {
				next := command(t, s, 1, "drill", b.Data)
				if d := ledgerDebug(next); d == nil || d.SelectedRecipe != "address.open_items.by_counterparty" || d.ExtractedFilters.AsOfDate != "2026-03-31" {
					t.Errorf("drilldown %q: %+v\n%s", b.Text, d, next.Text)
				}
			}
		case strings.HasPrefix(b.Data, ExportPrefix):
			export = b.Data
		case b.Data == "":
			other = b.Text
		}
	}
	// the five most overdue contracts' companies: СтройМаркет, Альфа, Бета Групп, Вектор, Универсал
	if len(drills) != 5 || !strings.HasPrefix(drills[0], "СтройМаркет 2,8") {
		t.Errorf("drilldowns %q", drills)
	}
	if other != "Просрочка поставщикам на 31.03.2026" {
		t.Errorf("the other side's button %q (buttons %+v)", other, r.Buttons)
	}
	if ours := ask(t, s, 1, 1, other); ours.Recipe != string(recipe.PayablesAging) || !strings.HasPrefix(plain(ours.Text), "Мы должны поставщикам") {
		t.Errorf("%q (%s):\n%s", other, ours.Recipe, ours.Text)
	}
	file := command(t, s, 1, "drill", export)
	if file.Document == nil || file.Document.Name != "Дебиторка по срокам на 31.03.2026.xlsx" {
		t.Fatalf("export %+v: %s", file.Document, file.Text)
	}
	x, err := excelize.OpenReader(bytes.NewReader(file.Document.Bytes))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	rows, err := x.GetRows("Результат")
	if err != nil {
		t.Fatal(err)
	}
	head, total := rows[3], rows[len(rows)-1]
	if len(rows) != 4+25+2 || head[5] != "Не наступил срок, ₽" || head[9] != "Более 90 дн., ₽" {
		t.Fatalf("%d rows, header %q", len(rows), head)
	}
	// the totals under the money columns: the debt, each interval, the overdue
	for col, want := range map[int]string{4: "37,710,522.89", 5: "2,892,638.45", 9: "24,195,366.42", 10: "34,817,884.44"} {
		if total[col] != want {
			t.Errorf("total of %q = %q, want %s", head[col], total[col], want)
		}
	}
	if !strings.HasPrefix(total[0], "Итого: 25 строк; долг 37") {
		t.Errorf("total line %q", total[0])
	}
}

// /aging of one company that owes us nothing and to which we owe: its side is found.
func TestAgingOfPartyWithoutSide(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "просрочка по промпоставке на 31.03.2026") // a supplier: we owe it
	if d := ledgerDebug(r); d == nil || d.SelectedRecipe != "address.aging.payables" || !strings.HasPrefix(plain(r.Text), "Мы должны ООО «ПромПоставка»") {
		t.Errorf("debug %+v\n%s", d, r.Text)
	}
	r = ask(t, s, 1, 1, "на сколько дней вектор просрочил оплату")
	if d := ledgerDebug(r); d == nil || d.SelectedRecipe != "address.aging.receivables" || !strings.Contains(r.Text, "Дольше всех просрочен документ") {
		t.Errorf("debug %+v\n%s", d, r.Text)
	}
}

// The planner's ledger_query with the aging: each row with its intervals, and the total by
// interval, amounts exact.
func TestAgingFacts(t *testing.T) {
	s := newSkill(t, everyone)
	call := plan.ToolCall{Tool: plan.ToolLedgerQuery, Args: json.RawMessage(`{"recipe":"payables_aging","filters":{"as_of_date":"2026-03-31"}}`)}
	p, err := s.Facts(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "просроченная кредиторка на 31.03.2026"}, call)
	if err != nil || len(p.Items) < 2 {
		t.Fatalf("facts %+v, %v", p, err)
	}
	total := p.Items[len(p.Items)-1]
	if !strings.HasPrefix(strings.ReplaceAll(total.Text, "\u00a0", " "), "Итого долг ") || !strings.Contains(total.Text, "из него просрочено") ||
		!strings.Contains(total.Text, "более 90 дн.") {
		t.Errorf("total %q", total.Text)
	}
	if first := p.Items[0]; !strings.Contains(first.Text, "просрочено") || len(first.Fields) < 8 {
		t.Errorf("first row %q, fields %+v", first.Text, first.Fields)
	}
}

// «кто должен нам больше 90 дней»: the debt past those days is the figure asked; days between
// the bounds are a bound of their own for that answer.
func TestAgingPastDaysAsked(t *testing.T) {
	s := newSkill(t, everyone)
	for q, want := range map[string]string{
		"кто должен нам больше 90 дней на 31.03.2026":        "больше 90 дней просрочено **24 195 366,42 ₽** (всего просрочено 34 817 884,44 ₽)",
		"долги покупателей старше 45 дней на 31.03.2026":     "больше 45 дней просрочено **29 327 629,55 ₽**",
		"просроченная кредиторка больше 90 дней на 31.03.26": "Мы должны поставщикам 29 367 205,39 ₽ на 31.03.2026; больше 90 дней просрочено **",
	} {
		if r := ask(t, s, 1, 1, q); !strings.Contains(plain(r.Text), want) {
			t.Errorf("%q: want %q\n%s", q, want, r.Text)
		}
	}
}
