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
	// Due: the question asks what is owed by a time limit — an obligation with one («надо было
	// до 10го заплатить?», «до какого числа должны оплатить», «обязаны ли вернуть до конца
	// месяца») — which only an agreement states: a ledger keeps what was paid, never by when.
	Due bool
	// Paid: the question asks what was paid or received, in the past tense («сколько заплатили
	// за март», «что перечислили вектору», «поступило ли от ромашки») — a fact of the ledger,
	// which an agreement does not record.
	Paid bool
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
	// dueWords: an obligation («надо», «нужно», «должны», «обязаны», «следует») and a time limit
	// («до 10го», «до 25.12», «до какого», «до конца месяца», «не позднее») in either order.
	obligation = `(надо|нужно|необходимо|должн\p{L}*|обязан\p{L}*|следует|положено)`
	timeLimit  = `(до\s+(\d|как\p{L}*|конца|начала|истечени\p{L}*)|не\s+позднее)`
	dueWords   = regexp.MustCompile(`(?i)(^|[^\p{L}])(` + obligation + `[^.?!]{0,40}?` + timeLimit + `|` + timeLimit + `[^.?!]{0,40}?[^\p{L}]` + obligation + `)`)
	paidPast   = regexp.MustCompile(`(?i)(^|[^\p{L}])((за|о|у|пере|вы|до)?плати(л|ли|ла|ло)|оплачен\p{L}*|перечисли(л|ли|ла|ло)|перевели|поступил\p{L}*|пришл[оаи]|списал[иао]?|списано)([^\p{L}]|$)`)
	howMuch    = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько|скока|какую\s+сумму|на\s+какую\s+сумму)([^\p{L}]|$)`)
	askingTime = regexp.MustCompile(`(?i)(до|к|не\s+позднее)\s+какого\s+(числа|дня|срока|месяца)|в\s+как(ой|ие|ом)\s+срок\p{L}*|` +
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

// dues are what is owed by a time limit, beyond deeds: paying in other words, returning.
var dues = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range retrieval.Tokens("заплатить заплатим внести вносить погасить погашать вернуть возвратить возвращать") {
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
	does, owes := false, false
	for _, t := range retrieval.Tokens(a.Subject) {
		does = does || deeds[t]
		owes = owes || deeds[t] || dues[t]
	}
	// «надо было до 10го заплатить?» asks the time limit a clause states, as «до какого» does;
	// a rate it names («по новой ставке») is what is paid, not what is asked — unless it asks
	// how much too («сколько нужно внести до 5-го»).
	a.Due = owes && dueWords.MatchString(text)
	a.Paid = paidPast.MatchString(text) && !a.Due
	a.When = when || a.Duration || asksTerm.MatchString(text) && !termPassed.MatchString(text) || a.Due
	a.Amount = amountAsk.MatchString(text) && (!a.When || a.Due && howMuch.MatchString(text))
	a.Term = when || a.Due
	for _, t := range retrieval.Tokens(text) {
		if t == "срок" {
			a.Term = true
			break
		}
	}
	a.Deadline = a.When && does || deadlineAsk.MatchString(text) || a.Duration || a.Due
	return a
}
