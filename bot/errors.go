package bot

import (
	"context"
	"errors"

	"github.com/finbot/finbot/agent/api"
)

// errCanceled marks an answer the user stopped with /cancel.
var errCanceled = errors.New("bot: canceled by the user")

// errShutdown is the cause with which shutdown cancels answers still running after
// SHUTDOWN_TIMEOUT.
var errShutdown = errors.New("bot: shutting down")

// errGaveUp: an update from the inbox was taken over MaxInboxTakeovers times (every replica
// that answered it died); it is settled with a notice instead of going round again.
var errGaveUp = errors.New("bot: update taken over too many times")

// errDiedOn: the instance answering an update from the inbox died in the middle of heavy work
// for it (out of memory, most likely because of the update itself); it is settled with a
// notice instead of being answered again by the next instance.
var errDiedOn = errors.New("bot: an instance died in heavy work for the update")

// errDownload marks a file Telegram did not let the bot download.
var errDownload = errors.New("bot: file download failed")

// replyText is what a user reads for err: userMessage's words, under what was recognised of
// their voice message when it was (heardError).
func replyText(err error) string {
	var h *heardError
	if errors.As(err, &h) {
		return heardLine(h.heard) + "\n\n" + userMessage(err)
	}
	return userMessage(err)
}

// userMessage is the only place where an error turns into words a user reads. Raw error text
// never reaches a chat.
func userMessage(err error) string {
	switch {
	case errors.Is(err, errCanceled):
		return "Остановил подготовку ответа."
	case errors.Is(err, errShutdown):
		return "Бот перезапускается и не успел ответить. Повторите вопрос через минуту."
	case errors.Is(err, errDiedOn):
		return "Не удалось обработать сообщение: оно потребовало слишком много ресурсов. Попробуйте задать вопрос короче или по одному документу."
	case errors.Is(err, errGaveUp):
		return "Не получилось обработать это сообщение: сервер бота несколько раз останавливался на нём. Повторите вопрос или сформулируйте его иначе."
	case errors.Is(err, api.ErrEmpty):
		return "Напишите вопрос текстом — например, «Кто нам должен на 31 марта?»."
	case errors.Is(err, api.ErrTooLong):
		return "Сообщение слишком длинное. Сформулируйте вопрос короче — до 4096 символов."
	case errors.Is(err, errDownload):
		return "Не получилось скачать файл с серверов Telegram. Пришлите его ещё раз чуть позже."
	case errors.Is(err, api.ErrUnavailable):
		return "Источник данных сейчас недоступен. Попробуйте чуть позже."
	case errors.Is(err, context.DeadlineExceeded):
		return "Не успел подготовить ответ вовремя. Попробуйте ещё раз или упростите вопрос."
	default:
		return "Что-то пошло не так при подготовке ответа. Попробуйте ещё раз чуть позже."
	}
}
