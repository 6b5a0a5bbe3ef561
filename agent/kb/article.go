package kb

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"
)

// Article is one knowledge base article.
type Article struct {
	// ID is stable across imports: "kb-" and the first 12 hex digits of the
	// SHA-256 of the lower-cased, trimmed title, so re-importing an edited
	// article replaces the old one instead of adding a copy.
	ID           string
	Title        string
	Content      string // Markdown body
	Topic        string // e.g. «НДС»; may be empty
	Jurisdiction string // e.g. «РФ»; may be empty
	// Updated is the date of the last revision, at midnight UTC.
	Updated time.Time
}

// ArticleID returns the ID an article with the given title gets.
func ArticleID(title string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(title))))
	return "kb-" + hex.EncodeToString(sum[:6])
}

// Markdown renders the article as the document that is indexed and shown to
// users: a level-one heading, an italic line with the topic, jurisdiction and
// revision date, and the body. Empty metadata is left out of the line.
func (a Article) Markdown() string {
	var meta []string
	if a.Topic != "" {
		meta = append(meta, "Тема: "+a.Topic)
	}
	if a.Jurisdiction != "" {
		meta = append(meta, "Юрисдикция: "+a.Jurisdiction)
	}
	if !a.Updated.IsZero() {
		meta = append(meta, "Обновлено: "+a.Updated.Format("02.01.2006"))
	}
	var b strings.Builder
	b.Grow(len(a.Title) + len(a.Content) + 128)
	b.WriteString("# ")
	b.WriteString(a.Title)
	b.WriteString("\n\n")
	if len(meta) > 0 {
		b.WriteString("_")
		b.WriteString(strings.Join(meta, " · "))
		b.WriteString("_\n\n")
	}
	b.WriteString(a.Content)
	return b.String()
}
