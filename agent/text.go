package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/finbot/finbot/agent/ru"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/prompts"
)

// rule is one deterministic routing rule. Rules are tried in order; the first match decides.
type rule struct {
	name     string
	scenario Scenario
	intent   string
	re       *regexp.Regexp
	reason   string
}

// rules route without an LLM. The patterns run on normalised text (lower case, ё→е, single
// spaces), so they are written in that form. Stems rather than words keep them short.
var rules = []rule{
	{"doc_explicit", S1Search, "",
		regexp.MustCompile(` в (моих|моем|моём|загруженн\S*|присланн\S*|этом|этой) (документ|файл|договор|акт|счет|записк)| (в|из) файл(е|а) | по (моим|загруженным) (документ|файл)`),
		"вопрос прямо о загруженных документах"},
	{"kb_definition", S2General, IntentKB,
		regexp.MustCompile(`^ (что так\S*|что значит|что означает|что понимается под|зачем нуж\S*|для чего нуж\S*|в чем разниц\S*|чем отлича\S*|как правильно (оформ|учест|отраз))`),
		"вопрос-определение: термин или правило учёта"},
	{"address_write", Address, "write",
		regexp.MustCompile(`^ (удали|удалить|проведи|провести|перепроведи|отмени|создай|создать|измени|изменить|исправь|запиши|загрузи)\S* |(отмени|отменить) проведени`),
		"просьба изменить данные 1С — только чтение"},
	{"address_receivables", Address, "receivables",
		regexp.MustCompile(`(кто|кто-то|какие).{0,20}(нам|нас) (долж|задолж)|долж\S* нам|нам долж|дебитор|дебиторк|задолженност\S* (покупател|заказчик|клиент)`),
		"вопрос о том, кто должен нам"},
	{"address_payables", Address, "payables",
		regexp.MustCompile(`(кому|перед кем).{0,20}(мы )?долж|мы должн|наш\S* (долг|задолж)|кредитор|кредиторк|задолженност\S* (перед )?поставщик`),
		"вопрос о том, кому должны мы"},
	{"address_open_items", Address, "open_items",
		regexp.MustCompile(`(открыт|незакрыт)\S* (позици|расчет|счет|документ)|неоплаченн|непогашенн`),
		"вопрос об открытых позициях"},
	{"address_balance", Address, "account_balance",
		regexp.MustCompile(`сальдо|остат\S* (по|на) сч|оборот\S* по сч|(по|на) сч\S* \d{2}(\.\d{2})? | сч\.? ?\d{2}(\.\d{2})? | (60|62|76|51|50|41|19|68|69|70|71)(\.\d{2})? сч`),
		"вопрос об остатках по счёту"},
	{"address_open_contracts", Address, "open_contracts",
		regexp.MustCompile(`(незакрыт|открыт)\S* договор`),
		"вопрос о незакрытых договорах"},
	{"address_bank_ops", Address, "documents",
		regexp.MustCompile(`(платеж|платёж|банковск\S* операц|выписк|поступлени\S* на расчетн|списани\S* с расчетн)\S* (по|от|для|с|у) `),
		"вопрос о банковских операциях контрагента"},
	{"address_documents", Address, "documents",
		regexp.MustCompile(`(документ|платеж|поступлени|оплат|реализаци|списани)\S* (по|от|для|с|у) (контрагент|договор|ооо|ао|пао|ип|зао)|документ\S* (по|у|от) \S+ (за|с|на) |взаиморасчет|акт\S* сверк`),
		"вопрос о документах контрагента в 1С"},
	{"doc_search", S1Search, "",
		regexp.MustCompile(` (найди|найти|поищи|отыщи|покажи (файл|документ|договор))|какой (договор|документ|акт)| в (моих |загруженн\S* )?(договор|документ|акт|файл)| мои документ|загруженн| по договор\S* (с|поставк|аренд|подряд|оказани|услуг)`),
		"просьба найти сведения в документах"},
	{"news", S2General, IntentNews,
		regexp.MustCompile(`новост|что нового|что (происходит|слышно) на (рынк|бирж)`),
		"запрос финансовых новостей"},
	{"key_rate", S2General, IntentKeyRate,
		regexp.MustCompile(`ключев\S* ставк|ставк\S* (цб|центробанк|банка россии)`),
		"вопрос о ключевой ставке"},
	{"rates", S2General, IntentRates,
		regexp.MustCompile(`курс|\b(usd|eur|cny|gbp|jpy|chf|byn|kzt|try)\b|доллар|евро |юан|валют|фунт\S* стерлинг`),
		"вопрос о курсе валют"},
	{"smalltalk", S2General, IntentSmallTalk,
		regexp.MustCompile(`^ (привет|здравств|добр\S* (день|утро|вечер)|доброе|hello|hi |хай|спасибо|благодар|пока |до свидания|всего доброго)|кто ты|что ты (умеешь|можешь)|как (у тебя )?дела|ты (бот|кто)|как тебя зовут`),
		"приветствие или разговор о боте"},
	{"kb", S2General, IntentKB,
		regexp.MustCompile(`что так\S*|как (учес|учит|отраз|оформ|рассчит|начисл|списа|принять к)|проводк| ндс |ндфл|налог|страхов\S* взнос|срок\S* (сдачи|уплаты|подачи)|декларац|отчетност|амортизац| пбу | фсбу |нк рф|счет-фактур|счет фактур| упд |первичк|кассов\S* дисциплин|авансов\S* отчет`),
		"вопрос о терминах, учёте или нормативке"},
}

// normalize prepares text for the rules (see ru.Fold).
func normalize(s string) string { return ru.Fold(s) }

// routeByRules is the deterministic router: it always decides, and says which rule did.
func routeByRules(text string) RouteDecision {
	norm := normalize(text)
	padded := " " + norm + " " // lets patterns use spaces as word boundaries (\b is ASCII-only)
	letters := 0
	for _, r := range norm {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			letters++
		}
	}
	if letters < 2 {
		return RouteDecision{Scenario: S5Clarify, Intent: IntentUnknown, Confidence: 1, Source: "rules",
			FallbackRuleHit: "too_short", Reasons: []string{"в сообщении нет вопроса"}}
	}
	for _, r := range rules {
		if r.re.MatchString(padded) {
			return RouteDecision{Scenario: r.scenario, Intent: r.intent, Confidence: 0.7, Source: "rules",
				FallbackRuleHit: r.name, Reasons: []string{r.reason}}
		}
	}
	if words := strings.Count(norm, " ") + 1; words <= 2 {
		return RouteDecision{Scenario: S5Clarify, Intent: IntentUnknown, Confidence: 0.6, Source: "rules",
			FallbackRuleHit: "vague", Reasons: []string{"слишком общий запрос"}}
	}
	return RouteDecision{Scenario: S2General, Intent: IntentKB, Confidence: 0.4, Source: "rules",
		FallbackRuleHit: "default_general", Reasons: []string{"нет признаков документа, курса, новостей или 1С"}}
}

// llmRoute is the JSON the router prompt asks for.
type llmRoute struct {
	Scenario      Scenario `json:"scenario"`
	Intent        string   `json:"intent"`
	Confidence    float64  `json:"confidence"`
	Reasons       []string `json:"reasons"`
	Clarification string   `json:"clarification"`
}

// validIntents lists the intents each scenario may carry; an empty list accepts any intent.
var validIntents = map[Scenario][]string{
	S1Search:  nil,
	S2General: {IntentKB, IntentRates, IntentKeyRate, IntentNews, IntentSmallTalk},
	S5Clarify: nil,
	Address:   {"receivables", "payables", "account_balance", "open_items", "documents", IntentUnknown},
	// S3 and S4 are accepted only with selected documents (then read as S1 and sized by
	// docScenario); without a selection they are invalid.
}

// minLLMConfidence is the confidence under which the rules decide instead of the model.
const minLLMConfidence = 0.5

// routeWithLLM asks the model for a decision and validates it. Any failure is returned so the
// caller can fall back to the rules and say why.
func (a *Agent) routeWithLLM(ctx context.Context, text string, hist []history.Turn, scope docScope) (RouteDecision, error) {
	data := prompts.RouterData{Question: text, History: promptTurns(hist)}
	var titles []string
	for _, m := range scope.selected {
		titles = append(titles, "«"+truncateRunes(m.Title, 80)+"»")
		data.SelectedChars += m.Chars
	}
	data.SelectedDocs = strings.Join(titles, ", ")
	prompt, err := prompts.Router(data)
	if err != nil {
		return RouteDecision{}, err
	}
	out, err := a.llm.Complete(ctx, []llm.Message{{Role: "user", Content: prompt}}, llm.Call{JSON: true, MaxTokens: 300})
	if err != nil {
		return RouteDecision{}, err
	}
	var r llmRoute
	if err := json.Unmarshal([]byte(extractJSON(out)), &r); err != nil {
		return RouteDecision{}, fmt.Errorf("route decision is not JSON: %w", err)
	}
	if (r.Scenario == S3Full || r.Scenario == S4Retrieve) && len(scope.selected) > 0 {
		// Which of the two depends on the size of the selection; docScenario decides.
		r.Scenario, r.Intent = S1Search, ""
	}
	intents, ok := validIntents[r.Scenario]
	if !ok {
		return RouteDecision{}, fmt.Errorf("route decision names unknown scenario %q", r.Scenario)
	}
	if len(intents) > 0 && !contains(intents, r.Intent) {
		return RouteDecision{}, fmt.Errorf("route decision names intent %q outside scenario %s", r.Intent, r.Scenario)
	}
	if r.Confidence < minLLMConfidence || r.Confidence > 1 {
		return RouteDecision{}, fmt.Errorf("route decision confidence %.2f is below %.2f or invalid", r.Confidence, minLLMConfidence)
	}
	if len(r.Reasons) > 3 {
		r.Reasons = r.Reasons[:3]
	}
	return RouteDecision{Scenario: r.Scenario, Intent: r.Intent, Confidence: r.Confidence, Reasons: r.Reasons,
		Source: "llm", Clarification: truncateRunes(strings.TrimSpace(r.Clarification), 300)}, nil
}

// extractJSON tolerates a model that wraps its JSON object in a code fence or prose.
func extractJSON(s string) string {
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return s
	}
	return s[start : end+1]
}

func promptTurns(hist []history.Turn) []prompts.Turn {
	out := make([]prompts.Turn, 0, len(hist))
	for _, t := range hist {
		role := "Пользователь"
		if t.Role == roleAssistant {
			role = "Ассистент"
		}
		out = append(out, prompts.Turn{Role: role, Text: truncateRunes(t.Text, 600)})
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
