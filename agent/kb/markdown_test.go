package kb_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/kb"
	"github.com/finbot/finbot/internal/golden"
)

func TestMarkdown(t *testing.T) {
	tests := []struct {
		name    string
		article kb.Article
	}{
		{"markdown", kb.Article{
			ID:           kb.ArticleID("Акт сверки взаиморасчётов"),
			Title:        "Акт сверки взаиморасчётов",
			Content:      "Акт сверки — документ, в котором стороны сопоставляют данные о расчётах.\n\n## Кто подписывает\n- главный бухгалтер;\n- руководитель или лицо по доверенности.",
			Topic:        "Расчёты с контрагентами",
			Jurisdiction: "РФ",
			Updated:      time.Date(2026, time.January, 15, 0, 0, 0, 0, time.UTC),
		}},
		{"markdown_no_meta", kb.Article{Title: "Без метаданных", Content: "Текст."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.article.Markdown()
			golden.Check(t, filepath.Join("testdata", tt.name+".golden"), got)
		})
	}
}
