package kb_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/kb"
)

func TestSample(t *testing.T) {
	raw, err := os.ReadFile("sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	// Parse the file directly as well: Sample panics instead of reporting the problems.
	if _, err := kb.Parse(bytes.NewReader(raw)); err != nil {
		t.Fatalf("sample.csv: %v", err)
	}
	articles := kb.Sample()
	if len(articles) < 25 {
		t.Errorf("Sample() has %d articles, want at least 25", len(articles))
	}
	ids := make(map[string]string)
	first, last := time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, time.November, 22, 0, 0, 0, 0, time.UTC)
	for _, a := range articles {
		if prev, ok := ids[a.ID]; ok {
			t.Errorf("ID %s of %q repeats the ID of %q", a.ID, a.Title, prev)
		}
		ids[a.ID] = a.Title
		if a.Updated.Before(first) || a.Updated.After(last) {
			t.Errorf("%q: updated %s, want a date in 2025–2026 not after 2026-11-22", a.Title, a.Updated.Format(time.DateOnly))
		}
		if n := utf8.RuneCountInString(a.Content); n < 600 {
			t.Errorf("%q: content has %d runes, want at least 600", a.Title, n)
		}
		if a.Topic == "" || a.Jurisdiction != "РФ" {
			t.Errorf("%q: topic %q, jurisdiction %q; want a topic and РФ", a.Title, a.Topic, a.Jurisdiction)
		}
	}

	// Sample returns a copy: a caller cannot change what the next caller gets.
	articles[0].Title = "изменено"
	if kb.Sample()[0].Title == "изменено" {
		t.Error("Sample() shares its slice between calls")
	}
}

// TestSampleCoverage documents which article answers the questions the
// sample is meant to cover. Retrieval itself is tested elsewhere; here the
// answering article only has to exist.
func TestSampleCoverage(t *testing.T) {
	coverage := []struct{ question, title string }{
		{"что такое акт сверки", "Акт сверки взаиморасчётов"},
		{"какая ставка НДС в 2026 году", "Ставки НДС в 2026 году"},
		{"чем УПД отличается от счёта-фактуры", "Счёт-фактура и УПД: в чём разница"},
		{"какой срок исковой давности", "Срок исковой давности"},
		{"что такое дебиторская задолженность", "Дебиторская и кредиторская задолженность"},
		{"как списать безнадёжный долг", "Списание безнадёжной дебиторской задолженности"},
		{"как считать резерв по сомнительным долгам", "Резерв по сомнительным долгам"},
		{"какие реквизиты обязательны в первичном документе", "Обязательные реквизиты первичного документа"},
		{"что учитывают на счёте 62", "Счета 50, 51, 60 и 62: что на них учитывают"},
		{"нужно ли платить НДС с аванса", "Авансы полученные и выданные: НДС с авансов"},
		{"как считаются пени за просрочку налога", "Пени за несвоевременную уплату налогов"},
		{"чем неустойка отличается от пени", "Неустойка, пени и штраф по договору"},
		{"до какого числа платить ЕНП", "Сроки уплаты налогов и взносов"},
		{"какой лимит расчётов наличными между организациями", "Кассовая дисциплина: лимит кассы и наличные расчёты"},
		{"какая ставка налога на прибыль", "Налог на прибыль: ставка 25% с 2025 года"},
		{"какие ставки НДФЛ с 2025 года", "НДФЛ: прогрессивная шкала с 2025 года"},
	}
	have := make(map[string]bool)
	for _, a := range kb.Sample() {
		have[a.Title] = true
	}
	for _, c := range coverage {
		if !have[c.title] {
			t.Errorf("%q: no article titled %q", c.question, c.title)
		}
	}
}

// TestQuestions keeps testdata/questions.json, the retrieval recall set over
// the sample, in step with the sample's titles.
func TestQuestions(t *testing.T) {
	raw, err := os.ReadFile("testdata/questions.json")
	if err != nil {
		t.Fatal(err)
	}
	var questions []struct {
		Question string   `json:"question"`
		Title    string   `json:"title"`
		Also     []string `json:"also"` // other articles that answer it as well
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&questions); err != nil {
		t.Fatalf("questions.json: %v", err)
	}
	if len(questions) < 30 {
		t.Errorf("questions.json has %d questions, want at least 30", len(questions))
	}
	have := make(map[string]bool)
	for _, a := range kb.Sample() {
		have[a.Title] = true
	}
	seen := make(map[string]bool)
	answered := make(map[string]bool)
	for _, q := range questions {
		if strings.TrimSpace(q.Question) == "" {
			t.Errorf("empty question for %q", q.Title)
		}
		if seen[q.Question] {
			t.Errorf("question %q repeats", q.Question)
		}
		seen[q.Question] = true
		for _, title := range append([]string{q.Title}, q.Also...) {
			if !have[title] {
				t.Errorf("%q: no article titled %q", q.Question, title)
			}
		}
		answered[q.Title] = true
	}
	for title := range have {
		if !answered[title] {
			t.Errorf("no question is answered by %q", title)
		}
	}
}
