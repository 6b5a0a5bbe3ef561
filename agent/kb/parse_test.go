package kb_test

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/kb"
)

const header = "title,content,topic,jurisdiction,updated_at\n"

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestParse(t *testing.T) {
	tests := []struct {
		name         string
		in           string
		wantTitles   []string
		wantProblems []string // nil: want a nil error
	}{
		{
			name:       "valid",
			in:         header + "Акт сверки,Текст,Расчёты,РФ,2026-01-15\nНДС,Ставка 22%,НДС,РФ,2026-02-01\n",
			wantTitles: []string{"Акт сверки", "НДС"},
		},
		{
			name:       "BOM and CRLF",
			in:         "\uFEFF" + strings.ReplaceAll(header+"Акт сверки,Текст,Расчёты,РФ,2026-01-15\n", "\n", "\r\n"),
			wantTitles: []string{"Акт сверки"},
		},
		{
			name:       "semicolon separator from Excel",
			in:         "title;content;topic;jurisdiction;updated_at\nАкт сверки;Текст, с запятой;Расчёты;РФ;15.01.2026\n",
			wantTitles: []string{"Акт сверки"},
		},
		{
			name:       "columns in any order and case",
			in:         "Updated_At, TITLE ,Content,Jurisdiction,Topic\n15.01.2026,Акт сверки,Текст,РФ,Расчёты\n",
			wantTitles: []string{"Акт сверки"},
		},
		{
			name:       "blank rows are skipped",
			in:         header + "Акт сверки,Текст,Расчёты,РФ,2026-01-15\n,,,,\n , , , , \n",
			wantTitles: []string{"Акт сверки"},
		},
		{
			name:         "empty title",
			in:           header + " ,Текст,Расчёты,РФ,2026-01-15\nНДС,Текст,НДС,РФ,2026-01-15\n",
			wantTitles:   []string{"НДС"},
			wantProblems: []string{"строка 2: пустой заголовок (title)"},
		},
		{
			name:         "empty content",
			in:           header + "НДС,\"  \n \",НДС,РФ,2026-01-15\n",
			wantProblems: []string{"строка 2: пустой текст статьи (content)"},
		},
		{
			name:       "bad and missing dates",
			in:         header + "А,Текст,,,2026-13-01\nБ,Текст,,,31.02.2026\nВ,Текст,,,\nГ,Текст,,,2026-01-15\n",
			wantTitles: []string{"Г"},
			wantProblems: []string{
				"строка 2: дата «2026-13-01» не распознана (updated_at): нужна дата вида 2026-01-15 или 15.01.2026",
				"строка 3: дата «31.02.2026» не распознана (updated_at): нужна дата вида 2026-01-15 или 15.01.2026",
				"строка 4: не указана дата обновления (updated_at)",
			},
		},
		{
			name:         "duplicate title ignores case and spaces",
			in:           header + "Акт сверки,Первый,,,2026-01-15\nНДС,Текст,,,2026-01-15\n  акт СВЕРКИ ,Второй,,,2026-01-15\n",
			wantTitles:   []string{"Акт сверки", "НДС"},
			wantProblems: []string{"строка 4: заголовок «акт СВЕРКИ» уже есть в строке 2"},
		},
		{
			name:       "several problems in one row",
			in:         header + ",,,,вчера\n",
			wantTitles: nil,
			wantProblems: []string{
				"строка 2: пустой заголовок (title)",
				"строка 2: пустой текст статьи (content)",
				"строка 2: дата «вчера» не распознана (updated_at): нужна дата вида 2026-01-15 или 15.01.2026",
			},
		},
		{
			name:         "wrong number of fields",
			in:           header + "А,Текст,,,2026-01-15\nБ,Текст,,2026-01-15\nВ,Текст,,,2026-01-15,лишнее\n",
			wantTitles:   []string{"А"},
			wantProblems: []string{"строка 3: число столбцов 4, а в заголовке 5", "строка 4: число столбцов 6, а в заголовке 5"},
		},
		{
			name:         "line break in title",
			in:           header + "\"Акт\nсверки\",Текст,,,2026-01-15\n",
			wantProblems: []string{"строка 2: заголовок (title) содержит перенос строки"},
		},
		{
			name: "too long title and content",
			in: header + strings.Repeat("я", kb.MaxTitleRunes+1) + ",Текст,,,2026-01-15\n" +
				"Длинная," + strings.Repeat("ё", kb.MaxContentRunes+1) + ",,,2026-01-15\n" +
				strings.Repeat("я", kb.MaxTitleRunes) + "," + strings.Repeat("ё", kb.MaxContentRunes) + ",,,2026-01-15\n",
			wantTitles: []string{strings.Repeat("я", kb.MaxTitleRunes)},
			wantProblems: []string{
				"строка 2: заголовок длиннее 300 символов (301)",
				"строка 3: текст статьи длиннее 100 000 символов (100001)",
			},
		},
		{
			name:       "header only",
			in:         header,
			wantTitles: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kb.Parse(strings.NewReader(tt.in))
			if gotTitles := titles(got); !reflect.DeepEqual(gotTitles, tt.wantTitles) {
				t.Errorf("Parse() titles = %q, want %q", gotTitles, tt.wantTitles)
			}
			if tt.wantProblems == nil {
				if err != nil {
					t.Fatalf("Parse() error: %v", err)
				}
				return
			}
			var pe *kb.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse() error = %v, want a *ParseError", err)
			}
			if !reflect.DeepEqual(pe.Problems, tt.wantProblems) {
				t.Errorf("Parse() problems:\n got %q\nwant %q", pe.Problems, tt.wantProblems)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	in := header +
		`"  Договор поставки  ","## Предмет` + "\r\n" + `Цена, срок и ""неустойка"" — по договору.` + "\n\n" +
		`- пункт 1, пункт 2` + "\n" + `",Договоры, РФ ,15.01.2026` + "\n"
	got, err := kb.Parse(strings.NewReader(in))
	if err != nil {
		t.Fatalf("Parse() error: %v", err)
	}
	want := []kb.Article{{
		ID:           kb.ArticleID("договор поставки"),
		Title:        "Договор поставки",
		Content:      "## Предмет\nЦена, срок и \"неустойка\" — по договору.\n\n- пункт 1, пункт 2",
		Topic:        "Договоры",
		Jurisdiction: "РФ",
		Updated:      date(2026, time.January, 15),
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse() =\n%+v\nwant\n%+v", got, want)
	}
}

func TestArticleID(t *testing.T) {
	id := kb.ArticleID("Акт сверки")
	if len(id) != len("kb-")+12 || !strings.HasPrefix(id, "kb-") || strings.Trim(id[3:], "0123456789abcdef") != "" {
		t.Errorf(`ArticleID("Акт сверки") = %q, want "kb-" and 12 hex digits`, id)
	}
	if other := kb.ArticleID("  акт СВЕРКИ\t"); other != id {
		t.Errorf("ArticleID differs by case and surrounding spaces: %q vs %q", other, id)
	}
	if other := kb.ArticleID("Акт сверки с бюджетом"); other == id {
		t.Errorf("ArticleID is the same for different titles: %q", id)
	}
}

func TestParseRejects(t *testing.T) {
	tests := []struct {
		name     string
		in       io.Reader
		want     error
		wantText string // a fragment the message must contain
	}{
		{"empty input", strings.NewReader(""), kb.ErrFormat, "empty input"},
		{"BOM only", strings.NewReader("\uFEFF"), kb.ErrFormat, "empty input"},
		{"missing column", strings.NewReader("title,content,topic,updated_at\nА,Б,В,2026-01-15\n"), kb.ErrFormat, `missing columns "jurisdiction"`},
		{"extra columns", strings.NewReader("title,content,topic,jurisdiction,updated_at,Автор,notes\n"), kb.ErrFormat, `unknown columns "автор", "notes"`},
		{"repeated column", strings.NewReader("title,content,topic,jurisdiction,updated_at,Title\n"), kb.ErrFormat, `repeated columns "title"`},
		{"semicolon header with a comma is read with commas", strings.NewReader("title;content;topic;jurisdiction;updated_at,x\n"), kb.ErrFormat, "missing columns"},
		{"invalid UTF-8", strings.NewReader(header + "А,Б,В,Г,2026-01-15\n\"Акт\nсверки\",\xcf\xf0\xe8\xec\xe5\xf0,,,2026-01-15\n"), kb.ErrFormat, "line 4 is not valid UTF-8"},
		{"invalid UTF-8 in header", strings.NewReader("\xfftitle,content\n"), kb.ErrFormat, "line 1 "},
		{"bare quote", strings.NewReader(header + "А,Текст с \"кавычкой\",,,2026-01-15\n"), kb.ErrFormat, `bare "`},
		{"unterminated quote", strings.NewReader(header + "А,\"Текст,,,2026-01-15\n"), kb.ErrFormat, "extraneous or missing"},
		{"too many rows", strings.NewReader(rows(kb.MaxRows + 1)), kb.ErrTooLarge, "more than 10000 rows"},
		{"too large input", io.MultiReader(strings.NewReader(header), endless{}), kb.ErrTooLarge, "more than 20 MB"},
		{"read error", io.MultiReader(strings.NewReader(header), failing{}), errBroken, "read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := kb.Parse(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Parse() error = %v, want %v", err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.wantText) {
				t.Errorf("Parse() error = %q, want it to contain %q", err, tt.wantText)
			}
			if got != nil {
				t.Errorf("Parse() returned %d articles with a fatal error", len(got))
			}
		})
	}
}

func TestParseLimitsAreInclusive(t *testing.T) {
	got, err := kb.Parse(strings.NewReader(rows(kb.MaxRows)))
	if err != nil {
		t.Fatalf("Parse(%d rows) error: %v", kb.MaxRows, err)
	}
	if len(got) != kb.MaxRows {
		t.Errorf("Parse(%d rows) = %d articles", kb.MaxRows, len(got))
	}

	// Exactly MaxInputBytes: one article padded with a long (but valid) content.
	prefix := header + "А,\""
	suffix := "\",,,2026-01-15\n"
	pad := kb.MaxInputBytes - len(prefix) - len(suffix)
	content := strings.Repeat("x", kb.MaxContentRunes) + strings.Repeat(" ", pad-kb.MaxContentRunes)
	got, err = kb.Parse(strings.NewReader(prefix + content + suffix))
	if err != nil {
		t.Fatalf("Parse(%d bytes) error: %v", kb.MaxInputBytes, err)
	}
	if len(got) != 1 {
		t.Errorf("Parse(%d bytes) = %d articles, want 1", kb.MaxInputBytes, len(got))
	}
}

func TestParseErrorText(t *testing.T) {
	var problems []string
	for i := range 25 {
		problems = append(problems, fmt.Sprintf("строка %d: пустой заголовок (title)", i+2))
	}
	tests := []struct {
		name     string
		problems []string
		want     string
	}{
		{"one", problems[:1], "строка 2: пустой заголовок (title)"},
		{"twenty", problems[:20], strings.Join(problems[:20], "\n")},
		{"more than twenty", problems, strings.Join(problems[:20], "\n") + "\n… и ещё 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := (&kb.ParseError{Problems: tt.problems}).Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// rows returns a CSV with n valid data rows.
func rows(n int) string {
	var b strings.Builder
	b.WriteString(header)
	for i := range n {
		fmt.Fprintf(&b, "Статья %d,Текст,Тема,РФ,2026-01-15\n", i)
	}
	return b.String()
}

func titles(articles []kb.Article) []string {
	var out []string
	for _, a := range articles {
		out = append(out, a.Title)
	}
	return out
}

// endless is an io.Reader that never ends: Parse must stop reading at its limit.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

var errBroken = errors.New("connection reset")

type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errBroken }
