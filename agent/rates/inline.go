package rates

import (
	"context"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/ru"
)

// Offer is one offer of inline mode ("@finbot usd" in any chat).
type Offer struct {
	ID          string
	Title       string
	Description string
	Text        string // Markdown sent to the chat when the offer is chosen
}

// maxInlineCurrencies bounds the offers for one query.
const maxInlineCurrencies = 6

// Offers are today's rates of the currencies query names, and the key rate when it asks for
// it; the major currencies and the key rate when it names neither. They are best effort: the
// Bank failing leaves them out.
func (s *Skill) Offers(ctx context.Context, query string) []Offer {
	norm := " " + ru.Fold(query) + " "
	wantKey := strings.Contains(norm, "ключев") || strings.Contains(norm, "ставк") || strings.Contains(norm, " кс ")
	found, _ := ru.FindCurrencies(query)
	var codes []string
	for _, c := range found {
		codes = append(codes, c.Code)
	}
	if len(codes) == 0 && !wantKey {
		codes, wantKey = DefaultCurrencies, true
	}
	if len(codes) > maxInlineCurrencies {
		codes = codes[:maxInlineCurrencies]
	}

	var out []Offer
	if wantKey {
		if r, ok := s.keyRateOffer(ctx); ok {
			out = append(out, r)
		}
	}
	if len(codes) == 0 {
		return out
	}
	d, err := s.bank.DailyRates(ctx, s.today())
	if err != nil || len(d.Rates) == 0 {
		return out // nothing to offer is an empty list
	}
	note := ""
	if d.Stale {
		note = " (последние доступные данные)"
	}
	var all []string
	for _, code := range codes {
		r, ok := d.Find(code)
		if !ok {
			continue
		}
		value := formatRate(r.Value) + " ₽"
		if r.Nominal != 1 {
			value += fmt.Sprintf(" за %d", r.Nominal)
		}
		line := fmt.Sprintf("%s — %s: **%s** (курс ЦБ РФ на %s%s)", r.CharCode, md.Escape(ru.LowerFirst(r.Name)), value, day(d.OnDate), note)
		all = append(all, "- "+line)
		out = append(out, Offer{
			ID:          "rate-" + r.CharCode + "-" + d.OnDate.Format("20060102"),
			Title:       fmt.Sprintf("%s: %s", r.CharCode, value),
			Description: fmt.Sprintf("%s, курс ЦБ РФ на %s%s", ru.LowerFirst(r.Name), day(d.OnDate), note),
			Text:        line + "\n\n[Источник: cbr.ru](https://www.cbr.ru/currency_base/daily/)",
		})
	}
	if len(all) > 1 {
		out = append(out, Offer{
			ID:          "rates-" + strings.Join(codes, "-") + "-" + d.OnDate.Format("20060102"),
			Title:       "Все курсы: " + strings.Join(codes, ", "),
			Description: "Курсы ЦБ РФ на " + day(d.OnDate) + note,
			Text:        fmt.Sprintf("**Курсы ЦБ РФ на %s**\n\n%s\n\n[Источник: cbr.ru](https://www.cbr.ru/currency_base/daily/)", day(d.OnDate), strings.Join(all, "\n")),
		})
	}
	return out
}

func (s *Skill) keyRateOffer(ctx context.Context) (Offer, bool) {
	today := s.today()
	kr, err := s.bank.KeyRate(ctx, today.AddDate(0, 0, -keyRateLookback), today)
	if err != nil || len(kr.Points) == 0 {
		return Offer{}, false
	}
	runs := keyRateRuns(kr.Points)
	r := runs[len(runs)-1]
	value := formatDecimal(r.rate, 2) + "%"
	return Offer{
		ID:          "keyrate-" + r.since.Format("20060102") + "-" + r.rate.String(),
		Title:       "Ключевая ставка: " + value,
		Description: "Банк России, действует с " + day(r.since),
		Text:        fmt.Sprintf("Ключевая ставка Банка России: **%s** — действует с %s.\n\n[Источник: cbr.ru](https://www.cbr.ru/hd_base/KeyRate/)", value, day(r.since)),
	}, true
}
