package bot

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
)

// Voice messages: a voice note or an audio file is transcribed by the configured
// speech-to-text service, then answered as if its words had been typed (the same access, flood
// guard, user slot, dialog and answer), with what was recognised on top of the reply.

// Transcriber turns speech into text: "" when it heard none. name is the file name the service
// sees; its extension tells the format. *llm.Transcriber satisfies it.
type Transcriber interface {
	Transcribe(ctx context.Context, name string, audio []byte) (string, error)
}

// DefaultVoiceMaxDuration is the longest recording transcribed unless Options say otherwise.
const DefaultVoiceMaxDuration = 5 * time.Minute

// maxVoiceBytes is Telegram's limit on files a bot may download (getFile): 20 MB.
const maxVoiceBytes = api.MaxUploadBytes

// voiceRef is a voice note or an audio file attached to a message.
type voiceRef struct {
	id string // Telegram file_id, for getFile
	// name is the file name the transcription service sees: "voice.ogg", "audio.mp3"; "" when
	// the recording is in a format the service does not take.
	name     string
	size     int64         // as Telegram reports it, 0 if unknown
	duration time.Duration // as the sender's client reports it
}

// audioFormats are the extensions OpenAI-compatible /audio/transcriptions take.
var audioFormats = []string{".flac", ".m4a", ".mp3", ".mp4", ".mpeg", ".mpga", ".oga", ".ogg", ".wav", ".webm"}

// audioTypes name the extension of an audio file by its MIME type, when its name has none the
// service takes.
var audioTypes = map[string]string{
	"audio/ogg": ".ogg", "audio/opus": ".ogg", "audio/mpeg": ".mp3", "audio/mp3": ".mp3",
	"audio/mp4": ".m4a", "audio/m4a": ".m4a", "audio/x-m4a": ".m4a", "audio/wav": ".wav",
	"audio/x-wav": ".wav", "audio/wave": ".wav", "audio/webm": ".webm", "audio/flac": ".flac",
	"audio/x-flac": ".flac",
}

// voiceOf is the recording a message carries, nil if none. A voice note is OGG/Opus whatever
// Telegram's file_path says (".oga", which not every service takes), so it goes as voice.ogg;
// an audio file keeps the extension of its name or its MIME type, and never its name (a file
// name may say more than the service needs to know).
func voiceOf(m *tgbotapi.Message) *voiceRef {
	switch {
	case m.Voice != nil:
		v := m.Voice
		return &voiceRef{id: v.FileID, name: "voice.ogg", size: int64(v.FileSize), duration: time.Duration(v.Duration) * time.Second}
	case m.Audio != nil:
		a := m.Audio
		ref := &voiceRef{id: a.FileID, size: int64(a.FileSize), duration: time.Duration(a.Duration) * time.Second}
		ext := strings.ToLower(path.Ext(a.FileName))
		if !slices.Contains(audioFormats, ext) {
			ext = audioTypes[strings.ToLower(strings.TrimSpace(strings.Split(a.MimeType, ";")[0]))]
		}
		if ext != "" {
			ref.name = "audio" + ext
		}
		return ref
	}
	return nil
}

// The replies to recordings the bot does not transcribe.
const (
	voiceOff      = "Голосовые сообщения не распознаю: не настроен сервис распознавания речи. Напишите вопрос текстом."
	voiceFormat   = "Не распознаю аудио в этом формате. Пришлите голосовое сообщение или файл MP3, M4A, OGG, WAV, WEBM или FLAC."
	voiceTooBig   = "Запись больше 20 МБ — Telegram не даёт ботам скачивать такие файлы. Запишите вопрос короче или напишите его текстом."
	voiceNoSpeech = "Не разобрал речь в сообщении. Повторите, пожалуйста, чётче или напишите вопрос текстом."
)

// voice answers a voice note or an audio file: refused with a message when no service is
// configured or the recording is past the limits, else transcribed and answered as typed text.
func (c *core) voice(ctx context.Context, in incoming) error {
	v := in.voice
	switch {
	case c.transcriber == nil || c.files == nil:
		c.reply(ctx, in, voiceOff)
		return nil
	case v.name == "":
		c.reply(ctx, in, voiceFormat)
		return nil
	case v.duration > c.voiceMax:
		c.reply(ctx, in, fmt.Sprintf("Запись длиннее %s — такие не распознаю. Запишите вопрос короче или напишите его текстом.", durationText(c.voiceMax)))
		return nil
	case v.size > maxVoiceBytes:
		c.reply(ctx, in, voiceTooBig)
		return nil
	}
	text, err := c.hear(ctx, in)
	switch {
	case errors.Is(err, errFileTooBig):
		c.reply(ctx, in, voiceTooBig)
		return nil
	case err != nil:
		return err
	case text == "":
		c.reply(ctx, in, voiceNoSpeech)
		return nil
	}
	in.text, in.heard = text, text
	if err := c.answer(ctx, in); err != nil {
		return &heardError{heard: text, err: err}
	}
	return nil
}

// hear downloads the recording and transcribes it, in the user's slot (so /cancel stops it)
// under the answer's deadline, with "typing…" on. The text comes back on one line, without
// control characters, as a typed question would.
func (c *core) hear(ctx context.Context, in incoming) (string, error) {
	ctx, release, err := c.users.acquire(ctx, in.userID)
	if err != nil {
		return "", err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.answerTimeout)
	defer cancel()
	defer c.startTyping(ctx, in.chatID)()

	audio, err := c.files.fetch(ctx, in.voice.id, maxVoiceBytes)
	switch {
	case errors.Is(err, errFileTooBig):
		return "", err
	case err != nil:
		if errors.Is(context.Cause(ctx), errCanceled) {
			return "", errCanceled
		}
		return "", fmt.Errorf("%w: download: %w", errDownload, err)
	}
	text, err := c.transcriber.Transcribe(ctx, in.voice.name, audio)
	if err != nil {
		if errors.Is(context.Cause(ctx), errCanceled) {
			return "", errCanceled
		}
		// However the service failed, the user reads what they read when a data source is
		// down; the log keeps the cause.
		return "", fmt.Errorf("%w: transcribe: %w", api.ErrUnavailable, err)
	}
	return strings.Join(strings.Fields(dropControls(text)), " "), nil
}

// heardLine is the top of a voice message's reply: what was recognised, so that a misheard
// word shows. It is Markdown, the words escaped.
func heardLine(text string) string {
	return "🎙 Распознал: _«" + api.EscapeMarkdown(text) + "»_"
}

// heardError is a failure to answer a voice message whose words were recognised: the user
// reads them above what went wrong (replyText).
type heardError struct {
	heard string
	err   error
}

// Error is the cause's text only: what users say stays out of the logs.
func (e *heardError) Error() string { return e.err.Error() }

func (e *heardError) Unwrap() error { return e.err }

// durationText is a limit as a reply names it: «5 мин», «90 с».
func durationText(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return fmt.Sprintf("%d мин", d/time.Minute)
	}
	return fmt.Sprintf("%d с", d/time.Second)
}
