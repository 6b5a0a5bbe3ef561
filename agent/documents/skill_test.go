package documents

import (
	"regexp"
	"strings"
	"testing"

	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/extract"
)

// kbQuestion is a question the parser read as one for the knowledge base.
var kbQuestion = understand.Decision{Kind: understand.KindKB, Sure: true, Rule: "kb_rules"}

func TestScenario(t *testing.T) {
	for _, tt := range []struct {
		chars  []int
		want   skill.Scenario
		reason string
	}{
		{nil, skill.S1Search, ""},
		{[]int{1000, 2000}, skill.S3Full, "выбраны документы (2), 3000 знаков ≤ 50000"},
		{[]int{FullContextChars}, skill.S3Full, "≤"},
		{[]int{FullContextChars, 1}, skill.S4Retrieve, "выбраны документы (2), 50\u00a0001 знак > 50000"},
	} {
		var sel []docstore.Meta
		for _, c := range tt.chars {
			sel = append(sel, docstore.Meta{Chars: c})
		}
		got, reason := Scenario(sel)
		if got != tt.want || !strings.Contains(reason, tt.reason) {
			t.Errorf("Scenario(%v) = %s, %q; want %s, %q", tt.chars, got, reason, tt.want, tt.reason)
		}
	}
}

func TestAnswerSearch(t *testing.T) {
	lib, _ := contractLibrary(t)
	s := New(lib, Options{})
	r, err := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "какие пени за просрочку поставки",
		Decision: understand.Decision{Kind: understand.KindDocs}})
	if err != nil || r.Scenario != skill.S1Search || len(r.Sources) == 0 || !strings.Contains(r.Text, "0,1%") || r.Then != nil {
		t.Fatalf("Answer() = %+v, %v; want the penalty clause, S1", r, err)
	}
	if dbg, ok := r.Trace["docs"].(*passages.Debug); !ok || len(dbg.Passages) == 0 || dbg.Owner != "u:1" {
		t.Errorf("Trace = %+v, want the passages found", r.Trace)
	}
	for _, group := range []bool{false, true} {
		r, err := s.Answer(t.Context(), skill.Query{UserID: 2, ChatID: -2, Group: group, Text: "какие пени"})
		want := "У вас пока нет загруженных документов"
		if group {
			want = "В этой группе пока нет загруженных документов"
		}
		if err != nil || !strings.HasPrefix(r.Text, want) {
			t.Errorf("group=%v: Answer() with no documents = %q, %v; want %q", group, r.Text, err, want)
		}
	}
	if r, _ := New(nil, Options{}).Answer(t.Context(), skill.Query{Text: "пени"}); r.Text != "Поиск по документам в этой установке не подключён." {
		t.Errorf("Answer() without a library = %q", r.Text)
	}
}

// A knowledge-base question over a selection the documents do not answer is handed over to the
// knowledge base: appended after «нет пункта о …», instead of «nothing found».
func TestHandoff(t *testing.T) {
	lib, m := contractLibrary(t)
	s := New(lib, Options{})
	sel := skill.Docs{Owner: "u:1", Selected: []docstore.Meta{m}, Note: "_Выбрал документ «Договор»._"}

	r, err := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "что в договоре про форс-мажор?", Decision: kbQuestion, Docs: sel})
	// The note goes before the reply only when it stands alone (the knowledge base found nothing).
	want := skill.Handoff{Kind: understand.KindKB, Append: true, OnlyIfFound: true, Rules: true, Note: sel.Note}
	if err != nil || r.Then == nil || *r.Then != want || r.Scenario != skill.S3Full ||
		!strings.HasPrefix(r.Text, "В договоре «Договор поставки № 17» [1] нет пункта о форс-мажоре.") {
		t.Errorf("missing clause = %+v (then %+v), %v; want the clause missing, then the knowledge base appended", r, r.Then, err)
	}

	r, err = s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "ставка НДС в 2026 году", Decision: kbQuestion, Docs: sel})
	want = skill.Handoff{Kind: understand.KindKB, Prefix: NothingSelectedPrefix, OnlyIfFound: true, Note: sel.Note}
	if err != nil || r.Then == nil || *r.Then != want || !strings.HasSuffix(r.Text, passages.NothingFound(true)) {
		t.Errorf("nothing found = %+v (then %+v), %v; want the knowledge base instead", r, r.Then, err)
	}

	// A definition, a question of the documents' own, or one handed over: no hand-over.
	for _, q := range []skill.Query{
		{Decision: understand.Decision{Kind: understand.KindKB, Sure: true, Rule: "kb_definition"}},
		{Decision: understand.Decision{Kind: understand.KindDocs}},
		{Decision: kbQuestion, HandedOff: true},
	} {
		q.UserID, q.ChatID, q.Text, q.Docs = 1, 1, "ставка НДС в 2026 году", sel
		if r, err := s.Answer(t.Context(), q); err != nil || r.Then != nil {
			t.Errorf("%+v: then %+v, %v; want none", q.Decision, r.Then, err)
		}
	}

	// The planner's fallback, with nothing selected.
	p := &plan.QueryPlan{Fallback: plan.Fallback{Enabled: true, Tool: plan.ToolSearchGeneralKB}}
	r, err = s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "ставка НДС в 2026 году", Plan: p, Searches: []string{}})
	if err != nil || r.Then == nil || r.Then.Prefix != NothingSelectedPrefix || r.Scenario != skill.S1Search {
		t.Errorf("planned = %+v (then %+v), %v; want the knowledge base instead", r, r.Then, err)
	}
}

// A vague question is answered from the user's documents only when they hold a passage on it.
func TestVague(t *testing.T) {
	lib, _ := contractLibrary(t)
	s := New(lib, Options{})
	vague := understand.Decision{Kind: understand.KindClarify, Rule: "vague"}
	r, err := s.Answer(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "пени за просрочку поставки", Decision: vague})
	if err != nil || r.Unanswered || r.Scenario != skill.S1Search || len(r.Sources) == 0 {
		t.Errorf("vague over a contract = %+v, %v; want its clause", r, err)
	}
	for _, s := range []*Skill{s, New(nil, Options{})} {
		r, err := s.Answer(t.Context(), skill.Query{UserID: 3, ChatID: 3, Text: "пени за просрочку поставки", Decision: vague})
		if err != nil || !r.Unanswered {
			t.Errorf("vague without documents = %+v, %v; want unanswered", r, err)
		}
	}
}

// An upload's receipt, a reply to it selecting the document, /docs and its buttons.
func TestUploadScopeCommand(t *testing.T) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	s := New(lib, Options{})
	me := skill.Query{UserID: 5, ChatID: 5}
	r, err := s.Upload(t.Context(), me, File{Name: "договор.md", Data: []byte(contract)})
	if err != nil || r.Receipt == "" || r.Scenario != skill.Command || !strings.HasPrefix(r.Text, "📄 Загрузил «Договор поставки № 17»") {
		t.Fatalf("Upload() = %+v, %v", r, err)
	}
	if err := s.RememberReceipt(t.Context(), me, 42, r.Receipt); err != nil {
		t.Fatal(err)
	}
	docs, err := s.Scope(t.Context(), Asker{UserID: 5, ChatID: 5, ReplyTo: 42})
	if err != nil || docs.Owner != "u:5" || len(docs.Selected) != 1 ||
		docs.Note != "_Выбрал документ «Договор поставки № 17» — отвечаю по выбранным документам. Снять выбор — /docs._" {
		t.Fatalf("Scope(reply to the receipt) = %+v, %v", docs, err)
	}
	me.Command = "docs"
	list, err := s.Answer(t.Context(), me)
	if err != nil || !strings.Contains(list.Text, "**Ваши документы** (1)") || !strings.Contains(list.Text, "✅ — выбрано 1 документ") {
		t.Errorf("/docs = %q, %v", list.Text, err)
	}
	me.Command, me.Text = "doc", "d:c:0"
	if r, err := s.Answer(t.Context(), me); err != nil || !strings.HasPrefix(r.Text, "Выбор снят: отвечаю по всем вашим документам.") {
		t.Errorf("clear = %q, %v", r.Text, err)
	}
	me.Text = "d:?:0"
	if r, _ := s.Answer(t.Context(), me); r.Text != staleButton {
		t.Errorf("a forged button = %q", r.Text)
	}
	if _, err := s.Scope(t.Context(), Asker{UserID: 5, ChatID: 5, OnlyDoc: "missing"}); err == nil {
		t.Error("Scope(a one-shot document that is gone) = nil error")
	}
}

// The front ends' upload limit is what extraction accepts.
func TestMaxUploadBytes(t *testing.T) {
	if MaxUploadBytes != extract.DefaultMaxBytes {
		t.Errorf("MaxUploadBytes %d, extraction accepts %d", MaxUploadBytes, extract.DefaultMaxBytes)
	}
}

// escape is a Markdown escape: without them, text reads as Telegram shows it.
var escape = regexp.MustCompile(`\\(.)`)

// linkLike finds what Telegram would make clickable in rendered text: a scheme's "://", a
// host name with a letter after its dot, an @username.
var linkLike = regexp.MustCompile(`(?i)[a-z][a-z0-9+.-]*://|[\pL\pN_-]+\.\pL|@[a-z0-9_]{2,}`)

// A document's title comes from what its uploader chose (the file's name, its first heading):
// the receipt, /docs and the notes the group reads show it without a clickable link or
// mention (issue #26). So does the refusal of a file, which quotes its name.
func TestTitlesShownToTheGroupAreNotLinks(t *testing.T) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	s := New(lib, Options{})
	group := skill.Query{UserID: 5, ChatID: -100, Group: true}
	uploads := []struct {
		name, text, title string
	}{
		{"pay at evil-bank.ru or t.me or @phish_bot.txt", "Счёт на оплату.", "pay at evil-bank[.]ru or t[.]me or [@]phish_bot"},
		{"счёт.md", "# Оплата: https://evil.example/pay, t.me/phish\n\nСчёт на оплату.", "Оплата: https[:]//evil[.]example/pay, t[.]me/phish"},
	}
	for _, u := range uploads {
		r, err := s.Upload(t.Context(), group, File{Name: u.name, Data: []byte(u.text)})
		if err != nil {
			t.Fatalf("Upload(%q): %v", u.name, err)
		}
		if !strings.HasPrefix(escape.ReplaceAllString(r.Text, "$1"), "📄 Загрузил «"+u.title+"»") {
			t.Errorf("receipt of %q = %q, want the title %q", u.name, r.Text, u.title)
		}
		if m := linkLike.FindString(escape.ReplaceAllString(r.Text, "$1")); m != "" {
			t.Errorf("receipt of %q shows %q as a link: %q", u.name, m, r.Text)
		}
	}
	group.Command = "docs"
	list, err := s.Answer(t.Context(), group)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range uploads {
		if !strings.Contains(escape.ReplaceAllString(list.Text, "$1"), "**"+u.title+"**") {
			t.Errorf("/docs does not list %q: %q", u.title, list.Text)
		}
	}
	if m := linkLike.FindString(escape.ReplaceAllString(list.Text, "$1")); m != "" {
		t.Errorf("/docs shows %q as a link: %q", m, list.Text)
	}
	for _, b := range list.Buttons {
		if m := linkLike.FindString(b.Text); m != "" {
			t.Errorf("/docs button %q shows %q as a link", b.Text, m)
		}
	}
	big := File{Name: "evil-bank.ru @phish_bot.pdf", Size: MaxUploadBytes + 1}
	r, err := s.Upload(t.Context(), group, big)
	if err != nil || !strings.Contains(escape.ReplaceAllString(r.Text, "$1"), "«evil-bank[.]ru [@]phish_bot.pdf»") {
		t.Errorf("refusal = %q, %v; want the name defanged", r.Text, err)
	}
	// «.pdf» is no top-level domain: Telegram leaves the file's extension alone.
	if m := linkLike.FindString(strings.ReplaceAll(escape.ReplaceAllString(r.Text, "$1"), ".pdf", "")); m != "" {
		t.Errorf("refusal shows %q as a link: %q", m, r.Text)
	}
}
