package rates

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/cbr"
	"github.com/finbot/finbot/ru"
)

// formatDecimal writes d the Russian way: a comma before the fraction, no-break spaces between
// thousands, exactly places digits after the comma ("1 234,5000").
func formatDecimal(d decimal.Decimal, places int32) string { return ru.Decimal(d.StringFixed(places)) }

// formatSigned is formatDecimal with an explicit sign: "+0,5600", "−1,2000", "0,0000".
func formatSigned(d decimal.Decimal, places int32) string {
	if d.Round(places).IsPositive() {
		return "+" + formatDecimal(d, places)
	}
	return formatDecimal(d, places)
}

// formatRate prints a rate with 4 decimals, or more for currencies worth under a kopeck's
// hundredth of a rouble per unit (unit rates such as 0,218342).
func formatRate(d decimal.Decimal) string {
	if d.Abs().LessThan(decimal.NewFromInt(1)) {
		return formatDecimal(d, 6)
	}
	return formatDecimal(d, 4)
}

func arrow(d decimal.Decimal) string {
	switch d.Sign() {
	case 1:
		return "▲"
	case -1:
		return "▼"
	default:
		return "="
	}
}

// staleNote says that figures come from the last known value because the source failed now.
func staleNote(m cbr.Meta, source string) string {
	if !m.Stale {
		return ""
	}
	return fmt.Sprintf("\n⚠️ _%s сейчас недоступен: показаны последние полученные данные (получены %s МСК)._",
		source, m.FetchedAt.In(ru.Moscow).Format("02.01.2006 15:04"))
}

// staleLimitation is staleNote's wording without its Markdown.
func staleLimitation(m cbr.Meta) string {
	return strings.Trim(staleNote(m, "Банк России"), "\n _⚠\ufe0f")
}

// sourceDown is the answer when the Bank of Russia failed and nothing is cached.
func sourceDown(what string, err error) string {
	var fault *cbr.FaultError
	if errors.As(err, &fault) && !errors.Is(err, cbr.ErrUnavailable) {
		return fmt.Sprintf("Банк России не принял запрос на %s. Проверьте дату и валюту.", what)
	}
	return fmt.Sprintf("Не удалось получить %s: сервис Банка России сейчас недоступен, а сохранённых данных нет. Попробуйте через несколько минут.", what)
}

// cbrErr is the tool's error for a Bank of Russia failure; a request it refused is no outage.
func cbrErr(what string, err error) error {
	if errors.Is(err, cbr.ErrUnavailable) {
		return skill.Unavailable(what, err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

func callRecord(source, args string, rows int, m cbr.Meta, err error) skill.Call {
	c := skill.Call{Source: source, Args: args, Rows: rows, Result: "ok"}
	switch {
	case err != nil:
		c.Result = "error: " + err.Error()
	case m.Stale:
		c.Result = "stale"
	case rows == 0:
		c.Result = "empty"
	}
	return c
}

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

func sameDay(a, b time.Time) bool {
	a, b = a.In(ru.Moscow), b.In(ru.Moscow)
	return a.Year() == b.Year() && a.YearDay() == b.YearDay()
}
