package understand

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
)

// Settlement accounts (расчётные счета) of our organizations: «остаток на р/с
// 40702810927616318153», «по счёту 8153», «...0187», «выписка по р/с трейда». A number reads as
// a settlement account only where it cannot be something else: twenty digits (an ИНН has ten or
// twelve, an amount or a date never twenty); a tail of four digits or more right after «р/с»,
// «расчётный счёт», «счёт» or a «…» mark; or, with nothing of the kind, a tail that ends exactly
// one of our accounts in a question about money. Chart codes («счёт 62», «сч 60.01», «51 счет»)
// have two digits and stay accounts of the chart.

// bankMention is a settlement account written in a message.
type bankMention struct {
	digits string // 20 digits for a whole number, 4–19 for a tail
	text   string // as written, for the slot
	// strong: written as a settlement account («р/с 8153», «...8153», twenty digits), so a number
	// none of ours has is reported; after a bare «счёт» it may be an invoice's number instead.
	strong bool
}

var (
	// wholeAccountRe is a 20-digit number, possibly written in groups («4070 2810 9276 …»).
	wholeAccountRe = regexp.MustCompile(`(?:^|[^\d])((?:\d[ \x{00a0}]?){19}\d)(?:[^\d]|$)`)
	// tailMarkRe is a tail written as one: «...8153», «…8153», «*8153».
	tailMarkRe = regexp.MustCompile(`(?:\.{2,}|…|\*+)\s*(\d{4,19})(?:[^\d]|$)`)
)

// strongCues are the words that name a settlement account on their own.
var strongCues = map[string]bool{"р/с": true, "р/сч": true, "рс": true, "р/счет": true, "р/счета": true, "р/счету": true,
	"р/счете": true, "расчетник": true, "расчетника": true, "расчетнику": true, "расчетнике": true}

// numberFillers may stand between a cue and the number («р/с № 8153»); orgFillers between a cue
// and the organization («р/с у трейда»).
var (
	numberFillers = map[string]bool{"№": true, "номер": true, "ном": true, "no": true}
	orgFillers    = map[string]bool{"у": true, "в": true, "для": true, "нашей": true, "нашего": true, "организации": true,
		"компании": true, "фирмы": true}
)

// amountWords follow a number that is an amount.
var amountWords = map[string]bool{"р": true, "руб": true, "рублей": true, "рубля": true, "рубль": true, "тыс": true,
	"т.р": true, "тр": true, "млн": true, "к": true, "коп": true}

// notTailBefore are words after which a number is an amount, a date or the number of something
// else (a contract, a document, an INN), not an account's tail.
var notTailBefore = map[string]bool{"за": true, "с": true, "до": true, "от": true, "к": true, "больше": true,
	"меньше": true, "свыше": true, "более": true, "менее": true, "около": true, "выше": true, "ниже": true, "№": true,
	"номер": true, "договор": true, "дог": true, "документ": true, "акт": true, "накладн": true, "упд": true, "п/п": true,
	"пп": true, "платежк": true, "поручен": true, "заказ": true, "инн": true, "кпп": true, "бик": true}

// bankCue reports whether token i follows a word that names a settlement account: strong for
// «р/с», «расчётный счёт», «р / с», a bare «счёт» or «сч» otherwise.
func (s *scan) bankCue(i int) (strong, ok bool) {
	j := i - 1
	if j > 0 && s.toks[j].Text == "на" && endsWord(s.toks[j-1].Text) {
		j -= 2 // «счёт, оканчивающийся на 8153»
	}
	for j >= 0 && j >= i-3 && numberFillers[s.toks[j].Text] {
		j--
	}
	if j < 0 {
		return false, false
	}
	return s.cueAt(j)
}

// cueAt reports whether token j is (the last word of) a settlement-account word.
func (s *scan) cueAt(j int) (strong, ok bool) {
	t := s.toks[j]
	switch {
	case strongCues[t.Text]:
		return true, true
	case (t.Text == "с" || t.Text == "сч") && j >= 2 && s.toks[j-1].Text == "/" && s.toks[j-2].Text == "р":
		return true, true
	case t.Stem == "счет" || t.Text == "сч":
		strong := j > 0 && (strings.HasPrefix(s.toks[j-1].Text, "расчетн") || s.toks[j-1].Text == "расч")
		return strong, true
	}
	return false, false
}

// findBankMentions reads the settlement accounts the message writes and blanks them out of the
// text the dates, the INN and the contract numbers are read from.
func (s *scan) findBankMentions() {
	text := s.in.Text
	seen := func(d string) bool {
		return slices.ContainsFunc(s.banks, func(m bankMention) bool { return m.digits == d })
	}
	for _, m := range wholeAccountRe.FindAllStringSubmatchIndex(text, -1) {
		raw := text[m[2]:m[3]]
		s.banks = append(s.banks, bankMention{digits: onlyDigits(raw), text: raw, strong: true})
	}
	for _, m := range tailMarkRe.FindAllStringSubmatchIndex(text, -1) {
		if d := text[m[2]:m[3]]; !seen(d) {
			s.banks = append(s.banks, bankMention{digits: d, text: strings.TrimSpace(text[m[0]:m[3]]), strong: true})
		}
	}
	for i, t := range s.toks {
		d := strings.TrimPrefix(t.Text, "№")
		if len(d) < 4 || len(d) > 19 || !isDigits(d) || seen(d) || i+1 < len(s.toks) && amountWords[s.toks[i+1].Text] {
			continue
		}
		if strong, ok := s.bankCue(i); ok {
			s.banks = append(s.banks, bankMention{digits: d, text: d, strong: strong})
		} else if s.uncuedTail(i, d) {
			s.banks = append(s.banks, bankMention{digits: d, text: d})
		}
	}
	for _, m := range s.banks {
		s.in.Text = blankDigits(s.in.Text, m.text)
	}
}

// uncuedTail reports whether a number with no account word before it ends exactly one of our
// accounts in a question about money («остаток 8153 на 1.03»).
func (s *scan) uncuedTail(i int, d string) bool {
	if s.in.Catalogs == nil || !s.is(ledgerFigures...) && !s.is(CAccount, CAccountWord) {
		return false
	}
	if i > 0 && (notTailBefore[s.toks[i-1].Text] || notTailBefore[s.toks[i-1].Stem]) {
		return false
	}
	if n, _ := strconv.Atoi(d); len(d) == 4 && n >= 1990 && n < 2100 {
		return false // a year
	}
	return len(accountsEnding(s.in.Catalogs.BankAccounts, d)) == 1
}

// accountsEnding returns the live accounts whose number is digits or ends with them.
func accountsEnding(list []recipe.BankAccount, digits string) []recipe.BankAccount {
	var out []recipe.BankAccount
	for _, b := range list {
		if !b.Deleted && strings.HasSuffix(b.Number, digits) {
			out = append(out, b)
		}
	}
	return out
}

// bankAccount resolves the settlement account the message names: by number or tail, else by
// «р/с» and our organization when that organization has exactly one. The account's
// organization is the scope (unless the message names another: the 1C lane then says they
// differ), and its balance is the balance of account 51.
func (p *Parser) bankAccount(s *scan, d *Decision) {
	c := s.in.Catalogs
	if c == nil {
		return
	}
	var ambiguous []recipe.BankAccount
	unknown := ""
	for _, m := range s.banks {
		found := accountsEnding(c.BankAccounts, m.digits)
		switch {
		case len(found) == 1:
			d.BankAccount = slot(found[0], FromCatalog, m.text)
		case len(found) > 1 && ambiguous == nil:
			ambiguous = found
		case len(found) == 0 && m.strong && unknown == "" && (len(m.digits) == 4 || len(m.digits) == 20 || m.text != m.digits):
			unknown = m.digits // a tail of another length after «р/с» may be an amount
		}
		if d.BankAccount.Set {
			break
		}
	}
	if !d.BankAccount.Set {
		switch {
		case ambiguous != nil:
			d.BankAccountCandidates = ambiguous
			return
		case unknown != "":
			d.UnknownBankAccount = unknown
			if !d.Account.Set {
				d.Account = slot("51", FromCatalog, unknown)
			}
			return
		}
		p.bankAccountOfOrganization(s, d)
	}
	if !d.BankAccount.Set {
		return
	}
	b := d.BankAccount.Value
	if !d.Organization.Set {
		if i := slices.IndexFunc(c.Organizations, func(e recipe.Entity) bool { return e.Ref == b.OrgRef }); i >= 0 {
			d.Organization = slot(c.Organizations[i], FromCatalog, d.BankAccount.Text)
		}
	}
	if !d.Account.Set {
		d.Account = slot("51", FromCatalog, d.BankAccount.Text)
	}
}

// bankAccountOfOrganization reads «р/с трейда», «какой р/с у северного ветра»: an organization
// of ours right after a settlement-account word is ours, not a customer of the same name, and
// when it has exactly one account the message names that account.
func (p *Parser) bankAccountOfOrganization(s *scan, d *Decision) {
	c := s.in.Catalogs
	cue := -1
	for j := range s.toks {
		if strong, ok := s.cueAt(j); ok && strong {
			cue = j
			break
		}
	}
	if cue < 0 {
		return
	}
	j := cue + 1
	for j < len(s.toks) && orgFillers[s.toks[j].Text] {
		j++
	}
	if org, end, ok := orgAt(s.toks, j, c.Organizations); ok && (!d.Organization.Set || d.Organization.Value.Ref == org.Ref) {
		text := s.span(j, end)
		if d.Counterparty.Set && (strings.Contains(text, d.Counterparty.Text) || strings.Contains(d.Counterparty.Text, text)) {
			d.Counterparty = Slot[recipe.Entity]{} // our organization, not the customer named like it
		}
		if !d.Organization.Set {
			d.Organization = slot(org, FromCatalog, text)
		}
		s.spans = append(s.spans, [2]int{j, end})
	}
	if !d.Organization.Set {
		return
	}
	var own []recipe.BankAccount
	for _, b := range c.BankAccounts {
		if !b.Deleted && b.OrgRef == d.Organization.Value.Ref {
			own = append(own, b)
		}
	}
	if len(own) == 1 {
		d.BankAccount = slot(own[0], FromCatalog, s.toks[cue].Text+" "+d.Organization.Text)
	}
}

// orgAt finds one of our organizations named at toks[j:]: its whole name (the longest that
// fits), or a word of its name no other of ours has («трейда»).
func orgAt(toks []Token, j int, orgs []recipe.Entity) (recipe.Entity, int, bool) {
	if j >= len(toks) {
		return recipe.Entity{}, 0, false
	}
	var best recipe.Entity
	bestEnd, tie := 0, false
	for _, o := range orgs {
		for _, k := range keysOf(o) {
			if m, ok := matchKey(toks, j, k); ok && m.full {
				switch {
				case m.end > bestEnd:
					best, bestEnd, tie = o, m.end, false
				case m.end == bestEnd && o.Ref != best.Ref:
					tie = true
				}
			}
		}
	}
	if bestEnd > 0 && !tie {
		return best, bestEnd, true
	}
	var hit []recipe.Entity
	for i, o := range orgs {
		keys := keysOf(o)
		if len(keys) == 0 {
			continue
		}
		for n, w := range keys[0].words {
			if !ownWord(w, i, orgs) || !nameWordEq(toks[j], keys[0], n) {
				continue
			}
			if !slices.ContainsFunc(hit, func(e recipe.Entity) bool { return e.Ref == o.Ref }) {
				hit = append(hit, o)
			}
		}
	}
	if len(hit) == 1 {
		return hit[0], j + 1, true
	}
	return recipe.Entity{}, 0, false
}

// ownWord reports whether the stem w is in the name of orgs[i] only.
func ownWord(w string, i int, orgs []recipe.Entity) bool {
	for k, o := range orgs {
		if k == i {
			continue
		}
		for _, key := range keysOf(o) {
			if slices.Contains(key.words, w) {
				return false
			}
		}
	}
	return true
}

// endsWord is «оканчивается», «заканчивающийся» and their forms.
func endsWord(w string) bool {
	return strings.HasPrefix(w, "оканчива") || strings.HasPrefix(w, "заканчива")
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

func onlyDigits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// blankDigits blanks the first occurrence of a written account that no other digit touches.
func blankDigits(text, written string) string {
	for off := 0; ; {
		i := strings.Index(text[off:], written)
		if i < 0 {
			return text
		}
		i += off
		end := i + len(written)
		if (i == 0 || !isDigitByte(text[i-1])) && (end == len(text) || !isDigitByte(text[end])) {
			return text[:i] + strings.Repeat(" ", len(written)) + text[end:]
		}
		off = end
	}
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }
