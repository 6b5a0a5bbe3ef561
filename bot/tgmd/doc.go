// Package tgmd converts Markdown produced by the finbot agent into Telegram
// messages that use the entities mode: plain text plus a list of
// MessageEntity values whose offsets and lengths are measured in UTF-16 code
// units.
//
// Because the text is sent without a parse mode, nothing ever needs to be
// escaped: counterparty names full of characters such as _*[]()~>#+-=|{}.!
// reach the user verbatim and Telegram can never answer "can't parse
// entities".
//
// Convert parses CommonMark with the GFM extensions (tables, strikethrough,
// autolinks and task lists) using goldmark and renders the syntax tree into a
// Message. Split cuts a long Message into parts that fit Telegram's 4096
// UTF-16 unit limit, Join concatenates messages, and UTF16Len and UTF16Slice
// help with UTF-16 offsets of incoming messages.
package tgmd
