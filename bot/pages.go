package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/buttons"
)

// «Ещё ▸»: an answer's inline keyboard has at most three rows, as a thumb can use it. A longer
// one shows its first rows and a last row «Ещё ▸»; a press edits the keyboard in place
// (editMessageReplyMarkup) to show the next rows, with «◂ Назад» back. The whole keyboard is kept
// under a short random id in the chat's scope (KeyboardStore); the navigation buttons carry
// "k:<id>:<page>", far under the 64 bytes of callback data. The row holding the answer's main
// action (a styled button: the Excel export) is on the first page wherever the agent put it.
// A keyboard of the document manager alone ("d:" buttons) pages itself, five documents a page,
// and is left as it is.

const (
	// maxKeyboardRows is the most rows an answer's keyboard shows.
	maxKeyboardRows = 3
	// pageRows are the rows of buttons a page of a longer keyboard shows above its navigation.
	pageRows = maxKeyboardRows - 1
	// pagePrefix starts the callback data of «Ещё ▸» and «◂ Назад»: "k:<id>:<page>".
	pagePrefix = "k:"
	// pagesTimeout bounds one call to the keyboard store.
	pagesTimeout = 2 * time.Second
	// stalePage is the toast of a press on a keyboard the bot no longer keeps.
	stalePage = "Эти кнопки устарели — задайте вопрос ещё раз."
)

// Navigation labels.
const (
	moreLabel = "Ещё ▸"
	backLabel = "◂ Назад"
)

// KeyboardStore keeps the pages of keyboards longer than three rows, under keys the bot builds in
// a chat's scope. Get's ok is false when nothing is kept under key. *history.RedisResults and
// *history.MemoryResults satisfy it; a store shared by the replicas lets any of them turn a
// page.
type KeyboardStore interface {
	Put(ctx context.Context, key string, data []byte) error
	Get(ctx context.Context, key string) (data []byte, ok bool, err error)
}

// keyboardFor is the keyboard of an answer's buttons in chatID: at most three rows, the rest
// behind «Ещё ▸», with styles unless the Bot API refused them. When the pages cannot be kept, the
// whole keyboard is shown rather than buttons lost.
func (b *Bot) keyboardFor(ctx context.Context, chatID int64, bs []api.Button) *inlineKeyboard {
	kb := keyboard(bs, true)
	if kb == nil || len(kb.InlineKeyboard) <= maxKeyboardRows || managerOnly(bs) {
		return b.styles(kb)
	}
	pages := paginate(kb.InlineKeyboard)
	id := buttons.NewID()
	data, err := json.Marshal(pages)
	if err == nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), pagesTimeout)
		err = b.opts.Keyboards.Put(sctx, pageKey(chatID, id), data)
		cancel()
	}
	if err != nil {
		b.core.metrics.errors.WithLabelValues("keyboard_pages").Inc()
		b.log.WarnContext(ctx, "keyboard pages not kept; the whole keyboard is shown", "chat_id", chatID, "err", err)
		return b.styles(kb)
	}
	return b.styles(pageKeyboard(pages, id, 0))
}

// styles is kb with its styles, or without them where the Bot API refused them.
func (b *Bot) styles(kb *inlineKeyboard) *inlineKeyboard {
	if b.noStyles.Load() {
		return kb.unstyled()
	}
	return kb
}

// managerOnly reports a keyboard of the document manager's buttons alone, which pages itself.
func managerOnly(bs []api.Button) bool {
	for _, b := range bs {
		if !strings.HasPrefix(b.Data, "d:") {
			return false
		}
	}
	return len(bs) > 0
}

// paginate splits rows into pages of pageRows rows. The first row that holds a styled button
// (the answer's main action), when it would fall on a later page, closes the first one instead.
func paginate(rows [][]inlineButton) [][][]inlineButton {
	rest, first := rows, pageRows
	var main []inlineButton
	for i, row := range rows {
		if (&inlineKeyboard{InlineKeyboard: [][]inlineButton{row}}).styled() {
			if i >= pageRows {
				main = row
				rest = append(append([][]inlineButton{}, rows[:i]...), rows[i+1:]...)
				first--
			}
			break
		}
	}
	first = min(first, len(rest))
	page := append([][]inlineButton{}, rest[:first]...)
	if main != nil {
		page = append(page, main)
	}
	pages := [][][]inlineButton{page}
	for rest = rest[first:]; len(rest) > 0; {
		n := min(pageRows, len(rest))
		pages = append(pages, rest[:n])
		rest = rest[n:]
	}
	return pages
}

// pageKeyboard is page n of the keyboard kept under id: its rows, then «◂ Назад» and «Ещё ▸»
// where there is a page before or after.
func pageKeyboard(pages [][][]inlineButton, id string, n int) *inlineKeyboard {
	rows := append([][]inlineButton{}, pages[n]...)
	var nav []inlineButton
	if n > 0 {
		nav = append(nav, inlineButton{Text: backLabel, CallbackData: pageData(id, n-1)})
	}
	if n < len(pages)-1 {
		nav = append(nav, inlineButton{Text: moreLabel, CallbackData: pageData(id, n+1)})
	}
	if len(nav) > 0 {
		rows = append(rows, nav)
	}
	return &inlineKeyboard{InlineKeyboard: rows}
}

func pageData(id string, n int) string { return pagePrefix + id + ":" + strconv.Itoa(n) }

// pageKey is the store key of a keyboard's pages, in the chat's scope.
func pageKey(chatID int64, id string) string { return fmt.Sprintf("chat:%d:kb:%s", chatID, id) }

// parsePage reads "k:<id>:<page>"; ok is false for anything else, forged data included.
func parsePage(data string) (id string, n int, ok bool) {
	rest, found := strings.CutPrefix(data, pagePrefix)
	if !found {
		return "", 0, false
	}
	id, num, found := strings.Cut(rest, ":")
	n, err := strconv.Atoi(num)
	if !found || err != nil || n < 0 || n > 99 || !buttons.ValidID(id) {
		return "", 0, false
	}
	return id, n, true
}

// turner turns the page of a keyboard longer than three rows. The Telegram front end implements
// it; it acknowledges the press itself, with a toast when the keyboard is no longer kept.
type turner interface {
	turnPage(ctx context.Context, in incoming)
}

// handlePage answers a press on «Ещё ▸» or «◂ Назад» (the hidden command "page").
func handlePage(ctx context.Context, c *core, in incoming) error {
	t, ok := c.out.(turner)
	if !ok {
		c.acknowledge(ctx, in, false)
		return nil
	}
	t.turnPage(ctx, in)
	return nil
}

// turnPage shows the page a press asks for in place of the keyboard it was pressed on. A
// keyboard no longer kept (a restart with the in-process store, the store's TTL, another chat's
// id) gets a toast; an edit Telegram refuses is logged — the keyboard shown stays, and a press
// again may work.
func (b *Bot) turnPage(ctx context.Context, in incoming) {
	id, n, ok := parsePage(in.text)
	var pages [][][]inlineButton
	if ok {
		pages, ok = b.pages(ctx, in.chatID, id)
	}
	if !ok || n >= len(pages) {
		b.ack(ctx, in.callbackID, stalePage)
		return
	}
	b.ack(ctx, in.callbackID, "")
	if err := b.editMarkup(ctx, in.chatID, in.messageID, b.styles(pageKeyboard(pages, id, n))); err != nil {
		b.core.metrics.errors.WithLabelValues("keyboard_page").Inc()
		b.log.Log(ctx, logLevel(err), "keyboard page not shown", "chat_id", in.chatID, "message_id", in.messageID, "err", err)
	}
}

// ack answers a press's callback query within ackTimeout.
func (b *Bot) ack(ctx context.Context, callbackID, text string) {
	ctx, cancel := context.WithTimeout(ctx, ackTimeout)
	defer cancel()
	b.answerCallback(ctx, callbackID, text)
}

// pages are the pages kept under id in chatID; ok is false when none are (or the store failed).
func (b *Bot) pages(ctx context.Context, chatID int64, id string) (pages [][][]inlineButton, ok bool) {
	sctx, cancel := context.WithTimeout(ctx, pagesTimeout)
	defer cancel()
	data, ok, err := b.opts.Keyboards.Get(sctx, pageKey(chatID, id))
	if err != nil {
		b.log.WarnContext(ctx, "keyboard store unavailable", "chat_id", chatID, "err", err)
		return nil, false
	}
	if !ok || json.Unmarshal(data, &pages) != nil || len(pages) == 0 {
		return nil, false
	}
	return pages, true
}

// editMarkup replaces the keyboard of a message (editMessageReplyMarkup, within the chat's send
// budget). A keyboard already shown is fine; one whose styles the Bot API refuses is shown
// without them.
func (b *Bot) editMarkup(ctx context.Context, chatID int64, messageID int, kb *inlineKeyboard) error {
	edit := func(kb *inlineKeyboard) error {
		if err := b.limits.wait(ctx, chatID); err != nil {
			return err
		}
		params := tgbotapi.Params{"chat_id": strconv.FormatInt(chatID, 10), "message_id": strconv.Itoa(messageID)}
		if err := params.AddInterface("reply_markup", kb); err != nil {
			return err
		}
		_, err := b.tg.call(ctx, "editMessageReplyMarkup", params)
		if isNotModified(err) {
			return nil
		}
		return err
	}
	err := edit(kb)
	if kb.styled() && badRequest(err) && ctx.Err() == nil {
		if uerr := edit(kb.unstyled()); uerr == nil {
			b.refuseStyles(ctx, chatID, err)
			return nil
		}
	}
	return err
}

// memoryKeyboards is the KeyboardStore of one process: at most size keyboards, each for ttl, the
// oldest forgotten first. No goroutine: expired entries go when they are read or pushed out.
type memoryKeyboards struct {
	size int
	ttl  time.Duration

	mu    sync.Mutex
	items map[string]keptKeyboard
	order []string // keys, the oldest first
}

type keptKeyboard struct {
	data []byte
	at   time.Time
}

// Defaults of the in-process keyboard store: as long as the agent keeps what an answer's buttons
// stand for (history.DefaultResultTTL), for as many answers.
const (
	keyboardsKept = 4096
	keyboardsTTL  = 48 * time.Hour
)

func newMemoryKeyboards(size int, ttl time.Duration) *memoryKeyboards {
	return &memoryKeyboards{size: size, ttl: ttl, items: map[string]keptKeyboard{}}
}

func (m *memoryKeyboards) Put(_ context.Context, key string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, found := m.items[key]; !found {
		m.order = append(m.order, key)
	}
	m.items[key] = keptKeyboard{data: data, at: time.Now()}
	for len(m.order) > m.size {
		delete(m.items, m.order[0])
		m.order = m.order[1:]
	}
	return nil
}

func (m *memoryKeyboards) Get(_ context.Context, key string) ([]byte, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k, found := m.items[key]
	if !found || time.Since(k.at) > m.ttl {
		return nil, false, nil
	}
	return k.data, true, nil
}
