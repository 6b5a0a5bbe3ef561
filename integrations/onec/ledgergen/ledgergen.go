// Package ledgergen generates the demo company of package onec at any scale, in process: a
// port of the shared demo-ledger generator (generate.py), so that benchmarks on a large
// ledger need neither Python nor files beside the repository.
//
// It draws the same random numbers in the same order as generate.py (CPython's Mersenne
// Twister, reproduced in pyrand.go), so Generate(1, DefaultSeed) equals the embedded demo
// data record for record, and any scale equals `generate.py --scale N`. The invariants are
// the generator's: only posted documents have movements; about 3 % of deals stay unposted
// and 1 % are deletion-marked; opening balances (ВводОстатков, 2024-12-31) are entered
// against account 000; settlements carry their counterparty, contract and settlement
// document as subconto; look-alike names, a deletion-marked duplicate, straight quotes, a
// Latin name and a customer named like our own organization; INNs with valid check digits.
package ledgergen

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// DefaultSeed is generate.py's default --seed, the one the embedded demo data was made with.
const DefaultSeed = 550

// Generate returns the demo company at scale (copies of the counterparty catalog; documents
// and movements grow about linearly with it; below 1 counts as 1), drawn from seed.
func Generate(scale int, seed uint64) *onec.Ledger {
	g := &gen{rnd: newPyRand(seed), scale: max(scale, 1), seq: map[seqKey]int{}, bankAccounts: map[int]string{}}
	g.makeCatalogs()
	PaymentTerms(g.contracts)
	// The default company has about 1,200 documents and 2,300 records per copy; reserving them
	// spares the large scales most of their copying (the realistic base is scale 48).
	g.documents = make([]onec.Document, 0, 1300*g.scale)
	g.movements = make([]onec.Movement, 0, 2500*g.scale)
	g.makeOperations()
	return g.ledger()
}

type gen struct {
	rnd   *pyRand
	scale int
	seq   map[seqKey]int

	orgs           []onec.Organization
	counterparties []onec.Counterparty
	cpIndex        map[string]int // ref → index in counterparties
	contracts      []onec.Contract
	contractOrg    []int // the organization index of each contract
	documents      []onec.Document
	movements      []onec.Movement
	bankAccounts   map[int]string
}

type seqKey struct {
	docType string
	org     int
	year    int
}

type named struct{ name, kind string }

var (
	customerNames = []named{
		{"ООО «Альфа»", "legal"}, {"АО «Вектор»", "legal"}, {"ООО «Вектор Плюс»", "legal"},
		{"ООО «СтройМаркет»", "legal"}, {"ООО «ТехноЛайн»", "legal"}, {"ПАО «Северсталь-Логистик»", "legal"},
		{"ООО «Гранит»", "legal"}, {"ООО «Гранит-М»", "legal"}, {"ИП Смирнов Алексей Петрович", "individual_entrepreneur"},
		{"ООО «Океан»", "legal"}, {"ООО «Меридиан»", "legal"}, {"АО «Уральские Системы»", "legal"},
		{"ООО «Бета Групп»", "legal"}, {"ООО \"Ромашка\"", "legal"}, {"ООО «Delta Trade»", "legal"},
		{"ИП Кузнецова Ольга Игоревна", "individual_entrepreneur"}, {"ООО «Энергия»", "legal"},
		{"ООО «Северный ветер»", "legal"},
	}
	supplierNames = []named{
		{"ООО «Техснаб»", "legal"}, {"ООО «ПромПоставка»", "legal"}, {"АО «Металлург-Инвест»", "legal"},
		{"ООО «Логистик Центр»", "legal"}, {"ООО «Бумага и Ко»", "legal"}, {"ООО «ЭлектроКомплект»", "legal"},
		{"ИП Петров Иван Сергеевич", "individual_entrepreneur"}, {"ООО «Склад-Сервис»", "legal"},
		{"ООО «Альфа Поставка»", "legal"}, {"ООО «КанцТорг»", "legal"}, {"ООО «ИнфоСофт»", "legal"},
		{"АО «ТрансАвто»", "legal"},
	}
	bothNames = []named{{"ООО «Партнер»", "legal"}, {"ООО «Универсал»", "legal"}}

	orgs = []struct {
		name         string
		defaultScope bool
	}{
		{"ООО «Северный ветер»", true}, // same name as a customer on purpose: the organization is not a counterparty
		{"ООО «Северный ветер Трейд»", false},
	}

	chart = []onec.Account{
		{Code: "000", Name: "Вспомогательный счет", Type: "active_passive", Subconto: []string{}},
		{Code: "41.01", Name: "Товары на складах", Type: "active", Subconto: []string{"Номенклатура"}},
		{Code: "19.03", Name: "НДС по приобретенным материально-производственным запасам", Type: "active", Subconto: []string{"Контрагенты", "ДокументыРасчетовСКонтрагентами"}},
		{Code: "51", Name: "Расчетные счета", Type: "active", Subconto: []string{"БанковскиеСчета"}},
		{Code: "60", Name: "Расчеты с поставщиками и подрядчиками", Type: "active_passive", Subconto: settlementKinds()},
		{Code: "60.01", Name: "Расчеты с поставщиками и подрядчиками", Type: "passive", Subconto: settlementKinds()},
		{Code: "60.02", Name: "Расчеты по авансам выданным", Type: "active", Subconto: settlementKinds()},
		{Code: "62", Name: "Расчеты с покупателями и заказчиками", Type: "active_passive", Subconto: settlementKinds()},
		{Code: "62.01", Name: "Расчеты с покупателями и заказчиками", Type: "active", Subconto: settlementKinds()},
		{Code: "62.02", Name: "Расчеты по авансам полученным", Type: "passive", Subconto: settlementKinds()},
		{Code: "68.02", Name: "Налог на добавленную стоимость", Type: "active_passive", Subconto: []string{}},
		{Code: "76", Name: "Расчеты с разными дебиторами и кредиторами", Type: "active_passive", Subconto: settlementKinds()},
		{Code: "76.05", Name: "Расчеты с прочими поставщиками и подрядчиками", Type: "active_passive", Subconto: settlementKinds()},
		{Code: "84.01", Name: "Прибыль, подлежащая распределению", Type: "active_passive", Subconto: []string{}},
		{Code: "90.01.1", Name: "Выручка по деятельности с основной системой налогообложения", Type: "passive", Subconto: []string{"Номенклатурные группы"}},
		{Code: "90.02.1", Name: "Себестоимость продаж по деятельности с основной системой налогообложения", Type: "active", Subconto: []string{"Номенклатурные группы"}},
		{Code: "90.03", Name: "Налог на добавленную стоимость", Type: "active", Subconto: []string{"Номенклатурные группы"}},
	}

	journals = map[string]string{
		"ПоступлениеНаРасчетныйСчет": "БанковскиеВыписки",
		"СписаниеСРасчетногоСчета":   "БанковскиеВыписки",
		"РеализацияТоваровУслуг":     "ДокументыПокупателей",
		"ПоступлениеТоваровУслуг":    "ДокументыПоставщиков",
		"АктСверкиВзаиморасчетов":    "ДокументыПокупателей",
		"КорректировкаДолга":         "ДокументыПоставщиков",
		// ВводОстатков has no journal.
	}
)

func settlementKinds() []string {
	return []string{"Контрагенты", "ДоговорыКонтрагентов", "ДокументыРасчетовСКонтрагентами"}
}

// vatRate is the VAT rate of a year (generate.py's VAT_BY_YEAR).
func vatRate(year int) float64 {
	if year >= 2026 {
		return 0.22
	}
	return 0.20
}

// inn10 is a legal entity's INN with its check digit.
func (g *gen) inn10() string {
	d := make([]int, 9, 10)
	for i := range d {
		d[i] = g.rnd.randint(0, 9)
	}
	d[0] = g.rnd.randint(1, 9)
	d = append(d, checkDigit(d, []int{2, 4, 10, 3, 5, 9, 4, 6, 8}))
	return digits(d)
}

// inn12 is an individual entrepreneur's INN with its two check digits.
func (g *gen) inn12() string {
	d := make([]int, 10, 12)
	for i := range d {
		d[i] = g.rnd.randint(0, 9)
	}
	d[0] = g.rnd.randint(1, 9)
	d = append(d, checkDigit(d, []int{7, 2, 4, 10, 3, 5, 9, 4, 6, 8}))
	d = append(d, checkDigit(d, []int{3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8}))
	return digits(d)
}

func checkDigit(d, weights []int) int {
	sum := 0
	for i, w := range weights {
		sum += d[i] * w
	}
	return sum % 11 % 10
}

func digits(d []int) string {
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

func (g *gen) makeCatalogs() {
	for i, o := range orgs {
		ref := g.rnd.uuid4()
		inn := g.inn10()
		kpp := "77" + pad(g.rnd.randint(1, 99), 2) + "01001"
		g.orgs = append(g.orgs, onec.Organization{Ref: ref, Name: o.name, INN: inn, KPP: kpp, Default: o.defaultScope})
		g.bankAccounts[i] = "40702810" + strconv.Itoa(g.rnd.randint(100_000_000_000, 999_999_999_999))
	}
	type roled struct {
		named
		role string
	}
	var roles []roled
	for _, n := range customerNames {
		roles = append(roles, roled{n, "customer"})
	}
	for _, n := range supplierNames {
		roles = append(roles, roled{n, "supplier"})
	}
	for _, n := range bothNames {
		roles = append(roles, roled{n, "both"})
	}
	for c := range g.scale {
		for _, r := range roles {
			shown := r.name
			if c > 0 {
				shown = r.name + " (" + strconv.Itoa(c+1) + ")"
			}
			var inn string
			if r.kind == "individual_entrepreneur" {
				inn = g.inn12()
			} else {
				inn = g.inn10()
			}
			full := "Индивидуальный предприниматель " + string([]rune(shown)[3:]) // after "ИП "
			if r.kind == "legal" {
				// As generate.py does it, "ПАО" included.
				full = strings.ReplaceAll(strings.ReplaceAll(shown, "ООО", "Общество с ограниченной ответственностью"), "АО", "Акционерное общество")
			}
			ref := g.rnd.uuid4()
			kpp := ""
			if r.kind == "legal" {
				a := g.rnd.randint(10, 99)
				b := g.rnd.randint(10, 99)
				kpp = strconv.Itoa(a) + strconv.Itoa(b) + "01001"
			}
			g.counterparties = append(g.counterparties, onec.Counterparty{
				Ref: ref, Name: shown, FullName: full, INN: inn, KPP: kpp, Kind: r.kind, Role: r.role,
			})
		}
	}
	// One deletion-marked duplicate: a resolver must not pick it.
	dup := g.counterparties[0]
	dup.Ref, dup.Name, dup.DeletionMark = g.rnd.uuid4(), dup.Name+" (не использовать)", true
	g.counterparties = append(g.counterparties, dup)
	g.cpIndex = make(map[string]int, len(g.counterparties))
	for i, cp := range g.counterparties {
		g.cpIndex[cp.Ref] = i
	}

	for _, cp := range g.counterparties {
		if cp.DeletionMark {
			continue
		}
		kinds := map[string][]string{"customer": {"with_customer"}, "supplier": {"with_supplier"}, "both": {"with_customer", "with_supplier"}}[cp.Role]
		for _, kind := range kinds {
			for range choice(g.rnd, []int{1, 1, 2, 3}) {
				org := 1
				if g.rnd.random() < 0.8 {
					org = 0
				}
				d := date(2024, 1, 1).AddDate(0, 0, g.rnd.randint(0, 420))
				num := choice(g.rnd, []string{"", "П-", "ДП-", "У-"}) + strconv.Itoa(g.rnd.randint(1, 250)) + "/" + strconv.Itoa(d.Year())
				title := "Договор с поставщиком"
				if kind == "with_customer" {
					title = "Договор поставки"
				}
				g.contracts = append(g.contracts, onec.Contract{
					Ref: g.rnd.uuid4(), OwnerRef: cp.Ref, OrganizationRef: g.orgs[org].Ref, Number: num,
					Date: d.Format(time.DateOnly), Name: title + " № " + num + " от " + d.Format("02.01.2006"),
					Kind: kind, Currency: "RUB",
				})
				g.contractOrg = append(g.contractOrg, org)
			}
		}
	}
}

// ledger sorts the records as generate.py writes them.
func (g *gen) ledger() *onec.Ledger {
	slices.SortStableFunc(g.documents, func(a, b onec.Document) int {
		if c := a.Date.Compare(b.Date.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Number, b.Number)
	})
	slices.SortStableFunc(g.movements, func(a, b onec.Movement) int {
		if c := a.Period.Compare(b.Period.Time); c != 0 {
			return c
		}
		if c := strings.Compare(a.RecorderRef, b.RecorderRef); c != 0 {
			return c
		}
		return a.Line - b.Line
	})
	accounts := make([]onec.Account, len(chart))
	for i, a := range chart {
		a.Subconto = slices.Clone(a.Subconto)
		accounts[i] = a
	}
	return &onec.Ledger{
		Organizations: g.orgs, Counterparties: g.counterparties, Contracts: g.contracts,
		Documents: g.documents, Movements: g.movements, Accounts: accounts,
	}
}

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}
