package agent

// Digests and alerts: what a subscription (agent/digest) delivers, made by the skills and
// answers a question gets — the morning digest is /rate and /keyrate, the weekly one /debts and
// /aging, the alerts read the same answers' figures — so that a digest says nothing a question
// would not, and obeys the same access.

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/digest"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/rates"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/ru"
)

var _ digest.Producer = (*Agent)(nil)

// maxAlertLines bounds the counterparties or contracts one alert names; the rest are counted.
const maxAlertLines = 10

// Digest makes one delivery of sub (digest.Producer): the answer to send, if any, and the state
// to keep for the next. state is what the previous delivery kept (nil before the first). An
// alert's first check keeps what it sees and sends nothing: it reports changes from then on.
// A subscriber who may no longer see the data gets digest.ErrDenied; a source that did not
// answer, digest.ErrUnavailable (the scheduler tries again later).
func (a *Agent) Digest(ctx context.Context, sub digest.Subscription, state []byte) (digest.Outcome, error) {
	start := a.now()
	rep, kept, err := a.produce(ctx, sub, state)
	if err != nil || rep.Text == "" {
		return digest.Outcome{State: kept}, err
	}
	ans, err := a.settleDigest(ctx, sub, rep, start)
	return digest.Outcome{Answer: ans, Send: true, State: kept}, err
}

// settleDigest is rep as the answer a subscription delivers: through the one exit, not
// remembered in the dialog.
func (a *Agent) settleDigest(ctx context.Context, sub digest.Subscription, rep skill.Reply, start time.Time) (api.Answer, error) {
	r, _ := commandRow(digest.CommandSubscribe)
	in := turn{req: api.Request{UserID: sub.UserID, ChatID: sub.ChatID, Group: sub.Group}, text: sub.Title(), start: start, usage: new(llm.Usage)}
	ans := reply(r, rep, api.Route{Source: "digest", Sure: true, Reasons: []string{"подписка " + sub.ID}})
	return a.exit(ctx, in, ans, nil)
}

// previewDigest is /digest: sub's digest now, as the skill asks for it.
func (a *Agent) previewDigest(ctx context.Context, sub digest.Subscription) (skill.Reply, error) {
	rep, _, err := a.produce(ctx, sub, nil)
	switch {
	case err == nil:
		return rep, nil
	case errors.Is(err, digest.ErrDenied):
		return skill.Text(ledger.DeniedText), nil
	}
	return skill.Reply{}, err
}

// produce is sub's delivery as a skill's reply ("" text: nothing to send) and the state to keep.
func (a *Agent) produce(ctx context.Context, sub digest.Subscription, state []byte) (skill.Reply, []byte, error) {
	switch {
	case sub.Kind.Ledger() && (a.books == nil || !a.access(sub.UserID, sub.ChatID)):
		return skill.Reply{}, nil, digest.ErrDenied
	case !sub.Kind.Ledger() && a.cbr == nil:
		return skill.Reply{}, nil, digest.ErrDenied
	}
	switch sub.Kind {
	case digest.Morning:
		rep, err := a.morningDigest(ctx, sub)
		return rep, nil, err
	case digest.Weekly:
		rep, err := a.weeklyDigest(ctx, sub)
		return rep, nil, err
	case digest.KeyRate:
		return a.keyRateAlert(ctx, state)
	case digest.Debtor:
		return a.debtorAlert(ctx, sub, state)
	case digest.Overdue:
		return a.overdueAlert(ctx, sub, state)
	}
	return skill.Reply{}, nil, fmt.Errorf("digest: unknown kind %q", sub.Kind)
}

// today is the day a digest is made for: today in Moscow, the calendar of the Bank of Russia
// and of the ledger's dates.
func (a *Agent) today() time.Time { return rates.Today(a.now()) }

// asCommand answers command cmd as sub's subscriber would ask it in the chat, with decision d
// (its kind set by the command's row): the path of a command, without the history.
func (a *Agent) asCommand(ctx context.Context, sub digest.Subscription, cmd string, d understand.Decision) (skill.Reply, error) {
	r, ok := commandRow(cmd)
	if !ok {
		return skill.Reply{}, fmt.Errorf("digest: no row answers /%s", cmd)
	}
	d.Kind, d.Sure = r.kind, true
	if rc, ok := ledger.CommandRecipe(cmd, "", d); ok {
		d.Recipe = rc
	}
	q := skill.Query{UserID: sub.UserID, ChatID: sub.ChatID, Group: sub.Group, Command: cmd, Decision: d}
	return a.ask(ctx, r, q)
}

// onToday is a decision that asks for today, said as a date: the answer names the day without
// noting that none was asked.
func (a *Agent) onToday() understand.Decision {
	t := a.today()
	return understand.Decision{Date: understand.Slot[time.Time]{Value: t, Text: t.Format("02.01.2006"), Set: true}}
}

// unavailableReply reports whether a reply says its source did not answer.
func unavailableReply(r skill.Reply) bool {
	return slices.ContainsFunc(r.Degraded, func(d string) bool { return strings.HasSuffix(d, "_unavailable") })
}

// morningDigest is /rate and /keyrate of today, one after the other.
func (a *Agent) morningDigest(ctx context.Context, sub digest.Subscription) (skill.Reply, error) {
	rts, err := a.asCommand(ctx, sub, "rate", understand.Decision{})
	if err != nil {
		return skill.Reply{}, err
	}
	key, err := a.asCommand(ctx, sub, "keyrate", understand.Decision{})
	if err != nil {
		return skill.Reply{}, err
	}
	if unavailableReply(rts) || unavailableReply(key) {
		return skill.Reply{}, fmt.Errorf("%w: the Bank of Russia", digest.ErrUnavailable)
	}
	head := fmt.Sprintf("**Утренняя сводка, %s**", a.today().Format("02.01.2006"))
	return joinReplies(head, rts, key), nil
}

// weeklyDigest is /debts and /aging of today, one after the other: the receivables with the
// largest debtors, then the debt by days overdue.
func (a *Agent) weeklyDigest(ctx context.Context, sub digest.Subscription) (skill.Reply, error) {
	debts, err := a.ledgerFigures(ctx, sub, "debts", a.onToday())
	if err != nil {
		return skill.Reply{}, err
	}
	aging, err := a.ledgerFigures(ctx, sub, "aging", a.onToday())
	if err != nil {
		return skill.Reply{}, err
	}
	head := fmt.Sprintf("**Сводка по дебиторке на %s**", a.today().Format("02.01.2006"))
	r := joinReplies(head, debts.reply, aging.reply)
	// The buttons: the largest debtors' drilldowns and each list's export.
	r.Buttons = nil
	for _, b := range debts.reply.Buttons {
		if b.Data != "" {
			r.Buttons = append(r.Buttons, b)
		}
	}
	for _, b := range aging.reply.Buttons {
		if strings.HasPrefix(b.Data, ledger.ExportPrefix) {
			b.Text, b.SameRow = "Выгрузить в Excel: по срокам", false
			r.Buttons = append(r.Buttons, b)
		}
	}
	return r, nil
}

// joinReplies is head, then each reply with its footnotes numbered after the ones before.
func joinReplies(head string, reps ...skill.Reply) skill.Reply {
	out := skill.Reply{Text: head}
	for _, r := range reps {
		out.Text += "\n\n" + phrase.Renumber(r.Text, len(out.Sources))
		out.Sources = append(out.Sources, r.Sources...)
		out.Calls = append(out.Calls, r.Calls...)
		out.Degraded = append(out.Degraded, r.Degraded...)
		out.Buttons = append(out.Buttons, r.Buttons...)
		out.Recipe = cmp.Or(out.Recipe, r.Recipe)
	}
	return out
}

// ledgerAnswer is a 1C command's reply with the result behind it.
type ledgerAnswer struct {
	reply  skill.Reply
	result *runner.Result
}

// ledgerFigures answers 1C command cmd with d as sub's subscriber: the reply and its result.
// A subscriber without access is digest.ErrDenied; 1C not answering, digest.ErrUnavailable.
func (a *Agent) ledgerFigures(ctx context.Context, sub digest.Subscription, cmd string, d understand.Decision) (ledgerAnswer, error) {
	rep, err := a.asCommand(ctx, sub, cmd, d)
	if err != nil {
		return ledgerAnswer{}, err
	}
	if slices.Contains(rep.Degraded, "ledger_access_denied") {
		return ledgerAnswer{}, digest.ErrDenied
	}
	res, _ := rep.Trace["result"].(*runner.Result)
	if res == nil {
		return ledgerAnswer{}, fmt.Errorf("%w: 1C gave no result for /%s", digest.ErrUnavailable, cmd)
	}
	if res.ResultMode == runner.Limited && res.LimitedReason != runner.ReasonEmptyMatch {
		return ledgerAnswer{}, fmt.Errorf("%w: 1C answered /%s with %s: %s", digest.ErrUnavailable, cmd, res.LimitedReason, res.Message)
	}
	return ledgerAnswer{reply: rep, result: res}, nil
}

// rows are every row of a result, not only those its answer shows.
func (l ledgerAnswer) rows() []runner.Row {
	if len(l.result.All) > 0 {
		return l.result.All
	}
	return l.result.Rows
}

// source is the footnote of the figures an alert names: the answer's first.
func (l ledgerAnswer) source() []api.Source {
	if len(l.reply.Sources) == 0 {
		return nil
	}
	return l.reply.Sources[:1]
}

// keyRateState is what the key-rate alert keeps: the rate it saw, and since when it was in force.
type keyRateState struct {
	Rate  string `json:"rate"`
	Since string `json:"since"`
}

// keyRateAlert is /keyrate when the rate in force differs from the one the previous check saw.
func (a *Agent) keyRateAlert(ctx context.Context, state []byte) (skill.Reply, []byte, error) {
	t := a.today()
	k := a.cbr.KeyRate(ctx, ru.Period{From: t, To: t, Kind: ru.KindDay})
	rate, since, ok := k.Current()
	if !ok || k.Rates.Stale {
		// Served from the cache while the Bank is down: an old value is no change.
		return skill.Reply{}, nil, fmt.Errorf("%w: the Bank of Russia's key rate: %v", digest.ErrUnavailable, k.Err)
	}
	seen, _ := json.Marshal(keyRateState{Rate: rate.String(), Since: since.Format(time.DateOnly)})
	var prev keyRateState
	if state == nil || json.Unmarshal(state, &prev) != nil {
		return skill.Reply{}, seen, nil // the first check: what the rate is now
	}
	if p, err := decimal.NewFromString(prev.Rate); err == nil && p.Equal(rate) {
		return skill.Reply{}, nil, nil
	}
	rep := k.Reply()
	rep.Text = "**Банк России изменил ключевую ставку**\n\n" + rep.Text
	return rep, seen, nil
}

// debtorAlert names the counterparties whose debt to us (/debts, as «Кто нам должен» nets it)
// is above the threshold now and was not at the previous check.
func (a *Agent) debtorAlert(ctx context.Context, sub digest.Subscription, state []byte) (skill.Reply, []byte, error) {
	l, err := a.ledgerFigures(ctx, sub, "debts", a.onToday())
	if err != nil {
		return skill.Reply{}, nil, err
	}
	above := map[string]runner.Row{}
	for _, r := range l.rows() {
		if int64(r.Amount) > sub.Threshold {
			above[cmp.Or(r.Ref, r.Name)] = r
		}
	}
	seen, _ := json.Marshal(slices.Sorted(maps.Keys(above)))
	var prev []string
	if state == nil || json.Unmarshal(state, &prev) != nil {
		return skill.Reply{}, seen, nil
	}
	var fresh []runner.Row
	for key, r := range above {
		if !slices.Contains(prev, key) {
			fresh = append(fresh, r)
		}
	}
	if len(fresh) == 0 {
		return skill.Reply{}, seen, nil // the ones that fell below are forgotten: passing again is news
	}
	slices.SortFunc(fresh, func(x, y runner.Row) int { return cmp.Compare(y.Amount, x.Amount) })
	var b strings.Builder
	fmt.Fprintf(&b, "**Долг перед нами превысил %s** — на %s [1]:\n\n", ru.Money(sub.Threshold), a.today().Format("02.01.2006"))
	for i, r := range fresh {
		if i == maxAlertLines {
			fmt.Fprintf(&b, "- …и ещё %s\n", ru.Count(len(fresh)-i, "контрагент", "контрагента", "контрагентов"))
			break
		}
		fmt.Fprintf(&b, "- %s — %s\n", md.Escape(r.Name), r.Amount)
	}
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: l.source(), Recipe: l.reply.Recipe,
		Buttons: []skill.Button{{Text: "Кто нам должен больше " + digest.Roubles(sub.Threshold)}}}, seen, nil
}

// overdueAlert names the debts to us (per contract, or per counterparty where 1C sums them so)
// overdue by more than the subscription's days now (/aging past those days) that were not, or
// by less, at the previous check: each debt once, and again when more of it became overdue.
func (a *Agent) overdueAlert(ctx context.Context, sub digest.Subscription, state []byte) (skill.Reply, []byte, error) {
	d := a.onToday()
	d.OverdueDays = sub.Days
	l, err := a.ledgerFigures(ctx, sub, "aging", d)
	if err != nil {
		return skill.Reply{}, nil, err
	}
	ag := l.result.Aging
	if ag == nil && l.result.ResultMode != runner.Limited {
		return skill.Reply{}, nil, fmt.Errorf("%w: 1C's aging came without its intervals", digest.ErrUnavailable)
	}
	now := map[string]int64{}
	byKey := map[string]runner.Row{}
	for _, r := range l.rows() {
		if r.Ages == nil || ag == nil {
			continue
		}
		if past := int64(r.Ages.Asked(ag)); past > 0 {
			key := cmp.Or(r.PartyID, r.Name) + "/" + r.DealID
			now[key], byKey[key] = past, r
		}
	}
	seen, _ := json.Marshal(now)
	var prev map[string]int64
	if state == nil || json.Unmarshal(state, &prev) != nil {
		return skill.Reply{}, seen, nil
	}
	var fresh []string
	for key, past := range now {
		if past > prev[key] {
			fresh = append(fresh, key)
		}
	}
	if len(fresh) == 0 {
		return skill.Reply{}, seen, nil
	}
	slices.SortFunc(fresh, func(x, y string) int { return cmp.Compare(now[y]-prev[y], now[x]-prev[x]) })
	days := ru.Count(sub.Days, "день", "дня", "дней")
	var b strings.Builder
	fmt.Fprintf(&b, "**Просрочено больше чем на %s** — новое на %s [1]:\n\n", days, a.today().Format("02.01.2006"))
	for i, key := range fresh {
		if i == maxAlertLines {
			fmt.Fprintf(&b, "- …и ещё %s\n", ru.Count(len(fresh)-i, "долг", "долга", "долгов"))
			break
		}
		r := byKey[key]
		who := md.Escape(r.Name)
		if r.Deal != "" {
			who += ", " + md.Escape(r.Deal)
		}
		fmt.Fprintf(&b, "- %s: %s", who, ru.Money(now[key]))
		if prev[key] > 0 {
			fmt.Fprintf(&b, " (было %s)", ru.Money(prev[key]))
		}
		b.WriteString("\n")
	}
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: l.source(), Recipe: l.reply.Recipe,
		Buttons: []skill.Button{{Text: fmt.Sprintf("Кто должен нам больше %d дней", sub.Days)}}}, seen, nil
}
