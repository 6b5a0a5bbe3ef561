package library

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Header is what a document says of itself in its first lines: its title, number and date
// («ДОГОВОР АРЕНДЫ … № А-07/26», «г. Москва «26» января 2026 г.»).
type Header struct {
	Title  string
	Number string    // «А-07/26»; "" when the title has none
	Date   time.Time // zero when the first lines state none
}

var (
	headerNumber = regexp.MustCompile(`№\s*([\p{L}\d](?:[\p{L}\d/\-.]*[\p{L}\d])?)`)
	// otherDocument: a line that names another document («к Договору поставки № 318-П от 24
	// ноября 2025 г.», «по договору аренды … от 26.01.2026»): its date is that document's.
	otherDocument = regexp.MustCompile(`(?i)(^|\s)(к|по|на\s+основании|основание:?|приложение\s+№\s*\d+\s+к)\s+(договор|дополнительн|акт|сч[её]т|приказ|соглашени|положени)`)
	// headerDate: «26» января 2026, 26 января 2026 г., 26.01.2026.
	headerDate = regexp.MustCompile(`(?i)«?(\d{1,2})»?\s+(январ|феврал|март|апрел|ма[яй]|июн|июл|август|сентябр|октябр|ноябр|декабр)\p{L}*\s+(\d{4})|(\d{2})\.(\d{2})\.(\d{4})`)
)

// documentKind is a form's title line: the kind of document and its number.
var documentKind = regexp.MustCompile(`(?i)^(акт|сч[её]т(-фактура|\s+на\s+оплату)?|товарная\s+накладная|накладная|универсальный\s+передаточный\s+документ|упд|платёжное\s+поручение|платежное\s+поручение|доверенность|приказ|спецификация|дополнительное\s+соглашение)\s+№`)

// incomingStamp: a recipient's stamp of an incoming document («Вх. № 412 от 28.10.2026»).
var incomingStamp = regexp.MustCompile(`(?i)(^|[^\p{L}])(вх\.?|входящ\p{L}*)\s*№`)

var monthStems = []string{"январ", "феврал", "март", "апрел", "ма", "июн", "июл", "август", "сентябр", "октябр", "ноябр", "декабр"}

// ReadHeader reads a document's header from its first units: the title is the first section
// heading (or the first line), the number the title's «№ …», the date the first date of the
// title and the lines before the first clause.
func ReadHeader(us []Unit) Header {
	var h Header
	var lines []string
	for i, u := range us {
		if u.Kind == UnitClause || i >= 6 {
			break
		}
		if h.Title == "" {
			h.Title = u.Section
			if h.Title == "" {
				h.Title = u.Text
			}
			lines = append(lines, h.Title)
		}
		lines = append(lines, u.Text)
	}
	for i, u := range us {
		if u.Kind == UnitClause || i >= 12 {
			break // (a form's title may stand under its issuer's requisites and a payment order's sample)
		}
		if u.Kind == UnitText && documentKind.MatchString(u.Text) && u.Text != h.Title {
			h.Title = u.Text // «АКТ № 1187 от 30 ноября 2026 г.» under the issuer's name and address
			lines = append(lines, u.Text)
			break
		}
		if sec := strings.TrimSpace(u.Section); sec != h.Title && documentKind.MatchString(sec) && incomingStamp.MatchString(strings.Join(lines, "\n")) {
			h.Title = sec // «ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 1» under the recipient's stamp of a scan
			break
		}
	}
	if m := headerNumber.FindStringSubmatch(h.Title); m != nil {
		h.Number = m[1]
	}
	for _, l := range lines {
		if otherDocument.MatchString(l) || periodLine.MatchString(l) || incomingStamp.MatchString(l) {
			continue // «Вх. № 412 от 28.10.2026»: the day it came in, not its own
		}
		if d, ok := firstDate(l); ok {
			h.Date = d
			break
		}
	}
	return h
}

// periodLine states the period a document covers («за период: 3 квартал 2026 г. (с 01.07.2026
// по 30.09.2026)»), not the day it was made.
var periodLine = regexp.MustCompile(`(?i)(^|[^\p{L}])за\s+период|(^|[^\p{L}])с\s+\d{1,2}\.\d{1,2}\.\d{2,4}\s+(г\.\s+)?по\s+\d{1,2}\.\d{1,2}\.\d{2,4}`)

// firstDate is the first date written in s.
func firstDate(s string) (time.Time, bool) {
	m := headerDate.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	var day, month, year int
	if m[1] != "" {
		day, _ = strconv.Atoi(m[1])
		year, _ = strconv.Atoi(m[3])
		stem := strings.ToLower(m[2])
		for i, ms := range monthStems {
			if strings.HasPrefix(stem, ms) {
				month = i + 1
				break
			}
		}
	} else {
		day, _ = strconv.Atoi(m[4])
		month, _ = strconv.Atoi(m[5])
		year, _ = strconv.Atoi(m[6])
	}
	d := time.Date(year, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if month == 0 || d.Day() != day || d.Month() != time.Month(month) {
		return time.Time{}, false // «31 июня» is no date
	}
	return d, true
}

// FirstDate is the first date written in s («01 апреля 2026 г.», «01.04.2026»).
func FirstDate(s string) (time.Time, bool) { return firstDate(s) }
