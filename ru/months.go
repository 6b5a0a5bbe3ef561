package ru

import "time"

// months are the names of each month in the forms the bot writes them: «январь» (a month on
// its own: «январь 2026»), «января» (a day of it: «15 января»), «январе» («в январе») and
// the three-letter abbreviation of chart axes («янв»). Index 0 is no month.
var months = [13]struct{ nominative, genitive, prepositional, abbr string }{
	{},
	{"январь", "января", "январе", "янв"},
	{"февраль", "февраля", "феврале", "фев"},
	{"март", "марта", "марте", "мар"},
	{"апрель", "апреля", "апреле", "апр"},
	{"май", "мая", "мае", "май"},
	{"июнь", "июня", "июне", "июн"},
	{"июль", "июля", "июле", "июл"},
	{"август", "августа", "августе", "авг"},
	{"сентябрь", "сентября", "сентябре", "сен"},
	{"октябрь", "октября", "октябре", "окт"},
	{"ноябрь", "ноября", "ноябре", "ноя"},
	{"декабрь", "декабря", "декабре", "дек"},
}

// month is the row of m, or the empty row when m is not a month.
func month(m time.Month) int {
	if m < time.January || m > time.December {
		return 0
	}
	return int(m)
}

// MonthName is the name of m in the nominative, «январь», as in «январь 2026»; "" when m is not
// a month.
func MonthName(m time.Month) string { return months[month(m)].nominative }

// MonthGenitive is the name of m in the genitive, «января», as in «15 января»; "" when m is not
// a month.
func MonthGenitive(m time.Month) string { return months[month(m)].genitive }

// MonthPrepositional is the name of m in the prepositional, «январе», as in «в январе»; "" when
// m is not a month.
func MonthPrepositional(m time.Month) string { return months[month(m)].prepositional }

// MonthAbbr is the three-letter abbreviation of m, «янв», as on a chart's axis («май» is not
// shortened); "" when m is not a month.
func MonthAbbr(m time.Month) string { return months[month(m)].abbr }
