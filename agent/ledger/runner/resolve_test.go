package runner

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/google/go-cmp/cmp"
)

// resolveCatalogs are the demo ledger's catalogs as resolver entities.
type resolveCatalogs struct {
	parties, contracts, orgs []recipe.Entity
}

func loadResolveCatalogs(tb testing.TB) resolveCatalogs {
	tb.Helper()
	l, err := onec.LoadDemo()
	if err != nil {
		tb.Fatalf("onec.LoadDemo() error: %v", err)
	}
	var c resolveCatalogs
	for _, p := range l.Counterparties {
		c.parties = append(c.parties, recipe.Entity{Ref: p.Ref, Name: p.Name, FullName: p.FullName, INN: p.INN, Deleted: p.DeletionMark})
	}
	for _, k := range l.Contracts {
		c.contracts = append(c.contracts, recipe.Entity{Ref: k.Ref, Name: k.Name, Number: k.Number, OwnerRef: k.OwnerRef,
			OrgRef: k.OrganizationRef, Date: k.Date, Deleted: k.DeletionMark})
	}
	for _, o := range l.Organizations {
		c.orgs = append(c.orgs, recipe.Entity{Ref: o.Ref, Name: o.Name, INN: o.INN})
	}
	return c
}

// refOfName returns the Ref of the live entity with that Name.
func refOfName(tb testing.TB, es []recipe.Entity, name string) string {
	tb.Helper()
	for _, e := range es {
		if e.Name == name && !e.Deleted {
			return e.Ref
		}
	}
	tb.Fatalf("no live entity named %q in the demo ledger", name)
	return ""
}

// resolveOutcome is what a test checks of a Resolution: names instead of refs, so that
// failures read.
type resolveOutcome struct {
	Resolved   string
	Method     string
	Ambiguity  int
	Candidates []string
}

func outcomeOf(tb testing.TB, r Resolution, es []recipe.Entity) resolveOutcome {
	tb.Helper()
	o := resolveOutcome{Resolved: r.Resolved, Method: r.Method, Ambiguity: r.AmbiguityCount}
	for _, c := range r.Candidates {
		o.Candidates = append(o.Candidates, c.Name)
	}
	switch {
	case r.Found():
		if r.Ambiguous() || refOfName(tb, es, r.Resolved) != r.ResolvedRef {
			tb.Errorf("inconsistent found resolution %+v", r)
		}
		if r.Confidence != resolveConfidence[r.Method] {
			tb.Errorf("confidence = %v, want %v for method %s", r.Confidence, resolveConfidence[r.Method], r.Method)
		}
	case r.Ambiguous():
		if r.Resolved != "" || len(r.Candidates) == 0 || len(r.Candidates) > 8 {
			tb.Errorf("inconsistent ambiguous resolution %+v", r)
		}
	default:
		if r.Method != "none" || r.Confidence != 0 || r.Resolved != "" || len(r.Candidates) != 0 {
			tb.Errorf("inconsistent empty resolution %+v", r)
		}
	}
	return o
}

func found(name, method string) resolveOutcome { return resolveOutcome{Resolved: name, Method: method} }

func ambiguous(method string, n int, names ...string) resolveOutcome {
	return resolveOutcome{Method: method, Ambiguity: n, Candidates: names}
}

var nothing = resolveOutcome{Method: "none"}

func TestResolveCounterparty(t *testing.T) {
	c := loadResolveCatalogs(t)
	const (
		alfa    = "ООО «Альфа»"
		alfaPos = "ООО «Альфа Поставка»"
		granit  = "ООО «Гранит»"
		granitM = "ООО «Гранит-М»"
		vector  = "АО «Вектор»"
		vectorP = "ООО «Вектор Плюс»"
		smirnov = "ИП Смирнов Алексей Петрович"
		romashk = "ООО \"Ромашка\""
		delta   = "ООО «Delta Trade»"
	)
	tests := []struct {
		raw, inn string
		want     resolveOutcome
	}{
		// Near-duplicate pairs, both ways.
		{raw: "Альфа", want: found(alfa, "normalized")},
		{raw: "альфа поставка", want: found(alfaPos, "normalized")},
		{raw: "ООО «Альфа»", want: found(alfa, "exact")},
		{raw: "ооо «альфа поставка»", want: found(alfaPos, "exact")},
		{raw: "Гранит", want: found(granit, "normalized")},
		{raw: "Гранит-М", want: found(granitM, "normalized")},
		{raw: "Гранит М", want: found(granitM, "normalized")},
		{raw: "Гранит–М", want: found(granitM, "normalized")}, // en dash
		{raw: "ООО «Гранит-М»", want: found(granitM, "exact")},
		{raw: "вектор", want: found(vector, "normalized")},
		{raw: "Вектор Плюс", want: found(vectorP, "normalized")},
		// Inflected forms and service words.
		{raw: "по Альфе", want: found(alfa, "normalized")},
		{raw: "Альфы", want: found(alfa, "normalized")},
		{raw: "Альфой", want: found(alfa, "normalized")},
		{raw: "Альфе Поставке", want: found(alfaPos, "normalized")},
		{raw: "Гранита", want: found(granit, "normalized")},
		{raw: "Гранитом", want: found(granit, "normalized")},
		{raw: "Гранита-М", want: found(granitM, "normalized")}, // declined as two words
		{raw: "Гранита М", want: found(granitM, "normalized")},
		{raw: "Вектору", want: found(vector, "normalized")},
		{raw: "Вектором", want: found(vector, "normalized")},
		{raw: "Вектора Плюс", want: found(vectorP, "normalized")},
		{raw: "Техснабом", want: found("ООО «Техснаб»", "normalized")},
		{raw: "у контрагента Техснаб", want: found("ООО «Техснаб»", "normalized")},
		{raw: "Металлург-Инвеста", want: found("АО «Металлург-Инвест»", "normalized")},
		{raw: "Северсталь Логистик", want: found("ПАО «Северсталь-Логистик»", "normalized")},
		{raw: "Бумага и Ко", want: found("ООО «Бумага и Ко»", "normalized")},
		{raw: "Энергией", want: found("ООО «Энергия»", "normalized")},
		// Quotes of every kind and legal forms.
		{raw: "ООО Альфа", want: found(alfa, "normalized")},
		{raw: `ООО "Альфа"`, want: found(alfa, "normalized")},
		{raw: "ООО “Альфа”", want: found(alfa, "normalized")},
		{raw: "ООО „Альфа“", want: found(alfa, "normalized")},
		{raw: "'Альфа'", want: found(alfa, "normalized")},
		{raw: "`Альфа`", want: found(alfa, "normalized")},
		{raw: "Общество с ограниченной ответственностью «Альфа»", want: found(alfa, "exact")}, // FullName; the deleted one shares it
		{raw: "общество с ограниченной ответственностью Гранит-М", want: found(granitM, "normalized")},
		{raw: "Акционерное общество Вектор", want: found(vector, "normalized")},
		{raw: "ПАО Вектор", want: found(vector, "normalized")},
		{raw: "ООО «Вектор Плюс»", want: found(vectorP, "exact")},
		// The straight-quoted name and the Latin name.
		{raw: `ООО "Ромашка"`, want: found(romashk, "exact")},
		{raw: "ООО «Ромашка»", want: found(romashk, "normalized")},
		{raw: "Ромашкой", want: found(romashk, "normalized")},
		{raw: "Delta Trade", want: found(delta, "normalized")},
		{raw: "DELTA TRADE LLC", want: found(delta, "normalized")},
		{raw: "delta", want: found(delta, "fuzzy")},
		// The deletion-marked counterparty is never chosen.
		{raw: "ООО «Альфа» (не использовать)", want: nothing},
		{raw: "94517334-e4a1-40ea-b767-974e51baabf7", want: nothing},
		{raw: "Альфа не использовать", want: nothing},
		// Refs and INNs.
		{raw: "b5df193a-0940-4afc-991f-43edb57e86ec", want: found(vector, "ref")},
		{raw: "B5DF193A-0940-4AFC-991F-43EDB57E86EC", want: found(vector, "ref")},
		{raw: "9366414049", want: found(alfa, "inn")}, // shared with the deleted duplicate
		{raw: "ИНН 1000352082", want: found(granitM, "inn")},
		{inn: "5891076210", want: found(granit, "inn")},
		{raw: "Гранит-М", inn: "5891076210", want: found(granit, "inn")}, // the INN step comes first
		{raw: "441706417669", want: found(smirnov, "inn")},               // 12-digit INN of an ИП
		{raw: "0000000000", want: nothing},
		// Fuzzy: prefixes and one typo.
		{raw: "ИП Смирнов", want: found(smirnov, "fuzzy")},
		{raw: "Смирнова Алексея", want: found(smirnov, "fuzzy")},
		{raw: "Кузнецовой", want: found("ИП Кузнецова Ольга Игоревна", "fuzzy")},
		{raw: "Уральских Систем", want: found("АО «Уральские Системы»", "fuzzy")},
		{raw: "Альфо", want: found(alfa, "fuzzy")},     // typo: the one-word name wins over «Альфа Поставка»
		{raw: "Гранитт", want: found(granit, "fuzzy")}, // typo: not «Гранит-М»
		{raw: "Векторр Плюс", want: found(vectorP, "fuzzy")},
		{raw: "Инвест", want: found("АО «Металлург-Инвест»", "fuzzy")},
		// Ambiguity: a prefix or word shared by several names; candidates sorted by name.
		{raw: "Сев", want: ambiguous("fuzzy", 2, "ООО «Северный ветер»", "ПАО «Северсталь-Логистик»")},
		{raw: "Тех", want: ambiguous("fuzzy", 2, "ООО «ТехноЛайн»", "ООО «Техснаб»")},
		{raw: "Логистик", want: ambiguous("fuzzy", 2, "ООО «Логистик Центр»", "ПАО «Северсталь-Логистик»")},
		{raw: "Альф Пост", want: found(alfaPos, "fuzzy")},
		// Nothing.
		{raw: "", want: nothing},
		{raw: "ООО", want: nothing},
		{raw: "«»", want: nothing},
		{raw: "Ромашка Плюс", want: nothing},
		{raw: "и", want: nothing},
		{raw: strings.Repeat("Альфа ", 34), want: nothing}, // over 200 runes
	}
	for _, tt := range tests {
		t.Run(tt.raw+"|"+tt.inn, func(t *testing.T) {
			got := outcomeOf(t, ResolveCounterparty(tt.raw, tt.inn, c.parties), c.parties)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveCounterparty(%q, %q) mismatch (-want +got):\n%s", tt.raw, tt.inn, diff)
			}
		})
	}
}

func TestResolveContract(t *testing.T) {
	c := loadResolveCatalogs(t)
	alfa := refOfName(t, c.parties, "ООО «Альфа»")
	vector := refOfName(t, c.parties, "АО «Вектор»")
	techsnab := refOfName(t, c.parties, "ООО «Техснаб»")
	const p77 = "Договор поставки № П-77/2024 от 06.02.2024"
	tests := []struct {
		raw, owner string
		want       resolveOutcome
	}{
		{raw: "П-77/2024", want: found(p77, "exact")},
		{raw: "п-77/2024", want: found(p77, "exact")},
		{raw: "П 77/2024", want: found(p77, "normalized")},
		{raw: "№ П-77/2024", want: found(p77, "normalized")},
		{raw: "договор П-77/2024", want: found(p77, "normalized")},
		{raw: "по договору №П77/2024", want: found(p77, "normalized")},
		{raw: "П-77/2024 от 06.02.2024", want: found(p77, "normalized")},
		{raw: "П-77/2024 от 07.02.2024", want: nothing},
		{raw: p77, want: found(p77, "exact")},
		{raw: "d35d06b7-8209-4a31-99a2-5a5cb784dda5", want: found(p77, "ref")},
		// Partial numbers match whole tokens only.
		{raw: "договор 77", want: found(p77, "fuzzy")},
		{raw: "П-77", want: found(p77, "fuzzy")},
		{raw: "77/2024", want: found(p77, "fuzzy")},
		{raw: "18", want: found("Договор поставки № П-18/2024 от 19.01.2024", "fuzzy")}, // not П-118/2024
		{raw: "П-118", want: found("Договор с поставщиком № П-118/2024 от 18.02.2024", "fuzzy")},
		{raw: "договор поставки П-54", want: found("Договор поставки № П-54/2024 от 29.06.2024", "fuzzy")},
		{raw: "П-198", want: found("Договор поставки № П-198/2024 от 15.01.2024", "fuzzy")}, // not ДП-198/2024
		{raw: "198", want: ambiguous("fuzzy", 2,
			"Договор поставки № ДП-198/2024 от 10.11.2024", "Договор поставки № П-198/2024 от 15.01.2024")},
		{raw: "договор 68", want: ambiguous("fuzzy", 4,
			"Договор поставки № ДП-68/2024 от 23.05.2024", "Договор с поставщиком № ДП-68/2024 от 23.06.2024",
			"Договор с поставщиком № ДП-68/2024 от 23.11.2024", "Договор с поставщиком № П-68/2024 от 09.09.2024")},
		{raw: "П-68", want: found("Договор с поставщиком № П-68/2024 от 09.09.2024", "fuzzy")},
		{raw: "ДП-68/2024", want: ambiguous("exact", 3,
			"Договор поставки № ДП-68/2024 от 23.05.2024", "Договор с поставщиком № ДП-68/2024 от 23.06.2024",
			"Договор с поставщиком № ДП-68/2024 от 23.11.2024")},
		{raw: "ДП-68/2024 от 23.11.2024", want: found("Договор с поставщиком № ДП-68/2024 от 23.11.2024", "normalized")},
		// Owner restriction.
		{raw: "ДП-68/2024", owner: techsnab, want: found("Договор с поставщиком № ДП-68/2024 от 23.06.2024", "exact")},
		{raw: "68", owner: techsnab, want: found("Договор с поставщиком № ДП-68/2024 от 23.06.2024", "fuzzy")},
		{raw: "П-77/2024", owner: alfa, want: found(p77, "exact")},
		{raw: "П-77/2024", owner: vector, want: nothing},
		{raw: "83", owner: vector, want: found("Договор поставки № 83/2024 от 09.12.2024", "fuzzy")},
		{raw: "d35d06b7-8209-4a31-99a2-5a5cb784dda5", owner: vector, want: nothing},
		// Nothing.
		{raw: "П-15/2025", want: nothing},
		{raw: "П-7", want: nothing},
		{raw: "П", want: nothing},
		{raw: "договор поставки", want: nothing},
		{raw: "", want: nothing},
	}
	for _, tt := range tests {
		t.Run(tt.raw+"|"+tt.owner, func(t *testing.T) {
			got := outcomeOf(t, ResolveContract(tt.raw, c.contracts, tt.owner), c.contracts)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveContract(%q, %q) mismatch (-want +got):\n%s", tt.raw, tt.owner, diff)
			}
		})
	}
}

func TestResolveContractCandidatesCapped(t *testing.T) {
	c := loadResolveCatalogs(t)
	r := ResolveContract("2024", c.contracts, "")
	if !r.Ambiguous() || r.AmbiguityCount <= 8 || len(r.Candidates) != 8 {
		t.Fatalf("ResolveContract(2024) = count %d, %d candidates; want more than 8 and 8", r.AmbiguityCount, len(r.Candidates))
	}
	if r.Candidates[0].Number != "126/2024" {
		t.Errorf("first candidate = %s, want 126/2024 (sorted by number)", r.Candidates[0].Number)
	}
}

func TestResolveOrganization(t *testing.T) {
	c := loadResolveCatalogs(t)
	const (
		ours  = "ООО «Северный ветер»"
		trade = "ООО «Северный ветер Трейд»"
	)
	tests := []struct {
		raw  string
		want resolveOutcome
	}{
		{"Северный ветер", found(ours, "normalized")},
		{"ООО «Северный ветер»", found(ours, "exact")},
		{"северный ветер трейд", found(trade, "normalized")},
		{"Северного ветра", found(ours, "fuzzy")}, // «ветра» is one edit from «ветер»; the two-word name wins
		{"Трейд", found(trade, "fuzzy")},
		{"1031699119", found(ours, "inn")},
		{"34adc550-78a9-430a-b8d1-7baed6fe0d19", found(ours, "ref")},
		{"Северный", ambiguous("fuzzy", 2, ours, trade)},
		{"Альфа", nothing},
		{"9366414049", nothing}, // a counterparty's INN
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got := outcomeOf(t, ResolveOrganization(tt.raw, c.orgs), c.orgs)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ResolveOrganization(%q) mismatch (-want +got):\n%s", tt.raw, diff)
			}
		})
	}
	// The customer named like our organization: each list gives its own entity.
	party := ResolveCounterparty("Северный ветер", "", c.parties)
	org := ResolveOrganization("Северный ветер", c.orgs)
	if party.ResolvedRef != "d5ddba7e-1d29-4f86-9667-0a22228c9e0a" || org.ResolvedRef != "34adc550-78a9-430a-b8d1-7baed6fe0d19" {
		t.Errorf("«Северный ветер»: counterparty %s, organization %s; want the customer and us", party.ResolvedRef, org.ResolvedRef)
	}
}

func TestResolveSynthetic(t *testing.T) {
	es := []recipe.Entity{
		{Ref: "1", Name: "ООО «Орион»", INN: "7707083893", Deleted: true},
		{Ref: "2", Name: "ООО «Альфа»"},
		{Ref: "3", Name: "АО «Альфа»"},
		{Ref: "4", Name: "ООО «Альфа Трейд»"},
		{Ref: "2", Name: "ООО «Альфа»"}, // a repeated row is not a second candidate
	}
	tests := []struct {
		raw, inn string
		want     Resolution
	}{
		{raw: "Орион", inn: "7707083893", want: Resolution{AnchorType: "counterparty", Raw: "Орион", Method: "none"}},
		{raw: "7707083893", want: Resolution{AnchorType: "counterparty", Raw: "7707083893", Method: "none"}},
		{raw: "Альфа", want: Resolution{AnchorType: "counterparty", Raw: "Альфа", Method: "normalized",
			AmbiguityCount: 2, Confidence: 0.45, Candidates: []recipe.Entity{es[2], es[1]}}},
		{raw: "ООО Альфа Трейд", want: Resolution{AnchorType: "counterparty", Raw: "ООО Альфа Трейд", Method: "normalized",
			ResolvedRef: "4", Resolved: "ООО «Альфа Трейд»", Confidence: 0.9}},
	}
	for _, tt := range tests {
		got := ResolveCounterparty(tt.raw, tt.inn, es)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("ResolveCounterparty(%q, %q) mismatch (-want +got):\n%s", tt.raw, tt.inn, diff)
		}
	}
}

func TestResolveNormalize(t *testing.T) {
	tests := []struct{ in, key string }{
		{"ООО «Альфа»", "альф"},
		{"Общество с ограниченной ответственностью «Альфа Поставка»", "альф поставк"},
		{"по Альфе", "альф"},
		{"ИП Смирнов Алексей Петрович", "смирнов алекс петрович"},
		{"ООО «Гранит-М»", "гранит-м"},
		{"«Металлург-Инвеста»", "металлург-инвест"},
		{"Ёлка, ООО", "елк"},
		{"Ёлка", "елк"},
		{"Со", "со"},
		{"ООО «Бумага и Ко»", "бумаг и ко"},
		{"АО\u00a0«Вектор»", "вектор"},
		{"Строи\u0306маркет", "строймаркет"},
		{"  -Альфа- ", "альф"},
	}
	for _, tt := range tests {
		if got := resParseName(tt.in).key; got != tt.key {
			t.Errorf("resParseName(%q).key = %q, want %q", tt.in, got, tt.key)
		}
	}
}

func TestResolveJSON(t *testing.T) {
	c := loadResolveCatalogs(t)
	b, err := json.Marshal(ResolveCounterparty("по Альфе", "", c.parties))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"anchor_type":"counterparty","anchor_value_raw":"по Альфе","anchor_value_resolved":"ООО «Альфа»",` +
		`"resolver_confidence":0.9,"ambiguity_count":0,"resolver_method":"normalized"}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("JSON mismatch (-want +got):\n%s", diff)
	}
}

func FuzzResolve(f *testing.F) {
	c := loadResolveCatalogs(f)
	for _, s := range []string{"Альфа", "по Альфе", "Гранит-М", "П-77/2024 от 06.02.2024", "договор 68", "ИНН 9366414049",
		"«»“”„\"'`", "- -", "ООО", "и\u0306", "31.02.2024", "Северного ветра", "\xff\xfe"} {
		f.Add(s)
	}
	valid := map[string]bool{"ref": true, "inn": true, "exact": true, "normalized": true, "fuzzy": true, "none": true}
	deleted := map[string]bool{}
	for _, e := range c.parties {
		if e.Deleted {
			deleted[e.Ref] = true
		}
	}
	f.Fuzz(func(t *testing.T, raw string) {
		for _, r := range []Resolution{
			ResolveCounterparty(raw, "", c.parties),
			ResolveCounterparty(raw, raw, c.parties),
			ResolveContract(raw, c.contracts, ""),
			ResolveOrganization(raw, c.orgs),
		} {
			if !valid[r.Method] || r.Found() && r.Ambiguous() || len(r.Candidates) > 8 ||
				r.Ambiguous() != (len(r.Candidates) > 0) || deleted[r.ResolvedRef] ||
				r.Method == "none" && (r.Found() || r.Ambiguous()) || r.Method != "none" && !r.Found() && !r.Ambiguous() {
				t.Errorf("inconsistent resolution of %q: %+v", raw, r)
			}
			for _, e := range r.Candidates {
				if e.Deleted {
					t.Errorf("deleted candidate %s for %q", e.Ref, raw)
				}
			}
		}
	})
}
