package library

import (
	"regexp"
	"strings"

	"github.com/finbot/finbot/library/retrieval"
)

// Topic is a standard clause of a contract that a question asks for: «какая неустойка» asks
// for the clause on penalties, «какой срок оплаты» for the one on the payment term. A document
// without any clause on it can be said to have none.
type Topic struct {
	// About names the clause: «о неустойке», as in «В договоре нет пункта о неустойке».
	About string
	// A question asks for the topic when it holds one of ask, and one of with when set, and
	// asks for a time limit («срок», «когда») when when is set.
	ask, with []string
	when      bool
	// A clause on the topic holds one of stems, or says phrase.
	stems  []string
	phrase *regexp.Regexp
}

// has reports whether the question holds one of stems.
func (q clauseQuery) has(stems []string) bool {
	for _, s := range stems {
		if _, ok := q.terms[s]; ok {
			return true
		}
	}
	return false
}

func (t Topic) asks(q clauseQuery) bool {
	return q.has(t.ask) && (t.with == nil || q.has(t.with)) && (!t.when || q.when)
}

// contractTerm is how a contract states its term.
var contractTerm = regexp.MustCompile(`(?i)срок\p{L}*\s+действия|вступа\p{L}*\s+в\s+(законную\s+)?силу|действу\p{L}*\s+до\s`)

// topics are tried in order: the first a question asks for is its topic («неустойка за
// просрочку оплаты» asks for the penalty, not the payment term). What a clause on a topic holds
// is kept broad (any clause on payments is one on the payment term), so that «нет пункта» is
// said only of a document that has nothing on it.
var topics = []Topic{
	{About: "о неустойке", ask: []string{"неустойк"}, stems: []string{"неустойк"}},
	{About: "о форс-мажоре", ask: []string{"мажор", "непреодолим"}, stems: []string{"мажор", "непреодолим"}},
	{About: "о сроке действия договора", ask: []string{"действ"}, when: true, phrase: contractTerm},
	{About: "о сроке действия договора", ask: []string{"вступа"}, with: []string{"сил"}, phrase: contractTerm},
	{About: "о сроке оплаты", ask: []string{"оплат"}, when: true, stems: []string{"оплат", "аванс", "расчет", "перечисл"}},
	{About: "о сроке поставки", ask: []string{"постав", "отгрузк", "доставк"}, when: true, stems: []string{"постав", "отгрузк", "доставк"}},
	{About: "о разрешении споров", ask: []string{"спор", "арбитраж", "арбитражн", "суд"}, stems: []string{"спор", "арбитраж", "арбитражн", "суд"}},
	// a contract ends by «расторжение» or by a party's «отказ от Договора» («вправе отказаться
	// …, уведомив»), «прекращение»: any of them is a clause on it
	{About: "о расторжении", ask: []string{"расторжен"}, stems: []string{"расторжен", "отказ", "прекращен", "прекрат", "прекраща"}},
	{About: "о гарантии", ask: []string{"гарант"}, stems: []string{"гарант"}},
	{About: "о конфиденциальности", ask: []string{"конфиденциальн"}, stems: []string{"конфиденциальн"}},
	{About: "об авансе", ask: []string{"аванс"}, stems: []string{"аванс"}},
	{About: "о цене", ask: []string{"цен", "стоимост"}, stems: []string{"цен", "стоимост", "сумм"}},
	{About: "о приёмке", ask: []string{"приемк"}, stems: []string{"приемк"}},
}

// TopicOf is the standard clause query, asking a, asks for, if it names one.
func TopicOf(query string, a Asking) (Topic, bool) {
	q := newClauseQuery(query, a)
	for _, t := range topics {
		if t.asks(q) {
			return t, true
		}
	}
	return Topic{}, false
}

// In reports whether text has anything on the topic.
func (t Topic) In(text string) bool {
	if t.phrase != nil && t.phrase.MatchString(text) {
		return true
	}
	for _, tok := range retrieval.Tokens(text) {
		for _, s := range t.stems {
			if tok == s {
				return true
			}
		}
	}
	return false
}

// IsContract reports whether a document's title names a contract («Договор поставки № 15»,
// «ДОГОВОР ОКАЗАНИЯ УСЛУГ», «Контракт», «Дополнительное соглашение»).
func IsContract(title string) bool {
	t := strings.ToLower(title)
	return strings.Contains(t, "договор") || strings.Contains(t, "контракт") || strings.Contains(t, "соглашени")
}
