package digest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/internal/golden"
)

// skillNow is Monday, 2 March 2026, 11:20 in Moscow.
var skillNow = time.Date(2026, 3, 2, 8, 20, 0, 0, time.UTC)

// newSkill is the skill over an in-process store, with 1C open to user 1 in private and to the
// group -100, and produced digests that say which they are.
func newSkill(t *testing.T) (*Skill, *history.MemorySubscriptions) {
	t.Helper()
	store := history.NewMemorySubscriptions()
	s := New(store, Options{Now: func() time.Time { return skillNow }, Rates: true, MaxPerChat: 4,
		LedgerFor: func(userID, chatID int64) bool { return chatID == -100 || chatID == 1 && userID == 1 },
		Produce: func(_ context.Context, sub Subscription) (skill.Reply, error) {
			return skill.Text("сводка " + string(sub.Kind)), nil
		}})
	return s, store
}

func ask(t *testing.T, s *Skill, chatID, userID int64, cmd, text string) skill.Reply {
	t.Helper()
	r, err := s.Answer(t.Context(), skill.Query{ChatID: chatID, UserID: userID, Group: chatID < 0, Command: cmd, Text: text})
	if err != nil {
		t.Fatalf("/%s %s: %v", cmd, text, err)
	}
	if r.Scenario != skill.Command {
		t.Errorf("/%s %s: scenario %q", cmd, text, r.Scenario)
	}
	return r
}

func show(r skill.Reply) string {
	var b strings.Builder
	b.WriteString(r.Text)
	for _, btn := range r.Buttons {
		b.WriteString("\n[" + btn.Text + " → " + btn.Data + "]")
	}
	return b.String() + "\n"
}

// A private chat with 1C subscribes, lists and unsubscribes; the replies are golden.
func TestSkillDialog(t *testing.T) {
	s, store := newSkill(t)
	var out strings.Builder
	for _, step := range []struct{ cmd, text string }{
		{CommandSubscribe, ""},
		{CommandSubscribe, "утро 9:00"},
		{CommandSubscribe, "s:неделя пн 10:00"},
		{CommandSubscribe, "ставка"},
		{CommandSubscribe, "должник 1 млн"},
		{CommandSubscribe, "просрочка 30"}, // the fifth: over MaxPerChat
		{CommandSubscribe, "пояс Екатеринбург"},
		{CommandSubscriptions, ""},
		{CommandUnsubscribe, ""},
		{CommandUnsubscribe, "u:debtor:1000000"},
		{CommandUnsubscribe, "утро"},
		{CommandUnsubscribe, "просрочка 30"},
		{CommandDigest, "n:weekly"},
		{CommandUnsubscribe, "все"},
		{CommandSubscriptions, ""},
	} {
		out.WriteString("> /" + step.cmd + " " + step.text + "\n")
		out.WriteString(show(ask(t, s, 1, 1, step.cmd, step.text)) + "\n")
	}
	golden.Check(t, "testdata/dialog.golden", out.String())
	if z, _ := store.Zone(t.Context(), 1); z != "Asia/Yekaterinburg" {
		t.Errorf("zone = %q", z)
	}
	if all, _ := store.All(t.Context()); len(all) != 0 {
		t.Errorf("after /unsubscribe все: %v", all)
	}
}

// A group without access to 1C is refused the ledger's digests at subscribe time, is offered
// only the Bank of Russia's, and /digest of the receivables is refused too; the group with
// access subscribes, and its subscription remembers who subscribed.
func TestSkillLedgerAccess(t *testing.T) {
	s, store := newSkill(t)
	for _, text := range []string{"неделя пн 10:00", "должник 1000000", "просрочка 30"} {
		r := ask(t, s, -200, 5, CommandSubscribe, text)
		if r.Text != ledgerDenied {
			t.Errorf("%q in a group without 1C: %q", text, r.Text)
		}
	}
	if r := ask(t, s, -200, 5, CommandDigest, "неделя"); r.Text != ledgerDenied {
		t.Errorf("/digest неделя without 1C: %q", r.Text)
	}
	if r := ask(t, s, 2, 2, CommandSubscribe, "должник 1000000"); r.Text != ledgerDenied {
		t.Errorf("a private chat without 1C: %q", r.Text)
	}
	help := ask(t, s, -200, 5, CommandSubscribe, "")
	if strings.Contains(help.Text, "должник") || len(help.Buttons) != 2 || !strings.Contains(help.Text, "нет доступа к данным учёта") {
		t.Errorf("help without 1C:\n%s", show(help))
	}
	if all, _ := store.All(t.Context()); len(all) != 0 {
		t.Fatalf("refused subscriptions stored: %v", all)
	}
	ask(t, s, -200, 5, CommandSubscribe, "ставка")
	ask(t, s, -100, 7, CommandSubscribe, "неделя пт 17:00")
	all, _ := store.All(t.Context())
	if len(all) != 2 {
		t.Fatalf("stored: %v", all)
	}
	sub, err := Decode(all[1].ChatID, all[1].ID, all[1].Data) // -200 comes first
	if err != nil || sub.ChatID != -100 || sub.UserID != 7 || !sub.Group || sub.Weekday != time.Friday || sub.Hour != 17 || !sub.Since.Equal(skillNow) {
		t.Errorf("the group's subscription = %+v, %v", sub, err)
	}
}

// Without the Bank of Russia the rates' kinds are refused; arguments that say too little are
// asked again, and nothing is stored.
func TestSkillRefusals(t *testing.T) {
	store := history.NewMemorySubscriptions()
	s := New(store, Options{Now: func() time.Time { return skillNow }})
	for text, want := range map[string]string{
		"утро":        ratesMissing,
		"ставка":      ratesMissing,
		"должник":     needThreshold,
		"утро пн":     morningDays,
		"пояс Марс":   badZone,
		"утро 24:00":  badTime,
		"неделя 9:70": badTime,
	} {
		if r := ask(t, s, 1, 1, CommandSubscribe, text); r.Text != want {
			t.Errorf("/subscribe %s = %q, want %q", text, r.Text, want)
		}
	}
	if r := ask(t, s, 1, 1, CommandSubscribe, ""); !strings.Contains(r.Text, "не на что") {
		t.Errorf("help with nothing to subscribe to: %q", r.Text)
	}
	if all, _ := store.All(t.Context()); len(all) != 0 {
		t.Errorf("stored: %v", all)
	}
}

// A store that does not answer is the skill's ErrUnavailable: the front end says so.
func TestSkillStoreDown(t *testing.T) {
	s := New(downStore{}, Options{Rates: true})
	_, err := s.Answer(t.Context(), skill.Query{ChatID: 1, UserID: 1, Command: CommandSubscribe, Text: "утро"})
	if !errors.Is(err, skill.ErrUnavailable) {
		t.Errorf("err = %v, want ErrUnavailable", err)
	}
}

// downStore is a store whose every call fails.
type downStore struct{ Store }

var errDown = errors.New("redis: connection refused")

func (downStore) Zone(context.Context, int64) (string, error) { return "", errDown }
func (downStore) Put(context.Context, int64, string, []byte, int) error {
	return errDown
}
func (downStore) Chat(context.Context, int64) ([]history.Subscription, error) { return nil, errDown }

// Subscriptions said in words (the parser sends them here as questions, with no command).
func TestSkillPhrasings(t *testing.T) {
	s, store := newSkill(t)
	for _, tt := range []struct{ text, id, reply string }{
		{"присылай курсы каждое утро в 8:30", "morning", "Готово: **утренняя сводка** — каждый день в 08:30"},
		{"присылайте сводку по дебиторке по пятницам в 17", "weekly", "по пятницам в 17:00"},
		{"сообщай, если кто-то должен нам больше миллиона", "debtor:1000000", "превысит 1\u00a0000\u00a0000,00\u00a0₽"},
		{"уведомляй о просрочке больше 45 дней", "overdue:45", "больше чем на 45 дней"},
	} {
		r := ask(t, s, 1, 1, "", tt.text)
		if !strings.Contains(r.Text, tt.reply) {
			t.Errorf("%q = %q, want it to say %q", tt.text, r.Text, tt.reply)
		}
		if subs, _ := store.Chat(t.Context(), 1); !slices.ContainsFunc(subs, func(e history.Subscription) bool { return e.ID == tt.id }) {
			t.Errorf("%q: %s not stored", tt.text, tt.id)
		}
	}
	if r := ask(t, s, 1, 1, "", "какие у меня подписки?"); !strings.Contains(r.Text, "**Подписки этого чата**") {
		t.Errorf("the list: %q", r.Text)
	}
	if r := ask(t, s, 1, 1, "", "отпишись от утренней сводки"); r.Text != "Отменил: **Утренняя сводка**. Остальные подписки — /subscriptions." {
		t.Errorf("unsubscribe: %q", r.Text)
	}
	if r := ask(t, s, 1, 1, "", "отпиши меня от всего"); !strings.HasPrefix(r.Text, "Отменил все подписки этого чата (3)") {
		t.Errorf("unsubscribe from all: %q", r.Text)
	}
}
