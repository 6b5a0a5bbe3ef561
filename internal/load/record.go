package load

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// message is one message a simulated user sends, and what became of it.
type message struct {
	idx      int
	user     *user
	chat     *chat
	scenario string
	text     string // as typed, mention and command included
	want     string // what the agent must be asked: the text without the mention, or the command's arguments
	command  string // the command without slash and @suffix; "" for questions
	chatter  bool   // group talk not addressed to the bot: no reply is expected
	// upload is a document sent with the message, its text the caption; the bot stores it
	// (Upload), replies with a receipt, then answers the caption about it (Answer with
	// OnlyDoc).
	upload *document

	// Set when the fake Bot API queues it.
	updateID  int
	messageID int

	// Guarded by recorder.mu.
	queued      time.Time // put in the getUpdates queue
	handedOut   time.Time // first returned by getUpdates
	answerStart time.Time // the agent was asked
	answerEnd   time.Time
	answerErr   error
	continued   bool   // an upload's caption was asked about the stored document
	agentScen   string // the agent's scenario and intent
	intent      string
	llmCalls    int
	firstReply  time.Time // the first sendMessage, sendPhoto or sendDocument attributed to it
	lastSend    time.Time
	sends       int // sendMessage, sendPhoto, sendDocument
	edits       int // editMessageText
	standIn     []span
	replied     chan struct{} // closed at the first reply
	replyTexts  []string      // texts of the messages sent (drafts included), for the report's samples
	gaveUp      bool          // the user stopped waiting for a reply
}

// span is time spent waiting for one stand-in call (request written to body read).
type span struct {
	kind     string
	from, to time.Time
}

// chat is a private chat or a group, with its messages in the order the bot receives them.
type chat struct {
	id    int64
	group bool
	title string
	msgs  []*message // addressed messages in update order
	next  int        // msgs[next:] have not been matched to an Answer call yet
	// current is the message whose Answer call started last: the bot handles a private chat's
	// messages one at a time, so every send to the chat until the next Answer call is its. In
	// a group each member is a conversation of their own, so answers overlap; a group reply is
	// attributed by the message it quotes (reply_to_message_id), current only when it quotes
	// none.
	current *message
}

// sendRecord is one call of the Bot API that puts something in a chat.
type sendRecord struct {
	at      time.Time // the fake Bot API received it: what Telegram counts
	handoff time.Time // the bot's HTTP client was handed the request, just after the send limiter let it go
	method  string
	chatID  int64
	group   bool
}

// recorder attributes what the fake Bot API sees and what the agent is asked to the
// messages of the run.
type recorder struct {
	mu       sync.Mutex
	chats    map[int64]*chat
	byUpdate map[int]*message

	sends      []sendRecord // sendMessage, editMessageText, sendPhoto, sendDocument
	actions    []sendRecord // sendChatAction
	deletes    int
	rejected   map[string]int // Bot API calls answered with an error, by method and description
	unknown    map[string]int // methods the fake does not serve
	orphanSend int            // message-producing calls with no message being answered in that chat
	unexpected []string       // Answer calls that match no message the bot should answer
	skipped    int            // messages passed over by a later Answer call in their chat
	replyToBad int            // group replies whose reply_to_message_id is not the attributed message
	otherStand map[string]time.Duration
	started    time.Time
}

func newRecorder() *recorder {
	return &recorder{
		chats: map[int64]*chat{}, byUpdate: map[int]*message{},
		rejected: map[string]int{}, unknown: map[string]int{}, otherStand: map[string]time.Duration{},
		started: time.Now(),
	}
}

func (r *recorder) addChat(c *chat) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.chats[c.id] = c
}

// queued registers m under its update_id; the fake calls it in update_id order, holding its
// own lock, so each chat's list is in the order the bot will see the messages.
func (r *recorder) queued(m *message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m.queued = time.Now()
	r.byUpdate[m.updateID] = m
	if !m.chatter {
		m.chat.msgs = append(m.chat.msgs, m)
	}
}

// handedOut notes the first time getUpdates returned each update.
func (r *recorder) handedOut(ids []int, at time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, id := range ids {
		if m := r.byUpdate[id]; m != nil && m.handedOut.IsZero() {
			m.handedOut = at
		}
	}
}

// answerStarted matches an Answer call to the first pending message of its chat with the same
// user, text and command, and makes it the chat's current message. It returns nil for a call
// that matches nothing.
func (r *recorder) answerStarted(chatID, userID int64, command, text string) *message {
	text = strings.TrimSpace(text)
	return r.start(chatID, userID, fmt.Sprintf("/%s %q", command, text), func(m *message) bool {
		return m.upload == nil && m.command == command && m.want == text
	})
}

// uploadStarted matches an Upload call to the first pending message of its chat from the user
// with a document of that name.
func (r *recorder) uploadStarted(chatID, userID int64, name string) *message {
	return r.start(chatID, userID, fmt.Sprintf("upload %q", name), func(m *message) bool {
		return m.upload != nil && m.upload.name == name
	})
}

func (r *recorder) start(chatID, userID int64, what string, match func(*message) bool) *message {
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.chats[chatID]
	if c == nil {
		r.unexpected = append(r.unexpected, fmt.Sprintf("chat %d (unknown): %s", chatID, what))
		return nil
	}
	if c.group {
		// Members' questions run concurrently: the member's first question not yet started.
		for _, m := range c.msgs {
			if m.user.id == userID && match(m) && m.answerStart.IsZero() {
				c.current = m
				m.answerStart = time.Now()
				return m
			}
		}
	}
	for i := c.next; !c.group && i < len(c.msgs); i++ {
		m := c.msgs[i]
		if m.user.id != userID || !match(m) {
			continue
		}
		r.skipped += i - c.next
		c.next = i + 1
		c.current = m
		m.answerStart = time.Now()
		return m
	}
	c.current = nil
	r.unexpected = append(r.unexpected, fmt.Sprintf("chat %d user %d: %s", chatID, userID, what))
	return nil
}

// continued matches the Answer call for an upload's caption to that upload: the user's
// upload with this caption whose document was stored and whose caption was not asked yet. It
// stays the chat's current message.
func (r *recorder) continued(chatID, userID int64, text string) *message {
	r.mu.Lock()
	defer r.mu.Unlock()
	text = strings.TrimSpace(text)
	if c := r.chats[chatID]; c != nil {
		for _, m := range c.msgs {
			if m.upload != nil && m.user.id == userID && m.want == text && !m.answerStart.IsZero() && !m.continued {
				m.continued = true
				m.answerEnd = time.Time{} // running again
				c.current = m
				return m
			}
		}
	}
	r.unexpected = append(r.unexpected, fmt.Sprintf("chat %d user %d: caption %q of no upload", chatID, userID, text))
	return nil
}

func (r *recorder) answerEnded(m *message, scenario, intent string, llmCalls int, err error) {
	if m == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	m.answerEnd = time.Now()
	m.llmCalls += llmCalls // an upload's caption is a second call for the same message
	if err != nil || m.answerErr == nil {
		m.answerErr = err
	}
	m.agentScen, m.intent = scenario, intent
}

// sent records a call that puts something in a chat, received at now and handed to the bot's
// HTTP client at handoff (zero if unknown), and attributes it to the chat's current message.
// replyTo is the reply_to_message_id of a new message (0 if none).
func (r *recorder) sent(now, handoff time.Time, method string, chatID int64, replyTo int, text string) {
	if handoff.IsZero() || handoff.After(now) {
		handoff = now
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c := r.chats[chatID]
	rec := sendRecord{at: now, handoff: handoff, method: method, chatID: chatID, group: chatID < 0}
	if method == "sendChatAction" {
		r.actions = append(r.actions, rec)
		return
	}
	r.sends = append(r.sends, rec)
	if c == nil || c.current == nil {
		r.orphanSend++
		return
	}
	m := c.current
	if c.group && replyTo != 0 {
		if q := c.byMessageID(replyTo); q != nil {
			m = q
		} else {
			r.replyToBad++
		}
	}
	m.lastSend = now
	if method == "editMessageText" {
		m.edits++
		return
	}
	m.sends++
	if len(m.replyTexts) < 3 {
		m.replyTexts = append(m.replyTexts, text)
	}
	if m.firstReply.IsZero() {
		m.firstReply = now
		close(m.replied)
	}
}

func (r *recorder) deleted() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.deletes++
}

func (r *recorder) reject(method, description string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.rejected[method+": "+description]++
}

func (r *recorder) unknownMethod(method string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unknown[method]++
}

// standIn records time spent waiting for a stand-in on behalf of m (nil: not attributable).
func (r *recorder) standIn(m *message, kind string, from, to time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m == nil {
		r.otherStand[kind] += to.Sub(from)
		return
	}
	m.standIn = append(m.standIn, span{kind: kind, from: from, to: to})
}

// idle reports whether every message the agent started has finished and nothing was sent for
// quiet.
func (r *recorder) idle(quiet time.Duration) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.chats {
		for _, m := range c.msgs {
			if !m.answerStart.IsZero() && m.answerEnd.IsZero() {
				return false
			}
		}
	}
	n := len(r.sends)
	return n == 0 || time.Since(r.sends[n-1].at) >= quiet
}

func (r *recorder) gaveUp(m *message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m.gaveUp = true
}

// progress counts the messages replied to and the Bot API sends so far.
func (r *recorder) progress() (replied, sends int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.chats {
		for _, m := range c.msgs {
			if !m.firstReply.IsZero() {
				replied++
			}
		}
	}
	return replied, len(r.sends)
}

// byMessageID is the chat's addressed message with that message_id, nil if none.
func (c *chat) byMessageID(id int) *message {
	for _, m := range c.msgs {
		if m.messageID == id {
			return m
		}
	}
	return nil
}
