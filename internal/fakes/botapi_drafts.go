package fakes

import (
	"net/http"
	"strconv"
	"time"
)

// sendMessageDraft (Bot API 9.3, open to every bot since 9.5): a private chat shows a growing,
// ephemeral draft until the bot's next message arrives there or 30 s pass without an update.
// Since Bot API 10.3 a draft sent with can_stop shows the user a stop button, and pressing it
// gives the bot a stopped_message_generation update (StopGeneration). Its wire format and the
// errors of the real service: bot/testdata/send_message_draft.md.

// draftTTL is how long a client shows a draft that is not updated.
const draftTTL = 30 * time.Second

// Draft is a successful sendMessageDraft, with its form fields as sent. CanStop and KeepOnStop
// (Bot API 10.3) are "true" when the draft shows the user a stop button and keeps the draft
// when it is pressed.
type Draft struct {
	ChatID, DraftID, Text, Entities, ThreadID string
	CanStop, KeepOnStop                       string
}

type shownDraft struct {
	Draft
	at time.Time
}

// sendMessageDraft answers like Telegram: drafts reach private chats only, draft_id must be a
// non-zero integer, and the text is checked as a message's is; the result is true.
func (f *BotAPI) sendMessageDraft(form map[string]string) reply {
	chat, found := chatID(form)
	id, err := strconv.ParseInt(form["draft_id"], 10, 64)
	switch {
	case !found:
		return fail(http.StatusBadRequest, "Bad Request: chat not found")
	case chat < 0:
		return fail(http.StatusBadRequest, "Bad Request: TEXTDRAFT_PEER_INVALID")
	case err != nil || id == 0:
		// The fake's wording: the Bot API's for this case is not on record.
		return fail(http.StatusBadRequest, "Bad Request: draft_id must be a non-zero integer")
	}
	if problem := check(form["text"], form["entities"], maxText); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	for _, name := range []string{"can_stop", "keep_on_stop"} {
		if v := form[name]; v != "" && v != "true" && v != "false" {
			// The fake's wording: Telegram's for a malformed Boolean is not on record.
			return fail(http.StatusBadRequest, "Bad Request: "+name+" must be a Boolean")
		}
	}
	d := Draft{ChatID: form["chat_id"], DraftID: form["draft_id"], Text: form["text"], Entities: form["entities"],
		ThreadID: form["message_thread_id"], CanStop: form["can_stop"], KeepOnStop: form["keep_on_stop"]}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shown[chat] = shownDraft{Draft: d, at: time.Now()}
	if !f.opts.Unrecorded {
		f.drafts = append(f.drafts, d)
	}
	return ok(true)
}

// Drafts returns the successful sendMessageDraft calls, in order.
func (f *BotAPI) Drafts() []Draft { return cloneLocked(&f.mu, &f.drafts) }

// ShownDraft returns the draft chat shows now, as a client would: the last one sent, unless the
// bot sent a message to the chat since or 30 s passed without an update.
func (f *BotAPI) ShownDraft(chat int64) (Draft, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, found := f.shown[chat]
	if !found || time.Since(d.at) >= draftTTL {
		return Draft{}, false
	}
	return d.Draft, true
}
