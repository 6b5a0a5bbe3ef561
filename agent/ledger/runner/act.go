package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The act of reconciliation («акт сверки взаиморасчётов») with one counterparty (optionally one
// of its contracts) over a period, as BP 3.0's АктСверкиВзаиморасчетов fills «по данным
// организации». Two whitelisted templates (integrations/onec/queries_reconcile.go) compute it in
// 1C — the opening and closing balance, and the period's lines, one per registrar — and
// agent/reconcile lays them out as the act, its XLSX and its PDF. The lane checks that the
// closing balance is the opening one plus the lines' debit less their credit, and refuses to
// show an act that does not add up (lines cut at the toolkit's limit, or 1C's two answers
// disagreeing) rather than show a wrong one.

// idReconcileBalances is the act's second template: its balances.
const idReconcileBalances = "address.reconciliation.balances"

// actPeriod is the act's period from the filters: both days as asked; a date alone («на
// 31.03») from the start of its quarter; nothing — the current quarter so far. The note says
// which, when the question did not.
func actPeriod(f recipe.Filters, today time.Time) (from, to time.Time, note string) {
	fromAsked, okFrom := parseDay(f.PeriodFrom)
	toAsked, okTo := parseDay(f.PeriodTo)
	asOf, okAsOf := parseDay(f.AsOfDate)
	switch {
	case okFrom && okTo:
		return fromAsked, toAsked, ""
	case okFrom:
		return fromAsked, today, fmt.Sprintf("Конец периода не указан — акт по сегодня, %s.", ruDay(today))
	case okTo || okAsOf:
		end := toAsked
		if !okTo {
			end = asOf
		}
		start := quarterStart(end)
		return start, end, fmt.Sprintf("Начало периода не указано — акт с начала квартала: %s – %s.", ruDay(start), ruDay(end))
	}
	start := quarterStart(today)
	return start, today, fmt.Sprintf("Период не указан — акт за текущий квартал по сегодня: %s – %s.", ruDay(start), ruDay(today))
}

// quarterStart is the first day of the quarter of t.
func quarterStart(t time.Time) time.Time {
	return time.Date(t.Year(), (t.Month()-1)/3*3+1, 1, 0, 0, 0, 0, t.Location())
}

// act runs the act's two templates and lays the act out.
func (l *Lane) act(ctx context.Context, res *Result, cats *catalogs, r recipe.Spec, f recipe.Filters, a anchors) Result {
	dbg := &res.Debug
	from, to, note := actPeriod(f, l.today())
	if to.Before(from) {
		return res.limited(ReasonMissingFilters, fmt.Sprintf("Период %s – %s перевёрнут: начало позже конца. Укажите период, например «за 1 квартал» или «с 01.01.2026 по 31.03.2026».",
			ruDay(from), ruDay(to)))
	}
	res.From, res.To = from, to
	res.Filters.PeriodFrom, res.Filters.PeriodTo = from.Format(time.DateOnly), to.Format(time.DateOnly)
	if note != "" {
		res.Notes = append(res.Notes, note)
	}
	if !cats.firstPosting.IsZero() && to.Before(cats.firstPosting) {
		// an act of zeros before the base's accounting begins would state «взаимная
		// задолженность отсутствует» of a time 1C knows nothing of: beforeData says so instead
		return res.limited(ReasonEmptyMatch, fmt.Sprintf("За %s – %s в базе 1С расчётов с %s нет.", ruDay(from), ruDay(to), a.party.Name))
	}
	dbg.AccountTokenNormalized = []string{"58", "60", "62", "66", "67", "76"}
	dbg.AccountScopeMatchStrategy = "code_or_subaccount"
	params := onec.Params{"НачалоПериода": onec.PeriodStartParam(from), "КонецПериода": onec.PeriodEndParam(to),
		"Организация": refParam(a.org, refOrg), "Контрагент": refParam(a.party, refParty), "Договор": refParam(a.contract, refContract)}
	bal, err := l.exec(ctx, dbg, idReconcileBalances, params)
	if err != nil {
		return l.failed(ctx, res, idReconcileBalances, err)
	}
	lines, err := l.exec(ctx, dbg, r.ID, params)
	if err != nil {
		return l.failed(ctx, res, r.ID, err)
	}
	if l.truncated(lines) {
		dbg.RuntimeReadiness = ReadyLiveLimited
		return res.limited(ReasonVisibilityGap, fmt.Sprintf("В акте сверки с %s за %s – %s больше %s — это предел одного запроса к 1С. "+
			"Обрезанный акт был бы неверным, поэтому я его не показываю. Возьмите период короче, например месяц.",
			a.party.Name, ruDay(from), ruDay(to), ru.Count(l.opts.MaxRows, "строки", "строк", "строк")))
	}
	if len(bal.CardTotals) != 1 || len(bal.Dropped) > 0 || len(lines.Dropped) > 0 {
		return l.failed(ctx, res, r.ID, fmt.Errorf("act: %d balance rows, dropped %v and %v", len(bal.CardTotals), bal.Dropped, lines.Dropped))
	}
	act := reconcile.Build(reconcile.Heading{Ours: party(a.org), Theirs: party(a.party), Contract: a.contract.Name, From: from, To: to},
		bal.CardTotals[0], lines.Reconciliation)
	if !act.Balanced() {
		d, c := act.Turnovers()
		l.opts.Logger.WarnContext(ctx, "1C act does not add up", "opening", act.Opening.Decimal(), "debit", d.Decimal(),
			"credit", c.Decimal(), "closing", act.Closing.Decimal())
		dbg.MatchFailureStage, dbg.MatchFailureReason = "compose", "closing balance differs from opening + debit − credit"
		return res.limited(ReasonVisibilityGap, fmt.Sprintf("Сальдо, которое 1С дала на %s (%s), не сходится со строками акта: "+
			"начальное %s плюс дебет %s минус кредит %s. Такой акт я не покажу — проверьте проведение документов за период в 1С.",
			ruDay(to), reconcile.Roubles(act.Closing), reconcile.Roubles(act.Opening), reconcile.Roubles(d), reconcile.Roubles(c)))
	}
	res.Account = "58, 60, 62, 66, 67, 76"
	act.Source = res.SourceTitle()
	if l.opts.RestrictedRights {
		act.Source += ". " + RightsNote // the files say it too: they travel without the chat's note
	}
	res.Act = &act
	var rows []Row
	for _, line := range act.Lines {
		rows = append(rows, Row{Name: line.Document(), Type: line.Kind, Number: line.Number, Date: line.Date.Format(time.DateOnly),
			Debit: line.Debit, Credit: line.Credit, Party: a.party.Name, PartyID: a.party.Ref, Amount: line.Debit - line.Credit})
	}
	res.All, res.Rows = rows, rows
	if len(rows) > f.Limit && f.Limit > 0 {
		res.Rows = rows[:f.Limit]
	}
	res.Summary = Summary{Rows: len(rows), TotalAmount: act.Closing, Currency: "RUB"}
	l.matched(res, lines.Fetched, len(rows))
	return *res
}

// party is one side of the act from the catalog: its name, ИНН and КПП.
func party(e recipe.Entity) reconcile.Party {
	return reconcile.Party{Name: e.Name, INN: e.INN, KPP: e.KPP}
}
