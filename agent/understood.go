package agent

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/ru"
)

// catalogSource is a ledger that can give its catalogs for understanding names; *runner.Lane
// is one.
type catalogSource interface {
	Catalogs(ctx context.Context) (recipe.Catalogs, error)
}

// understandTimeout bounds loading what the parser reads around a message (catalogs, titles).
const understandTimeout = 5 * time.Second

// understand reads a message once, into a typed decision. Names are resolved against the 1C
// catalogs only for a user with access to 1C; the titles of the user's documents tell a
// question about an uploaded contract from one for 1C.
func (a *Agent) understand(ctx context.Context, req Request, text string, scope docScope) understand.Decision {
	return a.understandIn(ctx, req, text, scope, nil)
}

// understandIn is understand that also reads the message as the continuation of the question
// that left the dialog state prev (nil for none).
func (a *Agent) understandIn(ctx context.Context, req Request, text string, scope docScope, prev *understand.State) understand.Decision {
	in := understand.Input{Text: text, Now: a.now()}
	var lctx context.Context // bounds what is loaded around the message, from the first load on
	cancel := func() {}
	defer func() { cancel() }()
	bounded := func() context.Context {
		if lctx == nil {
			lctx, cancel = context.WithTimeout(ctx, understandTimeout)
		}
		return lctx
	}
	if a.library != nil {
		metas, err := a.library.List(bounded(), owner(req))
		if err == nil {
			for _, m := range metas {
				in.Docs = append(in.Docs, m.Title)
			}
		}
	}
	for _, m := range scope.selected {
		in.Docs = append(in.Docs, m.Title)
	}
	return a.parser.Understand(in, prev, func() *recipe.Catalogs { return a.catalogs(bounded(), req) })
}

// catalogs are the 1C catalogs for a user with access to 1C; nil without access or when they
// cannot be loaded (names then stay unresolved and the answer says what was not found).
func (a *Agent) catalogs(ctx context.Context, req Request) *recipe.Catalogs {
	cs, ok := a.lane.(catalogSource)
	if !ok || !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		return nil
	}
	c, err := cs.Catalogs(ctx)
	if err != nil {
		if ctx.Err() == nil {
			a.log.WarnContext(ctx, "1C catalogs unavailable; names are not resolved", "err", err)
		}
		return nil
	}
	return &c
}

// decisionRoute is the route a decision amounts to, for the debug payload and the metrics.
func decisionRoute(d understand.Decision) RouteDecision {
	r := RouteDecision{Source: "rules", FallbackRuleHit: d.Rule, Reasons: d.Reasons, Confidence: 0.9}
	if !d.Sure {
		r.Confidence = 0.4
	}
	switch d.Kind {
	case understand.KindRate:
		r.Scenario, r.Intent = S2General, IntentRates
	case understand.KindKeyRate:
		r.Scenario, r.Intent = S2General, IntentKeyRate
	case understand.KindNews:
		r.Scenario, r.Intent = S2General, IntentNews
	case understand.KindKB:
		r.Scenario, r.Intent = S2General, IntentKB
	case understand.KindSmallTalk:
		r.Scenario, r.Intent = S2General, IntentSmallTalk
	case understand.KindDocs:
		r.Scenario = S1Search
	case understand.KindLedger:
		r.Scenario, r.Intent = OneC, string(d.Recipe)
	case understand.KindLedgerWrite:
		r.Scenario, r.Intent = OneC, "write"
	case understand.KindUnknownEntity:
		r.Scenario, r.Intent = OneC, IntentUnknown
	default:
		r.Scenario, r.Intent = S5Clarify, IntentUnknown
	}
	return r
}

// answerDecision runs the skill a decision names with its slots. Nothing here reads the text
// again for what the decision already holds: the date, the currency, the account and the
// names come from the decision only.
func (a *Agent) answerDecision(ctx context.Context, req Request, d understand.Decision, text string, hist []history.Turn,
	scope docScope) (Answer, RouteDecision, error) {
	route := decisionRoute(d)
	ans, route, err := a.answerDecisionOnce(ctx, req, d, text, hist, scope, route)
	if st, ok := understand.StateOf(d, text); ok && err == nil {
		ans.state = &st
	}
	return ans, route, err
}

// answerDecisionOnce is answerDecision without the dialog state.
func (a *Agent) answerDecisionOnce(ctx context.Context, req Request, d understand.Decision, text string, hist []history.Turn,
	scope docScope, route RouteDecision) (Answer, RouteDecision, error) {
	if d.DateError != "" && (d.Kind == understand.KindLedger || d.Kind == understand.KindRate || d.Kind == understand.KindKeyRate) {
		return Answer{Text: EscapeMarkdown(d.DateError) + " Укажите дату в формате ДД.ММ.ГГГГ, например 15.01.2026."}, route, nil
	}
	// A file's caption asks about that file: «сколько оплачено по акту сверки?» under an
	// uploaded act is the act's figure, not 1C's bank operations — unless the caption names what
	// in 1C it means (a company, a contract, an account).
	captionAboutFile := req.OnlyDoc != "" && d.Kind == understand.KindLedger &&
		!d.Counterparty.Set && !d.Contract.Set && !d.Account.Set && !d.BankAccount.Set
	if len(scope.selected) > 0 && (d.Kind == understand.KindKB || d.Kind == understand.KindClarify || d.Kind == understand.KindDocs || captionAboutFile) {
		// Documents are selected (a reply to an upload, a caption, the /docs buttons): a question
		// that is not for 1C, the Bank of Russia or small talk is about them.
		asked := route
		if captionAboutFile {
			asked.Scenario, asked.Intent = S1Search, ""
			asked.Reasons = append(asked.Reasons, "подпись к файлу: вопрос о нём")
		}
		if r := docScenario(asked, &scope); r.Scenario == S3Full || r.Scenario == S4Retrieve {
			ans, err := a.documentAnswer(ctx, req, r, text, scope)
			return ans, r, err
		}
	}
	var ans Answer
	var err error
	switch d.Kind {
	case understand.KindRate:
		ans, err = a.rateDecision(ctx, d)
	case understand.KindKeyRate:
		ans = a.answerKeyRate(ctx, a.decisionPeriod(d))
	case understand.KindNews:
		ans, err = a.answerNews(ctx, req.UserID, text)
	case understand.KindKB:
		ans, err = a.generalAnswer(ctx, req, route, text)
	case understand.KindSmallTalk:
		ans = a.smallTalk(ctx, text, hist)
	case understand.KindDocs:
		route = docScenario(route, &scope)
		ans, err = a.documentAnswer(ctx, req, route, text, scope)
	case understand.KindLedger:
		if d.Rule == "receivables_and_payables" {
			ans, err = a.receivablesAndPayables(ctx, req, d)
			break
		}
		ans, err = a.ledgerRun(ctx, req, ledger.FromDecision(d))
		if err == nil && d.Overdue {
			// Overdue needs each contract's payment terms, which no whitelisted query reads.
			ans.Text = "_Просрочку по срокам оплаты договоров я не считаю: ниже вся задолженность; даты документов — в расшифровке по контрагенту._\n\n" + ans.Text
		}
		if d.Analysis && err == nil {
			// The planner did not plan the comparison (no LLM, or it failed): say what this is.
			ans.Text = "_Сравнение, динамику и причины разбирает языковая модель, а сейчас она недоступна или не справилась. " +
				"Ниже — отчёт из 1С, на котором такой разбор строится; для другой даты или периода спросите отдельно._\n\n" + ans.Text
		}
	case understand.KindLedgerWrite:
		ans = Answer{Text: "Я только читаю данные 1С и ничего в ней не меняю: провести, удалить или исправить документ можно " +
			"только в самой 1С. Могу показать, например, документы контрагента, его долг или остаток по счёту."}
	case understand.KindUnknownEntity:
		if d.UnknownBankAccount != "" && d.Recipe != "" {
			// The lane says that none of our organizations has the account and lists ours.
			ans, err = a.ledgerRun(ctx, req, ledger.FromDecision(d))
			break
		}
		if d.Recipe == "" || d.Unknown == "" || strings.HasPrefix(d.Unknown, "ИНН ") {
			ans = unknownEntityAnswer(d, text)
			break
		}
		// The 1C lane's resolver tries the name as written (a prefix, another spelling) and
		// says what it found: one company, a choice, or nothing.
		dec := ledger.FromDecision(d)
		dec.Filters.Counterparty = d.Unknown
		dec.Missing = recipe.MissingFilters(dec.Intent, dec.Filters)
		ans, err = a.ledgerRun(ctx, req, dec)
	default:
		switch {
		case len(d.BankAccountCandidates) > 1:
			ans = bankAccountsAnswer(d, text)
		case len(d.Candidates) > 1:
			ans = candidatesAnswer(d, text)
		case d.Ask != "":
			ans = Answer{Text: EscapeMarkdown(d.Ask)}
		case d.Rule == "debt_direction":
			ans = debtDirectionAnswer(d)
		case d.Rule == "vague" && a.searchOwnDocs(ctx, req, text, scope, &ans):
			route.Scenario, route.Intent = S1Search, ""
			route.Reasons = append(route.Reasons, "короткий вопрос без признаков 1С, курса или базы знаний: нашёлся ответ в документах пользователя")
		case d.Rule == "advance_direction":
			on := onDate(d)
			ans = Answer{Text: "Какие авансы показать" + on + ": выданные поставщикам (60.02) или полученные от покупателей (62.02)?",
				Buttons: []Button{{Text: "Авансы выданные" + on}, {Text: "Авансы полученные" + on, SameRow: true}}}
		default:
			ans = a.clarify(ctx, route, text)
		}
	}
	return ans, route, err
}

// decisionPeriod is the date or period of a Bank of Russia question: today when none is named.
func (a *Agent) decisionPeriod(d understand.Decision) ru.Period {
	switch {
	case d.Period.Set:
		return d.Period.Value
	case d.Date.Set:
		return ru.Period{From: d.Date.Value, To: d.Date.Value, Kind: ru.KindDay, Text: d.Date.Text}
	}
	t := rates.Today(a.now())
	return ru.Period{From: t, To: t, Kind: ru.KindDay}
}

// rateDecision answers a rates question from the decision's currencies, nominal and date.
func (a *Agent) rateDecision(ctx context.Context, d understand.Decision) (Answer, error) {
	if a.rates == nil {
		return Answer{Text: "Курсы Банка России в этой установке не подключены."}, nil
	}
	r := rates.Request{Codes: d.Currencies.Value, Period: a.decisionPeriod(d), Amount: d.Nominal.Value}
	for _, u := range d.UnknownCurrencies {
		msg := fmt.Sprintf("«%s» — не валюта, курс которой устанавливает Банк России.", EscapeMarkdown(u))
		if sug := ru.Suggest(u); len(sug) > 0 {
			var names []string
			for _, c := range sug {
				names = append(names, fmt.Sprintf("%s (%s)", c.Code, EscapeMarkdown(ru.LowerFirst(c.Name))))
			}
			msg += " Возможно, вы имели в виду: " + strings.Join(names, ", ") + "."
		}
		r.Notes = append(r.Notes, msg)
	}
	if len(r.Codes) == 0 {
		if len(r.Notes) > 0 {
			return Answer{Text: strings.Join(r.Notes, "\n\n")}, nil
		}
		r.Codes = rates.DefaultCurrencies
	}
	return answer(a.rates.Rates(ctx, r)), nil
}

// unknownEntityAnswer says that no counterparty has the name and offers the closest ones.
func unknownEntityAnswer(d understand.Decision, text string) Answer {
	ans := Answer{Text: fmt.Sprintf("Контрагента «%s» в справочнике 1С не нашёл.", EscapeMarkdown(d.Unknown))}
	if len(d.Closest) == 0 {
		ans.Text += " Проверьте название или укажите ИНН."
		return ans
	}
	var names []string
	for _, e := range d.Closest {
		names = append(names, EscapeMarkdown(e.Name))
		ans.Buttons = append(ans.Buttons, Button{Text: withName(text, d.Unknown, e.Name)})
	}
	ans.Text += " Похожие названия: " + strings.Join(names, ", ") + ". Выберите, если имели в виду одного из них."
	return ans
}

// candidatesAnswer asks which of several equally matching counterparties is meant; each
// button asks the same question with that name, so the date and account are kept.
func candidatesAnswer(d understand.Decision, text string) Answer {
	ans := Answer{Text: "Под это название подходят несколько контрагентов. Уточните, какой нужен:"}
	for _, e := range d.Candidates {
		label := e.Name
		if e.INN != "" {
			label += ", ИНН " + e.INN
		}
		ans.Text += "\n- " + EscapeMarkdown(label)
		ans.Buttons = append(ans.Buttons, Button{Text: withName(text, "", e.Name)})
	}
	return ans
}

// bankAccountsAnswer asks which of our settlement accounts ending alike is meant; each button
// asks the same question with the whole number.
func bankAccountsAnswer(d understand.Decision, text string) Answer {
	ans := Answer{Text: "Так оканчиваются несколько расчётных счетов наших организаций. Уточните, какой нужен:"}
	for _, b := range d.BankAccountCandidates {
		ans.Text += "\n- " + EscapeMarkdown(b.Number+" — "+b.OrgName)
		ans.Buttons = append(ans.Buttons, Button{Text: withName(text, "", b.Number)})
	}
	return ans
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

// commandDecision answers /rate and /keyrate: their arguments are read by the same parser as a
// question («/rate USD 01.05», «/keyrate 2025»), and the command fixes what is asked.
func (a *Agent) commandDecision(ctx context.Context, req Request, kind understand.Kind, args string, hist []history.Turn,
	scope docScope) (Answer, error) {
	d := a.parser.Parse(understand.Input{Text: args, Now: a.now()})
	d.Kind = kind
	ans, _, err := a.answerDecision(ctx, req, d, args, hist, scope)
	return ans, err
}

// receivablesAndPayables answers «дебиторка и кредиторка на 31.03»: who owes us, then whom we
// owe, each as its own list with its own footnote; a button asks for either alone (with its
// drilldowns and export).
func (a *Agent) receivablesAndPayables(ctx context.Context, req Request, d understand.Decision) (Answer, error) {
	d.Recipe = recipe.Receivables
	recv, err := a.ledgerRun(ctx, req, ledger.FromDecision(d))
	if err != nil {
		return recv, err
	}
	d.Recipe = recipe.Payables
	pay, err := a.ledgerRun(ctx, req, ledger.FromDecision(d))
	if err != nil {
		return pay, err
	}
	shift := len(recv.Sources)
	// The lists' own exports are behind the buttons for either list alone.
	for _, part := range []*Answer{&recv, &pay} {
		part.Text = strings.ReplaceAll(part.Text, "кнопкой «Выгрузить в Excel»", "кнопкой этого списка ниже, с выгрузкой в Excel")
	}
	ans := recv
	ans.Text = recv.Text + "\n\n" + citation.ReplaceAllStringFunc(pay.Text, func(m string) string {
		n, _ := strconv.Atoi(strings.Trim(m, "[]"))
		return fmt.Sprintf("[%d]", n+shift)
	})
	ans.Sources = append(append([]Source(nil), recv.Sources...), pay.Sources...)
	on := onDate(d)
	ans.Buttons = []Button{{Text: "Только кто должен нам" + on}, {Text: "Только кому должны мы" + on, SameRow: true}}
	ans.Debug.Degraded = append(ans.Debug.Degraded, pay.Debug.Degraded...)
	return ans, nil
}

// debtDirectionAnswer asks which side of the settlements a message means («расчёты с
// контрагентами на 31.03», «картина по расчётам»), with a button for each.
func debtDirectionAnswer(d understand.Decision) Answer {
	on := onDate(d)
	return Answer{Text: "Что показать из 1С" + on + ": кто должен нам (дебиторская задолженность, 62) или кому должны мы (кредиторская, 60)? Можно и то и другое.",
		Buttons: []Button{{Text: "Кто должен нам" + on}, {Text: "Кому должны мы" + on, SameRow: true},
			{Text: "Дебиторка и кредиторка" + on}}}
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

// searchOwnDocs answers a short question that names nothing the bot knows («какой аванс по
// договору?», «срок оплаты остатка») from the user's own documents when they hold a passage
// on it: someone who has uploaded a contract asks about it in few words. It reports whether it
// answered; with no documents or no passage the question is asked back as before.
func (a *Agent) searchOwnDocs(ctx context.Context, req Request, text string, s docScope, ans *Answer) bool {
	if a.library == nil {
		return false
	}
	// With no documents, or none with a passage on it, the search answers without sources.
	got, err := a.documentAnswer(ctx, req, RouteDecision{Scenario: S1Search}, text, s)
	if err != nil || len(got.Sources) == 0 {
		return false
	}
	got.Scenario = S1Search
	*ans = got
	return true
}
