package bot

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

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
	// stored: a receipt was sent since the last message, so the document sent is stored.
	stored bool
	// heard is what the transcriber recognised of the last recording sent ("" for none).
	heard string
}

// ConsoleOptions configure a console session.
type ConsoleOptions struct {
	UserID, ChatID int64 // the identity the session speaks as (chat = user when 0)
	Group          bool
	Logger         *slog.Logger
	Status         func(ctx context.Context) []string
	// Transcriber turns recordings sent as files (SendFile, /upload) into questions; nil
	// refuses them with the bot's message, as Telegram's front end does without one.
	Transcriber Transcriber
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
	var ear Transcriber
	if o.Transcriber != nil {
		ear = consoleEar{t: o.Transcriber, c: c}
	}
	c.core = newCore(a, c, o.Logger, NewMetrics(nil), coreOptions{
		access: Access{Admins: []int64{o.UserID}}, status: o.Status, files: c, transcriber: ear,
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
		in.command = ""
		if in.text == "" {
			c.core.reply(ctx, in, "Использование: /upload путь/к/файлу.pdf")
			return c.last, c.replies
		}
		if _, err := c.SendFile(ctx, in.text, ""); err != nil {
			c.core.reply(ctx, in, api.EscapeMarkdown(sentence(err.Error())))
		}
		return c.last, c.replies
	}
	c.core.handle(ctx, in)
	return c.last, c.replies
}

// Sent is what the console did with a file (SendFile).
type Sent struct {
	// Answer is the agent's answer: to the caption or to what the recording says, else the
	// upload's receipt or the reason it was refused; nil when the front end answered itself
	// (a recording refused).
	Answer *api.Answer
	// Replies are the messages as the user would read them.
	Replies []string
	// Name and Size are the file's, as a Telegram message would carry them.
	Name string
	Size int64
	// Voice: the file went as an audio file, to be transcribed, not as a document.
	Voice bool
	// Taken: the document was stored (or was there already), or the recording was heard.
	// False when the bot refused the file — too big, a format it does not read, no speech
	// service, no speech — and the replies say why.
	Taken bool
	// Heard is what was recognised of the recording.
	Heard string
}

// FileError is a file SendFile could not send: there is none at Path, or it cannot be read.
// Its text is Russian, for the terminal: the console's /upload replies with it, `finbot ask
// --file` exits with it.
type FileError struct {
	Path string
	Err  error
}

// errNotRegular: the path names a directory, a device or the like.
var errNotRegular = errors.New("not a regular file")

func (e *FileError) Error() string {
	switch {
	case errors.Is(e.Err, fs.ErrNotExist):
		return "не нашёл такого файла: " + e.Path
	case errors.Is(e.Err, errNotRegular):
		return "это не файл: " + e.Path
	case errors.Is(e.Err, fs.ErrPermission):
		return "нет прав на чтение файла: " + e.Path
	}
	return "не получилось прочитать файл: " + e.Path
}

func (e *FileError) Unwrap() error { return e.Err }

// SendFile sends the file at path as a Telegram message carries one, caption under it: an
// audio file (by its extension, recordingName) as a recording, transcribed and answered as
// voice messages are, its caption not part of the question; anything else as a document,
// stored and its caption answered as a question about it. The limits, refusals and replies
// are the bot's. A path that names no readable file is a *FileError, and nothing is sent.
func (c *Console) SendFile(ctx context.Context, path, caption string) (Sent, error) {
	c.last, c.replies, c.stored, c.heard = nil, nil, false, ""
	st, err := os.Stat(path)
	if err == nil && !st.Mode().IsRegular() {
		err = errNotRegular
	}
	if err == nil {
		var f *os.File
		if f, err = os.Open(path); err == nil {
			f.Close()
		}
	}
	if err != nil {
		return Sent{}, &FileError{Path: path, Err: err}
	}
	s := Sent{Name: dropControls(filepath.Base(path)), Size: st.Size()}
	in := incoming{chatID: c.chatID, userID: c.userID, group: c.group}
	if name, ok := recordingName(path); ok {
		s.Voice = true
		in.voice = &voiceRef{id: path, name: name, size: s.Size}
	} else {
		in.file = &fileRef{id: path, name: s.Name, size: s.Size}
		in.text = strings.TrimSpace(dropControls(caption))
	}
	c.core.handle(ctx, in)
	s.Answer, s.Replies, s.Heard = c.last, c.replies, c.heard
	s.Taken = c.stored || c.heard != ""
	return s, nil
}

// consoleAudio are the extensions SendFile sends as a recording, and the name the speech
// service sees for each, as voiceOf names Telegram's: an audio file by its format, never its
// own name; a voice note (.oga, as Telegram files it) as voice.ogg; "" for audio the service
// does not take, refused as Telegram's are. Video containers (.mp4, .webm, .mpeg) are not
// here: Telegram carries them as videos, which the bot does not take.
var consoleAudio = map[string]string{
	".oga": "voice.ogg", ".ogg": "audio.ogg", ".opus": "audio.ogg", ".mp3": "audio.mp3",
	".mpga": "audio.mpga", ".m4a": "audio.m4a", ".wav": "audio.wav", ".flac": "audio.flac",
	".aac": "", ".amr": "", ".wma": "", ".aif": "", ".aiff": "", ".ape": "", ".ac3": "",
}

// recordingName is the name the speech service sees for the file at path, and whether it is
// an audio file at all (ok false: it is sent as a document).
func recordingName(path string) (name string, ok bool) {
	name, ok = consoleAudio[strings.ToLower(filepath.Ext(path))]
	return name, ok
}

// consoleEar is the console's transcriber: it keeps what was heard, so that SendFile can say
// whether the recording was.
type consoleEar struct {
	t Transcriber
	c *Console
}

func (e consoleEar) Transcribe(ctx context.Context, name string, audio []byte) (string, error) {
	text, err := e.t.Transcribe(ctx, name, audio)
	if err == nil {
		e.c.heard = strings.Join(strings.Fields(dropControls(text)), " ") // as core.hear reads it
	}
	return text, err
}

// sentence is s with its first letter capitalised.
func sentence(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
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
	if out.sent != nil {
		c.stored = true // only a receipt's message is remembered (receiptOut): the document is kept
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

// fetch reads a local file sent with SendFile (fileID is its path), at most limit bytes.
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
