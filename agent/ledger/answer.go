package ledger

import (
	"context"
	"fmt"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
)

// The answers to a question understood as a 1C one. Nothing here reads the text again for what
// the decision already holds: the date, the account and the names come from the decision only;
// the text is only rewritten into the question a button asks again.

// dateHint follows a date the parser could not read.
const dateHint = " Укажите дату в формате ДД.ММ.ГГГГ, например 15.01.2026."

// decision answers q.Decision of kind ledger, ledger_write or unknown_entity.
func (s *Skill) decision(ctx context.Context, q skill.Query) (skill.Reply, error) {
	d := q.Decision
	if d.DateError != "" && d.Kind == understand.KindLedger {
		return skill.Text(md.Escape(d.DateError) + dateHint), nil
	}
	switch d.Kind {
	case understand.KindLedger:
		if d.Rule == "receivables_and_payables" {
			return s.receivablesAndPayables(ctx, q, d)
		}
		if d.Date2.Set && snapshot(d.Recipe) {
			return s.twoDates(ctx, q, d)
		}
		if d.ExceptContract.Set && d.Counterparty.Set && d.Recipe == recipe.OpenItemsByParty {
			return s.exceptContract(ctx, q, d)
		}
		if len(d.Parties) > 1 && !d.Counterparty.Set {
			return s.everyParty(ctx, q, d)
		}
		if len(d.Organizations) > 1 && !d.Organization.Set && (snapshot(d.Recipe) || d.Recipe == recipe.TurnoverSheet) {
			return s.everyOrganization(ctx, q, d)
		}
		if d.Rule == "aging_of_party" {
			return s.agingOfParty(ctx, q, d)
		}
		r, err := s.run(ctx, q, FromDecision(d))
		if err == nil && !q.HandedOff && asksWhose(r) {
			// 1C would only ask whose («надо собрать 150 шт поштучно, сколько заплатим»): the
			// asker's own documents answer it when they state it; 1C's question follows.
			r.Then = &skill.Handoff{Kind: understand.KindDocs, OnlyIfFound: true, Direct: true,
				Suffix: "\n\n_Если вопрос о данных 1С — назовите контрагента._",
				Reason: "1С спросила бы контрагента: ответ нашёлся в документах пользователя"}
		}
		if err == nil && d.NetOfVAT && d.Recipe != recipe.TurnoverSheet && d.Recipe != recipe.AccountCard {
			// «долг вектора без ндс»: settlements are kept with VAT; no balance of them splits it out
			note := "_Суммы с НДС: расчёты с контрагентами в 1С ведутся с НДС, и без НДС остатки их не показывают. НДС каждого документа — в его счёте-фактуре._"
			r.Text = underHead(r.Text, note)
		}
		if err == nil && d.Currencies.Set && !slices.Contains(d.Currencies.Value, "RUB") && len(r.Text) > 0 {
			// «долг гранита в долларах»: the recipes read roubles; a currency contract's amounts
			// are not among them, and a conversion at today's rate is no figure of 1C
			note := "_Суммы в рублях: ответы из 1С даются в рублях; курс Банка России — кнопкой ниже._"
			r.Buttons = append(r.Buttons, skill.Button{Text: "курс " + strings.Join(d.Currencies.Value, " ") + " на сегодня"})
			r.Text = underHead(r.Text, note)
		}
		if d.Analysis && err == nil {
			// The planner did not plan the comparison (no LLM, or it failed): say what this is.
			r.Text = "_Сравнение, динамику и причины разбирает языковая модель, а сейчас она недоступна или не справилась. " +
				"Ниже — отчёт из 1С, на котором такой разбор строится; для другой даты или периода спросите отдельно._\n\n" + r.Text
		}
		return r, err
	case understand.KindLedgerWrite:
		return skill.Text("Я только читаю данные 1С и ничего в ней не меняю: провести, удалить или исправить документ можно " +
			"только в самой 1С. Могу показать, например, документы контрагента, его долг или остаток по счёту."), nil
	case understand.KindUnknownEntity:
		if d.UnknownBankAccount != "" && d.Recipe != "" {
			// The runner says that none of our organizations has the account and lists ours.
			return s.run(ctx, q, FromDecision(d))
		}
		if d.UnknownContract != "" {
			return unknownContractAnswer(d, q.Text), nil
		}
		if d.Recipe == "" || d.Unknown == "" || strings.HasPrefix(d.Unknown, "ИНН ") {
			return unknownEntityAnswer(d, q.Text), nil
		}
		// The runner's resolver tries the name as written (a prefix, another spelling) and
		// says what it found: one company, a choice, or nothing.
		dec := FromDecision(d)
		dec.Filters.Counterparty = d.Unknown
		dec.Missing = recipe.MissingFilters(dec.Intent, dec.Filters)
		return s.run(ctx, q, dec)
	}
	return s.with(ctx, q, nil)
}

// underHead puts a note right under an answer's opening paragraph (its figure and scope), which
// it qualifies: «Суммы с НДС…» under «Долг … **3 988 906,74 ₽**».
func underHead(text, note string) string {
	if head, rest, ok := strings.Cut(text, "\n\n"); ok {
		return head + "\n\n" + note + "\n\n" + rest
	}
	return text + "\n\n" + note
}

// snapshot reports whether a recipe answers as of one day (a balance, a debt), so that two days
// can be compared.
func snapshot(r recipe.Name) bool {
	switch r {
	case recipe.Receivables, recipe.Payables, recipe.AccountBalance, recipe.OpenItemsByParty, recipe.OpenItemsByContract,
		recipe.ReceivablesAging, recipe.PayablesAging:
		return true
	}
	return false
}

// agingOfParty answers a company's overdue asked without a side («на сколько дней вектор
// просрочил оплату»): its debt to us by days overdue, or — when it owes us nothing — ours to it.
func (s *Skill) agingOfParty(ctx context.Context, q skill.Query, d understand.Decision) (skill.Reply, error) {
	if s.runner == nil || !s.access(q.UserID, q.ChatID) {
		return s.run(ctx, q, FromDecision(d))
	}
	res := s.runner.Run(ctx, FromDecision(d))
	if res.ResultMode == runner.Limited && res.LimitedReason == runner.ReasonEmptyMatch {
		d.Recipe = recipe.PayablesAging
		if ours := s.runner.Run(ctx, FromDecision(d)); ours.ResultMode != runner.Limited {
			res = ours
		}
	}
	return s.reply(ctx, q, res), nil
}

// twoDates answers a snapshot asked on two days («долг альфы на 1 марта и на 1 апреля», «сравни
// дебиторку на 1 января и 1 марта»): each day's opening line, the change between them, then the
// later day's answer whole (its table, buttons and export). Nothing is estimated: two runs of
// the same recipe and their difference.
func (s *Skill) twoDates(ctx context.Context, q skill.Query, d understand.Decision) (skill.Reply, error) {
	later := d
	later.Date, later.Date2 = d.Date2, understand.Slot[time.Time]{}
	d.Date2 = understand.Slot[time.Time]{}
	if s.runner == nil || !s.access(q.UserID, q.ChatID) {
		return s.run(ctx, q, FromDecision(later))
	}
	first := s.runner.Run(ctx, FromDecision(d))
	second := s.runner.Run(ctx, FromDecision(later))
	r := s.reply(ctx, q, second) // the later day's answer whole, from its one run
	if first.ResultMode == runner.Limited || second.ResultMode == runner.Limited {
		return r, nil // a day with nothing to compare: the later day's answer says what it found
	}
	line := func(res runner.Result) string {
		head, _, _ := strings.Cut(res.Markdown(), "\n")
		return head
	}
	diff := second.Summary.TotalAmount - first.Summary.TotalAmount
	if first.Aging != nil && second.Aging != nil {
		diff = second.Aging.Overdue - first.Aging.Overdue // «просрочка на 1 марта и на 1 апреля»: the overdue's change
	}
	change := "без изменений"
	switch {
	case diff > 0:
		change = "+" + diff.String()
	case diff < 0:
		change = "−" + (-diff).String()
	}
	if d.Recipe == recipe.AccountBalance && diff != 0 {
		// an account's saldo is net, debit plus: say which way it moved
		change += map[bool]string{true: " (сальдо сдвинулось в дебет)", false: " (сальдо сдвинулось в кредит)"}[diff > 0]
	}
	what := "Изменение"
	if first.Aging != nil && second.Aging != nil {
		what = "Просроченный долг изменился"
	}
	cmp := fmt.Sprintf("%s с %s по %s: **%s**.\n- %s\n- %s", what, d.Date.Value.Format("02.01.2006"), later.Date.Value.Format("02.01.2006"),
		md.Escape(change), line(first), line(second))
	r.Text = cmp + "\n\n" + r.Text
	return r, nil
}

// exceptContract answers «долг альфы кроме договора П-77/2024»: the company's settlements less
// that contract's, in the contract's organization — two runs (the company, the contract) and
// their difference, each said; nothing is estimated.
func (s *Skill) exceptContract(ctx context.Context, q skill.Query, d understand.Decision) (skill.Reply, error) {
	c := d.ExceptContract.Value
	d.ExceptContract = understand.Slot[recipe.Entity]{}
	if s.runner == nil || !s.access(q.UserID, q.ChatID) {
		return s.run(ctx, q, FromDecision(d))
	}
	if c.OrgRef != "" && !d.Organization.Set {
		d.Organization = understand.CatalogSlot(recipe.Entity{Ref: c.OrgRef}, "")
	}
	one := d
	one.Recipe, one.Contract = recipe.OpenItemsByContract, understand.CatalogSlot(c, c.Number)
	all := s.runner.Run(ctx, FromDecision(d))
	of := s.runner.Run(ctx, FromDecision(one))
	if all.ResultMode == runner.Limited {
		return s.reply(ctx, q, all), nil // nothing open: the company's answer says so
	}
	var contract onec.Kopecks
	line := "по договору № " + c.Number + " открытых позиций нет"
	if of.ResultMode != runner.Limited {
		contract = of.Summary.TotalAmount
		head, _, _ := strings.Cut(of.Markdown(), "\n")
		line = head
	}
	rest := all.Summary.TotalAmount - contract
	what := "расчёты закрыты"
	switch {
	case rest > 0:
		what = all.Party + " должен нам **" + md.Escape(rest.String()) + "**"
	case rest < 0:
		what = "мы должны " + all.Party + " **" + md.Escape((-rest).String()) + "**"
	}
	r := skill.Reply{Sources: []facts.Source{{Title: all.SourceTitle()}}}
	r.Text = fmt.Sprintf("Без договора № %s: %s %s.\n- всего: %s [1]\n- %s", md.Escape(c.Number), what, md.Escape(all.When()),
		strings.TrimSuffix(strings.SplitN(all.Markdown(), "\n", 2)[0], "."), line)
	return r, nil
}

// several is the answer of one decision run for several of its variants (companies, our
// organizations): each variant's opening line, cited, a button asking its answer whole, and the
// variants' total where every run answered (what the recipes computed, added — nothing else).
type several struct {
	r     skill.Reply
	lines []string
	total onec.Kopecks
	when  string // « на 31.03.2026», the first run's date
	all   bool   // every run answered
}

// add runs dec, the decision of one variant, and adds its line (label before it, "" for none)
// and a button asking ask.
func (sv *several) add(ctx context.Context, s *Skill, dec runner.Decomposition, label, ask string) {
	res := s.runner.Run(ctx, dec)
	mark := ""
	if res.ResultMode != runner.Limited {
		sv.r.Sources = append(sv.r.Sources, facts.Source{Title: res.SourceTitle()})
		mark = fmt.Sprintf(" [%d]", len(sv.r.Sources))
	}
	if sv.when == "" && !res.AsOf.IsZero() {
		sv.when = " на " + res.AsOf.Format("02.01.2006")
	}
	head, _, _ := strings.Cut(res.Markdown(), "\n")
	if label != "" {
		head = "**" + md.Escape(label) + "**: " + head
	}
	sv.lines = append(sv.lines, "- "+head+mark)
	sv.total += res.Summary.TotalAmount
	sv.all = sv.all && res.ResultMode != runner.Limited
	sv.r.Buttons = append(sv.r.Buttons, skill.Button{Text: ask})
}

// everyParty answers a question that names several companies in full («сколько мы должны альфе
// поставке и промпоставке», «документы альфы и гранита за март»): each company's opening line,
// cited, and — for debts — their sum; a button asks each one's answer whole.
func (s *Skill) everyParty(ctx context.Context, q skill.Query, d understand.Decision) (skill.Reply, error) {
	parties := d.Parties
	d.Parties = nil
	if s.runner == nil || !s.access(q.UserID, q.ChatID) {
		return s.run(ctx, q, FromDecision(d))
	}
	sv := several{all: true}
	for _, p := range parties {
		one := d
		one.Counterparty = understand.CatalogSlot(p, p.Name)
		sv.add(ctx, s, FromDecision(one), "", oneParty(d, p.Name))
	}
	r := sv.r
	r.Text = strings.Join(sv.lines, "\n")
	if sv.all && snapshot(d.Recipe) && !aging(d.Recipe) {
		// the saldo of settlements: plus — they owe us, minus — we owe them (an aging's debts
		// are each on its side: each line says it)
		sum := "расчёты с ними в сумме закрыты"
		switch {
		case sv.total > 0:
			sum = "вместе они должны нам **" + md.Escape(sv.total.String()) + "**"
		case sv.total < 0:
			sum = "вместе мы должны им **" + md.Escape((-sv.total).String()) + "**"
		}
		r.Text = fmt.Sprintf("%d %s%s: %s.\n\n", len(parties), ru.Plural(len(parties), "контрагент", "контрагента", "контрагентов"),
			md.Escape(sv.when), sum) + r.Text
	}
	r.Buttons = skill.InPairs(r.Buttons)
	return r, nil
}

// oneParty is the question a button asks of one of the companies a message named: the recipe's
// words, the company in full, the date or period as written («расчёты с ООО «Гранит» на 1.03»).
func oneParty(d understand.Decision, name string) string {
	what := map[recipe.Name]string{recipe.DocumentsByParty: "документы %s", recipe.BankOpsByParty: "оплаты %s"}[d.Recipe]
	if what == "" {
		what = "расчёты с %s"
	}
	q := fmt.Sprintf(what, name)
	switch {
	case d.Date.Set && d.Date.Text != "":
		q += " " + d.Date.Text
	case d.Period.Set && d.Period.Text != "":
		q += " " + d.Period.Text
	}
	return q
}

// everyOrganization answers a question about all our organizations («дебиторка по обеим
// организациям»): each organization's opening line and, for a sum a list or a balance has, the
// sum of them; a button asks each organization's answer whole. Each is the recipe run with that
// organization's filter; nothing is summed that the recipes did not compute.
func (s *Skill) everyOrganization(ctx context.Context, q skill.Query, d understand.Decision) (skill.Reply, error) {
	orgs := d.Organizations
	d.Organizations = nil
	if s.runner == nil || !s.access(q.UserID, q.ChatID) {
		return s.run(ctx, q, FromDecision(d))
	}
	sv := several{all: true}
	for _, o := range orgs {
		one := d
		one.Organization = understand.CatalogSlot(o, o.Name)
		sv.add(ctx, s, FromDecision(one), o.Name, understand.ForOrganization(q.Text, o.Name))
	}
	r := sv.r
	r.Text = "По организациям:\n" + strings.Join(sv.lines, "\n")
	if sv.all && d.Recipe != recipe.TurnoverSheet && d.Recipe != recipe.AccountBalance {
		r.Text = fmt.Sprintf("Всего по %d организациям%s: **%s**.\n\n", len(orgs), sv.when, md.Escape(sv.total.String())) + r.Text
	}
	r.Buttons = skill.InPairs(r.Buttons)
	return r, nil
}

// receivablesAndPayables answers «дебиторка и кредиторка на 31.03»: who owes us, then whom we
// owe, each as its own list with its own footnote; a button asks for either alone (with its
// drilldowns and export).
func (s *Skill) receivablesAndPayables(ctx context.Context, q skill.Query, d understand.Decision) (skill.Reply, error) {
	d.Recipe = recipe.Receivables
	recv, err := s.run(ctx, q, FromDecision(d))
	if err != nil {
		return recv, err
	}
	d.Recipe = recipe.Payables
	pay, err := s.run(ctx, q, FromDecision(d))
	if err != nil {
		return pay, err
	}
	shift := len(recv.Sources)
	// The lists' own exports are behind the buttons for either list alone.
	for _, part := range []*skill.Reply{&recv, &pay} {
		part.Text = strings.ReplaceAll(part.Text, "кнопкой «Выгрузить в Excel»", "кнопкой этого списка ниже, с выгрузкой в Excel")
		part.Text = strings.ReplaceAll(part.Text, "полный список кнопкой этого списка ниже, с выгрузкой в Excel", "полный список — кнопкой этого списка ниже, с выгрузкой в Excel")
	}
	r := recv
	r.Text = recv.Text + "\n\n" + phrase.Renumber(pay.Text, shift)
	r.Sources = append(append([]facts.Source(nil), recv.Sources...), pay.Sources...)
	on := onDate(d)
	r.Buttons = []skill.Button{{Text: "Только кто должен нам" + on}, {Text: "Только кому должны мы" + on, SameRow: true}}
	r.Degraded = append(r.Degraded, pay.Degraded...)
	return r, nil
}

// unknownEntityAnswer says that no counterparty has the name and offers the closest ones.
func unknownEntityAnswer(d understand.Decision, text string) skill.Reply {
	r := skill.Reply{Text: fmt.Sprintf("Контрагента «%s» в справочнике 1С не нашёл.", md.Escape(d.Unknown))}
	if len(d.Closest) == 0 {
		r.Text += " Проверьте название или укажите ИНН."
		return r
	}
	var names []string
	for _, e := range d.Closest {
		names = append(names, md.Escape(e.Name))
		r.Buttons = append(r.Buttons, skill.Button{Text: withName(text, d.Unknown, e.Name)})
	}
	r.Text += " Похожие названия: " + strings.Join(names, ", ") + ". Выберите, если имели в виду одного из них."
	return r
}

// unknownContractAnswer says that no contract has the number the message names, and offers
// the counterparty's contracts (or those whose numbers hold its digits) as buttons that ask
// the question again about each.
func unknownContractAnswer(d understand.Decision, text string) skill.Reply {
	r := skill.Reply{Text: fmt.Sprintf("Договора № %s в справочнике 1С не нашёл.", md.Escape(d.UnknownContract))}
	if len(d.ClosestContracts) == 0 {
		r.Text += " Проверьте номер или назовите контрагента — покажу его договоры."
		return r
	}
	var names []string
	for _, e := range d.ClosestContracts {
		names = append(names, md.Escape(e.Name))
		r.Buttons = append(r.Buttons, skill.Button{Text: withName(text, d.UnknownContract, e.Number)})
	}
	lead := " Похожие номера: "
	if d.Counterparty.Set {
		lead = " Договоры " + md.Escape(d.Counterparty.Value.Name) + ": "
	}
	r.Text += lead + strings.Join(names, "; ") + "."
	return r
}

// withName is the question with the name as written replaced by a catalog name (or, when the
// name as written is not known, the catalog name added): pressing the button asks it again
// about that company.
func withName(text, written, name string) string {
	if written != "" {
		if i := strings.Index(strings.ToLower(text), strings.ToLower(written)); i >= 0 {
			return text[:i] + name + text[i+len(written):]
		}
	}
	return strings.TrimSpace(text) + " — " + name
}

// onDate is « на DD.MM.YYYY» of the decision's date, or of its period's end; "" without one.
func onDate(d understand.Decision) string {
	switch {
	case d.Date.Set:
		return " на " + d.Date.Value.Format("02.01.2006")
	case d.Period.Set:
		return " на " + d.Period.Value.To.Format("02.01.2006")
	}
	return ""
}

// asksWhose reports whether a 1C reply only asks for the counterparty the question did not name.
func asksWhose(r skill.Reply) bool {
	dbg, ok := r.Trace["ledger"].(*runner.Debug)
	return ok && slices.Contains(dbg.MissingRequiredFilters, recipe.FilterCounterparty)
}
