package agent

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/agent/understand"
)

// kbRefusal is the answer when no passage of the knowledge base answers the message (the gate
// of docs.KBMinEvidence): not an article on something else, but what was not understood, what
// can be asked, and one or two buttons for the likeliest readings. It needs no LLM: d, the
// parser's reading of the message, says whether it names a counterparty or speaks of money.
//
// A question about rules — what the law requires of a payment or a report, «когда платить аванс
// по зарплате», «до какого числа сдавать 6-НДФЛ» — is not one about our ledger because it
// speaks of paying: it gets the knowledge base's refusal, unless it names a counterparty, an
// account or a settlement account of ours.
func (a *Agent) kbRefusal(ctx context.Context, req Request, text string, d understand.Decision) Answer {
	ledger := a.lane != nil && a.opts.LedgerAccess(req.UserID, req.ChatID)
	name := refusalName(d)
	money := a.aboutMoney(text, d)
	rules := d.Kind == understand.KindKB && d.Sure || dutyQuestion(text)
	ours := d.Account.Set || d.BankAccount.Set
	var ans Answer
	switch {
	case ledger && name != "" && (!rules || d.Counterparty.Set):
		ans.Text = fmt.Sprintf("Понял, что вопрос касается %s, но не понял, что именно нужно. По контрагенту я показываю "+
			"долг на дату, документы и оплаты за период — выберите ниже или напишите, например: «документы %s за март».",
			EscapeMarkdown(name), EscapeMarkdown(name))
		if money {
			ans.Buttons = []Button{{Text: "Оплаты " + name + " за прошлый месяц"}, {Text: "Долг " + name}}
		} else {
			ans.Buttons = []Button{{Text: "Долг " + name}, {Text: "Документы " + name + " за прошлый месяц"}}
		}
		return ans
	case ledger && money && (!rules || d.Counterparty.Set || ours):
		ans.Text = "Понял, что вопрос о деньгах, но не понял, о каких. Я показываю остаток на счёте на дату " +
			"(51 — расчётный, 50 — касса), кто нам должен и кому должны мы, а оплаты и поступления — по контрагенту " +
			"за период: назовите его, например «оплаты от Альфы за март»."
		ans.Buttons = []Button{{Text: "Остаток на расчётном счёте"}, {Text: "Кто нам должен?"}}
		return ans
	case rules:
		ans.Text = "В базе знаний нет статьи, которая отвечает на этот вопрос."
	default:
		ans.Text = "Не понял вопрос: я не нашёл в нём ни контрагента, ни счёта, ни валюты, и ни одна статья базы знаний на него не отвечает."
	}
	ans.Text += "\n\n" + a.askable(ctx, ledger)
	ans.Buttons = a.exampleButtons(ledger)
	return ans
}

// dutyAsk and dutyVerb make a question about what the law requires of a payment or a report:
// when, until which date, how or how much («когда», «в какой срок», «до какого числа», «как»,
// «сколько») something is paid, filed, transferred or withheld.
var (
	dutyAsk  = regexp.MustCompile(`(?i)(^|[^\p{L}])(когда|в\s+как(ой|ие)\s+срок\p{L}*|до\s+какого|не\s+позднее\s+какого|срок\p{L}*|как|каким\s+образом|сколько)([^\p{L}]|$)`)
	dutyVerb = regexp.MustCompile(`(?i)(^|[^\p{L}])(за|у|вы|пере|о)?(плат|плач|сда[вюёетч]|пода[вюёетч]|подач|перечисл|представ|удерж|начисл|отчит)`)
)

// dutyQuestion reports whether text asks when, until which date, how or how much something is paid,
// filed, transferred or withheld: a question about rules, not about a figure of our ledger.
func dutyQuestion(text string) bool {
	return dutyAsk.MatchString(text) && dutyVerb.MatchString(text)
}

// refusalName is the counterparty a message names, as the catalog has it or as written.
func refusalName(d understand.Decision) string {
	switch {
	case d.Counterparty.Set:
		return d.Counterparty.Value.Name
	case len(d.Candidates) == 0 && d.Unknown != "" && !strings.HasPrefix(d.Unknown, "ИНН "):
		return d.Unknown
	}
	return ""
}

// moneyStems are the stems of words about money that the lexicon leaves to context («что с
// деньгами», «наличные»).
var moneyStems = map[string]bool{"деньг": true, "денег": true, "денежн": true, "наличн": true}

// aboutMoney reports whether the message speaks of payments or money: a bank-operations phrase
// of the lexicon, the cash or settlement account, or a word for money.
func (a *Agent) aboutMoney(text string, d understand.Decision) bool {
	if d.Account.Set && (d.Account.Value == "50" || d.Account.Value == "51") {
		return true
	}
	toks := understand.Tokenize(text)
	for _, h := range a.parser.Lexicon.Find(toks) {
		if h.Concept == understand.CBankOps {
			return true
		}
	}
	for _, t := range toks {
		if moneyStems[t.Stem] {
			return true
		}
	}
	return false
}

// askable says what this installation can answer, for this requester.
func (a *Agent) askable(ctx context.Context, ledger bool) string {
	var lines []string
	if ledger {
		lines = append(lines, "- данные 1С: кто нам должен и кому должны мы, долг, документы и оплаты контрагента, остаток по счёту;")
	}
	if a.rates != nil {
		lines = append(lines, "- курсы валют и ключевая ставка Банка России;")
	}
	if topics := a.kbTopics(ctx); topics != "" {
		lines = append(lines, "- правила учёта из базы знаний: "+topics+";")
	}
	if a.library != nil {
		lines = append(lines, "- ваши документы: пришлите файл и спросите о нём;")
	}
	if len(lines) == 0 {
		return "Переформулируйте вопрос, пожалуйста."
	}
	last := len(lines) - 1
	lines[last] = strings.TrimSuffix(lines[last], ";") + "."
	return "Спросить можно о таком:\n" + strings.Join(lines, "\n")
}

// kbTopics lists the knowledge base's topics (kb.Topics), «» when it has none or
// cannot be read.
func (a *Agent) kbTopics(ctx context.Context) string {
	if a.kb == nil {
		return ""
	}
	topics, err := kb.Topics(ctx, a.kb)
	if err != nil {
		if ctx.Err() == nil {
			a.log.WarnContext(ctx, "knowledge base topics unavailable", "err", err)
		}
		return ""
	}
	return topics
}

// exampleButtons are two questions this installation answers, for a message nothing in it
// points at.
func (a *Agent) exampleButtons(ledger bool) []Button {
	var out []Button
	if ledger {
		out = append(out, Button{Text: "Кто нам должен?"})
	}
	if a.rates != nil {
		out = append(out, Button{Text: "Курс доллара сегодня"}, Button{Text: "Ключевая ставка"})
	}
	return out[:min(len(out), 2)]
}
