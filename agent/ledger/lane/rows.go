package lane

import (
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

// refFrom is the lane's view of a reference of a typed row.
func refFrom(r onec.Ref) Ref { return Ref{ID: r.UUID, Type: r.Type, Name: r.Presentation} }

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

// The lane's views of the typed rows onec decodes (onec.Result): wire rows are read there,
// once; these only rename and net.

func balanceRows(in []onec.BalanceRow) []balanceRow {
	out := make([]balanceRow, 0, len(in))
	for _, r := range in {
		out = append(out, balanceRow{account: r.Account, net: r.Debit - r.Credit,
			party: refFrom(r.Counterparty), contract: refFrom(r.Contract), doc: refFrom(r.SettlementDocument)})
	}
	return out
}

func turnoverRows(in []onec.TurnoverRow) []turnoverRow {
	out := make([]turnoverRow, 0, len(in))
	for _, r := range in {
		out = append(out, turnoverRow{account: r.Account, debit: r.Debit, credit: r.Credit, docNumber: r.DocumentNumber,
			docDate: r.DocumentDate, party: refFrom(r.Counterparty), contract: refFrom(r.Contract), doc: refFrom(r.SettlementDocument)})
	}
	return out
}

func movementRows(in []onec.MovementRow) []movementRow {
	out := make([]movementRow, 0, len(in))
	for _, r := range in {
		out = append(out, movementRow{period: r.Period, registrar: refFrom(r.Registrar), number: r.Number,
			accountDr: r.AccountDr, accountCr: r.AccountCr, amount: r.Amount,
			partyDr: refFrom(r.PartyDr), partyCr: refFrom(r.PartyCr), contractDr: refFrom(r.ContractDr), contractCr: refFrom(r.ContractCr)})
	}
	return out
}

func documentRows(in []onec.DocumentRow) []documentRow {
	out := make([]documentRow, 0, len(in))
	for _, r := range in {
		out = append(out, documentRow{ref: refFrom(r.Ref), number: r.Number, date: r.Date, posted: r.Posted, deleted: r.Deleted,
			amount: r.Amount, bankAccount: r.BankAccount, purpose: r.Purpose, party: refFrom(r.Counterparty), contract: refFrom(r.Contract)})
	}
	return out
}

// accountField is the account of a row's column: Счет of a settlement row, СчетДт or СчетКт of
// a register record; a document has none.
func (r balanceRow) accountField(field string) string  { return accountOf(field, r.account, "", "") }
func (r turnoverRow) accountField(field string) string { return accountOf(field, r.account, "", "") }
func (r movementRow) accountField(field string) string {
	return accountOf(field, "", r.accountDr, r.accountCr)
}
func (documentRow) accountField(string) string { return "" }

func accountOf(field, account, dr, cr string) string {
	switch field {
	case "Счет":
		return account
	case "СчетДт":
		return dr
	case "СчетКт":
		return cr
	}
	return ""
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
