package reconcile

// The words around the table of an act: its title, period, parties and contract above, the
// debt it states below.

import (
	"regexp"
	"strings"
	"time"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// headRows is how far into a sheet or a PDF the title of an act is looked for.
const headRows = 15

// titled reports whether the file's title or one of the table's first rows says «Акт сверки».
func titled(title string, g grid) bool {
	if isActTitle(title) {
		return true
	}
	for i, r := range g.rows {
		if i >= headRows {
			break
		}
		if isActTitle(r.text()) {
			return true
		}
	}
	return false
}

var reActTitle = regexp.MustCompile(`акт\s+сверки`)

func isActTitle(s string) bool { return reActTitle.MatchString(fold(s)) }

// fold is ru.Fold with the quotes and brackets of names dropped too.
func fold(s string) string { return ru.Fold(s) }

// heading is what the words above the table say.
type heading struct {
	from, to time.Time
	parties  []Party // «между A и B», in their order, with an ИНН where printed
	contract string
}

var (
	reRange   = regexp.MustCompile(`(\d{1,2}[./]\d{1,2}[./]\d{2,4})\s*(?:г\.?)?\s*(?:-|–|—|по)\s*(\d{1,2}[./]\d{1,2}[./]\d{2,4})`)
	reBetween = regexp.MustCompile(`(?i)между\s+(.+?)\s+и\s+(.+?)(?:\s+по\s+договор|\s+за\s+период|\s+за\s+\d|\s+с\s+\d|\s+на\s+\d|\s+мы,|\s+составили|$)`)
	reINN     = regexp.MustCompile(`(?i)\(?\s*ИНН\s*:?\s*(\d{12}|\d{10})(?:\s*[,/]?\s*КПП\s*:?\s*\d{9})?\s*\)?`)
	reFor     = regexp.MustCompile(`(?i)за\s+(?:период\s*:?\s*)?(.+)`)
	reOn      = regexp.MustCompile(`(?i)\bна\s+(\d{1,2}[./]\d{1,2}[./]\d{2,4})`)
	reDeal    = regexp.MustCompile(`(?i)по\s+договору\s+(.+?)(?:\s+за\s+период|\s+мы,|\s*$)`)
)

// readHeading reads the rows above the header: the period, the parties and the contract.
func readHeading(rows []gridRow, now time.Time) heading {
	var lines []string
	for _, r := range rows {
		if t := strings.TrimSpace(r.text()); t != "" && !strings.Contains(fold(t), "по данным") {
			lines = append(lines, t)
		}
	}
	var h heading
	all := strings.Join(lines, " ")
	// The period: «за период: 01.01.2026 - 31.03.2026», «с 01.01.2026 по 31.03.2026», «за 1 квартал
	// 2026 г.»; a contract's date («по договору № 5 от 01.02.2025») is no period.
	for _, l := range lines {
		if strings.Contains(fold(l), "договор") && !strings.Contains(fold(l), "период") {
			continue
		}
		if m := reRange.FindStringSubmatch(l); m != nil {
			f, ok1 := parseDate(m[1], false)
			t, ok2 := parseDate(m[2], false)
			if ok1 && ok2 && !t.Before(f) {
				h.from, h.to = f, t
				break
			}
		}
		if fl := fold(l); strings.Contains(fl, "период") || isActTitle(l) || strings.HasPrefix(fl, "за ") {
			rest := l
			if m := reFor.FindStringSubmatch(l); m != nil {
				rest = m[1]
			}
			if p, ok, err := ru.ParsePeriod(rest, now); ok && err == nil && !p.Single() {
				h.from, h.to = p.From, p.To
				break
			}
		}
	}
	if h.to.IsZero() {
		// «Акт сверки … на 31.03.2026»: the end only.
		for _, l := range lines {
			if isActTitle(l) || strings.HasPrefix(fold(l), "на ") {
				if m := reOn.FindStringSubmatch(l); m != nil {
					h.to, _ = parseDate(m[1], false)
				}
			}
		}
	}
	if m := reBetween.FindStringSubmatch(all); m != nil {
		for _, s := range m[1:3] {
			h.parties = append(h.parties, partyOf(s))
		}
	}
	if m := reDeal.FindStringSubmatch(all); m != nil {
		h.contract = strings.TrimRight(strings.TrimSpace(m[1]), ".,;")
	}
	return h
}

// partyOf is a name as printed, with its ИНН and КПП when they follow it.
func partyOf(s string) Party {
	p := Party{}
	if m := reINN.FindStringSubmatch(s); m != nil {
		p.INN = m[1]
		if k := regexp.MustCompile(`КПП\s*:?\s*(\d{9})`).FindStringSubmatch(m[0]); k != nil {
			p.KPP = k[1]
		}
		s = strings.Replace(s, m[0], " ", 1)
	}
	p.Name = strings.Trim(strings.Join(strings.Fields(s), " "), " ,.;:")
	return p
}

// legalForms are the long forms of a company's legal form and their short ones.
var legalForms = strings.NewReplacer(
	"публичное акционерное общество", "пао", "непубличное акционерное общество", "ао",
	"закрытое акционерное общество", "зао", "открытое акционерное общество", "оао",
	"акционерное общество", "ао", "общество с ограниченной ответственностью", "ооо",
	"индивидуальный предприниматель", "ип",
)

// nameKey is a company's name as two spellings of it share: lower case, the legal form short,
// no quotes.
func nameKey(s string) string {
	s = strings.ToLower(strings.ReplaceAll(s, "ё", "е"))
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(`«»"'„“”()`, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	return legalForms.Replace(s)
}

// sameParty reports whether a name as printed (with or without its ИНН) is p.
func sameParty(printed Party, p Party) bool {
	if printed.INN != "" && p.INN != "" {
		return printed.INN == p.INN
	}
	a, b := nameKey(printed.Name), nameKey(p.Name)
	if a == "" || b == "" {
		return false
	}
	return a == b || strings.Contains(a, b) || strings.Contains(b, a)
}

// ours reports whether a printed party is one of our organizations.
func isOurs(printed Party, ours []Party) bool {
	for _, o := range ours {
		if sameParty(printed, o) {
			return true
		}
	}
	return false
}

var reDebt = regexp.MustCompile(`(?i)задолженност[ьи]\s+(?:в\s+пользу\s+(.+?)\s+(?:составляет\s+|в\s+сумме\s+|в\s+размере\s+)?)?(\(?-?\d[\d  \x{202F}]*(?:[.,]\d{1,2})?\)?)\s*(?:руб|₽|р\.)`)
var reNoDebt = regexp.MustCompile(`(?i)задолженност[ьи]\s+(?:отсутствует|нет)`)

// statedDebt reads the closing words of their act: «По данным ООО «Альфа» на 31.03.2026
// задолженность в пользу ООО «Северный ветер» 2 565 596,93 руб.» — the debt to our side
// (positive: they owe us), ok when the words say it. texts are the words after the table, one
// for each half of the form; words «По данным» another side are not theirs.
func statedDebt(texts []string, theirCaption string, ours []Party) (onec.Kopecks, bool) {
	for _, text := range texts {
		text = strings.Join(strings.Fields(strings.ReplaceAll(text, "\u00a0", " ")), " ")
		for _, seg := range reSegment.Split(text, -1) {
			if by := byWhom("По данным " + seg); by != "" && strings.Contains(fold(text), "по данным") {
				if theirCaption != "" && !sameParty(Party{Name: by}, Party{Name: theirCaption}) || theirCaption == "" && isOurs(Party{Name: by}, ours) {
					continue // another side's words
				}
			}
			if reNoDebt.MatchString(seg) {
				return 0, true
			}
			m := reDebt.FindStringSubmatch(seg)
			if m == nil || m[1] == "" {
				continue
			}
			k, ok := parseAmount(m[2], false)
			if !ok {
				continue
			}
			if isOurs(Party{Name: m[1]}, ours) {
				return k, true
			}
			return -k, true
		}
	}
	return 0, false
}

var reSegment = regexp.MustCompile(`(?i)по\s+данным\s+`)

var reByWhom = regexp.MustCompile(`(?i)по\s+данным\s+(.+?)(?:\s+на\s+\d|,\s*руб|\s*$)`)

// byWhom is the side whose data the words state: «По данным ООО «Альфа» на …» — «ООО «Альфа»».
func byWhom(s string) string {
	if m := reByWhom.FindStringSubmatch(s); m != nil {
		return strings.TrimSpace(m[1])
	}
	return ""
}
