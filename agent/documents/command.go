package documents

// The /docs command: the library listed page by page, documents selected, cleared and deleted.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/ru"
)

// docsPageSize is how many documents one /docs page lists.
const docsPageSize = 8

// command answers /docs and the document buttons ("d:<op>:<arg>", q.Command "doc", the data
// in q.Text). Every id is looked up within the requester's own library, so a forged button can
// name nothing else.
func (s *Skill) command(ctx context.Context, req skill.Query) (skill.Reply, error) {
	text := req.Text
	if s.lib == nil {
		return skill.Reply{Text: "Загрузка документов в этой установке не подключена."}, nil
	}
	own := Owner(req.UserID, req.ChatID, req.Group)
	op, arg := "p", "0"
	if req.Command == "doc" {
		parts := strings.SplitN(text, ":", 3)
		if len(parts) != 3 || parts[0] != "d" {
			return skill.Reply{Text: staleButton}, nil
		}
		op, arg = parts[1], parts[2]
	}
	var note string
	switch op {
	case "p": // list page
	case "s", "u": // select, unselect
		m, err := s.lib.Get(ctx, own, arg)
		if err != nil {
			return passages.Error(err)
		}
		if err := s.lib.Select(ctx, own, req.UserID, m.ID, op == "s"); err != nil {
			return passages.Error(err)
		}
		if op == "s" {
			note = fmt.Sprintf("Выбрал «%s»: следующие вопросы — только по выбранным документам.", md.Escape(m.Title))
		} else {
			note = fmt.Sprintf("Снял выбор с «%s».", md.Escape(m.Title))
		}
		arg = "0"
	case "c": // clear selection
		if err := s.lib.ClearSelection(ctx, own, req.UserID); err != nil {
			return passages.Error(err)
		}
		note, arg = "Выбор снят: отвечаю по всем вашим документам.", "0"
	case "x": // ask to confirm deletion
		m, err := s.lib.Get(ctx, own, arg)
		if err != nil {
			return passages.Error(err)
		}
		if ans, ok := mayDelete(req, m); !ok {
			return ans, nil
		}
		return skill.Reply{Text: fmt.Sprintf("Удалить «%s»? Текст документа и все его фрагменты будут удалены без возможности восстановления.",
			md.Escape(m.Title)),
			Buttons: []skill.Button{{Text: "Да, удалить", Data: "d:X:" + m.ID}, {Text: "Отмена", Data: "d:p:0", SameRow: true}}}, nil
	case "X": // delete
		m, err := s.lib.Get(ctx, own, arg)
		if err != nil {
			return passages.Error(err)
		}
		if ans, ok := mayDelete(req, m); !ok {
			return ans, nil
		}
		if _, err := s.lib.Remove(ctx, own, m.ID); err != nil {
			return passages.Error(err)
		}
		note, arg = fmt.Sprintf("Удалил «%s».", md.Escape(m.Title)), "0"
	default:
		return skill.Reply{Text: staleButton}, nil
	}
	page, err := strconv.Atoi(arg)
	if err != nil || page < 0 || page > 1000 {
		page = 0
	}
	return s.list(ctx, req, page, note)
}

const staleButton = "Эта кнопка устарела или повреждена. Список документов — /docs."

// mayDelete: in a group, only the person who uploaded a document may delete it.
func mayDelete(req skill.Query, m docstore.Meta) (skill.Reply, bool) {
	if req.Group && m.UploadedBy != req.UserID {
		return skill.Reply{Text: "Удалить документ группы может только тот, кто его загрузил."}, false
	}
	return skill.Reply{}, true
}

// list is one page of /docs with its buttons.
func (s *Skill) list(ctx context.Context, req skill.Query, page int, note string) (skill.Reply, error) {
	own := Owner(req.UserID, req.ChatID, req.Group)
	all, err := s.lib.List(ctx, own)
	if err != nil {
		return passages.Error(err)
	}
	sel, err := s.lib.Selected(ctx, own, req.UserID)
	if err != nil {
		return passages.Error(err)
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
		return skill.Reply{Text: b.String()}, nil
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
	var buttons []skill.Button
	first := page * docsPageSize
	for i, m := range ordered[first:min(first+docsPageSize, len(ordered))] {
		n := first + i + 1
		mark := ""
		if selected[m.ID] {
			mark = "✅ "
		}
		fmt.Fprintf(&b, "%d. %s**%s** — %s, %s\n", n, mark, md.Escape(m.Title), metaLine(m), m.Added.In(ru.Moscow).Format("02.01.2006"))
		short := ru.Truncate(m.Title, 28)
		if selected[m.ID] {
			buttons = append(buttons, skill.Button{Text: fmt.Sprintf("✅ %d. %s", n, short), Data: "d:u:" + m.ID})
		} else {
			buttons = append(buttons, skill.Button{Text: fmt.Sprintf("%d. %s", n, short), Data: "d:s:" + m.ID})
		}
		buttons = append(buttons, skill.Button{Text: "🗑", Data: "d:x:" + m.ID, SameRow: true})
	}
	if len(sel) > 0 {
		fmt.Fprintf(&b, "\n✅ — выбрано %s: отвечаю только по ним.", ru.Count(len(sel), "документ", "документа", "документов"))
		buttons = append(buttons, skill.Button{Text: "Снять выбор со всех", Data: "d:c:0"})
	} else {
		b.WriteString("\nНажмите на документ, чтобы отвечать только по нему; 🗑 — удалить. Без выбора ищу во всех документах.")
	}
	if pages > 1 {
		fmt.Fprintf(&b, "\nСтраница %d из %d.", page+1, pages)
		nav := false
		if page > 0 {
			buttons = append(buttons, skill.Button{Text: "◀ Назад", Data: fmt.Sprintf("d:p:%d", page-1)})
			nav = true
		}
		if page < pages-1 {
			buttons = append(buttons, skill.Button{Text: "Дальше ▶", Data: fmt.Sprintf("d:p:%d", page+1), SameRow: nav})
		}
	}
	return skill.Reply{Text: b.String(), Buttons: buttons}, nil
}
