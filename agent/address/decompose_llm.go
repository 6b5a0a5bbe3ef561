package address

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
	"text/template"
	"time"

	"github.com/finbot/finbot/agent/ru"
	"github.com/finbot/finbot/integrations/llm"
)

// LLM completes chats; *llm.Client satisfies it.
type LLM interface {
	Complete(ctx context.Context, msgs []llm.Message, call llm.Call) (string, error)
}

// ErrLLMDecomposition means the model's decomposition stayed invalid after the repair call.
var ErrLLMDecomposition = errors.New("address: invalid llm decomposition")

// minLLMDecompositionConfidence is the confidence under which the model's answer is refused.
const minLLMDecompositionConfidence = 0.5

// maxLLMQuestionRunes bounds the question shown to the model; maxLLMReplyBytes the reply read.
const (
	maxLLMQuestionRunes = 2000
	maxLLMReplyBytes    = 8 << 10
)

//go:embed decompose_prompt.tmpl
var decomposePromptText string

var decomposePrompt = template.Must(template.New("decompose").Option("missingkey=error").
	Funcs(template.FuncMap{"data": fenceData}).Parse(decomposePromptText))

// fenceData neutralises the delimiters that fence user text, so a message cannot close its
// own fence and pose as instructions.
func fenceData(s string) string {
	return strings.NewReplacer("<<<", "‹‹‹", ">>>", "›››").Replace(s)
}

// decomposePromptData fills decompose_prompt.tmpl.
type decomposePromptData struct {
	Today              string
	Intents            []decomposePromptIntent
	DocumentTypes      string
	Sorts              string
	MinLimit, MaxLimit int
	MaxValueRunes      int
	Question           string
}

type decomposePromptIntent struct {
	Name, Purpose, Required, Optional string
}

// renderDecomposePrompt renders the instructions with the catalogs, today's date and the
// fenced question.
func renderDecomposePrompt(question string, now time.Time) (string, error) {
	quote := func(list []string) string {
		q := make([]string, len(list))
		for i, s := range list {
			q[i] = `"` + s + `"`
		}
		return strings.Join(q, ", ")
	}
	data := decomposePromptData{
		Today:         now.In(ru.Moscow).Format(time.DateOnly),
		DocumentTypes: quote(DocumentTypes),
		Sorts:         quote(Sorts),
		MinLimit:      MinLimit,
		MaxLimit:      MaxLimit,
		MaxValueRunes: maxFilterRunes,
		Question:      clipRunes(question, maxLLMQuestionRunes),
	}
	for _, r := range Catalog {
		data.Intents = append(data.Intents, decomposePromptIntent{Name: string(r.Intent), Purpose: r.Purpose,
			Required: strings.Join(r.Required, ", "), Optional: strings.Join(r.Optional, ", ")})
	}
	var b strings.Builder
	if err := decomposePrompt.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render decompose prompt: %w", err)
	}
	return b.String(), nil
}

// DecomposeLLM asks the model for a strict-JSON pre-decomposition that may only name catalog
// intents and filter keys; validates it; on invalid output makes ONE repair call showing the
// model its errors; returns an error if still invalid (the caller then uses Decompose).
// The result has LLMAttempted/LLMApplied/LLMReason set. Dates the model returns must be
// YYYY-MM-DD and valid; anchors are kept as raw text (the resolver handles them).
//
// The deterministic guards run first: a write request or an injection attempt is decided by
// [Decompose] without calling the model (LLMAttempted false, nil error), so such text never
// reaches it. On failure the returned Decomposition carries only Sanitized and the LLM fields,
// for the caller's debug payload; the error wraps [ErrLLMDecomposition] for invalid output or
// the client's error.
func DecomposeLLM(ctx context.Context, m LLM, text string, now time.Time) (Decomposition, error) {
	rules := Decompose(text, now)
	failed := Decomposition{Sanitized: rules.Sanitized, Missing: []string{}, LLMAttempted: true}
	switch {
	case rules.FallbackRuleHit == RuleWriteIntent || rules.FallbackRuleHit == RuleInjection:
		rules.LLMReason = "модель не вызывалась: сработало правило " + rules.FallbackRuleHit
		return rules, nil
	case m == nil:
		failed.LLMAttempted = false
		failed.LLMReason = "модель не подключена"
		return failed, errors.New("address: no llm")
	case rules.Sanitized == "":
		failed.LLMAttempted = false
		failed.LLMReason = "пустое сообщение"
		return failed, errors.New("address: empty question")
	}

	prompt, err := renderDecomposePrompt(rules.Sanitized, now)
	if err != nil {
		failed.LLMAttempted = false
		failed.LLMReason = err.Error()
		return failed, err
	}
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	call := llm.Call{JSON: true, MaxTokens: 500}
	var problems []string
	for attempt := range 2 {
		if attempt == 1 {
			msgs = append(msgs, llm.Message{Role: "user", Content: repairRequest(problems)})
		}
		out, err := m.Complete(ctx, msgs, call)
		if err != nil {
			failed.LLMReason = "модель не ответила: " + err.Error()
			return failed, fmt.Errorf("address: decompose with llm: %w", err)
		}
		d, probs := parseLLMDecomposition(out)
		if len(probs) == 0 {
			d.Sanitized = rules.Sanitized
			d.Missing = MissingFilters(d.Intent, d.Filters)
			compound := rules.QueryShape == "compound"
			if d.QuestionMode == ModeAddress {
				d.QueryShape, d.QueryShapeConfidence = questionShape(d.Intent, foldForRules(rules.Sanitized), compound)
			}
			d.LLMAttempted, d.LLMApplied = true, true
			d.LLMReason = "разбор модели прошёл проверку"
			if attempt == 1 {
				d.LLMReason = "разбор модели прошёл проверку после исправления: " + strings.Join(problems, "; ")
			}
			d.Reasons = []string{"вопрос разобран моделью"}
			return d, nil
		}
		problems = probs
		msgs = append(msgs, llm.Message{Role: "assistant", Content: clipRunes(out, maxLLMQuestionRunes)})
	}
	failed.LLMReason = "разбор модели не прошёл проверку: " + strings.Join(problems, "; ")
	return failed, fmt.Errorf("%w: %s", ErrLLMDecomposition, strings.Join(problems, "; "))
}

// repairRequest shows the model what was wrong with its answer.
func repairRequest(problems []string) string {
	var b strings.Builder
	b.WriteString("Твой ответ не прошёл проверку:\n")
	for _, p := range problems {
		b.WriteString("- " + p + "\n")
	}
	b.WriteString(`Исправь ошибки и верни ОДИН JSON-объект ровно с полями "question_mode", "address_intent", "extracted_filters", "confidence". ` +
		"Используй только значения и ключи из списков выше; если значение неизвестно, не указывай ключ.")
	return b.String()
}

// llmDecomposition is the JSON the prompt asks for.
type llmDecomposition struct {
	QuestionMode     string                     `json:"question_mode"`
	AddressIntent    string                     `json:"address_intent"`
	ExtractedFilters map[string]json.RawMessage `json:"extracted_filters"`
	Confidence       *float64                   `json:"confidence"`
}

var (
	isoDateRe      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	accountTokenRe = regexp.MustCompile(`^\d{2}(\.\d{2})?$`)
)

// parseLLMDecomposition decodes and validates the model's reply. It returns every problem
// found, in Russian, so one repair call can fix them all.
func parseLLMDecomposition(out string) (Decomposition, []string) {
	if len(out) > maxLLMReplyBytes {
		return Decomposition{}, []string{fmt.Sprintf("ответ длиннее %d байт", maxLLMReplyBytes)}
	}
	body := out
	if start, end := strings.Index(out, "{"), strings.LastIndex(out, "}"); start >= 0 && end > start {
		body = out[start : end+1] // tolerate a code fence or a sentence around the object
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	var raw llmDecomposition
	if err := dec.Decode(&raw); err != nil {
		return Decomposition{}, []string{"ответ не является JSON-объектом нужного вида: " + err.Error()}
	}
	if dec.More() {
		return Decomposition{}, []string{"после JSON-объекта есть лишний текст"}
	}

	var probs []string
	d := Decomposition{QuestionMode: Mode(raw.QuestionMode), Intent: Intent(raw.AddressIntent)}
	if !slices.Contains([]Mode{ModeAddress, ModeDeep, ModeUnsupported}, d.QuestionMode) {
		probs = append(probs, fmt.Sprintf(`question_mode: %q — допустимо "address_query", "deep_analysis" или "unsupported"`, raw.QuestionMode))
	}
	switch {
	case d.Intent == "" && d.QuestionMode != ModeAddress:
		d.Intent = IntentUnknown
	case d.Intent != IntentUnknown && !slices.Contains(Intents(), d.Intent):
		probs = append(probs, fmt.Sprintf("address_intent: %q — такого сценария нет в каталоге", raw.AddressIntent))
	case d.QuestionMode != ModeAddress:
		d.Intent = IntentUnknown // only address questions run a recipe
	}
	switch c := raw.Confidence; {
	case c == nil:
		probs = append(probs, "confidence: нет значения")
	case math.IsNaN(*c) || *c < 0 || *c > 1:
		probs = append(probs, fmt.Sprintf("confidence: %v — нужно число от 0 до 1", *c))
	case *c < minLLMDecompositionConfidence:
		probs = append(probs, fmt.Sprintf("confidence: %.2f — ниже %.1f, разбор ненадёжен", *c, minLLMDecompositionConfidence))
	default:
		d.ModeConfidence, d.IntentConfidence = *c, *c
	}
	f, fprobs := validateLLMFilters(raw.ExtractedFilters)
	d.Filters = f
	probs = append(probs, fprobs...)
	return d, probs
}

// validateLLMFilters checks each filter's key, type and value. Text values are sanitized and
// must be short data: no query text, no instructions.
func validateLLMFilters(in map[string]json.RawMessage) (Filters, []string) {
	var f Filters
	var probs []string
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	bad := func(key, format string, args ...any) {
		probs = append(probs, "extracted_filters."+key+": "+fmt.Sprintf(format, args...))
	}
	for _, key := range keys {
		v := in[key]
		if string(v) == "null" {
			continue
		}
		if key == FilterLimit {
			var n float64
			if err := json.Unmarshal(v, &n); err != nil {
				bad(key, "нужно целое число, получено %s", clipRunes(string(v), 40))
				continue
			}
			if n != math.Trunc(n) || n < MinLimit || n > MaxLimit {
				bad(key, "%v — нужно целое число от %d до %d", n, MinLimit, MaxLimit)
				continue
			}
			f.Limit = int(n)
			continue
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			if slices.Contains(llmFilterKeys, key) {
				bad(key, "нужна строка, получено %s", clipRunes(string(v), 40))
			} else {
				bad(key, "такого фильтра нет в каталоге")
			}
			continue
		}
		s = Sanitize(s)
		if s == "" {
			continue
		}
		switch key {
		case FilterPeriodFrom, FilterPeriodTo, FilterAsOfDate:
			if _, err := time.Parse(time.DateOnly, s); err != nil || !isoDateRe.MatchString(s) {
				bad(key, "%q — нужна существующая дата в формате ГГГГ-ММ-ДД", clipRunes(s, 40))
				continue
			}
			switch key {
			case FilterPeriodFrom:
				f.PeriodFrom = s
			case FilterPeriodTo:
				f.PeriodTo = s
			default:
				f.AsOfDate = s
			}
		case FilterOrganization, FilterCounterparty, FilterContract, FilterDocumentRef:
			switch {
			case len([]rune(s)) > maxFilterRunes:
				bad(key, "значение длиннее %d символов: это должно быть название или номер", maxFilterRunes)
				continue
			case looksLikeQuery(s):
				bad(key, "значение похоже на текст запроса или инструкцию, а должно быть названием или номером")
				continue
			}
			switch key {
			case FilterOrganization:
				f.Organization = s
			case FilterCounterparty:
				f.Counterparty = s
			case FilterContract:
				f.Contract = s
			default:
				f.DocumentRef = s
			}
		case "inn":
			if !ValidINN(s) {
				bad(key, "%q — не ИНН: нужно 10 или 12 цифр с верными контрольными цифрами", clipRunes(s, 40))
				continue
			}
			f.INN = s
		case FilterAccount:
			if !accountTokenRe.MatchString(s) {
				bad(key, "%q — нужен счёт вида 60 или 62.01", clipRunes(s, 40))
				continue
			}
			f.Account = s
		case FilterDocumentType:
			if !slices.Contains(DocumentTypes, s) {
				bad(key, "%q — допустимы только %s", clipRunes(s, 60), strings.Join(DocumentTypes, ", "))
				continue
			}
			f.DocumentType = s
		case FilterStatus:
			if s != "open" && s != "closed" && s != "all" {
				bad(key, `%q — допустимы только "open", "closed", "all"`, clipRunes(s, 40))
				continue
			}
			f.Status = s
		case FilterSort:
			if !slices.Contains(Sorts, s) {
				bad(key, "%q — допустимы только %s", clipRunes(s, 40), strings.Join(Sorts, ", "))
				continue
			}
			f.Sort = s
		default:
			bad(key, "такого фильтра нет в каталоге")
		}
	}
	if f.PeriodFrom != "" && f.PeriodTo != "" && f.PeriodFrom > f.PeriodTo {
		bad("period_from", "начало периода %s позже его конца %s", f.PeriodFrom, f.PeriodTo)
	}
	if f.Counterparty == "" && f.INN != "" {
		f.Counterparty = f.INN
	}
	return f, probs
}

// llmFilterKeys are the keys the model may use: the filter catalog plus inn.
var llmFilterKeys = []string{FilterPeriodFrom, FilterPeriodTo, FilterAsOfDate, FilterOrganization, FilterCounterparty,
	FilterContract, FilterAccount, FilterDocumentType, FilterDocumentRef, FilterStatus, FilterLimit, FilterSort, "inn"}
