package reconcile

import (
	"errors"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/recipe"
)

// demoCatalogs are the default demo base's catalogs as the parser's resolver holds them.
func demoCatalogs(t *testing.T) recipe.Catalogs {
	l := defaultLedger(t)
	var c recipe.Catalogs
	for _, o := range l.Organizations {
		c.Organizations = append(c.Organizations, recipe.Entity{Ref: o.Ref, Name: o.Name, INN: o.INN, HeadRef: o.HeadRef})
	}
	for _, p := range l.Counterparties {
		c.Counterparties = append(c.Counterparties, recipe.Entity{Ref: p.Ref, Name: p.Name, FullName: p.FullName, INN: p.INN, Deleted: p.DeletionMark})
	}
	for _, k := range l.Contracts {
		c.Contracts = append(c.Contracts, recipe.Entity{Ref: k.Ref, Name: k.Name, Number: k.Number, OwnerRef: k.OwnerRef, OrgRef: k.OrganizationRef, Deleted: k.DeletionMark})
	}
	return c
}

// TestResolve finds what their act names in our catalogs, by ИНН or by the name as printed —
// and refuses rather than picks a near name or one of several.
func TestResolve(t *testing.T) {
	cats := demoCatalogs(t)
	north := Party{Name: "ООО «Северный ветер»", INN: "1031699119"}
	tests := []struct {
		name             string
		q                ActQuery
		org, party, deal string
		refuses          string
	}{
		{"by INN", ActQuery{Organization: north, Counterparty: Party{INN: "9366414049"}}, "ООО «Северный ветер»", "ООО «Альфа»", "", ""},
		{"full name", ActQuery{Counterparty: Party{Name: "Общество с ограниченной ответственностью «Альфа»"}}, "", "ООО «Альфа»", "", ""},
		{"no quotes", ActQuery{Organization: Party{Name: "ООО Северный ветер Трейд"}, Counterparty: Party{Name: "ООО Альфа"}}, "ООО «Северный ветер Трейд»", "ООО «Альфа»", "", ""},
		{"bare name", ActQuery{Counterparty: Party{Name: "Альфа"}}, "", "ООО «Альфа»", "", ""},
		{"another legal form", ActQuery{Counterparty: Party{Name: "ООО «Вектор»"}}, "", "", "", "В 1С нет контрагента ООО «Вектор»."},
		{"unknown INN", ActQuery{Counterparty: Party{Name: "ООО «Омега»", INN: "7707083893"}}, "", "", "", "нет контрагента ООО «Омега» (ИНН 7707083893)"},
		{"contract", ActQuery{Organization: north, Counterparty: Party{Name: "ООО «Альфа»"}, Contract: "№ П-112/2024 от 04.02.2024"}, "ООО «Северный ветер»", "ООО «Альфа»", "Договор поставки № П-112/2024 от 04.02.2024", ""},
		{"contract of the other organization", ActQuery{Organization: north, Counterparty: Party{Name: "ООО «Альфа»"}, Contract: "№ П-77/2024"}, "", "", "", "нет договора «№ П-77/2024»"},
		{"part of a number", ActQuery{Counterparty: Party{Name: "ООО «Альфа»"}, Contract: "№ 78/2024"}, "", "", "", "нет договора"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			org, party, deal, err := Resolve(cats, tt.q)
			var r *Refusal
			if tt.refuses != "" {
				if !errors.As(err, &r) || !strings.Contains(r.Text, tt.refuses) {
					t.Errorf("err %v, want a refusal saying %q", err, tt.refuses)
				}
				return
			}
			if err != nil || org.Name != tt.org || party.Name != tt.party || deal.Name != tt.deal {
				t.Errorf("Resolve = %q, %q, %q, %v; want %q, %q, %q", org.Name, party.Name, deal.Name, err, tt.org, tt.party, tt.deal)
			}
		})
	}
}
