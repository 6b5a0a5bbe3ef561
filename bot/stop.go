package bot

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// The native stop (Bot API 10.3): a draft sent with can_stop shows the user a stop button; a
// press on it stops the draft in the client and gives the bot a stopped_message_generation
// update, which the bot reads as the user's /cancel of the answer streamed in that draft. Wire
// format: testdata/send_message_draft.md.

// generationStopped is Bot API 10.3's MessageGenerationStopped: a user stopped the generation of
// the message the bot streamed as draft DraftID in Chat.
type generationStopped struct {
	Chat *tgbotapi.Chat `json:"chat"`
	// MessageThreadID is the thread of the draft, when it has one (finbot sends none).
	MessageThreadID int `json:"message_thread_id,omitempty"`
	DraftID         int `json:"draft_id"`
}

// parse turns an update into an incoming message; ok is false for updates the bot deliberately
// ignores (parseUpdate).
func (u update) parse(me identity, known func(string) bool) (incoming, bool) {
	if s := u.StoppedMessageGeneration; s != nil {
		return parseStop(u.UpdateID, s)
	}
	return parseUpdate(u.Update, me, known)
}

// parseStop reads a press on a draft's stop button as the chat's user typing /cancel, for the
// answer streamed in that draft only. Drafts reach private chats only, whose id is their user's;
// a stop from anywhere else, or without a draft, is ignored.
func parseStop(updateID int, s *generationStopped) (incoming, bool) {
	if s.Chat == nil || s.Chat.Type != "private" || s.Chat.ID <= 0 || s.DraftID == 0 {
		return incoming{}, false
	}
	return incoming{
		updateID:  int64(updateID),
		chatID:    s.Chat.ID,
		userID:    s.Chat.ID,
		command:   "cancel",
		stopDraft: s.DraftID,
	}, true
}
