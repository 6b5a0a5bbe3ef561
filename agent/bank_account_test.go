package agent

import (
	"strings"
	"testing"
)

// A settlement account named in a question scopes the answer to its organization, and the
// answer says which account it is for.
func TestBankAccountQuestions(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	tests := []struct {
		text string
		want []string
	}{
		{"остаток на р/с 40702810414434320187 на 31.03.2026",
			[]string{"ООО «Северный ветер Трейд» · р/с 40702810414434320187 · сч", "Остаток по счёту 51 на 31.03.2026: **"}},
		{"сколько на счёте ...8153 на 31.03.2026",
			[]string{"ООО «Северный ветер» · р/с 40702810927616318153 · сч"}},
		{"какой р/с у северного ветра трейд",
			[]string{"р/с 40702810414434320187"}},
	}
	for _, tt := range tests {
		ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: tt.text})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(ans.Text, w) {
				t.Errorf("%q: the answer lacks %q:\n%s", tt.text, w, ans.Text)
			}
		}
	}
}

// An account none of ours has is said, ours are offered, and a button picks one.
func TestUnknownBankAccount(t *testing.T) {
	a := ledgerAgent(t, func(int64, int64) bool { return true })
	ans, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Text: "остаток на р/с 40702810000000000001 на 31.03.2026"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ans.Text, "Не нашёл у наших организаций в 1С расчётный счёт 40702810000000000001") ||
		!strings.Contains(ans.Text, "40702810414434320187 — ООО «Северный ветер Трейд»") || len(ans.Buttons) != 2 {
		t.Fatalf("answer %q, buttons %+v", ans.Text, ans.Buttons)
	}
	var pick string
	for _, b := range ans.Buttons {
		if strings.HasPrefix(b.Text, "40702810414434320187") {
			pick = b.Data
		}
	}
	picked, err := a.Answer(t.Context(), Request{UserID: 1, ChatID: 1, Command: "drill", Text: pick})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(picked.Text, "ООО «Северный ветер Трейд» · р/с 40702810414434320187") ||
		!strings.Contains(picked.Text, "Остаток по счёту 51 на 31.03.2026") {
		t.Errorf("the chosen account's answer:\n%s", picked.Text)
	}
}
