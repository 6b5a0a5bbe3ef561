package passages

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// asksWho: the question asks who a side is («кто», «какая организация», «с кем», «чей»).
var asksWho = regexp.MustCompile(`(?i)(^|[^\p{L}])(кто|кого|кем|чей|чья|чьё|чье|с\s+кем|как\p{L}*\s+(организаци|компани|фирм|контрагент))`)

// asksNotWho: the question asks when, how much or whether — of a side it names by its role.
var asksNotWho = regexp.MustCompile(`(?i)(^|[^\p{L}])(когда|сколько|скока|до\s+какого|в\s+какой\s+срок|срок\p{L}*|можно|можем|может|могут|вправе|должен|должна|должно|должны|обязан\p{L}*)([^\p{L}]|$)`)

// asksSigner: the question asks who signed the document («кто подписал», «кто подписывал»).
var asksSigner = regexp.MustCompile(`(?i)кто\s+(\p{L}+\s+){0,2}подпис|подписант|за\s+подписью\s+кого`)

// partiesFor is the line (Markdown) that says who a side of the document is, when q asks who
// («кто арендодатель», «исполнитель по ит договору кто», «кто делает текущий ремонт»): the
// parties the question names by their role, else those the best unit names («6.2. Арендатор
// обязан: … 6.2.2. производить текущий ремонт»). named reports that the question named the role
// itself, so the line answers it whatever the clause found.
func partiesFor(q Question, kept []library.ClauseHit, rds []*readDoc) (line string, named bool) {
	if len(kept) == 0 || !kept[0].Asked.Party() {
		return "", false
	}
	if (kept[0].Asked.Money() || asksNotWho.MatchString(q.Text)) && !asksWho.MatchString(q.Text) {
		// «на какую сумму максимум отвечает исполнитель», «когда подрядчик должен закончить
		// работы»: the role is whose amount, term or right is asked, not who the side is
		return "", false
	}
	ps := rds[kept[0].Doc].parties
	if len(ps) == 0 {
		return "", false
	}
	text := fold(q.Text + " " + q.Continues)
	var pick []library.Party
	for _, p := range ps {
		if strings.Contains(text, roleStem(p.Role)) {
			pick = append(pick, p)
		}
	}
	if asksSigner.MatchString(q.Text) && kept[0].Named {
		pick = nil
		// «кто подписал агентский договор»: each side and who signs for it, as the preamble
		// names them — not a clause on who signs its reports
		for _, p := range ps {
			if p.By != "" {
				pick = append(pick, p)
			}
		}
	}
	named = len(pick) > 0
	if !named && asksWho.MatchString(q.Text) {
		// «кто страхует машину по лизингу»: the side that does what the question asks — the role
		// a quoted clause names right before the question's own word («Лизингополучатель за свой
		// счёт страхует»), not every side its best clause names
		if p, ok := doer(q.Text, kept, rds, ps); ok {
			pick = []library.Party{p}
		}
	}
	if !named && len(pick) == 0 {
		u := fold(kept[0].Unit.Lead + " " + kept[0].Unit.Text)
		at := map[string]int{}
		for _, p := range ps {
			if i := strings.Index(u, roleStem(p.Role)); i >= 0 {
				pick = append(pick, p)
				at[p.Role] = i
			}
		}
		if len(pick) > 1 && at[pick[1].Role] < at[pick[0].Role] {
			pick[0], pick[1] = pick[1], pick[0]
		}
	}
	var parts []string
	for _, p := range pick {
		s := fmt.Sprintf("**%s** — %s", md.Escape(p.Role), md.Escape(p.Name))
		if p.INN != "" {
			s += md.Escape(", ИНН " + p.INN)
		}
		if p.By != "" && p.Proxy != "" {
			s += md.Escape(" (в лице " + p.By + ", по " + p.Proxy + ")")
		} else if p.By != "" {
			s += md.Escape(" (в лице " + p.By + ")")
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, ";\n") + md.Escape("."), named
}

// doer is the side of ps that does what q asks who does: in the first of kept (in the best
// unit's document) that holds a word of the question's own (its first five letters, not a word
// of the document's sides or title), the role named closest before that word, within the
// sentence.
func doer(q string, kept []library.ClauseHit, rds []*readDoc, ps []library.Party) (library.Party, bool) {
	title := fold(rds[kept[0].Doc].header.Title)
	var stems []string
	for _, w := range strings.FieldsFunc(fold(q), func(r rune) bool { return !unicode.IsLetter(r) }) {
		r := []rune(w)
		if len(r) < 5 || asksWho.MatchString(w) {
			continue
		}
		st := string(r[:5])
		if strings.Contains(title, st) || slices.ContainsFunc(ps, func(p library.Party) bool {
			return strings.Contains(fold(p.Role+" "+p.Name), st)
		}) {
			continue // «по лизингу», «рифей»: which document, not what is done
		}
		stems = append(stems, st)
	}
	for _, h := range kept {
		if h.Doc != kept[0].Doc {
			continue
		}
		u := fold(h.Unit.Lead + " " + h.Unit.Text)
		for _, st := range stems {
			at := strings.Index(u, st)
			if at < 0 {
				continue
			}
			from := strings.LastIndexAny(u[:at], ".;:") + 1 // the sentence the word stands in
			best, bestAt := library.Party{}, -1
			for _, p := range ps {
				if i := strings.LastIndex(u[from:at], roleStem(p.Role)); i >= 0 && from+i > bestAt {
					best, bestAt = p, from+i
				}
			}
			if bestAt >= 0 {
				return best, true
			}
		}
	}
	return library.Party{}, false
}

// roleStem is a role as a question may write it in any case: «арендодател», «заемщ».
func roleStem(role string) string {
	r := []rune(fold(role))
	if len(r) > 5 {
		r = r[:len(r)-1]
	}
	if n := len(r); n > 6 && strings.ContainsRune("ьй", r[n-1]) {
		r = r[:n-1]
	}
	return string(r)
}

// fold is text lower-cased with «ё» read as «е».
func fold(s string) string { return strings.ReplaceAll(strings.ToLower(s), "ё", "е") }

// ourSide: the question is about the user's own side («с нашей стороны», «от нас», «наш
// подписант»).
var ourSide = regexp.MustCompile(`(?i)(^|[^\p{L}])(с\s+нашей\s+стороны|от\s+нас|у\s+нас|наш\p{L}*|мы)([^\p{L}]|$)`)

// ourSigners answers «кто подписывал договоры с нашей стороны»: in each document that names the
// user's company (the party every contract names) with its signer, who signed for it —
// supplementary agreements too, which a deputy may sign. ok is false unless the question asks
// who signed for our side and either names one document that names our signer or names none
// and two documents name one.
func ourSigners(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit) (skill.Reply, bool) {
	if !asksSigner.MatchString(q.Text) || !ourSide.MatchString(q.Text) {
		return skill.Reply{}, false
	}
	one := -1 // «допник по складу кто от нас подписывал»: the document named
	if len(hits) > 0 && hits[0].Named && !across(q) {
		one = hits[0].Doc
	}
	own := ownCompany(rds, docs)
	if own == "" {
		return skill.Reply{}, false
	}
	var lines []string
	var srcs []facts.Source
	var quoted []string
	for i, rd := range rds {
		if one >= 0 && i != one {
			continue
		}
		for _, p := range rd.parties {
			if p.Name != own || p.By == "" {
				continue
			}
			srcs = append(srcs, facts.Source{Title: docs[i].Meta.Title})
			quoted = append(quoted, docs[i].Meta.ID)
			title := docs[i].Meta.Title
			if rd.header.Title != "" && len(rd.amends) > 0 {
				title += " (" + rd.header.Title + ")"
			}
			by := p.By
			if p.Proxy != "" {
				by += ", по " + p.Proxy
			}
			lines = append(lines, fmt.Sprintf("\\- **%s** — в лице %s [%d]", md.Escape(title), md.Escape(by), len(srcs)))
			break
		}
	}
	if len(lines) == 0 || one < 0 && len(lines) < 2 {
		return skill.Reply{}, false
	}
	head := "Со стороны " + own + " документы подписаны:"
	if len(lines) == 1 {
		head = "Со стороны " + own + " документ подписан:"
	}
	return skill.Reply{Text: md.Escape(head) + "\n" + strings.Join(lines, "\n"),
		Sources: srcs, Quoted: quoted}, true
}

// signLine: a form's line of a signature — who signs and the initials and surname under it,
// the blank for the signature gone as the text is read («Руководитель организации или иное
// уполномоченное лицо: Генеральный директор ________ В. А. Никитин», «Товар (груз) получил …:
// заведующий складом А. С. Мухин (доверенность № 212 от 25.11.2026)»).
var signLine = regexp.MustCompile(`^\s*((?:[^\n:]{0,120}?(?i:руководител|бухгалтер|передал|получил|сдал|принял|ответственн|подпис|директор|кладовщик|начальник|заведующ|менеджер|мастер|инженер|экспедитор|водител)[^\n:]{0,120}?):?[^\n]{0,80}?)\s*_*\s*([А-ЯЁ]\.\s?[А-ЯЁ]\.\s?[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?)\s*(\([^)]{0,80}\))?\s*(?:\[\d+\])?\s*$`)

// formSigners answers «кто подписал упд 1452»: the signature lines of the form the question
// names, each with who signs and the name under it. ok is false unless the question asks who
// signed, names a document that is a form (an act, a УПД, an invoice, a waybill), and that
// document has such lines.
func formSigners(q Question, rds []*readDoc, docs []docstore.Doc, hits []library.ClauseHit) (skill.Reply, bool) {
	side := asksFormSide.FindStringSubmatch(strings.ToLower(q.Text)) // «кто принял груз по упд»: the receiving side's lines
	if len(hits) == 0 || !asksSigner.MatchString(q.Text) && side == nil || ourSide.MatchString(q.Text) || across(q) {
		return skill.Reply{}, false
	}
	di := slices.IndexFunc(hits, func(h library.ClauseHit) bool { return h.Named })
	if di < 0 {
		return skill.Reply{}, false
	}
	di = hits[di].Doc
	if !formTitle.MatchString(rds[di].header.Title) && !formTitle.MatchString(docs[di].Meta.Title) {
		return skill.Reply{}, false // a contract's signers are its parties' (partiesFor)
	}
	var lines []string
	var signs []string // a unit's lines: a form's block of signatures may be one unit
	for _, u := range rds[di].cd.Units {
		for _, l := range strings.Split(u.Text, "\n") {
			signs = append(signs, splitSigns(l)...)
		}
	}
	heading := "" // «Товар (груз) получил / … права принял:» above the line it heads
	for _, l := range signs {
		l = strings.TrimSpace(footnoteMark.ReplaceAllString(l, ""))
		m := signLine.FindStringSubmatch(l)
		if m == nil {
			if strings.HasSuffix(l, ":") && !initialsName.MatchString(l) {
				heading = strings.TrimSuffix(l, ":")
			} else if l != "" {
				heading = ""
			}
			continue
		}
		role := strings.Trim(strings.Join(strings.Fields(strings.ReplaceAll(m[1], "_", " ")), " "), ":;, ")
		if heading != "" {
			role = heading + ": " + role
		}
		if side != nil && !strings.Contains(strings.ToLower(role), formSides[side[2]]) {
			continue // «кто принял»: not who handed over
		}
		line := "\\- " + md.Escape(role) + " — **" + md.Escape(strings.Join(strings.Fields(m[2]), " ")) + "**"
		if m[3] != "" {
			line += " " + md.Escape(m[3])
		}
		lines = append(lines, line)
	}
	if len(lines) == 0 {
		return skill.Reply{}, false
	}
	if side != nil {
		// «Дата получения (приёмки): 27.11.2026» of the side asked
		for _, l := range signs {
			if m := sideDay.FindStringSubmatch(l); m != nil && (m[1] == "получения") == (formSides[side[2]] == "получил") {
				lines = append(lines, "\\- "+md.Escape(strings.TrimSpace(m[0])))
				break
			}
		}
	}
	title := docs[di].Meta.Title
	return skill.Reply{Text: md.Escape("Подписи в «"+title+"»:") + "\n" + strings.Join(lines, "\n") + " [1]",
		Sources: []facts.Source{{Title: title}}, Quoted: []string{docs[di].Meta.ID}}, true
}

// initialsName: «В. А. Никитин».
var initialsName = regexp.MustCompile(`[А-ЯЁ]\.\s?[А-ЯЁ]\.\s?[А-ЯЁ][а-яё]+(?:-[А-ЯЁ][а-яё]+)?`)

// splitSigns cuts a line a PDF joined of several signature lines after each name that a
// capitalised word follows («… директор В. А. Никитин Главный бухгалтер …: С. Н. Орлова»).
func splitSigns(line string) []string {
	var out []string
	from := 0
	for _, m := range initialsName.FindAllStringIndex(line, -1) {
		rest := strings.TrimLeft(line[m[1]:], " ")
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsUpper(r) {
			out = append(out, line[from:m[1]])
			from = len(line) - len(rest)
		}
	}
	return append(out, line[from:])
}

// NamesParty reports whether text names a party of one of the owner's documents by its whole
// short name («см ритейл» for ООО «СМ Ритейл», «горизонт урал» for ООО «СК Горизонт-Урал» —
// every word of the name, in any form), the user's own company aside.
func NamesParty(ctx context.Context, lib *library.Library, own, text string) bool {
	metas, rds, err := readDocs(ctx, lib, own, nil, nil)
	if err != nil {
		return false
	}
	docs := make([]docstore.Doc, len(metas))
	for i, m := range metas {
		docs[i] = docstore.Doc{Meta: m}
	}
	ours := fold(ownCompany(rds, docs))
	words := strings.FieldsFunc(fold(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, rd := range rds {
		for _, p := range rd.parties {
			if fold(p.Name) == ours {
				continue
			}
			m := quotedName.FindStringSubmatch(p.Name)
			if m == nil {
				continue
			}
			name := strings.FieldsFunc(fold(m[1]), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
			if len(name) == 0 || len(name) == 1 && len([]rune(name[0])) < 4 {
				continue // a name of one short word is as likely another word
			}
			all := true
			for _, nw := range name {
				if !slices.ContainsFunc(words, func(w string) bool { return w == nw || sameWord(w, nw) }) {
					all = false
					break
				}
			}
			if all {
				return true
			}
		}
	}
	return false
}

// quotedName: the name in quotes of a company («ООО «СМ Ритейл»» — «СМ Ритейл»).
var quotedName = regexp.MustCompile(`«(.+)»`)

var (
	// asksFormSide: «кто принял груз», «кто получил товар», «кто отгрузил».
	asksFormSide = regexp.MustCompile(`(^|[^\p{L}])кто\s+(принял|приняла|получил|получила|отгрузил|отгрузила|передал|передала|сдал|сдала)`)
	// sideDay: the day a form says a side received or handed over («Дата получения (приёмки):
	// 27.11.2026», «Дата отгрузки, передачи (сдачи): 26.11.2026»).
	sideDay = regexp.MustCompile(`Дата\s+(получения|отгрузки)[^:]{0,40}:\s*\d{2}\.\d{2}\.\d{4}`)
	// footnoteMark: a form's line number in brackets («[15] Кладовщик …», «… Пронина [15]»).
	footnoteMark = regexp.MustCompile(`\[\d{1,2}[а-я]?\]`)
)

// formSides: the word of a form's signature line of the side a verb asks.
var formSides = map[string]string{"принял": "получил", "приняла": "получил", "получил": "получил", "получила": "получил",
	"отгрузил": "передал", "отгрузила": "передал", "передал": "передал", "передала": "передал", "сдал": "передал", "сдала": "передал"}
