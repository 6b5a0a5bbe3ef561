package agent

// Uploads: a file a user sends becomes a document of their library (or their group's), and the receipt message that names it.

import (
	"context"
	"fmt"
	"strings"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// MaxUploadBytes is Telegram's limit on files a bot may download (20 MB).
const MaxUploadBytes = extract.DefaultMaxBytes

// File is a document a user sent.
type File struct {
	Name string
	// Size is the size Telegram reported, checked before Data is fetched.
	Size int64
	Data []byte
}

// Owner is whose documents a request reads and writes: the group's shared set in a group, the
// user's private set otherwise. It is derived from the request only, never from user input.
func Owner(req Request) string { return owner(req) }

func owner(req Request) string {
	if req.Group {
		return fmt.Sprintf("g:%d", req.ChatID)
	}
	return fmt.Sprintf("u:%d", req.UserID)
}

// Upload adds a file to the requester's library and returns the receipt (or the reason it
// was refused). The front end remembers the receipt message with RememberReceipt.
func (a *Agent) Upload(ctx context.Context, req Request, f File) (Answer, error) {
	if a.library == nil {
		return Answer{Text: "Загрузка документов в этой установке не подключена."}, nil
	}
	ans := Answer{Scenario: Command, Intent: "upload", Sources: []Source{}}
	if f.Size > MaxUploadBytes || int64(len(f.Data)) > MaxUploadBytes {
		ans.Text = fmt.Sprintf("Файл «%s» больше 20 МБ — это предел, который Telegram разрешает ботам скачивать. "+
			"Разделите документ на части или пришлите только нужные страницы.", EscapeMarkdown(f.Name))
		return ans, nil
	}
	added, err := a.library.Add(ctx, owner(req), req.UserID, f.Name, f.Data)
	if err != nil {
		if msg := library.UserMessage(err); msg != "" {
			a.log.InfoContext(ctx, "document refused", "chat_id", req.ChatID, "reason", err)
			ans.Text = fmt.Sprintf("Не смог загрузить «%s». %s", EscapeMarkdown(f.Name), msg)
			return ans, nil
		}
		return Answer{}, fmt.Errorf("%w: upload: %w", ErrUnavailable, err)
	}
	m := added.Meta
	switch {
	case added.Duplicate:
		ans.Text = fmt.Sprintf("Этот файл уже загружен как «%s» (%s). Повторно сохранять не стал.",
			EscapeMarkdown(m.Title), a.metaLine(m))
	default:
		ans.Text = fmt.Sprintf("📄 Загрузил «%s»\n\n%s, %s.\n\nСпрашивайте — я буду искать ответ во всех ваших документах. "+
			"Чтобы отвечать только по этому, нажмите «Выбрать» или ответьте на это сообщение вопросом. Все документы — /docs.",
			EscapeMarkdown(m.Title), a.metaLine(m), ru.Count(m.Chunks, "фрагмент", "фрагмента", "фрагментов"))
	}
	ans.Receipt = m.ID
	ans.Buttons = []Button{{Text: "Выбрать для вопросов", Data: "d:s:" + m.ID}, {Text: "Мои документы", Data: "d:p:0", SameRow: true}}
	ans.Debug.Degraded = added.Degraded
	a.remember(ctx, req, "[файл] "+f.Name, ans.Text)
	return ans, nil
}

// RememberReceipt records that the bot's message messageID is the receipt of document id, so
// that replying to it selects the document.
func (a *Agent) RememberReceipt(ctx context.Context, req Request, messageID int, id string) error {
	if a.library == nil {
		return nil
	}
	return a.library.SetReceipt(ctx, owner(req), req.ChatID, messageID, id)
}

// metaLine is "PDF, 3 стр., 12 345 знаков".
func (a *Agent) metaLine(m docstore.Meta) string {
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

// remember appends a non-question exchange (an upload) to the dialog, best effort.
func (a *Agent) remember(ctx context.Context, req Request, user, bot string) {
	hctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
	defer cancel()
	now := a.now()
	if err := a.history.Append(hctx, ConversationKey(req),
		history.Turn{Role: roleUser, Text: user, At: now}, history.Turn{Role: roleAssistant, Text: bot, At: now}); err != nil {
		a.log.WarnContext(ctx, "history append failed", "chat_id", req.ChatID, "err", err)
	}
}
