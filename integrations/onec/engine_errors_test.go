package onec_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
)

func receivablesParams(l *onec.Ledger) map[string]any {
	return map[string]any{
		"НаДату":      "2026-01-01T00:00:00",
		"Организация": ref(onec.TypeOrganization, l.DefaultOrganization().Ref),
		"СчетКод":     "62",
		"СчетМаска":   "62.%",
	}
}

func TestExecuteParameterErrors(t *testing.T) {
	l, d, _ := fixture(t)
	receivables, _ := onec.Query("address.receivables.counterparty_totals")
	bankOps, _ := onec.Query("address.bank_ops.by_counterparty")
	with := func(key string, v any) map[string]any {
		p := maps.Clone(receivablesParams(l))
		p[key] = v
		return p
	}
	without := func(key string) map[string]any {
		p := maps.Clone(receivablesParams(l))
		delete(p, key)
		return p
	}
	tests := []struct {
		name    string
		query   string
		params  map[string]any
		wantMsg string
	}{
		{"no params at all", receivables, nil, "Параметр не задан (СчетКод)"},
		{"missing account mask", receivables, without("СчетМаска"), "Параметр не задан (СчетМаска)"},
		{"missing organization", receivables, without("Организация"), "Параметр не задан (Организация)"},
		{"date without time stays a string", receivables, with("НаДату", "2026-01-01"), "Несовместимые типы"},
		{"date with a space", receivables, with("НаДату", "2026-01-01 00:00:00"), "Несовместимые типы"},
		{"date with a zone", receivables, with("НаДату", "2026-01-01T00:00:00Z"), "Несовместимые типы"},
		{"date as a number", receivables, with("НаДату", 20260101), "Несовместимые типы"},
		{"required date null", receivables, with("НаДату", nil), "Несовместимые типы"},
		{"impossible date", receivables, with("НаДату", "2026-02-30T00:00:00"), "Неверное значение даты"},
		{"account code as a number", receivables, with("СчетКод", 62), "Несовместимые типы"},
		{"reference as a bare UUID", receivables, with("Организация", l.DefaultOrganization().Ref), "Несовместимые типы"},
		{"reference without _objectRef", receivables, with("Организация", map[string]any{"УникальныйИдентификатор": l.DefaultOrganization().Ref}), "описание ссылки"},
		{"reference with a bad UUID", receivables, with("Организация", ref(onec.TypeOrganization, "not-a-uuid")), "описание ссылки"},
		{"reference of an unknown type", receivables, with("Организация", ref("СправочникСсылка.Нечто", l.DefaultOrganization().Ref)), "неизвестный тип объекта"},
		{"bank ops without its period keys", bankOps, map[string]any{"Организация": nil, "Контрагент": nil}, "Параметр не задан (НачалоПериода)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rows, err := d.Execute(context.Background(), tt.query, tt.params, 10)
			var qe *onec.QueryError
			if !errors.As(err, &qe) || !strings.Contains(qe.Message, tt.wantMsg) {
				t.Fatalf("Execute = %d rows, %v; want a QueryError with %q", len(rows), err, tt.wantMsg)
			}
			if !strings.HasPrefix(qe.Message, "{(") {
				t.Errorf("message %q lacks 1C's {(line, column)} position", qe.Message)
			}
		})
	}
}

// References that equal nothing are no error in 1C: the answer is empty.
func TestExecuteReferencesThatMatchNothing(t *testing.T) {
	l, d, _ := fixture(t)
	receivables, _ := onec.Query("address.receivables.counterparty_totals")
	all, err := d.Execute(context.Background(), receivables, receivablesParams(l), 1000)
	if err != nil || len(all) == 0 {
		t.Fatalf("baseline: %d rows, %v", len(all), err)
	}
	org := l.DefaultOrganization().Ref
	tests := []struct {
		name string
		org  any
		want int
	}{
		{"organization null", nil, 0},
		{"a counterparty passed as the organization", ref(onec.TypeCounterparty, org), 0},
		{"unknown UUID", ref(onec.TypeOrganization, "00000000-0000-4000-8000-000000000000"), 0},
		{"upper-case UUID", ref(onec.TypeOrganization, strings.ToUpper(org)), len(all)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := receivablesParams(l)
			p["Организация"] = tt.org
			rows, err := d.Execute(context.Background(), receivables, p, 1000)
			if err != nil || len(rows) != tt.want {
				t.Errorf("Execute = %d rows, %v; want %d rows", len(rows), err, tt.want)
			}
		})
	}
}

func TestExecuteRequestErrors(t *testing.T) {
	l, d, _ := fixture(t)
	receivables, _ := onec.Query("address.receivables.counterparty_totals")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name  string
		ctx   context.Context
		query string
		limit int
		want  error
	}{
		{"limit 0", context.Background(), receivables, 0, onec.ErrRejected},
		{"limit over MaxDemoRows", context.Background(), receivables, onec.MaxDemoRows + 1, onec.ErrRejected},
		{"blank query", context.Background(), "  \n", 10, onec.ErrRejected},
		{"canceled", canceled, receivables, 10, context.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := d.Execute(tt.ctx, tt.query, receivablesParams(l), tt.limit)
			if !errors.Is(err, tt.want) {
				t.Errorf("Execute error = %v, want %v", err, tt.want)
			}
		})
	}
}

// limit truncates silently, keeping the template's order, as the proxy does.
func TestExecuteLimitTruncates(t *testing.T) {
	l, d, _ := fixture(t)
	for _, id := range []string{"address.receivables.counterparty_totals", "catalog.counterparties", "address.balance.drilldown_documents"} {
		q, _ := onec.Query(id)
		p := receivablesParams(l)
		p["Контрагент"], p["Договор"], p["ПослеКода"] = nil, nil, ""
		all, err := d.Execute(context.Background(), q, p, 1000)
		if err != nil || len(all) < 4 {
			t.Fatalf("%s: %d rows, %v", id, len(all), err)
		}
		some, err := d.Execute(context.Background(), q, p, 3)
		if err != nil {
			t.Fatal(err)
		}
		if diff := gocmp.Diff(all[:3], some); diff != "" {
			t.Errorf("%s limit 3 (-first three +got):\n%s", id, diff)
		}
	}
}

func TestDemoDefault(t *testing.T) {
	d1, err := onec.DemoDefault()
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := onec.DemoDefault()
	if d1 != d2 {
		t.Error("DemoDefault built the demo twice")
	}
	if d1.Name() != "демо-база 1С (встроенная)" {
		t.Errorf("Name() = %q", d1.Name())
	}
}

// The Demo is read-only after NewDemo: concurrent queries must not race (go test -race).
func TestDemoConcurrentUse(t *testing.T) {
	l, d, _ := fixture(t)
	done := make(chan error)
	for _, id := range wantIDs {
		go func() {
			q, _ := onec.Query(id)
			p := receivablesParams(l)
			p["Контрагент"], p["Договор"], p["ТипДокумента"], p["ПослеКода"] = nil, nil, "", ""
			p["НачалоПериода"], p["КонецПериода"] = "2025-01-01T00:00:00", "2025-12-31T23:59:59"
			p["СрокОплатыПоУмолчанию"], p["Разрез"], p["Номенклатура"] = 0, onec.AgingByContract, nil
			for i := range onec.AgingBounds + 1 {
				p[onec.AgingBoundParam(i)] = "2025-12-01T00:00:00"
			}
			_, err := d.Execute(context.Background(), q, p, 100)
			done <- err
		}()
	}
	for range wantIDs {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
