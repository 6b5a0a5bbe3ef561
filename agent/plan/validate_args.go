package plan

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/understand"
)

// call checks one tool call (or the fallback): the tool is known and available, and its
// arguments decode into its type and hold valid values.
func (c *checker) call(field string, t Tool, decode func(any) error, p QueryPlan, r Rules) {
	if !slices.Contains(Tools(), t) {
		c.add(field+".tool", "неизвестный инструмент %q; допустимы: %s", clip(string(t)), join(Tools()))
		return
	}
	if msg := unavailable(t, r); msg != "" {
		c.add(field+".tool", "%s", msg)
	}
	args := argsFor(t)
	if err := decode(args); err != nil {
		c.add(field+".args", "аргументы не подходят к %s: %s", t, strings.TrimPrefix(err.Error(), "plan: args: "))
		return
	}
	call, field := field, field+".args"
	switch a := args.(type) {
	case *SearchUserDocumentsArgs:
		c.query(field+".query", a.Query)
		c.topK(field+".top_k", a.TopK)
		if len(a.DocumentIDs) > 0 && !r.HasSelection {
			c.add(field+".document_ids", "document_ids — только для выбранных документов, а выбранных нет; убери поле, чтобы искать во всех")
		}
		c.documentIDs(field+".document_ids", a.DocumentIDs, false)
	case *LoadDocumentsFullArgs:
		c.documentIDs(field+".document_ids", a.DocumentIDs, true)
	case *SearchGeneralKBArgs:
		c.query(field+".query", a.Query)
		c.topK(field+".top_k", a.TopK)
		c.short(field+".topic", a.Topic)
	case *understand.RateArgs:
		c.cbr(field, *a)
	case *FetchFinanceNewsArgs:
		c.query(field+".query", a.Query)
		if a.MaxResults < 0 || a.MaxResults > maxNewsResults {
			c.add(field+".max_results", "%d — нужно от 1 до %d", a.MaxResults, maxNewsResults)
		}
		if a.SearchDepth != "" && a.SearchDepth != "basic" && a.SearchDepth != "advanced" {
			c.add(field+".search_depth", "%q — допустимы только basic и advanced", clip(a.SearchDepth))
		}
	case *understand.LedgerArgs:
		c.addressArgs(call, *a, p)
	case *DiscoveryArgs:
		c.discoveryArgs(call, t, *a, p)
	}
}

// unavailable explains why t cannot run for this user, or returns "".
func unavailable(t Tool, r Rules) string {
	switch {
	case t == ToolSearchUserDocuments && !r.HasDocuments:
		return "у пользователя нет загруженных документов: search_user_documents недоступен"
	case t == ToolLoadDocumentsFull && !r.HasSelection:
		return "у пользователя нет выбранных документов: load_documents_full недоступен"
	case t == ToolFetchFinanceNews && !r.HasLLMNews:
		return "поиск новостей в интернете не подключён: для новостей Банка России используй fetch_cbr_data с mode news"
	case (t == ToolLedgerQuery || t.Discovery()) && !r.HasLedger:
		return "1С не подключена или недоступна этому пользователю: " + string(t) + " недоступен"
	case r.Tools != nil && !t.Discovery() && !slices.Contains(r.Tools, t):
		return string(t) + " в этой установке не подключён"
	}
	return ""
}

func (c *checker) query(field, q string) {
	switch n := utf8.RuneCountInString(strings.TrimSpace(q)); {
	case n == 0:
		c.add(field, "нужен поисковый запрос")
	case n > maxQueryRunes:
		c.add(field, "запрос длиннее %d символов: сократи до сути", maxQueryRunes)
	}
}

func (c *checker) topK(field string, k int) {
	if k < 0 || k > maxTopK {
		c.add(field, "%d — нужно от 1 до %d", k, maxTopK)
	}
}

func (c *checker) short(field, s string) {
	if utf8.RuneCountInString(s) > maxValueRunes {
		c.add(field, "длиннее %d символов", maxValueRunes)
	}
}

func (c *checker) documentIDs(field string, ids []string, required bool) {
	switch {
	case required && len(ids) == 0:
		c.add(field, "нужен хотя бы один документ из выбранных")
	case len(ids) > maxDocumentIDs:
		c.add(field, "не больше %d документов, а указано %d", maxDocumentIDs, len(ids))
	}
	seen := map[string]bool{}
	for i, id := range ids {
		id = strings.TrimSpace(id)
		switch n := utf8.RuneCountInString(id); {
		case n == 0 || n > maxValueRunes:
			c.add(fmt.Sprintf("%s[%d]", field, i), "нужен идентификатор от 1 до %d символов", maxValueRunes)
		case seen[id]:
			c.add(fmt.Sprintf("%s[%d]", field, i), "документ %q указан дважды", clip(id))
		}
		seen[id] = true
	}
}

var (
	isoDateRe  = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	currencyRe = regexp.MustCompile(`^[A-Z]{3}$`)
	accountRe  = regexp.MustCompile(`^\d{2}(\.\d{2})?$`)
)

// date checks an optional "YYYY-MM-DD" date.
func (c *checker) date(field, s string) bool {
	if s == "" {
		return true
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil || !isoDateRe.MatchString(s) {
		c.add(field, "%q — нужна существующая дата в формате ГГГГ-ММ-ДД", clip(s))
		return false
	}
	return true
}

// period checks an optional period; from and to are the field names.
func (c *checker) period(field, from, to, fromVal, toVal string) {
	ok := c.date(field+"."+from, fromVal)
	ok = c.date(field+"."+to, toVal) && ok
	if ok && fromVal != "" && toVal != "" && fromVal > toVal {
		c.add(field+"."+from, "начало периода %s позже его конца %s", fromVal, toVal)
	}
}

func (c *checker) cbr(field string, a understand.RateArgs) {
	c.date(field+".date", a.Date)
	c.period(field, "from", "to", a.From, a.To)
	switch a.Mode {
	case understand.RateCurrency:
		if a.From != "" || a.To != "" {
			c.add(field, "для mode currency укажи date, а для периода — mode dynamic")
		}
	case understand.RateDynamic:
		if a.From == "" || a.To == "" {
			c.add(field, "для mode dynamic нужны from и to")
		}
		if a.Date != "" {
			c.add(field+".date", "для mode dynamic date не указывается: только from и to")
		}
		if len(a.Codes) == 0 {
			c.add(field+".codes", "для mode dynamic нужен код валюты, например USD")
		}
	case understand.RateKeyRate, understand.RateNews:
		if len(a.Codes) > 0 {
			c.add(field+".codes", "коды валют — только для mode currency и dynamic")
		}
		if a.Date != "" && (a.From != "" || a.To != "") {
			c.add(field+".date", "укажи либо date, либо период from–to")
		}
	default:
		c.add(field+".mode", "%q — допустимы: currency, dynamic, key_rate, news", clip(a.Mode))
	}
	seen := map[string]bool{}
	for i, code := range a.Codes {
		switch {
		case !currencyRe.MatchString(code):
			c.add(fmt.Sprintf("%s.codes[%d]", field, i), "%q — нужен код ISO 4217 из трёх заглавных латинских букв: USD, EUR, CNY", clip(code))
		case seen[code]:
			c.add(fmt.Sprintf("%s.codes[%d]", field, i), "%s указан дважды", code)
		}
		seen[code] = true
	}
}

// addressArgs checks ledger_query's arguments; call is the call's field.
func (c *checker) addressArgs(call string, a understand.LedgerArgs, p QueryPlan) {
	if !slices.Contains(p.Kinds, understand.KindLedger) {
		c.add(call+".tool", "ledger_query вызывается только для намерения ledger")
	}
	field := call + ".args"
	switch {
	case a.Recipe == "" && p.Ledger == nil:
		c.add(field+".recipe", "нужен рецепт 1С: в args.recipe или в address.recipe")
	case a.Recipe == "":
		// The plan's address names the recipe; it is checked there.
	case p.Ledger != nil && p.Ledger.Recipe != a.Recipe:
		c.add(field+".recipe", "%q расходится с address.recipe %q", clip(string(a.Recipe)), clip(string(p.Ledger.Recipe)))
	default:
		c.recipe(field+".recipe", a.Recipe)
	}
	if a.Filters != (recipe.Filters{}) {
		c.filters(field+".filters", a.Filters)
	}
}

func (c *checker) recipe(field string, r recipe.Name) {
	if !slices.Contains(recipe.Names(), r) {
		c.add(field, "%q — неизвестный рецепт 1С; допустимы: %s", clip(string(r)), join(recipe.Names()))
	}
}

func (c *checker) filters(field string, f recipe.Filters) {
	c.period(field, recipe.FilterPeriodFrom, recipe.FilterPeriodTo, f.PeriodFrom, f.PeriodTo)
	c.date(field+"."+recipe.FilterAsOfDate, f.AsOfDate)
	c.short(field+"."+recipe.FilterOrganization, f.Organization)
	c.short(field+"."+recipe.FilterCounterparty, f.Counterparty)
	c.short(field+"."+recipe.FilterContract, f.Contract)
	c.short(field+"."+recipe.FilterDocumentRef, f.DocumentRef)
	if f.Account != "" && !accountRe.MatchString(f.Account) {
		c.add(field+"."+recipe.FilterAccount, "%q — нужен счёт вида 60 или 62.01", clip(f.Account))
	}
	if f.DocumentType != "" && !slices.Contains(recipe.DocumentTypes, f.DocumentType) {
		c.add(field+"."+recipe.FilterDocumentType, "%q — допустимы: %s", clip(f.DocumentType), strings.Join(recipe.DocumentTypes, ", "))
	}
	if f.Status != "" && f.Status != "open" && f.Status != "closed" && f.Status != "all" {
		c.add(field+"."+recipe.FilterStatus, "%q — допустимы только open, closed, all", clip(f.Status))
	}
	if f.Detail != "" && f.Detail != recipe.DetailCounterparty && f.Detail != recipe.DetailContract {
		c.add(field+"."+recipe.FilterDetail, "%q — допустимы только %s, %s", clip(f.Detail), recipe.DetailCounterparty, recipe.DetailContract)
	}
	if f.Sort != "" && !slices.Contains(recipe.Sorts, f.Sort) {
		c.add(field+"."+recipe.FilterSort, "%q — допустимы: %s", clip(f.Sort), strings.Join(recipe.Sorts, ", "))
	}
	if f.Limit != 0 && (f.Limit < recipe.MinLimit || f.Limit > recipe.MaxLimit) {
		c.add(field+"."+recipe.FilterLimit, "%d — нужно от %d до %d", f.Limit, recipe.MinLimit, recipe.MaxLimit)
	}
	if f.INN != "" && !recipe.ValidINN(f.INN) {
		c.add(field+".inn", "%q — не ИНН: нужно 10 или 12 цифр с верными контрольными цифрами", clip(f.INN))
	}
}

// discoveryArgs checks a discovery primitive's call; call is the call's field.
func (c *checker) discoveryArgs(call string, t Tool, a DiscoveryArgs, p QueryPlan) {
	field := call + ".args"
	if p.QuestionMode != ModeDeepAnalysis {
		c.add(call+".tool", "%s — примитив discovery: нужен question_mode %q", t, ModeDeepAnalysis)
	}
	switch {
	case p.Discovery == nil:
		c.add(call+".tool", "%s — примитив discovery: сначала нужно предложение discovery", t)
	case !slices.Contains(p.Discovery.ProposedPrimitives, t):
		c.add(call+".tool", "%s нет в discovery.proposed_primitives", t)
	}
	if (t == ToolSearchBusinessEntity || t == ToolResolveEntityReference) && strings.TrimSpace(a.Entity) == "" {
		c.add(field+".entity", "для %s нужен entity", t)
	}
	if t == ToolAggregateByAxis && a.Axis == "" {
		c.add(field+".axis", "для aggregate_by_axis нужна ось: %s", strings.Join(Axes, ", "))
	}
	if a.Axis != "" && !slices.Contains(Axes, a.Axis) {
		c.add(field+".axis", "%q — допустимы: %s", clip(a.Axis), strings.Join(Axes, ", "))
	}
	c.short(field+".entity", a.Entity)
	c.short(field+".document_type", a.DocumentType)
	if a.Account != "" && !accountRe.MatchString(a.Account) {
		c.add(field+".account", "%q — нужен счёт вида 60 или 62.01", clip(a.Account))
	}
	c.period(field, "date_from", "date_to", a.DateFrom, a.DateTo)
	if a.Limit < 0 || a.Limit > maxDiscoveryRow {
		c.add(field+".limit", "%d — нужно от 1 до %d", a.Limit, maxDiscoveryRow)
	}
}
