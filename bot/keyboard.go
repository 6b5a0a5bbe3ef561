package bot

import (
	"strings"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/skill"
)

// Inline keyboards: an answer's suggested replies as rows of buttons, coloured where the answer's
// main action is (Bot API 9.4's InlineKeyboardButton.style,
// core.telegram.org/bots/api/types/inlinekeyboardbutton.md: "danger" red, "success" green,
// "primary" blue; omitted, the app's own look). v5.5.1's InlineKeyboardButton has no style, so
// the keyboard is the bot's own JSON. A Bot API that refuses styles (400) gets the keyboard
// without them, from then on; an older one ignores the field.

// inlineKeyboard is an InlineKeyboardMarkup of callback buttons.
type inlineKeyboard struct {
	InlineKeyboard [][]inlineButton `json:"inline_keyboard"`
}

// inlineButton is an InlineKeyboardButton that sends callback data.
type inlineButton struct {
	Text         string `json:"text"`
	CallbackData string `json:"callback_data"`
	Style        string `json:"style,omitempty"`
}

// maxCallbackData is Telegram's limit on a button's callback data: 1-64 bytes.
const maxCallbackData = 64

// keyboard turns suggested replies into an inline keyboard: one button per row unless a
// button asks to share the previous one's row. Buttons whose data does not fit Telegram's
// 64-byte callback data are left out. Without styles, no button has one.
func keyboard(buttons []api.Button, styles bool) *inlineKeyboard {
	var rows [][]inlineButton
	for _, bt := range buttons {
		data := callbackPrefix + bt.Text
		if bt.Data != "" {
			data = bt.Data
		}
		if len(data) > maxCallbackData {
			continue
		}
		btn := inlineButton{Text: bt.Text, CallbackData: data}
		if styles {
			btn.Style = styleOf(bt)
		}
		if bt.SameRow && len(rows) > 0 && len(rows[len(rows)-1]) < 8 {
			rows[len(rows)-1] = append(rows[len(rows)-1], btn)
			continue
		}
		rows = append(rows, []inlineButton{btn})
	}
	if len(rows) == 0 {
		return nil
	}
	return &inlineKeyboard{InlineKeyboard: rows}
}

// styleOf is a button's style: the one the agent gave it, else the bot's for the actions it knows
// by their data — the Excel export (ledger's "x:") is an answer's main action, the confirmation
// of a document's deletion (documents' "d:X:") destroys. A style Telegram does not know is
// dropped.
func styleOf(b api.Button) string {
	switch b.Style {
	case skill.StylePrimary, skill.StyleSuccess, skill.StyleDanger:
		return b.Style
	case "":
	default:
		return ""
	}
	switch {
	case strings.HasPrefix(b.Data, "x:"):
		return skill.StylePrimary
	case strings.HasPrefix(b.Data, "d:X:"):
		return skill.StyleDanger
	}
	return ""
}

// styled reports whether a button of k has a style.
func (k *inlineKeyboard) styled() bool {
	if k == nil {
		return false
	}
	for _, row := range k.InlineKeyboard {
		for _, b := range row {
			if b.Style != "" {
				return true
			}
		}
	}
	return false
}

// unstyled is k without styles.
func (k *inlineKeyboard) unstyled() *inlineKeyboard {
	if !k.styled() {
		return k
	}
	rows := make([][]inlineButton, len(k.InlineKeyboard))
	for i, row := range k.InlineKeyboard {
		rows[i] = make([]inlineButton, len(row))
		for j, b := range row {
			b.Style = ""
			rows[i][j] = b
		}
	}
	return &inlineKeyboard{InlineKeyboard: rows}
}
