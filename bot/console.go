package bot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/api"
)

// Console is the terminal front end: the same commands, agent and formatting as Telegram,
// with replies printed as the user would read them.
type Console struct {
	core   *core
	w      io.Writer
	userID int64
	chatID int64
	group  bool
	// last is the agent's answer behind the most recent reply (for `ask --json`).
	last *api.Answer
	// replies collects what Ask printed.
	replies []string
	// buttons are the last reply's buttons: typing their number presses them.
	buttons []api.Button
}

// ConsoleOptions configure a console session.
type ConsoleOptions struct {
	UserID, ChatID int64 // the identity the session speaks as (chat = user when 0)
	Group          bool
	Logger         *slog.Logger
	Status         func(ctx context.Context) []string
}

// NewConsole creates a console session writing replies to w.
func NewConsole(a Answerer, w io.Writer, o ConsoleOptions) *Console {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.ChatID == 0 {
		o.ChatID = o.UserID
	}
	c := &Console{w: w, userID: o.UserID, chatID: o.ChatID, group: o.Group}
	c.core = newCore(a, c, o.Logger, NewMetrics(nil), coreOptions{
		access: Access{Admins: []int64{o.UserID}}, status: o.Status, files: c,
	})
	return c
}

// Ask handles one message (a question or a /command). It returns the agent's answer when the
// message was a question that got one, and the texts of every reply sent.
func (c *Console) Ask(ctx context.Context, text string) (*api.Answer, []string) {
	c.last, c.replies = nil, nil
	in := incoming{chatID: c.chatID, userID: c.userID, group: c.group, text: strings.TrimSpace(dropControls(text))}
	if n, err := strconv.Atoi(in.text); err == nil && n >= 1 && n <= len(c.buttons) {
		b := c.buttons[n-1] // a number presses the button, as a tap would in Telegram
		in.text = b.Text
		if cmd := buttonCommand(b.Data); cmd != "" {
			in.command, in.text = cmd, b.Data
		}
		c.core.handle(ctx, in)
		return c.last, c.replies
	}
	if cmd, rest, ok := readCommand(in.text); ok && !strings.HasPrefix(in.text, "/") {
		in.text = cmd + rest // «／rate», a BOM before the slash: read as Telegram messages are
	}
	if strings.HasPrefix(in.text, "/") {
		name, args, _ := strings.Cut(in.text[1:], " ")
		name, _, _ = strings.Cut(name, "@")
		in.command, in.text = strings.ToLower(name), strings.TrimSpace(args)
	}
	if in.command == "upload" {
		// "/upload PATH": the console's way of sending a file; the path stands in for file_id.
		path := in.text
		in.command, in.text = "", ""
		if path == "" {
			c.core.reply(ctx, in, "Использование: /upload путь/к/файлу.pdf")
			return c.last, c.replies
		}
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			c.core.reply(ctx, in, "Не нашёл такого файла: "+api.EscapeMarkdown(path))
			return c.last, c.replies
		}
		in.file = &fileRef{id: path, name: filepath.Base(path), size: st.Size()}
	}
	c.core.handle(ctx, in)
	return c.last, c.replies
}

// Run reads messages line by line until EOF or ctx is done.
func (c *Console) Run(ctx context.Context, r io.Reader) error {
	fmt.Fprintln(c.w, "finbot — консольный чат. Пишите вопросы; /help — команды, Ctrl+D — выход.")
	lines := make(chan string)
	errc := make(chan error, 1)
	go func() { // owned: exits at EOF or when the reader fails
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
		errc <- sc.Err()
		close(lines)
	}()
	for {
		fmt.Fprint(c.w, "> ")
		select {
		case <-ctx.Done():
			fmt.Fprintln(c.w)
			return nil
		case line, ok := <-lines:
			if !ok {
				fmt.Fprintln(c.w)
				return <-errc
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			c.Ask(ctx, line)
		}
	}
}

func (c *Console) send(_ context.Context, out outgoing) error {
	if out.answer != nil {
		c.last = out.answer
	}
	text := plainText(out.parts)
	c.replies = append(c.replies, text)
	fmt.Fprintln(c.w, text)
	if len(out.buttons) > 0 {
		// Numbered apart from the footnotes' [n]: a number typed alone presses the button.
		fmt.Fprintln(c.w, "Кнопки (введите номер):")
	}
	for i, b := range out.buttons {
		fmt.Fprintf(c.w, "  %d) %s\n", i+1, b.Text)
	}
	c.buttons = out.buttons
	for _, d := range out.documents {
		path, err := saveTemp("finbot-*-"+d.name, d.data)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("📎 %s: %s", d.name, path)
		c.replies = append(c.replies, line)
		fmt.Fprintln(c.w, line)
	}
	if out.photo != nil {
		// A terminal cannot show the chart: save it where the user can open it.
		path, err := saveTemp("finbot-chart-*.png", out.photo.png)
		if err != nil {
			return err
		}
		line := fmt.Sprintf("📈 %s\n   график: %s", out.photo.caption.Text, path)
		c.replies = append(c.replies, line)
		fmt.Fprintln(c.w, line)
	}
	return nil
}

// saveTemp writes data to a new temporary file and returns its path.
func saveTemp(pattern string, data []byte) (string, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", fmt.Errorf("save file: %w", err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		return "", fmt.Errorf("save file: %w", err)
	}
	return f.Name(), nil
}

func (c *Console) typing(context.Context, int64) {}

// fetch reads a local file for /upload (fileID is its path), at most limit bytes.
func (c *Console) fetch(_ context.Context, path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errFileTooBig
	}
	return data, nil
}
