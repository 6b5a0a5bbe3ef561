package agent

// The /docs command: the library listed page by page, documents selected, cleared and deleted.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// docsPageSize is how many documents one /docs page lists.
const docsPageSize = 8

// docCommand answers /docs and the document buttons ("d:<op>:<arg>"). Every id is looked up
// within the requester's own library, so a forged button can name nothing else.
func (a *Agent) docCommand(ctx context.Context, req Request, text string) (Answer, error) {
	if a.library == nil {
		return Answer{Text: "Загрузка документов в этой установке не подключена."}, nil
	}
	own := owner(req)
	op, arg := "p", "0"
	if req.Command == "doc" {
		parts := strings.SplitN(text, ":", 3)
		if len(parts) != 3 || parts[0] != "d" {
			return Answer{Text: staleButton}, nil
		}
		op, arg = parts[1], parts[2]
	}
	var note string
	switch op {
	case "p": // list page
	case "s", "u": // select, unselect
		m, err := a.library.Get(ctx, own, arg)
		if err != nil {
			return a.docError(err)
		}
		if err := a.library.Select(ctx, own, req.UserID, m.ID, op == "s"); err != nil {
			return a.docError(err)
		}
		if op == "s" {
			note = fmt.Sprintf("Выбрал «%s»: следующие вопросы — только по выбранным документам.", EscapeMarkdown(m.Title))
		} else {
			note = fmt.Sprintf("Снял выбор с «%s».", EscapeMarkdown(m.Title))
		}
		arg = "0"
	case "c": // clear selection
		if err := a.library.ClearSelection(ctx, own, req.UserID); err != nil {
			return a.docError(err)
		}
		note, arg = "Выбор снят: отвечаю по всем вашим документам.", "0"
	case "x": // ask to confirm deletion
		m, err := a.library.Get(ctx, own, arg)
		if err != nil {
			return a.docError(err)
		}
		if ans, ok := a.mayDelete(req, m); !ok {
			return ans, nil
		}
		return Answer{Text: fmt.Sprintf("Удалить «%s»? Текст документа и все его фрагменты будут удалены без возможности восстановления.",
			EscapeMarkdown(m.Title)),
			Buttons: []Button{{Text: "Да, удалить", Data: "d:X:" + m.ID}, {Text: "Отмена", Data: "d:p:0", SameRow: true}}}, nil
	case "X": // delete
		m, err := a.library.Get(ctx, own, arg)
		if err != nil {
			return a.docError(err)
		}
		if ans, ok := a.mayDelete(req, m); !ok {
			return ans, nil
		}
		if _, err := a.library.Remove(ctx, own, m.ID); err != nil {
			return a.docError(err)
		}
		note, arg = fmt.Sprintf("Удалил «%s».", EscapeMarkdown(m.Title)), "0"
	default:
		return Answer{Text: staleButton}, nil
	}
	page, err := strconv.Atoi(arg)
	if err != nil || page < 0 || page > 1000 {
		page = 0
	}
	return a.docList(ctx, req, page, note)
}

const staleButton = "Эта кнопка устарела или повреждена. Список документов — /docs."

// mayDelete: in a group, only the person who uploaded a document may delete it.
func (a *Agent) mayDelete(req Request, m docstore.Meta) (Answer, bool) {
	if req.Group && m.UploadedBy != req.UserID {
		return Answer{Text: "Удалить документ группы может только тот, кто его загрузил."}, false
	}
	return Answer{}, true
}

func (a *Agent) docError(err error) (Answer, error) {
	if msg := library.UserMessage(err); msg != "" {
		return Answer{Text: msg}, nil
	}
	return Answer{}, fmt.Errorf("%w: documents: %w", ErrUnavailable, err)
}

// docList is one page of /docs with its buttons.
func (a *Agent) docList(ctx context.Context, req Request, page int, note string) (Answer, error) {
	own := owner(req)
	all, err := a.library.List(ctx, own)
	if err != nil {
		return a.docError(err)
	}
	sel, err := a.library.Selected(ctx, own, req.UserID)
	if err != nil {
		return a.docError(err)
	}
	selected := map[string]bool{}
	for _, m := range sel {
		selected[m.ID] = true
	}
	var b strings.Builder
	if note != "" {
		b.WriteString(note + "\n\n")
	}
	if len(all) == 0 {
		where := "У вас пока нет загруженных документов."
		if req.Group {
			where = "В этой группе пока нет загруженных документов."
		}
		b.WriteString(where + " Пришлите файл — PDF с текстом, DOCX, XLSX, TXT, MD или CSV до 20 МБ, " +
			"и я отвечу на вопросы по нему со ссылками на страницы.")
		return Answer{Text: b.String()}, nil
	}
	// Newest first: the document just sent is on the first page.
	ordered := make([]docstore.Meta, len(all))
	for i, m := range all {
		ordered[len(all)-1-i] = m
	}
	pages := (len(ordered) + docsPageSize - 1) / docsPageSize
	page = min(page, pages-1)
	title := "Ваши документы"
	if req.Group {
		title = "Документы группы"
	}
	fmt.Fprintf(&b, "**%s** (%d)\n\n", title, len(all))
	var buttons []Button
	first := page * docsPageSize
	for i, m := range ordered[first:min(first+docsPageSize, len(ordered))] {
		n := first + i + 1
		mark := ""
		if selected[m.ID] {
			mark = "✅ "
		}
		fmt.Fprintf(&b, "%d. %s**%s** — %s, %s\n", n, mark, EscapeMarkdown(m.Title), a.metaLine(m), m.Added.In(ru.Moscow).Format("02.01.2006"))
		short := ru.Truncate(m.Title, 28)
		if selected[m.ID] {
			buttons = append(buttons, Button{Text: fmt.Sprintf("✅ %d. %s", n, short), Data: "d:u:" + m.ID})
		} else {
			buttons = append(buttons, Button{Text: fmt.Sprintf("%d. %s", n, short), Data: "d:s:" + m.ID})
		}
		buttons = append(buttons, Button{Text: "🗑", Data: "d:x:" + m.ID, SameRow: true})
	}
	if len(sel) > 0 {
		fmt.Fprintf(&b, "\n✅ — выбрано %s: отвечаю только по ним.", ru.Count(len(sel), "документ", "документа", "документов"))
		buttons = append(buttons, Button{Text: "Снять выбор со всех", Data: "d:c:0"})
	} else {
		b.WriteString("\nНажмите на документ, чтобы отвечать только по нему; 🗑 — удалить. Без выбора ищу во всех документах.")
	}
	if pages > 1 {
		fmt.Fprintf(&b, "\nСтраница %d из %d.", page+1, pages)
		nav := false
		if page > 0 {
			buttons = append(buttons, Button{Text: "◀ Назад", Data: fmt.Sprintf("d:p:%d", page-1)})
			nav = true
		}
		if page < pages-1 {
			buttons = append(buttons, Button{Text: "Дальше ▶", Data: fmt.Sprintf("d:p:%d", page+1), SameRow: nav})
		}
	}
	return Answer{Text: b.String(), Buttons: buttons}, nil
}
