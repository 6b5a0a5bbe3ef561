package agent

import (
	"flag"
	"regexp"
	"strings"
	"testing"
)

var kbExcerptMisses = flag.Bool("kbexcerpt-misses", false, "print every question of TestKBExcerpts answered wrong, with its answer")

// TestKBExcerpts asks the whole agent, with no LLM, questions typed as accountants type them
// (lower case, abbreviations, «когда», «до какого») over what the sample knowledge base covers,
// and requires the quoted excerpt to hold the fact that answers, not just some part of the
// right article; a question the knowledge base has no article on must get the honest refusal
// («В базе знаний нет статьи…»), neither an article on something else nor a 1C clarification.
// The pass rates are the figures of docs/benchmarks.md; a miss is printed with
// -kbexcerpt-misses. Most misses left are not the excerpt's: the gate refuses a short question
// of common words («до какого числа платить ндс»), or the parser sends one to 1C («компенсация
// за задержку зарплаты сколько»).
func TestKBExcerpts(t *testing.T) {
	// fact is a regular expression the answer's text must match; "" for a question the
	// knowledge base must refuse.
	tests := []struct{ q, fact string }{
		// Deadlines of a named report or tax.
		{"в какой срок сдавать 6-ндфл", `до 25 февраля`},
		{"когда сдавать отчётность по НДС", `НДС[^\n]{0,40}до 25-го числа|за истёкшим кварталом|до 25 апреля`},
		{"до какого числа платить ндс", `28-го числа каждого из трёх месяцев`},
		{"до какого числа сдать декларацию по ндс за 3 квартал", `до 25 октября`},
		{"срок уплаты ндфл удержанного с зарплаты", `28-го числа|5-го числа следующего месяца`},
		{"когда сдавать рсв", `РСВ\)?[^\n]{0,50}25-го числа`},
		{"до какого числа платить страховые взносы", `28-го числа следующего месяца`},
		{"декларация по прибыли когда сдавать", `до 25 марта`},
		{"когда платить налог на прибыль за год", `до 28 марта`},
		{"до какого числа подать уведомление по ндфл", `до 3-го числа следующего месяца|до 25-го числа этого месяца`},
		{"когда сдавать годовую бухотчетность", `31 марта`},
		{"в какой срок сдать авансовый отчет", `3 рабочих дней`},
		{"в какой срок выставить счет фактуру на аванс", `5 календарных дней`},
		{"сколько лет можно переносить вычет ндс", `трёх лет`},
		// Figures and rules.
		{"ставка ндс с 2026", `22%`},
		{"какая ставка налога на прибыль сейчас", `25%`},
		{"ндфл 15 процентов с какой суммы", `2,4 млн`},
		{"сколько пени по налогам для организации", `1/300`},
		{"срок исковой давности сколько лет", `3 года|три года`},
		{"лимит расчетов наличными между организациями", `100 000 руб`},
		{"суточные до какой суммы не облагаются ндфл", `700 руб`},
		{"нужна ли печать на первичке", `[Пп]ечать[^\n]{0,20}не (является обязательным|обязательна)`},
		{"кбк енп", `182 01 06 12 01 01 0000 510`},
		{"тариф страховых взносов 2026", `30%`},
		{"упд со статусом 2 это что", `только первичным документом`},
		{"резерв по сомнительным долгам если просрочка больше 90 дней", `вся сумма долга`},
		{"с какой стоимости ос амортизируется в налоговом учете", `первоначальной стоимостью более 100 000 руб`},
		{"проводка списания кредиторки с истекшим сроком", `Кт 91\.01`},
		{"компенсация за задержку зарплаты сколько", `1/150`},
		{"ндс с полученного аванса по какой ставке", `22/122`},
		// Salary payment terms (the article on them).
		{"когда платить аванс по зарплате", `полмесяца|15 календарных дней`},
		{"зп выплачивать если день выплаты выходной", `накануне`},
		{"в какой срок выплатить отпускные", `за три дня|за 3 дня`},
		{"окончательный расчет при увольнении когда выплатить", `в день увольнения|последний день работы`},
		// Questions the sample knowledge base has no article on.
		{"как рассчитать отпускные", ""},
		{"когда платить усн за год", ""},
		{"до какого числа перечислить алименты", ""},
		{"в какой срок сдавать сзв-тд", ""},
		{"сколько дней больничного оплачивает работодатель", ""},
	}
	// Written after the excerpts were tuned on the questions above, and not tuned on.
	heldOut := []struct{ q, fact string }{
		{"в какой срок подать декларацию по налогу на прибыль за год", `до 25 марта`},
		{"уведомление по взносам до какого числа", `25-го числа`},
		{"сдача персонифицированных сведений срок", `25-го числа следующего месяца`},
		{"в течение скольких дней отчитаться за командировку", `3 рабочих дней`},
		{"какие ставки ндс бывают", `10%`},
		{"транспортный налог за год до какого числа платить организации", `28 февраля`},
		{"налог на имущество авансы когда платить", `28-го числа месяца после квартала`},
		{"какой штраф за несдачу 6-ндфл", `1 000 руб`},
		{"в какие сроки платят ндс", `28-го числа`},
		{"в какой срок утвердить годовую отчетность ооо", `четыре месяца`},
		{"пени для ип сколько", `1/300`},
		{"как часто платить зарплату", `полмесяца`},
		{"сколько лет хранить первичку", ""},
		{"до какого числа сдавать декларацию по усн", ""},
		{"какие сроки давности по налоговым проверкам", ""},
	}
	a := answersAgent(t, "")
	run := func(name string, set []struct{ q, fact string }, from, floor int) {
		pass := 0
		for i, tt := range set {
			ans := ask(t, a, Request{UserID: int64(from + i), ChatID: int64(from + i)}, tt.q)
			ok := false
			if tt.fact == "" {
				ok = strings.HasPrefix(ans.Text, "В базе знаний нет статьи") && len(kbArticles(ans)) == 0
			} else {
				ok = len(kbArticles(ans)) > 0 && regexp.MustCompile(tt.fact).MatchString(ans.Text)
			}
			if ok {
				pass++
			} else if *kbExcerptMisses {
				t.Logf("miss (%s): %q, want %q:\n%s", name, tt.q, tt.fact, ans.Text)
			}
		}
		t.Logf("knowledge-base excerpts, %s: %d of %d questions answered with the fact or refused honestly (%.0f %%)",
			name, pass, len(set), 100*float64(pass)/float64(len(set)))
		if pass < floor {
			t.Errorf("%s: %d of %d, want at least %d", name, pass, len(set), floor)
		}
	}
	// Floors: the figures measured (docs/benchmarks.md) less one question. Before the quote was
	// chosen by structure and time limits: 19 of 39 and 6 of 15.
	run("development set", tests, 60_000, 31)
	run("held-out set", heldOut, 61_000, 7)
}
