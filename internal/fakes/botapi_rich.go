package fakes

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// sendRichMessage (Bot API 10.1): a message of blocks — paragraphs, lists, tables … — that the
// client lays out itself. The fake takes the blocks form of InputRichMessage (Bot API 10.2) with
// the blocks and rich texts finbot writes, and checks them as strictly as it can: every field
// named as core.telegram.org/bots/api documents it (methods/sendrichmessage.md,
// types/inputrichmessage.md, types/richtext.md and the InputRichBlock* classes of 10.2, with
// InputRichBlockTable.is_compact of 10.3). Telegram ignores a parameter it does not know; the fake
// refuses one, so that the bot never counts on one sendRichMessage does not have (a
// reply_to_message_id, a text). Its wordings are its own where Telegram's are not on record.

// richParams are sendRichMessage's parameters.
var richParams = []string{
	"business_connection_id", "chat_id", "message_thread_id", "direct_messages_topic_id",
	"ephemeral_message_parameters", "rich_message", "disable_notification", "protect_content",
	"allow_paid_broadcast", "message_effect_id", "suggested_post_parameters", "reply_parameters",
	"reply_markup",
}

func (f *BotAPI) sendRichMessage(form map[string]string) reply {
	for name := range form {
		if !slices.Contains(richParams, name) {
			return fail(http.StatusBadRequest, "Bad Request: sendRichMessage has no parameter "+name)
		}
	}
	chat, found := chatID(form)
	if !found {
		return fail(http.StatusBadRequest, "Bad Request: chat not found")
	}
	text, err := richMessage(form["rich_message"])
	if err != nil {
		return fail(http.StatusBadRequest, "Bad Request: "+err.Error())
	}
	replyTo, err := replyParameters(form["reply_parameters"])
	if err != nil {
		return fail(http.StatusBadRequest, "Bad Request: can't parse reply parameters: "+err.Error())
	}
	m := Message{Method: "sendRichMessage", ChatID: form["chat_id"], Text: text, Rich: form["rich_message"],
		ReplyTo: replyTo, ReplyParameters: form["reply_parameters"], Markup: form["reply_markup"],
		Ephemeral: form["ephemeral_message_parameters"]}
	if problem := checkEphemeral(m.Ephemeral); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	if problem := checkMarkup(m.Markup); problem != "" {
		return fail(http.StatusBadRequest, problem)
	}
	f.mu.Lock()
	f.post(chat, &m)
	if !f.opts.Unrecorded {
		f.sent = append(f.sent, m)
	}
	f.mu.Unlock()
	return ok(f.message(chat, m))
}

// replyParameters reads a ReplyParameters: the message_id replied to, as a string ("" without
// reply parameters).
func replyParameters(field string) (string, error) {
	if field == "" {
		return "", nil
	}
	var p struct {
		MessageID                *int   `json:"message_id"`
		ChatID                   any    `json:"chat_id"`
		AllowSendingWithoutReply *bool  `json:"allow_sending_without_reply"`
		Quote                    string `json:"quote"`
		QuotePosition            int    `json:"quote_position"`
	}
	if err := strictDecode(field, &p); err != nil {
		return "", err
	}
	if p.MessageID == nil || *p.MessageID <= 0 {
		return "", errors.New("message_id is required")
	}
	return strconv.Itoa(*p.MessageID), nil
}

// RichMessageText is what a rich message (sendRichMessage's rich_message, as sent) shows
// without formatting, as Message.Text has it; "" for one the fake would refuse.
func RichMessageText(field string) string {
	text, err := richMessage(field)
	if err != nil {
		return ""
	}
	return text
}

// richMessage checks an InputRichMessage in its blocks form and returns its text as a chat
// shows it, without formatting: blocks apart by a blank line, list items and table rows on
// lines of their own, a row's cells joined by " │ ".
func richMessage(field string) (string, error) {
	var m struct {
		Blocks              []json.RawMessage `json:"blocks"`
		HTML                *string           `json:"html"`
		Markdown            *string           `json:"markdown"`
		IsRTL               bool              `json:"is_rtl"`
		SkipEntityDetection bool              `json:"skip_entity_detection"`
	}
	if field == "" {
		return "", errors.New("rich_message is required") // the fake's wording
	}
	if err := strictDecode(field, &m); err != nil {
		return "", fmt.Errorf("can't parse rich message: %w", err)
	}
	switch {
	case m.HTML != nil || m.Markdown != nil:
		return "", errors.New("can't parse rich message: the fake takes blocks only")
	case len(m.Blocks) == 0:
		return "", errors.New("RICH_MESSAGE_CONTENT_REQUIRED") // Telegram's answer to a rich message without content
	}
	text, err := richBlocks(m.Blocks)
	if err != nil {
		return "", fmt.Errorf("can't parse rich message: %w", err)
	}
	if strings.TrimSpace(text) == "" {
		return "", errors.New("RICH_MESSAGE_CONTENT_REQUIRED")
	}
	return text, nil
}

func richBlocks(raws []json.RawMessage) (string, error) {
	texts := make([]string, 0, len(raws))
	for i, raw := range raws {
		s, err := richBlock(raw)
		if err != nil {
			return "", fmt.Errorf("block %d: %w", i, err)
		}
		texts = append(texts, s)
	}
	return strings.Join(texts, "\n\n"), nil
}

// richBlock checks one InputRichBlock of the types the fake models and returns its text.
func richBlock(raw json.RawMessage) (string, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return "", err
	}
	switch head.Type {
	case "paragraph":
		var b struct {
			Type string          `json:"type"`
			Text json.RawMessage `json:"text"`
		}
		if err := strictDecode(string(raw), &b); err != nil {
			return "", err
		}
		return richText(b.Text, true)
	case "pre":
		var b struct {
			Type     string          `json:"type"`
			Text     json.RawMessage `json:"text"`
			Language string          `json:"language"`
		}
		if err := strictDecode(string(raw), &b); err != nil {
			return "", err
		}
		return richText(b.Text, true)
	case "divider":
		var b struct {
			Type string `json:"type"`
		}
		return "———", strictDecode(string(raw), &b)
	case "blockquote":
		var b struct {
			Type   string            `json:"type"`
			Blocks []json.RawMessage `json:"blocks"`
			Credit json.RawMessage   `json:"credit"`
		}
		if err := strictDecode(string(raw), &b); err != nil {
			return "", err
		}
		if len(b.Blocks) == 0 {
			return "", errors.New("a block quotation has no blocks")
		}
		return richBlocks(b.Blocks)
	case "list":
		return richList(raw)
	case "table":
		return richTable(raw)
	case "":
		return "", errors.New("a block has no type")
	}
	return "", fmt.Errorf("block type %q is not one the fake models", head.Type)
}

func richList(raw json.RawMessage) (string, error) {
	var b struct {
		Type  string `json:"type"`
		Items []struct {
			Blocks      []json.RawMessage `json:"blocks"`
			HasCheckbox bool              `json:"has_checkbox"`
			IsChecked   bool              `json:"is_checked"`
			Value       *int              `json:"value"`
			Type        *string           `json:"type"`
		} `json:"items"`
	}
	if err := strictDecode(string(raw), &b); err != nil {
		return "", err
	}
	if len(b.Items) == 0 {
		return "", errors.New("a list has no items")
	}
	lines := make([]string, len(b.Items))
	for i, it := range b.Items {
		if len(it.Blocks) == 0 {
			return "", fmt.Errorf("list item %d has no blocks", i)
		}
		if it.Type != nil && !slices.Contains([]string{"a", "A", "i", "I", "1"}, *it.Type) {
			return "", fmt.Errorf("list item %d: label type %q", i, *it.Type)
		}
		s, err := richBlocks(it.Blocks)
		if err != nil {
			return "", fmt.Errorf("list item %d: %w", i, err)
		}
		marker := "• "
		switch {
		case it.HasCheckbox && it.IsChecked:
			marker = "☑ "
		case it.HasCheckbox:
			marker = "☐ "
		case it.Value != nil:
			marker = strconv.Itoa(*it.Value) + ". "
		}
		lines[i] = marker + s
	}
	return strings.Join(lines, "\n"), nil
}

func richTable(raw json.RawMessage) (string, error) {
	var b struct {
		Type  string `json:"type"`
		Cells [][]struct {
			Text     json.RawMessage `json:"text"`
			IsHeader bool            `json:"is_header"`
			Colspan  int             `json:"colspan"`
			Rowspan  int             `json:"rowspan"`
			Align    string          `json:"align"`
			Valign   string          `json:"valign"`
		} `json:"cells"`
		IsBordered bool            `json:"is_bordered"`
		IsStriped  bool            `json:"is_striped"`
		Caption    json.RawMessage `json:"caption"`
		IsCompact  bool            `json:"is_compact"`
	}
	if err := strictDecode(string(raw), &b); err != nil {
		return "", err
	}
	if len(b.Cells) == 0 {
		return "", errors.New("a table has no rows")
	}
	lines := make([]string, len(b.Cells))
	for i, row := range b.Cells {
		if len(row) == 0 {
			return "", fmt.Errorf("table row %d has no cells", i)
		}
		cells := make([]string, len(row))
		for j, c := range row {
			if !slices.Contains([]string{"left", "center", "right"}, c.Align) {
				return "", fmt.Errorf("table cell %d,%d: align %q", i, j, c.Align)
			}
			if !slices.Contains([]string{"top", "middle", "bottom"}, c.Valign) {
				return "", fmt.Errorf("table cell %d,%d: valign %q", i, j, c.Valign)
			}
			if c.Text != nil { // without text the cell is invisible
				s, err := richText(c.Text, false)
				if err != nil {
					return "", fmt.Errorf("table cell %d,%d: %w", i, j, err)
				}
				cells[j] = s
			}
		}
		lines[i] = strings.TrimRight(strings.Join(cells, " │ "), " │")
	}
	return strings.Join(lines, "\n"), nil
}

// richTypes are the RichText types the fake models, with the fields each has besides "type"
// and "text".
var richTypes = map[string][]string{
	"bold": nil, "italic": nil, "underline": nil, "strikethrough": nil, "spoiler": nil,
	"subscript": nil, "superscript": nil, "marked": nil, "code": nil, "url": {"url"},
}

// richText checks a RichText — a String, an Array of RichText, or a formatted text — and returns
// its text; required says whether an empty one is wrong.
func richText(raw json.RawMessage, required bool) (string, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		if required {
			return "", errors.New("text is required")
		}
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var b strings.Builder
		for _, p := range parts {
			s, err := richText(p, true)
			if err != nil {
				return "", err
			}
			b.WriteString(s)
		}
		return b.String(), nil
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			return "", err
		}
		var typ string
		if err := json.Unmarshal(obj["type"], &typ); err != nil {
			return "", errors.New("a rich text has no type")
		}
		extra, known := richTypes[typ]
		if !known {
			return "", fmt.Errorf("rich text type %q is not one the fake models", typ)
		}
		for name := range obj {
			if name != "type" && name != "text" && !slices.Contains(extra, name) {
				return "", fmt.Errorf("rich text %q has no field %q", typ, name)
			}
		}
		if typ == "url" {
			var u string
			if json.Unmarshal(obj["url"], &u) != nil || u == "" {
				return "", errors.New("a url rich text has no url")
			}
		}
		return richText(obj["text"], true)
	}
	return "", fmt.Errorf("a rich text is a string, an array or an object, not %s", raw)
}

// strictDecode decodes field into v, refusing fields v does not have.
func strictDecode(field string, v any) error {
	d := json.NewDecoder(strings.NewReader(field))
	d.DisallowUnknownFields()
	return d.Decode(v)
}
