package onec_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/integrations/onec"
)

// Document types of agent/ledger/runner (DocumentTypes and BankDocumentTypes).
var (
	whitelistedTypes = []string{"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета", "РеализацияТоваровУслуг",
		"ПоступлениеТоваровУслуг", "АктСверкиВзаиморасчетов", "ВводНачальныхОстатков"}
	bankTypes    = []string{"ПоступлениеНаРасчетныйСчет", "СписаниеСРасчетногоСчета"}
	documentKeys = []string{"БанковскийСчет", "Дата", "Договор", "Контрагент", "НазначениеПлатежа", "Номер", "Организация",
		"ПометкаУдаления", "Проведен", "Ссылка", "СуммаДокумента"}
)

// bpType is a ledger document type under its BP 3.0 name: the ledger's ВводОстатков is BP's
// ВводНачальныхОстатков.
func bpType(ledgerType string) string {
	if ledgerType == "ВводОстатков" {
		return "ВводНачальныхОстатков"
	}
	return ledgerType
}

// docRow is one DOCUMENT row.
type docRow struct {
	Ref, Type, Number, Date string
	Posted, Deleted         bool
	Org, Cp, Ctr            string
	Amount                  onec.Kopecks
	Bank                    any
	Purpose                 string
}

func docRowsOf(t testing.TB, rows []map[string]any) []docRow {
	t.Helper()
	var out []docRow
	for _, row := range rows {
		if diff := gocmp.Diff(sortedKeys(documentKeys), rowKeys(row)); diff != "" {
			t.Fatalf("document row keys (-want +got):\n%s", diff)
		}
		r, _ := onec.RefOf(row["Ссылка"])
		out = append(out, docRow{
			Ref: uuidOf(t, row["Ссылка"], onec.TypeDocumentPrefix), Type: strings.TrimPrefix(r.Type, onec.TypeDocumentPrefix),
			Number: row["Номер"].(string), Date: row["Дата"].(string),
			Posted: row["Проведен"].(bool), Deleted: row["ПометкаУдаления"].(bool),
			Org: uuidOf(t, row["Организация"], onec.TypeOrganization), Cp: uuidOf(t, row["Контрагент"], onec.TypeCounterparty),
			Ctr: uuidOf(t, row["Договор"], onec.TypeContract), Amount: money(t, row["СуммаДокумента"]),
			Bank: row["БанковскийСчет"], Purpose: row["НазначениеПлатежа"].(string),
		})
	}
	return out
}

// documentsOracle: documents whose date falls within from … to inclusive (whole days; a zero
// bound is open), deletion-marked ones left out, unposted ones kept.
func (o *oracle) documentsOracle(keep func(onec.Document) bool, types []string, from, to time.Time) []docRow {
	var out []docRow
	for _, doc := range o.l.Documents {
		if doc.DeletionMark || !slices.Contains(types, bpType(doc.Type)) || !keep(doc) ||
			!from.IsZero() && doc.Date.Before(from) || !to.IsZero() && !onOrBefore(doc.Date.Time, to) {
			continue
		}
		var bank any = onec.WireNull // NULL КАК БанковскийСчет
		if slices.Contains(bankTypes, doc.Type) && doc.BankAccount != nil {
			bank = *doc.BankAccount
		}
		out = append(out, docRow{
			Ref: doc.Ref, Type: bpType(doc.Type), Number: doc.Number, Date: doc.Date.Format("2006-01-02T15:04:05") + "Z",
			Posted: doc.Posted, Org: doc.OrganizationRef, Cp: doc.CounterpartyRef, Ctr: doc.ContractRef,
			Amount: doc.Amount, Bank: bank, Purpose: doc.Purpose,
		})
	}
	return out
}

// newestFirst is the documents' order: date descending, then number descending.
func newestFirst(x, y docRow) int {
	if c := strings.Compare(y.Date, x.Date); c != 0 {
		return c
	}
	if c := strings.Compare(y.Number, x.Number); c != 0 {
		return c
	}
	return strings.Compare(x.Type+x.Ref, y.Type+y.Ref)
}

func compareDocs(t *testing.T, name string, want, got []docRow) {
	t.Helper()
	if !slices.IsSortedFunc(got, newestFirst) {
		t.Errorf("%s: documents not newest first", name)
	}
	slices.SortFunc(want, newestFirst)
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-oracle +demo):\n%s", name, diff)
	}
}

var periods = [][2]string{{"2024-12-31", "2024-12-31"}, {"2025-01-01", "2025-03-31"}, {"2024-12-31", "2026-04-30"}, {"2026-03-16", "2026-03-16"}, {"2025-06-23", "2025-06-26"}}

func TestDocumentsByCounterparty(t *testing.T) {
	l, d, o := fixture(t)
	for _, cp := range l.Counterparties {
		for _, org := range l.Organizations {
			for _, p := range periods {
				for _, typ := range []string{"", "РеализацияТоваровУслуг", "АктСверкиВзаиморасчетов", "ПоступлениеНаРасчетныйСчет", "Несуществующий"} {
					rows := run(t, d, "address.documents.by_counterparty", map[string]any{
						"НачалоПериода": onec.PeriodStartParam(day(t, p[0])), "КонецПериода": onec.PeriodEndParam(day(t, p[1])),
						"Организация": ref(onec.TypeOrganization, org.Ref), "Контрагент": ref(onec.TypeCounterparty, cp.Ref),
						"ТипДокумента": typ,
					})
					want := o.documentsOracle(func(doc onec.Document) bool {
						return doc.CounterpartyRef == cp.Ref && doc.OrganizationRef == org.Ref && (typ == "" || bpType(doc.Type) == typ)
					}, whitelistedTypes, day(t, p[0]), day(t, p[1]))
					compareDocs(t, strings.Join([]string{cp.Name, org.Name, p[0], p[1], typ}, " "), want, docRowsOf(t, rows))
				}
			}
		}
	}
}

func TestDocumentsUnpostedAndDeletionMarked(t *testing.T) {
	l, d, _ := fixture(t)
	var unposted, deleted int
	for _, cp := range l.Counterparties {
		for _, org := range l.Organizations {
			rows := run(t, d, "address.documents.by_counterparty", map[string]any{
				"НачалоПериода": "2024-01-01T00:00:00", "КонецПериода": "2026-12-31T23:59:59",
				"Организация": ref(onec.TypeOrganization, org.Ref), "Контрагент": ref(onec.TypeCounterparty, cp.Ref), "ТипДокумента": "",
			})
			got := map[string]docRow{}
			for _, r := range docRowsOf(t, rows) {
				got[r.Ref] = r
			}
			for _, doc := range l.Documents {
				if doc.CounterpartyRef != cp.Ref || doc.OrganizationRef != org.Ref {
					continue
				}
				r, listed := got[doc.Ref]
				switch {
				case doc.DeletionMark:
					deleted++
					if listed {
						t.Errorf("deletion-marked %s %s is listed", doc.Type, doc.Number)
					}
				case !doc.Posted:
					unposted++
					if !listed || r.Posted {
						t.Errorf("unposted %s %s: listed %v, Проведен %v; want listed with false", doc.Type, doc.Number, listed, r.Posted)
					}
				}
			}
		}
	}
	if unposted == 0 || deleted == 0 {
		t.Errorf("the ledger has %d unposted and %d deletion-marked documents; the cases are untested", unposted, deleted)
	}
}

func TestDocumentsByContract(t *testing.T) {
	l, d, o := fixture(t)
	for _, ctr := range l.Contracts {
		for _, p := range periods {
			for _, typ := range []string{"", "СписаниеСРасчетногоСчета", "ВводНачальныхОстатков", "ВводОстатков"} {
				rows := run(t, d, "address.documents.by_contract", map[string]any{
					"НачалоПериода": onec.PeriodStartParam(day(t, p[0])), "КонецПериода": onec.PeriodEndParam(day(t, p[1])),
					"Организация": ref(onec.TypeOrganization, ctr.OrganizationRef), "Договор": ref(onec.TypeContract, ctr.Ref),
					"ТипДокумента": typ,
				})
				want := o.documentsOracle(func(doc onec.Document) bool {
					return doc.ContractRef == ctr.Ref && doc.OrganizationRef == ctr.OrganizationRef && (typ == "" || bpType(doc.Type) == typ)
				}, whitelistedTypes, day(t, p[0]), day(t, p[1]))
				compareDocs(t, strings.Join([]string{ctr.Name, p[0], p[1], typ}, " "), want, docRowsOf(t, rows))
			}
		}
	}
}

func TestBankOpsByCounterparty(t *testing.T) {
	l, d, o := fixture(t)
	bounds := [][2]string{{"", ""}, {"2025-07-01", ""}, {"", "2025-03-31"}, {"2025-03-01", "2025-05-31"}}
	for _, cp := range l.Counterparties {
		for _, org := range l.Organizations {
			for _, b := range bounds {
				var from, to time.Time
				var fromParam, toParam any
				if b[0] != "" {
					from, fromParam = day(t, b[0]), onec.PeriodStartParam(day(t, b[0]))
				}
				if b[1] != "" {
					to, toParam = day(t, b[1]), onec.PeriodEndParam(day(t, b[1]))
				}
				rows := run(t, d, "address.bank_ops.by_counterparty", map[string]any{
					"НачалоПериода": fromParam, "КонецПериода": toParam,
					"Организация": ref(onec.TypeOrganization, org.Ref), "Контрагент": ref(onec.TypeCounterparty, cp.Ref),
				})
				got := docRowsOf(t, rows)
				for _, r := range got {
					if r.Bank == onec.WireNull {
						t.Errorf("bank operation %s %s without a bank account", r.Type, r.Number)
					}
				}
				want := o.documentsOracle(func(doc onec.Document) bool {
					return doc.CounterpartyRef == cp.Ref && doc.OrganizationRef == org.Ref
				}, bankTypes, from, to)
				compareDocs(t, strings.Join([]string{cp.Name, org.Name, b[0], b[1]}, " "), want, got)
			}
		}
	}
}

// firstPage is the parameter of the first page of a paged catalog.
var firstPage = map[string]any{"ПослеКода": ""}

func TestCatalogs(t *testing.T) {
	l, d, _ := fixture(t)
	orgs := run(t, d, "catalog.organizations", nil)
	if len(orgs) != len(l.Organizations) {
		t.Fatalf("%d organizations, want %d", len(orgs), len(l.Organizations))
	}
	for i, row := range orgs {
		uuidOf(t, row["Ссылка"], onec.TypeOrganization)
		if i > 0 && orgs[i-1]["Наименование"].(string) > row["Наименование"].(string) {
			t.Error("organizations not ordered by name")
		}
	}

	cps := run(t, d, "catalog.counterparties", firstPage)
	byRef := map[string]map[string]any{}
	for _, row := range cps {
		byRef[uuidOf(t, row["Ссылка"], onec.TypeCounterparty)] = row
	}
	for _, cp := range l.Counterparties {
		row := byRef[cp.Ref]
		form := map[string]string{"legal": "ЮрЛицо", "individual_entrepreneur": "ИндивидуальныйПредприниматель"}[cp.Kind]
		want := map[string]any{"Наименование": cp.Name, "НаименованиеПолное": cp.FullName, "ИНН": cp.INN, "КПП": cp.KPP,
			"ЮрФизЛицо": form, "ПометкаУдаления": cp.DeletionMark}
		for k, v := range want {
			if row[k] != v {
				t.Errorf("counterparty %s: %s = %v, want %v", cp.Name, k, row[k], v)
			}
		}
	}

	ctrs := run(t, d, "catalog.contracts", firstPage)
	if len(ctrs) != len(l.Contracts) {
		t.Fatalf("%d contracts, want %d", len(ctrs), len(l.Contracts))
	}
	for _, row := range ctrs {
		uuid := uuidOf(t, row["Ссылка"], onec.TypeContract)
		i := slices.IndexFunc(l.Contracts, func(c onec.Contract) bool { return c.Ref == uuid })
		c := l.Contracts[i] // the demo numbers the catalog in the ledger's order
		kind := map[string]string{"with_customer": "СПокупателем", "with_supplier": "СПоставщиком"}[c.Kind]
		if uuidOf(t, row["Владелец"], onec.TypeCounterparty) != c.OwnerRef || uuidOf(t, row["Организация"], onec.TypeOrganization) != c.OrganizationRef ||
			row["Номер"] != c.Number || row["Дата"] != c.Date+"T00:00:00Z" || row["ВидДоговора"] != kind || row["ВалютаВзаиморасчетов"] != "RUB" ||
			row["Код"] != fmt.Sprintf("%09d", i+1) {
			t.Errorf("contract %s: %v", c.Name, row)
		}
	}

	accs := run(t, d, "catalog.accounts", nil)
	if len(accs) != len(l.Accounts) {
		t.Fatalf("%d accounts, want %d", len(accs), len(l.Accounts))
	}
	kinds := map[string]string{"active": "Активный", "passive": "Пассивный", "active_passive": "АктивноПассивный"}
	for _, a := range l.Accounts {
		i := slices.IndexFunc(accs, func(r map[string]any) bool { return r["Код"] == a.Code })
		want := map[string]any{"Код": a.Code, "Наименование": a.Name, "Вид": kinds[a.Type], "ВидыСубконто": strings.Join(a.Subconto, ","),
			"УчетПоДокументамРасчетов": slices.Contains(a.Subconto, "ДокументыРасчетовСКонтрагентами"), "Количественный": a.Quantity}
		if diff := gocmp.Diff(want, accs[i]); diff != "" {
			t.Errorf("account %s (-want +got):\n%s", a.Code, diff)
		}
	}
}

// A customer carries the very name of our own organization; it stays a counterparty.
func TestCustomerNamedLikeOurOrganization(t *testing.T) {
	l, d, _ := fixture(t)
	own := l.DefaultOrganization()
	i := slices.IndexFunc(l.Counterparties, func(c onec.Counterparty) bool { return c.Name == own.Name })
	if i < 0 {
		t.Fatalf("no counterparty named %s in the ledger", own.Name)
	}
	namesake := l.Counterparties[i]
	var seen int
	for _, org := range l.Organizations {
		for _, ds := range testDays {
			for _, row := range run(t, d, "address.receivables.counterparty_totals", balanceParams(org.Ref, day(t, ds), "62")) {
				cp, _ := onec.RefOf(row["Контрагент"])
				if cp.Presentation != own.Name {
					continue
				}
				seen++
				if cp.Type != onec.TypeCounterparty || cp.UUID != namesake.Ref || cp.UUID == own.Ref {
					t.Errorf("namesake row points at %+v, want the counterparty %s", cp, namesake.Ref)
				}
				if o, _ := onec.RefOf(row["Организация"]); o.UUID != org.Ref {
					t.Errorf("namesake row's organization = %+v, want %s", o, org.Ref)
				}
			}
		}
	}
	if seen == 0 {
		t.Error("the namesake customer never owes anything: the case is untested")
	}
}

// Near-duplicate names stay separate counterparties everywhere.
func TestNearDuplicateNamesStaySeparate(t *testing.T) {
	l, d, o := fixture(t)
	byName := map[string]string{}
	for _, cp := range l.Counterparties {
		byName[cp.Name] = cp.Ref
	}
	at := day(t, "2026-03-31")
	for _, pair := range [][2]string{{"ООО «Гранит»", "ООО «Гранит-М»"}, {"ООО «Альфа»", "ООО «Альфа Поставка»"}, {"АО «Вектор»", "ООО «Вектор Плюс»"}} {
		for _, name := range pair {
			ref1, ok := byName[name]
			if !ok {
				t.Fatalf("no counterparty %s", name)
			}
			for _, org := range l.Organizations {
				params := map[string]any{
					"НачалоПериода": "2024-01-01T00:00:00", "КонецПериода": "2026-12-31T23:59:59",
					"Организация": ref(onec.TypeOrganization, org.Ref), "Контрагент": ref(onec.TypeCounterparty, ref1), "ТипДокумента": "",
				}
				for _, r := range run(t, d, "address.documents.by_counterparty", params) {
					if cp, _ := onec.RefOf(r["Контрагент"]); cp.UUID != ref1 || cp.Presentation != name {
						t.Errorf("documents of %s include one of %+v", name, cp)
					}
				}
				rows := run(t, d, "address.open_items.by_counterparty", map[string]any{
					"НаДату": onec.AsOfParam(at), "Организация": ref(onec.TypeOrganization, org.Ref),
					"Контрагент": ref(onec.TypeCounterparty, ref1), "Договор": nil,
				})
				for _, r := range rows {
					if cp, _ := onec.RefOf(r["Контрагент"]); cp.UUID != ref1 {
						t.Errorf("open items of %s include one of %+v", name, cp)
					}
				}
			}
		}
		// Their receivables are computed apart.
		for _, org := range l.Organizations {
			got := debtorsFromRows(t, run(t, d, "address.receivables.counterparty_totals", balanceParams(org.Ref, at, "62")), 1)
			saldo, _ := o.counterpartySaldo(org.Ref, at, "62")
			for _, name := range pair {
				if want := saldo[byName[name]]; want > 0 && got[byName[name]].Amount != want {
					t.Errorf("%s owes %s, want %s", name, got[byName[name]].Amount.Decimal(), want.Decimal())
				}
			}
		}
	}
}

// The paged catalogs: each page starts after the last code of the page before; together the
// pages list every entry once.
func TestCatalogPages(t *testing.T) {
	l, d, _ := fixture(t)
	for _, tt := range []struct {
		id   string
		want int
	}{{"catalog.counterparties", len(l.Counterparties)}, {"catalog.contracts", len(l.Contracts)}} {
		q, _ := onec.Query(tt.id)
		seen := map[string]bool{}
		after, pages := "", 0
		for {
			rows, err := d.Execute(context.Background(), q, map[string]any{"ПослеКода": after}, 10)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			for _, r := range rows {
				ref, _ := onec.RefOf(r["Ссылка"])
				if seen[ref.UUID] {
					t.Fatalf("%s: %s on two pages", tt.id, ref.Presentation)
				}
				seen[ref.UUID] = true
				if code := r["Код"].(string); code <= after {
					t.Fatalf("%s: code %s on the page after %s", tt.id, code, after)
				}
			}
			if len(rows) < 10 {
				break
			}
			after = rows[len(rows)-1]["Код"].(string)
		}
		if len(seen) != tt.want || pages != tt.want/10+1 {
			t.Errorf("%s: %d entries in %d pages, want %d in %d", tt.id, len(seen), pages, tt.want, tt.want/10+1)
		}
	}
}
