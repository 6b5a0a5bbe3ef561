package ledger

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

func newLane(t *testing.T) *runner.Lane {
	t.Helper()
	d, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	return runner.NewLane(d, runner.Options{Now: now, Organization: d.MainOrganization()})
}

// One lane result is read two ways, and both cite the same source.
func TestReadTwoWays(t *testing.T) {
	d, err := Decompose("кто нам должен на 31 марта", understand.LedgerArgs{Recipe: recipe.Receivables,
		Filters: recipe.Filters{AsOfDate: "2026-03-31", Limit: 5}})
	if err != nil {
		t.Fatal(err)
	}
	res := newLane(t).Run(t.Context(), d)
	r := Reply(res, "abcdefgh2345")
	if !strings.Contains(r.Text, "[1]") || len(r.Sources) != 1 || r.Sources[0].Title != res.SourceTitle() {
		t.Errorf("Reply text %q, sources %+v: want the figures footnoted with %q", r.Text, r.Sources, res.SourceTitle())
	}
	if last := r.Buttons[len(r.Buttons)-1]; last.Data != "x:abcdefgh2345" {
		t.Errorf("last button %+v, want the export of %d rows", last, res.Summary.Rows)
	}
	p, err := Facts(res)
	if err != nil {
		t.Fatalf("Facts() error: %v", err)
	}
	if len(p.Items) != 6 || p.Items[5].Kind != "ledger_total" || len(p.Sources) != 1 || p.Sources[0] != r.Sources[0] {
		t.Errorf("Facts %+v: want 5 rows and the total, citing the reply's source", p)
	}
}

// An ambiguous name: the tool's error lists the candidates the reply offers as buttons, and a
// button's choice re-runs the request with that candidate.
func TestAmbiguous(t *testing.T) {
	l := newLane(t)
	d, err := Decompose("", understand.LedgerArgs{Recipe: recipe.OpenItemsByParty,
		Filters: recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Сев"}})
	if err != nil {
		t.Fatal(err)
	}
	res := l.Run(t.Context(), d)
	_, err = Facts(res)
	var lim *Limited
	if !errors.As(err, &lim) || errors.Is(err, skill.ErrUnavailable) || len(res.Candidates) != 2 {
		t.Fatalf("Facts error %v with %d candidates, want a *Limited offering 2", err, len(res.Candidates))
	}
	r := Reply(res, "abcdefgh2345")
	if len(r.Buttons) < 2 || !strings.Contains(err.Error(), r.Buttons[1].Text) || r.Buttons[1].Data != "c:abcdefgh2345:1" {
		t.Errorf("buttons %+v, error %q: want the candidates in both", r.Buttons, err)
	}
	p, ok := ParsePress(r.Buttons[1].Data)
	if !ok || p.Export || p.ID != "abcdefgh2345" || p.Candidate != 1 {
		t.Fatalf("ParsePress(%q) = %+v, %v", r.Buttons[1].Data, p, ok)
	}
	chosen, ok := Choice(res, p.Candidate)
	if !ok || chosen.Filters.Counterparty != res.Candidates[1].Ref {
		t.Errorf("Choice(%d) = %+v, %v; want the second candidate", p.Candidate, chosen.Filters, ok)
	}
	if len(Reply(res, "").Buttons) != 0 {
		t.Error("choice buttons offered with no result id to bind them to")
	}
	if _, ok := Choice(res, 7); ok {
		t.Error("Choice of a candidate the result does not have succeeded")
	}
}

func TestDecomposeRefusesBadArguments(t *testing.T) {
	for _, recipe := range []recipe.Name{"", "drop_everything"} {
		if _, err := Decompose("", understand.LedgerArgs{Recipe: recipe}); !errors.Is(err, skill.ErrArgs) {
			t.Errorf("Decompose(recipe %q) error = %v, want skill.ErrArgs", recipe, err)
		}
	}
}

// TestParsePress: only data of the form Reply writes names a kept result; the buttons of before
// and forged data name none.
func TestParsePress(t *testing.T) {
	id := buttons.NewID()
	if !buttons.ValidID(id) || buttons.NewID() == id {
		t.Fatalf("buttons.NewID() = %q (valid %v), and twice the same", id, buttons.ValidID(id))
	}
	for _, tt := range []struct {
		data string
		want Press
		ok   bool
	}{
		{"x:" + id, Press{ID: id, Export: true}, true},
		{"c:" + id + ":0", Press{ID: id}, true},
		{"c:" + id + ":12", Press{ID: id, Candidate: 12}, true},
		{"x:last", Press{}, false},
		{"c:0", Press{}, false},
		{"c:1", Press{}, false},
		{"x:", Press{}, false},
		{"x:" + id + "x", Press{}, false},
		{"x:ABCDEFGH2345", Press{}, false}, // upper case: not an id NewID makes
		{"x:abcdefgh2340", Press{}, false}, // 0 is not in the alphabet
		{"x:../../etc/pa", Press{}, false},
		{"c:" + id, Press{}, false},
		{"c:" + id + ":-1", Press{}, false},
		{"c:" + id + ":100", Press{}, false},
		{"c:" + id + ":1:2", Press{}, false},
		{"a:4:b14f1e5e-91c:20260331:1:", Press{}, false},
		{"b:op:b14f1e5e-91c:20260331:8188789b-128:", Press{}, false},
	} {
		got, ok := ParsePress(tt.data)
		if ok != tt.ok || ok && got != tt.want {
			t.Errorf("ParsePress(%q) = %+v, %v; want %+v, %v", tt.data, got, ok, tt.want, tt.ok)
		}
	}
}

// TestCallbackDataFits: the data of every button a reply offers fits Telegram's 64 bytes, the
// longest result id and candidate index included.
func TestCallbackDataFits(t *testing.T) {
	l := newLane(t)
	id := buttons.NewID()
	for _, args := range []understand.LedgerArgs{
		{Recipe: recipe.Receivables, Filters: recipe.Filters{AsOfDate: "2026-03-31"}},
		{Recipe: recipe.OpenItemsByParty, Filters: recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Сев"}},
		{Recipe: recipe.OpenItemsByParty, Filters: recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Альфа"}},
		{Recipe: recipe.TurnoverSheet, Filters: recipe.Filters{PeriodFrom: "2026-03-01", PeriodTo: "2026-03-31"}},
	} {
		d, err := Decompose("", args)
		if err != nil {
			t.Fatal(err)
		}
		r := Reply(l.Run(t.Context(), d), id)
		if len(r.Buttons) == 0 {
			t.Errorf("%s: no buttons", args.Recipe)
		}
		for _, b := range r.Buttons {
			if len(b.Data) > 64 || b.Data == "" {
				t.Errorf("%s: button %q has data %q (%d bytes)", args.Recipe, b.Text, b.Data, len(b.Data))
			}
		}
	}
	if longest := "c:" + id + ":99"; len(longest) > 64 {
		t.Errorf("%q is %d bytes", longest, len(longest))
	}
}

// TestEncode: a kept result comes back whole — the rows cut off by the limit, the dates and the
// candidates an export or a choice needs, which the result's JSON leaves out.
func TestEncode(t *testing.T) {
	l := newLane(t)
	for _, args := range []understand.LedgerArgs{
		{Recipe: recipe.Receivables, Filters: recipe.Filters{AsOfDate: "2026-03-31"}},
		{Recipe: recipe.OpenItemsByParty, Filters: recipe.Filters{AsOfDate: "2026-03-31", Counterparty: "Сев"}},
	} {
		d, _ := Decompose("", args)
		res := l.Run(t.Context(), d)
		data, err := Encode(res)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Decode(data)
		if err != nil {
			t.Fatal(err)
		}
		want := res
		want.Debug = runner.Debug{}
		a, _ := want.XLSX()
		b, _ := got.XLSX()
		if len(got.All) != len(res.All) || !got.AsOf.Equal(res.AsOf) || len(got.Candidates) != len(res.Candidates) ||
			got.Markdown() != want.Markdown() || len(a) != len(b) {
			t.Errorf("%s: decoded result differs: %d/%d rows, as of %v/%v, %d/%d candidates", args.Recipe,
				len(got.All), len(res.All), got.AsOf, res.AsOf, len(got.Candidates), len(res.Candidates))
		}
	}
	for _, bad := range [][]byte{nil, []byte("not gzip"), {0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0}} {
		if _, err := Decode(bad); err == nil {
			t.Errorf("Decode(%q) succeeded", bad)
		}
	}
}

// TestCandidateLabel: what tells candidates apart stays whole; the name is cut between words.
func TestCandidateLabel(t *testing.T) {
	for _, tt := range []struct {
		c    recipe.Entity
		want string
	}{
		{recipe.Entity{Name: "ПАО «Северсталь-Логистик»", INN: "2575668710"}, "ПАО «Северсталь-Логистик», ИНН 2575668710"},
		{recipe.Entity{Name: "ООО «Торгово-промышленная компания Северо-Запад»", INN: "7701234567"}, "ООО «Торгово-промышленная…, ИНН 7701234567"},
		{recipe.Entity{Name: "Договор поставки № ДП-198/2024 от 10.11.2024", Number: "ДП-198/2024", Date: "10.11.2024"}, "№ ДП-198/2024 от 10.11.2024"},
		{recipe.Entity{Name: "Основной договор с очень длинным названием для проверки обрезки"}, "Основной договор с очень длинным названием для…"},
	} {
		if got := candidateLabel(tt.c); got != tt.want || len([]rune(got)) > 48 {
			t.Errorf("candidateLabel(%q) = %q, want %q", tt.c.Name, got, tt.want)
		}
	}
}

// TestFactsShownOfPlurals: «первые 10 из 21 строки», «из 44 строк».
func TestFactsShownOfPlurals(t *testing.T) {
	for n, want := range map[int]string{21: "Показаны первые 10 из 21 строки.", 44: "Показаны первые 10 из 44 строк.", 1001: "Показаны первые 10 из 1001 строки."} {
		rows := make([]runner.Row, 10)
		p, err := Facts(runner.Result{Intent: recipe.Receivables, ResultMode: runner.FactualSummary, Rows: rows, Summary: runner.Summary{Rows: n}})
		if err != nil || !slices.Contains(p.Limitations, want) {
			t.Errorf("%d rows: limitations %q, want %q", n, p.Limitations, want)
		}
	}
}
