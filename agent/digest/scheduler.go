package digest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/history"
)

// Producer makes one delivery of a subscription: the agent's answers for a digest, an alert's
// check against the state its previous run left. *agent.Agent satisfies it.
type Producer interface {
	Digest(ctx context.Context, sub Subscription, state []byte) (Outcome, error)
}

// Outcome is what a run of a subscription delivers and keeps.
type Outcome struct {
	// Answer is sent when Send is set: an alert with nothing new sends nothing.
	Answer api.Answer
	Send   bool
	// State is the subscription's state to keep for its next run (an alert's last seen values);
	// nil keeps the one there is.
	State []byte
}

// Sender delivers an answer to a chat unasked, through the front end's send path and within
// its limits. An error that is api.ErrBlocked means the chat cannot receive messages from the
// bot any more. *bot.Bot satisfies it.
type Sender interface {
	Deliver(ctx context.Context, chatID, userID int64, ans api.Answer) error
}

// ErrDenied: the subscriber may no longer see what the subscription delivers (their access to
// 1C was taken away, or the source is no longer connected). The producer returns it; the
// scheduler tells the chat and cancels the subscription.
var ErrDenied = errors.New("digest: the chat may no longer see this subscription's data")

// ErrUnavailable: a source the delivery needs did not answer; the slot is tried again later.
var ErrUnavailable = api.ErrUnavailable

// SchedulerOptions tune the scheduler.
type SchedulerOptions struct {
	// Now is the clock; time.Now when nil. The scheduler waits with the time package's timers,
	// so under testing/synctest the bubble's clock drives it.
	Now func() time.Time
	// Every is how often it looks for due slots, at whole multiples of it (default a minute:
	// a 9:00 digest goes out at 9:00).
	Every time.Duration
	// CatchUp is how late a digest's slot is still delivered (replicas down at its time): later
	// than that it is skipped, and the next slot awaits (default 3h). Alerts are checked at the
	// latest hourly slot whenever that is.
	CatchUp time.Duration
	// Lease is how long a run holds its slot unless renewed (renewed before sending): the
	// longest a slot of a replica that died mid-run waits for another (default 5m).
	Lease time.Duration
	// Workers is how many runs go at once (default 2): digests share Telegram's send budget
	// with answers.
	Workers int
	// RunTimeout bounds one run: producing and delivering (default 3m).
	RunTimeout time.Duration
	// Grace is how long runs in progress when Run's context ends may go on (default 10s); a
	// slot cancelled then stays due for another replica.
	Grace time.Duration
	// Attempts is how many times a slot whose delivery failed is tried (default 3), the
	// second a minute after the first, the third five minutes after that.
	Attempts int
	// Zone is the time zone of a chat that set none; Moscow when nil.
	Zone   *time.Location
	Logger *slog.Logger
}

// Scheduler delivers subscriptions: every Every it computes each subscription's latest slot in
// its chat's zone and runs the ones not delivered yet, each under a fenced lease in the store,
// so that among replicas sharing the store each slot is delivered once.
type Scheduler struct {
	store Store
	prod  Producer
	send  Sender
	opts  SchedulerOptions
	log   *slog.Logger

	mu sync.Mutex
	// delivered caches the latest slot this instance knows was delivered, per subscription
	// ("<chat>/<id>"), so that a delivered slot costs no claim each minute.
	delivered map[string]int64
	// failed are the slots whose delivery failed here, with their attempts.
	failed map[string]failure
}

type failure struct {
	slot     int64
	attempts int
	next     time.Time
}

// NewScheduler is a scheduler over store, making deliveries with prod and sending them with
// send.
func NewScheduler(store Store, prod Producer, send Sender, o SchedulerOptions) *Scheduler {
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Every = cmp.Or(max(o.Every, 0), time.Minute)
	o.CatchUp = cmp.Or(max(o.CatchUp, 0), 3*time.Hour)
	o.Lease = cmp.Or(max(o.Lease, 0), 5*time.Minute)
	o.Workers = cmp.Or(max(o.Workers, 0), 2)
	o.RunTimeout = cmp.Or(max(o.RunTimeout, 0), 3*time.Minute)
	o.Grace = cmp.Or(max(o.Grace, 0), 10*time.Second)
	o.Attempts = cmp.Or(max(o.Attempts, 0), 3)
	if o.Zone == nil {
		o.Zone = moscow()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Scheduler{store: store, prod: prod, send: send, opts: o, log: o.Logger,
		delivered: map[string]int64{}, failed: map[string]failure{}}
}

// Run delivers due slots until ctx is done. Runs in progress when ctx ends get Grace to finish;
// a slot one could not deliver is left due for the next instance.
func (s *Scheduler) Run(ctx context.Context) {
	work, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	var mu sync.Mutex
	var grace *time.Timer
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		grace = time.AfterFunc(s.opts.Grace, cancel)
		mu.Unlock()
	})
	defer func() {
		stop()
		mu.Lock()
		if grace != nil {
			grace.Stop()
		}
		mu.Unlock()
	}()
	for {
		s.tick(ctx, work)
		every := int64(s.opts.Every)
		wait := time.Duration(every - s.opts.Now().UnixNano()%every)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
}

// job is one due slot of one subscription.
type job struct {
	sub  Subscription
	slot time.Time
	key  string
}

// Tick runs every slot due now and returns when they are done.
func (s *Scheduler) Tick(ctx context.Context) { s.tick(ctx, context.WithoutCancel(ctx)) }

// tick is Tick whose runs, once begun, go on under work rather than ctx.
func (s *Scheduler) tick(ctx, work context.Context) {
	if ctx.Err() != nil {
		return
	}
	jobs, err := s.due(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "digests: subscriptions unavailable", "err", err)
		return
	}
	g := new(errgroup.Group)
	g.SetLimit(s.opts.Workers)
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			s.run(ctx, work, j)
			return nil
		})
	}
	g.Wait()
}

// due are the subscriptions whose latest slot is due now.
func (s *Scheduler) due(ctx context.Context) ([]job, error) {
	stored, err := s.store.All(ctx)
	if err != nil {
		return nil, err
	}
	zones, err := s.store.Zones(ctx)
	if err != nil {
		return nil, err
	}
	now := s.opts.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	var jobs []job
	for _, e := range stored {
		sub, err := Decode(e.ChatID, e.ID, e.Data)
		if err != nil {
			s.log.WarnContext(ctx, "digests: subscription unreadable", "chat_id", e.ChatID, "id", e.ID, "err", err)
			continue
		}
		loc, _ := zoneOrDefault(zones[e.ChatID], s.opts.Zone)
		slot := sub.Latest(now, loc)
		if slot.IsZero() {
			continue
		}
		if !sub.Kind.Alert() && (slot.Before(sub.Since) || now.Sub(slot) > s.opts.CatchUp) {
			continue
		}
		key := strconv.FormatInt(e.ChatID, 10) + "/" + e.ID
		if s.delivered[key] >= slot.Unix() {
			continue
		}
		if f, ok := s.failed[key]; ok && f.slot == slot.Unix() && now.Before(f.next) {
			continue
		}
		jobs = append(jobs, job{sub: sub, slot: slot, key: key})
	}
	return jobs, nil
}

// run delivers one due slot: it claims the slot, produces the delivery, renews the claim,
// sends, and records the slot delivered. A failure leaves the slot due (tried again up to
// Attempts times); a chat that blocked the bot loses its subscriptions; a subscriber who may
// no longer see the data is told so and loses the subscription.
func (s *Scheduler) run(parent, work context.Context, j job) {
	sub, slot := j.sub, j.slot.Unix()
	log := s.log.With("chat_id", sub.ChatID, "subscription", sub.ID, "slot", j.slot.Format(time.RFC3339))
	r, err := s.store.Claim(parent, sub.ChatID, sub.ID, slot, s.opts.Lease)
	switch {
	case errors.Is(err, history.ErrDelivered):
		s.markDelivered(j.key, slot)
		return
	case err != nil:
		log.WarnContext(parent, "digests: claim failed", "err", err)
		return
	case r == nil:
		return // another replica delivers it
	}
	// A run that began goes on when the scheduler stops, for its grace, within its deadline.
	ctx, cancel := context.WithTimeout(work, s.opts.RunTimeout)
	defer cancel()
	out, err := s.prod.Digest(ctx, sub, r.State)
	switch {
	case errors.Is(err, ErrDenied):
		s.deny(ctx, log, sub)
		s.release(ctx, log, r)
		return
	case err != nil:
		s.retry(ctx, log, j, r, err)
		return
	}
	if out.Send {
		if ok, err := s.store.Renew(ctx, r); err != nil || !ok {
			// Lapsed (this process was paused) and perhaps taken: the one that holds it sends.
			log.WarnContext(ctx, "digests: the run lost its slot before sending", "err", err)
			return
		}
		err := s.send.Deliver(ctx, sub.ChatID, sub.UserID, out.Answer)
		switch {
		case errors.Is(err, api.ErrBlocked):
			s.blocked(ctx, log, sub)
			s.release(ctx, log, r)
			return
		case err != nil:
			s.retry(ctx, log, j, r, err)
			return
		}
	}
	bctx, bcancel := bookkeeping(ctx)
	ok, err := s.store.Finish(bctx, r, out.State)
	bcancel()
	switch {
	case err != nil:
		// Sent, not recorded: the next tick claims the slot again (at least once).
		log.WarnContext(ctx, "digests: delivered slot not recorded", "err", err)
		return
	case !ok:
		log.WarnContext(ctx, "digests: the run lost its slot while sending")
	}
	s.markDelivered(j.key, slot)
	s.mu.Lock()
	delete(s.failed, j.key)
	s.mu.Unlock()
	if out.Send {
		log.InfoContext(ctx, "digests: delivered", "kind", sub.Kind)
	}
}

// bookkeeping is the context of the store's writes that end a run: they are done even when
// the run was cancelled (the scheduler stopped mid-send), within a few seconds.
func bookkeeping(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
}

func (s *Scheduler) markDelivered(key string, slot int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delivered[key] = max(s.delivered[key], slot)
}

func (s *Scheduler) release(ctx context.Context, log *slog.Logger, r *history.SlotRun) {
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	if err := s.store.Release(ctx, r); err != nil {
		log.WarnContext(ctx, "digests: slot not released", "err", err)
	}
}

// retry leaves a slot whose delivery failed due for another attempt, or, after the last,
// records it delivered (logged as given up): the next slot is another day's digest, or
// another hour's check of an alert, whose state is still the last delivered one.
func (s *Scheduler) retry(ctx context.Context, log *slog.Logger, j job, r *history.SlotRun, cause error) {
	s.mu.Lock()
	f := s.failed[j.key]
	if f.slot != j.slot.Unix() {
		f = failure{slot: j.slot.Unix()}
	}
	f.attempts++
	f.next = s.opts.Now().Add(time.Minute * time.Duration(1+4*(f.attempts-1)))
	s.failed[j.key] = f
	s.mu.Unlock()
	if f.attempts < s.opts.Attempts {
		log.WarnContext(ctx, "digests: delivery failed; will try again", "attempt", f.attempts, "err", cause)
		s.release(ctx, log, r)
		return
	}
	log.ErrorContext(ctx, "digests: delivery failed; slot given up", "attempts", f.attempts, "err", cause)
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	if _, err := s.store.Finish(ctx, r, nil); err != nil {
		log.WarnContext(ctx, "digests: given-up slot not recorded", "err", err)
	}
	s.markDelivered(j.key, j.slot.Unix())
}

// blocked forgets a chat that cannot receive the bot's messages: its subscriptions and zone.
func (s *Scheduler) blocked(ctx context.Context, log *slog.Logger, sub Subscription) {
	ctx, cancel := bookkeeping(ctx)
	defer cancel()
	n, err := s.store.Delete(ctx, sub.ChatID, nil, true)
	if err != nil {
		log.WarnContext(ctx, "digests: subscriptions of a chat that blocked the bot not deleted", "err", err)
		return
	}
	log.InfoContext(ctx, "digests: the chat blocked the bot; unsubscribed", "subscriptions", n)
}

// deny tells the chat that a subscription is cancelled because its subscriber may no longer see
// its data, and cancels it.
func (s *Scheduler) deny(ctx context.Context, log *slog.Logger, sub Subscription) {
	why := "у этого чата больше нет доступа к данным 1С"
	if !sub.Kind.Ledger() {
		why = "данные Банка России в этой установке больше не подключены"
	}
	text := fmt.Sprintf("Подписка «%s» отменена: %s. Подписки чата — /subscriptions.", sub.Title(), why)
	if err := s.send.Deliver(ctx, sub.ChatID, sub.UserID, api.Answer{Scenario: api.Command, Text: text, Sources: []api.Source{}}); errors.Is(err, api.ErrBlocked) {
		s.blocked(ctx, log, sub)
		return
	} else if err != nil {
		log.WarnContext(ctx, "digests: notice of a cancelled subscription not delivered", "err", err)
	}
	dctx, cancel := bookkeeping(ctx)
	defer cancel()
	if _, err := s.store.Delete(dctx, sub.ChatID, []string{sub.ID}, false); err != nil {
		log.WarnContext(ctx, "digests: subscription the chat may not see not deleted", "err", err)
		return
	}
	log.InfoContext(ctx, "digests: access lost; unsubscribed")
}
