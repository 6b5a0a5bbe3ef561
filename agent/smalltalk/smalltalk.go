// Package smalltalk is the skill of greetings, thanks and questions about the bot: the answer
// LLM when there is one, templates otherwise or when it fails. Small talk has no facts, so its
// LLM reply may link nowhere and name nothing the bot could be asked to vouch for.
package smalltalk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
	"github.com/finbot/finbot/ru"
)

// errRefused: the model's small talk failed the check (Check finds empty answers too).
var errRefused = errors.New("small talk refused by the post-check")

// Skill answers small talk.
type Skill struct {
	skill.NoTools
	writer *phrase.Writer
	// unavailable lists what this installation does not have, for the prompt.
	unavailable string
	now         func() time.Time
	log         *slog.Logger
}

// Options configure the skill.
type Options struct {
	Writer *phrase.Writer // nil or without an LLM: templates only
	// Unavailable lists, in Russian, what this installation does not have («данные 1С»).
	Unavailable []string
	Now         func() time.Time
	Logger      *slog.Logger
}

// New builds the skill.
func New(o Options) *Skill {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Skill{writer: o.Writer, unavailable: strings.Join(o.Unavailable, ", "), now: o.Now, log: o.Logger}
}

// Answer answers small talk: with the LLM when there is one, from templates otherwise or when
// it fails.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if !s.writer.Enabled() {
		return skill.Text(Template(q.Text)), nil
	}
	out, err := s.llm(ctx, q)
	if err == nil {
		return skill.Text(out), nil
	}
	if !errors.Is(err, context.Canceled) {
		s.log.WarnContext(ctx, "llm small talk failed; template answers", "err", err)
	}
	r := skill.Text(Template(q.Text))
	r.Degraded = []string{phrase.DegradedLLMUnavailable}
	if errors.Is(err, errRefused) {
		r.Degraded = []string{phrase.DegradedAnswerRefused}
	}
	return r, nil
}

func (s *Skill) llm(ctx context.Context, q skill.Query) (string, error) {
	system, err := prompts.SmallTalk(prompts.SmallTalkData{Today: s.now().Format("02.01.2006"), Unavailable: s.unavailable})
	if err != nil {
		return "", err
	}
	msgs := []llm.Message{{Role: "system", Content: system}}
	for _, t := range q.History {
		msgs = append(msgs, llm.Message{Role: t.Role, Content: t.Text})
	}
	msgs = append(msgs, llm.Message{Role: "user", Content: q.Text})
	// Small talk has no facts: it may carry no figure, date, name or link the user did not
	// write, and it streams only what passed that check.
	chk := postcheck.New(facts.Payload{}, q.Text)
	out, err := s.writer.Complete(ctx, q.Progress, msgs, llm.Call{Model: s.writer.Model, MaxTokens: 4000, Temperature: 0.4},
		func(settled string) bool { return chk.CheckPartial(settled) == nil })
	if err != nil {
		return "", err
	}
	out = chk.DropForeignLinks(out)
	if vs := chk.Check(out); len(vs) > 0 {
		return "", fmt.Errorf("%w: small talk states what no source holds: %s: %s", errRefused, vs[0].Kind, vs[0].Detail)
	}
	return out, nil
}

// Capabilities is the short self-description the templates use.
const Capabilities = `Я **finbot** — помощник бухгалтерии и финансовой службы. Задавайте вопросы по-русски, например:
- «Кто нам должен на 31 марта?»
- «Курс евро на вчера»
- «Найди договор с Техснабом»

Команды — /help, начать разговор заново — /reset.`

// Template is the small talk of an installation without an LLM.
func Template(text string) string {
	n := " " + ru.Fold(text) + " "
	switch {
	case strings.Contains(n, "спасибо") || strings.Contains(n, "благодар"):
		return "Пожалуйста! Если появятся ещё вопросы — пишите."
	case strings.Contains(n, " пока ") || strings.Contains(n, "до свидания") || strings.Contains(n, "всего доброго"):
		return "До встречи! Буду рад помочь снова."
	case strings.Contains(n, "как дела") || strings.Contains(n, "как у тебя дела"):
		return "Всё в порядке, готов к работе. " + Capabilities
	case strings.Contains(n, "привет") || strings.Contains(n, "здравств") || strings.Contains(n, "добр"):
		return "Здравствуйте! " + Capabilities
	default:
		return Capabilities
	}
}
