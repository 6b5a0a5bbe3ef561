package understand

import (
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/address"
)

// ledgerFigures are the concepts that ask for a figure of the ledger.
var ledgerFigures = []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CBankOps, CForming}

// decide picks the kind and the recipe from what the scan found. The order is the order of
// precedence: a request to change data, small talk, the user's documents, a how-to question,
// the key rate, rates, news, the ledger, then the knowledge base.
func (p *Parser) decide(s *scan, d *Decision) {
	set := func(k Kind, rule, why string, sure bool) {
		d.Kind, d.Rule, d.Sure = k, rule, sure
		d.Reasons = append(d.Reasons, why)
	}
	letters := 0
	for _, r := range s.in.Text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			letters++
		}
	}
	ledgerAsk := s.is(ledgerFigures...) || s.is(CContracts) && s.is(CNotClosed) ||
		d.Counterparty.Set || d.Contract.Set || len(d.Candidates) > 0 ||
		s.is(CDocuments) && (d.Counterparty.Set || d.Contract.Set || d.Unknown != "")
	kbAsk := s.is(CKBQuestion) && s.first(CKBQuestion) <= 1
	switch {
	case letters < 2:
		set(KindClarify, "too_short", "в сообщении нет вопроса", true)
	case s.is(CWrite) && s.first(CWrite) <= 1 && !kbAsk:
		set(KindLedgerWrite, "write", "просьба изменить данные 1С — бот только читает", true)
	case s.is(CSmallTalk) && !ledgerAsk && !s.is(CRate, CKeyRate, CNews, CKBQuestion, CKBTopic, CMyDocs, CDocTerms) && len(s.toks) <= 6:
		set(KindSmallTalk, "smalltalk", "приветствие или разговор о боте", true)
	case p.aboutMyDocs(s, d):
		set(KindDocs, "docs", "вопрос о загруженных документах", true)
	case kbAsk && !s.is(CKeyRate) && !(d.Currencies.Set && s.is(CRate)):
		set(KindKB, "kb_question", "вопрос о правилах учёта, а не о цифрах 1С", true)
	case s.keyRate(d, ledgerAsk):
		set(KindKeyRate, "key_rate", "вопрос о ключевой ставке", true)
	case (d.Currencies.Set || s.is(CRate)) && !ledgerAsk:
		set(KindRate, "rate", "вопрос о курсе валют", d.Currencies.Set || s.is(CRate))
	case s.is(CNews) && !ledgerAsk:
		set(KindNews, "news", "запрос финансовых новостей", true)
	case ledgerAsk || d.Account.Set || d.UnknownAccount != "" || d.Unknown != "" && s.is(CDocuments):
		p.ledger(s, d)
	case s.is(CKBTopic, CKBQuestion, CDocTerms):
		set(KindKB, "kb_topic", "вопрос о терминах, учёте или нормативке", true)
	case len(s.toks) <= 2:
		set(KindClarify, "vague", "слишком общий запрос", false)
	default:
		set(KindKB, "default", "нет признаков документа, курса, новостей или 1С", false)
	}
}

// first returns the token index where concept c is first found, or a large number.
func (s *scan) first(c Concept) int {
	best := 1 << 30
	for _, h := range s.hits {
		if h.Concept == c && h.Start < best {
			best = h.Start
		}
	}
	return best
}

// keyRate reports whether the message asks for the key rate: a phrase that means it alone
// («ключевая», «кс»), or «ставка» with no currency and nothing of the ledger.
func (s *scan) keyRate(d *Decision, ledgerAsk bool) bool {
	for _, h := range s.hits {
		if h.Concept == CKeyRate && (h.Value == "strong" || !d.Currencies.Set && !ledgerAsk && !s.is(CKBTopic)) {
			return !ledgerAsk || h.Value == "strong" && !s.is(CReceivables, CPayables, CBalance)
		}
	}
	return false
}

// aboutMyDocs reports whether the question is about the user's uploaded documents: it says
// so («в моём договоре», «в загруженном акте»), or asks for a contract's terms and names one of
// the documents (its number or a party in its title). A question for ledger figures stays
// with the ledger.
func (p *Parser) aboutMyDocs(s *scan, d *Decision) bool {
	if len(s.in.Docs) == 0 {
		return false
	}
	strong, weak := false, false
	for _, h := range s.hits {
		if h.Concept == CMyDocs {
			if h.Value == "weak" {
				weak = true
			} else {
				strong = true
			}
		}
	}
	figures := s.is(CReceivables, CPayables, CBalance, COpenItems, CBankOps, COwesUs, CWeOwe, CForming)
	if strong && !figures {
		return true
	}
	named := s.namesUploaded()
	if s.is(CDocTerms) && !figures && (weak || named || s.is(CContracts)) {
		return true
	}
	return named && !figures && !s.is(CDocuments, CDebt)
}

// namesUploaded reports whether the message names an uploaded document: a number from its
// title («15-П») or a word of a company named in it («Техснаб»).
func (s *scan) namesUploaded() bool {
	for _, title := range s.in.Docs {
		tt := Tokenize(title)
		for _, t := range tt {
			long := len([]rune(t.Text)) >= 5 && !genericTitleWord(t.Stem)
			num := strings.ContainsAny(t.Text, "0123456789") && strings.ContainsAny(t.Text, "-/")
			if !long && !num {
				continue
			}
			for _, m := range s.toks {
				if m.Stem == t.Stem || long && typoEligible(m.Stem) && within1(m.Stem, t.Stem) {
					return true
				}
			}
		}
	}
	return false
}

// genericTitleWord are the words of document titles that name no particular document.
func genericTitleWord(stem string) bool {
	switch stem {
	case "договор", "поставк", "сверк", "квартал", "оказан", "услуг", "аренд", "подряд", "выполнен", "работ",
		"соглашен", "дополнительн", "приложен", "спецификац", "счет", "накладн":
		return true
	}
	return false
}

// ledger picks the recipe of a question for 1C.
func (p *Parser) ledger(s *scan, d *Decision) {
	set := func(r address.Intent, rule, why string) {
		d.Kind, d.Recipe, d.Rule, d.Sure = KindLedger, r, rule, true
		d.Reasons = append(d.Reasons, why)
	}
	party := d.Counterparty.Set
	single := party || d.Contract.Set
	switch {
	case !party && len(d.Candidates) > 1:
		d.Kind, d.Rule, d.Sure = KindClarify, "ambiguous_counterparty", true
		d.Reasons = append(d.Reasons, "название подходит нескольким контрагентам")
		return
	case !single && d.Unknown != "":
		d.Kind, d.Rule, d.Sure = KindUnknownEntity, "unknown_counterparty", true
		d.Reasons = append(d.Reasons, "контрагента с таким названием нет в справочнике")
		return
	}
	switch {
	case s.is(CForming):
		set(address.IntentDocumentsFormBalance, "forming", "какие документы формируют остаток")
	case s.is(CContracts) && s.is(CNotClosed) && !s.is(CDocuments, CBankOps):
		set(address.IntentOpenContracts, "open_contracts", "незакрытые договоры")
	case s.is(CBankOps) && !s.is(COpenItems) && (party || !s.is(CDebt, CReceivables, CPayables, COwesUs, CWeOwe)):
		set(address.IntentBankOpsByParty, "bank_ops", "банковские операции с контрагентом")
	case s.is(CDocuments) && d.Contract.Set && !s.is(COpenItems, CDebt):
		set(address.IntentDocumentsByContract, "documents_by_contract", "документы по договору")
	case s.is(CDocuments) && !s.is(COpenItems, CDebt, CReceivables, CPayables, COwesUs, CWeOwe):
		set(address.IntentDocumentsByParty, "documents", "документы контрагента")
	case d.Contract.Set && !party:
		set(address.IntentOpenItemsByContract, "open_items_by_contract", "открытые позиции по договору")
	case party:
		set(address.IntentOpenItemsByParty, "open_items_by_counterparty", "расчёты с одним контрагентом")
	case s.is(CReceivables, COwesUs):
		set(address.IntentReceivables, "receivables", "кто должен нам")
	case s.is(CPayables, CWeOwe):
		set(address.IntentPayables, "payables", "кому должны мы")
	case s.is(CBalance) || d.Account.Set || d.UnknownAccount != "":
		set(address.IntentAccountBalance, "balance", "остаток по счёту")
	case s.is(COpenItems):
		set(address.IntentOpenItemsByParty, "open_items", "открытые позиции")
	default:
		d.Kind, d.Rule, d.Sure = KindClarify, "debt_direction", false
		d.Reasons = append(d.Reasons, "непонятно, чей долг: нам или наш")
	}
}
