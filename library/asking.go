package library

// Asking is what a question asks about, as the agent read it (agent/understand's
// Decision.Asks): the library reads documents, not the question's wording. The zero value asks
// for nothing in particular: quotes are chosen by the question's terms alone.
type Asking struct {
	// When: a time limit («когда», «до какого числа», «в какой срок», «сколько лет», «срок
	// уплаты», not «истёк срок»): an article's unit that states one answers it.
	When bool
	// Term: a time limit as a contract's clause states one — «когда», «до какого», «в течение
	// какого», «сколько дней», or «срок» in any form: a clause that states a period or a date
	// («в течение 20 банковских дней») holds the term «срок».
	Term bool
	// Deadline: a time limit in so many words («до какого числа», «в какой срок», «сколько
	// лет»), or When with what is done («когда сдавать»): an article's quote that states none,
	// or names too little of what the question names, misses.
	Deadline bool
	// Amount: how much («сколько», «ставка», «тариф», «лимит»), not a time limit: a unit with a
	// figure answers it.
	Amount bool
	// Subject is the question without the words that ask for a time limit («до какого числа»,
	// «за сколько дней»): its terms are the items the question names; "" = the question.
	Subject string
}
