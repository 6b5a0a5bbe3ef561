package passages

// Figures a clause implies, computed exactly (kopecks) and shown with their computation: the
// amount without VAT of a clause that states an amount «в том числе НДС».

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

var (
	// withoutVAT: the question asks for an amount without VAT.
	withoutVAT = regexp.MustCompile(`(?i)без\s+ндс`)
	// vatIncluded: «185 760,00 (…) рублей …, в том числе НДС 22 % — 33 497,70 рубля»; a dot
	// before a lower-case letter or a comma («руб., в т.ч.») ends no sentence.
	vatIncluded = regexp.MustCompile(`(\d{1,3}(?:[  ]\d{3})*,\d{2})(?:[^.;]|\.\s*[а-яё,]){0,160}?в\s+(?:том\s+числе|т\.\s?ч\.)\s+НДС(?:\s+\d{1,2}(?:,\d+)?\s?%)?\s*[—–-]?\s*(\d{1,3}(?:[  ]\d{3})*,\d{2})`)
)

// netOfVAT is the line (Markdown) that computes the amount without VAT from the first unit of hits that
// states an amount with the VAT it includes, when q asks for one (or continues a question that
// did); "" otherwise.
func netOfVAT(q Question, hits []library.ClauseHit, place func(library.ClauseHit) string) string {
	if !withoutVAT.MatchString(q.Text) {
		return ""
	}
	for _, h := range hits {
		m := vatIncluded.FindStringSubmatch(h.Unit.Text)
		if m == nil {
			continue
		}
		gross, ok1 := kopecks(m[1])
		vat, ok2 := kopecks(m[2])
		if !ok1 || !ok2 || vat > gross {
			continue
		}
		return fmt.Sprintf("Без НДС: %s − %s = **%s** (расчёт по %s)\\.", md.Escape(ru.Money(gross)), md.Escape(ru.Money(vat)),
			md.Escape(ru.Money(gross-vat)), md.Escape(place(h)))
	}
	return ""
}

// kopecks reads «185 760,00» exactly.
func kopecks(s string) (int64, bool) {
	s = strings.NewReplacer(" ", "", "\u00a0", "", ",", "").Replace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}
