package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/bot/tgmd"
)

// Answerer is the agent as the bot uses it. *agent.Agent satisfies it.
type Answerer interface {
	Answer(ctx context.Context, req agent.Request) (agent.Answer, error)
	Reset(ctx context.Context, req agent.Request) error
	Inline(ctx context.Context, query string) ([]agent.InlineResult, error)
	Upload(ctx context.Context, req agent.Request, f agent.File) (agent.Answer, error)
	RememberReceipt(ctx context.Context, req agent.Request, messageID int, docID string) error
}

// fetcher downloads files users send. The Telegram front end implements it.
type fetcher interface {
	fetch(ctx context.Context, fileID string, limit int64) ([]byte, error)
}

// outgoing is one reply, ready for any front end.
type outgoing struct {
	chatID  int64
	replyTo int // message to reply to in groups; 0 = none
	parts   []tgmd.Message
	buttons []agent.Button
	// answer is the agent's answer behind the reply, when there is one (for `ask --json`).
	answer *agent.Answer
	// photo is a chart sent after the text.
	photo *photo
	// documents are files sent after the text (an Excel export, debug.json).
	documents []document
	// sent, when set, learns the id of the last text message delivered (an upload receipt).
	sent func(messageID int)
}

// document is a file with its caption.
type document struct {
	name, caption string
	data          []byte
}

// photo is a PNG with its caption.
type photo struct {
	png     []byte
	caption tgmd.Message
}

// sender delivers replies. The Telegram and console front ends implement it.
type sender interface {
	send(ctx context.Context, out outgoing) error
	typing(ctx context.Context, chatID int64)
}

// core handles messages the same way for every front end: access, flood control, commands,
// questions, formatting and the one error-to-text mapping.
type core struct {
	answerer Answerer
	out      sender
	files    fetcher // nil: this front end cannot receive files
	log      *slog.Logger
	metrics  *Metrics
	access   Access
	flood    *floodGuard
	users    *userSlots
	commands []command
	// status reports the health of dependencies for /status.
	status         func(ctx context.Context) []string
	typingInterval time.Duration
	typingDelay    time.Duration
	answerTimeout  time.Duration
	started        time.Time
	stream         streamConfig
	natives        nativeDrafts // what the Bot API said to sendMessageDraft (native.go)

	debugMu    sync.Mutex
	debugChats map[int64]bool // chats where admins turned /debug on
}

type coreOptions struct {
	files          fetcher
	access         Access
	perMin, burst  int
	answerTimeout  time.Duration
	typingInterval time.Duration
	status         func(ctx context.Context) []string
}

func newCore(a Answerer, out sender, log *slog.Logger, m *Metrics, o coreOptions) *core {
	if o.answerTimeout <= 0 {
		o.answerTimeout = 90 * time.Second
	}
	if o.typingInterval <= 0 {
		o.typingInterval = 4 * time.Second
	}
	return &core{
		answerer: a, out: out, files: o.files, log: log, metrics: m, access: o.access,
		flood: newFloodGuard(o.perMin, o.burst), users: newUserSlots(), commands: commands(),
		status: o.status, typingInterval: o.typingInterval, typingDelay: typingDelay, answerTimeout: o.answerTimeout, started: time.Now(),
		debugChats: map[int64]bool{}, stream: defaultStreamConfig(),
	}
}

// handle answers one incoming message. It never panics and logs each error once. It reports
// abandoned when shutdown cancelled the answer (the cause of ctx is errShutdown) before any
// reply: the caller decides whether the user hears about it or the next instance answers.
func (c *core) handle(ctx context.Context, in incoming) (abandoned bool) {
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			c.log.ErrorContext(ctx, "handler panic", "update_id", in.updateID, "chat_id", in.chatID, "panic", fmt.Sprint(p))
			c.metrics.errors.WithLabelValues("panic").Inc()
			c.reply(context.WithoutCancel(ctx), in, userMessage(errors.New("panic")))
		}
	}()
	if !c.access.allows(in.userID, in.chatID) {
		c.metrics.updates.WithLabelValues("refused").Inc()
		if c.flood.allow(in.userID, time.Now()) == floodOK {
			c.reply(ctx, in, "Извините, этот бот доступен только сотрудникам компании. Чтобы получить доступ, обратитесь к администратору.")
		}
		return
	}
	switch c.flood.allow(in.userID, time.Now()) {
	case floodNotify:
		c.metrics.updates.WithLabelValues("flood").Inc()
		c.reply(ctx, in, "Слишком много сообщений подряд. Подождите немного — на следующие вопросы я отвечу.")
		return
	case floodSilent:
		c.metrics.updates.WithLabelValues("flood").Inc()
		return
	}

	kind := "question"
	var err error
	switch {
	case in.file != nil:
		kind = "upload"
		err = c.upload(ctx, in)
	case in.command != "":
		kind = "command"
		err = c.runCommand(ctx, in)
	default:
		err = c.answer(ctx, in)
	}
	c.metrics.latency.WithLabelValues(kind).Observe(time.Since(start).Seconds())
	if err != nil && errors.Is(context.Cause(ctx), errShutdown) {
		c.log.WarnContext(ctx, "answer cancelled by shutdown", "update_id", in.updateID, "chat_id", in.chatID, "kind", kind, "err", err)
		if kind != "upload" {
			return true
		}
		// The document may be stored and its receipt sent already: not to be redone elsewhere.
		err = errShutdown
	}
	if err != nil {
		c.log.ErrorContext(ctx, "handle update", "update_id", in.updateID, "chat_id", in.chatID, "kind", kind, "err", err)
		c.metrics.errors.WithLabelValues(kind).Inc()
		c.reply(context.WithoutCancel(ctx), in, userMessage(err))
	}
	return false
}

func (c *core) runCommand(ctx context.Context, in incoming) error {
	c.metrics.routes.WithLabelValues(string(agent.Command), in.command).Inc()
	cmd, ok := c.lookup(in.command)
	if !ok {
		c.reply(ctx, in, "Не знаю такой команды. Список команд — /help.")
		return nil
	}
	if cmd.adminOnly && !c.access.isAdmin(in.userID) {
		c.reply(ctx, in, "Эта команда доступна только администраторам бота.")
		return nil
	}
	return cmd.handle(ctx, c, in)
}

// answer runs a question through the agent.
func (c *core) answer(ctx context.Context, in incoming) error {
	if strings.TrimSpace(in.text) == "" {
		if in.group {
			c.reply(ctx, in, "Я здесь. Напишите вопрос в том же сообщении, что и упоминание, — например, «кто нам должен на 31 марта?».")
			return nil
		}
		return agent.ErrEmpty
	}
	return c.ask(ctx, in, agent.Request{UserID: in.userID, ChatID: in.chatID, Group: in.group, Text: in.text, ReplyTo: in.replyTo})
}

// upload takes a document the user sent: download within Telegram's limit, hand it to the
// agent, send the receipt and remember which message it is. A caption is then answered as a
// question about that document.
func (c *core) upload(ctx context.Context, in incoming) error {
	if c.files == nil {
		c.reply(ctx, in, "Здесь файлы не принимаю. Загрузить документ можно в Telegram или командой `finbot docs add`.")
		return nil
	}
	req := agent.Request{UserID: in.userID, ChatID: in.chatID, Group: in.group}
	docID, err := c.receive(ctx, in, req)
	if err != nil || docID == "" || strings.TrimSpace(in.text) == "" {
		return err
	}
	req.Text, req.OnlyDoc = in.text, docID
	return c.ask(ctx, in, req)
}

// receive runs the upload in the user's slot and returns the stored document's id ("" when
// the file was refused).
func (c *core) receive(ctx context.Context, in incoming, req agent.Request) (string, error) {
	ctx, release, err := c.users.acquire(ctx, in.userID)
	if err != nil {
		return "", err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.answerTimeout)
	defer cancel()
	defer c.startTyping(ctx, in.chatID)()

	f := agent.File{Name: in.file.name, Size: in.file.size}
	if f.Size <= agent.MaxUploadBytes {
		data, err := c.files.fetch(ctx, in.file.id, agent.MaxUploadBytes)
		switch {
		case errors.Is(err, errFileTooBig):
			f.Size = agent.MaxUploadBytes + 1
		case err != nil:
			if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
				return "", errCanceled
			}
			return "", fmt.Errorf("%w: download: %w", errDownload, err)
		default:
			f.Data = data
		}
	}
	ans, err := c.answerer.Upload(ctx, req, f)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
			return "", errCanceled
		}
		return "", err
	}
	c.metrics.routes.WithLabelValues(string(ans.Scenario), ans.Intent).Inc()
	out := outgoing{chatID: in.chatID, parts: render(ans), buttons: ans.Buttons, answer: &ans}
	if in.group {
		out.replyTo = in.messageID
	}
	if ans.Receipt != "" {
		sctx := context.WithoutCancel(ctx)
		out.sent = func(messageID int) {
			if err := c.answerer.RememberReceipt(sctx, req, messageID, ans.Receipt); err != nil {
				c.log.WarnContext(sctx, "remember receipt", "chat_id", in.chatID, "err", err)
			}
		}
	}
	if err := c.send(context.WithoutCancel(ctx), out); err != nil {
		return "", err
	}
	return ans.Receipt, nil
}

// ask runs one agent request, one per user at a time, with the "typing…" indicator on while
// it is prepared, and delivers the answer (text, then its chart).
func (c *core) ask(ctx context.Context, in incoming, req agent.Request) error {
	ctx, release, err := c.users.acquire(ctx, in.userID)
	if err != nil {
		return err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, c.answerTimeout)
	defer cancel()

	// "typing…" stays on until the reply is delivered: under load the reply may wait for
	// Telegram's send budget well after the answer is ready.
	stopTyping := c.startTyping(ctx, in.chatID)
	defer stopTyping()
	if req.ReplyTo == 0 {
		req.ReplyTo = in.replyTo
	}
	// The answer shows up while it is written, where the front end can edit messages.
	s := c.newStreamer(ctx, in)
	if s != nil {
		req.Progress = s.progress
	}
	defer s.stop()
	ans, err := c.answerer.Answer(ctx, req)
	s.stop()
	if err != nil {
		s.discard(context.WithoutCancel(ctx)) // a partial text must not stand as the answer
		if cause := context.Cause(ctx); errors.Is(cause, errCanceled) {
			return errCanceled
		}
		return err
	}
	c.metrics.routes.WithLabelValues(string(ans.Scenario), ans.Intent).Inc()
	out := outgoing{chatID: in.chatID, parts: render(ans), buttons: ans.Buttons, answer: &ans}
	if ans.Chart != nil && len(ans.Chart.PNG) > 0 {
		out.photo = &photo{png: ans.Chart.PNG, caption: caption(ans.Chart.Caption)}
	}
	if d := ans.Document; d != nil && len(d.Bytes) > 0 {
		out.documents = append(out.documents, document{name: d.Name, caption: d.Caption, data: d.Bytes})
	}
	if c.debugOn(in.chatID) && c.access.isAdmin(in.userID) && ans.Debug.Ledger != nil {
		if data, err := json.MarshalIndent(ans.Debug, "", "  "); err == nil {
			out.documents = append(out.documents, document{name: "debug.json", caption: "debug: " + ans.Intent, data: data})
		}
	}
	if in.group {
		out.replyTo = in.messageID
	}
	// The answer is ready: deliver it even if the user cancels now or the deadline passes.
	err = c.sendAnswer(context.WithoutCancel(ctx), out, s)
	stopTyping()
	return err
}

func (c *core) debugOn(chatID int64) bool {
	c.debugMu.Lock()
	defer c.debugMu.Unlock()
	return c.debugChats[chatID]
}

// reply sends a short service text (Markdown).
func (c *core) reply(ctx context.Context, in incoming, markdown string) {
	out := outgoing{chatID: in.chatID, parts: tgmd.Split(tgmd.Convert(markdown), maxMessageUnits)}
	if in.group {
		out.replyTo = in.messageID
	}
	if err := c.send(ctx, out); err != nil {
		c.log.ErrorContext(ctx, "send reply", "chat_id", in.chatID, "err", err)
	}
}

func (c *core) send(ctx context.Context, out outgoing) error {
	if err := c.out.send(ctx, out); err != nil {
		c.metrics.errors.WithLabelValues("send").Inc()
		return fmt.Errorf("send: %w", err)
	}
	c.metrics.replies.Add(float64(len(out.parts)))
	return nil
}

// typingDelay is how long an answer may take before "typing…" is shown: most commands and
// cached answers are out before then, and each sendChatAction is a call to Telegram.
const typingDelay = 800 * time.Millisecond

// keepTyping calls send after delay and then every interval until ctx is done.
func keepTyping(ctx context.Context, delay, interval time.Duration, send func(context.Context)) {
	if interval <= 0 {
		return
	}
	if delay > 0 {
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		send(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// startTyping shows "typing…" in chatID from typingDelay on, until the returned stop is
// called; stop waits for the loop to end.
func (c *core) startTyping(ctx context.Context, chatID int64) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() {
		keepTyping(ctx, c.typingDelay, c.typingInterval, func(ctx context.Context) { c.out.typing(ctx, chatID) })
	})
	return func() { cancel(); wg.Wait() }
}
