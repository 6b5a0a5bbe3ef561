package runner

import (
	"fmt"
	"strings"
	"time"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/recipe"
)

// titles name each recipe's answer; %s is the date or period.
var titles = map[recipe.Name]string{
	recipe.Receivables:          "Кто должен нам на %s",
	recipe.Payables:             "Кому должны мы на %s",
	recipe.AccountBalance:       "Остаток по счёту на %s",
	recipe.OpenItemsByParty:     "Открытые позиции на %s",
	recipe.OpenItemsByContract:  "Открытые позиции по договору на %s",
	recipe.OpenContracts:        "Незакрытые договоры на %s",
	recipe.DocumentsByParty:     "Документы контрагента %s",
	recipe.DocumentsByContract:  "Документы договора %s",
	recipe.BankOpsByParty:       "Банковские операции контрагента %s",
	recipe.DocumentsFormBalance: "Расшифровка остатка до документов на %s",
	recipe.TurnoverSheet:        "Оборотно-сальдовая ведомость %s",
	recipe.AccountCard:          "Карточка счёта %s",
	recipe.ReceivablesAging:     "Дебиторка по срокам долга на %s",
	recipe.PayablesAging:        "Кредиторка по срокам долга на %s",
	recipe.ReconciliationAct:    "Акт сверки %s",
	recipe.CounterpartyCard:     "Карточка контрагента на %s",
	recipe.OffsetCandidates:     "Встречные долги на %s",
	recipe.StockBalance:         "Остатки товаров и материалов на %s",
}

// documentTypeNames are the Russian names of the whitelisted document types.
var documentTypeNames = map[string]string{
	"ПоступлениеНаРасчетныйСчет": "Поступление на расчётный счёт",
	"СписаниеСРасчетногоСчета":   "Списание с расчётного счёта",
	"РеализацияТоваровУслуг":     "Реализация товаров и услуг",
	"ПоступлениеТоваровУслуг":    "Поступление товаров и услуг",
	"АктСверкиВзаиморасчетов":    "Акт сверки взаиморасчётов",
	"ВводНачальныхОстатков":      "Ввод остатков",
	"ПриходныйКассовыйОрдер":     "Приходный кассовый ордер",
	"РасходныйКассовыйОрдер":     "Расходный кассовый ордер",
	"ВозвратТоваровОтПокупателя": "Возврат товаров от покупателя",
	"ВозвратТоваровПоставщику":   "Возврат товаров поставщику",
	"КорректировкаРеализации":    "Корректировка реализации",
	"КорректировкаПоступления":   "Корректировка поступления",
	"КорректировкаДолга":         "Корректировка долга",
	"СчетФактураВыданный":        "Счёт-фактура выданный",
	"СчетФактураПолученный":      "Счёт-фактура полученный",
}

// Markdown renders the result deterministically in Russian. Every figure comes from the rows;
// nothing is phrased by a model.
func (r Result) Markdown() string { return r.markdown("") }

// MarkdownCited is Markdown with a footnote mark («[1]», pointing at SourceTitle) after the
// line the figures are read from: the total when the recipe has one, else the title; for an
// empty match, its message. A LIMITED result that is no answer carries no mark.
func (r Result) MarkdownCited(mark string) string { return r.markdown(mark) }

// SourceTitle names where the figures come from, for the answer's footnote: the recipe, the
// organization and the base — «1С: Кто должен нам, ООО «Северный ветер», демо-база (встроенная)».
func (r Result) SourceTitle() string {
	parts := []string{"1С: " + r.RecipeName()}
	if r.Organization != "" {
		parts = append(parts, r.Organization)
	}
	if base := baseName(r.Source); base != "" {
		parts = append(parts, base)
	}
	return strings.Join(parts, ", ")
}

// RecipeName is the recipe's name as the answer's title says it, without the date: «Кто должен
// нам», «Остаток по счёту», «Документы контрагента».
func (r Result) RecipeName() string {
	t, ok := titles[r.Intent]
	if !ok {
		if rec, found := recipe.For(r.Intent); found {
			return rec.Purpose
		}
		return string(r.Intent)
	}
	return strings.TrimSuffix(strings.TrimSuffix(t, " %s"), " на")
}

// baseName is the 1C base without the «1С» the footnote already says: «демо-база
// (встроенная)», «MCP toolkit, канал main».
func baseName(source string) string {
	s := strings.TrimSpace(strings.Join(strings.Fields(strings.NewReplacer(" 1С", "", "1С ", "").Replace(source)), " "))
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") && strings.Count(s, "(") == 1 {
		s = s[1 : len(s)-1]
	}
	return s
}

func (r Result) markdown(mark string) string {
	if r.Report != nil && r.ResultMode != Limited {
		return r.reportMarkdown(mark) // report_compose.go
	}
	if r.Aging != nil && r.ResultMode != Limited {
		return r.agingMarkdown(mark) // aging_compose.go
	}
	if r.Act != nil && r.ResultMode != Limited {
		return r.actMarkdown(mark) // act_compose.go
	}
	if r.PartyCard != nil && r.ResultMode != Limited {
		text, _ := r.cardText(mark != "") // party_card_compose.go
		return text
	}
	if r.Offsets != nil && r.ResultMode != Limited {
		return r.offsetsMarkdown(mark) // offsets_compose.go
	}
	if r.isStock() {
		return r.stockMarkdown(mark) // stock_compose.go
	}
	cite := func(line string) string {
		if mark == "" {
			return line
		}
		return line + " " + mark
	}
	var b strings.Builder
	if r.ResultMode == Limited {
		msg := md.Escape(r.Message) // it quotes names as the user wrote them
		if r.LimitedReason == ReasonEmptyMatch && r.Source != "" {
			msg = cite(msg)
		}
		b.WriteString(msg)
		for i, c := range r.Candidates {
			if i == 8 {
				break
			}
			fmt.Fprintf(&b, "\n- %s", md.Escape(candidateLabel(c)))
		}
		if r.Source != "" && r.LimitedReason == ReasonEmptyMatch {
			fmt.Fprintf(&b, "\n\n_%s_", md.Escape(r.scopeLine()))
		}
		return b.String()
	}
	if s, ok := r.answerFirst(mark); ok {
		return s
	}
	// Every recipe has its shape (shape.go); a result of none is said by its title and scope.
	fmt.Fprintf(&b, "%s\n_%s_", cite("**"+md.Escape(r.title())+"**"), md.Escape(r.scopeLine()))
	return b.String()
}

func candidateLabel(e recipe.Entity) string {
	switch {
	case e.Number != "" && e.Date != "":
		return fmt.Sprintf("%s (№ %s от %s)", e.Name, e.Number, shortDate(e.Date))
	case e.Number != "":
		return fmt.Sprintf("%s (№ %s)", e.Name, e.Number)
	case e.INN != "":
		return fmt.Sprintf("%s, ИНН %s", e.Name, e.INN)
	default:
		return e.Name
	}
}

// documentKindTitles name a documents answer of one kind («Поступления товаров и услуг …»), and
// documentKindNone its empty answer («Поступлений товаров и услуг … не найдено»): an answer
// about one kind must not read as one about all.
var (
	documentKindTitles = map[string]string{
		"РеализацияТоваровУслуг":  "Реализации товаров и услуг",
		"ПоступлениеТоваровУслуг": "Поступления товаров и услуг",
		"АктСверкиВзаиморасчетов": "Акты сверки",
	}
	documentKindNone = map[string]string{
		"РеализацияТоваровУслуг":  "Реализаций товаров и услуг",
		"ПоступлениеТоваровУслуг": "Поступлений товаров и услуг",
		"АктСверкиВзаиморасчетов": "Актов сверки",
	}
)

func (r Result) title() string {
	t := titles[r.Intent]
	if k, ok := documentKindTitles[r.Filters.DocumentType]; ok && (r.Intent == recipe.DocumentsByParty || r.Intent == recipe.DocumentsByContract) {
		t = strings.Replace(t, "Документы", k, 1)
	}
	when := ""
	switch {
	case !r.AsOf.IsZero():
		when = ruDay(r.AsOf)
	case !r.From.IsZero() && !r.To.IsZero():
		when = fmt.Sprintf("за %s – %s", ruDay(r.From), ruDay(r.To))
	default:
		when = "за всё время"
	}
	title := fmt.Sprintf(t, when)
	switch {
	case r.Contract != "" && (r.Intent == recipe.OpenItemsByContract || r.Intent == recipe.DocumentsByContract):
		title += ": " + r.contractLabel()
	case r.Party != "":
		title += ": " + r.Party
	}
	return title
}

// divisionsNote says which обособленные подразделения the figures include, "" for none.
func (r Result) divisionsNote() string {
	if len(r.Divisions) == 0 {
		return ""
	}
	return "включая обособленные подразделения: " + strings.Join(r.Divisions, ", ")
}

// scopeLine states organization, account and source, so no figure is read out of context.
func (r Result) scopeLine() string {
	parts := []string{"Организация: " + r.Organization}
	if r.OrgDefaulted {
		parts[0] += " (основная; другую можно указать в вопросе)"
	}
	if d := r.divisionsNote(); d != "" {
		parts[0] += ", " + d
	}
	if r.BankAccount != "" {
		parts = append(parts, "р/с "+r.BankAccount)
	}
	if r.Account != "" {
		parts = append(parts, "счёт "+r.Account)
	}
	parts = append(parts, "источник: "+r.Source)
	return strings.Join(parts, "; ") + "."
}

// emptyMessage is the LIMITED answer when nothing matched. It names the counterparty or the
// contract asked about, so that «нет» is visibly about the right company.
func emptyMessage(r *Result, rec recipe.Spec, a anchors) string {
	when := ruDay(r.AsOf)
	of := ""
	switch {
	case a.contract.Ref != "":
		of = " по договору " + a.contract.Name
	case a.party.Ref != "":
		of = " по " + a.party.Name
	}
	switch rec.Name {
	case recipe.Receivables:
		return fmt.Sprintf("На %s по счёту %s никто нам не должен.", when, r.Account)
	case recipe.Payables:
		return fmt.Sprintf("На %s по счёту %s мы никому не должны.", when, r.Account)
	case recipe.AccountBalance:
		return fmt.Sprintf("На %s по счёту %s нет остатка.", when, r.Account)
	case recipe.OpenItemsByParty, recipe.OpenItemsByContract:
		return fmt.Sprintf("На %s открытых позиций%s нет: в этой организации расчёты закрыты или их не было.", when, of)
	case recipe.OpenContracts:
		return fmt.Sprintf("На %s незакрытых договоров нет.", when)
	case recipe.DocumentsFormBalance:
		return fmt.Sprintf("На %s остаток по счёту %s не формируют никакие документы.", when, r.Account)
	case recipe.BankOpsByParty:
		// «сколько заплатили альфа поставке в марте»: no payment either way, not «no documents»
		what := "Банковских операций"
		switch r.Flow {
		case "out":
			what = "Платежей"
		case "in":
			what = "Поступлений"
		}
		return what + of + " " + periodPhrase(r.Filters) + " в 1С нет: проведённых операций не найдено."
	default:
		what := "Документов"
		if k, ok := documentKindNone[r.Filters.DocumentType]; ok {
			what = k
		}
		return what + of + " " + periodPhrase(r.Filters) + " не найдено."
	}
}

// periodPhrase names the period of a documents query, as the reply must: «за 01.03.2026 –
// 31.03.2026», «с 01.03.2026», «по 31.03.2026»; «за всё время», when none was given.
func periodPhrase(f recipe.Filters) string {
	day := func(s string) string {
		t, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return s
		}
		return t.Format("02.01.2006")
	}
	switch {
	case f.PeriodFrom != "" && f.PeriodTo != "" && f.PeriodFrom == f.PeriodTo:
		return "за " + day(f.PeriodFrom)
	case f.PeriodFrom != "" && f.PeriodTo != "":
		return "за " + day(f.PeriodFrom) + " – " + day(f.PeriodTo)
	case f.PeriodFrom != "":
		return "с " + day(f.PeriodFrom)
	case f.PeriodTo != "":
		return "по " + day(f.PeriodTo)
	}
	return "за всё время"
}

// DocumentTypeName is the Russian name of a whitelisted document type («Реализация товаров и
// услуг»), or t itself when it is none of them.
func DocumentTypeName(t string) string {
	return orDefault(documentTypeNames[t], t)
}

func typeName(t string) string {
	if n, ok := documentTypeNames[t]; ok {
		return n
	}
	return md.Escape(t)
}

func shortDate(d string) string {
	t, err := time.Parse(time.DateOnly, d)
	if err != nil {
		return d
	}
	return ruDay(t)
}
