package bot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/api"
)

const welcome = `Здравствуйте! Я **finbot** — помощник бухгалтерии и финансовой службы.

Спрашивайте обычными словами, например:
- «Кто нам должен на 31 марта?»
- «Курс евро на вчера»
- «Динамика юаня за март»

Пришлите договор, акт или счёт файлом (PDF, DOCX, XLSX, TXT) — отвечу на вопросы по нему со ссылками на страницы. Ваши документы — /docs.

В группе обращайтесь ко мне через упоминание или ответом на моё сообщение.`

func handleStart(ctx context.Context, c *core, in incoming) error {
	c.reply(ctx, in, welcome+"\n\nВсе команды — /help.")
	return nil
}

func handleHelp(ctx context.Context, c *core, in incoming) error {
	var b strings.Builder
	b.WriteString("**Команды**\n\n")
	for _, cmd := range c.commands {
		if cmd.hidden || (cmd.adminOnly && !c.access.isAdmin(in.userID)) {
			continue
		}
		fmt.Fprintf(&b, "- /%s — %s\n", cmd.name, cmd.description)
	}
	b.WriteString("\n**Вопросы** задавайте обычным текстом: о долгах контрагентов и остатках в 1С, курсах валют и ключевой ставке, ")
	b.WriteString("новостях, терминах учёта (по корпоративной базе знаний), по вашим документам — пришлите файл, и спрашивайте. В группе — через упоминание бота или ответом на его сообщение.")
	c.reply(ctx, in, b.String())
	return nil
}

// handleAgentCommand runs a deterministic agent command (/rate, /keyrate, /news) through the
// same path as a question: user slot, typing, deadline, charts.
func handleAgentCommand(ctx context.Context, c *core, in incoming) error {
	return c.ask(ctx, in, api.Request{UserID: in.userID, ChatID: in.chatID, Group: in.group, Text: in.text, Command: in.command})
}

func handleReset(ctx context.Context, c *core, in incoming) error {
	if err := c.answerer.Reset(ctx, api.Request{UserID: in.userID, ChatID: in.chatID, Group: in.group}); err != nil {
		return err
	}
	c.reply(ctx, in, "Историю диалога очистил. Начнём заново.")
	return nil
}

// cancelNothing answers a /cancel with nothing to stop: the answer has been sent (or is being
// delivered), or nothing was asked. A press on a draft's stop button that names no answer being
// prepared (it was delivered meanwhile, or the draft is one of an instance before a restart) is
// answered the same: the user asked to stop, and learns that there is nothing to stop.
const cancelNothing = "Останавливать нечего: ответ уже отправлен (или я сейчас ничего для вас не готовлю)."

// handleCancel stops the user's answer being prepared: any (/cancel), or the one streamed in the
// draft whose stop button was pressed (in.stopDraft).
func handleCancel(ctx context.Context, c *core, in incoming) error {
	stopped := false
	if in.stopDraft != 0 {
		stopped = c.users.cancelDraft(in.userID, in.chatID, in.stopDraft)
	} else {
		stopped = c.users.cancel(in.userID)
	}
	if stopped {
		return nil // the stopped request replies "Остановил подготовку ответа."
	}
	c.reply(ctx, in, cancelNothing)
	return nil
}

func handleStatus(ctx context.Context, c *core, in incoming) error {
	var b strings.Builder
	fmt.Fprintf(&b, "**Состояние finbot**\n\n- работает: %s\n", uptime(time.Since(c.started)))
	if c.status != nil {
		for _, line := range c.status(ctx) {
			fmt.Fprintf(&b, "- %s\n", line)
		}
	}
	c.reply(ctx, in, b.String())
	return nil
}

// handleDebug turns the 1C lane's debug payload on or off for this chat.
func handleDebug(ctx context.Context, c *core, in incoming) error {
	on := strings.EqualFold(strings.TrimSpace(in.text), "on")
	off := strings.EqualFold(strings.TrimSpace(in.text), "off")
	if !on && !off {
		c.reply(ctx, in, "Использование: /debug on или /debug off.")
		return nil
	}
	c.debugMu.Lock()
	c.debugChats[in.chatID] = on
	c.debugMu.Unlock()
	if on {
		c.reply(ctx, in, "Отладка включена: к ответам по данным 1С будет приложен debug.json.")
	} else {
		c.reply(ctx, in, "Отладка выключена.")
	}
	return nil
}

// uptime is a duration as the status reads it: «2 д 3 ч 4 мин», «5 мин 6 с».
func uptime(d time.Duration) string {
	d = d.Round(time.Second)
	days, d := d/(24*time.Hour), d%(24*time.Hour)
	h, d := d/time.Hour, d%time.Hour
	m, sec := d/time.Minute, (d%time.Minute)/time.Second
	var parts []string
	for _, p := range []struct {
		n    time.Duration
		unit string
	}{{days, "д"}, {h, "ч"}, {m, "мин"}} {
		if p.n > 0 || len(parts) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.unit))
		}
	}
	if days == 0 && h == 0 {
		parts = append(parts, fmt.Sprintf("%d с", sec))
	}
	return strings.Join(parts, " ")
}
