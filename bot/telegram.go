package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/bot/tgmd"
)

// telegram is the one adapter around go-telegram-bot-api v5. The library has no context
// support, so every call runs on a shallow copy of the BotAPI whose HTTP client carries the
// call's context; it also never checks HTTP status and leaks the token in transport errors,
// both of which the doer below repairs.
type telegram struct {
	api   *tgbotapi.BotAPI
	http  *http.Client
	token string
	base  string // Bot API base URL without the trailing slash
}

// newTelegram connects (getMe) and returns the adapter. apiURL is the Bot API base, e.g.
// https://api.telegram.org.
func newTelegram(ctx context.Context, token, apiURL string, client *http.Client) (*telegram, error) {
	if apiURL == "" {
		apiURL = "https://api.telegram.org"
	}
	t := &telegram{http: client, token: token, base: strings.TrimRight(apiURL, "/")}
	endpoint := t.base + "/bot%s/%s"
	api, err := tgbotapi.NewBotAPIWithClient(token, endpoint, t.doer(ctx, nil))
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
	c.Client = t.doer(ctx, nil)
	return &c
}

// doer binds requests to ctx; when status is not nil it keeps the HTTP status of the response.
func (t *telegram) doer(ctx context.Context, status *int) tgbotapi.HTTPClient {
	return doerFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := t.http.Do(r.WithContext(ctx))
		if err != nil {
			return nil, t.redact(err)
		}
		if status != nil {
			*status = resp.StatusCode
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

// allowedUpdates are the update types the bot asks for, by getUpdates and setWebhook alike. A
// stopped_message_generation (Bot API 10.3) is a user's press on the stop button of a native
// draft (stop.go).
const allowedUpdates = `["message","callback_query","inline_query","stopped_message_generation"]`

// update is an update as the bot reads it: v5.5.1's, and what the library predates.
type update struct {
	tgbotapi.Update
	// StoppedMessageGeneration: a user stopped the answer streamed as a native draft.
	StoppedMessageGeneration *generationStopped `json:"stopped_message_generation,omitempty"`
}

// getUpdates long-polls once. The request is written here, not by the library's GetUpdates,
// whose Update would drop what it predates.
func (t *telegram) getUpdates(ctx context.Context, offset int, timeout time.Duration) ([]update, error) {
	params := tgbotapi.Params{"limit": "100", "allowed_updates": allowedUpdates}
	params.AddNonZero("offset", offset)
	params.AddNonZero("timeout", int(timeout/time.Second))
	resp, err := t.with(ctx).MakeRequest("getUpdates", params)
	if err != nil {
		return nil, err
	}
	var ups []update
	if err := json.Unmarshal(resp.Result, &ups); err != nil {
		return nil, fmt.Errorf("telegram: decode updates: %w", err)
	}
	return ups, nil
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

// send sends a message, a document or a photo and returns the id of the message sent (0 when
// Telegram answers true instead of the message).
func (t *telegram) send(ctx context.Context, c tgbotapi.Chattable) (int, error) {
	api, status := *t.api, 0
	api.Client = t.doer(ctx, &status)
	var resp *tgbotapi.APIResponse
	var err error
	switch x := c.(type) {
	case extended:
		resp, err = x.send(&api)
	case tgbotapi.DocumentConfig:
		if len(x.CaptionEntities) > 0 {
			// v5.5.1's DocumentConfig drops caption_entities (a bold figure, a link).
			resp, err = extended{Chattable: x}.send(&api)
			break
		}
		resp, err = api.Request(c)
	default:
		resp, err = api.Request(c)
	}
	if err != nil {
		return 0, explain(withCode(resp, status, err))
	}
	if string(resp.Result) == "true" {
		return 0, nil
	}
	var m tgbotapi.Message
	if err := json.Unmarshal(resp.Result, &m); err != nil {
		return 0, fmt.Errorf("telegram: decode the message sent: %w", err)
	}
	return m.MessageID, nil
}

// extended is a request v5.5.1 cannot write: one of its configs (a message, a document, an edit
// of a message's text) with what the library predates — ephemeral_message_parameters (Bot API
// 10.3), a keyboard of buttons with styles (9.4) on an edit, caption_entities of a document, a
// message sent as a rich message (10.1). send writes its fields as the library writes the
// config's, then those.
type extended struct {
	tgbotapi.Chattable
	// markup, when set, is the reply_markup instead of the config's own.
	markup *inlineKeyboard
	// ephemeral, when set, delivers the message to one member of a group; it then replies to
	// nothing (reply_to_message_id is dropped).
	ephemeral *ephemeral
	// rich, when set, sends a message config as sendRichMessage with this content instead of
	// its text (rich.go).
	rich *tgmd.RichMessage
}

// send writes and sends the request.
func (x extended) send(api *tgbotapi.BotAPI) (*tgbotapi.APIResponse, error) {
	if x.rich != nil {
		return x.sendRichMessage(api)
	}
	params := make(tgbotapi.Params)
	var method string
	var file *tgbotapi.RequestFile
	var errs []error
	switch c := x.Chattable.(type) {
	case tgbotapi.MessageConfig:
		method = "sendMessage"
		errs = append(errs, chatParams(params, c.BaseChat))
		params.AddNonEmpty("text", c.Text)
		params.AddBool("disable_web_page_preview", c.DisableWebPagePreview)
		params.AddNonEmpty("parse_mode", c.ParseMode)
		errs = append(errs, params.AddInterface("entities", c.Entities))
	case tgbotapi.DocumentConfig:
		method = "sendDocument"
		errs = append(errs, chatParams(params, c.BaseChat))
		params.AddNonEmpty("caption", c.Caption)
		params.AddNonEmpty("parse_mode", c.ParseMode)
		errs = append(errs, params.AddInterface("caption_entities", c.CaptionEntities))
		file = &tgbotapi.RequestFile{Name: "document", Data: c.File}
	case tgbotapi.EditMessageTextConfig:
		method = "editMessageText"
		errs = append(errs, params.AddFirstValid("chat_id", c.ChatID, c.ChannelUsername))
		params.AddNonZero("message_id", c.MessageID)
		errs = append(errs, params.AddInterface("reply_markup", c.ReplyMarkup))
		params["text"] = c.Text
		params.AddNonEmpty("parse_mode", c.ParseMode)
		params.AddBool("disable_web_page_preview", c.DisableWebPagePreview)
		errs = append(errs, params.AddInterface("entities", c.Entities))
	default:
		return nil, fmt.Errorf("telegram: %T cannot be extended", c)
	}
	if x.markup != nil {
		errs = append(errs, params.AddInterface("reply_markup", x.markup))
	}
	if x.ephemeral != nil {
		delete(params, "reply_to_message_id")
		delete(params, "allow_sending_without_reply")
		errs = append(errs, params.AddInterface("ephemeral_message_parameters", x.ephemeral))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("telegram: %s: %w", method, err)
	}
	if file != nil {
		return api.UploadFiles(method, params, []tgbotapi.RequestFile{*file})
	}
	return api.MakeRequest(method, params)
}

// chatParams writes a BaseChat's fields as the library does.
func chatParams(params tgbotapi.Params, c tgbotapi.BaseChat) error {
	if err := params.AddFirstValid("chat_id", c.ChatID, c.ChannelUsername); err != nil {
		return err
	}
	params.AddNonZero("reply_to_message_id", c.ReplyToMessageID)
	params.AddBool("disable_notification", c.DisableNotification)
	params.AddBool("allow_sending_without_reply", c.AllowSendingWithoutReply)
	return params.AddInterface("reply_markup", c.ReplyMarkup)
}

// withCode gives a failed call's error the Bot API's error_code. v5.5.1 drops it from the
// errors of uploads (sendPhoto, sendDocument with a file), though the response it decoded —
// Telegram's {"ok":false,"error_code":…,"description":…,"parameters":{"retry_after":…}} —
// carries it; without it a 400 reads like a server error and is retried. A client error that
// is no Bot API object at all (a proxy's page refusing a body too large) gets its HTTP status.
func withCode(resp *tgbotapi.APIResponse, status int, err error) error {
	e, ok := apiError(err)
	switch {
	case ok && e.Code == 0 && resp != nil && resp.ErrorCode != 0:
		fixed := *e
		fixed.Code = resp.ErrorCode
		if resp.Parameters != nil {
			fixed.ResponseParameters = *resp.Parameters
		}
		return &fixed
	case !ok && status >= 400 && status < 500 && status != http.StatusTooManyRequests:
		return &tgbotapi.Error{Code: status, Message: fmt.Sprintf("HTTP %d, not a Bot API response: %v", status, err)}
	}
	return err
}

// errFileTooBig means a file is larger than the caller's limit.
var errFileTooBig = errors.New("telegram: file too big")

// download fetches a file a user sent: getFile for its path, then GET <base>/file/bot<token>/<path>.
// At most limit bytes are read; more is errFileTooBig. The token never appears in errors.
func (t *telegram) download(ctx context.Context, fileID string, limit int64) ([]byte, error) {
	f, err := t.with(ctx).GetFile(tgbotapi.FileConfig{FileID: fileID})
	if err != nil {
		return nil, fmt.Errorf("getFile: %w", explain(err))
	}
	if f.FileSize > 0 && int64(f.FileSize) > limit {
		return nil, errFileTooBig
	}
	if f.FilePath == "" || strings.Contains(f.FilePath, "..") {
		return nil, fmt.Errorf("getFile: unusable file_path %q", f.FilePath)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, t.base+"/file/bot"+t.token+"/"+f.FilePath, nil)
	if err != nil {
		return nil, fmt.Errorf("download: %w", t.redact(err))
	}
	resp, err := t.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("download: %w", t.redact(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("download: HTTP %d", resp.StatusCode)
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, fmt.Errorf("download: %w", t.redact(err))
	}
	if int64(len(data)) > limit {
		return nil, errFileTooBig
	}
	return data, nil
}

// apiError extracts Telegram's error object, if err is one.
func apiError(err error) (*tgbotapi.Error, bool) {
	var e *tgbotapi.Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
