package bot

// Replies only the presser sees (Bot API 10.3's ephemeral messages): in a group, what a button
// press brings — a drilldown's figures, an export, a refusal — goes to the member who pressed,
// not in front of everyone. sendMessage and sendDocument take ephemeral_message_parameters
// (core.telegram.org/bots/api/methods/sendmessage.md; the changelog of 10.3 lists both among the
// methods whose receiver_user_id and callback_query_id it replaced with them). A Bot API that
// refuses them (400) gets the reply as before: in the group, replying to the message the button
// was under; an older one ignores the unknown parameter and shows it to the group anyway.
//
// Only replies without buttons go to one member: how a press on a button of an ephemeral message
// reaches a bot (its callback query's message) is not in the documentation the project has, and
// a «Ещё ▸» page of it would need editEphemeralMessageReplyMarkup. A reply with buttons stays in
// the group, where every button keeps working.

// ephemeral is Bot API 10.3's EphemeralMessageParameters: the message is delivered to
// ReceiverUserID only, as the answer to the callback query CallbackQueryID. It never replaces
// the message the button was under (replace_callback_query_message is left false): the answer the
// group sees stays.
type ephemeral struct {
	ReceiverUserID  int64  `json:"receiver_user_id"`
	CallbackQueryID string `json:"callback_query_id,omitempty"`
}

// toPresser is the ephemeral delivery of a reply to in: to the member who pressed a button in a
// group; nil for anything else (a private chat, a typed message).
func toPresser(in incoming) *ephemeral {
	if !in.group || in.callbackID == "" || in.userID == 0 {
		return nil
	}
	return &ephemeral{ReceiverUserID: in.userID, CallbackQueryID: in.callbackID}
}
