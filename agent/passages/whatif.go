package passages

// A question that gives figures of its own to compute with («грузчики 2 чел на 2 часа почем»,
// «страхование товара на 8 млн», «а если было бы 5,2 млн») asks what they come to. When no
// computation of this package answers it, quoting the clause as if it were the answer states a
// figure the user did not ask for: the answer says plainly that it did not compute, and shows
// the clause to compute by.

import (
	"regexp"
	"strings"
)

var (
	// ownFigure: a figure with what it counts («2 чел», «на 2 часа», «8 млн», «150 шт», «240 000»
	// with its digit groups, «170 км») — not a date («04.12»), a number of a document («акт
	// 1187», «№ 5»), a clause («п. 4.2») or an ordinal («1-й»).
	ownFigure = regexp.MustCompile(`(?i)(?:^|[\s(])(\d+(?:[ \x{00a0}]\d{3})*(?:,\d+)?)\s*` +
		`(млн|миллион\p{L}*|тыс\p{L}*|т\.\s?р\.?|руб\p{L}*|р\.|₽|шт\p{L}*|чел\p{L}*|человек\p{L}*|час\p{L}*|ч\.|км|кг|тонн\p{L}*|` +
		`дн\p{L}*|день|сут\p{L}*|недел\p{L}*|паллет\p{L}*|палет\p{L}*|короб\p{L}*|коробк\p{L}*|мест\p{L}*|кв\.?\s?м|м2|м²|метр\p{L}*|` +
		`единиц\p{L}*|ед\.|позици\p{L}*|код\p{L}*|лиценз\p{L}*|сотрудник\p{L}*|работник\p{L}*|заказ\p{L}*|рейс\p{L}*|` +
		`машин\p{L}*|фур\p{L}*|контейнер\p{L}*|литр\p{L}*|л\.)(?:[^\p{L}]|$)`)
	// bigFigure: a bare amount («задолжали 240 000», «на 1500000»): digit groups or seven digits and more.
	bigFigure = regexp.MustCompile(`(?:^|[\s(])(\d{1,3}(?:[ \x{00a0}]\d{3})+(?:,\d{1,2})?|\d{7,})(?:[^\d.,]|$)`)
	// asksAmountOf: the question asks what something comes to — an amount, a price, a sum.
	asksAmountOf = regexp.MustCompile(`(?i)(^|[^\p{L}])(сколько|скольк\p{L}*|скока|скоко|почем|почём|во\s+что|во\s+сколько|стоимост\p{L}*|сумм\p{L}*|` +
		`выйдет|выходит|обойд\p{L}*|заплат\p{L}*|заплот\p{L}*|платить|будет|посчита\p{L}*|рассчита\p{L}*|было\s+бы|если\s+бы|` +
		// a fee named beside the sum it is of («вознаграждение при выручке 3 млн», «какая премия»)
		`вознагражден\p{L}*|комиссионн\p{L}*|преми\p{L}*)([^\p{L}]|$)`)
	// docNumberBefore: a number that names a document or a clause («акт 1187», «упд № 1452»).
	docNumberBefore = regexp.MustCompile(`(?i)(№|n|номер|акт\p{L}*|упд|накладн\p{L}*|сч[её]т\p{L}*|фактур\p{L}*|договор\p{L}*|дог\.?|дс|допник\p{L}*|соглашени\p{L}*|п\.|пункт\p{L}*|заявк\p{L}*|спецификаци\p{L}*)\s*$`)
)

// whatIf reports whether question gives figures of its own and asks what they come to.
// WhatIf reports whether question gives figures of its own to compute with and asks an amount
// («продали на 3 100 000, сколько комиссионных»).
func WhatIf(question string) bool { return whatIf(question) }

func whatIf(question string) bool {
	q := strings.ToLower(question)
	if !asksAmountOf.MatchString(q) {
		return false
	}
	for _, re := range []*regexp.Regexp{ownFigure, bigFigure} {
		for _, m := range re.FindAllStringSubmatchIndex(q, -1) {
			if !docNumberBefore.MatchString(q[:m[2]]) {
				return true
			}
		}
	}
	return false
}
