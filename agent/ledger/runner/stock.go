package runner

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/russian"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Quantities («сколько бумаги на складе», «остаток товара X в штуках», «остаток по 41»): the
// balance of the accounts the base keeps quantity accounting on (the chart's «Количественный»,
// read with catalog.accounts: 10, 41, 43 in BP) per account and item of the nomenclature, its
// quantity in the item's unit of measure beside the sum. One whitelisted template
// (integrations/onec/queries_stock.go, address.stock.balance) sums both in 1C; an item named
// in the question is found in the nomenclature (catalog.nomenclature, read in pages and cached
// like the other catalogs, but only when a question names an item) the way a counterparty is
// found by its name. Quantities are onec.Quantity, exact to the thousandth as 1C keeps them,
// and are never added across units or items of different units.

// Qty is a row's quantity in its unit of measure (Справочник.КлассификаторЕдиницИзмерения's
// short name, «шт»; "" where the item names none).
type Qty struct {
	Value onec.Quantity `json:"quantity"`
	Unit  string        `json:"unit,omitempty"`
}

// String is «30 838 пачк», «15,3 кг», «7» (no unit known).
func (q Qty) String() string {
	return strings.TrimSpace(q.Value.String() + "\u00a0" + q.Unit)
}

// Stock is what a stock answer states besides its rows: the lines per account and item, and
// what the lines do not cover.
type Stock struct {
	// Lines are the balance per account and item (Row.Qty set), the largest sum first.
	Lines []Row `json:"lines"`
	// Total is the sum of the lines; Quantity their quantity when all are of one unit (and one
	// item, or the answer is about one), else nil.
	Total    onec.Kopecks `json:"total"`
	Quantity *Qty         `json:"total_quantity,omitempty"`
	// Items counts the items with a balance; Accounts the quantity accounts the lines are on.
	Items    int      `json:"items"`
	Accounts []string `json:"accounts"`
	// Asked is the item as the question named it, Matched the items of the nomenclature it
	// names (one line of the answer each, with a balance or not).
	Asked   string   `json:"asked,omitempty"`
	Matched []string `json:"matched,omitempty"`
	// Cut: the lines per item passed one answer of 1C; the account's figure stands, the items
	// are not shown.
	Cut bool `json:"cut,omitempty"`
}

// item is an entry of the nomenclature as the lane keeps it.
type item struct {
	ref, code, name, unit string
	deleted               bool
}

// quantityAccounts are the codes of the chart under token ("" for the whole chart) that keep
// quantity accounting, in order.
func (c *catalogs) quantityAccounts(token string) []string {
	var out []string
	for code, a := range c.accounts {
		if a.quantity && (token == "" || accountMatches(code, token)) {
			out = append(out, code)
		}
	}
	slices.Sort(out)
	return out
}

// itemsFor loads (or reuses, for Options.CatalogTTL) the nomenclature: not with the other
// catalogs, which every question is read against, but when a question names an item.
func (l *Lane) itemsFor(ctx context.Context, dbg *Debug) ([]item, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.items != nil && l.opts.Now().Sub(l.itemsAt) < l.opts.CatalogTTL {
		return l.items, nil
	}
	res, err := l.loadPages(ctx, dbg, "catalog.nomenclature")
	if err != nil {
		return nil, err
	}
	out := make([]item, 0, len(res.Items))
	for _, r := range res.Items {
		out = append(out, item{ref: r.Ref.UUID, code: r.Code, name: r.Name, unit: r.Unit, deleted: r.Deleted})
	}
	l.items, l.itemsAt = out, l.opts.Now()
	return out, nil
}

// itemWords are the words of an item's name as they are compared: folded, split on what is not
// a letter or a digit, each stemmed (snowball) — «Бумага офисная А4» is [бумаг офисн а4].
func itemWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ReplaceAll(strings.ToLower(s), "ё", "е"), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out = append(out, itemStem(w))
	}
	return out
}

func itemStem(w string) string {
	if utf8.RuneCountInString(w) <= 3 || strings.IndexFunc(w, func(r rune) bool { return !unicode.Is(unicode.Cyrillic, r) }) >= 0 {
		return w
	}
	return russian.Stem(w, false)
}

// itemQueryStop are words a question puts around an item's name that no item's name means:
// «остаток товара бумага», «материал цемент».
var itemQueryStop = map[string]bool{"товар": true, "товары": true, "товара": true, "товаров": true, "материал": true,
	"материалы": true, "материала": true, "материалов": true, "номенклатура": true, "номенклатуры": true, "позиция": true,
	"позиции": true, "по": true, "на": true, "в": true, "для": true}

// ResolveItems finds the items of the nomenclature raw names: the item of that exact name, else
// every item whose name holds each word of raw — as a prefix of its own word («бумаг» of
// «Бумага офисная А4»), or, for words of five letters or more, one typo away («картриж»).
// Deletion-marked items are never chosen. The answer says the balance of each match, so
// «бумага» is every paper the base keeps, not one of them picked.
func ResolveItems(raw string, all []item) []item {
	q := strings.TrimSpace(raw)
	if q == "" || utf8.RuneCountInString(q) > resolveMaxRunes {
		return nil
	}
	live := slices.DeleteFunc(slices.Clone(all), func(it item) bool { return it.deleted })
	if exact := slices.DeleteFunc(slices.Clone(live), func(it item) bool { return !strings.EqualFold(it.name, q) }); len(exact) > 0 {
		return exact
	}
	var words []string
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if !itemQueryStop[strings.Trim(w, "«»\"'.,!?")] {
			words = append(words, itemWords(w)...)
		}
	}
	if len(words) == 0 {
		return nil
	}
	var out []item
	for _, it := range live {
		name := itemWords(it.name)
		if !slices.ContainsFunc(words, func(w string) bool { return !itemWordIn(w, name) }) {
			out = append(out, it)
		}
	}
	slices.SortFunc(out, func(a, b item) int { return cmp.Or(strings.Compare(a.name, b.name), strings.Compare(a.code, b.code)) })
	return out
}

// itemWordIn: w is a word of name, the start of one (three letters at least), or one typo away
// from one of five letters or more.
func itemWordIn(w string, name []string) bool {
	return slices.ContainsFunc(name, func(n string) bool {
		switch {
		case w == n:
			return true
		case utf8.RuneCountInString(w) >= 3 && strings.HasPrefix(n, w):
			return true
		}
		return utf8.RuneCountInString(w) >= 5 && resWithin1(w, n)
	})
}

// stockLines runs the stock template and reads its lines: per account and item, what 1C
// summed. cut is set when the lines may be more than one answer holds.
func (l *Lane) stockLines(ctx context.Context, dbg *Debug, asOf time.Time, org recipe.Entity, token string, it *item) (lines []Row, cut bool, err error) {
	code, mask := onec.StockAllAccounts()
	if token != "" {
		code, mask = token, token+".%"
	}
	var itemParam any
	if it != nil {
		itemParam = onec.Ref{UUID: it.ref, Type: onec.TypeItem}.Param()
	}
	q, err := l.exec(ctx, dbg, "address.stock.balance", onec.Params{"НаДату": boundary(asOf), "Организация": refParam(org, refOrg),
		"СчетКод": code, "СчетМаска": mask, "Номенклатура": itemParam})
	if err != nil {
		return nil, false, err
	}
	if l.truncated(q) {
		return nil, true, nil
	}
	for _, s := range q.Stock {
		row := Row{Account: s.Account, Ref: s.Item.UUID, Name: s.Item.Presentation, Amount: s.Amount}
		if row.Name == "" {
			row.Name = "Без номенклатуры"
		}
		if s.Counted {
			row.Qty = &Qty{Value: s.Quantity, Unit: s.Unit}
		}
		lines = append(lines, row)
	}
	slices.SortStableFunc(lines, func(a, b Row) int {
		return cmp.Or(cmp.Compare(b.Amount, a.Amount), strings.Compare(a.Name, b.Name), strings.Compare(a.Account, b.Account))
	})
	return lines, false, nil
}

// newStock sums the lines of a stock answer; asked: the lines are of the items a question named
// («бумага»), whose quantities add up when they are of one unit (packs of A4 and A3 paper).
func newStock(lines []Row, asked bool) *Stock {
	st := &Stock{Lines: lines}
	items, units := map[string]bool{}, map[string]bool{}
	var qty onec.Quantity
	counted := true
	for _, row := range lines {
		st.Total += row.Amount
		items[row.Ref] = true
		if !slices.Contains(st.Accounts, row.Account) {
			st.Accounts = append(st.Accounts, row.Account)
		}
		if row.Qty == nil {
			counted = false
			continue
		}
		units[row.Qty.Unit] = true
		qty += row.Qty.Value
	}
	slices.Sort(st.Accounts)
	st.Items = len(items)
	if counted && len(units) == 1 && (asked || len(items) == 1) && len(lines) > 0 {
		st.Quantity = &Qty{Value: qty, Unit: lines[0].Qty.Unit}
	}
	return st
}

// withStock adds to a balance of a quantity account («остаток по 41») its lines per item: the
// quantity beside the sum, as BP's ОСВ по счёту 41 by Номенклатура with the indicator
// «Количество» shows them. An account that keeps no quantity gets none, and its answer says
// nothing of quantities.
func (l *Lane) withStock(ctx context.Context, res *Result, cats *catalogs, token string, a anchors) {
	if len(cats.quantityAccounts(token)) == 0 {
		return
	}
	lines, cut, err := l.stockLines(ctx, &res.Debug, res.AsOf, a.org, token, nil)
	switch {
	case err != nil:
		// the balance stands without the items; the note says why they are missing
		l.opts.Logger.WarnContext(ctx, "1C stock lines failed", "err", err)
		res.Notes = append(res.Notes, "Количество по номенклатуре 1С сейчас не отдала — показываю остаток в рублях.")
		return
	case cut:
		res.Stock = &Stock{Cut: true, Accounts: cats.quantityAccounts(token)}
		res.Notes = append(res.Notes, fmt.Sprintf("Позиций номенклатуры с остатком больше, чем %s одного ответа 1С, поэтому количество по каждой не показываю — спросите по товару.",
			ru.Count(l.opts.MaxRows, "строка", "строки", "строк")))
		return
	case len(lines) == 0:
		return
	}
	res.Stock = newStock(lines, false)
}

// stock runs the stock_balance recipe: the quantity accounts (or the one asked, with its
// sub-accounts) per item at the date, for the items of the name asked or all of them.
func (l *Lane) stock(ctx context.Context, res *Result, cats *catalogs, f recipe.Filters, a anchors) Result {
	dbg := &res.Debug
	asOf, _ := parseDay(f.AsOfDate)
	res.AsOf = asOf
	token := f.Account
	accounts := cats.quantityAccounts(token)
	dbg.AccountTokenRaw, dbg.AccountTokenNormalized = f.Account, accounts
	dbg.AccountScopeMatchStrategy = "quantity_accounts"
	switch {
	case len(accounts) == 0 && token != "":
		return res.limited(ReasonUnsupported, fmt.Sprintf("По счёту %s в 1С количественный учёт не ведётся — у него есть только остаток в рублях (спросите «остаток по %s»). "+
			"Количество хранят счета с признаком «Количественный»: %s.", token, token, orDefault(strings.Join(cats.quantityAccounts(""), ", "), "в этой базе таких нет")))
	case len(accounts) == 0:
		return res.limited(ReasonUnsupported, "В плане счетов этой базы 1С нет счетов с количественным учётом (признак «Количественный»: 10, 41, 43), поэтому остатков в штуках, килограммах и других единицах 1С не хранит — только суммы по счетам.")
	}
	res.Account = strings.Join(accounts, ", ")
	if token != "" {
		res.Account = token
	}
	res.Stock = &Stock{Asked: f.Item}
	var lines []Row
	if f.Item == "" {
		var cut bool
		var err error
		if lines, cut, err = l.stockLines(ctx, dbg, asOf, a.org, token, nil); err != nil {
			return l.failed(ctx, res, "address.stock.balance", err)
		}
		if cut {
			res.Stock = nil
			dbg.RuntimeReadiness = ReadyLiveLimited
			return res.limited(ReasonVisibilityGap, fmt.Sprintf("Результат обрезан на %s: позиций номенклатуры с остатком больше — это предел одного запроса к 1С. "+
				"Итог по обрезанной выборке был бы неверным, поэтому я его не показываю. Спросите по товару или по счёту (например, 41.01).",
				ru.Count(l.opts.MaxRows, "строку", "строки", "строк")))
		}
	} else {
		all, err := l.itemsFor(ctx, dbg)
		switch {
		case errors.Is(err, ErrCatalogTruncated):
			// a nomenclature past the pages one lookup reads: a name could not be found reliably
			res.Stock = nil
			return res.limited(ReasonVisibilityGap, fmt.Sprintf("Номенклатура в 1С длиннее, чем я читаю за один раз (%d страниц по %s), поэтому найти товар по названию надёжно не могу. "+
				"Спросите остаток по счёту (например, «остаток по 41.01»): в нём количество по каждой позиции.",
				maxCatalogPages, ru.Count(min(l.opts.MaxRows, onec.CatalogPage), "строке", "строки", "строк")))
		case err != nil:
			l.opts.Logger.WarnContext(ctx, "1C nomenclature", "err", err)
			res.Stock = nil
			return res.limited(ReasonExecutionError, sourceDown(l.src.Name()))
		}
		found := ResolveItems(f.Item, all)
		dbg.AnchorType, dbg.AnchorValueRaw, dbg.AmbiguityCount = "item", f.Item, len(found)
		switch {
		case len(found) == 0:
			res.Stock = nil
			return res.limited(ReasonMissingAnchor, fmt.Sprintf("Не нашёл в 1С номенклатуру «%s». Проверьте название — как оно записано в справочнике «Номенклатура».", f.Item))
		case len(found) > resolveMaxCandidates:
			res.Stock = nil
			res.AnchorType = "item"
			for _, it := range found[:resolveMaxCandidates] {
				res.Candidates = append(res.Candidates, recipe.Entity{Ref: it.ref, Name: it.name})
			}
			return res.limited(ReasonMissingAnchor, fmt.Sprintf("Под «%s» в номенклатуре 1С %s — уточните название. Например:",
				f.Item, ru.Count(len(found), "позиция", "позиции", "позиций")))
		}
		dbg.AnchorValueResolved = found[0].name
		for _, it := range found {
			res.Stock.Matched = append(res.Stock.Matched, it.name)
			got, cut, err := l.stockLines(ctx, dbg, asOf, a.org, token, &it)
			if err != nil {
				return l.failed(ctx, res, "address.stock.balance", err)
			}
			if cut { // one item cannot fill an answer: a base that does not follow the template
				res.Stock = nil
				return res.limited(ReasonVisibilityGap, sourceDown(l.src.Name()))
			}
			lines = append(lines, got...)
		}
	}
	matched := res.Stock.Matched
	*res.Stock = *newStock(lines, f.Item != "")
	res.Stock.Asked, res.Stock.Matched = f.Item, matched
	l.matchedRows(res, len(lines), len(lines), len(lines))
	if len(lines) == 0 {
		dbg.MCPCallStatus, dbg.MatchFailureStage, dbg.MatchFailureReason = StageNoRawRows, "execute", "no stock at the date"
		dbg.MCPCallStatusLegacy = legacyStatus(dbg.MCPCallStatus)
		msg := stockEmpty(res.AsOf, f.Item, matched, accounts)
		res.Stock = nil
		return res.limited(ReasonEmptyMatch, msg)
	}
	if token == "" {
		res.Account = strings.Join(res.Stock.Accounts, ", ") // the accounts the stock is on
	}
	res.Summary = Summary{Rows: len(lines), TotalAmount: res.Stock.Total, Currency: "RUB"}
	res.All = lines
	res.Rows = lines[:min(len(lines), f.Limit)]
	res.ResultMode = FactualList
	if len(lines) > listMax {
		res.ResultMode = FactualSummary
	}
	dbg.ResponseType = res.ResultMode
	return *res
}

// stockEmpty says that nothing of what was asked is in stock at the date.
func stockEmpty(asOf time.Time, asked string, matched, accounts []string) string {
	on := "на счетах " + strings.Join(accounts, ", ")
	if len(accounts) == 1 {
		on = "на счёте " + accounts[0]
	}
	switch len(matched) {
	case 0:
		return fmt.Sprintf("На %s остатков номенклатуры %s нет.", ruDay(asOf), on)
	case 1:
		return fmt.Sprintf("На %s остатка «%s» %s нет: ни количества, ни суммы.", ruDay(asOf), matched[0], on)
	}
	return fmt.Sprintf("На %s остатков «%s» %s нет (в номенклатуре: %s).", ruDay(asOf), asked, on, strings.Join(matched, "; "))
}
