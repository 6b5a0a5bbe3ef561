package runner

import (
	"strings"

	"github.com/finbot/finbot/integrations/onec"
)

// Ref is a 1C reference of a typed row (onec decodes the rows, once: onec.Result).
type Ref = onec.Ref

// settlementAccount is the account column (Счет) of a settlement row, recordAccount the СчетДт
// or СчетКт of a register record; a document has none. scope reads the columns through them.
func settlementAccount(r onec.BalanceRow, field string) string {
	if field != "Счет" {
		return ""
	}
	return r.Account
}

func recordAccount(r onec.MovementRow, field string) string {
	switch field {
	case "СчетДт":
		return r.AccountDr
	case "СчетКт":
		return r.AccountCr
	}
	return ""
}

func noAccount(onec.DocumentRow, string) string { return "" }

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
