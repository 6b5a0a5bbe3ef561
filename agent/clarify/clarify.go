// Package clarify is the skill of questions back (scenario S5): what the parser could not
// settle — several counterparties or settlement accounts that fit, which side of the
// settlements, which advances — asked with a button per answer; the planner's own clarifying
// question; and, when nothing in the message points anywhere, the general question back.
package clarify

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
)

// Skill asks questions back.
type Skill struct {
	skill.NoTools
	writer *phrase.Writer
	log    *slog.Logger
}

// New builds the skill; w may be nil (no LLM: the template question).
func New(w *phrase.Writer, log *slog.Logger) *Skill {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Skill{writer: w, log: log}
}

// Suggestions are the general question back's choices, as buttons.
var Suggestions = []skill.Button{
	{Text: "Кто нам должен?"},
	{Text: "Кому должны мы?"},
	{Text: "Курс доллара сегодня"},
	{Text: "Ключевая ставка"},
	{Text: "Найти договор"},
}

// Answer asks the question back the decision calls for. A vague question («какой аванс по
// договору?») may be about the user's own documents: the reply hands it to the documents
// skill, which answers it when they hold a passage on it.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	d := q.Decision
	if q.Plan != nil {
		return s.planned(ctx, q), nil
	}
	switch {
	case len(d.BankAccountCandidates) > 1:
		return bankAccounts(d, q.Text), nil
	case len(d.Candidates) > 1:
		return candidates(d, q.Text), nil
	case d.Ask != "":
		return skill.Text(md.Escape(d.Ask)), nil
	case d.Rule == "part_of_name" && len(d.Candidates) == 1:
		// «когда передают ключи от склада»: a word of a company's name, nothing of 1C's asked
		e := d.Candidates[0]
		r := s.general(ctx, q.Text, false)
		r.Text = "В 1С есть контрагент " + md.Escape(e.Name) + ": если вопрос о нём, покажу расчёты или документы. " +
			"Если нет — уточните, что нужно.\n\n" + r.Text
		r.Buttons = append([]skill.Button{{Text: "Расчёты с " + e.Name}, {Text: "Документы " + e.Name + " за этот месяц", SameRow: true}}, r.Buttons...)
		if !q.HandedOff {
			r.Then = &skill.Handoff{Kind: understand.KindDocs, OnlyIfFound: true,
				Reason: "слово из названия контрагента, но вопрос не о расчётах: нашёлся ответ в документах пользователя"}
		}
		return r, nil
	case d.Rule == "payment_scope":
		return paymentScope(d, q), nil
	case d.Rule == "tax_amount":
		return taxAmount(d), nil
	case d.Rule == "forecast":
		return forecast(d), nil
	case d.Rule == "debt_direction":
		return debtDirection(d), nil
	case d.Rule == "advance_direction":
		on := OnDate(d)
		return skill.Reply{Text: "Какие авансы показать" + on + ": выданные поставщикам (60.02) или полученные от покупателей (62.02)?",
			Buttons: []skill.Button{{Text: "Авансы выданные" + on}, {Text: "Авансы полученные" + on, SameRow: true}}}, nil
	}
	r := s.general(ctx, q.Text, d.Rule == "too_short")
	if d.Rule == "vague" && !q.HandedOff {
		r.Then = &skill.Handoff{Kind: understand.KindDocs, OnlyIfFound: true,
			Reason: "короткий вопрос без признаков 1С, курса или базы знаний: нашёлся ответ в документах пользователя"}
	}
	return r, nil
}

// planned asks the planner's clarifying question, its options as buttons; without one, the
// general question back.
func (s *Skill) planned(ctx context.Context, q skill.Query) skill.Reply {
	p := q.Plan
	question, ok := postcheck.Unsourced(p.Clarification, q.Text, maxQuestion)
	if !ok {
		return s.general(ctx, q.Text, false)
	}
	r := skill.Text(md.Escape(question))
	for _, o := range p.ClarificationOptions {
		// A button's label is sent back as the user's question when pressed: it is checked
		// like the question, and one that fails is left out.
		if o, ok := postcheck.Unsourced(o, q.Text, maxOption); ok && len(r.Buttons) < maxOptions {
			r.Buttons = append(r.Buttons, skill.Button{Text: o})
		}
	}
	return r
}

// The bounds of a question back the model wrote.
const (
	maxQuestion = 300
	maxOption   = 60
	maxOptions  = 5
)

// general asks one precise question: the LLM's when there is one (nothing to clarify in «?»),
// the template's otherwise.
func (s *Skill) general(ctx context.Context, text string, tooShort bool) skill.Reply {
	r := skill.Reply{Buttons: Suggestions}
	if s.writer.Enabled() && !tooShort {
		out, err := s.llm(ctx, text)
		if q, ok := postcheck.Unsourced(out, text, maxQuestion); err == nil && ok {
			r.Text = q
			return r
		}
		s.log.WarnContext(ctx, "llm clarification failed or refused; template question", "err", err)
		r.Degraded = []string{phrase.DegradedLLMUnavailable}
		if err == nil {
			r.Degraded = []string{phrase.DegradedAnswerRefused}
		}
	}
	r.Text = "Уточните, пожалуйста, что нужно: данные 1С (кто нам должен, кому должны мы, остатки по счёту), " +
		"курс валюты или ключевая ставка, новости или поиск в ваших документах? Можно выбрать кнопкой ниже."
	return r
}

func (s *Skill) llm(ctx context.Context, text string) (string, error) {
	prompt, err := prompts.Clarify(prompts.ClarifyData{Question: text})
	if err != nil {
		return "", err
	}
	return s.writer.LLM.Complete(ctx, []llm.Message{{Role: "user", Content: prompt}}, llm.Call{MaxTokens: 200, Temperature: 0.2})
}

// candidates asks which of several equally matching counterparties is meant; each button asks
// the same question with that name, so the date and account are kept.
func candidates(d understand.Decision, text string) skill.Reply {
	r := skill.Text("Под это название подходят несколько контрагентов. Уточните, какой нужен:")
	if d.SharedContract != "" {
		r = skill.Text("Договор № " + md.Escape(d.SharedContract) + " есть у нескольких контрагентов. Уточните, чей:")
	}
	card := d.Rule == "card_which_row"
	if card {
		// «подробнее» after a list: which of its companies, by the row or the name
		r = skill.Text("Чью карточку показать? Назовите номер строки («карточка 2») или выберите:")
	}
	for i, e := range d.Candidates {
		label := e.Name
		if e.INN != "" {
			label += ", ИНН " + e.INN
		}
		ask := WithName(text, "", e.Name)
		if card {
			label = fmt.Sprintf("%d. %s", i+1, e.Name)
			ask = "Карточка " + e.Name + OnDate(d)
		}
		r.Text += "\n- " + md.Escape(label)
		r.Buttons = append(r.Buttons, skill.Button{Text: ask})
	}
	return r
}

// bankAccounts asks which of our settlement accounts ending alike is meant; each button asks
// the same question with the whole number.
func bankAccounts(d understand.Decision, text string) skill.Reply {
	r := skill.Text("Так оканчиваются несколько расчётных счетов наших организаций. Уточните, какой нужен:")
	for _, b := range d.BankAccountCandidates {
		r.Text += "\n- " + md.Escape(b.Number+" — "+b.OrgName)
		r.Buttons = append(r.Buttons, skill.Button{Text: WithName(text, "", b.Number)})
	}
	return r
}

// debtDirection asks which side of the settlements a message means («расчёты с контрагентами
// на 31.03», «картина по расчётам»), with a button for each.
func debtDirection(d understand.Decision) skill.Reply {
	on := OnDate(d)
	return skill.Reply{Text: "Что показать из 1С" + on + ": кто должен нам (дебиторская задолженность, 62) или кому должны мы (кредиторская, 60)? Можно и то и другое.",
		Buttons: []skill.Button{{Text: "Кто должен нам" + on}, {Text: "Кому должны мы" + on, SameRow: true},
			{Text: "Дебиторка и кредиторка" + on}}}
}

// OnDate is « на DD.MM.YYYY» of the decision's date, or of its period's end; "" without one.
func OnDate(d understand.Decision) string {
	switch {
	case d.Date.Set:
		return " на " + d.Date.Value.Format("02.01.2006")
	case d.Period.Set:
		return " на " + d.Period.Value.To.Format("02.01.2006")
	}
	return ""
}

// WithName is the question with the name as written replaced by a catalog name (or, when the
// name as written is not known, the catalog name added): pressing the button asks it again
// about that company.
func WithName(text, written, name string) string {
	if written != "" {
		if i := strings.Index(strings.ToLower(text), strings.ToLower(written)); i >= 0 {
			return text[:i] + name + text[i+len(written):]
		}
	}
	return strings.TrimSpace(text) + " — " + name
}

// taxAmount answers a question about how much tax to pay: no source computes it; what 1C has
// is the balance and the card of account 68 (taxes and levies), offered as buttons.
func taxAmount(d understand.Decision) skill.Reply {
	on := OnDate(d)
	period := ""
	if d.Period.Set {
		period = " за " + d.Period.Value.From.Format("02.01.2006") + " – " + d.Period.Value.To.Format("02.01.2006")
	}
	return skill.Reply{
		Text: "Сумму налога к уплате я не рассчитываю: её считает декларация, а я читаю в 1С только остатки, обороты и документы. " +
			"Что видно в 1С — расчёты с бюджетом на счёте 68: остаток на дату и движение за период.",
		Buttons: []skill.Button{{Text: "Сальдо 68" + on}, {Text: "Карточка счёта 68" + period, SameRow: true}},
	}
}

// forecast answers a question about a 1C figure yet to come («какой будет остаток на 51 в
// январе», «сколько нам заплатит вектор»): 1C holds only what was posted, so it says so and
// offers the figure as posted today — the question it can answer.
func forecast(d understand.Decision) skill.Reply {
	r := skill.Reply{Text: "Прогнозов я не делаю: в 1С только проведённые операции, будущих платежей и остатков в ней нет. " +
		"Могу показать, как есть на сегодня."}
	party := d.Counterparty.Set && d.Counterparty.Source == understand.FromCatalog
	switch {
	case party:
		r.Buttons = []skill.Button{{Text: "Расчёты с " + d.Counterparty.Value.Name}}
	case d.Account.Set:
		r.Buttons = []skill.Button{{Text: "Остаток по счёту " + d.Account.Value + " на сегодня"}}
	case d.Recipe == recipe.Payables || d.Recipe == recipe.PayablesAging:
		r.Buttons = []skill.Button{{Text: "Кому должны мы?"}}
	default:
		r.Buttons = []skill.Button{{Text: "Кто нам должен?"}, {Text: "Кому должны мы?", SameRow: true}}
	}
	return r
}

// paymentScope answers a question about the bank's payments narrowed by a word the statement
// cannot select by («сколько заплатили за аренду в марте», «… грузэкспрессу в ноябре»): the
// whole of 51's payments would be a confident wrong answer. It says what it can do instead —
// the payments to a counterparty named as 1C names it, or all of the period's — and hands the
// message to the user's documents, which may state the payment («аренда в месяц»).
func paymentScope(d understand.Decision, q skill.Query) skill.Reply {
	period := ""
	switch {
	case d.Period.Set:
		period = " за " + d.Period.Value.From.Format("02.01.2006") + " – " + d.Period.Value.To.Format("02.01.2006")
	case d.Date.Set:
		period = " за " + d.Date.Value.Format("02.01.2006")
	}
	var r skill.Reply
	if strings.HasPrefix(d.Scope, "за ") {
		r.Text = "Отобрать платежи «" + md.Escape(d.Scope) + "» по выписке 1С не могу: по назначению платежа я не отбираю. " +
			"Назовите получателя, как он записан в 1С (или его ИНН), — покажу платежи ему"
	} else {
		// a payee 1C does not know («грузэкспрессу») or what was paid written before the verb
		// («коммуналку оплатили?»): the word is either
		r.Text = "По слову «" + md.Escape(d.Scope) + "» платежи по выписке 1С не отобрать: контрагента с таким названием в 1С нет, " +
			"а по назначению платежа я не отбираю. Проверьте название получателя или укажите его ИНН"
	}
	if period != "" {
		r.Text += "; или могу показать все списания" + md.Escape(period)
	}
	r.Text += "."
	if period != "" {
		r.Buttons = append(r.Buttons, skill.Button{Text: "Все списания" + period})
	}
	if !q.HandedOff {
		r.Then = &skill.Handoff{Kind: understand.KindDocs, OnlyIfFound: true, Direct: true,
			Reason: "платежи отобраны словом, которого нет в 1С: нашёлся ответ в документах пользователя"}
	}
	return r
}
