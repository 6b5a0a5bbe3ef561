package bot

import (
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/api"
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
func render(ans api.Answer) []tgmd.Message {
	return tgmd.Split(tgmd.Convert(markdown(ans)), maxMessageUnits)
}

// markdown is the answer's full Markdown: text plus its footnotes.
func markdown(ans api.Answer) string {
	if len(ans.Sources) == 0 {
		return ans.Text
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(ans.Text))
	b.WriteString("\n\n**Источники**\n")
	for i, s := range ans.Sources {
		title := api.EscapeMarkdown(s.Title)
		if s.URL != "" {
			fmt.Fprintf(&b, "\n\\[%d\\] [%s](%s)", i+1, title, strings.NewReplacer("(", "%28", ")", "%29", " ", "%20").Replace(s.URL))
		} else {
			fmt.Fprintf(&b, "\n\\[%d\\] %s", i+1, title)
		}
	}
	return b.String()
}

// plainText is how a reply reads without formatting (console, `ask`, logs of tests). A
// terminal cannot open a link entity, so a link's address follows its text: «[1] Банк России,
// курсы на 14.03.2026 (https://www.cbr.ru/…)», a news footnote's headline and site then its
// page.
func plainText(parts []tgmd.Message) string {
	texts := make([]string, len(parts))
	for i, p := range parts {
		texts[i] = withAddresses(p)
	}
	return strings.Join(texts, "\n\n")
}

// withAddresses is m's text with each text link's URL written after the link, unless the
// link's text already shows it.
func withAddresses(m tgmd.Message) string {
	var links []tgmd.Entity
	for _, e := range m.Entities {
		if e.Type == "text_link" && e.URL != "" && !strings.Contains(tgmd.UTF16Slice(m.Text, e.Offset, e.Length), e.URL) {
			links = append(links, e)
		}
	}
	if len(links) == 0 {
		return m.Text
	}
	slices.SortStableFunc(links, func(a, b tgmd.Entity) int { return (a.Offset + a.Length) - (b.Offset + b.Length) })
	var b strings.Builder
	u16 := 0
	addresses := func() {
		for len(links) > 0 && links[0].Offset+links[0].Length <= u16 {
			b.WriteString(" (" + links[0].URL + ")")
			links = links[1:]
		}
	}
	for _, r := range m.Text {
		addresses()
		b.WriteRune(r)
		u16 += tgmd.UTF16Len(string(r))
	}
	addresses()
	return b.String()
}
