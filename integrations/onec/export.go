package onec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// WriteLedger writes a ledger as the demo ledger's six JSON files (shared/demo-ledger/README.md:
// a JSON array, one object per line) into dir, which it creates; LoadLedger reads them back
// unchanged, and nomenclature.json when the ledger has a nomenclature (Справочник.Номенклатура:
// ref, code, name, unit, unit_full_name). It is how a base is handed to an independent calculation (`finbot ledger export`).
// Amounts are written with two decimals, so the embedded files' «495921.0» comes back as
// «495921.00»: the same figures, not the same bytes.
func WriteLedger(dir string, l *Ledger) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("onec: export: %w", err)
	}
	files := []struct {
		name string
		n    int
		at   func(int) any
	}{
		{"organizations.json", len(l.Organizations), func(i int) any { return &l.Organizations[i] }},
		{"counterparties.json", len(l.Counterparties), func(i int) any { return &l.Counterparties[i] }},
		{"contracts.json", len(l.Contracts), func(i int) any { return &l.Contracts[i] }},
		{"documents.json", len(l.Documents), func(i int) any { return &l.Documents[i] }},
		{"movements.json", len(l.Movements), func(i int) any { return &l.Movements[i] }},
		{"chart_of_accounts.json", len(l.Accounts), func(i int) any { return &l.Accounts[i] }},
	}
	if len(l.Items) > 0 { // the default ledger has no nomenclature, and gets no file of it
		files = append(files, struct {
			name string
			n    int
			at   func(int) any
		}{itemsFile, len(l.Items), func(i int) any { return &l.Items[i] }})
	}
	for _, f := range files {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // names keep their «&» and quotes as 1C shows them
		b.WriteString("[\n")
		for i := range f.n {
			if i > 0 {
				b.Truncate(b.Len() - 1) // the encoder's newline
				b.WriteString(",\n")
			}
			if err := enc.Encode(f.at(i)); err != nil {
				return fmt.Errorf("onec: export: %s: %w", f.name, err)
			}
		}
		b.WriteString("]\n")
		if err := os.WriteFile(filepath.Join(dir, f.name), b.Bytes(), 0o644); err != nil {
			return fmt.Errorf("onec: export: %w", err)
		}
	}
	return nil
}

// MarshalJSON writes a local datetime back as "2006-01-02T15:04:05".
func (t LocalTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + t.Format("2006-01-02T15:04:05") + `"`), nil
}
