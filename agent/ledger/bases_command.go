package ledger

import (
	"context"
	"strings"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
)

// BaseCommand lists the 1C bases open to the asker as buttons, and a button (or «/base name»)
// chooses one: «/base», «/base north», a press sending BasePrefix + the base's id.
const BaseCommand = "base"

// BasePrefix marks the callback data of a /base button: "base:<id>". The id is checked against
// the asker's own bases when pressed, so a forged one chooses nothing.
const BasePrefix = "base:"

// User-facing texts of choosing a base.
const (
	// NoBaseText answers a user the access lists let through but no base is open to.
	NoBaseText = "Ни одна база 1С вам не открыта. Если доступ нужен, обратитесь к администратору бота."
	// notYoursText answers a base that is not the asker's (a forged or outdated button, a typo):
	// it does not say whether such a base exists.
	notYoursText = "Такой базы среди открытых вам нет."
)

// ask is the skill as it answers userID in chatID: a copy whose runner is the base that answers
// them (chosen with /base, else the first open to them). Without access, or with no base open
// to them, the copy refuses everything and its runner never reaches 1C.
func (s *Skill) ask(ctx context.Context, userID, chatID int64) *Skill {
	c := *s
	if s.bases == nil {
		return &c // not connected: runner stays nil
	}
	if !s.access(userID, chatID) {
		c.runner = closed{}
		return &c
	}
	b, ok := s.bases.For(ctx, userID, chatID)
	if !ok {
		c.runner, c.access = closed{}, func(int64, int64) bool { return false }
		return &c
	}
	c.runner, c.base = b.Runner, b
	return &c
}

// resultBase is the base a kept result is scoped to: "" with one base (the keys of before).
func (s *Skill) resultBase() string {
	if s.bases == nil || !s.bases.Several() {
		return ""
	}
	return s.base.ID
}

// chooseBase answers /base: the bases open to the asker as buttons, the one answering now
// marked; with a base named (a press, «/base north»), that one is kept as the asker's choice in
// this chat, if it is open to them.
func (s *Skill) chooseBase(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if s.bases == nil {
		return skill.Text(NotConnectedText), nil
	}
	if !s.access(q.UserID, q.ChatID) {
		return denied(), nil
	}
	allowed := s.bases.Allowed(q.UserID, q.ChatID)
	if len(allowed) == 0 {
		return skill.Reply{Text: NoBaseText, Degraded: []string{"ledger_no_base"}}, nil
	}
	name := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(q.Text), BasePrefix))
	if name == "" {
		current, _ := s.bases.For(ctx, q.UserID, q.ChatID)
		if len(allowed) == 1 {
			return skill.Text("Вам открыта одна база 1С: «" + md.Escape(title(current)) + "». Выбирать не из чего."), nil
		}
		return skill.Reply{Text: "Сейчас на вопросы к 1С отвечает база «" + md.Escape(title(current)) + "». Открытые вам базы — нажмите, чтобы выбрать:",
			Buttons: baseButtons(allowed, current.ID)}, nil
	}
	b, ok := named(allowed, name)
	if !ok {
		current, _ := s.bases.For(ctx, q.UserID, q.ChatID)
		return skill.Reply{Text: notYoursText + " Сейчас отвечает «" + md.Escape(title(current)) + "»; открытые вам базы:",
			Buttons: baseButtons(allowed, current.ID), Degraded: []string{"base_not_yours"}}, nil
	}
	b, err := s.bases.Choose(ctx, q.UserID, q.ChatID, b.ID)
	if err != nil {
		if ctx.Err() != nil {
			return skill.Reply{}, ctx.Err()
		}
		return skill.Reply{}, skill.Unavailable("1C base choice", err)
	}
	s.log.InfoContext(ctx, "1C base chosen", "chat_id", q.ChatID, "user_id", q.UserID, "base", b.ID)
	return skill.Text("Готово: на ваши вопросы к 1С в этом чате теперь отвечает база «" + md.Escape(title(b)) + "»."), nil
}

// baseButtons are one button per base, the current one marked.
func baseButtons(bases []Base, current string) []skill.Button {
	out := make([]skill.Button, 0, len(bases))
	for _, b := range bases {
		text := title(b)
		if b.ID == current {
			text = "✓ " + text
		}
		out = append(out, skill.Button{Text: text, Data: BasePrefix + b.ID})
	}
	return out
}

// title is what users call a base: its title, else where its figures come from.
func title(b Base) string {
	if b.Title != "" {
		return b.Title
	}
	return b.Runner.SourceName()
}

// closed is the runner of an asker no base is open to: nothing reaches 1C. The skill refuses
// before calling it; it refuses again if anything ever does.
type closed struct{}

func (closed) Run(context.Context, runner.Decomposition) runner.Result {
	return runner.Result{ResultMode: runner.Limited, Message: DeniedText}
}
func (closed) Drill(context.Context, string) (runner.Result, error) {
	return runner.Result{}, ErrDenied
}
func (closed) Probe(context.Context, string, runner.ProbeArgs) (runner.ProbeOutcome, error) {
	return runner.ProbeOutcome{}, ErrDenied
}
func (closed) SourceName() string                                { return "" }
func (closed) Catalogs(context.Context) (recipe.Catalogs, error) { return recipe.Catalogs{}, ErrDenied }
