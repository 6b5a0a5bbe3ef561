package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// telegram is the one adapter around go-telegram-bot-api v5. The library has no context
// support, so every call runs on a shallow copy of the BotAPI whose HTTP client carries the
// call's context; it also never checks HTTP status and leaks the token in transport errors,
// both of which the doer below repairs.
type telegram struct {
	api   *tgbotapi.BotAPI
	http  *http.Client
	token string
}

// newTelegram connects (getMe) and returns the adapter. apiURL is the Bot API base, e.g.
// https://api.telegram.org.
func newTelegram(ctx context.Context, token, apiURL string, client *http.Client) (*telegram, error) {
	if apiURL == "" {
		apiURL = "https://api.telegram.org"
	}
	t := &telegram{http: client, token: token}
	endpoint := strings.TrimRight(apiURL, "/") + "/bot%s/%s"
	api, err := tgbotapi.NewBotAPIWithClient(token, endpoint, t.doer(ctx))
	if err != nil {
		return nil, fmt.Errorf("telegram: getMe: %w", t.redact(err))
	}
	t.api = api
	return t, nil
}

// self is the bot's own user.
func (t *telegram) self() tgbotapi.User { return t.api.Self }

// with returns a BotAPI whose requests are bound to ctx.
func (t *telegram) with(ctx context.Context) *tgbotapi.BotAPI {
	c := *t.api
	c.Client = t.doer(ctx)
	return &c
}

func (t *telegram) doer(ctx context.Context) tgbotapi.HTTPClient {
	return doerFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := t.http.Do(r.WithContext(ctx))
		if err != nil {
			return nil, t.redact(err)
		}
		return resp, nil
	})
}

type doerFunc func(*http.Request) (*http.Response, error)

func (f doerFunc) Do(r *http.Request) (*http.Response, error) { return f(r) }

// redact removes the token from an error's text (transport errors quote the request URL).
func (t *telegram) redact(err error) error {
	if err == nil || t.token == "" || !strings.Contains(err.Error(), t.token) {
		return err
	}
	return &redactedError{err: err, token: t.token}
}

type redactedError struct {
	err   error
	token string
}

func (e *redactedError) Error() string {
	return strings.ReplaceAll(e.err.Error(), e.token, "[redacted]")
}

// Is keeps context errors matchable without exposing the original text through Unwrap.
func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }

// getUpdates long-polls once.
func (t *telegram) getUpdates(ctx context.Context, offset int, timeout time.Duration) ([]tgbotapi.Update, error) {
	cfg := tgbotapi.NewUpdate(offset)
	cfg.Timeout = int(timeout / time.Second)
	cfg.Limit = 100
	cfg.AllowedUpdates = []string{"message", "callback_query", "inline_query"}
	ups, err := t.with(ctx).GetUpdates(cfg)
	return ups, err
}

// request calls a method that returns true (sendChatAction, answerCallbackQuery, …).
func (t *telegram) request(ctx context.Context, c tgbotapi.Chattable) error {
	_, err := t.with(ctx).Request(c)
	return explain(err)
}

// explain gives a name to the library's empty error, which it returns when a response is not
// a Bot API object at all (an emulator's "method not supported", a proxy's error page).
func explain(err error) error {
	if e, ok := apiError(err); ok && e.Code == 0 && e.Message == "" {
		return fmt.Errorf("telegram: response is not a Bot API object (method unsupported?): %w", err)
	}
	return err
}

// call makes a raw request, for methods or parameters v5.5.1 lacks (secret_token).
func (t *telegram) call(ctx context.Context, method string, params map[string]string) (json.RawMessage, error) {
	resp, err := t.with(ctx).MakeRequest(method, tgbotapi.Params(params))
	if err != nil {
		return nil, explain(err)
	}
	return resp.Result, nil
}

// send sends a message or a photo.
func (t *telegram) send(ctx context.Context, c tgbotapi.Chattable) error {
	_, err := t.with(ctx).Send(c)
	return explain(err)
}

// apiError extracts Telegram's error object, if err is one.
func apiError(err error) (*tgbotapi.Error, bool) {
	var e *tgbotapi.Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
