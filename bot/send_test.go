package bot

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/internal/fakes"
)

// TestRefusedFileAfterTextStands: Telegram refuses the chart or the Excel file that follows a
// delivered answer (400, its JSON error object, from an upload: the call whose error_code
// go-telegram-bot-api v5.5.1 drops). The upload is tried once, the text stands, the user reads
// one line that the file is missing (no «Что-то пошло не так»), and the chat's next message is
// answered at once. On the fake clock: the retries it used to make took 10–13 s of it.
func TestRefusedFileAfterTextStands(t *testing.T) {
	tests := []struct {
		name, method, note string
		answer             api.Answer
	}{
		{"chart", "sendPhoto", "Не получилось отправить график.",
			api.Answer{Text: "Курс доллара за март", Chart: &api.Chart{PNG: []byte("\x89PNG"), Caption: "USD, март 2026"}}},
		{"export", "sendDocument", "Не получилось отправить файл «receivables.xlsx».",
			api.Answer{Text: "Кто должен нам на 31.03.2026", Document: &api.Document{Name: "receivables.xlsx", Bytes: []byte("PK-xlsx")}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newInProcessAPI(t)
				f.SetFault(fakes.Refuse(tt.method, http.StatusBadRequest, "Bad Request: IMAGE_PROCESS_FAILED", nil))
				a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
					if r.Text == "с файлом" {
						return tt.answer, nil
					}
					return api.Answer{Text: "эхо: " + r.Text}, nil
				}}
				startBot(t, f, a, Options{})
				asked := time.Now()
				f.Push(privateText(10, "с файлом"))
				f.Push(privateText(10, "следующий")) // queued behind it
				f.WaitSent(t, 3)

				if n := f.Count(tt.method); n != 1 {
					t.Errorf("%s tried %d times, want once: a 400 is not retried", tt.method, n)
				}
				want := []string{tt.answer.Text, tt.note, "эхо: следующий"}
				if got := sentTo(f, 10); !slices.Equal(got, want) {
					t.Errorf("chat reads %q, want %q", got, want)
				}
				next := f.Sent()[2]
				for _, c := range f.Calls("sendMessage") {
					if c.Form["text"] == next.Text {
						if d := c.Arrived.Sub(asked); d >= time.Second {
							t.Errorf("the next message was answered %v after it came, want at once (no retries before it)", d)
						}
					}
				}
			})
		})
	}
}

// TestRefusedLaterPartStands: when Telegram refuses the second part of a long reply, the first
// stands and the user reads that the answer is cut short — not «что-то пошло не так при
// подготовке ответа», and not the first part again.
func TestRefusedLaterPartStands(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		long := strings.Repeat("Строка отчёта с суммой 1 000,00 ₽.\n", 250) // over 4096 characters: two parts
		parts := 0
		f.SetFault(fakes.Refuse("sendMessage", http.StatusBadRequest, "Bad Request: message is too long", func(form map[string]string) bool {
			if !strings.HasPrefix(form["text"], "Строка") {
				return false
			}
			parts++
			return parts > 1 // the first part goes through, the second is refused
		}))
		a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
			if r.Text == "длинный" {
				return api.Answer{Text: long}, nil
			}
			return api.Answer{Text: "эхо: " + r.Text}, nil
		}}
		startBot(t, f, a, Options{})
		f.Push(privateText(10, "длинный"))
		f.Push(privateText(10, "следующий"))
		f.WaitSent(t, 3)
		got := sentTo(f, 10)
		if len(got) != 3 || !strings.HasPrefix(got[0], "Строка") || !strings.HasPrefix(got[1], "Ответ пришёл не полностью") || got[2] != "эхо: следующий" {
			t.Errorf("chat reads %q", got)
		}
		for _, m := range got {
			if strings.Contains(m, "Что-то пошло не так") {
				t.Errorf("the user was told the answer failed: %q", m)
			}
		}
	})
}

// TestUploadErrorCodeIsRead: the error of an upload carries Telegram's error_code and
// retry_after, as other calls' errors do: a 429 on sendPhoto waits out its retry_after.
func TestUploadErrorCodeIsRead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newInProcessAPI(t)
		var tries []time.Time
		f.SetFault(func(method string, _ map[string]string) (int, string, bool) {
			if method != "sendPhoto" {
				return 0, "", false
			}
			tries = append(tries, time.Now())
			if len(tries) == 1 {
				return http.StatusTooManyRequests, fakes.RetryAfter(7), true
			}
			return 0, "", false
		})
		a := &fakeAgent{AnswerFunc: func(context.Context, api.Request) (api.Answer, error) {
			return api.Answer{Text: "Курс доллара за март", Chart: &api.Chart{PNG: []byte("\x89PNG"), Caption: "USD"}}, nil
		}}
		startBot(t, f, a, Options{})
		f.Push(privateText(10, "график"))
		f.WaitCalls(t, "sendPhoto", 2)
		if len(tries) != 2 || tries[1].Sub(tries[0]) < 7*time.Second {
			t.Errorf("sendPhoto tried at %v, want a second try 7 s (retry_after) after the first", tries)
		}
	})
}

// TestExportIsOneMessage: a pressed export comes back as one message — the file, the answer
// as its caption with its formatting and the source line, replying to the answer whose button
// asked for it.
func TestExportIsOneMessage(t *testing.T) {
	f := newFakeAPI(t)
	a := &fakeAgent{AnswerFunc: func(_ context.Context, r api.Request) (api.Answer, error) {
		return api.Answer{Text: "Выгрузка в Excel: **18 строк**, 35 987 887,75 ₽.",
			Document: &api.Document{Name: "Дебиторка на 31.03.2026.xlsx", Bytes: []byte("PK-xlsx"), Caption: "Источник: демо-база 1С"}}, nil
	}}
	startBot(t, f, a, Options{})
	f.Push(press(10, 10, 42, "x:abcdefgh2345"))
	f.WaitCalls(t, "sendDocument", 1)
	if n := f.Count("sendMessage"); n != 0 {
		t.Errorf("%d text messages beside the file, want none", n)
	}
	c := f.Calls("sendDocument")[0]
	if c.Form["caption"] != "Выгрузка в Excel: 18 строк, 35 987 887,75 ₽.\n\nИсточник: демо-база 1С" ||
		!strings.Contains(c.Form["caption_entities"], `"bold"`) || c.Form["reply_to_message_id"] != "42" {
		t.Errorf("sendDocument form = %v", c.Form)
	}
}
