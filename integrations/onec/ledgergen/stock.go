package ledgergen

import (
	"cmp"
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The realistic base's stock: Справочник.Номенклатура with units of measure, and every record
// of the quantity accounts (41.01 goods, 10.01 materials) given an item of it and a quantity
// that agrees with the item's own history — a purchase adds what its amount buys at the item's
// price, a sale (the cost of sales, Кт 41.01) takes from an item in stock at its average cost,
// a storno of a purchase takes back its share, a write-off of materials what the production
// used. Quantities are BP's Число(15, 3): goods in pieces are whole, cable in metres to 0,1,
// cement and steel in tonnes to 0,001. The pass draws from a stream of its own, after every
// other pass, so no amount of the base changes.

// stockItem is an entry of the nomenclature: name, unit (short and full, as
// КлассификаторЕдиницИзмерения names them), the price a unit is bought at (kopecks) and the
// step a quantity of it is counted in (thousandths of the unit).
type stockItem struct {
	name, unit, unitFull string
	price                int64
	step                 onec.Quantity
}

const (
	piece  onec.Quantity = 1000 // whole units
	tenth  onec.Quantity = 100  // 0,1
	gramme onec.Quantity = 1    // 0,001: a tonne to the kilogram
)

// goods are sold from 41.01; materials bought to 10.01 and written off to production.
var (
	goods = []stockItem{
		{"Бумага офисная А4 «Снегурочка»", "пачк", "Пачка", 35_000, piece},
		{"Бумага офисная А3", "пачк", "Пачка", 72_000, piece},
		{"Картридж HP 85A", "шт", "Штука", 420_000, piece},
		{"Тонер-картридж Canon 725", "шт", "Штука", 390_000, piece},
		{"Ноутбук Lenovo IdeaPad 3", "шт", "Штука", 5_200_000, piece},
		{"Монитор Samsung 24\"", "шт", "Штука", 1_450_000, piece},
		{"Клавиатура Logitech K120", "шт", "Штука", 110_000, piece},
		{"Мышь Logitech M90", "шт", "Штука", 55_000, piece},
		{"Кабель ВВГнг 3х2,5", "м", "Метр", 9_500, tenth},
		{"Кабель UTP cat.5e", "м", "Метр", 2_800, tenth},
		{"Провод ПВС 2х1,5", "м", "Метр", 6_000, tenth},
		{"Краска водоэмульсионная белая", "кг", "Килограмм", 18_000, tenth},
		{"Шпатлёвка финишная", "кг", "Килограмм", 5_500, tenth},
		{"Цемент М500", "т", "Тонна", 780_000, gramme},
		{"Песок строительный", "т", "Тонна", 90_000, gramme},
		{"Масло моторное 5W-40", "л", "Литр", 65_000, tenth},
		{"Антифриз G12", "л", "Литр", 22_000, tenth},
		{"Профнастил С8", "м2", "Квадратный метр", 52_000, tenth},
		{"Гвозди строительные 100 мм", "кг", "Килограмм", 14_000, tenth},
		{"Саморезы по дереву 3,5х35", "упак", "Упаковка", 31_000, piece},
		{"Перчатки рабочие х/б", "пар", "Пара", 4_500, piece},
		{"Стул офисный", "шт", "Штука", 680_000, piece},
		{"Стол письменный", "шт", "Штука", 1_250_000, piece},
		{"Лампа светодиодная E27 10 Вт", "шт", "Штука", 12_000, piece},
		{"Вода питьевая 19 л", "шт", "Штука", 35_000, piece},
		{"Кофе в зёрнах 1 кг", "шт", "Штука", 160_000, piece},
		{"Сахар-песок", "кг", "Килограмм", 8_500, tenth},
		{"Чай чёрный, 100 пакетиков", "упак", "Упаковка", 26_000, piece},
		{"Средство моющее, 5 л", "шт", "Штука", 48_000, piece},
		{"Полотенца бумажные", "упак", "Упаковка", 19_000, piece},
		{"Скотч упаковочный 48 мм", "шт", "Штука", 9_500, piece},
		{"Плёнка стрейч 500 мм", "кг", "Килограмм", 31_000, tenth},
		{"Картон гофрированный", "м2", "Квадратный метр", 4_500, tenth},
		{"Брус 100х100", "м", "Метр", 38_000, tenth},
		{"Труба ПНД 32 мм", "м", "Метр", 7_500, tenth},
		{"Огнетушитель ОП-4", "шт", "Штука", 150_000, piece},
		{"Набор отвёрток", "компл", "Комплект", 120_000, piece},
		{"Дрель-шуруповёрт Makita", "шт", "Штука", 980_000, piece},
		{"Рулетка 5 м", "шт", "Штука", 32_000, piece},
		{"Батарейки AA, 4 шт.", "упак", "Упаковка", 24_000, piece},
	}
	materials = []stockItem{
		{"Сталь листовая 2 мм", "т", "Тонна", 0, gramme},
		{"Арматура А500С 12 мм", "т", "Тонна", 0, gramme},
		{"Грунтовка ГФ-021", "кг", "Килограмм", 0, tenth},
		{"Растворитель 646", "л", "Литр", 0, tenth},
		{"Электроды МР-3 3 мм", "кг", "Килограмм", 0, tenth},
		{"Фанера 10 мм", "лист", "Лист", 0, piece},
		{"Болт М12х60", "шт", "Штука", 0, piece},
		{"Гайка М12", "шт", "Штука", 0, piece},
		{"Шайба 12 мм", "кг", "Килограмм", 0, tenth},
		{"Клей ПВА", "кг", "Килограмм", 0, tenth},
		{"Ткань бязь", "м", "Метр", 0, tenth},
		{"Нитки армированные", "шт", "Штука", 0, piece},
		{"Гранулы ПЭТ", "кг", "Килограмм", 0, tenth},
		{"Полиэтилен ПВД", "кг", "Килограмм", 0, tenth},
		{"Смазка Литол-24", "кг", "Килограмм", 0, tenth},
		{"Коробка 40х30х30", "шт", "Штука", 0, piece},
		{"Лента полипропиленовая 12 мм", "м", "Метр", 0, piece},
		{"Проволока вязальная", "кг", "Килограмм", 0, tenth},
		{"Профиль алюминиевый", "м", "Метр", 0, tenth},
		{"Герметик силиконовый", "шт", "Штука", 0, piece},
	}
)

// stockLevel is an item's running quantity and value in one organization.
type stockLevel struct {
	qty   onec.Quantity
	value onec.Kopecks
}

// stocker holds the pass's state.
type stocker struct {
	r      *reshaper
	rnd    *rand.Rand
	refs   []string              // item i's reference (reshaper.items)
	level  map[string]stockLevel // organization + item index → its stock
	given  map[int]int           // record index → the item given it
	qtyOf  map[int]onec.Quantity // record index → its quantity (for a storno of it)
	unused int                   // the first item of materials (goods come first)
}

// stock writes the nomenclature and gives every quantity record its item and quantity.
func (r *reshaper) stock(seed uint64) {
	s := &stocker{r: r, rnd: rand.New(rand.NewPCG(seed, 0x570C4)), refs: r.items, level: map[string]stockLevel{},
		given: map[int]int{}, qtyOf: map[int]onec.Quantity{}, unused: len(goods)}
	all := append(slices.Clone(goods), materials...)
	if len(all) != len(r.items) {
		panic(fmt.Sprintf("ledgergen: %d items in the catalog, %d references", len(all), len(r.items)))
	}
	for i, it := range all {
		r.l.Items = append(r.l.Items, onec.Item{Ref: r.items[i], Code: fmt.Sprintf("00-%08d", i+1), Name: it.name,
			Unit: it.unit, UnitFullName: it.unitFull})
	}
	s.materials(all)
	s.goods(all)
}

// materials gives each purchase of materials an item and its write-off the same one: the
// purchase's whole quantity and price, drawn by quantities(), read in the item's step (153
// units of 0,1 kg are 15,3 kg at ten times the price per unit), so each amount stays.
func (s *stocker) materials(all []stockItem) {
	for _, p := range s.r.materials {
		item := s.unused + s.rnd.IntN(len(materials))
		step := all[item].step
		buy := &s.r.l.Movements[p[0]]
		buy.SubcontoDr = s.sub(item)
		buy.QuantityDr = buy.QuantityDr / piece * step
		if p[1] < 0 {
			continue
		}
		use := &s.r.l.Movements[p[1]]
		use.SubcontoCr = s.sub(item)
		use.QuantityCr = use.QuantityCr / piece * step
	}
}

// goods walks 41.01's records in the register's order and keeps each item's stock per
// organization: a purchase buys an item (the one most short of stock half the time, so that
// sales are covered), a sale takes from an item whose value covers its cost, a storno takes
// back its share of the purchase it corrects.
func (s *stocker) goods(all []stockItem) {
	ms := s.r.l.Movements
	var list []int
	for i := range ms {
		if ms[i].AccountDr == "41.01" || ms[i].AccountCr == "41.01" {
			list = append(list, i)
		}
	}
	slices.SortStableFunc(list, func(a, b int) int {
		x, y := &ms[a], &ms[b]
		return cmp.Or(x.Period.Compare(y.Period.Time), strings.Compare(x.RecorderRef, y.RecorderRef), x.Line-y.Line)
	})
	for _, mi := range list {
		m := &ms[mi]
		debit := m.AccountDr == "41.01"
		var item int
		var q onec.Quantity
		orig, isStorno := s.r.stornoOf[mi]
		_, origGiven := s.given[orig]
		switch {
		case isStorno && origGiven && ms[orig].Amount != 0:
			item = s.given[orig]
			q = roundTo(mulDiv(s.qtyOf[orig], int64(m.Amount), int64(ms[orig].Amount)), all[item].step)
			if q == 0 {
				q = -all[item].step
			}
		case debit:
			item = s.restock(m.OrganizationRef)
			price := all[item].price * int64(90+s.rnd.IntN(21)) / 100 // ±10 % from the list price
			q = max(all[item].step, roundTo(onec.Quantity(int64(m.Amount)*int64(piece)/price), all[item].step))
		default:
			item, q = s.sell(m.OrganizationRef, m.Amount, all)
		}
		s.given[mi], s.qtyOf[mi] = item, q
		k := s.key(m.OrganizationRef, item)
		l := s.level[k]
		if debit {
			m.SubcontoDr, m.QuantityDr = s.sub(item), q
			l.qty, l.value = l.qty+q, l.value+m.Amount
		} else {
			m.SubcontoCr, m.QuantityCr = s.sub(item), q
			l.qty, l.value = l.qty-q, l.value-m.Amount
		}
		s.level[k] = l
	}
}

// restock picks the goods item a purchase buys: half the time the one of the organization
// with the least value in stock (a sale may have taken more than a purchase brought), else any.
func (s *stocker) restock(org string) int {
	if s.rnd.IntN(2) == 0 {
		return s.rnd.IntN(len(goods))
	}
	best := 0
	for i := range goods {
		if s.level[s.key(org, i)].value < s.level[s.key(org, best)].value {
			best = i
		}
	}
	return best
}

// sell picks the goods item a sale's cost (amount) comes from and how much of it: an item
// whose value in stock covers the cost (a random one of those), at its average cost; with none,
// the item with the most value, at its average cost too, more than it has; with nothing in
// stock at all, an item at its price. Quantity and value then go negative together — a «red»
// balance, as BP shows goods sold before their receipt was posted (the base has no opening
// balance of goods, and some organizations sell before they buy).
func (s *stocker) sell(org string, amount onec.Kopecks, all []stockItem) (int, onec.Quantity) {
	var covering, ample []int // value ≥ the cost; ≥ twice the cost (a sale that leaves some)
	best := -1
	for i := range goods {
		l := s.level[s.key(org, i)]
		if l.qty <= 0 {
			continue
		}
		if l.value >= amount {
			covering = append(covering, i)
		}
		if l.value >= 2*amount && l.qty >= 2*all[i].step {
			ample = append(ample, i)
		}
		if best < 0 || l.value > s.level[s.key(org, best)].value {
			best = i
		}
	}
	if len(ample) > 0 {
		covering = ample
	}
	switch {
	case len(covering) > 0:
		i := covering[s.rnd.IntN(len(covering))]
		l := s.level[s.key(org, i)]
		q := roundTo(mulDiv(l.qty, int64(amount), int64(l.value)), all[i].step)
		return i, min(max(q, all[i].step), l.qty)
	case best >= 0:
		l := s.level[s.key(org, best)]
		return best, max(l.qty, roundTo(mulDiv(l.qty, int64(amount), int64(l.value)), all[best].step))
	}
	i := s.rnd.IntN(len(goods))
	return i, max(all[i].step, roundTo(onec.Quantity(int64(amount)*int64(piece)/all[i].price), all[i].step))
}

func (s *stocker) key(org string, item int) string { return fmt.Sprintf("%s/%d", org, item) }

// sub is the subconto of item i.
func (s *stocker) sub(i int) []onec.Subconto {
	return []onec.Subconto{{Kind: kindItem, Ref: s.refs[i]}}
}

// roundTo rounds q half away from zero to a multiple of step.
func roundTo(q, step onec.Quantity) onec.Quantity {
	if q < 0 {
		return -roundTo(-q, step)
	}
	return (q + step/2) / step * step
}

// mulDiv is q·a/b rounded half away from zero (b not zero), exactly: a stock's quantity times
// a cost can pass int64.
func mulDiv(q onec.Quantity, a, b int64) onec.Quantity {
	r := new(big.Rat).SetFrac(new(big.Int).Mul(big.NewInt(int64(q)), big.NewInt(a)), big.NewInt(b))
	return onec.Quantity(ru.Kopecks(r.Quo(r, big.NewRat(100, 1)))) // ru.Kopecks rounds ×100 half away from zero
}
