package kb

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/ru"
)

// dateLayouts are the accepted forms of updated_at: ISO and the Russian
// day.month.year that Excel shows.
var dateLayouts = []string{time.DateOnly, "02.01.2006"}

// validator turns data rows into articles and collects the problems of the
// rows it rejects.
type validator struct {
	articles []Article
	problems []string
	seen     map[string]int // article ID → row where it first appeared
}

func (v *validator) problem(row int, format string, args ...any) {
	v.problems = append(v.problems, fmt.Sprintf("строка %d: ", row)+fmt.Sprintf(format, args...))
}

// row validates one data row, fields in the order of columns. Every problem
// of the row is reported, not just the first, so one round of fixes is enough.
func (v *validator) row(row int, fields [len(columns)]string) {
	blank := true
	for i := range fields {
		if i != colContent {
			fields[i] = strings.TrimSpace(fields[i])
		}
		if strings.TrimSpace(fields[i]) != "" {
			blank = false
		}
	}
	if blank {
		return
	}
	a := Article{
		Title:        fields[colTitle],
		Content:      strings.TrimSpace(fields[colContent]),
		Topic:        fields[colTopic],
		Jurisdiction: fields[colJurisdiction],
	}
	before := len(v.problems)

	switch n := utf8.RuneCountInString(a.Title); {
	case n == 0:
		v.problem(row, "пустой заголовок (title)")
	case n > MaxTitleRunes:
		v.problem(row, "заголовок длиннее %s (%d)", ru.Count(MaxTitleRunes, "символа", "символов", "символов"), n)
	}
	switch n := utf8.RuneCountInString(a.Content); {
	case n == 0:
		v.problem(row, "пустой текст статьи (content)")
	case n > MaxContentRunes:
		v.problem(row, "текст статьи длиннее %s (%d)", ru.Count(MaxContentRunes, "символа", "символов", "символов"), n)
	}
	// Title, topic and jurisdiction go into the heading and the metadata line of Markdown.
	for _, f := range []struct{ name, value string }{{"заголовок (title)", a.Title}, {"тема (topic)", a.Topic}, {"юрисдикция (jurisdiction)", a.Jurisdiction}} {
		if strings.ContainsAny(f.value, "\r\n") {
			v.problem(row, "%s содержит перенос строки", f.name)
		}
	}
	if d := fields[colUpdated]; d == "" {
		v.problem(row, "не указана дата обновления (updated_at)")
	} else if t, ok := parseDate(d); ok {
		a.Updated = t
	} else {
		v.problem(row, "дата «%s» не распознана (updated_at): нужна дата вида 2026-01-15 или 15.01.2026", ru.Truncate(d, 40))
	}
	if a.Title != "" {
		a.ID = ArticleID(a.Title)
		if first, ok := v.seen[a.ID]; ok {
			v.problem(row, "заголовок «%s» уже есть в строке %d", ru.Truncate(a.Title, 80), first)
		} else if len(v.problems) == before {
			v.seen[a.ID] = row
		}
	}
	if len(v.problems) == before {
		v.articles = append(v.articles, a)
	}
}

func parseDate(s string) (time.Time, bool) {
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
