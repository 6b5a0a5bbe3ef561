package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/internal/fakes"
)

// Voice messages end to end: the fake Bot API delivers a voice note or an audio file, the bot
// downloads it (getFile, then the file URL), the real transcriber sends it to the OpenAI
// stand-in (multipart /audio/transcriptions), and the transcript is answered as a typed
// question, under what was recognised. The stand-in hears a recording's bytes as its words.
func TestVoiceMessages(t *testing.T) {
	const question = "Курс евро на 01.03.2026 - какой?"
	voice := func(seconds, size int) *tgbotapi.Voice {
		return &tgbotapi.Voice{FileID: "v1", FileUniqueID: "uv1", Duration: seconds, MimeType: "audio/ogg", FileSize: size}
	}
	const group = -100700
	tests := []struct {
		name      string
		msg       fakes.Text
		noService bool                                   // Options.Transcriber nil
		speech    func(*fakes.Transcription) fakes.Reply // nil: the stand-in hears the file's bytes
		answer    func(api.Request) (api.Answer, error)  // nil: echo
		access    Access
		want      string // the one reply; "" = none
		wantFile  string // the file name the service saw; "" = nothing sent to it
		inReply   bool   // the reply replies to the voice message (groups)
	}{
		{name: "voice note in a private chat", msg: fakes.Text{ChatID: 60, Voice: voice(4, len(question))},
			want: "🎙 Распознал: «" + question + "»\n\nэхо: " + question, wantFile: "voice.ogg"},
		{name: "audio file keeps its format, not its name", msg: fakes.Text{ChatID: 60,
			Audio: &tgbotapi.Audio{FileID: "v1", FileName: "Совещание с Ромашкой.m4a", MimeType: "audio/mp4", Duration: 30, FileSize: len(question)}},
			want: "🎙 Распознал: «" + question + "»\n\nэхо: " + question, wantFile: "audio.m4a"},
		{name: "too long", msg: fakes.Text{ChatID: 60, Voice: voice(301, 9000)},
			want: "Запись длиннее 5 мин — такие не распознаю. Запишите вопрос короче или напишите его текстом."},
		{name: "too big", msg: fakes.Text{ChatID: 60, Voice: voice(200, 21<<20)}, want: voiceTooBig},
		{name: "a format the service does not take", msg: fakes.Text{ChatID: 60,
			Audio: &tgbotapi.Audio{FileID: "v1", FileName: "call.amr", MimeType: "audio/amr", Duration: 30, FileSize: len(question)}},
			want: voiceFormat},
		{name: "no service configured", msg: fakes.Text{ChatID: 60, Voice: voice(4, len(question))}, noService: true, want: voiceOff},
		{name: "no speech", msg: fakes.Text{ChatID: 60, Voice: voice(4, len(question))},
			speech: func(*fakes.Transcription) fakes.Reply { return fakes.Reply{Content: "  "} }, want: voiceNoSpeech, wantFile: "voice.ogg"},
		{name: "service error", msg: fakes.Text{ChatID: 60, Voice: voice(4, len(question))},
			speech: func(*fakes.Transcription) fakes.Reply { return fakes.Reply{Status: 503} },
			want:   userMessage(api.ErrUnavailable), wantFile: "voice.ogg"},
		{name: "the answer fails after the words were heard", msg: fakes.Text{ChatID: 60, Voice: voice(4, len(question))},
			answer: func(api.Request) (api.Answer, error) { return api.Answer{}, api.ErrUnavailable },
			want:   "🎙 Распознал: «" + question + "»\n\n" + userMessage(api.ErrUnavailable), wantFile: "voice.ogg"},
		{name: "a stranger is refused before anything is downloaded", msg: fakes.Text{ChatID: 62, Voice: voice(4, len(question))},
			access: Access{Users: []int64{60}}, want: "Извините, этот бот доступен только сотрудникам компании. Чтобы получить доступ, обратитесь к администратору."},
		{name: "group voice note not addressed to the bot", msg: fakes.Text{ChatID: group, ChatType: "supergroup", UserID: 61, Voice: voice(4, len(question))}},
		{name: "group voice note replying to the bot", msg: fakes.Text{ChatID: group, ChatType: "supergroup", UserID: 61, ReplyTo: 1001, Voice: voice(4, len(question))},
			want: "🎙 Распознал: «" + question + "»\n\nэхо: " + question, wantFile: "voice.ogg", inReply: true},
		{name: "group voice note whose caption mentions the bot", msg: fakes.Text{ChatID: group, ChatType: "supergroup", UserID: 61, Text: "@finbot_test_bot", Voice: voice(4, len(question))},
			want: "🎙 Распознал: «" + question + "»\n\nэхо: " + question, wantFile: "voice.ogg", inReply: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t)
			f.AddFileAt("v1", "voice/file_1.oga", []byte(question))
			speech := fakes.NewTestLLM(t, fakes.LLMOptions{Key: "sk-speech", Transcribe: tt.speech})
			o := Options{Access: tt.access}
			if !tt.noService {
				o.Transcriber = llm.NewTranscriber(llm.Options{BaseURL: speech.URL() + "/v1", APIKey: "sk-speech", Model: "whisper-1",
					Timeout: 5 * time.Second}, "ru")
			}
			agent := echoAgent()
			if tt.answer != nil {
				agent = &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) { return tt.answer(r) }}
			}
			b := startBot(t, f, agent, o)
			_, msgID := f.Say(tt.msg)
			if tt.want != "" {
				f.WaitSent(t, 1)
			}
			settle(t, f, b)

			sent := f.Sent()
			switch {
			case tt.want == "" && len(sent) != 0:
				t.Errorf("replied %q, want silence", sent[0].Text)
			case tt.want != "" && (len(sent) != 1 || sent[0].Text != tt.want):
				t.Errorf("replies %+v, want one: %q", sent, tt.want)
			case tt.inReply && sent[0].ReplyTo != strconv.Itoa(msgID):
				t.Errorf("reply to %q, want to the voice message %d", sent[0].ReplyTo, msgID)
			}
			if strings.HasPrefix(tt.want, "🎙") && !strings.Contains(sent[0].Entities, `"italic"`) {
				t.Errorf("entities %s: the recognised words are not in italics", sent[0].Entities)
			}
			heard := speech.Transcriptions()
			switch {
			case tt.wantFile == "" && (len(heard) != 0 || f.Count("getFile") != 0):
				t.Errorf("%d transcriptions, getFile %d times; want nothing downloaded or sent", len(heard), f.Count("getFile"))
			case tt.wantFile != "" && len(heard) != 1:
				t.Errorf("%d transcriptions, want 1", len(heard))
			case tt.wantFile != "":
				h := heard[0]
				if h.FileName != tt.wantFile || h.Model != "whisper-1" || h.Language != "ru" || h.ResponseFormat != "json" || string(h.Audio) != question {
					t.Errorf("transcription request: file %q, model %q, language %q, format %q, audio %q",
						h.FileName, h.Model, h.Language, h.ResponseFormat, h.Audio)
				}
			}
		})
	}
}

// What a recording is sent as: a voice note always as OGG (its file_path's .oga is not what
// every service takes), an audio file by its name's extension, else its MIME type, never by
// its name.
func TestVoiceOf(t *testing.T) {
	tests := []struct {
		name string
		msg  tgbotapi.Message
		want *voiceRef
	}{
		{"voice note", tgbotapi.Message{Voice: &tgbotapi.Voice{FileID: "a", Duration: 7, FileSize: 900}},
			&voiceRef{id: "a", name: "voice.ogg", size: 900, duration: 7 * time.Second}},
		{"audio by extension", tgbotapi.Message{Audio: &tgbotapi.Audio{FileID: "b", FileName: "Отчёт.MP3", MimeType: "audio/ogg"}},
			&voiceRef{id: "b", name: "audio.mp3"}},
		{"audio by MIME type", tgbotapi.Message{Audio: &tgbotapi.Audio{FileID: "c", FileName: "без расширения", MimeType: "audio/x-wav"}},
			&voiceRef{id: "c", name: "audio.wav"}},
		{"audio in a format not taken", tgbotapi.Message{Audio: &tgbotapi.Audio{FileID: "d", FileName: "x.amr", MimeType: "audio/amr"}},
			&voiceRef{id: "d"}},
		{"no recording", tgbotapi.Message{Text: "привет"}, nil},
	}
	for _, tt := range tests {
		got := voiceOf(&tt.msg)
		if (got == nil) != (tt.want == nil) || (got != nil && *got != *tt.want) {
			t.Errorf("%s: voiceOf = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
