package kb

import (
	"context"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
)

// refusal is the answer when no passage of the knowledge base answers the message (the gate
// of library.KBMinEvidence): not an article on something else, but what was not understood,
// what can be asked, and one or two buttons for the likeliest readings. It needs no LLM: d,
// the parser's reading of the message, says whether it names a counterparty or speaks of
// money.
//
// A question about rules — what the law requires of a payment or a report, «когда платить аванс
// по зарплате», «до какого числа сдавать 6-НДФЛ» (Decision.Duty) — is not one about our ledger
// because it speaks of paying: it gets the knowledge base's refusal, unless it names a
// counterparty, an account or a settlement account of ours.
func (s *Skill) refusal(ctx context.Context, q skill.Query, d understand.Decision) skill.Reply {
	ledger := s.opts.LedgerFor != nil && s.opts.LedgerFor(q.UserID, q.ChatID)
	name := refusalName(d)
	money := aboutMoney(d)
	rules := d.Kind == understand.KindKB && d.Sure || d.Duty
	ours := d.Account.Set || d.BankAccount.Set
	var r skill.Reply
	switch {
	case ledger && name != "" && (!rules || d.Counterparty.Set):
		r.Text = fmt.Sprintf("Понял, что вопрос касается %s, но не понял, что именно нужно. По контрагенту я показываю "+
			"долг на дату, документы и оплаты за период — выберите ниже или напишите, например: «документы %s за март».",
			md.Escape(name), md.Escape(name))
		if money {
			r.Buttons = []skill.Button{{Text: "Оплаты " + name + " за прошлый месяц"}, {Text: "Долг " + name}}
		} else {
			r.Buttons = []skill.Button{{Text: "Долг " + name}, {Text: "Документы " + name + " за прошлый месяц"}}
		}
		return r
	case ledger && money && (!rules || d.Counterparty.Set || ours):
		r.Text = "Понял, что вопрос о деньгах, но не понял, о каких. Я показываю остаток на счёте на дату " +
			"(51 — расчётный, 50 — касса), кто нам должен и кому должны мы, а оплаты и поступления — по контрагенту " +
			"за период: назовите его, например «оплаты от Альфы за март»."
		r.Buttons = []skill.Button{{Text: "Остаток на расчётном счёте"}, {Text: "Кто нам должен?"}}
		return r
	case rules:
		r.Text = "В базе знаний нет статьи, которая отвечает на этот вопрос."
	default:
		r.Text = "Не понял вопрос: я не нашёл в нём ни контрагента, ни счёта, ни валюты, и ни одна статья базы знаний на него не отвечает."
	}
	r.Text += "\n\n" + s.askable(ctx, ledger)
	r.Buttons = s.exampleButtons(ledger)
	return r
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

// aboutMoney reports whether the message speaks of payments or money: in words
// (Decision.Money), or by naming the cash or settlement account.
func aboutMoney(d understand.Decision) bool {
	return d.Account.Set && (d.Account.Value == "50" || d.Account.Value == "51") || d.Money
}

// askable says what this installation can answer, for this requester.
func (s *Skill) askable(ctx context.Context, ledger bool) string {
	var lines []string
	if ledger {
		lines = append(lines, "- данные 1С: кто нам должен и кому должны мы, долг, документы и оплаты контрагента, остаток по счёту;")
	}
	if s.opts.Rates {
		lines = append(lines, "- курсы валют и ключевая ставка Банка России;")
	}
	if topics := s.topics(ctx); topics != "" {
		lines = append(lines, "- правила учёта из базы знаний: "+topics+";")
	}
	if s.user != nil {
		lines = append(lines, "- ваши документы: пришлите файл и спросите о нём;")
	}
	if len(lines) == 0 {
		return "Переформулируйте вопрос, пожалуйста."
	}
	last := len(lines) - 1
	lines[last] = strings.TrimSuffix(lines[last], ";") + "."
	return "Спросить можно о таком:\n" + strings.Join(lines, "\n")
}

// topics lists the knowledge base's topics (Topics), «» when it has none or cannot be read.
func (s *Skill) topics(ctx context.Context) string {
	if s.kb == nil {
		return ""
	}
	topics, err := Topics(ctx, s.kb)
	if err != nil {
		if ctx.Err() == nil {
			s.opts.Logger.WarnContext(ctx, "knowledge base topics unavailable", "err", err)
		}
		return ""
	}
	return topics
}

// exampleButtons are two questions this installation answers, for a message nothing in it
// points at.
func (s *Skill) exampleButtons(ledger bool) []skill.Button {
	var out []skill.Button
	if ledger {
		out = append(out, skill.Button{Text: "Кто нам должен?"})
	}
	if s.opts.Rates {
		out = append(out, skill.Button{Text: "Курс доллара сегодня"}, skill.Button{Text: "Ключевая ставка"})
	}
	return out[:min(len(out), 2)]
}
