package library

import (
	"regexp"
	"strings"
)

// Party is a side of a document as its preamble or form names it: «ООО «Меридиан
// Недвижимость», ИНН 7716452096, … именуемое в дальнейшем «Арендодатель», в лице генерального
// директора Корнилова Андрея Викторовича»; an act's «Исполнитель: ООО «Сетевые Решения», ИНН …».
type Party struct {
	Role string // «Арендодатель», as the document writes it
	Name string // the short name: «ООО «Меридиан Недвижимость»»
	INN  string
	// By is who signs for it: «генерального директора Корнилова Андрея Викторовича».
	By string
	// Proxy is the power of attorney the signer acts by («доверенности № 27 от 12.01.2026»);
	// "" when the charter (or nothing) is named.
	Proxy string
	// Unit is the index of the unit that names it.
	Unit int
}

var (
	// partyRole: «именуемое в дальнейшем «Арендодатель»»; the form's «Исполнитель:» is fieldLine.
	// «(далее — «Принципал»)» names a side as well, when what it names is a party's role.
	partyRole = regexp.MustCompile(`именуем\p{L}*\s+(?:в\s+дальнейшем\s+)?«([^»]+)»|\(далее\s*[—–-]?\s*«([^»]+)»\)`)
	partyINN  = regexp.MustCompile(`ИНН\s*:?\s*(\d{10}|\d{12})\b`)
	partyBy   = regexp.MustCompile(`^,?\s*в\s+лице\s+([^,]+)`)
	// partyProxy: the signer acts by a power of attorney, not the charter.
	partyProxy = regexp.MustCompile(`^,?\s*действующ\p{L}*\s+на\s+основании\s+(доверенности\s+[^,;]+?)\s*(?:,|;|$)`)
	// partyShort: the short name a preamble gives in parentheses, «(ООО «ТехноЛайн»)».
	partyShort = regexp.MustCompile(`\(((?:ООО|АО|ПАО|НАО|ЗАО|ОАО|ИП|ФГУП|МУП|АНО)\s+«[^»]+»)\)`)
	// partyFull: a legal form spelt out and the name in quotes.
	partyFull = regexp.MustCompile(`(?i)(общество\s+с\s+ограниченной\s+ответственностью|публичное\s+акционерное\s+общество|непубличное\s+акционерное\s+общество|закрытое\s+акционерное\s+общество|открытое\s+акционерное\s+общество|акционерное\s+общество|(?:ООО|АО|ПАО|НАО|ЗАО|ОАО))\s+(«[^»]+»)`)
	// partyPerson: «Индивидуальный предприниматель Иванов Иван Иванович», «гражданин РФ Петров П. П.».
	partyPerson = regexp.MustCompile(`(?i)(индивидуальный\s+предприниматель|ИП|гражданин(?:ка)?(?:\s+РФ)?)\s+(\p{Lu}\p{Ll}+(?:\s+\p{Lu}(?:\p{Ll}+|\.)){1,2}\.?)`)
	// partyField: an act's «Исполнитель: ООО «Сетевые Решения», ИНН 7743815260».
	partyField = regexp.MustCompile(`^(\p{Lu}\p{Ll}+):\s+(.+)$`)
)

var legalShort = map[string]string{
	"общество с ограниченной ответственностью": "ООО", "публичное акционерное общество": "ПАО",
	"непубличное акционерное общество": "АО", "закрытое акционерное общество": "ЗАО",
	"открытое акционерное общество": "ОАО", "акционерное общество": "АО",
}

// partyRoles are the roles a form's field may name: «Основание:» or «Период:» name no party.
var partyRoles = regexp.MustCompile(`(?i)^(исполнител|заказчик|подрядчик|поставщик|покупател|продав|арендатор|арендодател|займодав|заёмщик|заемщик|грузоотправител|грузополучател|плательщик|получател|агент|принципал|комиссионер|комитент|лицензиар|лицензиат|работодател|работник|сторона)`)

// Parties are the sides a document names in its preamble or its form's fields, in the order it
// names them; nil for a document that names none (a policy).
func Parties(us []Unit) []Party {
	var out []Party
	for i, u := range us {
		if u.Kind == UnitClause && len(out) > 0 || i > 40 {
			break
		}
		if u.Kind != UnitText {
			continue
		}
		if m := partyField.FindStringSubmatch(u.Text); m != nil && partyRoles.MatchString(m[1]) {
			if name := partyName(m[2]); name != "" {
				p := Party{Role: m[1], Name: name, Unit: i}
				if inn := partyINN.FindStringSubmatch(m[2]); inn != nil {
					p.INN = inn[1]
				}
				out = append(out, p)
			}
			continue
		}
		start := 0
		for _, loc := range partyRole.FindAllStringSubmatchIndex(u.Text, -1) {
			var role string
			if loc[2] >= 0 {
				role = u.Text[loc[2]:loc[3]]
			} else if role = u.Text[loc[4]:loc[5]]; !partyRoles.MatchString(role) {
				continue // «(далее — «Товар»)» defines a term, not a side
			}
			before := u.Text[start:loc[0]]
			start = loc[1]
			if strings.EqualFold(role, "Стороны") || strings.EqualFold(role, "Сторона") {
				continue // «совместно именуемые «Стороны»»
			}
			name := partyName(before)
			if name == "" {
				continue
			}
			p := Party{Role: role, Name: name, Unit: i}
			if inn := partyINN.FindAllStringSubmatch(before, -1); inn != nil {
				p.INN = inn[len(inn)-1][1]
			}
			if by := partyBy.FindStringSubmatch(u.Text[loc[1]:]); by != nil {
				p.By = strings.TrimSpace(by[1])
				// «…, действующего на основании доверенности № 27 от 12.01.2026»: signed by proxy
				if proxy := partyProxy.FindStringSubmatch(u.Text[loc[1]+len(by[0]):]); proxy != nil {
					p.Proxy = strings.TrimSpace(proxy[1])
				}
			}
			out = append(out, p)
		}
	}
	return out
}

// partyName is the short name of the company or person text names last: «ООО «ТехноЛайн»».
func partyName(text string) string {
	if ms := partyShort.FindAllStringSubmatch(text, -1); ms != nil {
		return ms[len(ms)-1][1]
	}
	best, at := "", -1
	if ms := partyFull.FindAllStringSubmatchIndex(text, -1); ms != nil {
		m := ms[len(ms)-1]
		form := strings.Join(strings.Fields(strings.ToLower(text[m[2]:m[3]])), " ")
		if s, ok := legalShort[form]; ok {
			form = s
		} else {
			form = strings.ToUpper(form)
		}
		best, at = form+" "+text[m[4]:m[5]], m[0]
	}
	if ms := partyPerson.FindAllStringSubmatchIndex(text, -1); ms != nil {
		if m := ms[len(ms)-1]; m[0] > at {
			form := strings.ToLower(text[m[2]:m[3]])
			if strings.HasPrefix(form, "индивидуальный") || form == "ип" {
				form = "ИП"
			} else {
				form = ""
			}
			best = strings.TrimSpace(form + " " + text[m[4]:m[5]])
		}
	}
	return best
}
