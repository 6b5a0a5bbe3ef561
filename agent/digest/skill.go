package digest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/ru"
)

// Store keeps subscriptions and their runs. *history.RedisSubscriptions and
// *history.MemorySubscriptions satisfy it.
type Store interface {
	Put(ctx context.Context, chatID int64, id string, data []byte, max int) error
	Delete(ctx context.Context, chatID int64, ids []string, forget bool) (int, error)
	Chat(ctx context.Context, chatID int64) ([]history.Subscription, error)
	All(ctx context.Context) ([]history.Subscription, error)
	SetZone(ctx context.Context, chatID int64, zone string) error
	Zone(ctx context.Context, chatID int64) (string, error)
	Zones(ctx context.Context) (map[int64]string, error)
	Claim(ctx context.Context, chatID int64, id string, slot int64, ttl time.Duration) (*history.SlotRun, error)
	Renew(ctx context.Context, r *history.SlotRun) (bool, error)
	Finish(ctx context.Context, r *history.SlotRun, state []byte) (bool, error)
	Release(ctx context.Context, r *history.SlotRun) error
}

// The commands of the skill, and the prefixes of its buttons' data (the bot sends a press as
// the command with the data as its text).
const (
	CommandSubscribe     = "subscribe"
	CommandSubscriptions = "subscriptions"
	CommandUnsubscribe   = "unsubscribe"
	// CommandDigest sends a digest now: /digest утро, /digest неделя.
	CommandDigest = "digest"

	SubscribePrefix   = "s:" // s:<arguments of /subscribe>
	UnsubscribePrefix = "u:" // u:<subscription id>
	DigestPrefix      = "n:" // n:<kind>
)

// Commands are the skill's commands.
var Commands = []string{CommandSubscribe, CommandSubscriptions, CommandUnsubscribe, CommandDigest}

// DefaultMaxPerChat is how many subscriptions one chat may have.
const DefaultMaxPerChat = 10

// Options tune the skill.
type Options struct {
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Zone is the time zone of a chat that set none; Moscow when nil.
	Zone *time.Location
	// LedgerFor reports whether 1C is connected and its figures open to userID in chatID (the
	// agent's ledger access); nil = they are not.
	LedgerFor func(userID, chatID int64) bool
	// Rates: the Bank of Russia is connected.
	Rates bool
	// Produce makes a digest of sub as the scheduler would (the agent's producer): /digest
	// sends it now. nil: /digest says digests are not made here.
	Produce func(ctx context.Context, sub Subscription) (skill.Reply, error)
	// MaxPerChat bounds the subscriptions of one chat (default DefaultMaxPerChat).
	MaxPerChat int
	// StoreTimeout bounds each read and write of the store (default 2s).
	StoreTimeout time.Duration
	Logger       *slog.Logger
}

// Skill answers /subscribe, /subscriptions, /unsubscribe and /digest, and the buttons of their
// replies. It is safe for concurrent use.
type Skill struct {
	skill.NoTools
	store Store
	opts  Options
}

var _ skill.Skill = (*Skill)(nil)

// New is the skill over store.
func New(store Store, o Options) *Skill {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Zone == nil {
		o.Zone = moscow()
	}
	if o.LedgerFor == nil {
		o.LedgerFor = func(int64, int64) bool { return false }
	}
	o.MaxPerChat = cmp.Or(max(o.MaxPerChat, 0), DefaultMaxPerChat)
	o.StoreTimeout = cmp.Or(max(o.StoreTimeout, 0), 2*time.Second)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Skill{store: store, opts: o}
}

// Answer answers the skill's commands (q.Command, with q.Text its arguments or a button's data).
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	text := strings.TrimSpace(q.Text)
	var r skill.Reply
	var err error
	switch q.Command {
	case CommandSubscriptions:
		r, err = s.list(ctx, q, "")
	case CommandUnsubscribe:
		r, err = s.unsubscribe(ctx, q, text)
	case CommandDigest:
		r, err = s.now(ctx, q, strings.TrimPrefix(text, DigestPrefix))
	case "":
		r, err = s.phrased(ctx, q, text)
	default:
		r, err = s.subscribe(ctx, q, strings.TrimPrefix(text, SubscribePrefix))
	}
	r.Scenario = cmp.Or(r.Scenario, skill.Command)
	return r, err
}

// The everyday phrasings of the commands: the list («мои подписки»), stopping («отпишись от
// утренней сводки», «отпиши от всего»); the rest asks to subscribe («присылай курсы каждое
// утро в 9», «сообщай, если кто-то должен больше миллиона»).
var (
	listPhrased  = regexp.MustCompile(`(^|\s)(мои|наши|какие)(\s+(у\s+(меня|нас)|есть))?\s+подписк`)
	unsubPhrased = regexp.MustCompile(`отпиш|отписа|отмени\p{L}*\s+(все\s+)?(подписк|рассылк|утренн)`)
	allPhrased   = regexp.MustCompile(`(^|\s)(все|всего|всех|всё)(\s|$)`)
)

// phrased answers a message understood as one of the skill's commands said in words.
func (s *Skill) phrased(ctx context.Context, q skill.Query, text string) (skill.Reply, error) {
	t := fold(text)
	switch {
	case listPhrased.MatchString(t):
		return s.list(ctx, q, "")
	case unsubPhrased.MatchString(t):
		kinds := kindsOf(t)
		if allPhrased.MatchString(t) && len(kinds) == 0 {
			return s.unsubscribe(ctx, q, "все")
		}
		if len(kinds) == 0 {
			return s.unsubscribe(ctx, q, "")
		}
		return s.unsubscribe(ctx, q, t)
	}
	return s.subscribe(ctx, q, t)
}

// storeFailed is a store error as the skill returns it: the front end says the data is
// unavailable.
func storeFailed(err error) error { return skill.Unavailable("subscriptions", err) }

func (s *Skill) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.opts.StoreTimeout)
}

// zone is the chat's time zone and its IANA name.
func (s *Skill) zone(ctx context.Context, chatID int64) (*time.Location, string, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	name, err := s.store.Zone(ctx, chatID)
	if err != nil {
		return nil, "", storeFailed(err)
	}
	loc, name := zoneOrDefault(name, s.opts.Zone)
	return loc, name, nil
}

// The texts of refusals.
const (
	ledgerDenied = "Сводки и уведомления по данным 1С в этот чат не отправляю: здесь нет доступа к данным учёта. " +
		"Если он нужен, обратитесь к администратору бота. Курсы ЦБ и ключевая ставка доступны: /subscribe утро 9:00, /subscribe ставка."
	ratesMissing = "Курсы Банка России в этой установке не подключены — подписаться на них нельзя."
	tooMany      = "В этом чате уже %s — больше нельзя. Лишние отмените: /unsubscribe."
	morningDays  = "Утренняя сводка приходит каждый день или по будням (/subscribe утро 9:00 будни); по дню недели — недельная сводка по дебиторке: /subscribe неделя пн 10:00."
)

// help is /subscribe without arguments: what the chat may subscribe to, a button for each.
func (s *Skill) help(ctx context.Context, q skill.Query) (skill.Reply, error) {
	loc, name, err := s.zone(ctx, q.ChatID)
	if err != nil {
		return skill.Reply{}, err
	}
	ledger := s.opts.LedgerFor(q.UserID, q.ChatID)
	var b strings.Builder
	b.WriteString("**Сводки и уведомления** в этот чат:\n\n")
	var buttons []skill.Button
	if s.opts.Rates {
		b.WriteString("- **утренняя сводка** — курсы ЦБ и ключевая ставка с изменением: /subscribe утро 9:00 (по будням — /subscribe утро 9:00 будни)\n")
		b.WriteString("- **ключевая ставка** — сообщу, когда Банк России её изменит: /subscribe ставка\n")
		buttons = append(buttons, skill.Button{Text: "Утро 9:00", Data: SubscribePrefix + "утро 9:00"},
			skill.Button{Text: "Ставка", Data: SubscribePrefix + "ставка", SameRow: true})
	}
	if ledger {
		b.WriteString("- **недельная сводка по дебиторке** — кто нам должен, крупнейшие должники, просрочка по срокам: /subscribe неделя пн 10:00\n")
		b.WriteString("- **должник** — когда долг контрагента перед нами превысит порог: /subscribe должник 1000000\n")
		b.WriteString("- **просрочка** — когда оплата окажется просрочена больше N дней: /subscribe просрочка 30\n")
		buttons = append(buttons, skill.Button{Text: "Неделя пн 10:00", Data: SubscribePrefix + "неделя пн 10:00"},
			skill.Button{Text: "Должник > 1 млн", Data: SubscribePrefix + "должник 1 млн"},
			skill.Button{Text: "Просрочка > 30 дн.", Data: SubscribePrefix + "просрочка 30", SameRow: true})
	}
	if !s.opts.Rates && !ledger {
		return skill.Text("Подписываться здесь не на что: курсы Банка России в этой установке не подключены, а данных 1С этому чату не видно."), nil
	}
	if !ledger {
		b.WriteString("\nСводки по данным 1С в этот чат не отправляю: здесь нет доступа к данным учёта.\n")
	}
	fmt.Fprintf(&b, "\nВремя — по часам чата: %s; сменить — /subscribe пояс Asia/Yekaterinburg (или город: «пояс Новосибирск»). "+
		"Уведомления проверяю каждый час с %d:00 до %d:00. Подписки чата — /subscriptions, отписаться — /unsubscribe.",
		md.Escape(zoneName(name, loc, s.opts.Now())), AlertFirst, AlertLast)
	return skill.Reply{Text: b.String(), Buttons: buttons}, nil
}

// subscribe answers /subscribe with arguments.
func (s *Skill) subscribe(ctx context.Context, q skill.Query, text string) (skill.Reply, error) {
	if text == "" {
		return s.help(ctx, q)
	}
	r, problem := parseSubscribe(text)
	if problem != "" {
		return skill.Text(problem), nil
	}
	if r.kind == Morning && r.weekdaySet {
		return skill.Text(morningDays), nil
	}
	switch {
	case r.kind.Ledger() && !s.opts.LedgerFor(q.UserID, q.ChatID):
		return skill.Reply{Text: ledgerDenied, Degraded: []string{"ledger_access_denied"}}, nil
	case (r.kind == Morning || r.kind == KeyRate) && !s.opts.Rates:
		return skill.Text(ratesMissing), nil
	}
	var lines []string
	if r.zone != nil {
		ctx, cancel := s.bounded(ctx)
		err := s.store.SetZone(ctx, q.ChatID, r.zoneName)
		cancel()
		if err != nil {
			return skill.Reply{}, storeFailed(err)
		}
		lines = append(lines, "Часовой пояс чата: "+md.Escape(zoneName(r.zoneName, r.zone, s.opts.Now()))+".")
	}
	if r.kind == "" {
		return s.list(ctx, q, strings.Join(lines, " "))
	}
	loc, _, err := s.zone(ctx, q.ChatID)
	if err != nil {
		return skill.Reply{}, err
	}
	now := s.opts.Now()
	sub := Subscription{Kind: r.kind, UserID: q.UserID, ChatID: q.ChatID, Group: q.Group, Hour: r.hour, Minute: r.minute,
		Weekday: r.weekday, Workdays: r.workdays, Threshold: r.threshold, Days: r.days, Since: now}
	if r.kind != Weekly {
		sub.Weekday = 0
	}
	sub.ID = IDOf(sub)
	data, err := Encode(sub)
	if err != nil {
		return skill.Reply{}, fmt.Errorf("digest: encode: %w", err)
	}
	sctx, cancel := s.bounded(ctx)
	err = s.store.Put(sctx, q.ChatID, sub.ID, data, s.opts.MaxPerChat)
	cancel()
	switch {
	case errors.Is(err, history.ErrTooManySubscriptions):
		return skill.Text(fmt.Sprintf(tooMany, ru.Count(s.opts.MaxPerChat, "подписка", "подписки", "подписок"))), nil
	case err != nil:
		return skill.Reply{}, storeFailed(err)
	}
	lines = append(lines, confirmation(sub, now, loc))
	return skill.Text(strings.Join(lines, "\n\n")), nil
}

// confirmation says what a chat subscribed to, and when it comes.
func confirmation(sub Subscription, now time.Time, loc *time.Location) string {
	var b strings.Builder
	switch sub.Kind {
	case Morning, Weekly:
		fmt.Fprintf(&b, "Готово: **%s** — %s по часам чата, %s. Ближайшая — %s.", ru.LowerFirst(sub.Title()), sub.Schedule(),
			sub.Contents(), when(sub.Next(now, loc), loc))
	case KeyRate:
		b.WriteString("Готово: сообщу в этот чат, когда **Банк России изменит ключевую ставку**.")
	case Debtor:
		fmt.Fprintf(&b, "Готово: сообщу, когда **долг контрагента перед нами превысит %s** (долг — как в «Кто нам должен»). "+
			"Те, чей долг выше уже сейчас, не в счёт: их покажет вопрос «кто нам должен больше %s».",
			ru.Money(sub.Threshold), Roubles(sub.Threshold))
	case Overdue:
		fmt.Fprintf(&b, "Готово: сообщу, когда **долг покупателя по договору окажется просрочен больше чем на %s**, — о каждом договоре один раз "+
			"(и снова, если просроченная сумма по нему вырастет). Что просрочено уже сейчас — «кто должен нам больше %d дней».",
			ru.Count(sub.Days, "день", "дня", "дней"), sub.Days)
	}
	if sub.Kind.Alert() {
		fmt.Fprintf(&b, " Проверяю каждый час с %d:00 до %d:00 по часам чата.", AlertFirst, AlertLast)
	}
	b.WriteString("\n\nПодписки чата — /subscriptions, отменить эту — /unsubscribe " + sub.Short() + ".")
	return b.String()
}

// list is /subscriptions: the chat's subscriptions, when each comes, a button to cancel each
// and to get a digest now; note goes first.
func (s *Skill) list(ctx context.Context, q skill.Query, note string) (skill.Reply, error) {
	subs, err := s.chat(ctx, q.ChatID)
	if err != nil {
		return skill.Reply{}, err
	}
	loc, name, err := s.zone(ctx, q.ChatID)
	if err != nil {
		return skill.Reply{}, err
	}
	now := s.opts.Now()
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n\n")
	}
	if len(subs) == 0 {
		b.WriteString("В этом чате подписок нет. Подписаться — /subscribe.")
		return skill.Text(b.String()), nil
	}
	fmt.Fprintf(&b, "**Подписки этого чата**, часовой пояс — %s:\n\n", md.Escape(zoneName(name, loc, now)))
	var buttons []skill.Button
	for _, sub := range subs {
		fmt.Fprintf(&b, "- **%s** — %s", sub.Title(), sub.Schedule())
		if !sub.Kind.Alert() {
			fmt.Fprintf(&b, "; ближайшая — %s", when(sub.Next(now, loc), loc))
			buttons = append(buttons, skill.Button{Text: "Прислать сейчас: " + sub.Short(), Data: DigestPrefix + string(sub.Kind)})
		}
		b.WriteString("\n")
		buttons = append(buttons, skill.Button{Text: "Отписаться: " + sub.Short(), Data: UnsubscribePrefix + sub.ID})
	}
	fmt.Fprintf(&b, "\nУведомления проверяю каждый час с %d:00 до %d:00. Отменить — /unsubscribe и что отменить (/unsubscribe утро, /unsubscribe все) или кнопкой.", AlertFirst, AlertLast)
	return skill.Reply{Text: b.String(), Buttons: buttons}, nil
}

// chat is the chat's subscriptions; one the skill cannot read is logged and left out.
func (s *Skill) chat(ctx context.Context, chatID int64) ([]Subscription, error) {
	ctx, cancel := s.bounded(ctx)
	defer cancel()
	stored, err := s.store.Chat(ctx, chatID)
	if err != nil {
		return nil, storeFailed(err)
	}
	subs := make([]Subscription, 0, len(stored))
	for _, e := range stored {
		sub, err := Decode(e.ChatID, e.ID, e.Data)
		if err != nil {
			s.opts.Logger.WarnContext(ctx, "subscription unreadable", "chat_id", chatID, "id", e.ID, "err", err)
			continue
		}
		subs = append(subs, sub)
	}
	slices.SortStableFunc(subs, func(x, y Subscription) int {
		return cmp.Or(cmp.Compare(kindOrder(x.Kind), kindOrder(y.Kind)), cmp.Compare(x.Threshold, y.Threshold), cmp.Compare(x.Days, y.Days))
	})
	return subs, nil
}

// unsubscribe answers /unsubscribe: the subscriptions named, every one («все»), the one of a
// button, or, with nothing named, the list to choose from.
func (s *Skill) unsubscribe(ctx context.Context, q skill.Query, text string) (skill.Reply, error) {
	subs, err := s.chat(ctx, q.ChatID)
	if err != nil {
		return skill.Reply{}, err
	}
	if len(subs) == 0 {
		return skill.Text("В этом чате подписок нет — отменять нечего."), nil
	}
	var ids []string
	all := false
	if id, ok := strings.CutPrefix(text, UnsubscribePrefix); ok {
		for _, sub := range subs {
			if sub.ID == id {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			return s.list(ctx, q, "Этой подписки уже нет.")
		}
	} else {
		var problem string
		ids, all, problem = parseUnsubscribe(text, subs)
		switch {
		case problem != "":
			return skill.Text(problem), nil
		case text == "":
			return s.list(ctx, q, "Что отменить? Нажмите кнопку или напишите, например, /unsubscribe утро; всё сразу — /unsubscribe все.")
		case !all && len(ids) == 0:
			return s.list(ctx, q, "Такой подписки в этом чате нет.")
		}
	}
	if all {
		ids = nil
	}
	dctx, cancel := s.bounded(ctx)
	n, err := s.store.Delete(dctx, q.ChatID, ids, false)
	cancel()
	if err != nil {
		return skill.Reply{}, storeFailed(err)
	}
	if all {
		return skill.Text(fmt.Sprintf("Отменил все подписки этого чата (%d). Подписаться снова — /subscribe.", n)), nil
	}
	var names []string
	for _, sub := range subs {
		for _, id := range ids {
			if sub.ID == id {
				names = append(names, "**"+sub.Title()+"**")
			}
		}
	}
	return skill.Text("Отменил: " + strings.Join(names, ", ") + ". Остальные подписки — /subscriptions."), nil
}

// now answers /digest: the morning or the weekly digest now, as the chat's subscription (or
// the default one) would deliver it.
func (s *Skill) now(ctx context.Context, q skill.Query, text string) (skill.Reply, error) {
	t := fold(text)
	kind := Kind(t)
	if kind != Morning && kind != Weekly {
		kinds := kindsOf(t)
		if len(kinds) != 1 || kinds[0].Alert() {
			return skill.Text("Прислать сейчас могу утреннюю сводку или недельную по дебиторке: /digest утро, /digest неделя."), nil
		}
		kind = kinds[0]
	}
	switch {
	case kind.Ledger() && !s.opts.LedgerFor(q.UserID, q.ChatID):
		return skill.Reply{Text: ledgerDenied, Degraded: []string{"ledger_access_denied"}}, nil
	case kind == Morning && !s.opts.Rates:
		return skill.Text(ratesMissing), nil
	case s.opts.Produce == nil:
		return skill.Text("Сводки в этой установке не собираются."), nil
	}
	sub := Subscription{Kind: kind, ChatID: q.ChatID, UserID: q.UserID, Group: q.Group, Since: s.opts.Now()}
	sub.ID = IDOf(sub)
	return s.opts.Produce(ctx, sub)
}
