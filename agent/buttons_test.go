package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/internal/testredis"

	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The buttons of a 1C answer are bound to that answer (issue #18): a choice or an export pressed
// under an older message acts on that message's result, whatever was asked since; in another
// chat, after the TTL or in the form of before it is stale; in a group anyone with access to 1C
// may press it.

// resultStores are the stores the buttons' results are kept in: Redis (skipped without one) and
// memory.
func resultStores(t *testing.T) map[string]func(t *testing.T) buttons.Store {
	return map[string]func(t *testing.T) buttons.Store{
		"memory": func(*testing.T) buttons.Store { return history.NewMemoryResults(0, 0) },
		"redis": func(t *testing.T) buttons.Store {
			rdb := testredis.Client(t)
			prefix := fmt.Sprintf("test:buttons:%d:", time.Now().UnixNano())
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				if keys, _ := rdb.Keys(ctx, prefix+"*").Result(); len(keys) > 0 {
					rdb.Del(ctx, keys...)
				}
			})
			return history.NewRedisResults(rdb, prefix, 48*time.Hour)
		},
	}
}

// buttonsAgent is an agent over the demo ledger keeping its buttons' results in r.
func buttonsAgent(t *testing.T, r buttons.Store, access func(u, c int64) bool) *Agent {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	return New(Deps{History: history.NewMemory(100, history.Limits{}), Ledger: demoLane(t), Results: r}, Options{Now: now, LedgerAccess: access})
}

// demoLane is the query runner over the default demo ledger, on the tests' day.
func demoLane(t *testing.T) *runner.Lane {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	return runner.NewLane(d, runner.Options{Now: now, Organization: d.MainOrganization()})
}

func everyone(int64, int64) bool { return true }

// answerOf answers one message or button press, failing the test on an error.
func answerOf(t *testing.T, a *Agent, req Request) Answer {
	t.Helper()
	ans, err := a.Answer(t.Context(), req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return ans
}

// tap is req with a button's data.
func tap(req Request, data string) Request {
	req.Command, req.Text = "drill", data
	return req
}

// buttonData is the data of the answer's button labelled with a text containing label.
func buttonData(t *testing.T, ans Answer, label string) string {
	t.Helper()
	for _, b := range ans.Buttons {
		if strings.Contains(b.Text, label) {
			if len(b.Data) > 64 {
				t.Errorf("button %q: %d bytes of callback data", b.Text, len(b.Data))
			}
			return b.Data
		}
	}
	t.Fatalf("no button %q among %+v", label, ans.Buttons)
	return ""
}

// isStale: the answer says the button is stale and offers a question to ask again, as a button
// whose text fits Telegram's callback data ("q:" + the text).
func isStale(ans Answer) bool {
	return strings.Contains(ans.Text, "кнопка устарела") && strings.Contains(ans.Text, "Задайте вопрос заново") &&
		len(ans.Buttons) == 1 && len("q:"+ans.Buttons[0].Text) <= 64 && ans.Document == nil && !strings.Contains(ans.Text, "₽")
}

// TestStaleClarificationButton: two ambiguous questions in a row; each list's buttons pick from
// their own list, the older one included.
func TestStaleClarificationButton(t *testing.T) {
	for name, open := range resultStores(t) {
		t.Run(name, func(t *testing.T) {
			a := buttonsAgent(t, open(t), everyone)
			me := Request{UserID: 1, ChatID: 1}
			first := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "открытые позиции по Сев на 31.03.2026"})
			second := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "открытые позиции по Век на 31.03.2026"})
			tests := []struct {
				name, data   string
				party, total string // the company the answer is about and its figure
				notParty     string
			}{
				{"first list, second button", buttonData(t, first, "Северсталь"), "ПАО «Северсталь\\-Логистик»", "1 980 696,00 ₽", "Вектор"},
				{"second list, second button", buttonData(t, second, "Вектор Плюс"), "ООО «Вектор Плюс»", "", "Север"},
				{"first list again, first button", buttonData(t, first, "Северный ветер"), "ООО «Северный ветер»", "", "Вектор"},
				{"second list, first button", buttonData(t, second, "АО «Вектор»"), "АО «Вектор»", "3 176 820,73 ₽", "Север\\"},
			}
			for _, tt := range tests {
				ans := answerOf(t, a, tap(me, tt.data))
				text := nbspToSpace(ans.Text)
				title, _, _ := strings.Cut(text, "\n")
				if !strings.Contains(title, tt.party) || strings.Contains(title, tt.notParty) || tt.total != "" && !strings.Contains(text, tt.total) {
					t.Errorf("%s (%s): answer\n%s\nwant %s with %q", tt.name, tt.data, text, tt.party, tt.total)
				}
			}
		})
	}
}

// TestExportPerMessage: each export button exports the rows of the answer it sits under.
func TestExportPerMessage(t *testing.T) {
	for name, open := range resultStores(t) {
		t.Run(name, func(t *testing.T) {
			a := buttonsAgent(t, open(t), everyone)
			me := Request{UserID: 1, ChatID: 1}
			receivables := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "кто нам должен на 31.03.2026"})
			documents := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "документы Гранита за 2025 год"})
			// Something else since: the buttons above still export their own rows.
			answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "документы Альфы за 2025 год"})
			for _, tt := range []struct {
				name  string
				ans   Answer
				title string
				file  string
			}{
				{"documents", documents, "Документы контрагента за 01.01.2025 – 31.12.2025: ООО «Гранит»", "Документы контрагента за 01.01.2025 – 31.12.2025 — ООО «Гранит».xlsx"},
				{"receivables", receivables, "Кто должен нам на 31.03.2026", "Дебиторка на 31.03.2026.xlsx"},
				{"documents again", documents, "Документы контрагента за 01.01.2025 – 31.12.2025: ООО «Гранит»", "Документы контрагента за 01.01.2025 – 31.12.2025 — ООО «Гранит».xlsx"},
			} {
				file := answerOf(t, a, tap(me, buttonData(t, tt.ans, "Выгрузить в Excel")))
				if file.Document == nil {
					t.Fatalf("%s: no file: %q", tt.name, file.Text)
				}
				sheet := readSheet(t, file.Document.Bytes)
				want := resultOf(tt.ans).All
				if file.Document.Name != tt.file || !strings.HasPrefix(sheet[0][0], tt.title) ||
					len(dataRows(sheet)) != len(want) || dataRows(sheet)[0][0] != want[0].Name {
					t.Errorf("%s: %s, %q, %d rows (want %d)", tt.name, file.Document.Name, sheet[0][0], len(dataRows(sheet)), len(want))
				}
				if tt.name == "receivables" {
					checkDebtsSheet(t, tt.ans, sheet)
				}
			}
		})
	}
}

// checkDebtsSheet reads a debts export back against its message: the message's table rows are
// the sheet's first rows, every row's debt less its advances is its balance, and the total under
// the amounts is the headline's figure, a number.
func checkDebtsSheet(t *testing.T, ans Answer, sheet [][]string) {
	t.Helper()
	rows := dataRows(sheet)
	if got := sheet[3]; !slices.Equal(got, []string{"Контрагент", "Сумма, ₽", "Долг, ₽", "Авансы полученные, ₽", "Документов"}) {
		t.Errorf("header %q", got)
	}
	for i, r := range rows {
		if kopecks(t, r[2])-kopecks(t, r[3]) != kopecks(t, r[1]) {
			t.Errorf("row %d %q: debt − advances ≠ balance", i, r)
		}
		if i < 5 && !strings.Contains(ans.Text, "| "+md.Escape(r[0])+" | "+strings.TrimSuffix(ru.Money(kopecks(t, r[1])), "\u00a0₽")+" |") {
			t.Errorf("row %d %q is not the message's row %d:\n%s", i, r, i, ans.Text)
		}
	}
	total := sheet[len(sheet)-1]
	if len(total) < 2 || !strings.Contains(ans.Text, "**"+ru.Money(kopecks(t, total[1]))+"**") {
		t.Errorf("total row %q is not the headline's figure:\n%s", total, ans.Text)
	}
}

// TestButtonScopes: who may press which button, and the buttons that no longer point anywhere.
func TestButtonScopes(t *testing.T) {
	clock := time.Date(2026, 4, 30, 12, 0, 0, 0, time.UTC)
	store := history.NewMemoryResults(0, 48*time.Hour)
	store.Now = func() time.Time { return clock }
	access := func(u, c int64) bool { return u != 3 }
	a := buttonsAgent(t, store, access)

	group := Request{UserID: 1, ChatID: -100, Group: true}
	asked := answerOf(t, a, Request{UserID: 1, ChatID: -100, Group: true, Text: "кто нам должен на 31.03.2026"})
	export := buttonData(t, asked, "Выгрузить в Excel")
	choice := answerOf(t, a, Request{UserID: 1, ChatID: -100, Group: true, Text: "открытые позиции по Сев на 31.03.2026"})
	pick := buttonData(t, choice, "Северсталь")
	private := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "кто нам должен на 31.03.2026"})
	privateExport := buttonData(t, private, "Выгрузить в Excel")

	member := func(user int64) Request { return Request{UserID: user, ChatID: -100, Group: true} }
	tests := []struct {
		name string
		req  Request
		want string // "file", "figures", "stale", "denied"
	}{
		{"the asker exports", tap(group, export), "file"},
		{"another member with access exports", tap(member(2), export), "file"},
		{"another member picks", tap(member(2), pick), "figures"},
		{"a member without access", tap(member(3), export), "denied"},
		{"the same id in another group", tap(Request{UserID: 2, ChatID: -200, Group: true}, export), "stale"},
		{"a group's id in a private chat", tap(Request{UserID: 1, ChatID: 1}, export), "stale"},
		{"a private id in the group", tap(group, privateExport), "stale"},
		{"a private id in another private chat", tap(Request{UserID: 2, ChatID: 2}, privateExport), "stale"},
		{"a forged id", tap(group, "x:abcdefgh2345"), "stale"},
		{"a forged choice", tap(group, "c:abcdefgh2345:0"), "stale"},
		{"a candidate the list lacks", tap(group, strings.TrimSuffix(pick, ":1")+":7"), "stale"},
		{"the export of before", tap(group, "x:last"), "stale"},
		{"a choice of before", tap(group, "c:0"), "stale"},
		{"malformed", tap(group, "x:../../x"), "stale"},
	}
	check := func(t *testing.T, name string, req Request, want string) {
		t.Helper()
		ans := answerOf(t, a, req)
		var got string
		switch {
		case ans.Document != nil && strings.HasPrefix(ans.Text, "Выгрузка в Excel"):
			got = "file"
		case strings.Contains(ans.Text, "₽") && strings.Contains(ans.Text, "Северсталь"):
			got = "figures"
		case isStale(ans):
			got = "stale"
		case strings.Contains(ans.Text, "только сотрудникам с доступом"):
			got = "denied"
		}
		if got != want {
			t.Errorf("%s: got %q, want %s: %q %+v", name, got, want, ans.Text, ans.Buttons)
		}
	}
	for _, tt := range tests {
		check(t, tt.name, tt.req, tt.want)
	}
	clock = clock.Add(48*time.Hour - time.Minute)
	check(t, "just before the TTL", tap(member(2), export), "file")
	clock = clock.Add(time.Minute)
	check(t, "expired", tap(member(2), export), "stale")
	check(t, "expired choice", tap(group, pick), "stale")
}

// TestExportCaption: the caption says what the sheet holds — its rows and, where the list has
// one, its real total (the sum of the sheet's amounts); a list of documents has none.
func TestExportCaption(t *testing.T) {
	a := buttonsAgent(t, nil, everyone)
	me := Request{UserID: 1, ChatID: 1}
	for _, tt := range []struct {
		question string
		column   string // the amounts summed into the total; "" = no total
		caption  string // the caption's start, plural and all
	}{
		{"кто нам должен на 31.03.2026", "Сумма, ₽", "Выгрузка в Excel: 18 строк, 35 987 887,75 ₽."},
		{"незакрытые договоры на 31.03.2026", "Сальдо, ₽", "Выгрузка в Excel: "},
		{"документы Альфы за 2025 год", "", "Выгрузка в Excel: 44 строки; общей суммы нет"},
		{"оплаты Альфы за 2025 год", "", "Выгрузка в Excel: 19 строк; общей суммы нет"},
	} {
		ans := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: tt.question})
		file := answerOf(t, a, tap(me, buttonData(t, ans, "Выгрузить в Excel")))
		if file.Document == nil {
			t.Fatalf("%s: no file: %q", tt.question, file.Text)
		}
		sheet := readSheet(t, file.Document.Bytes)
		rows := dataRows(sheet)
		caption := nbspToSpace(file.Text)
		want := "Выгрузка в Excel: " + ru.Count(len(rows), "строка", "строки", "строк")
		if tt.column == "" {
			want += "; общей суммы нет — в списке документы разных видов."
			var amounts int64
			col := slices.Index(sheet[3], "Сумма, ₽")
			for _, r := range rows {
				amounts += kopecks(t, r[col])
			}
			if amounts == 0 {
				t.Errorf("%s: the sheet has no amounts", tt.question)
			}
		} else {
			col := slices.Index(sheet[3], tt.column)
			var sum int64
			for _, r := range rows {
				sum += kopecks(t, r[col])
			}
			if sum == 0 || col < 0 {
				t.Fatalf("%s: no amounts in column %q of %q", tt.question, tt.column, sheet[3])
			}
			want += ", " + nbspToSpace(onec.Kopecks(sum).String()) + "."
		}
		if caption != want || !strings.HasPrefix(caption, tt.caption) || strings.Contains(caption, " 0,00 ₽") {
			t.Errorf("%s: caption %q, want %q", tt.question, caption, want)
		}
		// The sheet's own total line says the same.
		if last := sheet[len(sheet)-1][0]; !strings.Contains(caption, nbspToSpace(strings.TrimPrefix(last, "Итого: "))) {
			t.Errorf("%s: caption %q, the sheet's total line %q", tt.question, caption, last)
		}
	}
}

// readSheet is the export's rows as raw values (amounts as numbers).
func readSheet(t *testing.T, data []byte) [][]string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Результат", excelize.Options{RawCellValue: true})
	if err != nil || len(rows) < 6 {
		t.Fatalf("sheet: %d rows, %v", len(rows), err)
	}
	return rows
}

// dataRows are the sheet's result rows: after the title, the scope, a blank row and the header,
// up to the blank row before the total.
func dataRows(sheet [][]string) [][]string {
	out := sheet[4:]
	if i := slices.IndexFunc(out, func(r []string) bool { return len(r) == 0 }); i >= 0 {
		out = out[:i]
	}
	return out
}

// kopecks reads an amount cell (a number of roubles with two decimals).
func kopecks(t *testing.T, cell string) int64 {
	t.Helper()
	f, err := strconv.ParseFloat(cell, 64)
	if err != nil {
		t.Fatalf("amount %q: %v", cell, err)
	}
	return int64(math.Round(f * 100))
}

// downResults is a results store that cannot be reached.
type downResults struct{}

func (downResults) Put(context.Context, string, []byte) error { return errors.New("dial tcp: refused") }
func (downResults) Get(context.Context, string) ([]byte, bool, error) {
	return nil, false, errors.New("dial tcp: refused")
}

// TestResultsStoreDown: the answer still comes, without the buttons it could not bind (and says
// so in its debug); a press while the store is down is ErrUnavailable, which the front end words.
func TestResultsStoreDown(t *testing.T) {
	a := buttonsAgent(t, downResults{}, everyone)
	ans := answerOf(t, a, Request{UserID: 1, ChatID: 1, Text: "кто нам должен на 31.03.2026"})
	if !strings.Contains(nbspToSpace(ans.Text), "35 987 887,75") || !slices.Contains(ans.Debug.Degraded, "buttons_not_kept") {
		t.Errorf("answer %q, degraded %v", ans.Text, ans.Debug.Degraded)
	}
	for _, b := range ans.Buttons {
		if strings.HasPrefix(b.Data, "x:") || strings.HasPrefix(b.Data, "c:") {
			t.Errorf("button %+v bound to a result that was not kept", b)
		}
	}
	if _, err := a.Answer(t.Context(), tap(Request{UserID: 1, ChatID: 1}, "x:abcdefgh2345")); !errors.Is(err, ErrUnavailable) {
		t.Errorf("press with the store down: %v, want ErrUnavailable", err)
	}
}
