package bot

import (
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent"
	"github.com/finbot/finbot/bot/tgmd"
)

// maxMessageUnits is Telegram's limit on one message: 4096 UTF-16 units after entity parsing.
const maxMessageUnits = 4096

// maxCaptionUnits is Telegram's limit on a photo caption.
const maxCaptionUnits = 1024

// caption converts a chart caption, keeping only what fits a photo caption.
func caption(markdown string) tgmd.Message {
	parts := tgmd.Split(tgmd.Convert(markdown), maxCaptionUnits)
	if len(parts) == 0 {
		return tgmd.Message{}
	}
	return parts[0]
}

// render turns an answer into Telegram messages: Markdown converted to entities, sources as
// footnotes «[1] Договор поставки № 15, стр. 3» at the end, split under the limit at block boundaries so the footnotes
// land in the last part.
func render(ans agent.Answer) []tgmd.Message {
	return tgmd.Split(tgmd.Convert(markdown(ans)), maxMessageUnits)
}

// markdown is the answer's full Markdown: text plus its footnotes.
func markdown(ans agent.Answer) string {
	if len(ans.Sources) == 0 {
		return ans.Text
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(ans.Text))
	b.WriteString("\n\n**Источники**\n")
	for i, s := range ans.Sources {
		title := agent.EscapeMarkdown(s.Title)
		if s.URL != "" {
			fmt.Fprintf(&b, "\n\\[%d\\] [%s](%s)", i+1, title, strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(s.URL))
		} else {
			fmt.Fprintf(&b, "\n\\[%d\\] %s", i+1, title)
		}
	}
	return b.String()
}

// plainText is how a reply reads without formatting (console, logs of tests).
func plainText(parts []tgmd.Message) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = p.Text
	}
	return strings.Join(texts, "\n\n")
}
