package onec

import "time"

// A hand-made ledger with quantity accounts, for the evaluator's and the templates' tests
// (QuantityLedger is exported to the package's external tests). Three organizations: ООО
// «Склад» (the head), its обособленное подразделение and ООО «Другая». The chart keeps
// quantities on 41.01 (Номенклатура, Склады) and 10.01 (Номенклатура), not on 51.
//
// At 01.03.2025, for the head with its division:
//   - 41.01 Бумага А4: 100 + 50 − 20 + 3 = 133 пачк, 35 000 + 17 500 − 7 000 + 0 = 45 500,00 ₽
//     (two warehouses; 3 packs received at no value);
//   - 41.01 Кабель ВВГ (the division's): 100,5 м, 9 547,50 ₽;
//   - 41.01 Стол: bought and sold, 0 шт and 0,00 ₽ — no row;
//   - 10.01 Цемент: 0,5 − 0,1 = 0,4 т, 3 900 − 780 = 3 120,00 ₽;
//
// and ООО «Другая»'s 41.01 Цемент 1,125 т, 8 775,00 ₽. A record on 51 carries a quantity the
// account does not keep, which 1C drops.
const (
	qOrg      = "00000000-0000-0000-0000-0000000a0001"
	qBranch   = "00000000-0000-0000-0000-0000000a0002"
	qOther    = "00000000-0000-0000-0000-0000000a0003"
	qSupplier = "00000000-0000-0000-0000-0000000a0101"
	qContract = "00000000-0000-0000-0000-0000000a0201"
	qPaper    = "00000000-0000-0000-0000-0000000a0301"
	qCable    = "00000000-0000-0000-0000-0000000a0302"
	qCement   = "00000000-0000-0000-0000-0000000a0303"
	qDesk     = "00000000-0000-0000-0000-0000000a0304"
	qOld      = "00000000-0000-0000-0000-0000000a0305"
	qStore1   = "00000000-0000-0000-0000-0000000a0401"
	qStore2   = "00000000-0000-0000-0000-0000000a0402"
)

// QuantityLedger returns the ledger described above.
func QuantityLedger() *Ledger {
	at := func(s string) LocalTime {
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			panic(err)
		}
		return LocalTime{t.Add(10 * time.Hour)}
	}
	item := func(ref string, store ...string) []Subconto {
		s := []Subconto{{Kind: "Номенклатура", Ref: ref}}
		for _, st := range store {
			name := map[string]string{qStore1: "Основной склад", qStore2: "Склад № 2"}[st]
			s = append(s, Subconto{Kind: "Склады", Ref: st, Name: name})
		}
		return s
	}
	supplier := []Subconto{{Kind: "Контрагенты", Ref: qSupplier}, {Kind: "ДоговорыКонтрагентов", Ref: qContract}}
	var docs []Document
	var moves []Movement
	post := func(day, org, typ, dr string, sdr []Subconto, cr string, scr []Subconto, amount Kopecks, qDr, qCr Quantity) {
		ref := "00000000-0000-0000-0000-0000000b" + string(rune('a'+len(docs)/10)) + string(rune('0'+len(docs)%10)) + "00"
		docs = append(docs, Document{Ref: ref, Type: typ, Number: "К-" + ref[len(ref)-4:], Date: at(day), Posted: true, OrganizationRef: org,
			Amount: amount})
		moves = append(moves, Movement{Period: at(day), RecorderRef: ref, RecorderType: typ, Line: 1, OrganizationRef: org,
			AccountDr: dr, SubcontoDr: sdr, AccountCr: cr, SubcontoCr: scr, Amount: amount, QuantityDr: qDr, QuantityCr: qCr})
	}
	post("2025-01-10", qOrg, "ПоступлениеТоваровУслуг", "41.01", item(qPaper, qStore1), "60.01", supplier, 3_500_000, 100_000, 0)
	post("2025-01-11", qOrg, "ПоступлениеТоваровУслуг", "41.01", item(qPaper, qStore2), "60.01", supplier, 1_750_000, 50_000, 0)
	post("2025-01-12", qBranch, "ПоступлениеТоваровУслуг", "41.01", item(qCable, qStore1), "60.01", supplier, 954_750, 100_500, 0)
	post("2025-01-20", qOrg, "РеализацияТоваровУслуг", "90.02.1", nil, "41.01", item(qPaper, qStore1), 700_000, 0, 20_000)
	post("2025-01-21", qOther, "ПоступлениеТоваровУслуг", "41.01", item(qCement), "60.01", supplier, 877_500, 1_125, 0)
	post("2025-01-22", qOrg, "ПоступлениеТоваровУслуг", "10.01", item(qCement), "60.01", supplier, 390_000, 500, 0)
	post("2025-01-25", qOrg, "ТребованиеНакладная", "20.01", nil, "10.01", item(qCement), 78_000, 0, 100)
	post("2025-01-26", qOrg, "ПоступлениеНаРасчетныйСчет", "51", nil, "62.01", nil, 100_000, 5_000, 0)
	post("2025-02-01", qOrg, "ПоступлениеТоваровУслуг", "41.01", item(qDesk, qStore1), "60.01", supplier, 1_250_000, 1_000, 0)
	post("2025-02-03", qOrg, "РеализацияТоваровУслуг", "90.02.1", nil, "41.01", item(qDesk, qStore1), 1_250_000, 0, 1_000)
	post("2025-02-05", qOrg, "ОприходованиеТоваров", "41.01", item(qPaper, qStore2), "91.01", nil, 0, 3_000, 0)
	return &Ledger{
		Organizations: []Organization{
			{Ref: qOrg, Name: "ООО «Склад»", INN: "7700000003", Default: true},
			{Ref: qBranch, Name: "ООО «Склад» (филиал)", INN: "7700000003", KPP: "165501001", HeadRef: qOrg},
			{Ref: qOther, Name: "ООО «Другая»", INN: "7700000004"},
		},
		Counterparties: []Counterparty{{Ref: qSupplier, Name: "ООО «Поставщик»", Kind: "legal"}},
		Contracts: []Contract{{Ref: qContract, OwnerRef: qSupplier, OrganizationRef: qOrg, Number: "П-1", Name: "Договор П-1",
			Kind: "with_supplier", Currency: "RUB"}},
		Accounts: []Account{
			{Code: "10.01", Name: "Сырье и материалы", Type: "active", Subconto: []string{"Номенклатура"}, Quantity: true},
			{Code: "20.01", Name: "Основное производство", Type: "active"},
			{Code: "41.01", Name: "Товары на складах", Type: "active", Subconto: []string{"Номенклатура", "Склады"}, Quantity: true},
			{Code: "51", Name: "Расчетные счета", Type: "active"},
			{Code: "60.01", Name: "Расчеты с поставщиками и подрядчиками", Type: "passive", Subconto: []string{"Контрагенты", "ДоговорыКонтрагентов"}},
			{Code: "62.01", Name: "Расчеты с покупателями и заказчиками", Type: "active"},
			{Code: "90.02.1", Name: "Себестоимость продаж", Type: "active"},
			{Code: "91.01", Name: "Прочие доходы", Type: "passive"},
		},
		Items: []Item{
			{Ref: qPaper, Code: "00-00000001", Name: "Бумага А4", Unit: "пачк", UnitFullName: "Пачка"},
			{Ref: qCable, Code: "00-00000002", Name: "Кабель ВВГ 3х2,5", Unit: "м", UnitFullName: "Метр"},
			{Ref: qCement, Code: "00-00000003", Name: "Цемент М500", Unit: "т", UnitFullName: "Тонна"},
			{Ref: qDesk, Code: "00-00000004", Name: "Стол письменный", Unit: "шт", UnitFullName: "Штука"},
			{Ref: qOld, Code: "00-00000005", Name: "Бумага А4 (старая)", DeletionMark: true},
		},
		Documents: docs,
		Movements: moves,
	}
}
