package agent

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/address"
)

// Ledger is the address-query lane to 1C. *address.Lane satisfies it.
type Ledger interface {
	Answer(ctx context.Context, text string) address.Result
	Run(ctx context.Context, d address.Decomposition) address.Result
	Drill(ctx context.Context, data string) (address.Result, error)
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
	case req.Command == "drill":
		if text == exportData {
			return a.exportLast(req)
		}
		r, err := a.lane.Drill(ctx, text)
		if errors.Is(err, address.ErrBadDrill) {
			return Answer{Text: "Эта кнопка устарела или повреждена. Задайте вопрос заново — например, «кто нам должен на сегодня»."}, nil
		}
		res = r
	case ledgerCommands[req.Command] != "":
		d := address.Decompose(text, a.now())
		if req.Command == "balance" {
			// "/balance 51 31.03.2026": the first argument is the account.
			if first, _, _ := strings.Cut(strings.TrimSpace(text), " "); accountToken.MatchString(first) {
				d.Filters.Account = first
			}
		}
		d.QuestionMode, d.Intent, d.IntentConfidence = address.ModeAddress, ledgerCommands[req.Command], 1
		d.FallbackRuleHit = "command_" + req.Command
		d.Missing = address.MissingFilters(d.Intent, d.Filters)
		res = a.lane.Run(ctx, d)
	default:
		res = a.lane.Answer(ctx, text)
	}
	a.lastLedger.Add(ConversationKey(req), res)
	return ledgerAnswer(res), nil
}

// ledgerAnswer turns a lane result into an answer with buttons and the debug payload.
func ledgerAnswer(res address.Result) Answer {
	ans := Answer{Intent: string(res.Intent), Text: res.Markdown()}
	if res.ResultMode != address.Limited || res.LimitedReason == address.ReasonEmptyMatch {
		ans.Sources = []Source{{Title: "Данные: " + res.Source}} // figures always name their source
	}
	for _, c := range res.Candidates {
		ans.Buttons = append(ans.Buttons, Button{Text: candidateQuestion(res, c)})
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

// candidateQuestion is the question a clarification button asks: the original request with
// the exact name of one candidate, so the answer re-runs through the whole lane.
func candidateQuestion(res address.Result, c address.Entity) string {
	what := map[address.Intent]string{
		address.IntentOpenItemsByParty: "открытые позиции по", address.IntentOpenItemsByContract: "открытые позиции по договору",
		address.IntentDocumentsByParty: "документы по", address.IntentBankOpsByParty: "банковские операции по",
		address.IntentDocumentsByContract: "документы по договору", address.IntentOpenContracts: "незакрытые договоры по",
		address.IntentDocumentsFormBalance: "расшифровка остатка по",
	}[res.Intent]
	if what == "" {
		what = "данные по"
	}
	anchor := c.Name
	if c.Number != "" {
		anchor = "№ " + c.Number
	} else if c.INN != "" {
		anchor = "ИНН " + c.INN
	}
	q := fmt.Sprintf("%s %s", what, anchor)
	if !res.AsOf.IsZero() {
		q += " на " + res.AsOf.Format("02.01.2006")
	} else if d, err := time.Parse(time.DateOnly, res.Filters.AsOfDate); err == nil {
		q += " на " + d.Format("02.01.2006")
	}
	return q
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
