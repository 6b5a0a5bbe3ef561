package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/address"
	"github.com/finbot/finbot/agent/docs"
	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/understand"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/tavily"
	"github.com/finbot/finbot/ru"
)

// The tools of the planned path (issue #6). Each runs one plan.ToolCall against one source and
// returns its findings as facts: every figure already written as people read it («1 250 000,00 ₽»,
// «92,5000 ₽», «16,50%», «15.01.2026»), in Item.Text or a Field value, because the post-check
// accepts an answer's number only when the facts' text contains it.

var (
	// errLedgerDenied: the requester may not see 1C data. The tool returns it before touching
	// the lane, so nothing of 1C reaches the facts.
	errLedgerDenied = errors.New("agent: 1C data is not available to this user")
	// errToolArgs: a call's arguments do not decode or make no request (an unparsable date,
	// an unknown mode or recipe, an empty query).
	errToolArgs = errors.New("agent: bad tool arguments")
)

// Relevance floors of docs.Library.Search (its minOverlap and minDense): a passage that clears
// one of them answers the question; one let in only by the lower floor of selected documents
// (selectedOverlap) may not.
const (
	libraryMinOverlap = 0.5
	libraryMinDense   = 0.55
)

const (
	// lowCoverage is a payload's coverage when no passage clears the library's floor.
	lowCoverage = 0.3
	// fullFallbackTopK is how many passages stand in for documents too large to load whole.
	fullFallbackTopK = 8
	// newsSnippetRunes bounds a news item's text (the chat list shows 160; the answer LLM may use more).
	newsSnippetRunes = 300
	// selectedTitleRunes is how long a selected document's title is when the planner sees it.
	selectedTitleRunes = 80
)

// roubleSign follows a formatted amount: a no-break space and the sign, as onec.Kopecks writes it.
const roubleSign = "\u00a0₽"

// tools returns the executor's registry for one question of req: only the tools this
// installation has (a nil dependency = the tool is absent from the map).
func (a *Agent) tools(req Request, s docScope, question string) executor.Registry {
	reg := executor.Registry{}
	if a.docs != nil {
		reg[plan.ToolSearchUserDocuments] = typedTool(func(ctx context.Context, args plan.SearchUserDocumentsArgs) (facts.Payload, error) {
			return a.searchUserDocuments(ctx, s, args)
		})
		reg[plan.ToolLoadDocumentsFull] = typedTool(func(ctx context.Context, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
			return a.loadDocumentsFull(ctx, s, question, args)
		})
	}
	if a.kb != nil {
		reg[plan.ToolSearchGeneralKB] = typedTool(a.searchKB)
	}
	if a.cbr != nil {
		reg[plan.ToolFetchCBRData] = typedTool(a.fetchCBR)
	}
	if a.search != nil && a.search.Configured() {
		reg[plan.ToolFetchFinanceNews] = typedTool(func(ctx context.Context, args plan.FetchFinanceNewsArgs) (facts.Payload, error) {
			return a.financeNews(ctx, req, question, args)
		})
	}
	if a.lane != nil {
		reg[plan.ToolAddressQuery] = typedTool(func(ctx context.Context, args plan.AddressQueryArgs) (facts.Payload, error) {
			return a.addressQuery(ctx, req, question, args)
		})
	}
	return reg
}

// typedTool adapts a typed tool to the executor: it decodes the call's arguments strictly (as the
// planner's validation does: unknown fields refused, missing arguments an empty object).
func typedTool[A any](run func(ctx context.Context, args A) (facts.Payload, error)) executor.Tool {
	return func(ctx context.Context, call plan.ToolCall) (facts.Payload, error) {
		var args A
		if err := call.Decode(&args); err != nil {
			return facts.Payload{}, fmt.Errorf("%w: %s: %v", errToolArgs, call.Tool, err)
		}
		return run(ctx, args)
	}
}

func badToolArgs(format string, v ...any) error {
	return fmt.Errorf("%w: %s", errToolArgs, fmt.Sprintf(format, v...))
}

// sourceFailed wraps a source's failure in the agent's vocabulary, keeping the cause matchable.
func sourceFailed(what string, err error) error {
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, what, err)
}

// ---- documents and the knowledge base ----

// searchUserDocuments searches the owner's documents, or only those args name.
func (a *Agent) searchUserDocuments(ctx context.Context, s docScope, args plan.SearchUserDocumentsArgs) (facts.Payload, error) {
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return facts.Payload{}, badToolArgs("search_user_documents: empty query")
	}
	var ids []string
	if len(args.DocumentIDs) > 0 {
		ms, err := a.resolveDocs(ctx, s, args.DocumentIDs)
		if err != nil {
			return facts.Payload{}, sourceFailed("documents", err)
		}
		if len(ms) == 0 { // none of them is the owner's: the selection, else everything
			ms = s.selected
		}
		ids = docIDs(ms)
	}
	return a.passages(ctx, a.docs, s.owner, docs.Query{Text: query, DocIDs: ids, TopK: args.TopK}, false)
}

// loadDocumentsFull returns the named documents (default: the selection) whole when they fit
// FullContextChars together, else their passages that answer question (S4).
func (a *Agent) loadDocumentsFull(ctx context.Context, s docScope, question string, args plan.LoadDocumentsFullArgs) (facts.Payload, error) {
	ms, err := a.resolveDocs(ctx, s, args.DocumentIDs)
	if err != nil {
		return facts.Payload{}, sourceFailed("documents", err)
	}
	if len(ms) == 0 {
		ms = s.selected
	}
	if len(ms) == 0 {
		// Never Full(owner, nil): that would be every document of the owner.
		return facts.Payload{Limitations: []string{"Документы для чтения целиком не выбраны: выбрать их можно в /docs."}}, nil
	}
	chars := 0
	for _, m := range ms {
		chars += m.Chars
	}
	if chars > FullContextChars {
		query := strings.TrimSpace(question)
		if query == "" {
			return facts.Payload{}, badToolArgs("load_documents_full: documents too large and no question to search them with")
		}
		p, err := a.passages(ctx, a.docs, s.owner, docs.Query{Text: query, DocIDs: docIDs(ms), TopK: fullFallbackTopK}, false)
		if err != nil {
			return facts.Payload{}, err
		}
		p.Limitations = append(p.Limitations, fmt.Sprintf("Документы слишком велики, чтобы прочитать их целиком (%s при пределе %s): ответ основан на самых подходящих фрагментах.",
			ru.Count(chars, "знак", "знака", "знаков"), ru.Number(FullContextChars)))
		return p, nil
	}
	full, err := a.docs.Full(ctx, s.owner, docIDs(ms))
	if err != nil {
		return facts.Payload{}, sourceFailed("documents", err)
	}
	p := facts.Payload{Coverage: 1}
	for _, d := range full {
		src := p.AddSource(facts.Source{Title: d.Meta.Title}) // as fullContextAnswer titles them
		p.Items = append(p.Items, facts.Item{Section: facts.UserDocuments, Kind: "document", Title: d.Meta.Title,
			Text: serialize(d), Source: src})
	}
	p.Found = len(p.Items) > 0
	return p, nil
}

// searchKB searches the company knowledge base.
func (a *Agent) searchKB(ctx context.Context, args plan.SearchGeneralKBArgs) (facts.Payload, error) {
	query := strings.TrimSpace(args.Query)
	if query == "" {
		return facts.Payload{}, badToolArgs("search_general_kb: empty query")
	}
	// The same gate as kbAnswer, the query read as the planner wrote it.
	q := docs.Query{Text: query, TopK: args.TopK, MinEvidence: kbGate(a.parser.Parse(understand.Input{Text: query, Now: a.now()}))}
	if t := strings.TrimSpace(args.Topic); t != "" {
		q.Expansions = []string{t} // widens recall; relevance is still judged against the query
	}
	return a.passages(ctx, a.kb, docs.KBOwner, q, true)
}

// passages runs a library search and turns its passages into facts: the excerpts the
// extractive answers quote, titled and footnoted as passageSources does.
func (a *Agent) passages(ctx context.Context, lib *docs.Library, own string, q docs.Query, kb bool) (facts.Payload, error) {
	q.TopK = min(max(q.TopK, 0), 20) // 0: the library's default
	if len(q.DocIDs) > 0 {
		q.MinOverlap = selectedOverlap // as passageAnswer: the answer is expected in these documents
	}
	found, _, err := lib.Search(ctx, own, q)
	if err != nil {
		if ctx.Err() != nil {
			return facts.Payload{}, ctx.Err()
		}
		return facts.Payload{}, sourceFailed("search documents", err)
	}
	if len(found) == 0 {
		return facts.Payload{}, nil
	}
	srcs, numbers := passageSources(found, kb)
	p := facts.Payload{Coverage: lowCoverage}
	var shown []string
	for i, ps := range found {
		text := passageExcerpt(ps, q.Text, kb)
		if text == "" || repeats(text, shown) {
			continue
		}
		shown = append(shown, text)
		it := facts.Item{Section: facts.UserDocuments, Kind: "passage", Title: srcs[numbers[i]-1].Title, Text: text,
			Source: p.AddSource(facts.Source{Title: srcs[numbers[i]-1].Title})}
		if kb {
			it.Section, it.Kind, it.Title = facts.KnowledgeBase, "kb_article", ps.Title
			if !ps.Meta.Updated.IsZero() {
				it.Fields = append(it.Fields, facts.Field{Name: "Обновлено", Value: ps.Meta.Updated.Format("02.01.2006")})
			}
		}
		if h := lastLine(ps.Heading); h != "" && h != ps.Title {
			it.Fields = append(it.Fields, facts.Field{Name: "Раздел", Value: h})
		}
		p.Items = append(p.Items, it)
		if ps.Overlap >= libraryMinOverlap || ps.Dense >= libraryMinDense {
			p.Coverage = 1
		}
	}
	p.Found = len(p.Items) > 0
	return p, nil
}

// passageExcerpt is what an extractive answer quotes of a passage: the clause of a document
// that answers query, the sentences of a knowledge-base article (passageQuote).
func passageExcerpt(p docs.Passage, query string, kb bool) string {
	q, _ := passageQuote(p, query, kb)
	return q.Text
}

// resolveDocs returns the owner's documents that refs name, by id or by title as the planner
// lists them (whole or cut to selectedTitleRunes), ignoring case; a title shared by several
// documents means the selected one. Refs that name nothing of the owner's are dropped: only
// the owner's own list is ever consulted, so another owner's id or title resolves to nothing.
func (a *Agent) resolveDocs(ctx context.Context, s docScope, refs []string) ([]docstore.Meta, error) {
	if len(refs) == 0 {
		return nil, nil
	}
	all, err := a.docs.List(ctx, s.owner)
	if err != nil {
		return nil, err
	}
	var ordered []docstore.Meta // the selection first, and only what the owner's list holds
	for _, m := range s.selected {
		if slices.ContainsFunc(all, func(o docstore.Meta) bool { return o.ID == m.ID }) {
			ordered = append(ordered, m)
		}
	}
	for _, m := range all {
		if !slices.ContainsFunc(ordered, func(o docstore.Meta) bool { return o.ID == m.ID }) {
			ordered = append(ordered, m)
		}
	}
	var out []docstore.Meta
	for _, ref := range refs {
		ref = strings.TrimSpace(strings.Trim(strings.TrimSpace(ref), "«»\"'"))
		if ref == "" {
			continue
		}
		i := slices.IndexFunc(ordered, func(m docstore.Meta) bool { return strings.EqualFold(m.ID, ref) })
		if i < 0 {
			i = slices.IndexFunc(ordered, func(m docstore.Meta) bool {
				return strings.EqualFold(m.Title, ref) || strings.EqualFold(ru.Truncate(m.Title, selectedTitleRunes), ref) ||
					m.FileName != "" && strings.EqualFold(m.FileName, ref)
			})
		}
		if i >= 0 && !slices.ContainsFunc(out, func(m docstore.Meta) bool { return m.ID == ordered[i].ID }) {
			out = append(out, ordered[i])
		}
	}
	return out, nil
}

func docIDs(ms []docstore.Meta) []string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.ID
	}
	return ids
}

// ---- the Bank of Russia ----

// fetchCBR answers fetch_cbr_data: rates on a day, a rate's dynamics, the key rate, the news.
func (a *Agent) fetchCBR(ctx context.Context, args plan.FetchCBRDataArgs) (facts.Payload, error) {
	today := a.today()
	switch args.Mode {
	case plan.CBRCurrency:
		on, err := argDate("date", args.Date, today)
		if err != nil {
			return facts.Payload{}, err
		}
		return a.cbrRatesOn(ctx, cbrCodes(args.Codes), on)
	case plan.CBRDynamic:
		from, err := argDate("from", args.From, time.Time{})
		if err != nil {
			return facts.Payload{}, err
		}
		to, err := argDate("to", args.To, today)
		if err != nil {
			return facts.Payload{}, err
		}
		if from.IsZero() {
			return facts.Payload{}, badToolArgs("fetch_cbr_data: mode dynamic needs from")
		}
		return a.cbrDynamic(ctx, cbrCodes(args.Codes), ru.Period{From: from, To: to, Kind: ru.KindRange})
	case plan.CBRKeyRate:
		if args.From == "" && args.To == "" {
			on, err := argDate("date", args.Date, today)
			if err != nil {
				return facts.Payload{}, err
			}
			return a.cbrKeyRate(ctx, ru.Period{From: on, To: on, Kind: ru.KindDay})
		}
		from, err := argDate("from", args.From, today)
		if err != nil {
			return facts.Payload{}, err
		}
		to, err := argDate("to", args.To, today)
		if err != nil {
			return facts.Payload{}, err
		}
		return a.cbrKeyRate(ctx, ru.Period{From: from, To: to, Kind: ru.KindRange})
	case plan.CBRNews:
		from, to := today.AddDate(0, 0, -cbrNewsDays), today
		var err error
		if args.Date != "" {
			if from, err = argDate("date", args.Date, today); err != nil {
				return facts.Payload{}, err
			}
			to = from
		} else {
			if from, err = argDate("from", args.From, from); err != nil {
				return facts.Payload{}, err
			}
			if to, err = argDate("to", args.To, to); err != nil {
				return facts.Payload{}, err
			}
		}
		return a.cbrNewsFacts(ctx, from, to)
	}
	return facts.Payload{}, badToolArgs("fetch_cbr_data: unknown mode %q", args.Mode)
}

// argDate parses a "YYYY-MM-DD" argument as midnight in Moscow; empty is def.
func argDate(name, s string, def time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return def, nil
	}
	t, err := time.ParseInLocation(time.DateOnly, s, ru.Moscow)
	if err != nil {
		return time.Time{}, badToolArgs("fetch_cbr_data: %s %q is not a date YYYY-MM-DD", name, s)
	}
	return t, nil
}

// cbrCodes are the requested currency codes, upper-case and each once; the major ones if none.
func cbrCodes(codes []string) []string {
	var out []string
	for _, c := range codes {
		if c = strings.ToUpper(strings.TrimSpace(c)); c != "" && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return defaultCurrencies
	}
	return out
}

// cbrErr wraps a Bank of Russia failure; a request it refused is no outage.
func cbrErr(what string, err error) error {
	if errors.Is(err, cbr.ErrUnavailable) {
		return sourceFailed(what, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// staleLimitation is staleNote's wording without its Markdown.
func staleLimitation(m cbr.Meta) string {
	return strings.Trim(staleNote(m, "Банк России"), "\n _⚠\ufe0f")
}

func factsSource(s Source) facts.Source { return facts.Source{Title: s.Title, URL: s.URL} }

// factItem is an item that states something other than a figure: no rates yet, a currency not quoted.
func factItem(title, text string, src int) facts.Item {
	return facts.Item{Section: facts.General, Kind: "fact", Title: title, Text: text, Source: src}
}

// notQuoted says why a currency has no rate: it is no currency the Bank of Russia quotes, or
// the Bank did not publish its rate when (as "на 14.03.2026"); an empty when means the Bank
// said it does not quote the code at all.
func notQuoted(code, when string) string {
	_, known := ru.LookupCurrency(code)
	switch {
	case !known:
		return fmt.Sprintf("«%s» — не валюта, курс которой устанавливает Банк России.", code)
	case when == "":
		return fmt.Sprintf("Банк России не устанавливает курс %s.", code)
	}
	return fmt.Sprintf("Банк России не устанавливал курс %s %s.", code, when)
}

// cbrRatesOn is the rates of codes on a day, each with its change against the previous
// publication, as ratesOnDay shows them.
func (a *Agent) cbrRatesOn(ctx context.Context, codes []string, on time.Time) (facts.Payload, error) {
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(factsSource(ratesSource))
	if on.After(a.today().AddDate(0, 0, 1)) {
		p.Items = []facts.Item{factItem("Курсы валют", fmt.Sprintf("Курсов на %s ещё нет: Банк России устанавливает курс не раньше чем накануне, после 15:30 МСК.", day(on)), src)}
		return p, nil
	}
	d, err := a.cbr.DailyRates(ctx, on)
	if err != nil {
		return facts.Payload{}, cbrErr("cbr daily rates", err)
	}
	if d.Stale {
		p.Limitations = append(p.Limitations, staleLimitation(d.Meta))
	}
	if len(d.Rates) == 0 {
		text := fmt.Sprintf("На %s у Банка России нет опубликованных курсов.", day(on))
		if on.After(a.today()) {
			text = fmt.Sprintf("Курсы на %s Банк России ещё не установил: обычно они появляются после 15:30 МСК накануне.", day(on))
		}
		p.Items = []facts.Item{factItem("Курсы валют", text, src)}
		return p, nil
	}
	var prev cbr.Daily // the previous publication, for the change; best effort
	if pd, err := a.cbr.DailyRates(ctx, d.OnDate.AddDate(0, 0, -1)); err == nil && len(pd.Rates) > 0 && pd.OnDate.Before(d.OnDate) {
		prev = pd
	}
	if !sameDay(d.OnDate, on) {
		p.Limitations = append(p.Limitations, fmt.Sprintf("На %s новых курсов нет — действуют курсы, установленные на %s.",
			dayWithWeekday(on), dayWithWeekday(d.OnDate)))
	}
	for _, code := range codes {
		r, ok := d.Find(code)
		if !ok {
			p.Items = append(p.Items, factItem(code, notQuoted(code, "на "+day(d.OnDate)), src))
			continue
		}
		it := facts.Item{Section: facts.General, Kind: "rate", Title: r.CharCode, Source: src, Fields: []facts.Field{
			{Name: "Валюта", Value: r.Name},
			{Name: "Курс", Value: formatRate(r.Value) + roubleSign},
			{Name: "Дата", Value: day(d.OnDate)},
		}}
		text := fmt.Sprintf("Официальный курс %s (%s) на %s: %s%s", r.CharCode, lowerFirst(r.Name), day(d.OnDate), formatRate(r.Value), roubleSign)
		if r.Nominal != 1 {
			text += fmt.Sprintf(" за %d (%s%s за 1)", r.Nominal, formatRate(r.UnitRate), roubleSign)
			it.Fields = append(it.Fields, facts.Field{Name: "Номинал", Value: strconv.Itoa(r.Nominal)},
				facts.Field{Name: "За 1 единицу", Value: formatRate(r.UnitRate) + roubleSign})
		}
		if pr, ok := prev.Find(code); ok && !pr.UnitRate.IsZero() {
			diff := r.UnitRate.Sub(pr.UnitRate).Mul(decimal.NewFromInt(int64(r.Nominal)))
			pct := r.UnitRate.Sub(pr.UnitRate).Div(pr.UnitRate).Mul(decimal.NewFromInt(100))
			change := fmt.Sprintf("%s%s (%s%%) к %s", formatSigned(diff, 4), roubleSign, formatSigned(pct, 2), day(prev.OnDate))
			text += ", изменение " + change
			it.Fields = append(it.Fields, facts.Field{Name: "Изменение", Value: change})
		}
		it.Text = text + "."
		p.Items = append(p.Items, it)
	}
	p.Found = true
	return p, nil
}

// cbrDynamic is each code's series over a period, summarised as ratesOverPeriod does, the
// period bounded as answerRates bounds it.
func (a *Agent) cbrDynamic(ctx context.Context, codes []string, per ru.Period) (facts.Payload, error) {
	if per.To.Before(per.From) {
		return facts.Payload{}, badToolArgs("fetch_cbr_data: from %s is after to %s", day(per.From), day(per.To))
	}
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(factsSource(ratesSource))
	today := a.today()
	if per.From.After(today.AddDate(0, 0, 1)) {
		p.Items = []facts.Item{factItem("Курсы валют", fmt.Sprintf("Курсов на %s ещё нет: Банк России устанавливает курс не раньше чем накануне, после 15:30 МСК.", day(per.From)), src)}
		return p, nil
	}
	if per.To.After(today) {
		per.To = today
		p.Limitations = append(p.Limitations, fmt.Sprintf("Период ограничен сегодняшним днём (%s).", day(today)))
	}
	if per.Days() > maxRatePeriodDays {
		per.From = per.To.AddDate(0, 0, -(maxRatePeriodDays - 1))
		p.Limitations = append(p.Limitations, fmt.Sprintf("Период слишком длинный: показываю последние %d дней, с %s.", maxRatePeriodDays, day(per.From)))
	}
	stale := false
	for _, code := range codes {
		if _, ok := ru.LookupCurrency(code); !ok {
			p.Items = append(p.Items, factItem(code, notQuoted(code, ""), src))
			continue
		}
		dyn, err := a.cbr.Dynamic(ctx, code, per.From, per.To)
		switch {
		case errors.Is(err, cbr.ErrUnknownCurrency):
			p.Items = append(p.Items, factItem(code, notQuoted(code, ""), src))
			continue
		case err != nil:
			return facts.Payload{}, cbrErr("cbr dynamic "+code, err)
		case len(dyn.Points) == 0:
			p.Items = append(p.Items, factItem(code, fmt.Sprintf("За %s – %s Банк России курс %s не публиковал.", day(per.From), day(per.To), code), src))
			continue
		}
		if dyn.Stale && !stale {
			stale = true
			p.Limitations = append(p.Limitations, staleLimitation(dyn.Meta))
		}
		st := summarize(dyn.Points)
		at := func(pt cbr.Point) string {
			return fmt.Sprintf("%s%s (%s)", formatRate(pt.UnitRate), roubleSign, day(pt.Date))
		}
		p.Items = append(p.Items, facts.Item{Section: facts.General, Kind: "rate", Title: code, Source: src,
			Text: fmt.Sprintf("Официальный курс %s за %s – %s, ₽ за 1 единицу: с %s%s до %s%s.", code, day(per.From), day(per.To),
				formatRate(st.first.UnitRate), roubleSign, formatRate(st.last.UnitRate), roubleSign),
			Fields: []facts.Field{
				{Name: "Начало", Value: at(st.first)},
				{Name: "Конец", Value: at(st.last)},
				{Name: "Минимум", Value: at(st.min)},
				{Name: "Максимум", Value: at(st.max)},
				{Name: "Изменение", Value: fmt.Sprintf("%s%s (%s%%)", formatSigned(st.change, 4), roubleSign, formatSigned(st.changePct, 2))},
				{Name: "Публикаций", Value: strconv.Itoa(len(dyn.Points))},
			}})
	}
	p.Found = true
	return p, nil
}

// cbrKeyRate is the key rate on a day (with the date it took effect and the value before), or
// the rate at a period's start and every change within it.
func (a *Agent) cbrKeyRate(ctx context.Context, per ru.Period) (facts.Payload, error) {
	if per.To.Before(per.From) {
		return facts.Payload{}, badToolArgs("fetch_cbr_data: from %s is after to %s", day(per.From), day(per.To))
	}
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(factsSource(keyRateSource))
	today := a.today()
	const title = "Ключевая ставка"
	if per.From.After(today) {
		p.Items = []facts.Item{factItem(title, fmt.Sprintf("На %s ключевой ставки ещё нет: Банк России объявляет её решением совета директоров, будущее значение неизвестно.", day(per.From)), src)}
		return p, nil
	}
	per.To = minTime(per.To, today)
	kr, err := a.cbr.KeyRate(ctx, per.From.AddDate(0, 0, -keyRateLookback), per.To)
	if err != nil {
		return facts.Payload{}, cbrErr("cbr key rate", err)
	}
	if kr.Stale {
		p.Limitations = append(p.Limitations, staleLimitation(kr.Meta))
	}
	runs := keyRateRuns(kr.Points)
	r, ok := runAt(runs, per.From)
	if !ok {
		p.Items = []facts.Item{factItem(title, fmt.Sprintf("На %s у Банка России нет данных о ключевой ставке.", day(per.From)), src)}
		return p, nil
	}
	rate := func(r keyRateRun) string { return formatDecimal(r.rate, 2) + "%" }
	it := facts.Item{Section: facts.General, Kind: "key_rate", Title: title, Source: src,
		Text:   fmt.Sprintf("Ключевая ставка Банка России на %s: %s годовых, действует с %s.", day(per.From), rate(r), day(r.since)),
		Fields: []facts.Field{{Name: "Ставка", Value: rate(r)}, {Name: "На дату", Value: day(per.From)}, {Name: "Действует с", Value: day(r.since)}}}
	if prev, ok := runAt(runs, r.since.AddDate(0, 0, -1)); ok {
		it.Fields = append(it.Fields, facts.Field{Name: "Предыдущее значение", Value: fmt.Sprintf("%s (с %s)", rate(prev), day(prev.since))})
	}
	p.Items = append(p.Items, it)
	if !per.Single() {
		changes := 0
		for _, c := range runs {
			if !c.since.After(per.From) || c.since.After(per.To) {
				continue
			}
			if changes++; changes <= maxKeyRateChanges {
				p.Items = append(p.Items, facts.Item{Section: facts.General, Kind: "key_rate", Title: title, Source: src,
					Text:   fmt.Sprintf("С %s ключевая ставка — %s годовых.", day(c.since), rate(c)),
					Fields: []facts.Field{{Name: "Ставка", Value: rate(c)}, {Name: "Действует с", Value: day(c.since)}}})
			}
		}
		if changes == 0 {
			p.Limitations = append(p.Limitations, fmt.Sprintf("За %s – %s ставка не менялась.", day(per.From), day(per.To)))
		}
		p.Total = 1 + changes
	}
	p.Found = true
	return p, nil
}

func minTime(x, y time.Time) time.Time {
	if y.Before(x) {
		return y
	}
	return x
}

// cbrNewsFacts is the Bank of Russia's news over a period, newest first, each with its page.
func (a *Agent) cbrNewsFacts(ctx context.Context, from, to time.Time) (facts.Payload, error) {
	if to.Before(from) {
		return facts.Payload{}, badToolArgs("fetch_cbr_data: from %s is after to %s", day(from), day(to))
	}
	n, err := a.cbr.News(ctx, from, to)
	if err != nil {
		return facts.Payload{}, cbrErr("cbr news", err)
	}
	if len(n.Items) == 0 {
		return facts.Payload{}, nil
	}
	p := facts.Payload{Coverage: 1, Total: len(n.Items)}
	if n.Stale {
		p.Limitations = append(p.Limitations, staleLimitation(n.Meta))
	}
	for i, item := range n.Items {
		if i == maxNewsItems {
			break
		}
		src := p.AddSource(facts.Source{Title: sourceTitle(item.Title, item.URL), URL: item.URL})
		p.Items = append(p.Items, facts.Item{Section: facts.General, Kind: "news", Title: item.Title, Source: src,
			Text: fmt.Sprintf("%s — %s", day(item.Date), item.Title), Fields: []facts.Field{{Name: "Дата", Value: day(item.Date)}}})
	}
	p.Found = true
	return p, nil
}

// ---- finance news on the web ----

// financeNews searches the web for finance news as news does.
func (a *Agent) financeNews(ctx context.Context, req Request, question string, args plan.FetchFinanceNewsArgs) (facts.Payload, error) {
	query := newsQuery(args.Query)
	if query == "" {
		query = strings.TrimSpace(args.Query)
	}
	if query == "" {
		return facts.Payload{}, badToolArgs("fetch_finance_news: empty query")
	}
	limit := args.MaxResults
	if limit <= 0 || limit > 10 {
		limit = maxNewsItems
	}
	q := tavily.Query{Text: query, Topic: "news", MaxResults: limit, TimeRange: "week", UserID: req.UserID}
	if per, ok, err := ru.ParsePeriod(question, a.now()); err == nil && ok && !per.Single() {
		q.TimeRange, q.StartDate, q.EndDate = "", per.From.Format(time.DateOnly), per.To.Format(time.DateOnly)
	}
	res, err := a.search.Search(ctx, q)
	if err != nil {
		if ctx.Err() != nil {
			return facts.Payload{}, ctx.Err()
		}
		return facts.Payload{}, sourceFailed("news search", err)
	}
	p := facts.Payload{Coverage: 1}
	for i, r := range res.Results {
		if i == limit {
			break
		}
		it := facts.Item{Section: facts.External, Kind: "news", Title: r.Title, Text: snippet(r.Content, newsSnippetRunes),
			Source: p.AddSource(facts.Source{Title: sourceTitle(r.Title, r.URL), URL: r.URL})}
		if d := publishedDay(r.PublishedDate); d != "" {
			it.Fields = []facts.Field{{Name: "Дата", Value: d}}
		}
		p.Items = append(p.Items, it)
	}
	if len(p.Items) == 0 {
		return facts.Payload{}, nil
	}
	p.Found = true
	return p, nil
}

// ---- 1C ----

// ledgerLimited is the error of an address_query the lane answered with LIMITED_WITH_REASON
// for anything but an empty match: a required filter is missing, an anchor is unknown or
// ambiguous, the recipe cannot serve the question, or 1C failed. Error is the lane's Russian
// message (with the candidates, when it offers a choice), which says precisely what to add or
// why; errors.As gives the caller the whole result, and a failure of 1C also matches
// ErrUnavailable. An empty match is not an error: it is a fact («никто нам не должен»).
type ledgerLimited struct{ res address.Result }

func (e *ledgerLimited) Error() string {
	msg := strings.TrimSpace(e.res.Message)
	if len(e.res.Candidates) == 0 {
		return msg
	}
	labels := make([]string, 0, len(e.res.Candidates))
	for _, c := range e.res.Candidates {
		labels = append(labels, candidateLabel(c))
	}
	if !strings.HasSuffix(msg, ":") { // «Выберите нужного:» already introduces them
		msg += " Варианты:"
	}
	return msg + " " + strings.Join(labels, "; ") + "."
}

func (e *ledgerLimited) Is(target error) bool {
	return target == ErrUnavailable && e.res.LimitedReason == address.ReasonExecutionError
}

// addressQuery runs one whitelisted 1C recipe with the plan's filters, as the ledger commands
// do, and returns the rows, their total and the scope of the figures.
func (a *Agent) addressQuery(ctx context.Context, req Request, question string, args plan.AddressQueryArgs) (facts.Payload, error) {
	if !a.opts.LedgerAccess(req.UserID, req.ChatID) {
		return facts.Payload{}, errLedgerDenied
	}
	if args.Recipe == "" {
		return facts.Payload{}, badToolArgs("address_query: no recipe")
	}
	if _, ok := address.RecipeFor(args.Recipe); !ok {
		return facts.Payload{}, badToolArgs("address_query: unknown recipe %q", args.Recipe)
	}
	d := address.Decomposition{QuestionMode: address.ModeAddress, ModeConfidence: 1, Intent: args.Recipe, IntentConfidence: 1,
		Filters: args.Filters, FallbackRuleHit: "planner_tool", Reasons: []string{"рецепт и фильтры выбрал планировщик"},
		Sanitized: address.Sanitize(question)}
	d.Missing = address.MissingFilters(d.Intent, d.Filters)
	res := a.lane.Run(ctx, d)
	a.lastLedger.Add(ConversationKey(req), res) // for "Выгрузить в Excel" and the choice buttons, as ledger does
	if ctx.Err() != nil {
		return facts.Payload{}, ctx.Err()
	}
	p := facts.Payload{Coverage: 1}
	src := p.AddSource(facts.Source{Title: res.SourceTitle()}) // the recipe, the organization and the base, as ledgerAnswer cites it
	if res.ResultMode == address.Limited {
		if res.LimitedReason != address.ReasonEmptyMatch {
			return facts.Payload{}, &ledgerLimited{res}
		}
		p.Items = []facts.Item{{Section: facts.General, Kind: "fact", Title: ledgerTitle(res), Text: res.Message, Source: src}}
		p.Limitations = ledgerLimitations(res)
		p.Found = true
		return p, nil
	}
	for _, row := range res.Rows {
		it := ledgerRow(res, row)
		it.Source = src
		p.Items = append(p.Items, it)
	}
	total := ledgerTotal(res)
	total.Source = src
	p.Items = append(p.Items, total)
	// Total counts the rows left out by the limit and the total item itself, so that
	// Count()-len(Items) is exactly the rows not shown («ещё N»).
	p.Total = res.Summary.Rows + 1
	p.Limitations = ledgerLimitations(res)
	if res.Summary.Rows > len(res.Rows) {
		p.Limitations = append(p.Limitations, fmt.Sprintf("Показаны первые %d из %d строк.", len(res.Rows), res.Summary.Rows))
	}
	p.Found = true
	return p, nil
}

// ledgerTitle is what a result is about: the recipe's purpose and the anchor.
func ledgerTitle(res address.Result) string {
	r, _ := address.RecipeFor(res.Intent)
	title := r.Purpose
	switch {
	case res.Contract != "" && (res.Intent == address.IntentOpenItemsByContract || res.Intent == address.IntentDocumentsByContract):
		title += ": " + res.Contract
	case res.Party != "":
		title += ": " + res.Party
	}
	return title
}

// ledgerLimitations state the scope of the figures — date or period, organisation, account —
// then the lane's notes and limitations (defaults applied, truncation).
func ledgerLimitations(res address.Result) []string {
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

// ledgerRow is one row of a result with the fields its recipe outputs, amounts exact.
func ledgerRow(res address.Result, row address.Row) facts.Item {
	it := facts.Item{Section: facts.General, Kind: "ledger_row"}
	add := func(name, value string) {
		if value != "" {
			it.Fields = append(it.Fields, facts.Field{Name: name, Value: value})
		}
	}
	switch res.Intent {
	case address.IntentReceivables, address.IntentPayables:
		it.Title = row.Name
		it.Text = fmt.Sprintf("%s — %s", row.Name, row.Amount)
		add("Контрагент", row.Name)
		add("Сумма", row.Amount.String())
		if row.Count > 0 {
			it.Text += fmt.Sprintf(" (документов: %d)", row.Count)
			add("Документов", strconv.Itoa(row.Count))
		}
	case address.IntentAccountBalance:
		it.Title = strings.TrimSpace("Счёт " + row.Account + " " + row.Name)
		it.Text = fmt.Sprintf("%s: дебет %s, кредит %s, сальдо %s", it.Title, row.Debit, row.Credit, row.Amount)
		add("Счёт", row.Account)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Сальдо", row.Amount.String())
	case address.IntentOpenContracts:
		it.Title = row.Name
		it.Text = fmt.Sprintf("%s — %s: дебет %s, кредит %s, сальдо %s", row.Name, row.Party, row.Debit, row.Credit, row.Amount)
		add("Договор", row.Name)
		add("Контрагент", row.Party)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Сальдо", row.Amount.String())
	case address.IntentOpenItemsByParty, address.IntentOpenItemsByContract, address.IntentDocumentsFormBalance:
		it.Title = ledgerDocument(row)
		it.Text = fmt.Sprintf("%s: дебет %s, кредит %s, остаток %s", it.Title, row.Debit, row.Credit, row.Amount)
		add("Контрагент", row.Party)
		add("Договор", row.Deal)
		add("Дебет", row.Debit.String())
		add("Кредит", row.Credit.String())
		add("Остаток", row.Amount.String())
	default: // documents, bank operations
		it.Title = ledgerDocument(row)
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

// ledgerDocument names a document row: «Реализация товаров и услуг № 15 от 10.01.2026».
func ledgerDocument(row address.Row) string {
	s := address.DocumentTypeName(row.Type)
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

// ledgerTotal is the result's total as the lane's own answer states it: a sum where adding
// the rows means something, counts where it does not (documents mix sales and payments;
// customer and supplier contracts are totalled by side).
func ledgerTotal(res address.Result) facts.Item {
	it := facts.Item{Section: facts.General, Kind: "ledger_total", Title: "Итого"}
	n, sum := res.Summary.Rows, res.Summary.TotalAmount.String()
	all := res.All
	if len(all) == 0 {
		all = res.Rows
	}
	switch res.Intent {
	case address.IntentReceivables:
		parties := ru.Count(n, "контрагент", "контрагента", "контрагентов")
		it.Text = fmt.Sprintf("Итого нам должны: %s — %s.", sum, parties)
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Контрагентов", Value: strconv.Itoa(n)}}
	case address.IntentPayables:
		parties := ru.Count(n, "контрагенту", "контрагентам", "контрагентам")
		it.Text = fmt.Sprintf("Итого мы должны: %s — %s.", sum, parties)
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Контрагентов", Value: strconv.Itoa(n)}}
	case address.IntentOpenItemsByParty, address.IntentOpenItemsByContract:
		it.Text = fmt.Sprintf("Итого открыто: %s по %s.", sum, ru.Count(n, "документу", "документам", "документам"))
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Документов", Value: strconv.Itoa(n)}}
	case address.IntentDocumentsFormBalance:
		it.Text = fmt.Sprintf("Итого остаток: %s — %s.", sum, ru.Count(n, "документ", "документа", "документов"))
		it.Fields = []facts.Field{{Name: "Сумма", Value: sum}, {Name: "Документов", Value: strconv.Itoa(n)}}
	case address.IntentOpenContracts:
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
	case address.IntentAccountBalance:
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
