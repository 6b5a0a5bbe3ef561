package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/ru"
)

// Ledger is the address-query lane to 1C. *address.Lane satisfies it.
type Ledger interface {
	Run(ctx context.Context, d address.Decomposition) address.Result
	Drill(ctx context.Context, data string) (address.Result, error)
	// Probe runs one guarded-discovery primitive as a fixed read-only query (deep.go).
	Probe(ctx context.Context, primitive string, args address.ProbeArgs) (address.ProbeOutcome, error)
	SourceName() string
}

// ledgerCommands map bot commands to the intent they ask for.
var ledgerCommands = map[string]address.Intent{
	"debts":    address.IntentReceivables,
	"payables": address.IntentPayables,
	"balance":  address.IntentAccountBalance,
}

// accountToken is an account code argument: 51, 62.01.
var accountToken = regexp.MustCompile(`^\d{2,3}(\.\d{1,2}){0,2}$`)

// exportData is the callback data of "Выгрузить в Excel": the export is of the conversation's
// own last result, so nothing in the data can point at another user's figures.
const exportData = "x:last"

// ledger answers an address-query question, a ledger command or a drilldown.
func (a *Agent) ledger(ctx context.Context, req Request, text string) (Answer, error) {
	return a.ledgerWith(ctx, req, text, nil)
}

// ledgerRun answers with a decomposition made elsewhere (the planner's recipe and filters).
func (a *Agent) ledgerRun(ctx context.Context, req Request, d address.Decomposition) (Answer, error) {
	return a.ledgerWith(ctx, req, "", &d)
}

func (a *Agent) ledgerWith(ctx context.Context, req Request, text string, planned *address.Decomposition) (Answer, error) {
	if a.lane == nil {
		return Answer{Text: "Данные 1С в этой установке не подключены."}, nil
	}
	if !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		ans := Answer{Text: "Данные 1С доступны только сотрудникам с доступом к учёту. Если он вам нужен, обратитесь к администратору бота."}
		ans.Debug.Degraded = []string{"ledger_access_denied"}
		return ans, nil
	}
	var res address.Result
	switch {
	case req.Command == "" && planned != nil:
		res = a.lane.Run(ctx, *planned)
	case req.Command == "drill":
		if text == exportData {
			return a.exportLast(req)
		}
		if strings.HasPrefix(text, choiceData) {
			ans, _ := a.choose(ctx, req, text)
			return ans, nil
		}
		r, err := a.lane.Drill(ctx, text)
		if errors.Is(err, address.ErrBadDrill) {
			return Answer{Text: "Эта кнопка устарела или повреждена. Задайте вопрос заново — например, «кто нам должен на сегодня»."}, nil
		}
		res = r
	case ledgerCommands[req.Command] != "":
		d := a.ledgerCommandDecision(ctx, req, ledgerCommands[req.Command], text)
		if req.Command == "balance" {
			// "/balance 51 31.03.2026": the first argument is the account.
			if first, _, _ := strings.Cut(strings.TrimSpace(text), " "); accountToken.MatchString(first) {
				d.Filters.Account = first
			}
		}
		d.Missing = address.MissingFilters(d.Intent, d.Filters)
		res = a.lane.Run(ctx, d)
	default:
		// A question reaches 1C only as a decision (answerDecision, also for a plan: understand.Parser.FromPlan).
		return Answer{Text: "Не понял, что показать из 1С. Спросите, например: «кто нам должен на 31.03», «остаток по 51 на 1.04», «документы Альфы за март»."}, nil
	}
	a.lastLedger.Add(ConversationKey(req), res)
	return ledgerAnswer(res), nil
}

// ledgerAnswer turns a lane result into an answer with buttons and the debug payload.
func ledgerAnswer(res address.Result) Answer {
	ans := Answer{Intent: string(res.Intent), Text: res.Markdown()}
	if res.ResultMode != address.Limited || res.LimitedReason == address.ReasonEmptyMatch {
		// Figures always name their source: the recipe, the organization and the base, marked
		// where the figures are read.
		ans.Text = res.MarkdownCited("[1]")
		ans.Sources = []Source{{Title: res.SourceTitle()}}
	}
	for i, c := range res.Candidates {
		ans.Buttons = append(ans.Buttons, Button{Text: candidateLabel(c), Data: fmt.Sprintf("%s%d", choiceData, i)})
	}
	for _, d := range res.Drills() {
		ans.Buttons = append(ans.Buttons, Button{Text: d.Text, Data: d.Data})
	}
	if res.ResultMode == address.FactualSummary || res.Summary.Rows > len(res.Rows) {
		ans.Buttons = append(ans.Buttons, Button{Text: "Выгрузить в Excel", Data: exportData})
	}
	dbg := res.Debug
	ans.Debug.Address = &dbg
	ans.Debug.Result = &res
	return ans
}

// choiceData prefixes a clarification button: "c:<candidate index>" picks one candidate of the
// conversation's last ambiguous result, which the agent re-runs with that reference.
const choiceData = "c:"

// candidateLabel is a button label that tells near-duplicates apart.
func candidateLabel(c address.Entity) string {
	label := c.Name
	switch {
	case c.Number != "" && c.Date != "":
		label = fmt.Sprintf("№ %s от %s", c.Number, c.Date)
	case c.INN != "":
		label = fmt.Sprintf("%s, ИНН %s", c.Name, c.INN)
	}
	return ru.Truncate(label, 60)
}

// choose re-runs the conversation's last ambiguous request with the chosen candidate.
func (a *Agent) choose(ctx context.Context, req Request, data string) (Answer, bool) {
	i, err := strconv.Atoi(strings.TrimPrefix(data, choiceData))
	last, ok := a.lastLedger.Get(ConversationKey(req))
	if err != nil || !ok || i < 0 || i >= len(last.Candidates) {
		return Answer{Text: "Эта кнопка устарела. Задайте вопрос заново."}, false
	}
	ref := last.Candidates[i].Ref
	f := last.Filters
	switch last.AnchorType {
	case "organization":
		f.Organization = ref
	case "bank_account":
		f.Organization = "" // the account's organization is the scope
	case "contract":
		f.Contract = ref
	default:
		f.Counterparty, f.INN = ref, ""
	}
	d := address.Decomposition{QuestionMode: address.ModeAddress, ModeConfidence: 1, Intent: last.Intent, IntentConfidence: 1,
		Filters: f, FallbackRuleHit: "clarification_choice", Reasons: []string{"выбор из кандидатов"}}
	if last.AnchorType == "bank_account" {
		d.BankAccount = ref
	}
	d.Missing = address.MissingFilters(d.Intent, d.Filters)
	res := a.lane.Run(ctx, d)
	a.lastLedger.Add(ConversationKey(req), res)
	return ledgerAnswer(res), true
}

// exportLast sends the conversation's last ledger result as an Excel file.
func (a *Agent) exportLast(req Request) (Answer, error) {
	res, ok := a.lastLedger.Get(ConversationKey(req))
	if !ok || res.ResultMode == address.Limited {
		return Answer{Text: "Нечего выгружать: сначала задайте вопрос к данным 1С."}, nil
	}
	data, err := res.XLSX()
	if err != nil {
		return Answer{}, fmt.Errorf("export: %w", err)
	}
	return Answer{Intent: string(res.Intent), Text: fmt.Sprintf("Выгрузка: %d строк, итог %s.", res.Summary.Rows, res.Summary.TotalAmount),
		Document: &Document{Name: strings.ReplaceAll(res.RecipeID, ".", "_") + ".xlsx", Bytes: data, Caption: "Источник: " + res.Source}}, nil
}
