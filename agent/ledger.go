package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/lane"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
)

// Ledger is the 1C lane to 1C. *lane.Lane satisfies it.
type Ledger interface {
	Run(ctx context.Context, d lane.Decomposition) lane.Result
	Drill(ctx context.Context, data string) (lane.Result, error)
	// Probe runs one guarded-discovery primitive as a fixed read-only query (ledger_analysis.go).
	Probe(ctx context.Context, primitive string, args lane.ProbeArgs) (lane.ProbeOutcome, error)
	SourceName() string
}

// ledger answers an address-query question, a ledger command or a drilldown.
func (a *Agent) ledger(ctx context.Context, req Request, text string) (Answer, error) {
	return a.ledgerWith(ctx, req, text, nil)
}

// ledgerRun answers with a decomposition made elsewhere (the planner's recipe and filters).
func (a *Agent) ledgerRun(ctx context.Context, req Request, d lane.Decomposition) (Answer, error) {
	return a.ledgerWith(ctx, req, "", &d)
}

func (a *Agent) ledgerWith(ctx context.Context, req Request, text string, planned *lane.Decomposition) (Answer, error) {
	if a.lane == nil {
		return Answer{Text: "Данные 1С в этой установке не подключены."}, nil
	}
	if !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		ans := Answer{Text: "Данные 1С доступны только сотрудникам с доступом к учёту. Если он вам нужен, обратитесь к администратору бота."}
		ans.Debug.Degraded = []string{"ledger_access_denied"}
		return ans, nil
	}
	var res lane.Result
	switch {
	case req.Command == "" && planned != nil:
		res = a.lane.Run(ctx, *planned)
	case req.Command == "drill":
		if text == ledger.ExportData {
			return a.exportLast(req)
		}
		if strings.HasPrefix(text, ledger.ChoiceData) {
			ans, _ := a.choose(ctx, req, text)
			return ans, nil
		}
		r, err := a.lane.Drill(ctx, text)
		if errors.Is(err, lane.ErrBadDrill) {
			return Answer{Text: "Эта кнопка устарела или повреждена. Задайте вопрос заново — например, «кто нам должен на сегодня»."}, nil
		}
		res = r
	case ledger.Commands[req.Command] != "":
		d := a.parser.Parse(understand.Input{Text: text, Now: a.now(), Catalogs: a.catalogs(ctx, req)})
		dec, _ := ledger.FromCommand(req.Command, text, d)
		res = a.lane.Run(ctx, dec)
	default:
		// A question reaches 1C only as a decision (answerDecision, also for a plan: understand.Parser.FromPlan).
		return Answer{Text: "Не понял, что показать из 1С. Спросите, например: «кто нам должен на 31.03», «остаток по 51 на 1.04», «документы Альфы за март»."}, nil
	}
	a.lastLedger.Add(ConversationKey(req), res)
	return ledgerAnswer(res), nil
}

// ledgerAnswer is a lane result as the answer, with the debug payload.
func ledgerAnswer(res lane.Result) Answer {
	ans := answer(ledger.Reply(res))
	ans.Intent = string(res.Intent)
	dbg := res.Debug
	ans.Debug.Ledger = &dbg
	ans.Debug.Result = &res
	return ans
}

// choose re-runs the conversation's last ambiguous request with the chosen candidate.
func (a *Agent) choose(ctx context.Context, req Request, data string) (Answer, bool) {
	last, ok := a.lastLedger.Get(ConversationKey(req))
	d, chosen := ledger.Choice(last, data)
	if !ok || !chosen {
		return Answer{Text: "Эта кнопка устарела. Задайте вопрос заново."}, false
	}
	res := a.lane.Run(ctx, d)
	a.lastLedger.Add(ConversationKey(req), res)
	return ledgerAnswer(res), true
}

// errLedgerDenied: the requester may not see 1C data. The ledger_query tool returns it before
// touching the lane, so nothing of 1C reaches the facts.
var errLedgerDenied = errors.New("agent: 1C data is not available to this user")

// ledgerQuery is the planner's ledger_query tool: one whitelisted 1C recipe with the plan's
// filters, run as the ledger commands run, read as facts (the rows, their total and the scope
// of the figures).
func (a *Agent) ledgerQuery(ctx context.Context, req Request, question string, args plan.LedgerQueryArgs) (facts.Payload, error) {
	if !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		return facts.Payload{}, errLedgerDenied
	}
	d, err := ledger.Decompose(question, args)
	if err != nil {
		return facts.Payload{}, err
	}
	res := a.lane.Run(ctx, d)
	a.lastLedger.Add(ConversationKey(req), res) // for "Выгрузить в Excel" and the choice buttons, as ledger does
	if ctx.Err() != nil {
		return facts.Payload{}, ctx.Err()
	}
	return ledger.Facts(res)
}

// exportLast sends the conversation's last ledger result as an Excel file.
func (a *Agent) exportLast(req Request) (Answer, error) {
	res, ok := a.lastLedger.Get(ConversationKey(req))
	if !ok || res.ResultMode == lane.Limited {
		return Answer{Text: "Нечего выгружать: сначала задайте вопрос к данным 1С."}, nil
	}
	data, err := res.XLSX()
	if err != nil {
		return Answer{}, fmt.Errorf("export: %w", err)
	}
	return Answer{Intent: string(res.Intent), Text: fmt.Sprintf("Выгрузка: %d строк, итог %s.", res.Summary.Rows, res.Summary.TotalAmount),
		Document: &Document{Name: strings.ReplaceAll(res.RecipeID, ".", "_") + ".xlsx", Bytes: data, Caption: "Источник: " + res.Source}}, nil
}
