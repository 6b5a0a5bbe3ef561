package bot

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
)

// incoming is one message the bot must answer, independent of the front end.
type incoming struct {
	updateID  int64
	chatID    int64
	userID    int64
	group     bool
	messageID int
	// text is the message without the bot's mention; for commands, the arguments.
	text string
	// command is the command name without slash and @suffix, lower case; empty for questions.
	command string
	// callbackID is set when the message came from pressing an inline button.
	callbackID string
	// stopDraft is the draft_id of a native draft whose stop button the user pressed (stop.go):
	// the message is then a /cancel of the answer streamed in that draft only.
	stopDraft int
	// replyTo is the bot's own message this one replies to, 0 if none.
	replyTo int
	// file is a document sent to the bot; text is then its caption.
	file *fileRef
	// voice is a voice note or an audio file sent to the bot (voice.go); its caption only
	// addresses the bot, and text is empty until the recording is transcribed.
	voice *voiceRef
	// heard is what was recognised of voice: the question, shown on top of its answer.
	heard string
	// inboxed: the update is in the webhook inbox until it is settled done (see Inbox).
	inboxed bool
	// receipt is the receipt of the file this message came with, sent with the answer to its
	// caption as one message.
	receipt *api.Answer
}

// fileRef is a document or a photo attached to a message.
type fileRef struct {
	id   string // Telegram file_id, for getFile
	name string
	size int64 // as Telegram reports it, 0 if unknown
	// album is the media_group_id of a photo or a file sent in an album, "" for none.
	album string
}

// largestPhoto is the largest size Telegram offers of a photo, nil for none.
func largestPhoto(sizes []tgbotapi.PhotoSize) *tgbotapi.PhotoSize {
	var best *tgbotapi.PhotoSize
	for i := range sizes {
		if best == nil || sizes[i].Width*sizes[i].Height > best.Width*best.Height {
			best = &sizes[i]
		}
	}
	return best
}

// identity is what the bot knows of itself, for mentions and command suffixes.
type identity struct {
	id       int64
	username string // without @
}

// parseUpdate turns a Telegram update into an incoming message. ok is false for updates the bot
// deliberately ignores: group chatter not addressed to it, other bots' commands, edits,
// channel posts, messages from bots. Control characters (NUL and the like) never leave it:
// no client types them, and nothing after the bot expects them.
func parseUpdate(u tgbotapi.Update, me identity, known func(string) bool) (incoming, bool) {
	if cq := u.CallbackQuery; cq != nil {
		return parseCallback(u.UpdateID, cq)
	}
	in, ok := parseMessage(u, me, known)
	if !ok {
		return incoming{}, false
	}
	in.text = strings.TrimSpace(dropControls(in.text))
	if in.file != nil {
		in.file.name = dropControls(in.file.name)
	}
	return in, true
}

func parseMessage(u tgbotapi.Update, me identity, known func(string) bool) (incoming, bool) {
	m := u.Message
	if m == nil || m.From == nil || m.From.IsBot || m.Chat == nil {
		return incoming{}, false
	}
	in := incoming{
		updateID:  int64(u.UpdateID),
		chatID:    m.Chat.ID,
		userID:    m.From.ID,
		messageID: m.MessageID,
		text:      m.Text,
	}
	entities := m.Entities
	if d := m.Document; d != nil {
		in.file = &fileRef{id: d.FileID, name: d.FileName, size: int64(d.FileSize), album: m.MediaGroupID}
		if in.file.name == "" {
			in.file.name = "документ"
		}
		in.text, entities = m.Caption, m.CaptionEntities
	} else if p := largestPhoto(m.Photo); p != nil {
		// A photo (a счёт or a УПД shot with the phone): its largest size, read by recognition;
		// the photos of an album (one media_group_id) are pages of one document.
		in.file = &fileRef{id: p.FileID, name: "photo.jpg", size: int64(p.FileSize), album: m.MediaGroupID}
		in.text, entities = m.Caption, m.CaptionEntities
	} else if in.voice = voiceOf(m); in.voice != nil {
		in.text, entities = m.Caption, m.CaptionEntities
	}
	switch m.Chat.Type {
	case "private":
	case "group", "supergroup":
		in.group = true
	default:
		return incoming{}, false
	}
	if in.text == "" && in.file == nil && in.voice == nil {
		return incoming{}, false
	}

	// A command Telegram did not mark, because something invisible (a BOM, a zero-width space)
	// or a fullwidth slash («／rate», typed with a CJK keyboard layout) comes first: read as the
	// command when, so read, it is one of ours; otherwise the text is a question like any other.
	if in.file == nil && in.voice == nil && !strings.HasPrefix(m.Text, "/") {
		if cmd, rest, ok := readCommand(m.Text); ok {
			name, suffix, _ := strings.Cut(cmd[1:], "@")
			if known(strings.ToLower(name)) || (suffix != "" && !strings.EqualFold(suffix, me.username)) {
				return commandOf(in, cmd, rest, me, known)
			}
		}
	}

	addressed := !in.group
	if m.ReplyToMessage != nil && m.ReplyToMessage.From != nil && m.ReplyToMessage.From.ID == me.id {
		addressed = true
		in.replyTo = m.ReplyToMessage.MessageID
	}
	for _, e := range entities {
		switch {
		case e.Type == "bot_command" && e.Offset == 0 && in.file == nil && in.voice == nil:
			cmd := utf16Slice(m.Text, 0, e.Length)
			if len(cmd) < 2 || cmd[0] != '/' {
				continue // a malformed entity (a forged update) is no command
			}
			rest := utf16Cut(m.Text, 0, e.Length)
			if c, r, ok := readCommand(m.Text); ok {
				// An invisible or control character inside the command («/de\u200bbts»,
				// «/ra\x00te») cut Telegram's entity short: the command is read from the text
				// without them.
				cmd, rest = c, r
			}
			return commandOf(in, cmd, rest, me, known)
		case e.Type == "mention" && strings.EqualFold(utf16Slice(in.text, e.Offset, e.Length), "@"+me.username):
			addressed = true
		case e.Type == "text_mention" && e.User != nil && e.User.ID == me.id:
			addressed = true
		}
	}
	if !addressed {
		return incoming{}, false
	}
	in.text = stripMentions(in.text, entities, me)
	if in.voice != nil {
		in.text = "" // the question is what the recording says
	}
	return in, true
}

// commandOf is in as the command cmd ("/name" or "/name@bot") with the arguments rest; ok is
// false for another bot's command.
func commandOf(in incoming, cmd, rest string, me identity, known func(string) bool) (incoming, bool) {
	name, suffix, _ := strings.Cut(cmd[1:], "@")
	name = strings.ToLower(name)
	switch {
	case suffix != "" && !strings.EqualFold(suffix, me.username):
		return incoming{}, false // another bot's command
	case suffix == "" && in.group && !known(name):
		return incoming{}, false // a bare command meant for some other bot in the group
	}
	in.command = name
	in.text = strings.TrimSpace(rest)
	return in, true
}

// stripMentions removes the bot's @mentions (and text_mentions) and the punctuation that
// addressed it ("@finbot, курс евро" → "курс евро").
func stripMentions(text string, ents []tgbotapi.MessageEntity, me identity) string {
	// Remove from the end so earlier offsets stay valid.
	for i := len(ents) - 1; i >= 0; i-- {
		e := ents[i]
		mine := (e.Type == "mention" && strings.EqualFold(utf16Slice(text, e.Offset, e.Length), "@"+me.username)) ||
			(e.Type == "text_mention" && e.User != nil && e.User.ID == me.id)
		if mine {
			text = utf16Cut(text, e.Offset, e.Length+addressTail(text, e.Offset+e.Length))
		}
	}
	text = strings.TrimFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ':' })
	return strings.Join(strings.Fields(text), " ")
}

// addressTail counts the UTF-16 units of the "," or ":" and spaces that follow a mention
// ("@finbot, курс" → ", "), which go away with it.
func addressTail(s string, at int) int {
	u := utf16.Encode([]rune(s))
	n := 0
	for i := at; i < len(u) && i >= 0; i++ {
		switch c := u[i]; {
		case (c == ',' || c == ':') && n == 0:
			n++
		case c == ' ':
			n++
		default:
			return n
		}
	}
	return n
}

// utf16Slice returns the part of s at Telegram's UTF-16 offset and length; out-of-range
// parts are clipped.
func utf16Slice(s string, off, n int) string {
	u := utf16.Encode([]rune(s))
	off, end := clip(off, len(u)), clip(off+n, len(u))
	if end < off {
		return ""
	}
	return string(utf16.Decode(u[off:end]))
}

// utf16Cut returns s without the UTF-16 range [off, off+n).
func utf16Cut(s string, off, n int) string {
	u := utf16.Encode([]rune(s))
	off, end := clip(off, len(u)), clip(off+n, len(u))
	if end < off {
		return s
	}
	out := append(append([]uint16{}, u[:off]...), u[end:]...)
	return string(utf16.Decode(out))
}

func clip(i, n int) int { return max(0, min(i, n)) }

// readCommand reads the command at the start of text as its sender meant it: "/debts@finbot"
// and what follows it, with invisible characters (format characters such as a BOM or a
// zero-width space) and control characters (NUL) before and inside it dropped, a fullwidth
// slash or fullwidth letters and digits (NFKC's reading of them) made ASCII. The arguments are
// returned as written. ok is false when text does not start with a command so read.
func readCommand(text string) (cmd, rest string, ok bool) {
	i := 0
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !ignorable(r) {
			break
		}
		i += n
	}
	r, n := utf8.DecodeRuneInString(text[i:])
	if r != '/' && r != '／' {
		return "", "", false
	}
	i += n
	var b strings.Builder
	b.WriteByte('/')
scan:
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
			r -= 0xFEE0
		}
		switch {
		case ignorable(r):
		case r == '_' || r == '@' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
			b.WriteRune(r)
		default:
			break scan
		}
		i += n
	}
	if b.Len() < 2 {
		return "", "", false
	}
	return b.String(), text[i:], true
}

// ignorable are the characters a command is read without: format characters (they show as
// nothing) and control characters other than line breaks and tabs, which end it.
func ignorable(r rune) bool {
	return unicode.Is(unicode.Cf, r) || (unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t')
}

// dropControls removes control characters but line breaks and tabs: NUL and the like, which
// no client sends and nothing downstream (history, logs, the LLM, file names) should carry.
func dropControls(s string) string {
	if !strings.ContainsFunc(s, isDroppedControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isDroppedControl(r) {
			return -1
		}
		return r
	}, s)
}

func isDroppedControl(r rune) bool {
	return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t'
}
