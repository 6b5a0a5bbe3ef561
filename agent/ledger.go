package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/understand"
)

// Ledger is the 1C lane to 1C. *runner.Lane satisfies it.
type Ledger interface {
	Run(ctx context.Context, d runner.Decomposition) runner.Result
	Drill(ctx context.Context, data string) (runner.Result, error)
	// Probe runs one guarded-discovery primitive as a fixed read-only query (ledger_analysis.go).
	Probe(ctx context.Context, primitive string, args runner.ProbeArgs) (runner.ProbeOutcome, error)
	SourceName() string
}

// ledger answers an address-query question, a ledger command or a drilldown.
func (a *Agent) ledger(ctx context.Context, req Request, text string) (Answer, error) {
	return a.ledgerWith(ctx, req, text, nil)
}

// ledgerRun answers with a decomposition made elsewhere (the planner's recipe and filters).
func (a *Agent) ledgerRun(ctx context.Context, req Request, d runner.Decomposition) (Answer, error) {
	return a.ledgerWith(ctx, req, "", &d)
}

func (a *Agent) ledgerWith(ctx context.Context, req Request, text string, planned *runner.Decomposition) (Answer, error) {
	if a.lane == nil {
		return Answer{Text: "Данные 1С в этой установке не подключены."}, nil
	}
	if !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		ans := Answer{Text: "Данные 1С доступны только сотрудникам с доступом к учёту. Если он вам нужен, обратитесь к администратору бота."}
		ans.Debug.Degraded = []string{"ledger_access_denied"}
		return ans, nil
	}
	var res runner.Result
	switch {
	case req.Command == "" && planned != nil:
		res = a.lane.Run(ctx, *planned)
	case req.Command == "drill":
		if p, ok := ledger.ParsePress(text); ok {
			return a.press(ctx, req, p)
		}
		if strings.HasPrefix(text, ledger.ExportPrefix) || strings.HasPrefix(text, ledger.ChoicePrefix) {
			return staleLedgerButton(), nil // a button of before (x:last, c:<index>) or forged data
		}
		r, err := a.lane.Drill(ctx, text)
		switch {
		case errors.Is(err, runner.ErrStaleDrill):
			return staleDrillButton(), nil
		case errors.Is(err, runner.ErrBadDrill):
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
	return a.ledgerAnswer(ctx, req, res), nil
}

// ledgerAnswer is a lane result as the answer, with the debug payload. A result with choice or
// export buttons is kept under a fresh id in the chat's scope first, and the buttons carry the
// id: each is bound to this answer, whatever is asked after it. When it cannot be kept (the
// store is down) the answer goes without those buttons.
func (a *Agent) ledgerAnswer(ctx context.Context, req Request, res runner.Result) Answer {
	id, kept := "", true
	if ledger.Bound(res) {
		id, kept = a.keep(ctx, req, res)
	}
	ans := answer(ledger.Reply(res, id))
	ans.Intent = string(res.Intent)
	dbg := res.Debug
	ans.Debug.Ledger = &dbg
	ans.Debug.Result = &res
	if !kept {
		ans.Debug.Degraded = append(ans.Debug.Degraded, "buttons_not_kept")
	}
	return ans
}

// resultKey is the store key of a result id: in the chat's scope, so that an id pressed (or
// forged) in another chat finds nothing. Everyone in a group with access to 1C may press a
// button under any answer of that group.
func resultKey(req Request, id string) string { return fmt.Sprintf("chat:%d:%s", req.ChatID, id) }

// keep stores res under a fresh id; "", false when the store failed.
func (a *Agent) keep(ctx context.Context, req Request, res runner.Result) (string, bool) {
	data, err := ledger.Encode(res)
	if err != nil {
		a.log.ErrorContext(ctx, "ledger result not encoded", "err", err)
		return "", false
	}
	id := ledger.NewID()
	sctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
	defer cancel()
	if err := a.results.Put(sctx, resultKey(req, id), data); err != nil {
		a.log.WarnContext(ctx, "ledger result not kept", "chat_id", req.ChatID, "err", err)
		return "", false
	}
	return id, true
}

// press answers a choice or export button with the result it is bound to.
func (a *Agent) press(ctx context.Context, req Request, p ledger.Press) (Answer, error) {
	sctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
	data, found, err := a.results.Get(sctx, resultKey(req, p.ID))
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		return Answer{}, fmt.Errorf("%w: button results: %w", ErrUnavailable, err)
	}
	if !found {
		return staleLedgerButton(), nil
	}
	res, err := ledger.Decode(data)
	if err != nil {
		a.log.WarnContext(ctx, "kept ledger result unreadable", "chat_id", req.ChatID, "err", err)
		return staleLedgerButton(), nil
	}
	if p.Export {
		return export(res)
	}
	d, ok := ledger.Choice(res, p.Candidate)
	if !ok {
		return staleLedgerButton(), nil
	}
	return a.ledgerAnswer(ctx, req, a.lane.Run(ctx, d)), nil
}

// staleLedgerButton answers a button whose result is no longer kept (expired, from another chat, or
// of a version that pointed at «the last result»), with a question to ask again.
func staleLedgerButton() Answer {
	return askAgain("Эта кнопка устарела: ответа, к которому она относится, больше нет.")
}

// staleDrillButton answers a drilldown button of an earlier version (runner.ErrStaleDrill), whose
// data named the recipe and the organization by position: run now, it could open another
// report or another organization's figures.
func staleDrillButton() Answer {
	return askAgain("Эта кнопка устарела: она осталась от прежней версии бота.")
}

// askAgain is a stale button's answer: why, and a question to ask again, also as a button.
func askAgain(why string) Answer {
	ans := Answer{Text: why + " Задайте вопрос заново — например, «кто нам должен на сегодня».",
		Buttons: []Button{{Text: "Кто нам должен на сегодня"}}}
	ans.Debug.Degraded = []string{"stale_button"}
	return ans
}

// errLedgerDenied: the requester may not see 1C data. The ledger_query tool returns it before
// touching the lane, so nothing of 1C reaches the facts.
var errLedgerDenied = errors.New("agent: 1C data is not available to this user")

// ledgerQuery is the planner's ledger_query tool: one whitelisted 1C recipe with the plan's
// filters, run as the ledger commands run, read as facts (the rows, their total and the scope
// of the figures).
func (a *Agent) ledgerQuery(ctx context.Context, req Request, question string, args understand.LedgerArgs) (facts.Payload, error) {
	if !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		return facts.Payload{}, errLedgerDenied
	}
	d, err := ledger.Decompose(question, args)
	if err != nil {
		return facts.Payload{}, err
	}
	res := a.lane.Run(ctx, d)
	if ctx.Err() != nil {
		return facts.Payload{}, ctx.Err()
	}
	return ledger.Facts(res)
}

// export sends a kept result as an Excel file, captioned with what the sheet holds.
func export(res runner.Result) (Answer, error) {
	if res.ResultMode == runner.Limited {
		return Answer{Text: "Выгружать нечего: в этом ответе нет строк из 1С."}, nil
	}
	data, err := res.XLSX()
	if err != nil {
		return Answer{}, fmt.Errorf("export: %w", err)
	}
	return Answer{Intent: string(res.Intent), Text: res.ExportCaption(),
		Document: &Document{Name: strings.ReplaceAll(res.RecipeID, ".", "_") + ".xlsx", Bytes: data, Caption: "Источник: " + res.Source}}, nil
}
