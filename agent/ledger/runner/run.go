package runner

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/ru"
)

// Result is one answer of the lane: the unified result schema plus what the renderer and the front
// end need.
type Result struct {
	QuestionMode Mode           `json:"question_mode"`
	Intent       recipe.Name    `json:"intent"`
	RecipeID     string         `json:"recipe_id"`
	Filters      recipe.Filters `json:"filters"`
	ResultMode   string         `json:"result_mode"`
	Summary      Summary        `json:"summary"`
	Rows         []Row          `json:"rows"`
	Limitations  []string       `json:"limitations"`

	// LimitedReason is the taxonomy code when ResultMode is LIMITED_WITH_REASON; Message says it in Russian.
	LimitedReason string `json:"limited_reason,omitempty"`
	Message       string `json:"message,omitempty"`
	// Turnover is the side of the sheet's turnover the question asked (Decomposition.Turnover).
	Turnover string `json:"turnover,omitempty"`
	// Last is the latest bank operation asked (Decomposition.Last).
	Last string `json:"last,omitempty"`
	// Flow is the direction of money asked (Decomposition.Flow).
	Flow string `json:"flow,omitempty"`
	// Corr is the corresponding account the card's turnover was asked of (Decomposition.Corr).
	Corr string `json:"corr,omitempty"`
	// AtLeast is the smallest debt the question asked for (Decomposition.AtLeast); Everyone is
	// the whole list's count and total then.
	AtLeast onec.Kopecks `json:"at_least,omitempty"`
	// OverdueDays is the days overdue the aging was asked past (Decomposition.OverdueDays).
	OverdueDays int      `json:"overdue_days,omitempty"`
	Everyone    *Summary `json:"everyone,omitempty"`
	// Notes are said before the figures (defaults applied, clamping).
	Notes []string `json:"notes,omitempty"`
	// Scope of the figures.
	Organization string `json:"organization,omitempty"`
	OrgDefaulted bool   `json:"organization_defaulted,omitempty"`
	// Divisions are the обособленные подразделения the figures include: the organization's own
	// when it is their head (every template covers them, as BP's reports «с обособленными
	// подразделениями»); none for a division asked by itself.
	Divisions []string  `json:"divisions,omitempty"`
	AsOf      time.Time `json:"-"`
	From, To  time.Time `json:"-"`
	Account   string    `json:"account,omitempty"`
	Party     string    `json:"counterparty,omitempty"`
	Contract  string    `json:"contract,omitempty"`
	// ContractParty is the counterparty the contract is with, ContractNumber and ContractDate
	// (YYYY-MM-DD) its details from the catalog: a question by contract number is answered
	// naming the company.
	ContractParty  string `json:"contract_counterparty,omitempty"`
	ContractNumber string `json:"-"`
	ContractDate   string `json:"-"`
	BankAccount    string `json:"bank_account,omitempty"` // its number, and its bank when 1C names one
	Source         string `json:"source"`
	// OrgRef is the reference of the organization of the figures when the catalog holds it, for
	// drilldown data (never its position in the catalog, which a new organization shifts).
	OrgRef string `json:"-"`
	// Candidates are the choices when an anchor is ambiguous.
	AnchorType string          `json:"-"`
	Candidates []recipe.Entity `json:"-"`
	Debug      Debug           `json:"-"`
	// All holds every matched row (Rows is cut to the limit), for the Excel export.
	All []Row `json:"-"`
	// Report is the turnover sheet's total or the account card's balances (report.go).
	Report *Report `json:"report,omitempty"`
	// Aging is the aging's intervals and totals (aging.go).
	Aging *Aging `json:"aging,omitempty"`
	// Act is the act of reconciliation (act.go): both sides, the balances and every line.
	Act *reconcile.Act `json:"act,omitempty"`
	// PartyCard is a counterparty card's parts (party_card.go); its Rows are the settlement lines.
	PartyCard *PartyCard `json:"party_card,omitempty"`
	// Offsets are the offset candidates' counterparties and totals (offsets.go); its Rows the pairs.
	Offsets *Offsets `json:"offsets,omitempty"`
	// Stock is the quantity accounts' balance per item (stock.go): the answer of stock_balance,
	// and beside the balance of a quantity account («остаток по 41»).
	Stock *Stock `json:"stock,omitempty"`
}

// Summary is the aggregate of a result.
type Summary struct {
	Rows        int          `json:"rows"`
	TotalAmount onec.Kopecks `json:"total_amount"`
	Currency    string       `json:"currency"`
	// Subtotals split the figures where one total would mean nothing: documents by type (bank
	// operations by direction), open items by settlement account. Over every matched row.
	Subtotals []Subtotal `json:"subtotals,omitempty"`
}

// Row is one output row; which fields are set depends on the recipe's output schema.
type Row struct {
	Ref     string       `json:"ref,omitempty"`
	Name    string       `json:"name,omitempty"`
	Type    string       `json:"document_type,omitempty"`
	Number  string       `json:"number,omitempty"`
	Date    string       `json:"date,omitempty"` // YYYY-MM-DD
	Amount  onec.Kopecks `json:"amount"`
	Debit   onec.Kopecks `json:"debit"`
	Credit  onec.Kopecks `json:"credit"`
	Count   int          `json:"doc_count,omitempty"`
	Posted  *bool        `json:"posted,omitempty"`
	Party   string       `json:"counterparty_name,omitempty"`
	PartyID string       `json:"counterparty_ref,omitempty"`
	Deal    string       `json:"contract_name,omitempty"`
	DealID  string       `json:"contract_ref,omitempty"`
	Hint    string       `json:"bank_account_hint,omitempty"`
	Account string       `json:"account,omitempty"`
	// Debt and Advance split a counterparty's netted balance (Amount) as BP's reports do, per
	// account and contract: what is owed on the contracts in debt, and the advances on the
	// others. Set only where advances offset debt (so Amount = Debt − Advance).
	Debt    onec.Kopecks `json:"bp_debt,omitempty"`
	Advance onec.Kopecks `json:"bp_advance,omitempty"`
	// The reports' columns (report.go): a turnover sheet line, a sub-account's level under its
	// account, and a card posting's corresponding account.
	Sheet *Turnover `json:"turnover_sheet,omitempty"`
	Level int       `json:"level,omitempty"`
	Corr  string    `json:"corr_account,omitempty"`
	// Currencies are the row's balances in foreign currency, where its account keeps currency
	// accounting (60.21, 62.21, 52), one per currency by name (currency.go).
	Currencies []CurrencyAmount `json:"currency_amounts,omitempty"`
	// Ages is an aging row's debt by interval (aging.go).
	Ages *AgingLine `json:"aging,omitempty"`
	// Offset is an offset row's pair of contracts (offsets.go).
	Offset *OffsetPair `json:"offset,omitempty"`
	// Qty is a stock line's quantity in its item's unit (stock.go), or a card posting's on a
	// quantity account (negative when it leaves the account); nil elsewhere and where the
	// account keeps no quantity. Item is the card posting's item of the nomenclature.
	Qty  *Qty   `json:"quantity,omitempty"`
	Item string `json:"item,omitempty"`
}

// limited ends a run with an honest reason.
func (r *Result) limited(reason, message string) Result {
	r.ResultMode, r.LimitedReason, r.Message = Limited, reason, message
	r.Debug.ResponseType = Limited
	r.Debug.LimitedReasonCategory = reason
	if r.Debug.MCPCallStatus == "" {
		r.Debug.MCPCallStatus = StageSkipped
		r.Debug.MCPCallStatusLegacy = StageSkipped
	}
	if r.Debug.RuntimeReadiness == "" {
		r.Debug.RuntimeReadiness = ReadyUnknown
	}
	if r.Rows == nil {
		r.Rows = []Row{}
	}
	if r.Limitations == nil {
		r.Limitations = []string{}
	}
	return *r
}

// Run executes a decomposition: validate filters, resolve anchors, run the recipe's
// whitelisted query, pass the rows through the runtime stages, and compose the result.
func (l *Lane) Run(ctx context.Context, d Decomposition) Result {
	res := Result{QuestionMode: d.QuestionMode, Intent: d.Intent, Filters: d.Filters, Source: l.src.Name(), Turnover: d.Turnover, AtLeast: d.AtLeast, Corr: d.Corr, Last: d.Last, Flow: d.Flow,
		OverdueDays: d.OverdueDays,
		Summary:     Summary{Currency: "RUB"}, Limitations: []string{}}
	dbg := &res.Debug
	confidence := 1.0
	if d.Unsure {
		confidence = 0.5
	}
	*dbg = Debug{
		DetectedMode: d.QuestionMode, DetectedModeConfidence: confidence,
		QueryShape: d.QueryShape, QueryShapeConfidence: confidence,
		DetectedIntent: d.Intent, DetectedIntentConfidence: confidence,
		ExtractedFilters: d.Filters, MissingRequiredFilters: append([]string{}, d.Missing...),
		LLMDecompositionAttempted: d.Planned, LLMDecompositionApplied: d.Planned, FallbackRuleHit: d.FallbackRuleHit,
		SanitizedUserMessage: d.Sanitized, ExecutionLane: string(ModeLedger), Source: l.src.Name(),
		Reasons: append([]string{}, d.Reasons...), Limitations: []string{}, QueriesSent: []string{},
		MaterializationDropReason: DropNone, AccountScopeDropReason: DropNone,
	}
	if d.Planned {
		dbg.LLMDecompositionTraceID, dbg.LLMProviderUsed, dbg.LLMEffectiveMessage = traceID(), "llm", d.Sanitized
		dbg.LLMDecompositionReason = "рецепт и фильтры предложил планировщик"
	}
	dbg.ToolGateDecision, dbg.ToolGateReason = "allow", "whitelisted recipe"

	switch {
	case d.QuestionMode == ModeUnsupported:
		dbg.ToolGateDecision, dbg.ToolGateReason = "deny", d.FallbackRuleHit
		dbg.RuntimeReadiness = ReadyUnknown
		return res.limited(ReasonUnsupported, unsupportedMessage(d))
	case d.QuestionMode == ModeDeep:
		dbg.ToolGateDecision, dbg.ToolGateReason = "deny", "deep_analysis"
		dbg.RuntimeReadiness = ReadyDeepOnly
		return res.limited(ReasonVisibilityGap, "Это аналитический вопрос: фактические запросы к 1С отвечают на него только частично. "+
			"Могу показать исходные цифры — например, кто нам должен или кому должны мы на дату — а выводы лучше сделать по ним.")
	case d.Intent == recipe.Unknown:
		dbg.ToolGateDecision, dbg.ToolGateReason = "deny", "no catalog intent"
		return res.limited(ReasonUnsupported, "Не понял, какие данные 1С нужны. Я умею отвечать: кто нам должен и кому должны мы на дату, "+
			"остаток по счёту, открытые позиции по контрагенту или договору, незакрытые договоры, документы и банковские операции контрагента, расшифровка остатка до документов, "+
			"оборотно-сальдовая ведомость и карточка счёта за период, дебиторка и кредиторка по срокам долга (просрочка), акт сверки с контрагентом, остатки товаров и материалов в количестве.")
	}
	rc, _ := recipe.For(d.Intent)
	res.RecipeID = rc.ID
	dbg.SelectedRecipe = rc.ID
	dbg.AccountScopeMode = rc.Scope
	dbg.RuntimeReadiness = ReadyLive

	f, notes, problem := l.normalizeFilters(rc, d.Filters)
	res.Filters, res.Notes = f, notes
	dbg.ExtractedFilters = f
	if problem != "" {
		return res.limited(ReasonMissingFilters, problem)
	}
	// A settlement account is looked up before anything is asked for: one that none of ours has
	// is said first.
	missing := recipe.MissingFilters(d.Intent, f)
	if len(missing) > 0 && d.BankAccount == "" {
		dbg.MissingRequiredFilters = missing
		return res.limited(ReasonMissingFilters, askFor(rc, missing))
	}

	cats, err := l.catalogsFor(ctx, dbg)
	if err != nil {
		l.opts.Logger.WarnContext(ctx, "1C catalogs", "err", err)
		dbg.MCPCallStatus, dbg.MCPCallStatusLegacy = StageError, StageError
		dbg.MatchFailureStage, dbg.MatchFailureReason = "catalogs", err.Error()
		dbg.RuntimeReadiness = ReadyUnknown
		if errors.Is(err, ErrCatalogTruncated) {
			dbg.RuntimeReadiness = ReadySpecialRecipe
			return res.limited(ReasonVisibilityGap, fmt.Sprintf("Справочники в 1С больше, чем %s за один запрос, поэтому надёжно найти контрагента или договор я не могу. Администратору: нужен поиск по справочнику с отбором.", ru.Count(l.opts.MaxRows, "запись", "записи", "записей")))
		}
		return res.limited(ReasonExecutionError, sourceDown(l.src.Name()))
	}
	if f.Account != "" {
		if !cats.hasAccount(f.Account) {
			return res.limited(ReasonMissingAnchor, missingAccount(f.Account, slices.Collect(maps.Keys(cats.accounts))))
		}
	}
	bound, stop := l.resolveAnchors(&res, cats, rc, f)
	if stop || d.BankAccount != "" && bankAnchor(&res, cats, rc, d.BankAccount, &bound) {
		return res
	}
	if len(missing) > 0 {
		dbg.MissingRequiredFilters = missing
		return res.limited(ReasonMissingFilters, askFor(rc, missing))
	}
	return l.rightsNote(beforeData(l.execute(ctx, &res, cats, rc, f, bound), cats.firstPosting))
}

// FallbackRuleHit values of a decomposition refused as unsupported: a request to change data
// in 1C, and query text or an attempt to override instructions. Run says which it refused.
const (
	RuleWriteIntent = "write_intent"
	RuleInjection   = "query_injection"
)

// unsupportedMessage explains a refusal without echoing what was asked.
func unsupportedMessage(d Decomposition) string {
	switch d.FallbackRuleHit {
	case RuleWriteIntent:
		return "Я только читаю данные 1С: создавать, изменять, проводить или удалять документы я не могу и не буду."
	case RuleInjection:
		return "Я выполняю только заранее утверждённые запросы к 1С и не выполняю присланный текст запросов или инструкций."
	default:
		return "Такой запрос к 1С я не выполняю: он не входит в перечень утверждённых запросов."
	}
}

func sourceDown(source string) string {
	return fmt.Sprintf("Не удалось получить данные: %s сейчас не отвечает. Попробуйте через несколько минут — другой источник я подставлять не буду.", source)
}

// normalizeFilters enforces the filter catalog: limit range, sort and document type
// whitelists, the default as-of date. It returns notes for the answer and, when a filter is
// invalid, a Russian problem.
func (l *Lane) normalizeFilters(r recipe.Spec, f recipe.Filters) (recipe.Filters, []string, string) {
	var notes []string
	if f.Limit == 0 {
		f.Limit = r.DefaultLimit
	}
	if f.Limit < recipe.MinLimit || f.Limit > recipe.MaxLimit {
		clamped := min(max(f.Limit, recipe.MinLimit), recipe.MaxLimit)
		notes = append(notes, fmt.Sprintf("Показываю не больше %d %s: это предел одного ответа.", clamped, ru.Plural(clamped, "строки", "строк", "строк")))
		f.Limit = clamped
	}
	if f.Sort != "" && !slices.Contains(recipe.Sorts, f.Sort) {
		return f, notes, fmt.Sprintf("Сортировка «%s» не поддерживается: по дате, по сумме или по алфавиту.", f.Sort)
	}
	if f.DocumentType != "" && !slices.Contains(recipe.DocumentTypes, f.DocumentType) {
		return f, notes, fmt.Sprintf("Вид документа «%s» не поддерживается.", f.DocumentType)
	}
	if f.Status != "" && f.Status != "open" && f.Status != "closed" && f.Status != "all" {
		f.Status = ""
	}
	if f.Detail != recipe.DetailCounterparty && f.Detail != recipe.DetailContract {
		f.Detail = ""
	}
	needsAsOf := slices.Contains(r.Required, recipe.FilterAsOfDate)
	today := l.today()
	if needsAsOf && f.AsOfDate == "" {
		f.AsOfDate = today.Format(time.DateOnly)
		notes = append(notes, fmt.Sprintf("Дата не указана — показываю на сегодня, %s.", ruDay(today)))
	}
	if d, ok := parseDay(f.AsOfDate); ok && d.After(today) {
		notes = append(notes, fmt.Sprintf("Дата %s ещё не наступила — показываю данные, проведённые на сегодня.", ruDay(d)))
	}
	if r.Name == recipe.BankOpsByParty && (f.PeriodFrom == "") != (f.PeriodTo == "") {
		if f.PeriodTo == "" {
			f.PeriodTo = today.Format(time.DateOnly)
		} else {
			f.PeriodFrom = "2000-01-01"
		}
	}
	return f, notes, ""
}

func (l *Lane) today() time.Time {
	n := l.opts.Now().In(ru.Moscow)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, ru.Moscow)
}

// askFor asks for the missing required filters in Russian.
func askFor(r recipe.Spec, missing []string) string {
	if r.Name == recipe.ReconciliationAct {
		return "С кем сделать акт сверки? Назовите контрагента (название или ИНН) и, если нужно, период и договор — например, «акт сверки с Альфой за 1 квартал»."
	}
	names := map[string]string{
		recipe.FilterCounterparty: "контрагента (название или ИНН)", recipe.FilterContract: "договор (номер, например П-15/2025)",
		recipe.FilterAccount: "счёт (например, 60, 62.01 или 51)", recipe.FilterPeriodFrom: "период (например, «за март» или «с 01.03.2026 по 31.03.2026»)",
		recipe.FilterPeriodTo: "", recipe.FilterAsOfDate: "дату",
	}
	var parts []string
	for _, m := range missing {
		if n := names[m]; n != "" && !slices.Contains(parts, n) {
			parts = append(parts, n)
		}
	}
	return fmt.Sprintf("Чтобы ответить «%s», уточните %s.", strings.ToLower(r.Purpose), strings.Join(parts, " и "))
}

// traceID names one LLM decomposition in logs and the debug payload.
func traceID() string {
	var b [8]byte
	rand.Read(b[:])
	return "dec-" + hex.EncodeToString(b[:])
}

// rightsNote adds RightsNote to a factual answer when the 1C user's rights are restricted: 1C
// hides what the user may not see without a trace, so the figure may be partial.
func (l *Lane) rightsNote(res Result) Result {
	if l.opts.RestrictedRights && (res.ResultMode == FactualList || res.ResultMode == FactualSummary) {
		res.Notes = append(res.Notes, RightsNote)
	}
	return res
}
