package documents

// Photos and scans of primary documents: a picture (or an album of them, or a PDF with no text
// layer) is recognised (library/ocr), its fields read and checked (library/primary), found in
// 1C (reconcile.MatchPrimary), and its text kept in the sender's documents like any upload, so
// that later questions are answered from it.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/library/extract"
	"github.com/finbot/finbot/library/ocr"
	"github.com/finbot/finbot/library/primary"
	"github.com/finbot/finbot/ru"
)

// Recognizer reads photos and scanned PDFs; *ocr.Engine satisfies it.
type Recognizer interface {
	Image(ctx context.Context, data []byte) (ocr.Page, error)
	PDF(ctx context.Context, data []byte) ([]ocr.Page, bool, error)
}

// notInstalled is the answer to a photo where no recognition is configured.
var notInstalled = ocr.UserMessage(&ocr.Error{Kind: ocr.ErrUnavailable,
	Packages: []string{ocr.PackageTesseract, ocr.PackageRussian, ocr.PackagePoppler}})

// scan is a photo, an album or a scanned PDF: recognised, read, checked, matched, kept.
func (s *Skill) scan(ctx context.Context, q skill.Query, f File, pdf bool) (skill.Reply, error) {
	r := skill.Reply{Scenario: skill.Command, Sources: []facts.Source{}}
	name := md.Escape(extract.Defang(f.Name))
	if s.opts.OCR == nil {
		r.Text = fmt.Sprintf("Не смог прочитать «%s». %s", name, notInstalled)
		return r, nil
	}
	var pages []ocr.Page
	var more bool
	var err error
	if pdf {
		pages, more, err = s.opts.OCR.PDF(ctx, f.Data)
	} else {
		for _, img := range append([][]byte{f.Data}, f.Album...) {
			var p ocr.Page
			if p, err = s.opts.OCR.Image(ctx, img); err != nil {
				break
			}
			pages = append(pages, p)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return skill.Reply{}, ctx.Err()
		}
		var oe *ocr.Error
		if errors.As(err, &oe) && !errors.Is(err, ocr.ErrFailed) {
			s.opts.Logger.InfoContext(ctx, "scan refused", "chat_id", q.ChatID, "reason", err)
			r.Text = fmt.Sprintf("Не смог прочитать «%s». %s", name, ocr.UserMessage(err))
			return r, nil
		}
		return skill.Reply{}, fmt.Errorf("%w: recognise: %w", skill.ErrUnavailable, err)
	}
	texts := make([]string, 0, len(pages))
	var album *albumPages
	owner := Owner(q.UserID, q.ChatID, q.Group)
	if f.MediaGroup != "" {
		// A photo of a Telegram album: the pages its earlier photos gave come first, and the
		// document they made is replaced by the whole.
		album = s.albums.get(owner + "|" + f.MediaGroup)
		texts = append(texts, album.texts...)
	}
	for _, p := range pages {
		texts = append(texts, p.Text)
	}
	doc := primary.Parse(strings.Join(texts, "\n\n"))
	if doc.Unreadable() {
		r.Text = fmt.Sprintf("Не смог разобрать текст на «%s»: это не похоже на документ, или снимок слишком тёмный, размытый или мелкий. "+
			"Снимите документ целиком, ровно и при хорошем свете — или пришлите PDF.", name)
		return r, nil
	}
	format := "jpg"
	switch {
	case pdf:
		format = "pdf"
	case bytes.HasPrefix(f.Data, []byte("\x89PNG")):
		format = "png"
	case bytes.HasPrefix(f.Data, []byte("II*\x00")), bytes.HasPrefix(f.Data, []byte("MM\x00*")):
		format = "tiff"
	}
	data := f.Data
	for _, a := range f.Album {
		data = append(append([]byte{}, data...), a...)
	}
	if album != nil {
		data = append(append([]byte(f.MediaGroup), byte(len(texts))), data...)
		if album.doc != "" {
			if _, err := s.lib.Remove(ctx, owner, album.doc); err != nil {
				s.opts.Logger.WarnContext(ctx, "album: remove the earlier pages", "chat_id", q.ChatID, "err", err)
			}
		}
	}
	added, err := s.lib.AddRecognized(ctx, owner, q.UserID, f.Name, format, title(doc), data, texts)
	if err != nil {
		if msg := library.UserMessage(err); msg != "" {
			r.Text = fmt.Sprintf("Распознал «%s», но сохранить не смог. %s", name, msg)
			return r, nil
		}
		return skill.Reply{}, fmt.Errorf("%w: upload scan: %w", skill.ErrUnavailable, err)
	}
	m := added.Meta
	if album != nil {
		s.albums.put(owner+"|"+f.MediaGroup, albumPages{texts: texts, doc: m.ID, at: s.opts.Now()})
	}
	var b strings.Builder
	if added.Duplicate {
		fmt.Fprintf(&b, "Этот снимок уже загружен как «%s» (%s). Повторно сохранять не стал.\n\n", md.Escape(m.Title), metaLine(m))
	} else {
		fmt.Fprintf(&b, "📷 Распознал и сохранил «%s» (%s).\n\n", md.Escape(m.Title), metaLine(m))
	}
	if more {
		b.WriteString("Прочитал только первые страницы скана — остальные пришлите отдельно.\n\n")
	}
	if doc.Kind == primary.Reconciliation {
		// an act of reconciliation is compared with 1C's own (agent/reconcile answers it apart):
		// a primary document's fields and checks would only repeat its lines
		b.WriteString("Это акт сверки взаиморасчётов: его строки сравниваются с данными 1С отдельным ответом. " +
			"Если сравнения нет, ответьте на этот снимок словом «сверь».\n")
		b.WriteString("\n_Текст распознан с фото — сверьте цифры с оригиналом. Он среди ваших документов (/docs)._")
		r.Text = strings.TrimSpace(b.String())
		r.Receipt = m.ID
		r.Buttons = []skill.Button{{Text: "Мои документы", Data: "d:p:0"}}
		r.Degraded = append(r.Degraded, added.Degraded...)
		return r, nil
	}
	b.WriteString(fields(doc))
	if checks := primary.Check(doc); len(checks) > 0 {
		b.WriteString("\n**Проверка**\n")
		for _, c := range checks {
			b.WriteString(mark(c.OK) + md.Escape(c.Text) + "\n")
		}
	}
	if doc.Kind != primary.Receipt {
		b.WriteString(s.inLedger(ctx, q, doc, &r))
	}
	b.WriteString("\n_Текст распознан с фото — сверьте цифры с оригиналом. Спрашивайте по документу: он среди ваших документов (/docs)._")
	r.Text = strings.TrimSpace(b.String())
	r.Receipt = m.ID
	r.Buttons = []skill.Button{{Text: "Выбрать для вопросов", Data: "d:s:" + m.ID}, {Text: "Мои документы", Data: "d:p:0", SameRow: true}}
	r.Degraded = append(r.Degraded, added.Degraded...)
	return r, nil
}

func mark(ok bool) string {
	if ok {
		return "✓ "
	}
	return "✗ "
}

// title names a recognised document by its fields: «Счёт на оплату № 28 от 02.03.2026».
func title(d primary.Document) string {
	if d.Kind == primary.Unknown && d.Number == "" {
		return ""
	}
	t := d.Kind.Name()
	if d.Number != "" {
		t += " № " + d.Number
	}
	if !d.Date.IsZero() {
		t += " от " + d.Date.Format("02.01.2006")
	}
	if d.Seller.Name != "" {
		t += ", " + d.Seller.Name
	}
	return t
}

const notRead = "_не прочитан_"

// fields are what was read, a field not read said so.
func fields(d primary.Document) string {
	var b strings.Builder
	esc := md.Escape
	if d.Kind == primary.Receipt {
		b.WriteString("**Это кассовый чек**, а не счёт или УПД: по нему не сверяю с 1С.\n")
		if d.Till.HasTotal {
			fmt.Fprintf(&b, "Итог: %s\n", esc(primary.Amount(d.Till.Total)))
		} else {
			b.WriteString("Итог: " + notRead + "\n")
		}
		for _, f := range [][2]string{{"ФН", d.Till.FN}, {"ФД", d.Till.FD}, {"ФП", d.Till.FP}} {
			if f[1] != "" {
				fmt.Fprintf(&b, "%s: %s\n", f[0], f[1])
			}
		}
		return b.String()
	}
	kind := "_вид не распознан_"
	if d.Kind != primary.Unknown {
		kind = "**" + esc(d.Kind.Name()) + "**"
	}
	num, date := notRead, notRead
	if d.Number != "" {
		num = esc(d.Number)
	}
	if !d.Date.IsZero() {
		date = d.Date.Format("02\\.01\\.2006")
	}
	fmt.Fprintf(&b, "%s № %s от %s\n", kind, num, date)
	for _, side := range []struct {
		who string
		p   primary.Party
	}{{"Продавец", d.Seller}, {"Покупатель", d.Buyer}} {
		p := side.p
		name, inn, kpp := notRead, notRead, notRead
		if p.Name != "" {
			name = esc(p.Name)
		}
		if p.INN != "" {
			inn = p.INN
		}
		if p.KPP != "" {
			kpp = p.KPP
		} else if len(p.INN) == 12 {
			kpp = "—"
		}
		fmt.Fprintf(&b, "%s: %s, ИНН %s, КПП %s\n", side.who, name, inn, kpp)
	}
	if len(d.Lines) > 0 {
		b.WriteString("\n")
	}
	for _, l := range d.Lines {
		if !l.Read {
			fmt.Fprintf(&b, "%d\\. %s — _цифры не прочитаны_\n", l.No, esc(l.Name))
			continue
		}
		qty := ru.Decimal(l.Quantity.FloatString(3))
		qty = strings.TrimRight(strings.TrimRight(qty, "0"), ",")
		line := fmt.Sprintf("%d. %s — %s %s × %s = %s", l.No, l.Name, qty, l.Unit, primary.Amount(l.Price), primary.Amount(l.Net))
		switch {
		case l.Rate == "без НДС":
			line += ", без НДС"
		case l.Rate != "" && l.VATRead:
			line += fmt.Sprintf(", НДС %s %s", strings.Replace(l.Rate, "%", " %", 1), primary.Amount(l.VAT))
		}
		b.WriteString(esc(line) + "\n")
	}
	t := d.Totals
	var tot []string
	if t.HasNet {
		tot = append(tot, "без НДС "+primary.Amount(t.Net))
	}
	switch {
	case t.HasVAT:
		v := "НДС "
		if t.Rate != "" && t.Rate != "без НДС" {
			v += strings.Replace(t.Rate, "%", " %", 1) + " "
		}
		if t.Included {
			v = "в т. ч. " + v
		}
		tot = append(tot, v+primary.Amount(t.VAT))
	case t.Rate == "без НДС":
		tot = append(tot, "без НДС")
	}
	if t.HasGross {
		tot = append(tot, "всего "+primary.Amount(t.Gross))
	} else {
		tot = append(tot, "всего: не прочитано")
	}
	b.WriteString("\nИтого: " + esc(strings.Join(tot, " · ")) + "\n")
	return b.String()
}

// inLedger is the match with 1C, «» when 1C is not here; a failing 1C is said and logged.
func (s *Skill) inLedger(ctx context.Context, q skill.Query, d primary.Document, r *skill.Reply) string {
	if s.opts.Acts == nil {
		return ""
	}
	p := reconcile.Primary{UserID: q.UserID, ChatID: q.ChatID, Seller: reconcile.Party{Name: d.Seller.Name, INN: d.Seller.INN, KPP: d.Seller.KPP},
		Number: d.Number, Date: d.Date}
	if d.Seller.INN != "" && !ru.ValidINN(d.Seller.INN) {
		return "\n**1С**\n✗ ИНН продавца не сходится по контрольной цифре — в 1С по нему не искал\n"
	}
	if total, ok := d.Total(); ok {
		p.Total, p.HasTotal = onec.Kopecks(total), true
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	m, err := reconcile.MatchPrimary(ctx, s.opts.Acts, p, s.opts.Now())
	var refusal *reconcile.Refusal
	switch {
	case errors.As(err, &refusal):
		return "\n**1С**\n" + md.Escape(refusal.Text) + "\n"
	case err != nil:
		s.opts.Logger.WarnContext(ctx, "scan: match in 1C", "chat_id", q.ChatID, "err", err)
		r.Degraded = append(r.Degraded, "ledger_unavailable")
		return "\n**1С**\nСверить с 1С сейчас не получилось — спросите чуть позже.\n"
	}
	var b strings.Builder
	b.WriteString("\n**1С**\n")
	for _, pt := range m.Points {
		b.WriteString(mark(pt.OK) + md.Escape(pt.Text) + "\n")
	}
	if m.Source != "" {
		b.WriteString("_" + md.Escape(m.Source) + "_\n")
	}
	return b.String()
}

// albumPages are the pages recognised so far of a Telegram album, and the document they made.
type albumPages struct {
	texts []string
	doc   string
	at    time.Time
}

// albums keeps the albums being received, in this process: a few, for a few minutes (the
// photos of one album arrive within seconds), the recognised text only.
type albums struct {
	mu  sync.Mutex
	m   map[string]albumPages
	now func() time.Time
}

const (
	maxAlbums     = 64
	maxAlbumPages = 10
	albumTTL      = 10 * time.Minute
)

// get is the album's pages so far (none for a new one), at most maxAlbumPages-1.
func (a *albums) get(key string) *albumPages {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.m[key]
	if !ok || a.now().Sub(p.at) > albumTTL {
		return &albumPages{}
	}
	if len(p.texts) >= maxAlbumPages {
		p.texts = p.texts[len(p.texts)-maxAlbumPages+1:]
	}
	return &p
}

func (a *albums) put(key string, p albumPages) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[string]albumPages{}
	}
	for k, v := range a.m {
		if a.now().Sub(v.at) > albumTTL {
			delete(a.m, k)
		}
	}
	if len(a.m) >= maxAlbums {
		oldest := ""
		for k, v := range a.m {
			if oldest == "" || v.at.Before(a.m[oldest].at) {
				oldest = k
			}
		}
		delete(a.m, oldest)
	}
	a.m[key] = p
}
