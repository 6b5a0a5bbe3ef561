package agent

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/passages"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/internal/fakes"
	"github.com/finbot/finbot/internal/testdocs"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var docsetMisses = flag.Bool("docset-misses", false, "TestDocumentSet: log every development question not answered right, with its answer (never the held-out ones)")
var docsetOnly = flag.String("docset-only", "", "TestDocumentSet: ask with this variant only (\"no LLM\", …) — a quicker measure; the floors are then not checked")
var docsetDump = flag.String("docset-dump", "", "TestDocumentSet: write every development answer (id, outcome, the best clause's coverage/named/not-found, the route's kind/rule, the answer on one line; tab-separated) of the first variant asked to this file — to diff two versions' answers and to calibrate (never the held-out ones)")
var docsetVariant = flag.String("docset-variant", "no LLM", "TestDocumentSet: whose misses -docset-misses logs: \"no LLM\", \"garbage LLM\" or \"lying LLM\"")

// docsetDir is the document question set of issue #27, written from the user's side
// (agent/documents/testdata/docset/README.md).
const docsetDir = "documents/testdata/docset"

// docsetNow is the set's «today»: Sunday 06.12.2026.
func docsetNow() time.Time { return time.Date(2026, 12, 6, 12, 0, 0, 0, ru.Moscow) }

type docsetLine struct {
	ID, Q, Docs, Answer, Clause, Kind, Split, Prev string
	Set                                            int    // 1 to 5: docsetSets
	Dir                                            string // the set's documents
}

// readTSV reads a set's tab-separated file (testdocs.TSV).
func readTSV(t testing.TB, path string) [][]string {
	t.Helper()
	rows, err := testdocs.TSV(path)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// docsetSets are the set's question files: the first (q001…, 234 questions) and a second one
// written later by another writer over the same documents (r001…, 180 questions), each with its
// own held-out part; the third (s001…) was written later still, by a third writer, over eight
// other documents of another company (documents/testdata/docset3): it measures how the reading
// carries over to documents nobody tuned it on.
var docsetSets = []struct{ dir, file string }{
	{docsetDir, "questions.tsv"}, {docsetDir, "questions2.tsv"}, {docset3Dir, "questions.tsv"}, {docset4Dir, "questions.tsv"},
	{docset5Dir, "questions.tsv"}, {docset6Dir, "questions.tsv"},
}

// docset3Dir is the third set's own documents and questions.
const docset3Dir = "documents/testdata/docset3"

// docset4Dir is the fourth set's: eight documents of a third company (ООО «Северная
// Мануфактура»), written by a fourth writer from the user's side on 2026-12-07, after the
// reading had been tuned on the first three.
const docset4Dir = "documents/testdata/docset4"

// docset5Dir is the fifth set's: eight documents of a fourth company (ООО «Малахит Продукт», a
// food distributor: a repair contract with stages and a retention, a leasing schedule, cleaning
// services, a commission, a fuel policy, an invoice with two VAT rates, a price list, an
// agreement's scan), written by a fifth writer from the user's side on 2026-12-07.
const docset5Dir = "documents/testdata/docset5"

// docset6Dir is the sixth set's: eight documents of a fifth company (ООО «Волга-Полимер», a
// maker of polymer packaging in Samara: a bank's credit line, vehicles hired with their crews,
// a supply of polyethylene with volume discounts, an audit in stages, a bonus policy, a УПД, a
// packaging price list, a supply agreement's scan), written by a sixth writer from the user's
// side on 2026-12-08.
const docset6Dir = "documents/testdata/docset6"

func docsetLines(t *testing.T) []docsetLine {
	t.Helper()
	var out []docsetLine
	for i, set := range docsetSets {
		for _, l := range docsetSet(t, filepath.Join(set.dir, set.file)) {
			l.Set, l.Dir = i+1, set.dir
			out = append(out, l)
		}
	}
	return out
}

func docsetSet(t *testing.T, path string) []docsetLine {
	t.Helper()
	var out []docsetLine
	for _, r := range readTSV(t, path) {
		for len(r) < 8 {
			r = append(r, "")
		}
		out = append(out, docsetLine{ID: r[0], Q: r[1], Docs: r[2], Answer: r[3], Clause: r[4], Kind: r[5], Split: r[6], Prev: r[7]})
	}
	return out
}

// docsetFiles returns the set's documents as the user uploads them (manifest.tsv): DOCX with a
// paragraph per clause and real tables, PDF with a text layer, the price list as XLSX with
// numeric cells.
func docsetFiles(t testing.TB) []File { return docsetFilesIn(t, docsetDir) }

// docsetFilesIn returns the documents of the set in dir (testdocs.SetFiles).
func docsetFilesIn(t testing.TB, dir string) []File {
	t.Helper()
	set, err := testdocs.SetFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := make([]File, len(set))
	for i, f := range set {
		files[i] = File{Name: f.Name, Size: int64(len(f.Data)), Data: f.Data}
	}
	return files
}

// docsetAgent is the whole agent on the set's day, with the LLM at llmURL (none for ""), and
// files uploaded by user in a private chat.
func docsetAgent(t *testing.T, llmURL string, files []File, user int64) *Agent {
	t.Helper()
	a := wholeAgent(t, wiring{now: docsetNow, llmURL: llmURL})
	for _, f := range files {
		upload(t, a, Request{UserID: user, ChatID: user}, f.Name, f.Data)
	}
	return a
}

var (
	docsetMoney   = regexp.MustCompile(`\d+,\d{2}`)
	docsetDate    = regexp.MustCompile(`\d{2}\.\d{2}\.\d{4}`)
	docsetNumber  = regexp.MustCompile(`\d+(?:,\d+)?`)
	docsetName    = regexp.MustCompile(`«([^»]+)»`)
	docsetClauseN = regexp.MustCompile(`^\d+(?:\.\d+)+`)
	docsetSpaces  = regexp.MustCompile(`(\d)[  \x{202f}](\d{3})\b`)
	docsetParens  = regexp.MustCompile(`\([^()]*\)`)
)

// docsetNorm reads a text as figures are compared: lower case, digit groups joined.
func docsetNorm(s string) string {
	s = strings.ToLower(strings.NewReplacer("\u00a0", " ", "\u202f", " ", "ё", "е").Replace(s))
	for {
		n := docsetSpaces.ReplaceAllString(s, "$1$2")
		if n == s {
			return s
		}
		s = n
	}
}

// docsetNotFound are the ways an answer says the documents do not state what was asked.
var docsetNotFound = []string{"не нашёл", "не нашел", "не найден", "не указан", "не сказано", "не содерж", "нет в документ", "не предусмотр", "не говорится", "нет сведений", "нет такого"}

// docsetOutcome grades a reply: "right" when it states every figure, date and name of the
// reference answer's main part (the explanations in parentheses aside) — or, when that part has
// none, quotes the clause that holds it — and comes from the documents; "honest" when it states
// that it did not find the answer or asks back, with no figure; "wrong" otherwise.
func docsetOutcome(l docsetLine, ans Answer) (string, []string) {
	text := docsetNorm(ans.Text)
	notFound := false
	for _, m := range docsetNotFound {
		notFound = notFound || strings.Contains(text, m)
	}
	// The documents answered, or said first that they do not say it (what the knowledge base
	// says may follow).
	// A reply another source handed to the documents (the knowledge base had no article) is
	// theirs too.
	fromDocs := ans.Debug.Route.Kind == understand.KindDocs || ans.Kind == understand.KindDocs ||
		strings.HasPrefix(text, "прямого ответа в ваших документах")
	if strings.HasPrefix(l.Answer, "нет в документе") {
		if notFound && fromDocs {
			return "right", nil
		}
		return "wrong", []string{"the documents state no such thing, the reply does not say so"}
	}
	main := docsetNorm(l.Answer)
	for {
		n := docsetParens.ReplaceAllString(main, "")
		if n == main {
			break
		}
		main = n
	}
	var miss []string
	want := 0
	for _, m := range docsetMoney.FindAllString(main, -1) {
		want++
		whole := strings.TrimSuffix(m, ",00") // a spreadsheet's 79900 is 79 900,00
		if !strings.Contains(text, m) && (whole == m || !regexp.MustCompile(`(^|[^\d,.])`+whole+`($|[^\d,])`).MatchString(text)) {
			miss = append(miss, m)
		}
	}
	rest := docsetMoney.ReplaceAllString(main, " ")
	for _, m := range docsetDate.FindAllString(rest, -1) {
		want++
		if !strings.Contains(text, m) && !strings.Contains(text, dateWords(m)) {
			miss = append(miss, m)
		}
	}
	rest = docsetDate.ReplaceAllString(rest, " ")
	for _, m := range docsetNumber.FindAllString(rest, -1) {
		want++
		// «№ 312, расположенное»: a comma that no digit follows ends the number.
		// …and «7500» is «7 500,00».
		if !regexp.MustCompile(`(^|[^\d,.])` + regexp.QuoteMeta(m) + `($|[^\d,]|,[^\d]|,00\b)`).MatchString(text) {
			miss = append(miss, m)
		}
	}
	for _, m := range docsetName.FindAllStringSubmatch(main, -1) {
		want++
		if !strings.Contains(text, m[1]) {
			miss = append(miss, "«"+m[1]+"»")
		}
	}
	if want == 0 { // words only («генеральный директор», «да, …»): the clause that says it
		for _, c := range strings.Split(l.Clause, ";") {
			if n := docsetClauseN.FindString(strings.TrimSpace(c)); n != "" {
				want++
				if !strings.Contains(text, n) {
					miss = append(miss, "п. "+n)
				}
			}
		}
	}
	switch {
	case want > 0 && len(miss) == 0 && fromDocs:
		return "right", nil
	case want == 0 && fromDocs && !notFound:
		return "right", nil // nothing to check but the source
	case !fromDocs:
		miss = append(miss, fmt.Sprintf("answered from %s/%s", ans.Debug.Route.Scenario, ans.Debug.Route.Kind))
	}
	if notFound && !docsetNumber.MatchString(strings.TrimSpace(strings.SplitN(text, "\n", 2)[0])) || ans.Debug.Route.Kind == understand.KindClarify {
		return "honest", miss
	}
	return "wrong", miss
}

// docsetSource names where a reply came from, coarsely, for the per-part tallies (which say
// where the held-out part's misses come from without showing any of its lines): the route's
// kind, and for the documents whether the reply hedged, computed or quoted.
func docsetSource(ans Answer) string {
	src := string(ans.Debug.Route.Kind)
	if ans.Debug.Route.Kind != understand.KindDocs {
		return src
	}
	first := strings.SplitN(ans.Text, "\n", 2)[0]
	switch {
	case strings.HasPrefix(first, "Прямого ответа") || strings.HasPrefix(first, "Строки, в которой") || strings.HasPrefix(first, "Посчитать"):
		return src + "/hedged"
	case strings.HasPrefix(first, "**") && strings.Contains(first, "**,"), strings.HasPrefix(first, "**") && strings.HasSuffix(first, "**:"):
		return src + "/quoted"
	default:
		return src + "/stated"
	}
}

// tally writes the counts of one part by their middle key: «docs/quoted right 3 wrong 1, …».
func tally(m map[string]int, part string) string {
	keys := map[string]bool{}
	for k := range m {
		if f := strings.Split(k, "\x00"); f[0] == part {
			keys[f[1]] = true
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		s := k
		for _, o := range []string{"right", "honest", "wrong"} {
			if n := m[part+"\x00"+k+"\x00"+o]; n > 0 {
				s += fmt.Sprintf(" %s %d", o, n)
			}
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// dateWords is «31 декабря 2026» for 31.12.2026: documents write dates both ways.
func dateWords(d string) string {
	t, err := time.Parse("02.01.2006", d)
	if err != nil {
		return d
	}
	months := []string{"января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября", "декабря"}
	return fmt.Sprintf("%d %s %d", t.Day(), months[t.Month()-1], t.Year())
}

// TestDocumentSet uploads the set's nine documents (DOCX, PDF, a scan's text layer, XLSX) as
// one user would, with the demo 1C base connected, and asks every question in everyday words —
// follow-ups in the dialog of the question they follow — of an agent with no LLM, one whose LLM
// answers filler and one whose LLM lies. The development and held-out parts are reported
// apart; the held-out lines are never printed.
func TestDocumentSet(t *testing.T) {
	if testing.Short() {
		t.Skip("asks the document set three times")
	}
	lines := docsetLines(t)
	files := map[string][]File{docsetDir: docsetFiles(t), docset3Dir: docsetFilesIn(t, docset3Dir), docset4Dir: docsetFilesIn(t, docset4Dir),
		docset5Dir: docsetFilesIn(t, docset5Dir), docset6Dir: docsetFilesIn(t, docset6Dir)}
	garbage := newScripted(t, nil)
	liar := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: lyingPlan}},
		"answer": {{Content: "По договору аренды платёж 999 999,99 ₽ до 31.01.2027 [1]."}},
		"docs":   {{Content: "По договору аренды платёж 999 999,99 ₽ до 31.01.2027 [1]."}}})
	variants := []struct {
		name string
		url  string
	}{{"no LLM", ""}, {"garbage LLM", garbage.URL()}, {"lying LLM", liar.URL()}}
	// The first two sets' documents are one user's, the third set's another's.
	users := map[string]int64{docsetDir: 27000, docset3Dir: 40000, docset4Dir: 42000, docset5Dir: 44000, docset6Dir: 46000}
	right := map[int]map[string]int{1: {}, 2: {}, 3: {}, 4: {}, 5: {}, 6: {}} // right answers of each set (both parts), by variant
	parts := []string{"set 1 dev", "set 1 heldout", "set 2 dev", "set 2 heldout", "set 3 dev", "set 3 heldout", "set 4 dev", "set 4 heldout",
		"set 5 dev", "set 5 heldout", "set 6 dev", "set 6 heldout"}
	var dump []string
	defer func() {
		if *docsetDump != "" {
			if err := os.WriteFile(*docsetDump, []byte(strings.Join(dump, "\n")+"\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}()
	for _, v := range variants {
		if *docsetOnly != "" && v.name != *docsetOnly {
			continue
		}
		if *docsetDump != "" && len(dump) > 0 {
			break // the first variant's answers
		}
		a := docsetAgent(t, v.url, files[docsetDir], users[docsetDir])
		for _, dir := range []string{docset3Dir, docset4Dir, docset5Dir, docset6Dir} {
			for _, f := range files[dir] {
				upload(t, a, Request{UserID: users[dir], ChatID: users[dir]}, f.Name, f.Data)
			}
		}
		counts := map[string]map[string]int{}
		for _, p := range parts {
			counts[p] = map[string]int{}
		}
		byKind := map[string]int{}   // split, kind, outcome → questions
		bySource := map[string]int{} // split, source of the reply, outcome → questions
		chat := map[string]int64{}
		for i, l := range lines {
			root := l.ID
			if l.Prev != "" {
				root = l.Prev
				for p := l.Prev; p != ""; {
					root = p
					p = ""
					for _, m := range lines[:i] {
						if m.ID == root {
							p = m.Prev
						}
					}
				}
			}
			user := users[l.Dir]
			if _, ok := chat[root]; !ok {
				chat[root] = user + 1 + int64(len(chat))
			}
			ans := ask(t, a, Request{UserID: user, ChatID: chat[root]}, l.Q)
			outcome, why := docsetOutcome(l, ans)
			if *docsetDump != "" && l.Split == "dev" {
				cov := "-"
				if d, ok := ans.Debug.Trace["docs"].(*passages.Debug); ok && d.Clauses != nil {
					cov = fmt.Sprintf("%.2f/%v/%v", d.Clauses.Coverage, d.Clauses.Named, d.Clauses.NotFound)
				}
				dump = append(dump, l.ID+"\t"+outcome+"\t"+cov+"\t"+string(ans.Debug.Route.Kind)+"/"+ans.Debug.Route.Rule+"\t"+strings.ReplaceAll(ans.Text, "\n", " ⏎ "))
			}
			part := fmt.Sprintf("set %d %s", l.Set, l.Split)
			counts[part][outcome]++
			byKind[part+"\x00"+l.Kind+"\x00"+outcome]++
			bySource[part+"\x00"+docsetSource(ans)+"\x00"+outcome]++
			if l.Split == "dev" && outcome != "right" && *docsetMisses && v.name == *docsetVariant {
				cl := ""
				if d, ok := ans.Debug.Trace["docs"].(*passages.Debug); ok && d.Clauses != nil {
					cl = fmt.Sprintf(" coverage %.2f %v", d.Clauses.Coverage, d.Clauses.Quoted)
				}
				t.Logf("%s %s %s [%s; %s]: %q: %s (%s/%s%s): %s\n%s", v.name, l.ID, outcome, l.Kind, l.Clause, l.Q,
					strings.Join(why, "; "), ans.Debug.Route.Kind, ans.Debug.Route.Rule, cl, l.Answer, ans.Text)
			}
		}
		for _, split := range parts {
			c := counts[split]
			n := c["right"] + c["honest"] + c["wrong"]
			t.Logf("%s, %s: %d questions: right %d (%.1f %%), honest %d, wrong %d", v.name, split, n, c["right"],
				100*float64(c["right"])/float64(max(n, 1)), c["honest"], c["wrong"])
			var set int
			fmt.Sscanf(split, "set %d", &set)
			right[set][v.name] += c["right"]
			var kinds []string
			for k := range byKind {
				if parts := strings.Split(k, "\x00"); parts[0] == split && !slices.Contains(kinds, parts[1]) {
					kinds = append(kinds, parts[1])
				}
			}
			slices.Sort(kinds)
			var per []string
			for _, k := range kinds {
				r, all := byKind[split+"\x00"+k+"\x00right"], 0
				for _, o := range []string{"right", "honest", "wrong"} {
					all += byKind[split+"\x00"+k+"\x00"+o]
				}
				per = append(per, fmt.Sprintf("%s %d/%d (wrong %d)", k, r, all, byKind[split+"\x00"+k+"\x00wrong"]))
			}
			t.Logf("%s, %s, by kind of answer: %s", v.name, split, strings.Join(per, ", "))
			t.Logf("%s, %s, by source of the reply: %s", v.name, split, tally(bySource, split))
		}
	}
	if *docsetOnly != "" {
		return
	}
	// Floors: the figures measured on 2026-12-08, sixteenth session (docs/benchmarks.md, dev and
	// held-out together with no LLM: set 1 197 of 234, set 2 142 of 180, set 3 109 of 170, set 4
	// 93 of 134, set 5 85 of 150, set 6 88 of 209; the sixth was 80 when it was written)
	// less a margin of four. An LLM that answers filler or lies changes nothing: it may only add.
	for _, f := range []struct {
		set   string
		right map[string]int
		floor int
	}{{"set 1", right[1], 193}, {"set 2", right[2], 138}, {"set 3", right[3], 105}, {"set 4", right[4], 89}, {"set 5", right[5], 81},
		{"set 6", right[6], 84}} {
		if f.right["no LLM"] < f.floor {
			t.Errorf("%s, no LLM: %d right, want at least %d", f.set, f.right["no LLM"], f.floor)
		}
		if f.right["garbage LLM"] < f.right["no LLM"] {
			t.Errorf("%s: a garbage LLM lowered the answers: %v", f.set, f.right)
		}
		if f.right["lying LLM"] < f.right["no LLM"] {
			t.Errorf("%s: a lying LLM lowered the answers: %v", f.set, f.right)
		}
	}
}

// TestDocumentRouting measures routing precision on a mixed set, with the document set
// uploaded: the document questions must reach the documents, and the 1C answer set's
// questions (1C figures, written without documents in mind) and the knowledge-base gate's
// answerable questions must not be taken from their sources by the documents. Each message
// is asked in a fresh dialog of an agent with no LLM.
func TestDocumentRouting(t *testing.T) {
	if testing.Short() {
		t.Skip("asks three sets")
	}
	var ledgerQs, kbQs []string
	for _, l := range answerLines(t) {
		ledgerQs = append(ledgerQs, l.Q)
	}
	for _, l := range kbGateLines(t) {
		if len(l.Articles) > 0 {
			kbQs = append(kbQs, l.Q)
		}
	}
	lines := docsetLines(t)
	// Each set of documents is a user's: the first two question sets' nine documents, and the
	// third set's eight of another company (a «склад» sublease, where 1C has ООО «Склад-Сервис»).
	for _, c := range []struct {
		dir       string
		user      int64
		minRecall float64 // share of the dev first turns that must reach the documents
	}{{docsetDir, 28000, 0.9}, {docset3Dir, 38000, 0.85}, {docset4Dir, 39000, 0.85}, {docset5Dir, 39500, 0.8}, {docset6Dir, 39700, 0.8}} {
		a := docsetAgent(t, "", docsetFilesIn(t, c.dir), c.user)
		chat := c.user
		route := func(q string) Answer {
			chat++
			return ask(t, a, Request{UserID: c.user, ChatID: chat}, q)
		}
		docsRight, docsAll := 0, 0
		for _, l := range lines {
			if l.Dir != c.dir || l.Prev != "" || l.Split != "dev" {
				continue // follow-ups need their dialog; the held-out lines are TestDocumentSet's
			}
			docsAll++
			if route(l.Q).Debug.Route.Kind == understand.KindDocs {
				docsRight++
			}
		}
		taken := func(qs []string) (n int, what []string) {
			for _, q := range qs {
				if ans := route(q); ans.Debug.Route.Kind == understand.KindDocs {
					n++
					what = append(what, q+" ("+ans.Debug.Route.Rule+")")
				}
			}
			return n, what
		}
		ledgerTaken, lw := taken(ledgerQs)
		kbTaken, kw := taken(kbQs)
		t.Logf("%s: document questions (dev, first turns) routed to the documents: %d of %d", c.dir, docsRight, docsAll)
		t.Logf("%s: 1C answer-set questions taken by the documents: %d of %d %q", c.dir, ledgerTaken, len(ledgerQs), lw)
		t.Logf("%s: knowledge-base questions taken by the documents: %d of %d %q", c.dir, kbTaken, len(kbQs), kw)
		precision := float64(docsRight) / float64(max(docsRight+ledgerTaken+kbTaken, 1))
		recall := float64(docsRight) / float64(max(docsAll, 1))
		t.Logf("%s: routing to the documents: precision %.3f, recall %.3f", c.dir, precision, recall)
		if recall < c.minRecall { // sets 1–2: 0.952, set 3: 0.895 measured on 2026-12-06 (sixth session)
			t.Errorf("%s: %d of %d document questions reached the documents", c.dir, docsRight, docsAll)
		}
		if ledgerTaken > len(ledgerQs)/50 {
			t.Errorf("%s: the documents took %d of %d 1C questions: %q", c.dir, ledgerTaken, len(ledgerQs), lw)
		}
		if kbTaken > len(kbQs)/6 { // 12 of 93 measured on 2026-12-06 (40 before the knowledge base answered beside them)
			t.Errorf("%s: the documents took %d of %d knowledge-base questions: %q", c.dir, kbTaken, len(kbQs), kw)
		}
	}
}

// BenchmarkDocumentEvidence is what weighing the documents costs a message of a user who has
// uploaded the document set: the documents loaded from the store and read as units (cached),
// every unit ranked for the message.
func BenchmarkDocumentEvidence(b *testing.B) {
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	for _, f := range docsetFiles(b) {
		if _, err := lib.Add(b.Context(), "u:1", 1, f.Name, f.Data); err != nil {
			b.Fatal(err)
		}
	}
	qs := []string{"до какого числа платим аренду", "кто нам должен на 31 марта", "суточные в турции", "сколько ндс в акте"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, ok := passages.Evidence(b.Context(), lib, "u:1", qs[i%len(qs)], library.Asking{}); !ok && i%len(qs) == 0 {
			b.Fatal("no evidence for a lease question")
		}
	}
}

// A clause a supplementary agreement set anew is answered in its new wording, the original
// after it: the supply contract's total and its payment term for the second batch, as amended.
func TestAmendedClauseAnswersInItsNewWording(t *testing.T) {
	me := Request{UserID: 29000, ChatID: 29000}
	a := docsetAgent(t, "", docsetFiles(t), me.UserID)
	ans := ask(t, a, me, "общая сумма договора поставки 318-П с ндс")
	for _, want := range []string{"в редакции «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1 от 21.01.2026»", "1 979 080,00", "Первоначальная редакция", "1 957 400,00"} {
		if !strings.Contains(ans.Text, want) {
			t.Errorf("want %q in\n%s", want, ans.Text)
		}
	}
	if strings.Index(ans.Text, "1 979 080,00") > strings.Index(ans.Text, "1 957 400,00") {
		t.Errorf("the original wording comes before the new one:\n%s", ans.Text)
	}
	if len(ans.Sources) != 2 {
		t.Errorf("sources %+v, want the contract and the agreement", ans.Sources)
	}
}

// A clause that introduces a table («…в соответствии со следующим графиком:») is quoted with it:
// the loan's repayment schedule, every row.
func TestClauseQuotedWithItsTable(t *testing.T) {
	me := Request{UserID: 29100, ChatID: 29100}
	a := docsetAgent(t, "", docsetFiles(t), me.UserID)
	ans := ask(t, a, me, "по какому графику возвращается заём")
	for _, want := range []string{"п. 4.1", "30.09.2026 | 4 000 000,00", "31.12.2026 | 4 000 000,00", "31.03.2027 | 3 500 000,00", "30.06.2027 | 3 500 000,00"} {
		if !strings.Contains(strings.ReplaceAll(ans.Text, "\u00a0", " "), want) {
			t.Errorf("want %q in\n%s", want, ans.Text)
		}
	}
}

// A complete question about the documents after a 1C answer does not inherit its counterparty:
// «в каком договоре есть обеспечительный платеж» after Ромашка's debt is the lease's clause,
// not Ромашка's bank operations; «а за март?» still continues the 1C question.
func TestFullQuestionDoesNotInherit(t *testing.T) {
	me := Request{UserID: 29200, ChatID: 29200}
	a := docsetAgent(t, "", docsetFiles(t), me.UserID)
	ask(t, a, me, "сколько нам должна ромашка")
	ans := ask(t, a, me, "в каком договоре есть обеспечительный платеж")
	if ans.Debug.Route.Kind != understand.KindDocs || !strings.Contains(ans.Text, "п. 5.1") || strings.Contains(ans.Text, "Ромашка") {
		t.Errorf("%s/%s:\n%s", ans.Debug.Route.Kind, ans.Debug.Route.Rule, ans.Text)
	}
	ask(t, a, me, "сколько нам должна ромашка")
	if got := ask(t, a, me, "а на 1 марта?"); got.Debug.Route.Kind != understand.KindLedger || !strings.Contains(got.Text, "Ромашка") {
		t.Errorf("a follow-up of the 1C question: %s/%s\n%s", got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text)
	}
}

// TestDocumentsOfferedBeside1C: a question 1C answers (it names a counterparty the catalogs
// know) that the user's documents hold too gets a button that asks the documents; pressing it
// (its text comes back as the question) is answered from them. A 1C question the documents do
// not hold gets no such button.
func TestDocumentsOfferedBeside1C(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the document set")
	}
	const user = 29000
	a := docsetAgent(t, "", docsetFiles(t), user)
	offer := func(ans Answer) (string, bool) {
		for _, b := range ans.Buttons {
			if strings.HasPrefix(b.Text, docsOfferPrefix) {
				return b.Text, true
			}
		}
		return "", false
	}
	ans := ask(t, a, Request{UserID: user, ChatID: user + 1}, "какой долг перед меридианом на конец сентября")
	if ans.Debug.Route.Kind != understand.KindLedger {
		t.Fatalf("1C names «Меридиан»: it answers; got %s", ans.Debug.Route.Kind)
	}
	text, ok := offer(ans)
	if !ok {
		t.Fatalf("the act of reconciliation with Меридиан Недвижимость holds the question too: no button in %+v", ans.Buttons)
	}
	docs := ask(t, a, Request{UserID: user, ChatID: user + 1}, text)
	if docs.Debug.Route.Kind != understand.KindDocs || !strings.Contains(docs.Text, "16 759,46") {
		t.Errorf("the button asks the documents: %s\n%s", docs.Debug.Route.Kind, docs.Text)
	}
	for _, q := range []string{"кто нам должен", "долг ромашки на 1 апреля"} {
		if text, ok := offer(ask(t, a, Request{UserID: user, ChatID: user + 2}, q)); ok {
			t.Errorf("%q: the documents hold nothing of it, yet %q is offered", q, text)
		}
	}
}

// TestKnowledgeBaseBesideDocuments: a rules question the user's documents do not answer is the
// knowledge base's, not «не нашёл в ваших документах» with the nearest clause; one that names
// the user's document keeps the documents' answer first, the knowledge base after it.
func TestKnowledgeBaseBesideDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the document set")
	}
	const user = 29500
	a := docsetAgent(t, "", docsetFiles(t), user)
	ans := ask(t, a, Request{UserID: user, ChatID: user + 1}, "сколько лет срок давности по долгу")
	if ans.Debug.Route.Kind != understand.KindKB || strings.Contains(ans.Text, "в ваших документах не нашёл") || len(ans.Sources) == 0 {
		t.Errorf("a rules question: %s\n%s", ans.Debug.Route.Kind, ans.Text)
	}
	// «акт сверки» is also the title of the user's act of reconciliation: its «не нашёл» first.
	ans = ask(t, a, Request{UserID: user, ChatID: user + 2}, "акт сверки обязателен или по желанию?")
	if !strings.HasPrefix(ans.Text, "Прямого ответа в ваших документах не нашёл") || !strings.Contains(ans.Text, "сказано в базе знаний") {
		t.Errorf("the documents' «не нашёл», then the knowledge base:\n%s", ans.Text)
	}
}

// TestContractRegister: «какие у нас договоры истекают в этом году» and «с кем у нас договоры»
// are answered from every contract's own clauses.
func TestContractRegister(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the document set")
	}
	const user = 29700
	a := docsetAgent(t, "", docsetFiles(t), user)
	ends := ask(t, a, Request{UserID: user, ChatID: user + 1}, "какие у нас договоры истекают в этом году")
	in, rest, _ := strings.Cut(ends.Text, "Остальные:")
	if !strings.Contains(in, "ДОГОВОР АРЕНДЫ") || !strings.Contains(in, "ДОГОВОР ПОСТАВКИ") || !strings.Contains(rest, "ЗАЙМА") ||
		!strings.Contains(rest, "бессрочный") || strings.Contains(in, "ЗАЙМА") {
		t.Errorf("contracts ending in 2026, then the rest:\n%s", ends.Text)
	}
	who := ask(t, a, Request{UserID: user, ChatID: user + 2}, "с кем у нас договоры")
	for _, want := range []string{"ООО «Меридиан Недвижимость» (арендодатель, ИНН 7716452096)", "ООО «ПромСнабКомплект»", "ООО «ТехноЛайн Логистик»", "ООО «Сетевые Решения»"} {
		if !strings.Contains(who.Text, want) {
			t.Errorf("want %q in\n%s", want, who.Text)
		}
	}
	if strings.Contains(strings.SplitN(who.Text, "\n", 2)[1], "ООО «ТехноЛайн» (") {
		t.Errorf("our own company is no counterparty:\n%s", who.Text)
	}
	lease := ask(t, a, Request{UserID: user, ChatID: user + 3}, "с кем у нас договор аренды")
	if !strings.Contains(lease.Text, "Меридиан Недвижимость") || strings.Contains(lease.Text, "ПромСнабКомплект") {
		t.Errorf("the lease's counterparty only:\n%s", lease.Text)
	}
	// A question that names one document is answered from it: «Сетевое хранилище» of the price
	// list holds the word «сетевым» too, and is no answer about the act.
	act := ask(t, a, Request{UserID: user, ChatID: user + 4}, "сетевым решениям сколько должны по акту 1187")
	if !strings.Contains(act.Text, "31 720,00") || len(act.Sources) != 1 {
		t.Errorf("the act alone: %v\n%s", act.Sources, act.Text)
	}
}

// TestDocumentsOverLedgerVocabulary: a message in 1C's words (платёж, остаток, пени, a
// counterparty 1C knows) that asks what one of the user's documents states is the document's —
// when it names the document or a party of it — and a message that asks what only the ledger
// keeps (a debt, a counterparty the documents do not name) stays 1C's.
func TestDocumentsOverLedgerVocabulary(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the document set")
	}
	const user = 29100
	a := docsetAgent(t, "", docsetFiles(t), user)
	for i, c := range []struct {
		q    string
		want understand.Kind
	}{
		{"сколько платим меридиану в месяц за офис", understand.KindDocs},                // 1C knows an ООО «Меридиан»
		{"на сколько меридиан может поднять аренду", understand.KindDocs},                // …and the lease is with «Меридиан Недвижимость»
		{"какой остаток займа после сентябрьского платежа", understand.KindDocs},         // bank operations, whose?
		{"пени по займу за 10 дней просрочки декабрьского платежа", understand.KindDocs}, // not the card of 51
		{"какой долг перед меридианом на конец сентября", understand.KindLedger},         // a debt is the ledger's
		{"сколько должна северсталь логистик на 31.12.24", understand.KindLedger},        // «логистик» alone names the loan
		{"все документы с альфа поставкой за май", understand.KindLedger},                // a bank of the requisites is no party
		// A list of every counterparty's (open contracts) for a question of words that names none
		{"сколько ещё действует конфиденциальность у исполнителя после окончания договора", understand.KindDocs},
		{"когда оплатили электроэнергию за август", understand.KindDocs}, // the act of reconciliation's row, not the card of 51
	} {
		ans := ask(t, a, Request{UserID: user, ChatID: int64(user + 1 + i)}, c.q)
		if ans.Debug.Route.Kind != c.want {
			t.Errorf("%q: answered from %s/%s, want %s\n%s", c.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, c.want, ans.Text)
		}
	}
	// The third set's documents: a warehouse sublease, where 1C has an ООО «Склад-Сервис» and an
	// АО «Вектор» (the transport contract is with ООО «ВекторТранс»).
	const user3 = 29150
	a3 := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), user3)
	for i, c := range []struct {
		q    string
		want understand.Kind
	}{
		{"склад можно сдавать третьим лицам?", understand.KindDocs}, // «склад» is a word of «Склад-Сервис», not its name
		{"оплаты вектора с 1.02 по 15.03", understand.KindLedger},   // «Вектор» is all of АО «Вектор»'s name
		// 1C has an ООО «Партнер»; the agency contract is with ООО «Маркет Партнёр»
		{"сколько получит маркет партнер с оплат покупателей за ноябрь", understand.KindDocs},
		{"подотчет директору макс сколько", understand.KindDocs},                // the own policy's table of limits, not the knowledge base
		{"из чего состоит годовая бухгалтерская отчетность", understand.KindKB}, // the policy shares a word, and answers nothing
		{"за воду на складе по какому тарифу платим", understand.KindDocs},      // «склад» names the sublease, whichever clause holds the rest
		{"ставка на 1 июля", understand.KindKeyRate},                            // a bare «ставка» with a date stays the Bank of Russia's
		{"ставка с какого числа действует", understand.KindKeyRate},
	} {
		ans := ask(t, a3, Request{UserID: user3, ChatID: int64(user3 + 1 + i)}, c.q)
		if ans.Debug.Route.Kind != c.want {
			t.Errorf("%q: answered from %s/%s, want %s\n%s", c.q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, c.want, ans.Text)
		}
	}
}

// TestDocumentClauseAnswers: questions over the document set, each with what its answer must
// state — the classes the second question set showed (not its lines): a term the document
// defines, a moment an event sets, a question word between two terms, the sum of a table's
// rows, the date of an act that covers a period.
func TestDocumentClauseAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the document set")
	}
	askDocsCases(t, docsetDir, 29200, []docsCase{
		// the contract's price as a supplementary agreement set it anew
		{"общая сумма договора поставки", "Цена договора — **1\u00a0979\u00a0080,00\u00a0₽**", ""},
		// what is left of a loan by its schedule's balance column, on a day another document's
		// clause names too (the lease's «01 января 2027 г.»)
		{"остаток займа на 01.01.2027", "остаток — **7\u00a0000\u00a0000,00\u00a0₽** после платежа 31.12.2026 (строка 2), если платежи внесены в срок", ""},
		// a liability capped by months of the monthly fee, the clause found in the document named
		// though the question shares few of its words
		{"максимум ответственности по договору с сетевыми решениями сколько", "3 × 97\u00a0600,00\u00a0₽ = **292\u00a0800,00\u00a0₽**", ""},
		// a monthly payment of a contract with no end, over this year from the day its services start
		{"абонентская плата за 2026 год сколько всего", "за 2026 год: **1\u00a0073\u00a0600,00\u00a0₽** с НДС — с начала оказания 01.02.2026 (п. 1.4; договор бессрочный)", ""},
		{"абонентская плата за 2027 год сколько всего", "", "за 2027 год: **"},
		{"когда право собственности на технику переходит к нам", "3.6. Право собственности", ""},
		{"аренда в месяц сколько", "**185\u00a0760,00\u00a0₽** — п. 3.2.", ""}, // the one sum of the clause opens the answer
		// a span counted over is no subject: not the quarterly reconciliation, nor the act «за 3 квартал»
		// «брак» is the contract's «некачественный Товар», «несоответствие» (it had found no document)
		{"поставщик что должен сделать если брак", "5.3. При обнаружении несоответствия", "Не понял вопрос"},
		// a clause that leaves the term to others («в сроки, предусмотренные Договором») states none
		{"когда платить проценты по займу", "3.4. Проценты уплачиваются ежеквартально", "1.1. Займодавец"},
		{"аренда за квартал без ндс", "без НДС 152\u00a0262,30\u00a0₽ × 3 мес. = **456\u00a0786,90\u00a0₽** (расчёт по п. 3.2)", "3.9."},
		// the term itself is asked: the contract's end, never the notice period's deadline before it
		{"когда кончается аренда", "до 31.12.2026", "Срок: не позднее"},
		{"срок аренды до какого", "2.1. Срок аренды", "Срок: не позднее"},
		{"сколько осталось вернуть по займу на конец года", "по графику (п. 4.1)", "дней"}, // a remainder of the loan, not days left
		{"какая ставка по займу", "", "₽** — п."},                                          // a rate is no sum of its clause
		{"сколько квадратных метров в аренду", "", "₽** — п."},                             // nor is an area
		{"проценты по займу когда уплачиваем", "3.4. Проценты уплачиваются", ""},
		{"сколько всего оплатили меридиану за 3 квартал по сверке", "**588\u00a0500,59\u00a0₽**", ""},
		{"сколько электроэнергии и воды выставили за квартал по акту сверки", "**46\u00a0865,49\u00a0₽**", ""},
		{"акт сверки с меридианом от какого числа", "07.10.2026", ""},
		{"до какого числа логистик должен перечислить заём", "**19.02.2026**", ""},                                         // 3 banking days from the contract's date
		{"аренда за весь срок сколько", "× 11 мес. = **2\u00a0043\u00a0360,00\u00a0₽**", ""},                               // the term's whole months
		{"какие сроки ответа на претензию по всем договорам", "В договоре «ДОГОВОР № 47/У» об этом ничего не сказано", ""}, // every contract accounted for
		{"сколько пени по займу за день", "6.1. За просрочку", "1.1. Займодавец"},
		{"когда заканчивается аренда", "до 31.12.2026 (с 01.02.2026, 11 месяцев; п. 2.1)", ""},
		{"акт 1187 на какую сумму", "129 320,00", "Акт сверки"},
		{"сколько стоит принтер hp в прайсе", "не нашёл", ""},
		{"сколько процентов по займу за ноябрь 2026, если ключевая 16 %", "**158\u00a0219,18\u00a0₽**", ""},                 // 11 000 000 × 17,5 % × 30/365
		{"есть ли штраф за просрочку реакции", "5.2. За каждый случай нарушения сроков реагирования", ""},                   // the penalty clause answers how much
		{"упаковка входит в цену товара или доплачиваем", "2.3. Цена Товара включает стоимость упаковки", "Прямого ответа"}, // the alternative after «или» is no subject
		{"кто подписал сверку со стороны меридиана", "Ефимова Наталья Петровна", ""},                                        // «нижеподписавшиеся» signed
		{"что по сверке за третий квартал в итоге", "3 квартал 2026", "Прямого ответа"},                                     // «третий» is «3»
		{"самый дешевый ибп в прайсе", "**ИБП Ippon Back Basic 850** — Цена без НДС: 5 990,00 ₽", ""},                       // the table's cells compared
		{"на что в прайсе нет ндс", "«Ставка НДС» = «без НДС» — 2 позиции из 23", ""},
		{"прайс: ставки ндс", "«Ставка НДС» в таблице «Прайс»:", ""},                                                                             // a column named bare: the values it takes
		{"сумма дог. поставки", "", "«Ед.» в таблице"},                                                                                           // «Ед.» is no column a question names
		{"ит договор — на сколько рабочих мест", "**ДОГОВОР № 47/У**, п. 1.2.1:\n> 1.2. В состав Услуг входят: … 1.2.1. обслуживание до 35", ""}, // the clause that counts them first, not a price of one
	})
}

// docsCase is a question over a set's documents, a part its answer must hold and one it must
// not ("" for none).
// The fourth set's documents (written after the reading was tuned on the first three) in
// classes its development part showed, each general: a contract's term asked of «договор
// поставки» (its «поставки» is no delivery asked) and of a services contract whose term section
// («Раздел 7. Срок действия …») states the period of service; «ставка» of a named document is
// its rate, not the Bank of Russia's; a question naming a document's party and nothing any
// source holds is said not to be in the documents, never «не понял вопрос».
func TestDocumentSet4Classes(t *testing.T) {
	askDocsCases(t, docset4Dir, 29600, []docsCase{
		// a company 1C does not have, named whole as the party of the loan the message names: the
		// loan's schedule, not every debtor of 1C; before its first term all of it is owed
		{"сколько нам должен см ритейл по займу на конец года", "ни один срок ещё не наступил (первый — 31.03.2027): остаток — **15\u00a0000\u00a0000,00\u00a0₽**", ""},
		// a price list's rate per thousand roubles of a batch's value
		{"страхование партии на 650 000 руб сколько стоит", "650\u00a0000,00\u00a0₽ / 1 000 × 1,20 = **780,00\u00a0₽**, без НДС", ""},
		// a cap by a share of the monthly fee «без НДС»
		{"сервисные кредиты в месяц максимум сколько", "180\u00a0000,00\u00a0₽ × 15 % = **27\u00a0000,00\u00a0₽** (ежемесячная плата без НДС — п. 3.1)", ""},
		// a form that states no term is paid by the contract it follows («Основание: Договор №
		// ИТ-08/2026»), counted from the day our side signed it by its e-signature stamp
		// when a form was signed: each side's day by its e-signature stamp, the side asked bold
		{"когда мы подписали акт 1187", "ООО «Северная Мануфактура», Кузьмин Павел Сергеевич, генеральный директор (наша сторона) — **02.12.2026**", ""},
		{"акт 1187 до какого оплатить", "по договору № ИТ-08/2026, на основании которого он составлен (п. 3.6): до **16.12.2026** включительно (10 рабочих дн. с даты подписания нашей стороной 02.12.2026", ""},
		{"до какого числа действует договор поставки", "до 31.12.2027 (п. 7.1)", "п. 3.2"},
		{"до какого числа действует дог ит", "до 31.01.2027 (с 01.02.2026, 12 месяцев; п. 7.1)", ""},
		{"ставка доп работ ит", "ДОГОВОР № ИТ-08/2026", "Ключевая ставка"},
		{"есть у кронверка лицензия фстэк", "Прямого ответа в ваших документах не нашёл", "Не понял вопрос"},
		// what is to be paid under a document the message names (by its supplier's initials):
		// the document's, never 1C's «прогнозов не делаю»
		{"есть скидка если оплатим итд раньше срока", "Прямого ответа в ваших документах не нашёл", "Прогнозов"},
		{"кто у кронверка ответственный по договору", "сервис-менеджер Жукова Анна Павловна", ""},
		// a term counted from a supplementary agreement's own date («с даты подписания Соглашения»)
		{"на сколько доплатить обеспечительный по допнику и до когда", "Срок: до **27.10.2026** включительно (5 рабочих дн. с даты соглашения 20.10.2026", ""},
		// a month's rent due the 20th of the month before (as the supplementary agreement
		// amended it), a Sunday: the contract moves it to the working day before, not the Civil
		// Code to the one after; the variable part's invoice day is no day to pay by
		{"до какого числа платить аренду за январь", "**18.12.2026** (20-е число месяца, предшествующего месяцу 01.2027; 20.12.2026 — выходной, по п. 3.8 срок — предшествующий рабочий день, 18.12.2026", "10.02.2027"},
		// a fixed yearly rate's interest for a quarter, with its due date when both are asked
		{"проценты по займу за 3 кв сколько и до какого числа платить", "× 12,5 % × 92/365 = **472", ""},
		// a debt sold to a factor is an assignment of claims: the clause on it, not «нет статьи»
		{"можно ли итд продать наш долг факторингу", "п. 3.8", "В базе знаний нет статьи"},
		// a schedule's first row, as its last and its next
		{"когда первый платеж по возврату займа и сколько", "Первый срок по графику (п. 4.1) — 31.03.2027 (строка 1)", ""},
		// …and from the act of acceptance another clause dates
		{"до какого числа надо было оплатить аренду за апрель", "Срок: до **08.04.2026** включительно (5 рабочих дн. с даты акта приёма-передачи 01.04.2026 (п. 2.2)", ""},
		{"что дешевле оксфорд 240 или 600", "Дешевле — **Ткань «Оксфорд 240D» PU", ""},
		{"самая дорогая ткань в прайсе итд", "**Ткань сигнальная 160 г/м², оранжевая флуоресцентная**", "Протокол"},
		// a monthly payment over a period, month by month: the first wording before the month
		// the supplementary agreement's new one applies from (its table read with it), and a
		// fixed indexation from its day
		{"базовая аренда за 4 квартал сколько", "за 4 квартал 2026: **761\u00a0130,00\u00a0₽**", ""},
		{"базовая аренда за весь срок сколько", "январь–февраль 2027: 2 × 270\u00a0868,50\u00a0₽ = 541\u00a0737,00\u00a0₽", ""},
		// a form's total read by its lines, the one asked first; a line of the form is no total
		{"ндс по акту", "НДС по «Акт 1187 Кронверк ноябрь 2026»: **53\u00a0922,00\u00a0₽** (без НДС 245\u00a0100,00\u00a0₽, с НДС 299\u00a0022,00\u00a0₽)", ""},
		{"акт за ноябрь на сколько", "**299\u00a0022,00\u00a0₽** с НДС", ""},
		{"на какую сумму спецификация", "**4\u00a0660\u00a0656,20\u00a0₽** с НДС, в т.ч. НДС 840\u00a0446,20\u00a0₽", ""},
		{"сколько метров флиса по спецификации", "", "Сумма «"},
		// a count in the row's own unit («60 м»), by the price list's row with its minimum lot
		// over the specification's row of the same goods; two rows of the goods named: neither
		{"надо 40 м флиса 280 сколько с ндс", "Оплачивается минимальный заказ 100 вместо 40; 359,00\u00a0₽ × 100 = 35\u00a0900,00\u00a0₽ без НДС + НДС 22 % 7\u00a0898,00\u00a0₽ = **43\u00a0798,00\u00a0₽**", ""},
		{"150 м флиса по прайсу сколько с ндс", "", "× 150"},
		// «парковка» is the lease's «машино-место»; «сколько стоит» asks, «стоит» is no word of it
		{"сколько стоит стоянка по аренде", "п. 3.5", ""},
		// a month's term among the contract's clauses when the month's word draws another one
		// first; the landlord's day to invoice is no day to pay
		{"аренду за февраль до какого", "не позднее **20.01.2027**", "п. 3.4"},
		{"офис за ноябрь до какого числа надо было платить", "не позднее **05.11.2026**", ""},
		{"сколько базовой аренды за март 2027", "Срок договора — с 01.04.2026 по 28.02.2027 (п. 2.1): март 2027 в него не входит", "₽"},
	})
}

type docsCase struct{ q, want, not string }

// askDocsCases asks each case in a fresh dialog of an agent with no LLM to which user uploaded
// the documents of the set in dir.
func askDocsCases(t *testing.T, dir string, user int64, cases []docsCase) {
	t.Helper()
	a := docsetAgent(t, "", docsetFilesIn(t, dir), user)
	for i, c := range cases {
		ans := ask(t, a, Request{UserID: user, ChatID: user + 1 + int64(i)}, c.q)
		wantDocsAnswer(t, c.q, ans, c.want, c.not)
	}
}

// TestDocumentClauseAnswersNewDocuments: the same over the third set's documents, which nobody
// tuned the reading on — a clause's amended wording computes, a working day of the next month,
// a sheet's empty last column.
func TestDocumentClauseAnswersNewDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the third set")
	}
	askDocsCases(t, docset3Dir, 29300, []docsCase{
		// a form's signature lines, a PDF's line of two of them cut apart
		{"кто подписал упд 1452", "Генеральный директор — **В. А. Никитин**\n- Главный бухгалтер или иное уполномоченное лицо — **С. Н. Орлова**", ""},
		// a tariff's rate per thousand roubles of a sum, a month's over the months asked; the
		// transport's share of the declared value answers a question of the cargo's insurance
		{"сколько стоит страховка грузов на складе если товара на 5 млн", "5\u00a0000\u00a0000,00\u00a0₽ / 1 000 × 0,35 = **1\u00a0750,00\u00a0₽**, без НДС", ""},
		{"страховка грузов на складе на 5 млн за квартал", "/ 1 000 × 0,35 × 3 мес. = **5\u00a0250,00\u00a0₽**", ""},
		{"страховка груза на 2 млн сколько", "2\u00a0000\u00a0000,00\u00a0₽ × 0,12 % = **2\u00a0400,00\u00a0₽**", "/ 1 000"},
		// a term's definition («1.3. «Постоянная часть» — … по ставкам раздела 4») states no figure
		{"ставка за метр склада", "4.1. Постоянная часть рассчитывается по следующим ставкам", "1.3. «Постоянная часть»"},
		// a form whose contract the user has not uploaded: another contract's term is no answer
		{"упд 1452 до какого оплатить", "«УПД 1452 от 27.11.2026» составлен по договору № 77/П: загрузите договор", "ТЭ-305/26"},
		{"постоянную часть по субаренде за декабрь до какого числа платить", "**25.11.2026**", "10.12.2026"}, // as ДС № 2 set 4.3 anew
		// a month's payment in the wording of that month; an indexation by an index no document
		// states gives no sum
		// the agreement's own unit that sets the term anew from November: October by the first wording
		// a period yet to begin is no impossible date: the contract may speak of it
		{"сколько за склад платить с января 2027", "ДОГОВОР № СА-14/26", "такой даты нет"},
		{"постоянку за октябрь до какого числа", "не позднее **10.10.2026**", "25.09.2026"},
		{"сколько постоянки за октябрь", "за октябрь 2026: **600\u00a0118,00\u00a0₽** (п. 4.2 в редакции", ""},
		{"постоянка за январь 27 сколько", "", "за январь 2027: **"},
		// from when a supplementary agreement's change holds: the wording that states an amount
		// for a price; each wording with its day when they differ; on signing, the agreement's date
		{"на какую сумму упд", "Сумма «УПД 1452 от 27.11.2026»: **448\u00a0371,96\u00a0₽** с НДС, в т.ч. НДС 80\u00a0853,96\u00a0₽; без НДС 367\u00a0518,00\u00a0₽", ""},
		{"сколько поддонов по упд", "", "Сумма «"},
		{"с какого числа подорожала субаренда", "действует с **01.10.2026** (ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2", "8.1"},
		{"с какой даты действует новая аренда по допнику", "- п. 4.3 договора — с 01.11.2026", ""},
		{"когда вступил в силу допник", "С даты подписания — **14.09.2026**", ""},
		{"до какого числа отчёт по корпоративной карте за октябрь", "**09.11.2026**", ""}, // 4 November is a holiday
		{"какие договоры истекают в этом году", "не позднее 01.12.2026 (за 30 дн.)", ""},  // the transport contract renews unless refused
		{"самая дорогая позиция в тарифах", "**ДП-04 Настройка интеграции по API / ЭДО (разово)**", ""},
		{"на какой срок заключена сублицензия", "до 31.01.2027 (с 01.02.2026, 12 месяцев; п. 3.1)", ""},
		{"до какой даты действует агентский", "до 31.03.2027 (с 01.04.2026, 12 месяцев; п. 8.1)", ""},
		{"как платим за лицензию по этапам", "4.3.1.", ""}, // the clause that ends with a colon, with its subclauses
		{"что будет если просрочим возврат склада", "8.3. За просрочку возврата Склада", ""},
		{"тко за весь срок суб аренды скока выйдет", "6\u00a0100,00\u00a0₽ × 11 мес. = **67\u00a0100,00\u00a0₽**", ""}, // the fee asked, not the rent
		{"аренда склада за весь срок субаренды сколько всего", "СА-14/26", "× 11 мес."},                                // ДС № 2 raised the rent from October
		{"постоянная часть за весь срок сколько", "СА-14/26", "555\u00a0283,00\u00a0₽ ×"},                              // the deposit is paid once
		{"исполнителю по гпх можно дать подотчет?", "1.3. Денежные средства под отчёт", ""},                            // an abbreviation written out
		{"сотрудник потерял чек на 2500 — возместим", "6.2. Расходы, по которым документ утрачен", ""},                 // lost is «утрачен»
		{"проценты за просрочку оплаты по лицензии", "7.2. За просрочку оплаты вознаграждения", "5.5."},
		{"сколько платим за склад в месяц", "СА-14/26", "₽** — п."},                         // the rent or the waste fee: no sum opens the answer
		{"штраф за опоздание к погрузке сколько", "**3\u00a0000,00\u00a0₽** — п. 2.4.", ""}, // «лицензия» names the sublicence
		// a period counted from the end of the term, the term the contract's own clause states
		{"когда пришлют счёт за продление лицензии", "не позднее **01.01.2027**", ""},
		{"до какой даты сообщить что хотим продлить субаренду", "не позднее **17.12.2026**", ""}, // «сообщить» is «уведомляет», «хотим» «о желании»
		{"сколько дней осталось до конца аренды склада", "осталось 56 дней (с 06.12.2026 по 31.01.2027)", ""},
		{"экспедиция продлится на 27й? успеем отказаться", "не позднее 01.12.2026 (за 30 дн.) — этот срок уже прошёл", "28.10.2026"}, // the register, not the 27th
		{"площадь по субаренде", "**636,5 кв. м** (612,5 + 24,0; п. 2.1.1, п. 2.1.2)", ""},
		{"кто от нас подписывал допник по складу", "в лице коммерческого директора Лаптева Дениса Николаевича, по доверенности № 27 от 12.01.2026", "8. Настоящее"}, // its preamble, not its clause 8 that names nobody
		{"скока еще осталось по лицензии дней", "осталось 56 дней", ""},
		{"сколько в месяц отдаём за склад вместе с тко", "", "1 053 388"}, // the rent and its agreement's new rent are not two contracts
		{"когда возвращать склад после окончания", "**02.02.2027**", ""},
		{"до какого числа отказаться от продления экспедиции", "не позднее **01.12.2026** (30 календарных дн. до окончания срока 31.12.2026 по п. 6.1; этот срок уже прошёл", ""},
		// a document's own date from its heading, whatever the adjective or tense
		{"дата агентского договора", "№ АГ-09/2026 от 01.04.2026", ""},
		{"когда подписали сублицензионный договор", "№ SL-2026/118 от 26.01.2026", ""},
		{"через сколько дней с даты счета платить экспедитору", "3.9. Клиент оплачивает услуги", "(заголовок)"},             // a term counted from a date, of the contract its party names
		{"как долго можно предъявить претензию за повреждённый груз", "5.6. Претензии по сохранности груза", "контрагента"}, // «долго» is no debt, and asks a duration, not money
		{"сколько времени на претензию по грузу", "5.6. Претензии по сохранности груза", "3.6."},
		{"как долго действует лицензия", "до 31.01.2027 (с 01.02.2026, 12 месяцев; п. 3.1)", ""},
		{"какой процент получает агент", "4.2. Если такие поступления", ""},                                              // the condition that changes the rate, beside the rate
		{"упд 1452 получили 03.12 до какого оплатить", "Срока оплаты в этом документе не нашёл", "уточните контрагента"}, // a form states no term of payment, its contract is not uploaded: neither its consignee's line nor 1C's «whose?»
	})
}

// TestPlannerAsksBackOverDocuments: a planner that plans 1C's open items of a counterparty the
// message does not name, for a message the parser did not read as 1C's and the user's documents
// hold some of, adds nothing: the reply is what it is without an LLM, never «уточните
// контрагента».
func TestPlannerAsksBackOverDocuments(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the third set")
	}
	liar := newScripted(t, map[string][]fakes.Reply{"plan": {{Content: lyingPlan}}})
	const user = 29400
	a := docsetAgent(t, "", docsetFilesIn(t, docset3Dir), user)
	b := docsetAgent(t, liar.URL(), docsetFilesIn(t, docset3Dir), user)
	for i, q := range []string{"вывоз мусора за весь срок сколько выйдет", "груз битый, сколько есть на претензию"} {
		want := ask(t, a, Request{UserID: user, ChatID: int64(user + 1 + i)}, q)
		got := ask(t, b, Request{UserID: user, ChatID: int64(user + 1 + i)}, q)
		if got.Debug.Route.Kind == understand.KindLedger || strings.Contains(got.Text, "уточните контрагента") {
			t.Errorf("%q: the lying plan's ask-back answered (%s/%s):\n%s\nwithout an LLM:\n%s", q, got.Debug.Route.Kind, got.Debug.Route.Rule, got.Text, want.Text)
		}
	}
}

// TestDocumentFollowUps: a dialog over the lease in everyday words — each answer from the clause
// the dialog is about, and no date computed from a clause it is not about.
func TestDocumentFollowUps(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the document set")
	}
	const user = 29300
	a := docsetAgent(t, "", docsetFiles(t), user)
	for _, c := range []struct {
		chat         int64
		q, want, not string
	}{
		{1, "аренда в месяц сколько", "185 760,00", ""},
		{1, "а без ндс", "**152\u00a0262,30\u00a0₽**", ""},
		{1, "а за год", "× 12 мес.", "Прайс"},                                   // «год» of a licence row is no subject of the dialog
		{1, "а до какого числа платить", "не позднее 5-го числа", "02.02.2026"}, // not the deposit's five banking days
		{2, "сколько стоит ноутбук lenovo в прайсе", "79\u00a0900,00", ""},
		{2, "а hp", "HP", ""},
		{3, "общая сумма договора поставки с учетом допника", "1 979 080,00", ""},
		{3, "а до допника сколько было", "**1\u00a0957\u00a0400,00\u00a0₽**", ""}, // the original wording, the contract and its agreement one subject
		{2, "а 3 штуки", "**272\u00a0670,00\u00a0₽** с НДС", ""},                  // the HP row, three pieces
	} {
		ans := ask(t, a, Request{UserID: user, ChatID: user + c.chat}, c.q)
		wantDocsAnswer(t, c.q, ans, c.want, c.not)
	}
}

// wantDocsAnswer checks that the documents answered q with want in the text and not without.
func wantDocsAnswer(t *testing.T, q string, ans Answer, want, not string) {
	t.Helper()
	if ans.Debug.Route.Kind != understand.KindDocs || !strings.Contains(ans.Text, want) || not != "" && strings.Contains(ans.Text, not) {
		t.Errorf("%q: %s/%s, want %q and not %q in\n%s", q, ans.Debug.Route.Kind, ans.Debug.Route.Rule, want, not, ans.Text)
	}
}

// TestDocumentSet5Classes: classes found on the fifth set's development lines, each asked in
// words of its own.
// A price asked of a document the message names is the document's, though a word of it
// names a 1C counterparty («склад» of ООО «Склад-Сервис»): 1C keeps no prices.
func TestPriceOfNamedDocumentOver1C(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the third set")
	}
	askDocsCases(t, docset3Dir, 29650, []docsCase{
		{"сколько стоит поддержка склад про в год", "5.2. Стоимость поддержки составляет 12 % от лицензионного вознаграждения в год — 74 460,00 рубля", "Склад-Сервис"},
	})
}

func TestDocumentSet5Classes(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the fifth set")
	}
	askDocsCases(t, docset5Dir, 29700, []docsCase{
		// a cap by a share of a base, in roubles: the stage the question names by a word of its
		// row (the demolition «… пола и кровли» names floors too, less of it); the contract's
		// price; a stage named as much in two rows («кровля») computes no cap
		{"какой потолок неустойки для подрядчика по этапу с полами", "1\u00a0950\u00a0000,00\u00a0₽ × 10 % = **195\u00a0000,00\u00a0₽** (стоимость «Устройство наливного полиуретанового пола»", ""},
		{"допсоглашениями цену ремонта насколько максимум можно поднять", "4\u00a0860\u00a0000,00\u00a0₽ × 10 % = **486\u00a0000,00\u00a0₽**, то есть до 5\u00a0346\u00a0000,00\u00a0₽", ""},
		{"максимальная неустойка за кровлю в рублях", "", "Предел —"},
		// a share of a stage's cost by the stage named; the cost less the shares named after «за
		// минусом» (each by a word of its own clause, not «удержание» every one has)
		{"гарантийное удержание по второму этапу сколько", "5 % × 1\u00a0480\u00a0000,00\u00a0₽ (стоимость «Устройство кровли из ПВХ-мембраны с утеплением» — таблица, строка 2) = **74\u00a0000,00\u00a0₽**", ""},
		{"гарантийка по полам скока", "5 % × 1\u00a0950\u00a0000,00\u00a0₽ (стоимость «Устройство наливного полиуретанового пола» — таблица, строка 3) = **97\u00a0500,00\u00a0₽**", ""},
		{"сколько еще платить рифею после февральского платежа", "После платежа 15.02.2027 (строка 13) по графику («График лизинговых платежей») осталось 13 строк на **2\u00a0924\u00a0600,00\u00a0₽**", ""},
		{"сколько перечислим подрядчику за 2 этап за минусом аванса", "− 30 % (444\u00a0000,00\u00a0₽, п. 4.2) = **1\u00a0036\u00a0000,00\u00a0₽**", "5 %"},
		{"сколько заплатим за полы за вычетом гарантийного удержания", "1\u00a0950\u00a0000,00\u00a0₽ (стоимость «Устройство наливного полиуретанового пола» — таблица, строка 3) − 5 % (97\u00a0500,00\u00a0₽, п. 4.3) = **1\u00a0852\u00a0500,00\u00a0₽**", "30 %"},
		// a share of the cost of a quantity at a price the question gives, capped as the clause caps it
		{"водитель сэкономил 250 литров по цене 70,00, какая премия", "250 литров × 70,00 = 17\u00a0500,00\u00a0₽; 30 % = 5\u00a0250,00\u00a0₽, но не более 5\u00a0000,00\u00a0₽ = **5\u00a0000,00\u00a0₽**", ""},
		{"экономия 10 л по 60, премия", "10 л × 60 = 600,00\u00a0₽; 30 % = **180,00\u00a0₽**", ""},
		// a word 1C does not know as a counterparty that names the user's document, in a question
		// of what is owed: the documents answer (the leasing schedule's title, the repair
		// contractor); a stage asked by its ordinal is its row
		{"остаток долга по лизингу", "", "Не нашёл в 1С"},
		{"сколько мы должны горизонту за второй этап", "таблица, строка 2", "Не нашёл в 1С"},
		{"стоимость третьего этапа по подряду", "таблица, строка 3", ""},
		// what is left of a schedule with no balance column: the rows to come, added
		{"сколько останется платить по лизингу после январского платежа", "осталось 14 строк на **3\u00a0206\u00a0500,00\u00a0₽**, если платежи внесены в срок", ""},
		// a price list's minimum order in boxes, the units a box holds; a figure and its measure
		// written together («3кг»)
		{"нужно 50 пачек масла крестьянского сколько стоит", "Минимальный заказ, коробов: 5, по 20 в каждом — 100 вместо 50; 152,00\u00a0₽ × 100 = 15\u00a0200,00\u00a0₽ без НДС + НДС 10 % 1\u00a0520,00\u00a0₽ = **16\u00a0720,00\u00a0₽**", ""},
		{"творога весового 3кг почем выйдет", "Минимальный заказ, коробов: 2, по 5 в каждом — 10 вместо 3; 298,00\u00a0₽ × 10 = 2\u00a0980,00\u00a0₽ без НДС + НДС 10 % 298,00\u00a0₽ = **3\u00a0278,00\u00a0₽**", ""},
		// a third figure is something the share does not count
		{"экономия 10 л по 60 за 3 месяца, премия", "", "По вашим цифрам"},
		// «не позднее 3-го рабочего дня следующего месяца»; 4 November is a holiday
		{"реестр путевых листов за октябрь до какого в бухгалтерию сдать", "не позднее **05.11.2026** (3-й рабочий день месяца, следующего за периодом 01.10.2026–31.10.2026", ""},
		// a tariff row's minimum volume is paid for less
		{"мойка окон 35 кв.м почем выйдет", "Оплачивается минимальный объём 50 вместо 35; 110,00\u00a0₽ × 50 = **5\u00a0500,00\u00a0₽**", ""},
		// an appendix's payment schedule no clause introduces: a month (the one to come), the
		// last row, a year's rows with their total
		{"лизинговый платеж за январь сколько", "По графику («График лизинговых платежей») за 01.01.2027–31.01.2027 — 1 строка", ""},
		{"последний платеж по лизингу по графику когда", "Последний срок по графику («График лизинговых платежей») — 15.02.2028 (строка 26)", ""},
		{"по графику лизинга сколько всего за 2026 год", "за 01.01.2026–31.12.2026 — 11 строк, всего **4\u00a0087\u00a0800,00\u00a0₽**", ""},
		// a penalty «от стоимости этапа» of the stage named, its cost from the schedule's row; two
		// stages named equally well («кровля» in the demolition and the roofing) compute nothing
		{"по подряду электромонтаж сдали на 20 дней позже, неустойка сколько", "Стоимость «Электромонтажные работы, светодиодное освещение, пусконаладка» — 810\u00a0000,00\u00a0₽ (таблица, строка 4). Пени: 810\u00a0000,00\u00a0₽ × 0,1 % × 20 дн. = **16\u00a0200,00\u00a0₽**", ""},
		{"по подряду кровлю сдали на 9 дней позже, неустойка сколько", "", "Стоимость «"},
		// a tariff that pays the distance both ways doubles the one asked, with VAT beside; a
		// reduction asked is no agreement's rise
		{"доставка в верхнюю пышму 25 км от границы сколько стоит", "Оплачивается пробег в обе стороны: 25 × 2 = 50 км; 55,00\u00a0₽ × 50 = **2\u00a0750,00\u00a0₽**", ""},
		{"на сколько уменьшить абонентскую плату за 2 дня без уборки в ноябре", "", "Изменение:"},
		// a change of the key rate supposed, of a contract named: the contract's clause, not
		// the Bank of Russia's rate today
		{"если ключевая вырастет платежи по лизингу изменятся?", "п. 3.7", "Ключевая ставка Банка России на"},
		// parts of an invoice's total paid by days of their own, computed from its total
		{"сколько предоплата по счету и до какого", "- 50 % — **73\u00a0060,20\u00a0₽** не позднее 04.12.2026\n- 50 % — **73\u00a0060,20\u00a0₽** не позднее 10.12.2026", ""},
		// «кс2» as typed is the form «КС-2» the clause names
		{"кс2 по кровле подписали 20.11, до какого оплатить", "Срок: до **04.12.2026**", ""},
		// «но не более 10 (десяти) процентов стоимости этапа» is a cap, the figure in words beside it
		{"пени по подряду ограничены?", "0,1 % в день, не более 10 % (п. 7.1)", "без предела (п. 7.1)"},
		{"мойка окон 80 кв м сколько", "110,00\u00a0₽ × 80 = **8\u00a0800,00\u00a0₽**", "минимальный"},
		// an invoice's VAT at two rates, added, each said; the part without VAT is no sum of the form
		{"на какую сумму счет 2417", "**146\u00a0120,40\u00a0₽** с НДС, в т.ч. НДС 12\u00a0996,40\u00a0₽ (по ставке 10 % — 11\u00a0742,40\u00a0₽, по ставке 22 % — 1\u00a0254,00\u00a0₽); без НДС 133\u00a0124,00\u00a0₽", ""},
		// a wording that sets the payment from days of its own, month by month; a question naming
		// the service reaches its contract (no 1C company «клинингу»); an amount and its term
		// asked together are both said; two contracts asked are no one contract's sum
		{"абонка по клинингу за 2026 год сколько", "за 2026 год: **1\u00a0308\u00a0300,00\u00a0₽** с НДС", ""},
		{"абонентская плата по клинингу за октябрь", "за октябрь 2026: **116\u00a0900,00\u00a0₽** с НДС (п. 4.1)", ""},
		{"за декабрь клининг сколько и до какого платим", "за декабрь 2026: **128\u00a0100,00\u00a0₽**", ""},
		{"в феврале 27 сколько уйдет на лизинг и клининг", "", "за февраль 2027: **"},
		// a contract the question names by its title is no other contract's sum («за декабрь»
		// drew the cleaning agreement's clause)
		{"лизинг за декабрь скока и когда", "", "Абонентская плата за Регулярную уборку за декабрь"},
		// no agreement amends the lease: the cleaning one's day is not its, and an agreement's day
		// names the contract it amends
		{"когда вступил в силу допник по лизингу", "", "С даты подписания"},
		{"когда вступил в силу допник по клинингу", "С даты подписания — **23.10.2026** (ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1 от 23.10.2026 к договору № КЛ-55/2026", ""},
		// a schedule's month asked is no list of the rows of a kind; a document the lessor sends by
		// a day is no day to pay
		{"лизинговый платеж за январь сколько", "", "«Вид платежа» = «Лизинговый платёж»"},
		// a tariff's row an agreement priced anew from a day: its new price from that day on,
		// the agreement cited; the old one for a month before it
		{"дезинфекция камеры 200 кв м сколько", "59,00\u00a0₽ × 200 = **11\u00a0800,00\u00a0₽** (расчёт: таблица, строка 4 в редакции «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1 от 23.10.2026», п. 6.1)", "54,00\u00a0₽ ×"},
		{"дезинфекция камеры 200 кв м в октябре сколько стоила", "54,00\u00a0₽ × 200 = **10\u00a0800,00\u00a0₽**", "59,00\u00a0₽ ×"},
		{"с какого числа новый тариф на дезинфекцию камер", "Новую цену по строке 4 «Дезинфекция холодильной камеры (стены, потолок, стеллажи)» применяют с **01.11.2026**", ""},
		// the document the question names answers before another's clause of the same words
		{"аванс по подряду когда зачитывается", "п. 4.2", "ДОГОВОР ЛИЗИНГА"},
		// an invoice's title under its requisites is its title: its terms of payment are its clause,
		// and a month of its date names no document in a follow-up
		{"срок оплаты по счету 2417", "1. Оплата: 50 % суммы счёта — не позднее 04.12.2026", "срока в них нет"},
		{"что по счету надо оплатить в декабре", "1. Оплата: 50 % суммы счёта", "ДОГОВОР № КЛ-55/2026"},
		// who does what is asked: the side a clause names right before it, not every side
		{"кто страхует машину по лизингу", "**Лизингополучатель** — ООО «Малахит Продукт»", "**Лизингодатель** —"},
		// a side named by its role in a question of when is no question of who
		{"когда подрядчик должен закончить работы", "", "**Подрядчик** —"},
		{"кто подрядчик по ремонту", "**Подрядчик** — ООО «СК Горизонт-Урал»", ""},
		// a revenue's threshold is no sum of the contract
		{"сумма договора комиссии", "", "**2\u00a0500\u00a0000,00\u00a0₽** —"},
		// «лизинговый платёж» names the lease as «ДОГОВОР ЛИЗИНГА» does: a month to come is its
		// schedule's, no 1C question of a date yet to be
		{"с марта 2027 лизинговый платеж меняется?", "", "такой даты нет"},
		// a machine-hour's tariff for hours asked, its minimum paid for fewer; the figure and the
		// measure asked are no words of another row
		{"снег трактором почистить 2 часа почем", "Оплачивается минимальный объём 3 вместо 2; 3\u00a0600,00\u00a0₽ × 3 = **10\u00a0800,00\u00a0₽**", ""},
		{"уборка снега 4 часа сколько", "3\u00a0600,00\u00a0₽ × 4 = **14\u00a0400,00\u00a0₽**", ""},
		{"снег убрать трактором 4 ч скока", "3\u00a0600,00\u00a0₽ × 4 = **14\u00a0400,00\u00a0₽**", ""}, // «ч» is an hour
		// a computation with the message's figures of a document it names is no knowledge-base question
		{"тобол за ноябрь наторговал на 3 100 000, сколько им комиссионных с ндс", "", "В базе знаний"},
		{"лизинговый платеж за ноябрь до какого числа", "не позднее **13.11.2026** (15-е число месяца 11.2026; 15.11.2026 — выходной, по п. 3.6 срок — предшествующий рабочий день", "расчёт по п. 3.9"},
	})
}

// A month alone after a question that asked an amount and its term («а декабрь» after «за
// ноябрь клининг сколько и до какого платим») asks both of that month: each in its wording.
func TestDocumentSet5MonthFollowUp(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the fifth set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset5Dir), 29800)
	me := Request{UserID: 29800, ChatID: 29801}
	first := ask(t, a, me, "за ноябрь клининг сколько и до какого платим")
	wantDocsAnswer(t, "ноябрь", first, "за ноябрь 2026: **128\u00a0100,00\u00a0₽** с НДС", "")
	wantDocsAnswer(t, "ноябрь", first, "Срок: не позднее **10.12.2026**", "")
	next := ask(t, a, me, "а декабрь")
	wantDocsAnswer(t, "а декабрь", next, "за декабрь 2026: **128\u00a0100,00\u00a0₽** с НДС", "")
	wantDocsAnswer(t, "а декабрь", next, "Срок: не позднее **18.12.2026**", "")
}

// A commission's fee set by tiers of the month's revenue, with the additional fee and VAT on
// top, for the revenue the question gives; «они» in the next message are the commissioner the
// answer was about; a new revenue after it is counted by the same contract.
func TestDocumentSet5CommissionDialog(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the fifth set")
	}
	a := docsetAgent(t, "", docsetFilesIn(t, docset5Dir), 29900)
	me := Request{UserID: 29900, ChatID: 29901}
	fee := ask(t, a, me, "тобол за ноябрь продал на 2 830 400, сколько комиссионных с ндс")
	wantDocsAnswer(t, "fee", fee, "2\u00a0830\u00a0400,00\u00a0₽ × (7 % (п. 4.1.2) + 1,5 % (п. 4.2)) = 240\u00a0584,00\u00a0₽ + НДС 22 % 52\u00a0928,48\u00a0₽ (п. 4.3) = **293\u00a0512,48\u00a0₽**", "")
	when := ask(t, a, me, "когда они нам перечислят деньги")
	wantDocsAnswer(t, "они", when, "5.3. Комиссионер перечисляет Комитенту выручку", "ДОГОВОР ПОДРЯДА")
	other := ask(t, a, me, "а если бы выручка была 2 млн")
	wantDocsAnswer(t, "2 млн", other, "2\u00a0000\u00a0000,00\u00a0₽ × (6 % (п. 4.1.1) + 1,5 % (п. 4.2))", "")
}

// TestDocumentSet6Classes: classes the sixth set showed, asked in words of their own.
func TestDocumentSet6Classes(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads the sixth set")
	}
	askDocsCases(t, docset6Dir, 29950, []docsCase{
		// a PDF's last line of goods read with the total after it: the total's part of the line
		{"на какую сумму упд 2318", "Сумма «УПД 2318 Камский Полимер 26.11.2026»: **8\u00a0535\u00a0181,00\u00a0₽** с НДС, в т.ч. НДС 1\u00a0539\u00a0131,00\u00a0₽", ""},
		// the side a form's signature line is under («… права принял:» above it), and its day
		{"кто получил товар по упд 2318", "Кладовщик склада сырья — **Е. А. Пронина**\n- Дата получения (приёмки): 27.11.2026", "Галиуллин"},
		{"кто отгрузил по упд 2318", "Начальник отдела логистики — **Д. И. Шарипов**", "Пронина"},
		// a clause's share of the cost of the stage named by its ordinal (with VAT: the table has
		// both)
		{"сколько аванс по третьему этапу аудита", "30 % × 518\u00a0500,00\u00a0₽ (стоимость «Заключительная проверка", ""},
		// a clause whose words an agreement replaced («слова «25 000 000,00 …» заменить словами
		// «35 000 000,00 …»») is quoted in its new wording
		{"какой лимит задолженности по поставке", "п. 4.2 — в редакции «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1 от 26.10.2026»:\n> 4.2. Лимит задолженности Покупателя по оплате Товара, поставленного с отсрочкой платежа, составляет 35 000 000,00", ""},
		// a term asked of a clause that also sets a share of a stage is no share
		{"сколько у нас дней подписать акт аудиторам", "", "70 % ×"},
		// the contract's own price, not the first row of its table of stages
		{"цена договора аудита", "Цена договора — **951\u00a0600,00\u00a0₽**, в т.ч. НДС 171\u00a0600,00\u00a0₽; без НДС 780\u00a0000,00\u00a0₽ (п. 4.1)", ""},
		// a scan's agreement that sets rows of the specification anew by a table read as text:
		// the row's price from the agreement's day, the agreement dated by itself, not by the
		// recipient's incoming stamp above its title
		{"30 т пэвд 15803 в январе сколько с ндс", "190\u00a0320,00\u00a0₽ × 30 = **5\u00a0709\u00a0600,00\u00a0₽** с НДС", ""},
		{"допник по поставке от какого числа", "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1**: № 1 от 26.10.2026", "28.10.2026"},
	})
}
