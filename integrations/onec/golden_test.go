package onec_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/golden"
)

// Rows exactly as the Demo (and so the stand-in proxy) returns them, for review:
// go test -update rewrites testdata/demo_*.golden.json.
func TestDemoGolden(t *testing.T) {
	l, d, _ := fixture(t)
	byName := map[string]string{}
	for _, cp := range l.Counterparties {
		byName[cp.Name] = cp.Ref
	}
	org := ref(onec.TypeOrganization, l.DefaultOrganization().Ref)
	tests := []struct {
		name   string
		id     string
		params map[string]any
		limit  int
	}{
		{"organizations", "catalog.organizations", nil, 10},
		{"accounts", "catalog.accounts", nil, 100},
		{"bank_accounts", "catalog.bank_accounts", nil, 10},
		{"receivables_2025-12-31", "address.receivables.counterparty_totals",
			map[string]any{"НаДату": "2026-01-01T00:00:00", "Организация": org, "СчетКод": "62", "СчетМаска": "62.%"}, 5},
		{"snapshot_51_2025-12-31", "address.account.balance_snapshot",
			map[string]any{"НаДату": "2026-01-01T00:00:00", "Организация": org, "СчетКод": "51", "СчетМаска": "51.%"}, 5},
		{"open_items_alfa_2025-06-30", "address.open_items.by_counterparty",
			map[string]any{"НаДату": "2025-07-01T00:00:00", "Организация": org, "Контрагент": ref(onec.TypeCounterparty, byName["ООО «Альфа»"]), "Договор": nil}, 6},
		{"open_contracts_2026-03-31", "address.open_contracts.by_asof",
			map[string]any{"НаДату": "2026-04-01T00:00:00", "Организация": org, "Контрагент": nil}, 4},
		{"drilldown_62_vector", "address.balance.drilldown_documents",
			map[string]any{"НаДату": "2026-04-01T00:00:00", "Организация": org, "СчетКод": "62", "СчетМаска": "62.%",
				"Контрагент": ref(onec.TypeCounterparty, byName["АО «Вектор»"]), "Договор": nil}, 4},
		{"offsets_2026-03-31", "address.offsets.candidates",
			map[string]any{"НаДату": "2026-04-01T00:00:00", "Организация": org, "Контрагент": nil}, 10},
		{"documents_granit_2025q2", "address.documents.by_counterparty",
			map[string]any{"НачалоПериода": "2025-04-01T00:00:00", "КонецПериода": "2025-06-30T23:59:59", "Организация": org,
				"Контрагент": ref(onec.TypeCounterparty, byName["ООО «Гранит»"]), "ТипДокумента": ""}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			demoGolden(t, d, "demo_"+tt.name+".golden.json", tt.id, tt.params, tt.limit)
		})
	}
}

// demoGolden runs the template id on the Demo and compares its rows, as indented JSON, with
// testdata/file.
func demoGolden(t *testing.T, d *onec.Demo, file, id string, params map[string]any, limit int) {
	t.Helper()
	q, _ := onec.Query(id)
	rows, err := d.Execute(context.Background(), q, params, limit)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(rows); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", file), b.String())
}
