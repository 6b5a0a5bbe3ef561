package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/documents"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/library"
	"github.com/finbot/finbot/agent/library/extract"
	"github.com/finbot/finbot/agent/postcheck"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
	"github.com/finbot/finbot/ru"
)

// FullContextChars is the most text of selected documents answered in full (S3); above it
// the answer is built from retrieved passages (S4). Seed 002 §1.
const FullContextChars = documents.FullContextChars

// MaxUploadBytes is Telegram's limit on files a bot may download (20 MB).
const MaxUploadBytes = extract.DefaultMaxBytes

// File is a document a user sent.
type File struct {
	Name string
	// Size is the size Telegram reported, checked before Data is fetched.
	Size int64
	Data []byte
}

// DocsDebug explains a document answer.
type DocsDebug struct {
	Owner      string             `json:"-"`
	Selected   []string           `json:"selected,omitempty"`
	Chars      int                `json:"chars,omitempty"` // characters of the selected documents
	Expansions []string           `json:"expansions,omitempty"`
	Search     library.SearchInfo `json:"search"`
	// Gate is the evidence a knowledge-base passage needed to answer (see kbGate); 0 for the
	// user's documents.
	Gate     float64           `json:"gate,omitempty"`
	Passages []library.Passage `json:"passages,omitempty"`
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

// docScope is what documents a question is asked over.
type docScope struct {
	owner    string
	selected []docstore.Meta
	note     string // "Выбрал «…»" after a reply to a receipt
	// kbFallback: the question looked like a knowledge-base one; if the selected documents
	// hold no answer, the knowledge base is asked instead.
	kbFallback bool
}

// lookup is the scope as the documents skill reads it.
func (s docScope) lookup() documents.Scope {
	return documents.Scope{Owner: s.owner, Selected: s.selected}
}

// scope resolves the question's documents: a reply to a receipt selects that document; a
// one-shot document (a file's caption) overrides the selection.
func (a *Agent) scope(ctx context.Context, req Request) (docScope, error) {
	s := docScope{owner: owner(req)}
	if a.library == nil {
		return s, nil
	}
	if req.OnlyDoc != "" {
		m, err := a.library.Get(ctx, s.owner, req.OnlyDoc)
		if err != nil {
			return s, err
		}
		s.selected = []docstore.Meta{m}
		return s, nil
	}
	if req.ReplyTo != 0 {
		m, err := a.library.Receipt(ctx, s.owner, req.ChatID, req.ReplyTo)
		switch {
		case err == nil:
			if err := a.library.Select(ctx, s.owner, req.UserID, m.ID, true); err != nil {
				return s, err
			}
			s.note = fmt.Sprintf("_Выбрал документ «%s» — отвечаю по выбранным документам. Снять выбор — /docs._", EscapeMarkdown(m.Title))
		case !errors.Is(err, library.ErrNotFound):
			return s, err
		}
	}
	sel, err := a.library.Selected(ctx, s.owner, req.UserID)
	if err != nil {
		return s, err
	}
	s.selected = sel
	return s, nil
}

// docScenario turns a route into S3/S4 when documents are selected and the question is not
// about rates, news, 1C or small talk, nor a definition («что такое …») or a knowledge-base
// question the LLM chose knowing the selection.
func docScenario(route RouteDecision, s *docScope) RouteDecision {
	if len(s.selected) == 0 {
		return route
	}
	kb := route.Scenario == S2General && route.Intent == IntentKB
	switch {
	case route.Scenario == S1Search, route.Scenario == S5Clarify && route.FallbackRuleHit != "too_short":
	case kb && route.Source == "rules" && route.FallbackRuleHit != "kb_definition":
		s.kbFallback = true
	default:
		return route
	}
	chars := 0
	for _, m := range s.selected {
		chars += m.Chars
	}
	route.Scenario, route.Intent = S4Retrieve, ""
	reason := fmt.Sprintf("выбраны документы (%d), %d знаков > %d", len(s.selected), chars, FullContextChars)
	if chars <= FullContextChars {
		route.Scenario = S3Full
		reason = fmt.Sprintf("выбраны документы (%d), %d знаков ≤ %d", len(s.selected), chars, FullContextChars)
	}
	route.Reasons = append(route.Reasons, reason)
	return route
}

// documentAnswer answers S1, S3 and S4.
func (a *Agent) documentAnswer(ctx context.Context, req Request, route RouteDecision, text string, s docScope) (Answer, error) {
	if a.library == nil {
		return Answer{Text: "Поиск по документам в этой установке не подключён."}, nil
	}
	dbg := &DocsDebug{Owner: s.owner}
	var ids []string
	for _, m := range s.selected {
		ids = append(ids, m.ID)
		dbg.Selected = append(dbg.Selected, m.Title)
		dbg.Chars += m.Chars
	}
	if route.Scenario == S1Search {
		all, err := a.library.List(ctx, s.owner)
		if err != nil {
			return a.docError(err)
		}
		if len(all) == 0 {
			msg := "У вас пока нет загруженных документов, искать мне негде. Пришлите файл — договор, акт или счёт " +
				"(PDF с текстом, DOCX, XLSX, TXT, MD, CSV до 20 МБ), и задайте вопрос по нему."
			if req.Group {
				msg = "В этой группе пока нет загруженных документов. Пришлите файл с упоминанием бота — он станет доступен всем участникам группы."
			}
			return Answer{Text: msg}, nil
		}
	}
	if miss, ok := a.missingClause(ctx, s.owner, s.selected, text, false); ok {
		// The documents, read whole, have no clause on what is asked: say so rather than quote
		// the clause that comes closest («В договоре … нет пункта о неустойке»).
		if s.kbFallback {
			if kbAns, err := a.withKB(ctx, req, miss, text); err != nil || len(kbAns.Sources) > len(miss.Sources) {
				kbAns.Scenario, kbAns.Intent = S2General, IntentKB
				return kbAns, err
			}
		}
		miss.Debug.Docs = dbg
		if s.note != "" {
			miss.Text = s.note + "\n\n" + miss.Text
		}
		return miss, nil
	}
	var ans Answer
	var err error
	if route.Scenario == S3Full && a.llm != nil {
		ans, err = a.fullContextAnswer(ctx, s, ids, text, dbg)
	} else {
		ans, err = a.passageAnswer(ctx, a.library, s.owner, ids, text, false, 0, dbg)
	}
	if err != nil {
		return Answer{}, err
	}
	if s.kbFallback && (ans.Debug.Docs == nil && len(dbg.Passages) == 0 && !usedFullText(route, a.llm != nil) ||
		usedFullText(route, a.llm != nil) && strings.Contains(ans.Text, noAnswerPhrase)) {
		kbAns, err := a.kbAnswer(ctx, req, text)
		if err != nil {
			return Answer{}, err
		}
		if len(kbAns.Sources) > 0 {
			kbAns.Text = "_В выбранных документах об этом ничего нет._\n\n" + kbAns.Text
			kbAns.Scenario, kbAns.Intent = S2General, IntentKB
			return kbAns, nil
		}
	}
	if s.note != "" {
		ans.Text = s.note + "\n\n" + ans.Text
	}
	ans.Debug.Docs = dbg
	return ans, nil
}

// generalAnswer answers a terminology or rules question. When the rules (not a definition
// pattern, not an LLM that knew the user's library) routed it and the user has documents, a
// relevant passage of their own documents wins: «какие пени за просрочку оплаты?» after
// uploading a contract is about that contract. Otherwise the knowledge base answers.
func (a *Agent) generalAnswer(ctx context.Context, req Request, route RouteDecision, text string) (Answer, error) {
	if a.library != nil && route.Source == "rules" && route.FallbackRuleHit != "kb_definition" {
		own := owner(req)
		all, err := a.library.List(ctx, own)
		if err != nil && ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		if err == nil && len(all) > 0 {
			dbg := &DocsDebug{Owner: own}
			ans, err := a.passageAnswer(ctx, a.library, own, nil, text, false, 0, dbg)
			if err != nil {
				return Answer{}, err
			}
			if len(dbg.Passages) > 0 {
				ans.Scenario, ans.Intent, ans.Debug.Docs = S1Search, "", dbg
				return ans, nil
			}
			// «какая неустойка?» after uploading a contract without one: say so, then what the
			// knowledge base says of penalties in general.
			if miss, ok := a.missingClause(ctx, own, nil, text, true); ok {
				return a.withKB(ctx, req, miss, text)
			}
		}
	}
	return a.kbAnswer(ctx, req, text)
}

// missingClause is documents.MissingClause as the answer, logging documents it could not read.
func (a *Agent) missingClause(ctx context.Context, own string, selected []docstore.Meta, question string, contractsOnly bool) (Answer, bool) {
	r, ok, err := documents.MissingClause(ctx, a.library, own, selected, question, contractsOnly)
	if err != nil && ctx.Err() == nil {
		a.log.WarnContext(ctx, "documents not read for a missing clause", "err", err)
	}
	if !ok {
		return Answer{}, false
	}
	return Answer{Text: r.Text, Sources: sources(r.Sources)}, true
}

// withKB follows an answer about the user's documents with what the knowledge base says, its
// footnotes numbered after the answer's own.
func (a *Agent) withKB(ctx context.Context, req Request, ans Answer, question string) (Answer, error) {
	// The question asks for a standard clause (library.TopicOf): a question about rules, whatever
	// the parser made of it beside the user's documents.
	kbAns, err := a.kbAnswer(context.WithValue(ctx, rulesQuestionKey{}, true), req, question)
	if err != nil || len(kbAns.Sources) == 0 {
		return ans, err
	}
	shift := len(ans.Sources)
	kbAns.Text = citation.ReplaceAllStringFunc(kbAns.Text, func(m string) string {
		n, _ := strconv.Atoi(strings.Trim(m, "[]"))
		return fmt.Sprintf("[%d]", n+shift)
	})
	ans.Text += "\n\n" + kbAns.Text
	ans.Sources = append(ans.Sources, kbAns.Sources...)
	ans.Debug.Docs, ans.Debug.Degraded = kbAns.Debug.Docs, append(ans.Debug.Degraded, kbAns.Debug.Degraded...)
	return ans, nil
}

// noAnswerPhrase is what the answer prompt tells the model to say when the sources are silent.
const noAnswerPhrase = "ответа на этот вопрос нет"

// usedFullText reports whether an S3 answer went to the model with whole documents.
func usedFullText(route RouteDecision, llm bool) bool { return route.Scenario == S3Full && llm }

// kbAnswer answers from the shared knowledge base, with the passages that pass its answer
// gate (kbGate); when none does, it says what was not understood and offers the likeliest
// readings (kbRefusal) instead of an article on something else.
func (a *Agent) kbAnswer(ctx context.Context, req Request, text string) (Answer, error) {
	if a.kb == nil {
		return Answer{Text: "Корпоративная база знаний в этой установке не подключена."}, nil
	}
	d := a.understand(ctx, req, text, docScope{})
	dbg := &DocsDebug{Owner: library.KBOwner, Gate: kbGate(d)}
	if rules, _ := ctx.Value(rulesQuestionKey{}).(bool); rules {
		dbg.Gate = library.KBMinEvidenceRules
	}
	ans, err := a.passageAnswer(ctx, a.kb, library.KBOwner, nil, text, true, dbg.Gate, dbg)
	if err != nil {
		return Answer{}, err
	}
	if len(dbg.Passages) == 0 {
		degraded := ans.Debug.Degraded
		ans = a.kbRefusal(ctx, req, text, d)
		ans.Debug.Degraded = degraded
	}
	ans.Debug.Docs = dbg
	return ans, nil
}

// rulesQuestionKey marks a knowledge-base search for a question known to be about rules (a
// contract's standard clause the user's documents lack): it needs the rules question's evidence.
type rulesQuestionKey struct{}

// kbGate is the evidence a knowledge-base passage needs to answer a message the parser read as
// d: less for what it recognised as a question about rules (library.KBMinEvidenceRules), more
// for anything else (library.KBMinEvidence) — a message nothing in it was understood, a 1C
// question the planner sent to the knowledge base, a query the planner wrote.
func kbGate(d understand.Decision) float64 {
	if d.Kind == understand.KindKB && d.Sure {
		return library.KBMinEvidenceRules
	}
	return library.KBMinEvidence
}

// queryGate is kbGate of a query the planner wrote, read as the parser reads a message.
func (a *Agent) queryGate(query string) float64 {
	return kbGate(a.parser.Parse(understand.Input{Text: query, Now: a.now()}))
}

// passageAnswer searches (with query expansion when there is an LLM) and answers from the
// passages found: by the LLM when there is one, extractively otherwise or when it fails. A
// positive gate is the evidence each passage needs (library.Query.MinEvidence).
func (a *Agent) passageAnswer(ctx context.Context, lib *library.Library, own string, ids []string, text string, kb bool, gate float64,
	dbg *DocsDebug) (Answer, error) {
	var degraded []string
	if qs, ok := ctx.Value(plannedQueriesKey{}).([]string); ok {
		dbg.Expansions = qs // the planner already wrote the sub-queries: no expansion call
	} else if a.llm != nil {
		ex, err := a.expand(ctx, text)
		if err != nil && ctx.Err() == nil {
			a.log.WarnContext(ctx, "query expansion failed; searching the question alone", "err", err)
			degraded = append(degraded, "query_expansion_failed")
		}
		dbg.Expansions = ex
	}
	q := library.Query{Text: text, Expansions: dbg.Expansions, DocIDs: ids, TopK: 5, MinEvidence: gate}
	if len(ids) > 0 {
		// The user chose these documents: the answer is expected to be in them, so a passage
		// sharing fewer of the question's words still qualifies.
		q.MinOverlap = documents.SelectedOverlap
	}
	passages, info, err := lib.Search(ctx, own, q)
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		return a.docError(err)
	}
	dbg.Search, dbg.Passages = info, passages
	degraded = append(degraded, info.Degraded...)
	if len(passages) == 0 {
		ans := Answer{Text: documents.NothingFound(len(ids) > 0)}
		ans.Debug.Degraded = degraded
		return ans, nil
	}
	if a.llm == nil && len(passages) > documents.ExtractiveQuotes {
		passages = passages[:documents.ExtractiveQuotes] // only what is quoted gets a footnote
	}
	srcs, numbers := documents.Sources(passages, kb)
	var ans Answer
	if a.llm != nil {
		ps := make([]prompts.DocSource, len(passages))
		for i, p := range passages {
			ps[i] = prompts.DocSource{N: numbers[i], Title: srcs[numbers[i]-1].Title, Text: p.Text}
		}
		out, err := a.answerFromSources(ctx, prompts.DocsAnswerData{Question: text, Sources: ps, KB: kb}, len(srcs))
		if err == nil {
			ans = Answer{Text: out, Sources: sources(srcs)}
		} else {
			if ctx.Err() != nil {
				return Answer{}, ctx.Err()
			}
			a.log.WarnContext(ctx, "llm answer over passages failed; extractive answer", "err", err)
			degraded = append(degraded, sourcesDegraded(err))
		}
	}
	if ans.Text == "" {
		r := documents.Extractive(passages, text, kb)
		ans.Text, ans.Sources = r.Text, sources(r.Sources)
	}
	if kb {
		ans.Text = "_Основывается на корпоративной базе знаний._\n\n" + ans.Text
	}
	ans.Debug.Degraded = degraded
	return ans, nil
}

// fullContextAnswer is S3 with an LLM: the selected documents in full, as Markdown.
func (a *Agent) fullContextAnswer(ctx context.Context, s docScope, ids []string, text string, dbg *DocsDebug) (Answer, error) {
	full, err := a.library.Full(ctx, s.owner, ids)
	if err != nil {
		return a.docError(err)
	}
	srcs := make([]Source, len(full))
	ps := make([]prompts.DocSource, len(full))
	for i, d := range full {
		srcs[i] = Source{Title: d.Meta.Title}
		ps[i] = prompts.DocSource{N: i + 1, Title: d.Meta.Title, Text: documents.Serialize(d)}
	}
	out, err := a.answerFromSources(ctx, prompts.DocsAnswerData{Question: text, Sources: ps, FullText: true}, len(srcs))
	if err != nil {
		if ctx.Err() != nil {
			return Answer{}, ctx.Err()
		}
		a.log.WarnContext(ctx, "llm full-context answer failed; extractive answer", "err", err)
		ans, perr := a.passageAnswer(ctx, a.library, s.owner, ids, text, false, 0, dbg)
		if !slices.Contains(ans.Debug.Degraded, sourcesDegraded(err)) {
			ans.Debug.Degraded = append(ans.Debug.Degraded, sourcesDegraded(err))
		}
		return ans, perr
	}
	return Answer{Text: out, Sources: srcs}, nil
}

// citation matches the model's footnote marks.
var citation = regexp.MustCompile(`\[(\d{1,2})\]`)

// errAnswerRefused marks an answer the model did give but the checks refused twice: the LLM
// was reached, so the answer is degraded as refused, not as the LLM being unavailable.
var errAnswerRefused = errors.New("answer refused by the checks")

// uncited is the violation of an answer over sources that cites none of them and does not say
// that the sources hold no answer: nothing in it is grounded.
const uncited postcheck.Kind = "uncited"

// sourcesDegraded is the Degraded tag for an answer over sources that the model did not write:
// refused by the checks, or the model could not be reached.
func sourcesDegraded(err error) string {
	if errors.Is(err, errAnswerRefused) {
		return degradedAnswerRefused
	}
	return degradedLLMUnavailable
}

// answerFromSources asks the model and checks its answer: it must be non-empty, cite at least
// one source (or say that the sources hold no answer, as the prompt tells it to) and only
// sources that exist, carry no source list of its own (the code appends it) and pass the
// post-check against the sources (no artifacts, no figure the sources do not hold). A refused
// answer is regenerated once with stricter instructions; a second refusal is errAnswerRefused,
// and the caller answers extractively.
func (a *Agent) answerFromSources(ctx context.Context, d prompts.DocsAnswerData, n int) (string, error) {
	var ref facts.Payload
	for _, s := range d.Sources {
		ref.Items = append(ref.Items, facts.Item{Section: facts.UserDocuments, Title: s.Title, Text: s.Text})
	}
	chk := postcheck.New(ref, d.Question) // the same sources for every attempt and every streamed part
	// A streamed part is shown only if it cites no missing source and passes the post-check;
	// whether it cites at all can be judged only once the answer is whole.
	partOK := func(settled string) bool {
		return len(missingSources(settled, n)) == 0 && chk.CheckPartial(settled) == nil
	}
	var last error
	for range 2 {
		prompt, err := prompts.DocsAnswer(d)
		if err != nil {
			return "", err
		}
		out, err := a.complete(ctx, []llm.Message{{Role: "user", Content: prompt}},
			llm.Call{Model: a.opts.AnswerModel, MaxTokens: 1500, Temperature: a.opts.AnswerTemperature}, partOK)
		if err != nil {
			return "", err
		}
		out = stripSourceList(strings.TrimSpace(out))
		bad := missingSources(out, n)
		if !citation.MatchString(out) && out != "" && !strings.Contains(strings.ToLower(out), noAnswerPhrase) {
			bad = append(bad, postcheck.Violation{Kind: uncited,
				Detail: "в ответе нет ни одной ссылки на источник — поставь номер источника после каждого утверждения или скажи одной фразой, что ответа в источниках нет"})
		}
		bad = append(bad, chk.Check(out)...)
		if len(bad) == 0 {
			return out, nil
		}
		last = fmt.Errorf("%w: %w: %s: %s", errAnswerRefused, llm.ErrBadResponse, bad[0].Kind, bad[0].Detail)
		a.log.InfoContext(ctx, "document answer refused by the post-check", "violations", len(bad), "first", bad[0].Detail)
		d.Stricter = postcheck.Instructions(bad)
	}
	return "", last
}

// missingSources reports the footnote marks of text that point at none of the n sources.
func missingSources(text string, n int) []postcheck.Violation {
	var bad []postcheck.Violation
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		if k, _ := strconv.Atoi(m[1]); k < 1 || k > n {
			bad = append(bad, postcheck.Violation{Kind: postcheck.Artifact,
				Detail: fmt.Sprintf("ссылка [%d] на источник, которого нет (источников %d)", k, n)})
		}
	}
	return bad
}

// sourceListHeading finds a source list the model wrote despite being told not to.
var sourceListHeading = regexp.MustCompile(`(?im)^\s*(\*\*|#+\s*)?(источники|список источников|sources)\s*:?\s*(\*\*)?\s*$`)

func stripSourceList(s string) string {
	if loc := sourceListHeading.FindStringIndex(s); loc != nil {
		return strings.TrimSpace(s[:loc[0]])
	}
	return s
}

// expand asks the model for a few sub-queries (seed 002 §5.2).
func (a *Agent) expand(ctx context.Context, text string) ([]string, error) {
	prompt, err := prompts.Expand(prompts.ExpandData{Question: text})
	if err != nil {
		return nil, err
	}
	ectx, cancel := context.WithTimeout(ctx, a.opts.RouteTimeout)
	defer cancel()
	out, err := a.llm.Complete(ectx, []llm.Message{{Role: "user", Content: prompt}}, llm.Call{JSON: true, MaxTokens: 200, Temperature: 0.2})
	if err != nil {
		return nil, err
	}
	var r struct {
		Queries []string `json:"queries"`
	}
	if err := json.Unmarshal([]byte(extractJSON(out)), &r); err != nil {
		return nil, fmt.Errorf("%w: expansion is not JSON: %w", llm.ErrBadResponse, err)
	}
	var qs []string
	for _, q := range r.Queries {
		q = strings.TrimSpace(q)
		if q != "" && utf8.RuneCountInString(q) <= 300 && len(qs) < 3 {
			qs = append(qs, q)
		}
	}
	return qs, nil
}
