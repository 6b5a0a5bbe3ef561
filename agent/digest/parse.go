package digest

import (
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// request is what /subscribe's arguments (or a phrasing of them) ask.
type request struct {
	kind                 Kind // "" when only the zone is set
	hour, minute         int
	timeSet              bool
	weekday              time.Weekday
	weekdaySet, workdays bool
	threshold            int64 // kopecks
	days                 int
	zone                 *time.Location
	zoneName             string
}

// kindWords tell the kinds apart; a message that matches several is asked again, but an
// overdue alert's words («просроченный долг») win over a debtor's.
var kindWords = []struct {
	kind Kind
	re   *regexp.Regexp
}{
	{Morning, regexp.MustCompile(`утр|morning|курс|ежедневн|каждый\s+день`)},
	{Weekly, regexp.MustCompile(`недел|weekly|дебиторк|(^|[^\p{L}])дз([^\p{L}]|$)`)},
	{KeyRate, regexp.MustCompile(`ставк|ключев|keyrate|(^|[^\p{L}])кс([^\p{L}]|$)`)},
	{Debtor, regexp.MustCompile(`должник|долг|должен|должны|задолж|debtor|порог`)},
	{Overdue, regexp.MustCompile(`просроч|overdue`)},
}

var (
	zoneWord      = regexp.MustCompile(`(?:часов\p{L}*\s+)?(?:пояс\p{L}*|зон\p{L}*|timezone|time\s+zone|tz)\s*[:=]?\s*`)
	clockTime     = regexp.MustCompile(`(^|[^\d])(\d{1,2})[:.](\d{2})([^\d]|$)`)
	atHour        = regexp.MustCompile(`(^|[^\p{L}\d])(?:в\s*(\d{1,2})(?:\s*(?:ч\p{L}*))?|(\d{1,2})\s*(?:ч|час\p{L}*|утра|вечера))([^\p{L}\d]|$)`)
	bareHour      = regexp.MustCompile(`(^|\s)(\d{1,2})(\s|$)`)
	workdays      = regexp.MustCompile(`будн|рабоч`)
	allWords      = regexp.MustCompile(`^(все|всё|всех|all|всего)$`)
	number        = regexp.MustCompile(`\d+`)
	morningRhythm = regexp.MustCompile(`утр|ежеднев|кажд`)
	unitOnly      = regexp.MustCompile(`(^|[^\p{L}])(миллиард\p{L}*|миллион\p{L}*|млрд|млн|лям\p{L}*)([^\p{L}]|$)`)
	amount        = regexp.MustCompile(`(\d{1,3}(?:[ \x{00a0}]\d{3})+|\d+)(?:[.,](\d{1,2}))?\s*(млрд|млн|миллион\p{L}*|лям\p{L}*|тыс\p{L}*|тр|т\.р|k|к)?([^\p{L}]|$)`)
)

// weekdayStems name the days: full, in any case, or the usual two letters.
var weekdayStems = []struct {
	stems []string
	day   time.Weekday
}{
	{[]string{"понедельн", "пн"}, time.Monday},
	{[]string{"вторн", "вт"}, time.Tuesday},
	{[]string{"сред", "ср"}, time.Wednesday},
	{[]string{"четверг", "чт"}, time.Thursday},
	{[]string{"пятниц", "пт"}, time.Friday},
	{[]string{"суббот", "сб"}, time.Saturday},
	{[]string{"воскресен", "вс"}, time.Sunday},
}

// fold lower-cases text and spells ё as е.
func fold(text string) string {
	return strings.TrimSpace(strings.ReplaceAll(strings.ToLower(text), "ё", "е"))
}

// words splits folded text into its words.
func words(folded string) []string {
	return strings.FieldsFunc(folded, func(r rune) bool {
		return r == ' ' || r == ',' || r == ';' || r == '\u00a0' || r == '\t' || r == '\n' || r == '«' || r == '»' || r == '"'
	})
}

// kindsOf are the kinds folded text names.
func kindsOf(folded string) []Kind {
	var out []Kind
	for _, k := range kindWords {
		if k.re.MatchString(folded) {
			out = append(out, k.kind)
		}
	}
	if len(out) > 1 && contains(out, Overdue) {
		return []Kind{Overdue}
	}
	if len(out) == 2 && contains(out, Morning) && contains(out, KeyRate) && morningRhythm.MatchString(folded) {
		return []Kind{Morning} // «курсы и ставку каждое утро»: the morning digest has both
	}
	return out
}

func contains(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// The answers to arguments that say something the bot cannot do, or do not say enough.
const (
	notUnderstood = "Не понял, на что подписать. Например: /subscribe утро 9:00, /subscribe неделя пн 10:00, " +
		"/subscribe ставка, /subscribe должник 1000000, /subscribe просрочка 30. Все варианты — /subscribe без слов."
	oneAtATime     = "Подписываю на одно за раз: напишите отдельно, например /subscribe утро 9:00 и /subscribe ставка."
	badTime        = "Время — от 0:00 до 23:59 по часам этого чата, например /subscribe утро 8:30."
	needThreshold  = "Укажите порог долга в рублях, например: /subscribe должник 1000000 (или «1 млн»)."
	badThreshold   = "Порог долга — сумма в рублях больше нуля, например /subscribe должник 1000000 или «2,5 млн»."
	needDays       = "Укажите, сколько дней просрочки, например: /subscribe просрочка 30."
	badDays        = "Дней просрочки — от 1 до 3650, например /subscribe просрочка 30."
	badZone        = "Не знаю такого часового пояса. Укажите город (Екатеринбург, Новосибирск), «МСК+2» или название из базы IANA, например Asia/Yekaterinburg."
	timeNotAnAlert = "Уведомления приходят, когда что-то изменилось (проверяю каждый час с 9:00 до 21:00), время для них не задаётся."
)

// parseSubscribe reads /subscribe's arguments. problem, when not empty, is what the user is told
// instead.
func parseSubscribe(text string) (r request, problem string) {
	t := fold(text)
	if m := zoneWord.FindStringIndex(t); m != nil {
		// «пояс Asia/Yekaterinburg», «часовой пояс Екатеринбург»: the rest is the zone.
		rest := strings.TrimSpace(t[m[1]:])
		loc, name, ok := Zone(rest)
		if !ok {
			return r, badZone
		}
		r.zone, r.zoneName = loc, name
		t = strings.TrimSpace(t[:m[0]])
	} else {
		// A zone named among the words («утро 9:00 екатеринбург», «утро 9:00 Asia/Omsk»).
		for _, w := range words(t) {
			if loc, name, ok := Zone(w); ok && (strings.Contains(w, "/") || !number.MatchString(w) || strings.HasPrefix(w, "мск") || strings.HasPrefix(w, "msk")) {
				r.zone, r.zoneName = loc, name
				t = strings.TrimSpace(strings.Replace(t, w, " ", 1))
				break
			}
		}
	}
	kinds := kindsOf(t)
	switch {
	case len(kinds) == 0 && r.zone != nil && strings.TrimSpace(t) == "":
		return r, ""
	case len(kinds) == 0:
		return r, notUnderstood
	case len(kinds) > 1:
		return r, oneAtATime
	}
	r.kind = kinds[0]
	switch r.kind {
	case Morning, Weekly:
		r.hour, r.minute = 9, 0
		if r.kind == Weekly {
			r.hour, r.weekday = 10, time.Monday
		}
		if m := clockTime.FindStringSubmatch(t); m != nil {
			h, _ := strconv.Atoi(m[2])
			mi, _ := strconv.Atoi(m[3])
			if h > 23 || mi > 59 {
				return r, badTime
			}
			r.hour, r.minute, r.timeSet = h, mi, true
		} else if m := atHour.FindStringSubmatch(t); m != nil {
			h, _ := strconv.Atoi(m[2] + m[3])
			if strings.Contains(m[0], "вечера") && h < 12 {
				h += 12
			}
			if h > 23 {
				return r, badTime
			}
			r.hour, r.timeSet = h, true
		} else if m := bareHour.FindStringSubmatch(t); m != nil {
			h, _ := strconv.Atoi(m[2])
			if h > 23 {
				return r, badTime
			}
			r.hour, r.timeSet = h, true
		}
		for _, w := range words(t) {
			for _, d := range weekdayStems {
				for _, s := range d.stems {
					if w == s || len(s) > 2 && strings.HasPrefix(w, s) {
						r.weekday, r.weekdaySet = d.day, true
					}
				}
			}
		}
		if r.kind == Morning {
			r.workdays = workdays.MatchString(t)
		}
	case KeyRate:
		if clockTime.MatchString(t) {
			return r, timeNotAnAlert
		}
	case Debtor:
		k, found, ok := parseAmount(t)
		switch {
		case !found:
			return r, needThreshold
		case !ok:
			return r, badThreshold
		}
		r.threshold = k
	case Overdue:
		m := number.FindString(t)
		if m == "" {
			return r, needDays
		}
		n, err := strconv.Atoi(m)
		if err != nil || n < 1 || n > 3650 {
			return r, badDays
		}
		r.days = n
	}
	return r, ""
}

// parseAmount reads a sum of roubles: «1000000», «1 000 000», «1,5 млн», «500 тыс», «1 000 000,50».
// found is false when the text holds no number; ok is false for one that is no threshold.
func parseAmount(folded string) (kopecks int64, found, ok bool) {
	m := amount.FindStringSubmatch(folded)
	if m == nil {
		// «больше миллиона»: the unit alone is one of it.
		switch u := unitOnly.FindStringSubmatch(folded); {
		case u == nil:
			return 0, false, false
		case strings.HasPrefix(u[2], "миллиард") || u[2] == "млрд":
			return 1_000_000_000_00, true, true
		default:
			return 1_000_000_00, true, true
		}
	}
	digits := strings.NewReplacer(" ", "", "\u00a0", "").Replace(m[1])
	n, good := new(big.Rat).SetString(digits)
	if !good {
		return 0, true, false
	}
	if m[2] != "" {
		frac, _ := new(big.Rat).SetString("0." + m[2])
		n.Add(n, frac)
	}
	switch unit := m[3]; {
	case unit == "млрд":
		n.Mul(n, big.NewRat(1_000_000_000, 1))
	case strings.HasPrefix(unit, "млн"), strings.HasPrefix(unit, "миллион"), strings.HasPrefix(unit, "лям"):
		n.Mul(n, big.NewRat(1_000_000, 1))
	case unit != "":
		n.Mul(n, big.NewRat(1_000, 1))
	}
	k := new(big.Rat).Mul(n, big.NewRat(100, 1))
	if !k.IsInt() || k.Sign() <= 0 || k.Cmp(big.NewRat(1_000_000_000_000_000, 1)) > 0 {
		return 0, true, false
	}
	return k.Num().Int64(), true, true
}

// parseUnsubscribe reads /unsubscribe's arguments: every subscription («все»), the ids of the
// kinds named (one threshold or number of days when given), or nothing (ask which).
func parseUnsubscribe(text string, have []Subscription) (ids []string, all bool, problem string) {
	t := fold(text)
	if t == "" {
		return nil, false, ""
	}
	if allWords.MatchString(t) {
		return nil, true, ""
	}
	kinds := kindsOf(t)
	if len(kinds) == 0 {
		return nil, false, "Не понял, от чего отписать. Напишите, например, /unsubscribe утро или /unsubscribe все; подписки чата — /subscriptions."
	}
	k := kinds[0]
	var param string
	switch k {
	case Debtor:
		if kop, found, ok := parseAmount(t); found && ok {
			param = IDOf(Subscription{Kind: Debtor, Threshold: kop})
		}
	case Overdue:
		if n := number.FindString(t); n != "" {
			param = string(Overdue) + ":" + n
		}
	}
	for _, s := range have {
		if s.Kind == k && (param == "" || s.ID == param) {
			ids = append(ids, s.ID)
		}
	}
	return ids, false, ""
}
