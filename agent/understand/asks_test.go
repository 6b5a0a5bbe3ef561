package understand

import (
	"strings"
	"testing"
	"time"
)

// TestAsks: what a question asks about, as the quotes of documents and articles are chosen by
// it — a time limit (When; as a contract's clause states one, Term), a deadline, a figure — and
// the question without the words that ask for a time limit.
func TestAsks(t *testing.T) {
	tests := []struct {
		q                                      string
		when, term, duration, deadline, amount bool
		subject                                string
	}{
		{"до какого числа сдавать 6-ндфл", true, true, false, true, false, "сдавать 6-ндфл"},
		{"в какой срок выставить счет фактуру", true, true, false, true, false, "выставить счет фактуру"},
		{"когда сдавать рсв", true, true, false, true, false, "когда сдавать рсв"},
		{"срок уплаты ндфл", true, true, false, true, false, "срок уплаты ндфл"},
		// «когда» without what is done asks for an occasion as often as for a deadline.
		{"когда обязательно проводить инвентаризацию", true, true, false, false, false, "когда обязательно проводить инвентаризацию"},
		{"сколько лет можно переносить вычет", true, false, true, true, false, "можно переносить вычет"},
		{"сколько дней больничного оплачивает работодатель", true, true, true, true, false, "больничного оплачивает работодатель"},
		// A term that passed asks for no time limit, but names the term a clause may state.
		{"проводка списания кредиторки с истекшим сроком", false, true, false, false, false, "проводка списания кредиторки с истекшим сроком"},
		{"истёк срок давности что делать", false, true, false, false, false, "истёк срок давности что делать"},
		{"ставка ндс с 2026", false, false, false, false, true, "ставка ндс с 2026"},
		{"сколько пени по налогам", false, false, false, false, true, "сколько пени по налогам"},
		{"какая неустойка", false, false, false, false, false, "какая неустойка"},
	}
	p := NewParser()
	for _, tt := range tests {
		a := p.Parse(Input{Text: tt.q, Now: time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)}).Asks
		got := []bool{a.When, a.Term, a.Duration, a.Deadline, a.Amount}
		want := []bool{tt.when, tt.term, tt.duration, tt.deadline, tt.amount}
		for i, name := range []string{"When", "Term", "Duration", "Deadline", "Amount"} {
			if got[i] != want[i] {
				t.Errorf("%q: Asks.%s = %v, want %v", tt.q, name, got[i], want[i])
			}
		}
		if s := strings.Join(strings.Fields(a.Subject), " "); s != tt.subject {
			t.Errorf("%q: Asks.Subject = %q, want %q", tt.q, s, tt.subject)
		}
		if b := p.Asks(tt.q); b != a {
			t.Errorf("%q: Parser.Asks = %+v, the decision's %+v", tt.q, b, a)
		}
	}
}

func TestAtLeastAsked(t *testing.T) {
	tests := []struct {
		text string
		want int64 // kopecks
	}{
		{"кто нам должен больше миллиона", 100_000_000},
		{"кому мы должны свыше 3 млн", 300_000_000},
		{"должники от 500 тыс на 1 марта", 50_000_000},
		{"долги более 1,5 млн", 150_000_000},
		{"кто должен больше 2 лямов", 200_000_000}, // slang for millions
		{"кто должен больше 250 000 руб", 25_000_000},
		{"дебиторка больше 5 дней", 0},    // days, not roubles
		{"документы от 15 марта", 0},      // a date
		{"кто нам должен больше всех", 0}, // the largest, no threshold
	}
	for _, tt := range tests {
		if got := atLeastAsked(tt.text); got != tt.want {
			t.Errorf("atLeastAsked(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

// TestAsksDue: an obligation with a time limit asks what is owed by when — an agreement's term,
// never a ledger's record of what was paid.
func TestAsksDue(t *testing.T) {
	tests := []struct {
		q    string
		want bool
	}{
		{"за май надо было до 5го заплатить?", true},
		{"до какого числа мы должны оплатить счёт", true},
		{"обязаны ли вернуть залог до конца месяца", true},
		{"аванс нужно внести не позднее какого дня", true},
		{"до 15-го должны погасить?", true},
		// what was paid, or an obligation with no time limit, or a time limit with no payment
		{"сколько заплатили до 10 октября", false},
		{"кому мы должны", false},
		{"сколько нужно заплатить поставщикам", false},
		{"до какого числа действует договор", false},
	}
	for _, tt := range tests {
		if got := asksOf(tt.q).Due; got != tt.want {
			t.Errorf("%q: Asks.Due = %v, want %v", tt.q, got, tt.want)
		}
	}
}
