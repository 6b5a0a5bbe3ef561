package runner

import (
	"context"
	"fmt"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The base's accounting begins with its first posting: a BP base usually starts with «Ввод
// остатков» on the eve of a year, and nothing is posted before it. An empty answer about a day
// before that is no figure — the base simply has no data then — so it says so instead of «никто
// не должен»; a period that only begins before it gets a line saying where the data starts.

// qFirstPosting is integrations/onec/queries_register.go's template: МИНИМУМ(Период) of the
// register's active records.
const qFirstPosting = "register.first_posting"

// firstPosting reads the day of the register's first posting, with the catalogs. It is zero
// when 1C does not tell — the query failed, or the register is empty (NULL) — and then no
// answer mentions it: an answer never waits on it.
func (l *Lane) firstPosting(ctx context.Context, dbg *Debug) time.Time {
	res, err := l.exec(ctx, dbg, qFirstPosting, onec.Params{})
	if err != nil {
		l.opts.Logger.WarnContext(ctx, "1C first posting", "err", err)
		return time.Time{}
	}
	if len(res.FirstPosting) != 1 || res.FirstPosting[0].Period.IsZero() {
		return time.Time{}
	}
	p := res.FirstPosting[0].Period // 1C's local time, as the lane's days are
	return time.Date(p.Year(), p.Month(), p.Day(), 0, 0, 0, 0, ru.Moscow)
}

// noDataWhat is what an empty answer before the first posting does not deny, by recipe.
var noDataWhat = map[recipe.Name]string{
	recipe.Receivables:          "нам никто не был должен",
	recipe.Payables:             "мы никому не были должны",
	recipe.AccountBalance:       "остатка не было",
	recipe.OpenItemsByParty:     "открытых позиций не было",
	recipe.OpenItemsByContract:  "открытых позиций не было",
	recipe.OpenContracts:        "незакрытых договоров не было",
	recipe.DocumentsFormBalance: "остатка не было",
	recipe.DocumentsByParty:     "документов не было",
	recipe.DocumentsByContract:  "документов не было",
	recipe.BankOpsByParty:       "операций не было",
	recipe.TurnoverSheet:        "оборотов не было",
	recipe.AccountCard:          "проводок не было",
	recipe.ReceivablesAging:     "нам никто не был должен",
	recipe.PayablesAging:        "мы никому не были должны",
	recipe.CounterpartyCard:     "расчётов с ним не было",
	recipe.OffsetCandidates:     "встречных долгов не было",
}

// beforeData is the answer for the day of the base's first posting first: an empty answer
// about a day (or a whole period) before it says that the base has no data then; a period that
// only begins before it notes where the data starts, figures or not. Answers on and after that
// day are left as they are, and so is every answer when the day is unknown.
func beforeData(res Result, first time.Time) Result {
	if first.IsZero() {
		return res
	}
	empty := res.ResultMode == Limited && res.LimitedReason == ReasonEmptyMatch
	if res.ResultMode == Limited && !empty {
		return res // a question, a refusal or a failure: not about the data
	}
	day := ruDay(first)
	lead := fmt.Sprintf("В базе 1С нет данных раньше %s — это день первой проводки.", day)
	what := noDataWhat[res.Intent]
	if what == "" {
		what = "данных не было"
	}
	switch {
	case !res.AsOf.IsZero():
		if empty && res.AsOf.Before(first) {
			res.Message = fmt.Sprintf("%s На %s база ничего не покажет, и это не значит, что %s. Спросите на дату не раньше %s.",
				lead, ruDay(res.AsOf), what, day)
		}
	case !res.To.IsZero() && res.To.Before(first):
		if empty {
			res.Message = fmt.Sprintf("%s %s база ничего не покажет, и это не значит, что %s. Спросите за период, который заканчивается не раньше %s.",
				lead, periodOf(res), what, day)
		}
	case !res.From.IsZero() && res.From.Before(first), res.From.IsZero() && !res.To.IsZero():
		note := fmt.Sprintf("Данные в базе 1С начинаются с %s (первая проводка): за более раннюю часть периода их нет.", day)
		if empty {
			res.Message += " " + note
		} else {
			res.Notes = append(res.Notes, note)
		}
	}
	return res
}

// periodOf names a result's period at the start of a sentence: «За 01.01.2023 – 31.12.2023»,
// «За 15.03.2023», «По 31.12.2023» (documents up to a day).
func periodOf(res Result) string {
	switch {
	case res.From.IsZero():
		return "По " + ruDay(res.To)
	case res.From.Equal(res.To):
		return "За " + ruDay(res.From)
	}
	return fmt.Sprintf("За %s – %s", ruDay(res.From), ruDay(res.To))
}
