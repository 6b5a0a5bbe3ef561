package reconcile

// The comparison as the bot's answer: a counterparty's act that a user uploads is read, kept for
// a while, and compared with ours from 1C at once or when the user replies «сверь» to it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/ru"
)

// ActQuery asks for our act of reconciliation with a counterparty as their act names it.
type ActQuery struct {
	// UserID and ChatID are who asks: their 1C base and their rights.
	UserID, ChatID int64
	// Organization is ours as their act names it (zero: the base's main organization);
	// Counterparty is theirs, by its ИНН when the act prints one, else its name.
	Organization, Counterparty Party
	// Contract is the contract as their heading names it («№ 15 от 01.02.2025»), "" for all.
	Contract string
	From, To time.Time
}

// OurActs builds our act of reconciliation from 1C («по данным организации»). An error that is a
// *Refusal is said to the user (a counterparty 1C does not know, several that match); any other
// is the source's failure.
type OurActs interface {
	Act(ctx context.Context, q ActQuery) (Act, error)
}

// Refusal is why our act cannot be built, in Russian for the user: «В 1С нет контрагента с ИНН …».
type Refusal struct{ Text string }

func (r *Refusal) Error() string { return "reconcile: " + r.Text }

// ComparerOptions are the Comparer's dependencies besides our acts.
type ComparerOptions struct {
	// Access says who may see 1C data; nil = nobody.
	Access func(userID, chatID int64) bool
	// Organizations are our organizations as the asker's 1C names them (the half of BP's form
	// that names one is ours); nil = none known.
	Organizations func(ctx context.Context, userID, chatID int64) []Party
	// Limits bound reading an uploaded file as an act, on top of the library's own reading: an
	// act is small, so a long document is given up early (default: 1,000,000 characters, 15 s).
	Limits extract.Limits
	// OCR recognises an act sent as a photo or a scanned PDF (ScanLayout); nil: such an act is
	// not read as one.
	OCR Recognizer
	// StoreTimeout bounds each read and write of the kept acts (default 2s).
	StoreTimeout time.Duration
	Now          func() time.Time
	Logger       *slog.Logger
}

// Comparer compares the counterparty's acts users upload with ours. It is the skill of the
// «сверь» question over an uploaded act (it claims it) and the agent's hook for uploads.
type Comparer struct {
	skill.NoTools
	acts  OurActs // nil: our act is not built in this installation
	store buttons.Store
	opts  ComparerOptions
}

var (
	_ skill.Skill   = (*Comparer)(nil)
	_ skill.Claimer = (*Comparer)(nil)
)

// NewComparer returns a comparer over our acts (nil: not connected — their act is read and
// summed up, and the answer says that ours cannot be built yet), keeping the acts it reads in
// store for a reply «сверь».
func NewComparer(acts OurActs, store buttons.Store, o ComparerOptions) *Comparer {
	if o.Access == nil {
		o.Access = func(int64, int64) bool { return false }
	}
	if o.Limits.MaxChars <= 0 {
		o.Limits.MaxChars = 1_000_000
	}
	if o.Limits.Timeout <= 0 {
		o.Limits.Timeout = 15 * time.Second
	}
	if o.StoreTimeout <= 0 {
		o.StoreTimeout = 2 * time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Comparer{acts: acts, store: store, opts: o}
}

// kept is what is kept of an uploaded act: the act read, or why it could not be.
type kept struct {
	File    string  `json:"file"`
	Theirs  *Theirs `json:"theirs,omitempty"`
	Refused string  `json:"refused,omitempty"`
}

func keptKey(owner, docID string) string { return "act:" + owner + ":" + docID }

// Received looks at a file just uploaded as document docID of owner: when it reads as an act of
// reconciliation, the act is kept for a later «сверь», and, when now is set and the asker may see
// 1C, compared at once — the reply goes after the upload's receipt. ok is false for any other
// file, and for an asker without 1C.
func (c *Comparer) Received(ctx context.Context, q skill.Query, owner, docID, name string, data []byte, now bool) (rep skill.Reply, ok bool, err error) {
	if !c.opts.Access(q.UserID, q.ChatID) {
		return skill.Reply{}, false, nil
	}
	l, err := extract.ReadLayout(ctx, name, data, c.opts.Limits)
	if err != nil {
		if ctx.Err() != nil {
			return skill.Reply{}, false, ctx.Err()
		}
		var scanned bool
		if l, scanned, err = c.recognise(ctx, data, err); err != nil || !scanned {
			return skill.Reply{}, false, err // not a PDF, a workbook, a DOCX or a picture, or the library has said why the file is refused
		}
	}
	if !isActLayout(l) {
		return skill.Reply{}, false, nil // only an act costs the catalogs of 1C
	}
	k := kept{File: name}
	th, err := parseLayout(l, ParseOptions{Ours: c.organizations(ctx, q), Now: c.opts.Now})
	switch {
	case errors.Is(err, ErrNotAct):
		return skill.Reply{}, false, nil
	case errors.Is(err, ErrUnreadable):
		k.Refused = UserMessage(err)
	case err != nil:
		return skill.Reply{}, false, err
	default:
		k.Theirs = &th
	}
	if err := c.keep(ctx, keptKey(owner, docID), k); err != nil {
		c.opts.Logger.WarnContext(ctx, "keep the act", "chat_id", q.ChatID, "err", err)
	}
	if !now {
		return skill.Reply{}, false, nil
	}
	rep, err = c.answer(ctx, q, k)
	return rep, err == nil, err
}

// Claims the «сверь» question over one selected document: a reply to an upload's receipt, or the
// file's caption.
func (c *Comparer) Claims(q skill.Query) ([]string, bool) {
	if !q.Decision.Reconcile || len(q.Docs.Selected) != 1 {
		return nil, false
	}
	return []string{"сверка акта контрагента с данными 1С"}, true
}

// Answer compares the selected act with ours.
func (c *Comparer) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if !c.opts.Access(q.UserID, q.ChatID) {
		return skill.Text("Сверять акты с данными 1С могут только те, кому открыт доступ к 1С."), nil
	}
	if len(q.Docs.Selected) != 1 {
		return skill.Text("Пришлите акт сверки контрагента файлом (PDF, XLSX, DOCX или фото) или ответьте «сверь» на сообщение о его загрузке."), nil
	}
	m := q.Docs.Selected[0]
	var k kept
	found, err := c.load(ctx, keptKey(q.Docs.Owner, m.ID), &k)
	if err != nil {
		return skill.Reply{}, err
	}
	if !found {
		return skill.Text(fmt.Sprintf("«%s» я не прочитал как акт сверки контрагента: в нём нет заголовка «Акт сверки», или он загружен давно. Пришлите акт ещё раз — сверю сразу.",
			md.Escape(extract.Defang(m.Title)))), nil
	}
	return c.answer(ctx, q, k)
}

// answer compares a kept act with ours, or says why it cannot.
func (c *Comparer) answer(ctx context.Context, q skill.Query, k kept) (skill.Reply, error) {
	if k.Theirs == nil {
		return skill.Reply{Scenario: skill.OneC, Text: fmt.Sprintf("«%s» — акт сверки, но сверить его не получится. %s", md.Escape(extract.Defang(k.File)), md.Escape(k.Refused))}, nil
	}
	file := k.File
	th := *k.Theirs
	them := th.Theirs.Name
	switch {
	case th.From.IsZero() || th.To.IsZero():
		return c.summary(th, file, "в акте не нашёл период сверки («за период: 01.01.2026 – 31.03.2026», «за 1 квартал 2026 г.»), а без него наш акт не построить"), nil
	case them == "" && th.Theirs.INN == "":
		return c.summary(th, file, "в акте не нашёл, с кем он составлен («между … и …», «По данным …»)"), nil
	case c.acts == nil:
		return c.summary(th, file, "построение нашего акта сверки из 1С в этой установке не подключено"), nil
	}
	ours, err := c.acts.Act(ctx, ActQuery{UserID: q.UserID, ChatID: q.ChatID, Organization: th.Ours, Counterparty: th.Theirs,
		Contract: th.Contract, From: th.From, To: th.To})
	var refusal *Refusal
	if errors.As(err, &refusal) {
		return c.summary(th, file, ru.LowerFirst(refusal.Text)), nil
	}
	if err != nil {
		return skill.Reply{}, fmt.Errorf("reconcile: our act with %s: %w", them, err)
	}
	cmp, err := Compare(ours, th)
	if err != nil {
		return skill.Reply{}, err
	}
	rep := skill.Reply{Scenario: skill.OneC, Text: cmp.Markdown("[1][2]"),
		Sources: []facts.Source{{Title: "Акт контрагента: «" + extract.Defang(k.File) + "»"}, {Title: ourSource(ours)}}}
	if b, err := cmp.XLSX(); err != nil {
		c.opts.Logger.WarnContext(ctx, "comparison workbook", "err", err)
		rep.Degraded = append(rep.Degraded, "reconcile_xlsx")
	} else {
		rep.Document = &skill.Document{Name: cmp.ExportName(), Bytes: b, Caption: "Сверка в Excel: наши строки рядом с их, расхождения на втором листе."}
	}
	rep.Trace = skill.Trace{"reconcile": map[string]any{"layout": th.Layout, "grouped": th.Grouped, "flipped": cmp.Flipped,
		"ours": len(ours.Lines), "theirs": len(th.Lines), "matched": matched(cmp.Pairs), "differences": len(cmp.Diffs), "gap": cmp.Gap.Decimal()}}
	return rep, nil
}

// summary is their act read, without ours: what it says, and why it is not compared.
func (c *Comparer) summary(th Theirs, file, why string) skill.Reply {
	d, cr := th.Turnovers()
	what := fmt.Sprintf("«%s» — акт сверки", md.Escape(extract.Defang(file)))
	if th.Theirs.Name != "" {
		what += " с " + md.Escape(extract.Defang(th.Theirs.Name))
	}
	if !th.From.IsZero() && !th.To.IsZero() {
		what += " за " + date(th.From) + " – " + date(th.To)
	}
	lines := ru.Count(len(th.Lines), "документ", "документа", "документов")
	if th.Grouped {
		lines = ru.Count(len(th.Lines), "месяц", "месяца", "месяцев")
	}
	s := fmt.Sprintf("%s [1]. По их данным: %s, обороты — %s по дебету и %s по кредиту (с нашей стороны)", what, lines, ru.Money(int64(d)), ru.Money(int64(cr)))
	if th.HasClosing {
		s += ", сальдо конечное " + balance(th.Closing, th.Theirs.Name)
	}
	s += ".\n\nСверить с нашими данными пока не могу: " + why + "."
	return skill.Reply{Scenario: skill.OneC, Text: s, Sources: []facts.Source{{Title: "Акт контрагента: «" + extract.Defang(file) + "»"}}}
}

// ourSource is the footnote of our act: where the lane read it («1С: Акт сверки, ООО «Северный
// ветер», демо-база (встроенная)», with the restricted rights' note), else what it is of.
func ourSource(a Act) string {
	if a.Source != "" {
		return a.Source
	}
	return "1С: акт сверки " + ourTitle(a)
}

// ourTitle is «с ООО «Альфа» за 01.01.2026 – 31.03.2026, ООО «Северный ветер»».
func ourTitle(a Act) string {
	s := "с " + a.Theirs.Name + " за " + date(a.From) + " – " + date(a.To)
	if a.Ours.Name != "" {
		s += ", " + a.Ours.Name
	}
	return s
}

func (c *Comparer) organizations(ctx context.Context, q skill.Query) []Party {
	if c.opts.Organizations == nil {
		return nil
	}
	return c.opts.Organizations(ctx, q.UserID, q.ChatID)
}

func (c *Comparer) keep(ctx context.Context, key string, k kept) error {
	if c.store == nil {
		return nil
	}
	b, err := json.Marshal(k)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
	defer cancel()
	return c.store.Put(ctx, key, b)
}

func (c *Comparer) load(ctx context.Context, key string, k *kept) (bool, error) {
	if c.store == nil {
		return false, nil
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
	defer cancel()
	b, ok, err := c.store.Get(ctx, key)
	if err != nil {
		return false, fmt.Errorf("%w: kept act: %w", skill.ErrUnavailable, err)
	}
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(b, k); err != nil {
		return false, fmt.Errorf("reconcile: kept act %s: %w", key, err)
	}
	return true, nil
}
