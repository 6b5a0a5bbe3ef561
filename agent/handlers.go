package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
	"github.com/finbot/finbot/ru"
)

// handle runs the scenario's handler.
func (a *Agent) handle(ctx context.Context, req Request, route RouteDecision, text string, hist []history.Turn, scope docScope) (Answer, error) {
	switch {
	case route.Scenario == Command && route.Intent == "docs":
		return a.docCommand(ctx, req, text)
	case route.Scenario == S1Search || route.Scenario == S3Full || route.Scenario == S4Retrieve:
		return a.documentAnswer(ctx, req, route, text, scope)
	case route.Scenario == S2General && route.Intent == IntentKB:
		return a.generalAnswer(ctx, req, route, text)
	case route.Scenario == OneC:
		return a.ledger(ctx, req, text)
	case route.Scenario == S5Clarify:
		return a.clarify(ctx, route, text), nil
	case route.Scenario == S2General && route.Intent == IntentSmallTalk:
		return a.smallTalk(ctx, text, hist), nil
	case route.Scenario == S2General && route.Intent == IntentRates:
		return a.commandDecision(ctx, req, understand.KindRate, text, hist, scope)
	case route.Scenario == S2General && route.Intent == IntentKeyRate:
		return a.commandDecision(ctx, req, understand.KindKeyRate, text, hist, scope)
	case route.Scenario == S2General && route.Intent == IntentNews:
		return a.answerNews(ctx, req.UserID, text)
	}
	return a.clarify(ctx, route, text), nil
}

// unavailable lists what this installation does not have, for the small-talk prompt.
func (a *Agent) unavailable() string {
	var out []string
	if a.library == nil {
		out = append(out, "поиск по документам пользователя")
	}
	if a.kb == nil {
		out = append(out, "база знаний")
	}
	if a.lane == nil {
		out = append(out, "данные 1С")
	}
	return strings.Join(out, ", ")
}

// smallTalk answers greetings and questions about the bot: with the LLM when there is one,
// from templates otherwise or when it fails.
func (a *Agent) smallTalk(ctx context.Context, text string, hist []history.Turn) Answer {
	if a.llm == nil {
		return Answer{Text: templateSmallTalk(text)}
	}
	out, err := a.smallTalkLLM(ctx, text, hist)
	if err == nil {
		return Answer{Text: out}
	}
	if !errors.Is(err, context.Canceled) {
		a.log.WarnContext(ctx, "llm small talk failed; template answers", "err", err)
	}
	ans := Answer{Text: templateSmallTalk(text)}
	ans.Debug.Degraded = []string{"llm_unavailable"}
	return ans
}

func (a *Agent) smallTalkLLM(ctx context.Context, text string, hist []history.Turn) (string, error) {
	system, err := prompts.SmallTalk(prompts.SmallTalkData{Today: a.now().Format("02.01.2006"), Unavailable: a.unavailable()})
	if err != nil {
		return "", err
	}
	msgs := []llm.Message{{Role: "system", Content: system}}
	for _, t := range hist {
		msgs = append(msgs, llm.Message{Role: t.Role, Content: t.Text})
	}
	msgs = append(msgs, llm.Message{Role: "user", Content: text})
	out, err := a.complete(ctx, msgs, llm.Call{Model: a.opts.AnswerModel, MaxTokens: 4000, Temperature: 0.4}, nil)
	if err != nil {
		return "", err
	}
	// Small talk has no facts: it links nowhere, and says something.
	out = postcheck.New(facts.Payload{}, text).DropForeignLinks(out)
	if !postcheck.Visible(out) {
		return "", fmt.Errorf("%w: small talk renders empty", llm.ErrBadResponse)
	}
	return out, nil
}

// capabilities is the short self-description used by the templates.
const capabilities = `Я **finbot** — помощник бухгалтерии и финансовой службы. Задавайте вопросы по-русски, например:
- «Кто нам должен на 31 марта?»
- «Курс евро на вчера»
- «Найди договор с Техснабом»

Команды — /help, начать разговор заново — /reset.`

func templateSmallTalk(text string) string {
	n := " " + normalize(text) + " "
	switch {
	case strings.Contains(n, "спасибо") || strings.Contains(n, "благодар"):
		return "Пожалуйста! Если появятся ещё вопросы — пишите."
	case strings.Contains(n, " пока ") || strings.Contains(n, "до свидания") || strings.Contains(n, "всего доброго"):
		return "До встречи! Буду рад помочь снова."
	case strings.Contains(n, "как дела") || strings.Contains(n, "как у тебя дела"):
		return "Всё в порядке, готов к работе. " + capabilities
	case strings.Contains(n, "привет") || strings.Contains(n, "здравств") || strings.Contains(n, "добр"):
		return "Здравствуйте! " + capabilities
	default:
		return capabilities
	}
}

// suggestions are the clarification choices offered as buttons.
var suggestions = []Button{
	{Text: "Кто нам должен?"},
	{Text: "Кому должны мы?"},
	{Text: "Курс доллара сегодня"},
	{Text: "Ключевая ставка"},
	{Text: "Найти договор"},
}

// clarify asks one precise question (S5).
func (a *Agent) clarify(ctx context.Context, route RouteDecision, text string) Answer {
	ans := Answer{Buttons: suggestions}
	if route.Clarification != "" {
		ans.Text = route.Clarification
		return ans
	}
	if a.llm != nil && route.FallbackRuleHit != "too_short" { // nothing to clarify in «?»
		out, err := a.clarifyLLM(ctx, text)
		if err == nil {
			ans.Text = ru.Truncate(out, 500)
			return ans
		}
		a.log.WarnContext(ctx, "llm clarification failed; template question", "err", err)
		ans.Debug.Degraded = []string{"llm_unavailable"}
	}
	ans.Text = "Уточните, пожалуйста, что нужно: данные 1С (кто нам должен, кому должны мы, остатки по счёту), " +
		"курс валюты или ключевая ставка, новости или поиск в ваших документах? Можно выбрать кнопкой ниже."
	return ans
}

func (a *Agent) clarifyLLM(ctx context.Context, text string) (string, error) {
	prompt, err := prompts.Clarify(prompts.ClarifyData{Question: text})
	if err != nil {
		return "", err
	}
	return a.llm.Complete(ctx, []llm.Message{{Role: "user", Content: prompt}}, llm.Call{MaxTokens: 200, Temperature: 0.2})
}

// commandIntents maps deterministic commands to S2 intents.
var commandIntents = map[string]string{"rate": IntentRates, "keyrate": IntentKeyRate, "news": IntentNews}

// commandRoute is the decision for a command: no router, no LLM.
func commandRoute(cmd string) RouteDecision {
	if cmd == "docs" || cmd == "doc" {
		return RouteDecision{Scenario: Command, Intent: "docs", Confidence: 1, Source: "command",
			Reasons: []string{"команда /" + cmd}}
	}
	if i, ok := ledger.Commands[cmd]; ok || cmd == "drill" {
		return RouteDecision{Scenario: OneC, Intent: string(i), Confidence: 1, Source: "command",
			Reasons: []string{"команда /" + cmd}}
	}
	intent, ok := commandIntents[cmd]
	if !ok {
		return RouteDecision{Scenario: S5Clarify, Intent: IntentUnknown, Confidence: 1, Source: "command",
			Reasons: []string{"неизвестная команда /" + cmd}}
	}
	return RouteDecision{Scenario: S2General, Intent: intent, Confidence: 1, Source: "command",
		Reasons: []string{"команда /" + cmd}}
}
