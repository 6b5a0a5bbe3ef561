package lane

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec"
)

// Ref is a 1C reference as the proxy serialises it (`_objectRef`).
type Ref struct {
	ID   string `json:"id"`
	Type string `json:"type"` // "СправочникСсылка.Контрагенты", "ДокументСсылка.РеализацияТоваровУслуг"
	Name string `json:"name"` // Представление
}

// Kind is the metadata name after the dot: "Контрагенты", "РеализацияТоваровУслуг".
func (r Ref) Kind() string {
	_, k, _ := strings.Cut(r.Type, ".")
	return k
}

// objectRef builds the parameter form of a reference.
func objectRef(id, typ string) map[string]any {
	return map[string]any{"_objectRef": true, "УникальныйИдентификатор": id, "ТипОбъекта": typ}
}

func refOf(v any) (Ref, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return Ref{}, false
	}
	if flag, _ := m["_objectRef"].(bool); !flag {
		return Ref{}, false
	}
	r := Ref{ID: str(m["УникальныйИдентификатор"]), Type: str(m["ТипОбъекта"]), Name: str(m["Представление"])}
	return r, r.ID != ""
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case nil:
		return ""
	default:
		return fmt.Sprint(x)
	}
}

// money reads an amount exactly: json.Number or a decimal string (float64 only from foreign
// decoders, formatted shortest-exact before parsing). A NULL, which the toolkit writes as ""
// (and JSON null), is zero.
func money(v any) (onec.Kopecks, bool) {
	var s string
	switch x := v.(type) {
	case json.Number:
		s = x.String()
	case string:
		if x == onec.WireNull {
			return 0, true
		}
		s = x
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case int:
		return onec.Kopecks(x) * 100, true
	case nil:
		return 0, true
	default:
		return 0, false
	}
	k, err := onec.ParseKopecks(s)
	return k, err == nil
}

func boolOf(v any) bool { b, _ := v.(bool); return b }

// dateOf reads a date of a row: the toolkit's "2026-03-31T00:00:00Z" (onec.DateOf), or a bare
// "2026-03-31". The empty date ("Z") and NULL ("") are no date.
func dateOf(v any) (time.Time, bool) {
	if t, ok := onec.DateOf(v); ok {
		return t, true
	}
	if t, err := time.Parse(time.DateOnly, str(v)); err == nil {
		return t, true
	}
	return time.Time{}, false
}

// isNull reports a NULL of the query: JSON null, or the toolkit's "" (Строка(Null)).
func isNull(v any) bool { return v == nil || v == onec.WireNull }

// rowKeys is the sorted key set of a raw row, for the debug sample.
func rowKeys(r map[string]any) []string {
	keys := make([]string, 0, len(r))
	for k := range r {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// balanceRow is a materialised BALANCE row.
type balanceRow struct {
	account              string
	party, contract, doc Ref
	net                  onec.Kopecks // Дт − Кт
}

// turnoverRow is a materialised TURNOVER row.
type turnoverRow struct {
	account              string
	party, contract, doc Ref
	docDate              time.Time
	docNumber            string
	debit, credit        onec.Kopecks
}

// movementRow is a materialised MOVEMENT row.
type movementRow struct {
	period                 time.Time
	registrar              Ref
	number                 string
	accountDr, accountCr   string
	partyDr, partyCr       Ref
	contractDr, contractCr Ref
	amount                 onec.Kopecks
}

// documentRow is a materialised DOCUMENT row.
type documentRow struct {
	ref             Ref
	number          string
	date            time.Time
	posted, deleted bool
	party, contract Ref
	amount          onec.Kopecks
	bankAccount     string
	purpose         string
}

// materialize converts raw rows of one shape into typed rows, counting drops by reason.
func materializeBalance(raw []map[string]any) ([]balanceRow, map[string]int) {
	drops := map[string]int{}
	out := make([]balanceRow, 0, len(raw))
	for _, r := range raw {
		dt, ok1 := money(r["СуммаОстатокДт"])
		kt, ok2 := money(r["СуммаОстатокКт"])
		acc := str(r["Счет"])
		if acc == "" || !ok1 || !ok2 || (isNull(r["СуммаОстатокДт"]) && isNull(r["СуммаОстатокКт"])) {
			drops[DropUnknownShape]++
			continue
		}
		row := balanceRow{account: acc, net: dt - kt}
		row.party, _ = refOf(r["Контрагент"])
		row.contract, _ = refOf(r["Договор"])
		row.doc, _ = refOf(r["ДокументРасчетов"])
		out = append(out, row)
	}
	return out, drops
}

func materializeTurnover(raw []map[string]any) ([]turnoverRow, map[string]int) {
	drops := map[string]int{}
	out := make([]turnoverRow, 0, len(raw))
	for _, r := range raw {
		dt, ok1 := money(r["СуммаОборотДт"])
		kt, ok2 := money(r["СуммаОборотКт"])
		acc := str(r["Счет"])
		if acc == "" || !ok1 || !ok2 {
			drops[DropUnknownShape]++
			continue
		}
		row := turnoverRow{account: acc, debit: dt, credit: kt, docNumber: str(r["ДокументРасчетовНомер"])}
		row.party, _ = refOf(r["Контрагент"])
		row.contract, _ = refOf(r["Договор"])
		row.doc, _ = refOf(r["ДокументРасчетов"])
		row.docDate, _ = dateOf(r["ДокументРасчетовДата"])
		out = append(out, row)
	}
	return out, drops
}

func materializeMovements(raw []map[string]any) ([]movementRow, map[string]int) {
	drops := map[string]int{}
	out := make([]movementRow, 0, len(raw))
	for _, r := range raw {
		period, hasPeriod := dateOf(r["Период"])
		reg, hasReg := refOf(r["Регистратор"])
		switch {
		case !hasPeriod && !hasReg:
			drops[DropNoPeriodRegistrar]++
			continue
		case !hasPeriod:
			drops[DropNoPeriod]++
			continue
		case !hasReg:
			drops[DropNoRegistrar]++
			continue
		}
		amount, ok := money(r["Сумма"])
		if !ok {
			drops[DropUnknownShape]++
			continue
		}
		row := movementRow{period: period, registrar: reg, number: str(r["РегистраторНомер"]),
			accountDr: str(r["СчетДт"]), accountCr: str(r["СчетКт"]), amount: amount}
		row.partyDr, _ = refOf(r["КонтрагентДт"])
		row.partyCr, _ = refOf(r["КонтрагентКт"])
		row.contractDr, _ = refOf(r["ДоговорДт"])
		row.contractCr, _ = refOf(r["ДоговорКт"])
		out = append(out, row)
	}
	return out, drops
}

func materializeDocuments(raw []map[string]any) ([]documentRow, map[string]int) {
	drops := map[string]int{}
	out := make([]documentRow, 0, len(raw))
	for _, r := range raw {
		ref, ok := refOf(r["Ссылка"])
		date, okDate := dateOf(r["Дата"])
		amount, okAmount := money(r["СуммаДокумента"])
		if !ok || !okDate || !okAmount {
			drops[DropUnknownShape]++
			continue
		}
		row := documentRow{ref: ref, number: str(r["Номер"]), date: date, posted: boolOf(r["Проведен"]),
			deleted: boolOf(r["ПометкаУдаления"]), amount: amount, bankAccount: str(r["БанковскийСчет"]),
			purpose: str(r["НазначениеПлатежа"])}
		row.party, _ = refOf(r["Контрагент"])
		row.contract, _ = refOf(r["Договор"])
		out = append(out, row)
	}
	return out, drops
}

// dominantDrop names the most frequent drop reason, or none.
func dominantDrop(drops map[string]int) string {
	best, n := DropNone, 0
	for reason, c := range drops {
		if c > n || (c == n && reason < best) {
			best, n = reason, c
		}
	}
	return best
}

// accountMatches reports whether code is the token or one of its sub-accounts
// (62 matches 62, 62.01, 62.02; 62.01 matches 62.01 and 62.01.x).
func accountMatches(code, token string) bool {
	return code == token || strings.HasPrefix(code, token+".")
}

func anyAccountMatches(code string, tokens []string) bool {
	for _, t := range tokens {
		if accountMatches(code, t) {
			return true
		}
	}
	return false
}
