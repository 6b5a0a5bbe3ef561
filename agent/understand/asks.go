package understand

import (
	"regexp"

	"github.com/finbot/finbot/library/retrieval"
)

// Asks is what a question asks about: a time limit, a figure, and the words that ask it. The
// quotes of documents and knowledge-base articles are chosen by it (library.Asking): a question
// that asks «до какого числа» is answered by a date, one that asks «сколько» by a figure.
type Asks struct {
	// When: the question asks for a time limit — «когда», «до какого числа», «в течение
	// какого», «сколько дней», «сколько лет» (Duration), or «срок» («в какой срок», «срок
	// уплаты», «сроки сдачи»), not a term that passed («истёк срок давности»).
	When bool
	// Term: the question asks for a time limit as a contract's clause states one — «когда», «до
	// какого», «в течение какого», «сколько (рабочих) дней» — or names a term, «срок» in any form
	// («сроком», «с истекшим сроком»).
	Term bool
	// Duration: the question asks how long — «сколько лет», «сколько дней», «сколько месяцев».
	Duration bool
	// Deadline: the question asks for a time limit in so many words («до какого числа», «в
	// какой срок», «не позднее какого», «за сколько», Duration), or When with what is done
	// («когда сдавать», «срок уплаты») — not just «когда», which asks for an occasion as often
	// («когда обязательно проводить инвентаризацию»), nor «срок» («с какого момента считается
	// срок давности»).
	Deadline bool
	// Amount: the question asks how much — «сколько», «размер», «ставка», «тариф», «процент»,
	// «лимит», «порог», «сумма» — and not for a time limit.
	Amount bool
	// Subject is the question without the words that ask for a time limit («до какого числа»,
	// «в какой срок», «за сколько дней»): what it asks the time limit of.
	Subject string
}

// The words that ask for a time limit or a figure.
var (
	// whenWords ask for a time limit without the word «срок».
	whenWords = regexp.MustCompile(`(?i)(^|[^\p{L}])(когда|до какого|сколько (рабочих |банковских |календарных )?дней|в течение какого)([^\p{L}]|$)`)
	// howLong asks for a duration: «сколько лет», «сколько дней».
	howLong = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько\s+(\p{L}+\s+)?(дн|лет|год|месяц|недел|времен)|как\s+долго)`)
	// asksTerm asks for a time limit by the word «срок» («в какой срок», «срок уплаты», «сроки
	// сдачи»); termPassed is a term that passed («с истекшим сроком», «истёк срок давности»).
	asksTerm   = regexp.MustCompile(`(?i)(^|[^\p{L}])срок(и|а|ов)?([^\p{L}]|$)`)
	termPassed = regexp.MustCompile(`(?i)(^|[^\p{L}])(истек\p{L}*|истёк\p{L}*)\s+срок`)
	// amountAsk asks for a figure.
	amountAsk = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько|размер\p{L}*|ставк\p{L}*|тариф\p{L}*|процент\p{L}*|лимит\p{L}*|порог\p{L}*|сумм\p{L}*)([^\p{L}]|$)`)
	// deadlineAsk asks for a time limit in so many words; askingTime are the words that do, not
	// what the question asks it of: «числа» in «до какого числа», «дней» in «за сколько дней».
	deadlineAsk = regexp.MustCompile(`(?i)(^|[^\p{L}])(до\s+какого|в\s+как(ой|ие|ом)\s+срок|не\s+позднее\s+как|за\s+сколько)`)
	askingTime  = regexp.MustCompile(`(?i)(до|к|не\s+позднее)\s+какого\s+(числа|дня|срока|месяца)|в\s+как(ой|ие|ом)\s+срок\p{L}*|` +
		`(за\s+)?сколько\s+(\p{L}+\s+)?(дн\p{L}*|лет|год\p{L}*|месяц\p{L}*|недел\p{L}*|времени)|как\s+долго`)
)

// deeds are the terms of what is done by a time limit — filing, paying, transferring, issuing
// — as the document library's index reads them (retrieval.Tokens: «сдавать» and «сдача» are
// one term, «платёж» and «уплата» another): «когда» with one of them asks for a deadline.
var deeds = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range retrieval.Tokens("сдать сдавать сдача сдают сдаёт подать подавать подача подают подаёт " +
		"представлять представить представление представляют платить оплатить уплатить оплата уплата " +
		"перечислять перечислить перечисление выплатить выплата выплачивать выставить выставлять выставляют заявить заявлять") {
		m[t] = true
	}
	return m
}()

// Asks reads what text asks about (Decision.Asks), for a text that is not a message: a query
// the planner wrote.
func (p *Parser) Asks(text string) Asks { return asksOf(text) }

// asksOf reads what text asks about.
func asksOf(text string) Asks {
	a := Asks{Subject: askingTime.ReplaceAllString(text, " ")}
	when := whenWords.MatchString(text)
	a.Duration = howLong.MatchString(text)
	a.When = when || a.Duration || asksTerm.MatchString(text) && !termPassed.MatchString(text)
	a.Amount = amountAsk.MatchString(text) && !a.When
	a.Term = when
	for _, t := range retrieval.Tokens(text) {
		if t == "срок" {
			a.Term = true
			break
		}
	}
	does := false
	for _, t := range retrieval.Tokens(a.Subject) {
		if deeds[t] {
			does = true
			break
		}
	}
	a.Deadline = a.When && does || deadlineAsk.MatchString(text) || a.Duration
	return a
}
