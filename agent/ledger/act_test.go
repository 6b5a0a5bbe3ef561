package ledger

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ledongthuc/pdf"
	"github.com/xuri/excelize/v2"

	"github.com/finbot/finbot/agent/plan"
	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/agent/skill"
)

// An act's reply: the verdict, both files attached (the Excel in BP's two-sided form, the PDF),
// buttons that send either file again from the kept act, and the counterparty's aging on the
// act's last day as a question the parser reads back as that aging.
func TestActReply(t *testing.T) {
	s := newSkill(t, everyone)
	r := ask(t, s, 1, 1, "акт сверки с альфой за 1 квартал 2026")
	text := plain(r.Text)
	if r.Recipe != string(recipe.ReconciliationAct) || !strings.Contains(text,
		"**Акт сверки с ООО «Альфа» за 01.01.2026 – 31.03.2026:** задолженность в пользу ООО «Северный ветер» составляет **3 076 579,33 ₽** [1]") {
		t.Fatalf("reply (%s):\n%s", r.Recipe, text)
	}
	if r.Document == nil || r.Document.Name != "Акт сверки ООО «Альфа» 01.01.2026–31.03.2026.xlsx" || len(r.Attachments) != 1 ||
		r.Attachments[0].Name != "Акт сверки ООО «Альфа» 01.01.2026–31.03.2026.pdf" {
		t.Fatalf("files: %+v, %+v", r.Document, r.Attachments)
	}
	if _, err := excelize.OpenReader(bytes.NewReader(r.Document.Bytes)); err != nil {
		t.Errorf("the attached Excel: %v", err)
	}
	if _, err := pdf.NewReader(bytes.NewReader(r.Attachments[0].Bytes), int64(len(r.Attachments[0].Bytes))); err != nil {
		t.Errorf("the attached PDF: %v", err)
	}
	var xlsx, pdfData, aging string
	for _, b := range r.Buttons {
		switch {
		case strings.HasPrefix(b.Data, ExportPrefix):
			xlsx = b.Data
		case strings.HasPrefix(b.Data, PDFPrefix):
			pdfData = b.Data
		case b.Data == "":
			aging = b.Text
		}
	}
	if xlsx == "" || pdfData == "" || aging != "Просрочка ООО «Альфа» на 31.03.2026" {
		t.Fatalf("buttons %+v", r.Buttons)
	}
	file := command(t, s, 1, "drill", xlsx)
	if file.Document == nil || !bytes.Equal(file.Document.Bytes, r.Document.Bytes) {
		t.Errorf("«Акт в Excel»: %+v %s", file.Document, file.Text)
	}
	file = command(t, s, 1, "drill", pdfData)
	if file.Document == nil || !strings.HasSuffix(file.Document.Name, ".pdf") || !strings.Contains(plain(file.Text), "в PDF: 9 документов") {
		t.Errorf("«Акт в PDF»: %+v %s", file.Document, file.Text)
	}
	if other := command(t, s, 2, "drill", pdfData); !isStale(other) {
		t.Errorf("the PDF button pressed in another chat: %s", other.Text)
	}
	if a := ask(t, s, 1, 1, aging); a.Recipe != string(recipe.ReceivablesAging) || !strings.HasPrefix(plain(a.Text), "ООО «Альфа» должен нам") {
		t.Errorf("%q (%s):\n%s", aging, a.Recipe, a.Text)
	}
}

// The commands /act and /sverka: a company and a period (two dates side by side, a quarter), a
// company the catalog does not have, none at all.
func TestActCommand(t *testing.T) {
	s := newSkill(t, everyone)
	for _, tt := range []struct {
		cmd, args, want string
	}{
		{"act", "Альфа 01.01.2026 31.03.2026", "Акт сверки с ООО «Альфа» за 01.01.2026 – 31.03.2026"},
		{"act", "Альфа 1 кв 2026", "Акт сверки с ООО «Альфа» за 01.01.2026 – 31.03.2026"},
		{"sverka", "Техснаб за март 2026", "Акт сверки с ООО «Техснаб» за 01.03.2026 – 31.03.2026"},
		{"act", "Бета по договору П-77/2024 за 2025", "Договора № П-77/2024 в справочнике 1С не нашёл. Договоры ООО «Бета Групп»"},
		{"act", "П-77/2024 с 01.01.2025 по 31.12.2025", "Акт сверки с ООО «Альфа» по договору поставки № П-77/2024 от 06.02.2024 за 01.01.2025 – 31.12.2025"},
		{"act", "Альфа", "Период не указан — акт за текущий квартал по сегодня"},
		{"act", "Гамма", "Не нашёл в 1С контрагента «Гамма»"},
		{"act", "", "С кем сделать акт сверки? Назовите контрагента"},
	} {
		r := command(t, s, 1, tt.cmd, tt.args)
		if !strings.Contains(plain(r.Text), tt.want) {
			t.Errorf("/%s %s:\n%s\nwant %q", tt.cmd, tt.args, plain(r.Text), tt.want)
		}
	}
}

// The planner's ledger_query of an act: each line and the act's balances, turnovers and
// verdict, amounts exact.
func TestActFacts(t *testing.T) {
	s := newSkill(t, everyone)
	p, err := s.Facts(t.Context(), skill.Query{UserID: 1, ChatID: 1, Text: "акт сверки с техснабом за 1 квартал"},
		plan.ToolCall{Tool: plan.ToolLedgerQuery, Args: []byte(`{"recipe":"reconciliation_act","filters":{"counterparty":"Техснаб","period_from":"2026-01-01","period_to":"2026-03-31"}}`)})
	if err != nil {
		t.Fatal(err)
	}
	total := p.Items[len(p.Items)-1]
	if len(p.Items) != 6 || !strings.Contains(total.Text, "Сальдо на 01.01.2026: Кт 696\u00a0876,11\u00a0₽") ||
		!strings.Contains(total.Text, "задолженность в пользу ООО «Техснаб» составляет 511\u00a0642,58 руб.") {
		t.Fatalf("%d items, total %q", len(p.Items), total.Text)
	}
	if first := p.Items[0]; first.Text != "Оплата № 18 от 01.01.2026: дебет 93\u00a0157,92\u00a0₽" {
		t.Errorf("first line %q", first.Text)
	}
}
