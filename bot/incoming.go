package bot

import (
	"strings"
	"unicode"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/ru"
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
	// replyTo is the bot's own message this one replies to, 0 if none.
	replyTo int
	// file is a document sent to the bot; text is then its caption.
	file *fileRef
	// inboxed: the update is in the webhook inbox until it is settled done (see Inbox).
	inboxed bool
}

// fileRef is a document attached to a message.
type fileRef struct {
	id   string // Telegram file_id, for getFile
	name string
	size int64 // as Telegram reports it, 0 if unknown
}

// identity is what the bot knows of itself, for mentions and command suffixes.
type identity struct {
	id       int64
	username string // without @
}

// parseUpdate turns a Telegram update into an incoming message. ok is false for updates the bot
// deliberately ignores: group chatter not addressed to it, other bots' commands, edits,
// channel posts, messages from bots.
func parseUpdate(u tgbotapi.Update, me identity, known func(string) bool) (incoming, bool) {
	if cq := u.CallbackQuery; cq != nil {
		return parseCallback(u.UpdateID, cq)
	}
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
		in.file = &fileRef{id: d.FileID, name: d.FileName, size: int64(d.FileSize)}
		if in.file.name == "" {
			in.file.name = "документ"
		}
		in.text, entities = m.Caption, m.CaptionEntities
	}
	switch m.Chat.Type {
	case "private":
	case "group", "supergroup":
		in.group = true
	default:
		return incoming{}, false
	}
	if in.text == "" && in.file == nil {
		return incoming{}, false
	}

	addressed := !in.group
	if m.ReplyToMessage != nil && m.ReplyToMessage.From != nil && m.ReplyToMessage.From.ID == me.id {
		addressed = true
		in.replyTo = m.ReplyToMessage.MessageID
	}
	for _, e := range entities {
		switch {
		case e.Type == "bot_command" && e.Offset == 0 && in.file == nil:
			cmd := utf16Slice(m.Text, 0, e.Length)
			if len(cmd) < 2 || cmd[0] != '/' {
				continue // a malformed entity (a forged update) is no command
			}
			rest := utf16Cut(m.Text, 0, e.Length)
			if c, r, ok := cleanCommand(m.Text); ok {
				// An invisible character inside the command («/de\u200bbts») cut Telegram's
				// entity short: the command is read from the text without them.
				cmd, rest = c, r
			}
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

// cleanCommand reads the command at the start of text once format characters are removed
// (ru.CleanInput): "/debts@finbot" and what follows it. ok is false when cleaning changes
// nothing or leaves no command.
func cleanCommand(text string) (cmd, rest string, ok bool) {
	clean := ru.CleanInput(text)
	if clean == text || !strings.HasPrefix(clean, "/") {
		return "", "", false
	}
	end := 1
	for end < len(clean) {
		c := clean[end]
		if c != '_' && c != '@' && (c < '0' || c > '9') && (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			break
		}
		end++
	}
	if end < 2 {
		return "", "", false
	}
	return clean[:end], clean[end:], true
}
