// Package ledger is the 1C skill ([Skill], behind skill.Skill): it answers the questions
// understood as 1C ones, the ledger commands, the buttons of its replies, the planner's
// ledger_query tool and deep analyses (guarded discovery over agent/ledger/probes). It reads
// what the 1C query runner (agent/ledger/runner) found in 1C two ways — Facts, for the
// planner's ledger_query tool, and Reply, the runner's own answer with its footnote and its
// buttons (a choice of candidates, drilldowns, the Excel export). Every amount is written
// exactly, as onec.Kopecks writes it.
package ledger

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/buttons"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// The callback data of the buttons a reply offers and the agent reads back. A choice and the
// export are bound to the result of the answer they sit under: the agent keeps that result
// under a random id, in the chat's scope, and the data carries the id (Bound, ParsePress).
const (
	// ExportPrefix starts "Выгрузить в Excel": "x:<result id>".
	ExportPrefix = "x:"
	// ChoicePrefix starts a clarification button: "c:<result id>:<candidate index>" picks one
	// candidate of that ambiguous result, which the agent re-runs with that reference.
	ChoicePrefix = "c:"
	// PDFPrefix starts an act of reconciliation's «Акт в PDF»: "p:<result id>".
	PDFPrefix = "p:"
	// LegacyExport is the export button before results were kept per answer: it named "the
	// conversation's last result" and is refused as stale (as is "c:<index>" with no id).
	LegacyExport = "x:last"
)

// Press is what a choice or export button names: the id of the result it is bound to and, for
// a choice, the candidate.
type Press struct {
	ID        string
	Export    bool
	PDF       bool // the act's PDF (PDFPrefix)
	Candidate int
}

// ParsePress reads the data of a choice or export button; false for anything else, the
// buttons of before (LegacyExport, "c:<index>") and forged data included.
func ParsePress(data string) (Press, bool) {
	if id, ok := strings.CutPrefix(data, ExportPrefix); ok {
		return Press{ID: id, Export: true}, buttons.ValidID(id)
	}
	if id, ok := strings.CutPrefix(data, PDFPrefix); ok {
		return Press{ID: id, PDF: true}, buttons.ValidID(id)
	}
	rest, ok := strings.CutPrefix(data, ChoicePrefix)
	if !ok {
		return Press{}, false
	}
	id, index, ok := strings.Cut(rest, ":")
	i, err := strconv.Atoi(index)
	if !ok || err != nil || i < 0 || i > 99 || !buttons.ValidID(id) {
		return Press{}, false
	}
	return Press{ID: id, Candidate: i}, true
}

// Bound reports whether the reply of res has buttons bound to res itself (a choice or the
// export), which need res kept under an id.
func Bound(res runner.Result) bool { return len(res.Candidates) > 0 || exportable(res) || actOf(res) }

// exportable: the result has rows to export (a counterparty card and the offsets always: their
// export holds what the message summarises; the items of a quantity account's balance beyond
// those shown).
func exportable(res runner.Result) bool {
	if res.ResultMode == runner.Limited {
		return false
	}
	return res.ResultMode == runner.FactualSummary || res.Summary.Rows > res.Shown() || res.PartyCard != nil || res.Offsets != nil ||
		res.Stock != nil && len(res.Stock.Lines) > runner.ShownTop
}

// Reply is a lane result as the chat shows it: the lane's Markdown, its figures footnoted
// with the recipe, the organization and the base; a button per candidate and drilldown, and
// the export when there are rows to export. id is the result's id (NewID) that the choice and
// export buttons carry; with none ("", the result could not be kept) they are left out.
func Reply(res runner.Result, id string) skill.Reply { return replyOn(res, id, "") }

// replyOn is Reply with the drilldowns bound to the base tagged base (baseTag; "" with one base):
// a drilldown whose data cannot carry the tag within Telegram's bound is left out rather than
// offered unbound.
func replyOn(res runner.Result, id, base string) skill.Reply {
	r := skill.Reply{Text: res.Markdown(), Listed: listed(res)}
	switch {
	case res.PartyCard != nil && res.ResultMode != runner.Limited:
		// Each part of the card cites the recipe it was read with.
		text, titles := res.CardMarkdown()
		r.Text = text
		for _, t := range titles {
			r.Sources = append(r.Sources, facts.Source{Title: t})
		}
	case res.ResultMode != runner.Limited:
		// Figures always name their source: the recipe, the organization and the base, marked
		// where the figures are read. An answer that found nothing has no figures to source.
		r.Text = res.MarkdownCited("[1]")
		r.Sources = []facts.Source{{Title: res.SourceTitle()}}
	}
	if res.PartyCard != nil && res.ResultMode != runner.Limited {
		// the act of reconciliation with this counterparty, asked as the question it is
		r.Buttons = append(r.Buttons, skill.Button{Text: ReconciliationQuestion(res.Party)})
	}
	for i, c := range res.Candidates {
		if id != "" {
			r.Buttons = append(r.Buttons, skill.Button{Text: candidateLabel(c), Data: fmt.Sprintf("%s%s:%d", ChoicePrefix, id, i)})
		}
	}
	for _, d := range res.Drills() {
		data := d.Data
		if base != "" {
			if data = tagDrill(data, base); data == "" {
				continue
			}
		}
		r.Buttons = append(r.Buttons, skill.Button{Text: d.Text, Data: data})
	}
	if actOf(res) {
		actReply(&r, res, id) // act.go: its files and buttons
	} else if exportable(res) && id != "" {
		r.Buttons = append(r.Buttons, skill.Button{Text: "Выгрузить в Excel", Data: ExportPrefix + id})
	}
	r.Chart = agingChart(res) // nil but for an aging
	if res.Aging != nil && res.ResultMode != runner.Limited && res.Party == "" {
		// the other side's aging on the same day, asked as a question
		other := "Просрочка поставщикам на "
		if res.Aging.Payables {
			other = "Просрочка покупателей на "
		}
		r.Buttons = append(r.Buttons, skill.Button{Text: other + res.AsOf.Format("02.01.2006")})
	}
	r.Buttons = skill.InPairs(r.Buttons) // three rows for five drilldowns and the export
	return r
}

// ReconciliationQuestion is what the card's «Акт сверки» button asks: «Акт сверки с Универсал»,
// the counterparty without its legal form and quotes, as a user would type it.
func ReconciliationQuestion(party string) string {
	return "Акт сверки с " + runner.ShortParty(party)
}

// maxListed bounds the counterparties a reply remembers for «карточка 3».
const maxListed = 50

// listed are the counterparties a result lists, in the order of its rows (each once): the debts
// lists, the aging and the offsets; a card or a document list lists none.
func listed(res runner.Result) []recipe.Entity {
	if res.ResultMode == runner.Limited {
		return nil
	}
	switch res.Intent {
	case recipe.Receivables, recipe.Payables, recipe.ReceivablesAging, recipe.PayablesAging, recipe.OffsetCandidates:
	default:
		return nil
	}
	rows := res.All
	if len(rows) == 0 {
		rows = res.Rows
	}
	var out []recipe.Entity
	seen := map[string]bool{}
	for _, row := range rows {
		ref, name := row.PartyID, row.Party
		if res.Intent == recipe.Receivables || res.Intent == recipe.Payables {
			ref, name = row.Ref, row.Name
		}
		if ref == "" || seen[ref] {
			continue
		}
		seen[ref] = true
		out = append(out, recipe.Entity{Ref: ref, Name: name})
		if len(out) == maxListed {
			break
		}
	}
	return out
}

// candidateLabel is a button label that tells near-duplicates apart: what tells them apart (the
// INN, a contract's number and date) is kept whole, the name cut at a word if need be.
func candidateLabel(c recipe.Entity) string {
	const maxLabel = 48
	switch {
	case c.Number != "" && c.Date != "":
		return ru.Truncate(fmt.Sprintf("№ %s от %s", c.Number, c.Date), maxLabel)
	case c.INN != "":
		inn := ", ИНН " + c.INN
		return ru.Truncate(c.Name, max(maxLabel-utf8.RuneCountInString(inn), maxLabel/2)) + inn
	}
	return ru.Truncate(c.Name, maxLabel)
}

// Choice is the request of last, an ambiguous result, with its candidate i; false when last
// has no candidate i.
func Choice(last runner.Result, i int) (runner.Decomposition, bool) {
	if i < 0 || i >= len(last.Candidates) {
		return runner.Decomposition{}, false
	}
	ref := last.Candidates[i].Ref
	f := last.Filters
	switch last.AnchorType {
	case "organization":
		f.Organization = ref
	case "bank_account":
		f.Organization = "" // the account's organization is the scope
	case "contract":
		f.Contract = ref
	case "item": // the item's name as the nomenclature has it: found exactly
		f.Item = last.Candidates[i].Name
	default:
		f.Counterparty, f.INN = ref, ""
	}
	d := runner.Decomposition{QuestionMode: runner.ModeLedger, Intent: last.Intent,
		Filters: f, FallbackRuleHit: "clarification_choice", Reasons: []string{"выбор из кандидатов"}}
	if last.AnchorType == "bank_account" {
		d.BankAccount = ref
	}
	d.Missing = recipe.MissingFilters(d.Intent, d.Filters)
	return d, true
}

// Limited is the error of an ledger_query the lane answered with LIMITED_WITH_REASON for
// anything but an empty match: a required filter is missing, an anchor is unknown or
// ambiguous, the recipe cannot serve the question, or 1C failed. Error is the lane's Russian
// message (with the candidates, when it offers a choice), which says precisely what to add or
// why; errors.As gives the caller the whole result, and a failure of 1C also matches
// skill.ErrUnavailable. An empty match is not an error: it is a fact («никто нам не должен»).
type Limited struct{ Result runner.Result }

func (e *Limited) Error() string {
	msg := strings.TrimSpace(e.Result.Message)
	if len(e.Result.Candidates) == 0 {
		return msg
	}
	labels := make([]string, 0, len(e.Result.Candidates))
	for _, c := range e.Result.Candidates {
		labels = append(labels, candidateLabel(c))
	}
	if !strings.HasSuffix(msg, ":") { // «Выберите нужного:» already introduces them
		msg += " Варианты:"
	}
	return msg + " " + strings.Join(labels, "; ") + "."
}

func (e *Limited) Is(target error) bool {
	return target == skill.ErrUnavailable && e.Result.LimitedReason == runner.ReasonExecutionError
}

// Decompose is the lane's request for an ledger_query: one whitelisted recipe with the plan's
// filters, for question.
func Decompose(question string, args understand.LedgerArgs) (runner.Decomposition, error) {
	if args.Recipe == "" {
		return runner.Decomposition{}, skill.BadArgs("ledger_query: no recipe")
	}
	if _, ok := recipe.For(args.Recipe); !ok {
		return runner.Decomposition{}, skill.BadArgs("ledger_query: unknown recipe %q", args.Recipe)
	}
	d := runner.Decomposition{QuestionMode: runner.ModeLedger, Intent: args.Recipe, Planned: true,
		Filters: args.Filters, FallbackRuleHit: "planner_tool", Reasons: []string{"рецепт и фильтры выбрал планировщик"},
		Sanitized: runner.Sanitize(question)}
	d.Missing = recipe.MissingFilters(d.Intent, d.Filters)
	return d, nil
}

// Facts are a lane result as ledger_query returns it: the rows, their total and the scope
// of the figures; a *Limited when the lane asks for more or 1C failed.
func Facts(res runner.Result) (facts.Payload, error) {
	p := facts.Payload{Coverage: 1}
	if res.ResultMode == runner.Limited {
		if res.LimitedReason != runner.ReasonEmptyMatch {
			return facts.Payload{}, &Limited{res}
		}
		// Nothing matched: a fact with no figures to source, so no source (and no footnote);
		// the limitations still say where it was looked for.
		p.Items = []facts.Item{{Section: facts.General, Kind: "fact", Title: subject(res), Text: res.Message}}
		p.Limitations = limitations(res)
		p.Found = true
		return p, nil
	}
	src := p.AddSource(facts.Source{Title: res.SourceTitle()}) // the recipe, the organization and the base, as Reply cites it
	for _, row := range res.Rows {
		it := rowItem(res, row)
		it.Source = src
		p.Items = append(p.Items, it)
	}
	total := totalItem(res)
	total.Source = src
	p.Items = append(p.Items, total)
	// Total counts the rows left out by the limit and the total item itself, so that
	// Count()-len(Items) is exactly the rows not shown («ещё N»).
	p.Total = res.Summary.Rows + 1
	if st := res.Stock; res.Intent == recipe.AccountBalance && st != nil && len(st.Lines) > 0 {
		// a quantity account's items beside its balance (runner/stock.go): the largest, and the total
		for _, row := range st.Lines[:min(len(st.Lines), maxStockFacts)] {
			it := stockItem(row, facts.Item{Section: facts.General, Kind: "ledger_row", Source: src})
			p.Items = append(p.Items, it)
		}
		t := stockTotal(st, facts.Item{Section: facts.General, Kind: "ledger_total", Title: "Итого по номенклатуре", Source: src})
		p.Items = append(p.Items, t)
		p.Total += len(st.Lines) + 1
	}
	p.Limitations = limitations(res)
	if res.Summary.Rows > len(res.Rows) {
		p.Limitations = append(p.Limitations, fmt.Sprintf("Показаны первые %d из %s.", len(res.Rows), ru.Count(res.Summary.Rows, "строки", "строк", "строк")))
	}
	p.Found = true
	return p, nil
}

// subject is what a result is about: the recipe's purpose and the anchor.
func subject(res runner.Result) string {
	r, _ := recipe.For(res.Intent)
	title := r.Purpose
	switch {
	case res.Contract != "" && (res.Intent == recipe.OpenItemsByContract || res.Intent == recipe.DocumentsByContract):
		title += ": " + res.Contract
	case res.Party != "":
		title += ": " + res.Party
	}
	return title
}

// limitations state the scope of the figures — date or period, organisation, account —
// then the lane's notes and limitations (defaults applied, truncation).
func limitations(res runner.Result) []string {
	var b strings.Builder
	b.WriteString("Данные 1С")
	switch {
	case !res.AsOf.IsZero():
		b.WriteString(" на " + res.AsOf.Format("02.01.2006"))
	case !res.From.IsZero() && !res.To.IsZero():
		fmt.Fprintf(&b, " за %s – %s", res.From.Format("02.01.2006"), res.To.Format("02.01.2006"))
	}
	if res.Organization != "" {
		b.WriteString(", организация " + res.Organization)
		if res.OrgDefaulted {
			b.WriteString(" (основная; другую можно указать в вопросе)")
		}
	}
	if res.Account != "" {
		b.WriteString(", счёт " + res.Account)
	}
	b.WriteString(".")
	out := []string{b.String()}
	out = append(out, res.Notes...)
	return append(out, res.Limitations...)
}

// rowItem is one row of a result with the fields its recipe outputs, amounts exact.
func rowItem(res runner.Result, row runner.Row) facts.Item {
	it := facts.Item{Section: facts.General, Kind: "ledger_row"}
	add := func(name, value string) {
		if value != "" {
			it.Fields = append(it.Fields, facts.Field{Name: name, Value: value})
		}
	}
	switch res.Intent {
	case recipe.TurnoverSheet, recipe.AccountCard:
		return reportItem(res, row, it) // report.go
	case recipe.ReceivablesAging, recipe.PayablesAging:
		return agingItem(res, row, it) // aging.go
	case recipe.ReconciliationAct:
		return actItem(row, it) // act.go
	case recipe.CounterpartyCard:
		return cardItem(row, it) // card.go
	case recipe.OffsetCandidates:
		return offsetItem(row, it)
	case recipe.StockBalance:
		return stockItem(row, it) // stock.go
	case recipe.Receivables, recipe.Payables:
		it.Title = row.Name
		it.Text = fmt.Sprintf("%s — %s", row.Name, row.Amount)
		add("Контрагент", row.Name)
		add("Сумма", row.Amount.String())
		if row.Count > 0 {
			it.Text += fmt.Sprintf(" (документов: %d)", row.Count)
			add("Документов", strconv.Itoa(row.Count))
		}
		if row.Advance != 0 { // BP's split of the netted balance, per account and contract
			it.Text += fmt.Sprintf("; долг %s, авансы %s", row.Debt, row.Advance)
			add("Долг по договорам", row.Debt.String())
			add("Авансы по договорам", row.Advance.String())
		}
	case recipe.AccountBalance:
		it.Title = strings.TrimSpace("Счёт " + row.Account + " " + row.Name)
		it.Text = fmt.Sprintf("%s: дебет %s, кредит %s, сальдо %s", it.Title, row.Debit, row.Credit, row.Amount)
		add("Счёт", row.Account)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Сальдо", row.Amount.String())
		if row.Debt != 0 || row.Advance != 0 { // per sub-account and contract, as the turnover sheet shows it
			it.Text += fmt.Sprintf(" (по субсчетам и договорам: дебет %s, кредит %s)", row.Debt, row.Advance)
			add("Дебет по субсчетам и договорам", row.Debt.String())
			add("Кредит по субсчетам и договорам", row.Advance.String())
		}
		if row.Count > 0 { // the open settlement documents behind it, counted in 1C
			it.Text += fmt.Sprintf("; открытых документов расчётов: %d", row.Count)
			add("Открытых документов расчётов", strconv.Itoa(row.Count))
		}
	case recipe.OpenContracts:
		it.Title = row.Name
		it.Text = fmt.Sprintf("%s — %s: дебет %s, кредит %s, сальдо %s", row.Name, row.Party, row.Debit, row.Credit, row.Amount)
		add("Договор", row.Name)
		add("Контрагент", row.Party)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Сальдо", row.Amount.String())
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract, recipe.DocumentsFormBalance:
		it.Title = document(row)
		it.Text = fmt.Sprintf("%s: дебет %s, кредит %s, остаток %s", it.Title, row.Debit, row.Credit, row.Amount)
		add("Контрагент", row.Party)
		add("Договор", row.Deal)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Остаток", row.Amount.String())
	default: // documents, bank operations
		it.Title = document(row)
		it.Text = fmt.Sprintf("%s — %s", it.Title, row.Amount)
		add("Контрагент", row.Party)
		add("Договор", row.Deal)
		add("Сумма", row.Amount.String())
		if row.Posted != nil && !*row.Posted {
			it.Text += " (не проведён)"
			add("Проведён", "нет")
		}
		add("Расчётный счёт", row.Hint)
	}
	return it
}

// document names a document row: «Реализация товаров и услуг № 15 от 10.01.2026».
func document(row runner.Row) string {
	s := runner.DocumentTypeName(row.Type)
	if row.Number != "" {
		s += " № " + row.Number
	}
	if t, err := time.Parse(time.DateOnly, row.Date); err == nil {
		s += " от " + t.Format("02.01.2006")
	} else if row.Date != "" {
		s += " от " + row.Date
	}
	return strings.TrimSpace(s)
}

// totalItem is the result's total as the lane's own answer states it: a sum where adding
// the rows means something, counts where it does not (documents mix sales and payments;
// customer and supplier contracts are totalled by side).
func totalItem(res runner.Result) facts.Item {
	it := facts.Item{Section: facts.General, Kind: "ledger_total", Title: "Итого"}
	n, sum := res.Summary.Rows, res.Summary.TotalAmount.String()
	all := res.All
	if len(all) == 0 {
		all = res.Rows
	}
	switch res.Intent {
	case recipe.TurnoverSheet, recipe.AccountCard:
		return reportTotal(res, it) // report.go
	case recipe.ReceivablesAging, recipe.PayablesAging:
		return agingTotal(res, it) // aging.go
	case recipe.ReconciliationAct:
		return actTotal(res, it) // act.go
	case recipe.CounterpartyCard:
		return cardTotal(res, it) // card.go
	case recipe.OffsetCandidates:
		return offsetsTotal(res, it)
	case recipe.StockBalance:
		if res.Stock != nil {
			return stockTotal(res.Stock, it) // stock.go
		}
	case recipe.Receivables:
		parties := ru.Count(n, "контрагент", "контрагента", "контрагентов")
		it.Text = fmt.Sprintf("Итого нам должны: %s — %s.", sum, parties)
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Контрагентов", Value: strconv.Itoa(n)}}
	case recipe.Payables:
		parties := ru.Count(n, "контрагенту", "контрагентам", "контрагентам")
		it.Text = fmt.Sprintf("Итого мы должны: %s — %s.", sum, parties)
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Контрагентов", Value: strconv.Itoa(n)}}
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract:
		it.Text = fmt.Sprintf("Итого открыто: %s по %s.", sum, ru.Count(n, "документу", "документам", "документам"))
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Документов", Value: strconv.Itoa(n)}}
	case recipe.DocumentsFormBalance:
		it.Text = fmt.Sprintf("Итого остаток: %s — %s.", sum, ru.Count(n, "документ", "документа", "документов"))
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Документов", Value: strconv.Itoa(n)}}
	case recipe.OpenContracts:
		var dr, cr int64
		for _, row := range all {
			if row.Amount > 0 {
				dr += int64(row.Amount)
			} else {
				cr -= int64(row.Amount)
			}
		}
		debit, credit := onec.Kopecks(dr), onec.Kopecks(cr)
		it.Text = fmt.Sprintf("Дебетовое сальдо: %s, кредитовое: %s — %s.", debit, credit, ru.Count(n, "договор", "договора", "договоров"))
		it.Fields = []facts.Field{{Name: "Дебетовое сальдо", Value: debit.String()}, {Name: "Кредитовое сальдо", Value: credit.String()},
			{Name: "Договоров", Value: strconv.Itoa(n)}}
	case recipe.AccountBalance:
		it.Text = fmt.Sprintf("Сальдо: %s.", sum)
		it.Fields = []facts.Field{{Name: "Сальдо", Value: sum}, {Name: "Строк", Value: strconv.Itoa(n)}}
	default: // documents and bank operations: counts only
		posted := 0
		for _, row := range all {
			if row.Posted == nil || *row.Posted {
				posted++
			}
		}
		it.Text = fmt.Sprintf("Всего: %s.", ru.Count(n, "документ", "документа", "документов"))
		it.Fields = []facts.Field{{Name: "Документов", Value: strconv.Itoa(n)}}
		if posted < n {
			it.Text += fmt.Sprintf(" Проведено: %d, не проведено: %d.", posted, n-posted)
			it.Fields = append(it.Fields, facts.Field{Name: "Проведено", Value: strconv.Itoa(posted)},
				facts.Field{Name: "Не проведено", Value: strconv.Itoa(n - posted)})
		}
	}
	return it
}
