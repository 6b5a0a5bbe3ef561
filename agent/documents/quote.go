package documents

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// Sources numbers the sources of passages: one footnote per (document, page).
// numbers[i] is the 1-based footnote of passages[i].
func Sources(ps []library.Passage, kb bool) ([]facts.Source, []int) {
	var srcs []facts.Source
	numbers := make([]int, len(ps))
	index := map[string]int{}
	for i, p := range ps {
		title := p.Title
		switch {
		case kb && !p.Meta.Updated.IsZero():
			title = fmt.Sprintf("%s (база знаний, обновлено %s)", p.Title, p.Meta.Updated.Format("02.01.2006"))
		case kb:
			title = p.Title + " (база знаний)"
		case p.Page > 0 && p.Meta.Format == "xlsx":
			title = fmt.Sprintf("%s, лист %d", p.Title, p.Page)
		case p.Page > 0 && (p.Meta.Format == "pdf" || p.Meta.Pages > 1):
			title = fmt.Sprintf("%s, стр. %d", p.Title, p.Page)
		}
		n, ok := index[title]
		if !ok {
			srcs = append(srcs, facts.Source{Title: title})
			n = len(srcs)
			index[title] = n
		}
		numbers[i] = n
	}
	return srcs, numbers
}

// excerptRunes bounds each quoted passage of an extractive answer; ExtractiveQuotes is how
// many passages it quotes.
const (
	excerptRunes     = 450
	ExtractiveQuotes = 3
)

// SelectedOverlap is the relevance floor within documents the user selected.
const SelectedOverlap = 0.3

// Extractive quotes the best passages, each with its footnote: documents in the order of
// their best passage, passages of one document in reading order, overlapping ones once; of a
// user's documents only the clauses that answer best. Only what is quoted gets a footnote.
// Knowledge-base passages are quoted as ExtractiveKB quotes them, from the passages alone.
func Extractive(ps []library.Passage, question string, kb bool) skill.Reply {
	if kb {
		r, _ := ExtractiveKB(ps, nil, question)
		return r
	}
	var b strings.Builder
	b.WriteString("Вот что нашёл в документах:\n\n")
	order := make([]int, len(ps))
	rank := map[string]int{}
	for i, p := range ps {
		order[i] = i
		if _, ok := rank[p.DocID]; !ok {
			rank[p.DocID] = len(rank)
		}
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if c := cmp.Compare(rank[ps[x].DocID], rank[ps[y].DocID]); c != 0 {
			return c
		}
		return cmp.Compare(ps[x].N, ps[y].N)
	})
	type quote struct {
		library.Quote
		heading string
		i       int
	}
	var quotes []quote
	best := 0.0
	for _, i := range order {
		q, heading := Quote(ps[i], question, false)
		quotes = append(quotes, quote{q, heading, i})
		best = max(best, q.Score)
	}
	var shown []string
	var kept []quote
	for _, q := range quotes {
		if q.Text == "" || repeats(q.Text, shown) {
			continue
		}
		if q.Score < best*weakerQuote {
			continue // another clause answers better: «2.2. …оплачивает… в течение 20 дней», not «1.1. …оплатить…»
		}
		shown = append(shown, q.Text)
		kept = append(kept, q)
	}
	// Footnotes are numbered in the order of the passages' relevance, as Sources does.
	byRank := slices.Clone(kept)
	slices.SortStableFunc(byRank, func(x, y quote) int { return cmp.Compare(x.i, y.i) })
	quoted := make([]library.Passage, len(byRank))
	for k, q := range byRank {
		quoted[k] = ps[q.i]
	}
	srcs, numbers := Sources(quoted, false)
	footnote := map[int]int{}
	for k, q := range byRank {
		footnote[q.i] = numbers[k]
	}
	for _, q := range kept {
		if q.heading != "" {
			fmt.Fprintf(&b, "**%s**\n", md.Escape(q.heading))
		}
		fmt.Fprintf(&b, "> %s [%d]\n\n", md.Escape(q.Text), footnote[q.i])
	}
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: srcs}
}

// ExtractiveKB quotes knowledge-base articles: of each article the passages ps come from, in
// the order of its best passage, the part that answers the question best (library.ArticleQuote)
// under the heading of the section it stands in, with the article's footnote. articles holds the
// articles' texts by document id; an article it lacks is quoted from its passages. An article
// whose quote names only part of what another's names of the question, or, but for the first,
// matches less than weakerArticle of the best one's, is left out: it is about something else; so
// is one whose quote misses what the question asks (library.Quote.Misses: no time limit for what
// it names). ok is false when no article is left: the knowledge base does not answer the
// question, whatever the search found.
func ExtractiveKB(ps []library.Passage, articles map[string]string, question string) (r skill.Reply, ok bool) {
	var b strings.Builder
	b.WriteString("Вот что об этом сказано в базе знаний:\n\n")
	type quote struct {
		library.Quote
		p library.Passage
	}
	var quotes []quote
	best := 0.0
	for i, p := range ps {
		if slices.ContainsFunc(ps[:i], func(o library.Passage) bool { return o.DocID == p.DocID }) {
			continue
		}
		var q library.Quote
		if text, ok := articles[p.DocID]; ok && strings.TrimSpace(text) != "" {
			q = library.ArticleQuote(text, p.Title, "", question, excerptRunes)
		} else {
			q = articleQuote(ps, p.DocID, question)
		}
		if q.Misses {
			continue
		}
		quotes = append(quotes, quote{q, p})
		best = max(best, q.Score)
	}
	if len(quotes) == 0 {
		return skill.Reply{}, false
	}
	var shown []string
	var kept []library.Passage
	var texts []quote
	for i, q := range quotes {
		// A quote that names only part of what another names of the question is about something
		// else: «Годовая бухгалтерская отчётность — не позднее 31 марта» is not for «когда
		// сдавать отчётность по НДС». Of the others the search's first article stays, since the
		// quotes' scores weigh words, not meaning, and another if it answers about as well.
		if q.Text == "" || repeats(q.Text, shown) || i > 0 && q.Score < best*weakerArticle ||
			slices.ContainsFunc(quotes, func(o quote) bool { return namesLess(q.Named, o.Named) }) {
			continue
		}
		shown = append(shown, q.Text)
		kept = append(kept, q.p)
		texts = append(texts, q)
	}
	srcs, numbers := Sources(kept, true)
	for k, q := range texts {
		if q.Section != "" && q.Section != q.p.Title {
			fmt.Fprintf(&b, "**%s**\n", md.Escape(q.Section))
		}
		fmt.Fprintf(&b, "> %s [%d]\n\n", md.Escape(q.Text), numbers[k])
	}
	return skill.Reply{Text: strings.TrimSpace(b.String()), Sources: srcs}, true
}

// namesLess reports whether a names a part of what b names: all of it is in b, and b has more.
func namesLess(a, b []string) bool {
	if len(a) >= len(b) {
		return false
	}
	for _, t := range a {
		if !slices.Contains(b, t) {
			return false
		}
	}
	return true
}

// articleQuote quotes an article whose text is not at hand by its passages among ps: the best
// quote of one of them.
func articleQuote(ps []library.Passage, docID, question string) library.Quote {
	var best library.Quote
	found := false
	for _, p := range ps {
		if p.DocID != docID {
			continue
		}
		q := library.ArticleQuote(p.Text, p.Title, lastLine(p.Heading), question, excerptRunes)
		if !found || q.Score > best.Score {
			best, found = q, true
		}
	}
	return best
}

// weakerQuote: a document quote matching less than this share of the best quote's terms is
// left out of an extractive answer.
const weakerQuote = 0.75

// weakerArticle is weakerQuote for knowledge-base articles, lower: an article that names only
// part of what another names is left out anyway, and a second article on the same rule («УПД
// со статусом 1» in the one on deductions) is worth quoting.
const weakerArticle = 0.6

// Quote is what an answer quotes of a passage and the heading it stands under. A
// knowledge-base article's passage is quoted by the part that answers (library.ArticleQuote),
// under the heading of its section, none in the article's opening; a user's document by the
// numbered clause that answers (library.Clause), under the heading of its section — the one the
// passage holds before the clause, else the passage's own, which is the nearest before its start.
func Quote(p library.Passage, question string, kb bool) (library.Quote, string) {
	text := strings.TrimSpace(p.Text)
	heading, own := "", lastLine(p.Heading)
	if own != "" && strings.HasPrefix(text, own) {
		heading, text = own, strings.TrimSpace(strings.TrimPrefix(text, own))
	}
	if kb {
		q := library.ArticleQuote(p.Text, p.Title, own, question, excerptRunes)
		if q.Section == p.Title {
			q.Section = "" // the article's opening: the footnote names it
		}
		return q, q.Section
	}
	q := library.Clause(text, question, excerptRunes)
	switch {
	case q.Section != "":
		heading = q.Section
	case q.Clause != "":
		heading = own
	}
	return q, heading
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndex(s, "\n"); i >= 0 {
		return strings.TrimSpace(s[i+1:])
	}
	return s
}

// repeats reports whether most words of ex already appeared in a shown excerpt (overlapping
// chunks quote the same sentences).
func repeats(ex string, shown []string) bool {
	words := strings.Fields(ex)
	for _, prev := range shown {
		seen := map[string]bool{}
		for _, w := range strings.Fields(prev) {
			seen[w] = true
		}
		n := 0
		for _, w := range words {
			if seen[w] {
				n++
			}
		}
		if n*2 > len(words) {
			return true
		}
	}
	return false
}

// Serialize writes a document as Markdown with its metadata and table of contents (seed 002 §5.4).
func Serialize(d docstore.Doc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n\n_Файл: %s · формат: %s · страниц: %d · знаков: %d_\n\n", d.Meta.Title, d.Meta.FileName,
		strings.ToUpper(d.Meta.Format), d.Meta.Pages, d.Meta.Chars)
	var toc []string
	for _, c := range d.Chunks {
		if c.Heading != "" && !slices.Contains(toc, c.Heading) {
			toc = append(toc, c.Heading)
		}
	}
	if len(toc) > 1 {
		b.WriteString("Оглавление:\n")
		for _, h := range toc {
			fmt.Fprintf(&b, "- %s\n", h)
		}
		b.WriteString("\n")
	}
	b.WriteString(d.Text)
	return b.String()
}

// NothingFound is the answer when the user's documents hold no relevant passage (the agent
// answers an unanswered knowledge-base question otherwise).
func NothingFound(selected bool) string {
	switch {
	case selected:
		return "В выбранных документах ответа на этот вопрос не нашёл. Переформулируйте вопрос или снимите выбор в /docs, чтобы искать во всех документах."
	default:
		return "В ваших документах ответа на этот вопрос не нашёл. Попробуйте назвать документ или контрагента, " +
			"например: «срок оплаты по договору с Техснабом». Список документов — /docs."
	}
}
