package understand

import (
	"testing"
	"time"
)

// TestReconcileCue: a request to check an act against our data sets Decision.Reconcile; the
// act's name alone («что такое акт сверки») and words that merely start alike do not.
func TestReconcileCue(t *testing.T) {
	p := NewParser()
	now := time.Date(2026, 4, 10, 12, 0, 0, 0, time.UTC)
	for text, want := range map[string]bool{
		"сверь":                            true,
		"Сверь, пожалуйста":                true,
		"сделай сверку с 1С":               true,
		"сверить с нашими данными":         true,
		"сравни с 1с":                      true,
		"сравни акт с нашими данными":      true,
		"что такое акт сверки":             false,
		"сверхурочные за март":             false,
		"сравни дебиторку на 1 и 15 марта": false,
	} {
		if got := p.Parse(Input{Text: text, Now: now}).Reconcile; got != want {
			t.Errorf("Parse(%q).Reconcile = %v, want %v", text, got, want)
		}
	}
}
