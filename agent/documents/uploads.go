package documents

// Uploads: a file a user sends becomes a document of their library (or their group's), and the
// receipt message that names it.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/api"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// MaxUploadBytes is Telegram's limit on files a bot may download (20 MB), what extraction
// accepts (extract.DefaultMaxBytes).
const MaxUploadBytes = api.MaxUploadBytes

// File is a document a user sent.
type File = api.File

// Upload adds a file to the library of who sent it (q.UserID, q.ChatID, q.Group) and returns
// the receipt (Reply.Receipt, Scenario skill.Command) or the reason it was refused. The front
// end remembers the receipt message with RememberReceipt; the agent remembers the exchange in
// the dialog («[файл] name», the reply's text) when the reply has a Receipt.
func (s *Skill) Upload(ctx context.Context, q skill.Query, f File) (skill.Reply, error) {
	if s.lib == nil {
		return skill.Reply{Text: "Загрузка документов в этой установке не подключена."}, nil
	}
	r := skill.Reply{Scenario: skill.Command, Sources: []facts.Source{}}
	if f.Size > MaxUploadBytes || int64(len(f.Data)) > MaxUploadBytes {
		r.Text = fmt.Sprintf("Файл «%s» больше 20 МБ — это предел, который Telegram разрешает ботам скачивать. "+
			"Разделите документ на части или пришлите только нужные страницы.", md.Escape(extract.Defang(f.Name)))
		return r, nil
	}
	if len(f.Album) > 0 || extract.IsImage(f.Name, f.Data) {
		return s.scan(ctx, q, f, false)
	}
	added, err := s.lib.Add(ctx, Owner(q.UserID, q.ChatID, q.Group), q.UserID, f.Name, f.Data)
	if errors.Is(err, extract.ErrScanned) {
		return s.scan(ctx, q, f, true)
	}
	if err != nil {
		if msg := library.UserMessage(err); msg != "" {
			s.opts.Logger.InfoContext(ctx, "document refused", "chat_id", q.ChatID, "reason", err)
			// The name as sent, defanged as titles are (extract.Defang): the group reads it.
			r.Text = fmt.Sprintf("Не смог загрузить «%s». %s", md.Escape(extract.Defang(f.Name)), msg)
			return r, nil
		}
		return skill.Reply{}, fmt.Errorf("%w: upload: %w", skill.ErrUnavailable, err)
	}
	m := added.Meta
	switch {
	case added.Duplicate:
		r.Text = fmt.Sprintf("Этот файл уже загружен как «%s» (%s). Повторно сохранять не стал.",
			md.Escape(m.Title), metaLine(m))
	default:
		r.Text = fmt.Sprintf("📄 Загрузил «%s»\n\n%s, %s.\n\nСпрашивайте — я буду искать ответ во всех ваших документах. "+
			"Чтобы отвечать только по этому, нажмите «Выбрать» или ответьте на это сообщение вопросом. Все документы — /docs.",
			md.Escape(m.Title), metaLine(m), ru.Count(m.Chunks, "фрагмент", "фрагмента", "фрагментов"))
	}
	r.Receipt = m.ID
	r.Buttons = []skill.Button{{Text: "Выбрать для вопросов", Data: "d:s:" + m.ID}, {Text: "Мои документы", Data: "d:p:0", SameRow: true}}
	r.Degraded = added.Degraded
	return r, nil
}

// RememberReceipt records that the bot's message messageID in q.ChatID is the receipt of
// document id, so that replying to it selects the document.
func (s *Skill) RememberReceipt(ctx context.Context, q skill.Query, messageID int, id string) error {
	if s.lib == nil {
		return nil
	}
	return s.lib.SetReceipt(ctx, Owner(q.UserID, q.ChatID, q.Group), q.ChatID, messageID, id)
}

// metaLine is "PDF, 3 стр., 12 345 знаков".
func metaLine(m docstore.Meta) string {
	parts := []string{strings.ToUpper(m.Format)}
	if m.Format == "pdf" || m.Pages > 1 {
		unit := "стр."
		if m.Format == "xlsx" {
			unit = ru.Count(m.Pages, "лист", "листа", "листов")
			parts = append(parts, unit)
		} else {
			parts = append(parts, fmt.Sprintf("%d %s", m.Pages, unit))
		}
	}
	parts = append(parts, ru.Count(m.Chars, "знак", "знака", "знаков"))
	return strings.Join(parts, ", ")
}
