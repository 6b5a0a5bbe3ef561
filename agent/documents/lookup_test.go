package documents

import (
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

const contract = `# Договор поставки № 17

## 1. Предмет договора

1.1. ООО «Техснаб» (Поставщик) обязуется передать ООО «Финвектор» (Покупатель) товар, а Покупатель — принять и оплатить его.

## 2. Оплата

2.1. Покупатель оплачивает товар в течение 20 рабочих дней после поставки.

## 3. Ответственность

3.1. За просрочку поставки Поставщик уплачивает пени в размере 0,1% от стоимости товара за каждый день просрочки.
`

// contractLibrary holds the contract in owner u:1's documents.
func contractLibrary(t *testing.T) (*library.Library, docstore.Meta) {
	t.Helper()
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	added, err := lib.Add(t.Context(), "u:1", 1, "договор-поставки.md", []byte(contract))
	if err != nil {
		t.Fatal(err)
	}
	return lib, added.Meta
}

// One search is read two ways, the tool's facts and the extractive reply, and both quote the
// same clause under the same footnote.
func TestReadTwoWays(t *testing.T) {
	lib, _ := contractLibrary(t)
	const q = "какие пени за просрочку поставки"
	p, err := Search(t.Context(), lib, Scope{Owner: "u:1"}, plan.SearchUserDocumentsArgs{Query: q})
	if err != nil {
		t.Fatalf("Search() error: %v", err)
	}
	if !p.Found || !strings.Contains(p.Items[0].Text, "0,1%") {
		t.Fatalf("Search() = %+v, want the penalty clause first", p)
	}
	found, _, err := lib.Search(t.Context(), "u:1", library.Query{Text: q})
	if err != nil {
		t.Fatal(err)
	}
	r := Extractive(found, q, false)
	if !strings.Contains(r.Text, "0,1%") || !strings.Contains(r.Text, "[1]") || len(r.Sources) == 0 || r.Sources[0] != p.Sources[0] {
		t.Errorf("Extractive() = %q with %+v, want the penalty clause footnoted as the facts' %+v", r.Text, r.Sources, p.Sources)
	}
}

// The planner names documents by id or title; only the owner's own list is consulted.
func TestResolve(t *testing.T) {
	lib, m := contractLibrary(t)
	for _, ref := range []string{m.ID, strings.ToUpper(m.Title), "«" + m.Title + "»"} {
		got, err := resolve(t.Context(), lib, Scope{Owner: "u:1"}, []string{ref})
		if err != nil || len(got) != 1 || got[0].ID != m.ID {
			t.Errorf("resolve(%q) = %+v, %v; want the contract", ref, got, err)
		}
	}
	if got, err := resolve(t.Context(), lib, Scope{Owner: "u:2"}, []string{m.ID}); err != nil || len(got) != 0 {
		t.Errorf("another owner's resolve(%q) = %+v, %v; want nothing", m.ID, got, err)
	}
}

func TestLoadFull(t *testing.T) {
	lib, m := contractLibrary(t)
	p, err := LoadFull(t.Context(), lib, Scope{Owner: "u:1"}, "сроки оплаты", plan.LoadDocumentsFullArgs{})
	if err != nil || p.Found || len(p.Limitations) != 1 {
		t.Errorf("LoadFull() with nothing selected = %+v, %v; want a limitation and no documents", p, err)
	}
	p, err = LoadFull(t.Context(), lib, Scope{Owner: "u:1", Selected: []docstore.Meta{m}}, "сроки оплаты", plan.LoadDocumentsFullArgs{})
	if err != nil || len(p.Items) != 1 || p.Items[0].Kind != "document" || !strings.Contains(p.Items[0].Text, "20 рабочих дней") {
		t.Errorf("LoadFull() of the selection = %+v, %v; want the contract whole", p, err)
	}
}

// A standard clause the contract, read whole, lacks is said to be missing; one it has is not.
func TestMissingClause(t *testing.T) {
	lib, _ := contractLibrary(t)
	r, ok, err := MissingClause(t.Context(), lib, "u:1", nil, "что в договоре про форс-мажор?", true)
	if err != nil || !ok || !strings.Contains(r.Text, "» [1] нет пункта о форс-мажоре") || len(r.Sources) != 1 {
		t.Errorf("MissingClause(форс-мажор) = %+v, %v, %v; want the contract footnoted as lacking it", r, ok, err)
	}
	if r, ok, err := MissingClause(t.Context(), lib, "u:1", nil, "какой срок оплаты по договору?", true); ok || err != nil {
		t.Errorf("MissingClause(срок оплаты) = %+v, %v, %v; the contract has it", r, ok, err)
	}
}
