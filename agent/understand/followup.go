package understand

import (
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/agent/ru"
)

// State is what a dialog remembers of its last answered question: the kind, the recipe and the
// slots of its decision. A follow-up («а на начало года?», «а у гранита?», «а в юанях?») replaces
// the slots it names and keeps the rest. It is kept with the dialog's history (as JSON, in Redis
// when configured), per chat and user, so it survives a restart.
type State struct {
	Kind         Kind            `json:"kind"`
	Recipe       address.Intent  `json:"recipe,omitempty"`
	Date         *time.Time      `json:"date,omitempty"`
	DateText     string          `json:"date_text,omitempty"`
	Period       *ru.Period      `json:"period,omitempty"`
	Currencies   []string        `json:"currencies,omitempty"`
	Nominal      int             `json:"nominal,omitempty"`
	Account      string          `json:"account,omitempty"`
	Counterparty *address.Entity `json:"counterparty,omitempty"`
	Contract     *address.Entity `json:"contract,omitempty"`
	Organization *address.Entity `json:"organization,omitempty"`
	// Question is the message the state answered, for the planner's summary of a follow-up.
	Question string `json:"question,omitempty"`
}

// StateOf is the state a decision leaves for the next message, or false when it leaves none:
// only questions with slots to continue (1C, rates, the key rate) do. A question back about a
// counterparty (several candidates, an unknown name) leaves the question it was asked about, so
// that the answer to it («а ООО «Гранит»?», a button) continues it.
func StateOf(d Decision, question string) (State, bool) {
	s := State{Kind: d.Kind, Recipe: d.Recipe, Question: question}
	switch {
	case d.Kind == KindLedger && d.Recipe != "", d.Kind == KindRate, d.Kind == KindKeyRate:
	case (d.Kind == KindClarify || d.Kind == KindUnknownEntity) && d.Recipe != "":
		s.Kind = KindLedger
	default:
		return State{}, false
	}
	if d.Date.Set {
		t := d.Date.Value
		s.Date, s.DateText = &t, d.Date.Text
	}
	if d.Period.Set {
		p := d.Period.Value
		s.Period = &p
	}
	s.Currencies, s.Nominal = d.Currencies.Value, d.Nominal.Value
	s.Account = d.Account.Value
	if d.Counterparty.Set {
		e := d.Counterparty.Value
		s.Counterparty = &e
	}
	if d.Contract.Set {
		e := d.Contract.Value
		s.Contract = &e
	}
	if d.Organization.Set {
		e := d.Organization.Value
		s.Organization = &e
	}
	return s, true
}

// subjectConcepts name what a message asks about: a message with none of them («а на 1.03?»,
// «а гранит?», «в юанях») only gives slots.
var subjectConcepts = []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CDocuments,
	CBankOps, CContracts, CForming, CWrite, CRate, CKeyRate, CNews, CSmallTalk, CKBQuestion, CKBTopic, CMyDocs, CDocTerms,
	CAnalysis}

// ledgerSubjects are the subject concepts of a 1C question.
var ledgerSubjects = []Concept{CReceivables, CPayables, CDebt, COwesUs, CWeOwe, CBalance, COpenItems, CDocuments,
	CBankOps, CContracts, CForming}

// FollowUp reads a message in the light of the previous question's state. It returns the
// decision for the message and true when the message continues that question; a message that
// asks something of its own, or a previous question with no slots, gives false and the caller
// keeps the message's own decision.
//
// A continuation replaces the slots it names and keeps the rest: a date or period, a
// currency and nominal, an account, a counterparty (after a list, the list becomes that
// company's debt), a contract, our organization. It may name its own subject within the same
// source («дебиторка на 1.03» → «а кредиторка?»). What it cannot continue is a question back:
// a currency after a 1C figure («а в евро?»), «по другому контрагенту» with no name.
func (p *Parser) FollowUp(in Input, cur Decision, prev State) (Decision, bool) {
	if prev.Kind == "" {
		return Decision{}, false
	}
	s := &scan{in: in, toks: Tokenize(in.Text), has: map[Concept]int{}}
	s.hits = dropNameTypos(p.Lexicon.Find(s.toks), s.toks, in.Catalogs)
	for i, h := range s.hits {
		if _, ok := s.has[h.Concept]; !ok {
			s.has[h.Concept] = i
		}
	}
	cue := s.first(CFollowUp) == 0 || s.startsWith("то же", "тоже", "теперь", "тогда", "ну а", "а для", "и для")
	subject := s.is(subjectConcepts...)
	ledgerPrev := prev.Kind == KindLedger
	switch {
	case len(s.toks) > 10:
		return Decision{}, false // a question of its own
	case subject && !cue:
		return Decision{}, false
	case subject && ledgerPrev && !s.is(ledgerSubjects...) && !s.is(CAccount, CAccountWord):
		return Decision{}, false // «а курс евро?» after a 1C figure: a new topic
	case subject && !ledgerPrev && s.is(ledgerSubjects...):
		return Decision{}, false // «а кто нам должен?» after a rate: a new topic
	case subject && s.is(CNews, CSmallTalk, CKBQuestion, CKBTopic, CMyDocs, CDocTerms, CWrite):
		return Decision{}, false
	case !subject && !cue && !slotsOnly(s, cur):
		return Decision{}, false
	}
	d := prev.decision()
	d.Rule, d.Sure = "follow_up", true
	d.Reasons = []string{"продолжение вопроса «" + clip(prev.Question, 80) + "»"}
	if subject && cur.Rule == "follow_up_without_context" {
		// «а кредиторка?»: the parser took it for a bare continuation; read its own subject.
		own := p.Parse(Input{Text: strings.Join(s.rawAfterCue(), " "), Now: in.Now, Catalogs: in.Catalogs, Docs: in.Docs})
		cur.Kind, cur.Recipe = own.Kind, own.Recipe
	}
	if subject && cur.Kind == prev.Kind && cur.Recipe != "" {
		d.Recipe = cur.Recipe // «дебиторка на 1.03» → «а кредиторка?»
		if !takesParty(d.Recipe) {
			d.Counterparty, d.Contract = Slot[address.Entity]{}, Slot[address.Entity]{}
		}
	}
	other := s.hasStemPrefix("друг")
	switch {
	case cur.DateError != "":
		d.DateError = cur.DateError
	case cur.Period.Set && d.Kind == KindLedger && asOfRecipe(d.Recipe):
		d.Date, d.Period = slot(cur.Period.Value.To, FromText, cur.Period.Text), Slot[ru.Period]{}
	case cur.Period.Set:
		d.Period, d.Date = cur.Period, Slot[time.Time]{}
	case cur.Date.Set && d.Kind == KindLedger && !asOfRecipe(d.Recipe):
		day := cur.Date.Value
		d.Period = slot(ru.Period{From: day, To: day, Kind: ru.KindDay, Text: cur.Date.Text}, FromText, cur.Date.Text)
		d.Date = Slot[time.Time]{}
	case cur.Date.Set:
		d.Date, d.Period = cur.Date, Slot[ru.Period]{}
	}
	if cur.Currencies.Set || len(cur.UnknownCurrencies) > 0 {
		if d.Kind != KindRate {
			return clarifyFollowUp(d, "Пересчитывать суммы из 1С в другую валюту я не умею. Курс можно спросить отдельно, например «курс евро на 31.03»."), true
		}
		d.Currencies, d.UnknownCurrencies = cur.Currencies, cur.UnknownCurrencies
	}
	if cur.Nominal.Set {
		d.Nominal = cur.Nominal
	}
	if d.Kind != KindLedger {
		if cur.Counterparty.Set || cur.Account.Set || len(cur.Candidates) > 0 || other {
			return clarifyFollowUp(d, "Не понял, к чему относится уточнение. Спросите, пожалуйста, целиком."), true
		}
		return d, true
	}
	if cur.Organization.Set {
		d.Organization = cur.Organization
	}
	if cur.Account.Set || cur.UnknownAccount != "" {
		d.Account, d.UnknownAccount = cur.Account, cur.UnknownAccount
		if !cur.Counterparty.Set && (d.Recipe == address.IntentOpenItemsByParty || d.Recipe == address.IntentOpenItemsByContract) {
			// «остаток 51 на 1.04» after a company's debt: the account's balance.
			d.Recipe = address.IntentAccountBalance
		}
	}
	switch {
	case len(cur.Candidates) > 1:
		d.Kind, d.Candidates, d.Counterparty, d.Contract = KindClarify, cur.Candidates, Slot[address.Entity]{}, Slot[address.Entity]{}
		d.Recipe = partyRecipe(d.Recipe)
	case cur.Unknown != "" && !cur.Counterparty.Set:
		d.Kind, d.Unknown, d.Closest = KindUnknownEntity, cur.Unknown, cur.Closest
		d.Counterparty, d.Contract = Slot[address.Entity]{}, Slot[address.Entity]{}
		d.Recipe = partyRecipe(d.Recipe)
	case cur.Contract.Set:
		d.Contract, d.Counterparty = cur.Contract, cur.Counterparty
		if d.Recipe != address.IntentDocumentsByContract {
			d.Recipe = address.IntentOpenItemsByContract
			if d.Period.Set {
				d.Recipe = address.IntentDocumentsByContract
			}
		}
	case cur.Counterparty.Set:
		d.Counterparty, d.Contract = cur.Counterparty, Slot[address.Entity]{}
		d.Recipe = partyRecipe(d.Recipe)
	case other && s.hasStemPrefix("контрагент"), other && s.hasStemPrefix("компани"), other && s.hasStemPrefix("фирм"):
		return clarifyFollowUp(d, "Уточните, по какому контрагенту: назовите его или укажите ИНН."), true
	case other && s.hasStemPrefix("организац"):
		return clarifyFollowUp(d, "Уточните, по какой из наших организаций."), true
	}
	p.settleDates(&d)
	return d, true
}

// slotsOnly reports whether a message without a cue word gives only slots the previous
// question can take: a date, a currency, a name, an account — «на 1.03?», «в юанях», «гранит».
func slotsOnly(s *scan, cur Decision) bool {
	if len(s.toks) > 5 {
		return false
	}
	return cur.Date.Set || cur.Period.Set || cur.DateError != "" || cur.Currencies.Set || cur.Counterparty.Set ||
		cur.Contract.Set || cur.Organization.Set || cur.Account.Set || len(cur.Candidates) > 1
}

// clarifyFollowUp is a question back about a follow-up the previous question cannot take.
func clarifyFollowUp(d Decision, ask string) Decision {
	d.Kind, d.Rule, d.Sure, d.Ask = KindClarify, "follow_up_unclear", true, ask
	d.Reasons = append(d.Reasons, ask)
	return d
}

// partyRecipe is the recipe of a question about one counterparty that continues recipe r: a
// list or a balance becomes that company's debt; documents and payments stay what they are.
func partyRecipe(r address.Intent) address.Intent {
	switch r {
	case address.IntentDocumentsByParty, address.IntentBankOpsByParty, address.IntentOpenItemsByParty:
		return r
	case address.IntentDocumentsByContract:
		return address.IntentDocumentsByParty
	}
	return address.IntentOpenItemsByParty
}

// asOfRecipe reports whether a recipe reads a balance at a date (not documents over a period).
func asOfRecipe(r address.Intent) bool {
	return !slices.Contains([]address.Intent{address.IntentDocumentsByParty, address.IntentBankOpsByParty,
		address.IntentDocumentsByContract}, r)
}

// decision is the state as a decision, its slots marked as coming from the dialog.
func (st State) decision() Decision {
	d := Decision{Kind: st.Kind, Recipe: st.Recipe}
	if st.Date != nil {
		d.Date = slot(st.Date.In(ru.Moscow), FromDialog, st.DateText)
	}
	if st.Period != nil {
		per := *st.Period
		per.From, per.To = per.From.In(ru.Moscow), per.To.In(ru.Moscow)
		d.Period = slot(per, FromDialog, per.Text)
	}
	if len(st.Currencies) > 0 {
		d.Currencies = slot(slices.Clone(st.Currencies), FromDialog, strings.Join(st.Currencies, ","))
	}
	if st.Nominal > 0 {
		d.Nominal = slot(st.Nominal, FromDialog, "")
	}
	if st.Account != "" {
		d.Account = slot(st.Account, FromDialog, st.Account)
	}
	if st.Counterparty != nil {
		d.Counterparty = slot(*st.Counterparty, FromDialog, st.Counterparty.Name)
	}
	if st.Contract != nil {
		d.Contract = slot(*st.Contract, FromDialog, st.Contract.Number)
	}
	if st.Organization != nil {
		d.Organization = slot(*st.Organization, FromDialog, st.Organization.Name)
	}
	return d
}

// FromDialog marks a slot kept from the previous question of the dialog.
const FromDialog Source = "dialog"

// startsWith reports whether the message begins with one of the phrases (folded).
func (s *scan) startsWith(phrases ...string) bool {
	text := strings.Join(words(s.in.Text), " ")
	for _, p := range phrases {
		if text == p || strings.HasPrefix(text, p+" ") {
			return true
		}
	}
	return false
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// rawAfterCue is the message without its opening cue word («а», «и», «а если»).
func (s *scan) rawAfterCue() []string {
	raw := strings.Fields(s.in.Text)
	for _, h := range s.hits {
		if h.Concept == CFollowUp && h.Start == 0 && h.End <= len(raw) {
			return raw[h.End:]
		}
	}
	return raw
}
