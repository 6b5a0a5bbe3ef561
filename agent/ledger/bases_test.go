package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// namedRunner is a runner that only says which base it is.
type namedRunner string

func (n namedRunner) Run(context.Context, runner.Decomposition) runner.Result {
	return runner.Result{ResultMode: runner.Limited, Message: string(n)}
}
func (n namedRunner) Drill(context.Context, string) (runner.Result, error) {
	return runner.Result{}, nil
}
func (n namedRunner) Probe(context.Context, string, runner.ProbeArgs) (runner.ProbeOutcome, error) {
	return runner.ProbeOutcome{}, nil
}
func (n namedRunner) SourceName() string { return string(n) }
func (n namedRunner) Catalogs(context.Context) (recipe.Catalogs, error) {
	return recipe.Catalogs{}, nil
}

func testBases(t *testing.T) *Bases {
	t.Helper()
	b, err := NewBases([]Base{
		{ID: "north", Title: "Север", Runner: namedRunner("north"), Users: []int64{1}},
		{ID: "south", Title: "Юг", Runner: namedRunner("south"), Users: []int64{1, 2}, Chats: []int64{-100}},
	}, BasesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBasesMapping(t *testing.T) {
	b := testBases(t)
	ids := func(bs []Base) (out []string) {
		for _, x := range bs {
			out = append(out, x.ID)
		}
		return out
	}
	for _, tt := range []struct {
		user, chat int64
		want       string
	}{
		{1, 1, "[north south]"},
		{2, 2, "[south]"},
		{3, 3, "[]"},
		{1, -100, "[south]"}, // a group: only the chat's mapping
		{1, -200, "[]"},      // a group no base maps, whoever asks
	} {
		if got := ids(b.Allowed(tt.user, tt.chat)); fmtIDs(got) != tt.want {
			t.Errorf("Allowed(%d, %d) = %v; want %s", tt.user, tt.chat, got, tt.want)
		}
	}
	ctx := t.Context()
	if x, ok := b.For(ctx, 1, 1); !ok || x.ID != "north" {
		t.Errorf("For before a choice = %v, %v", x.ID, ok)
	}
	if _, err := b.Choose(ctx, 2, 2, "north"); !errors.Is(err, ErrNotYours) {
		t.Errorf("Choose of another's base: %v", err)
	}
	if _, err := b.Choose(ctx, 1, -100, "north"); !errors.Is(err, ErrNotYours) {
		t.Errorf("Choose in a group of a base the chat lacks: %v", err)
	}
	if _, err := b.Choose(ctx, 1, 1, "south"); err != nil {
		t.Fatal(err)
	}
	if x, _ := b.For(ctx, 1, 1); x.ID != "south" {
		t.Errorf("For after choosing south = %s", x.ID)
	}
	if x, _ := b.For(ctx, 1, 2); x.ID != "north" {
		t.Errorf("the choice leaked to another chat: %s", x.ID)
	}
	if _, err := NewBases([]Base{{ID: "a", Runner: namedRunner("a")}, {ID: "a", Runner: namedRunner("a")}}, BasesOptions{}); err == nil {
		t.Error("a base listed twice was accepted")
	}
}

func fmtIDs(ids []string) string {
	s := "["
	for i, id := range ids {
		if i > 0 {
			s += " "
		}
		s += id
	}
	return s + "]"
}

// TestSkillAsksTheAskersBase: the skill's answers, its catalogs and the planner's offer follow
// the asker's base; a user without one is refused and no runner is asked.
func TestSkillAsksTheAskersBase(t *testing.T) {
	b := testBases(t)
	access := func(userID, chatID int64) bool { return userID != 9 }
	s := New(nil, nil, Options{Bases: b, LedgerAccess: access})
	ctx := t.Context()
	for _, tt := range []struct {
		user, chat int64
		want       string
	}{{1, 1, "north"}, {2, 2, "south"}, {1, -100, "south"}} {
		got := s.ask(ctx, tt.user, tt.chat)
		if got.runner == nil || got.runner.SourceName() != tt.want {
			t.Errorf("user %d in %d asks %v; want %s", tt.user, tt.chat, got.runner, tt.want)
		}
	}
	for _, who := range [][2]int64{{3, 3}, {9, 9}, {1, -200}} {
		if _, ok := s.ask(ctx, who[0], who[1]).runner.(closed); !ok {
			t.Errorf("user %d in %d reaches a base", who[0], who[1])
		}
		q := skill.Query{UserID: who[0], ChatID: who[1], Command: "debts"}
		if r, err := s.Answer(ctx, q); err != nil || r.Text != DeniedText {
			t.Errorf("user %d in %d: %q, %v", who[0], who[1], r.Text, err)
		}
		if s.Offers(ctx, q) {
			t.Errorf("the planner is offered 1C for user %d in %d", who[0], who[1])
		}
	}
	r, err := s.Answer(ctx, skill.Query{UserID: 2, ChatID: 2, Command: BaseCommand, Text: BasePrefix + "north"})
	if err != nil || r.Text == "" || len(r.Buttons) != 1 || r.Buttons[0].Data != BasePrefix+"south" {
		t.Errorf("forged press: %q %+v %v", r.Text, r.Buttons, err)
	}
	if x, _ := b.For(ctx, 2, 2); x.ID != "south" {
		t.Errorf("a forged press chose %s", x.ID)
	}
}

// twoDemoBases are «north», the demo company, and «south», the same books under another
// organization's name — the same 1C references, as a copy of a base has — each over its own
// lane; user 1 may use both, user 2 only south.
func twoDemoBases(t *testing.T) *Bases {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	lane := func(name string, rename bool) Runner {
		l, err := onec.LoadDemo()
		if err != nil {
			t.Fatal(err)
		}
		if rename {
			for i := range l.Organizations {
				l.Organizations[i].Name = strings.Replace(l.Organizations[i].Name, "Северный ветер", "Южный порт", 1)
			}
		}
		d := onec.NewNamedDemo(l, name)
		return runner.NewLane(d, runner.Options{Now: now, Organization: d.MainOrganization()})
	}
	b, err := NewBases([]Base{
		{ID: "north", Title: "Север", Runner: lane("база Север", false), Users: []int64{1}},
		{ID: "south", Title: "Юг", Runner: lane("база Юг", true), Users: []int64{1, 2}},
	}, BasesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A drilldown runs on the base whose answer it is under: user 1 asks north, switches to south
// with /base and presses the drilldown — north answers it (the two bases share references, so
// on south it would have answered with south's figures in silence). User 2, to whom north is
// not open, and an unbound button of before are told the button is stale; nothing runs.
func TestDrilldownRunsOnItsOwnBase(t *testing.T) {
	b := twoDemoBases(t)
	s := New(nil, nil, Options{Bases: b, LedgerAccess: func(int64, int64) bool { return true }})
	ctx := t.Context()
	first, err := s.Answer(ctx, skill.Query{UserID: 1, ChatID: 1, Command: "debts", Text: "31.03.2026"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(first.Text, "Северный ветер") {
		t.Fatalf("north did not answer: %s", first.Text)
	}
	var drill string
	for _, btn := range first.Buttons {
		if runner.IsDrill(btn.Data) {
			drill = btn.Data
			break
		}
	}
	if drill == "" || !strings.HasSuffix(drill, ":"+baseTag("north")) || len(drill) > maxCallbackData {
		t.Fatalf("no drilldown bound to north: %+v", first.Buttons)
	}
	if _, err := b.Choose(ctx, 1, 1, "south"); err != nil {
		t.Fatal(err)
	}
	r, err := s.Answer(ctx, skill.Query{UserID: 1, ChatID: 1, Command: "drill", Text: drill})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Text, "Северный ветер") || strings.Contains(r.Text, "Южный порт") || len(r.Sources) == 0 ||
		!strings.Contains(r.Sources[0].Title, "база Север") {
		t.Errorf("the drilldown after switching to south: want north's answer, named so:\n%s\n%+v", r.Text, r.Sources)
	}
	for _, btn := range r.Buttons { // its own drilldowns stay bound to north
		if runner.IsDrill(btn.Data) && !strings.HasSuffix(btn.Data, ":"+baseTag("north")) {
			t.Errorf("a drilldown of north's answer bound elsewhere: %q", btn.Data)
		}
	}
	untagged := drill[:strings.LastIndexByte(drill, ':')]
	for _, tt := range []struct {
		user int64
		data string
	}{{2, drill}, {1, untagged}, {1, untagged + ":" + baseTag("west")}} {
		r, err := s.Answer(ctx, skill.Query{UserID: tt.user, ChatID: tt.user, Command: "drill", Text: tt.data})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.Text, "₽") || !strings.Contains(r.Text, "устарела") && !strings.Contains(r.Text, "не открыта") {
			t.Errorf("user %d pressing %q: %s", tt.user, tt.data, r.Text)
		}
	}
	// With one base nothing changes: the data of before, no tag.
	one := New(b.List()[0].Runner, nil, Options{LedgerAccess: func(int64, int64) bool { return true }})
	r, err = one.Answer(ctx, skill.Query{UserID: 1, ChatID: 1, Command: "debts", Text: "31.03.2026"})
	if err != nil {
		t.Fatal(err)
	}
	for _, btn := range r.Buttons {
		if runner.IsDrill(btn.Data) && strings.Count(btn.Data, ":") != 5 {
			t.Errorf("one base: drilldown data %q carries a tag", btn.Data)
		}
	}
}
