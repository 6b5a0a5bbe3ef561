package anon

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/llm"
	"github.com/finbot/finbot/integrations/tavily"
)

// testCatalogs are a base like the demo ledger's: names that decline, a glued one, a Latin one,
// individual entrepreneurs, a name with Markdown characters.
func testCatalogs() *recipe.Catalogs {
	return &recipe.Catalogs{
		Organizations: []recipe.Entity{{Ref: "o1", Name: "ООО «Северный ветер»", INN: "1031699119", KPP: "776601001"}},
		Counterparties: []recipe.Entity{
			{Ref: "c1", Name: "ООО «Альфа»", INN: "9366414049", KPP: "917301001"},
			{Ref: "c2", Name: "ООО «Вектор Плюс»", INN: "1698921425", KPP: "213101001"},
			{Ref: "c3", Name: "ООО «СтройМаркет»", INN: "4245490374", KPP: "113001001"},
			{Ref: "c4", Name: "ПАО «Северсталь-Логистик»", INN: "2575668710", KPP: "511201001"},
			{Ref: "c5", Name: "ООО «Гранит-М»", INN: "1000352082", KPP: "806801001"},
			{Ref: "c6", Name: "ИП Смирнов Алексей Петрович", INN: "441706417669"},
			{Ref: "c7", Name: "ООО «Delta Trade»", INN: "8249954507", KPP: "762001001"},
			{Ref: "c8", Name: `ООО "Ромашка"`, INN: "7507586709", KPP: "131301001"},
			{Ref: "c9", Name: "ООО «Рога_и_Копыта*»", INN: "5891076210", KPP: "773201001"},
		},
		Contracts:    []recipe.Entity{{Ref: "k1", Number: "П-77/2024", OwnerRef: "c1"}, {Ref: "k2", Number: "ДП-68/2024", OwnerRef: "c2"}},
		BankAccounts: []recipe.BankAccount{{Number: "40702810927616318153", OrgRef: "o1"}},
	}
}

func masked(t *testing.T, text string) (string, *Session) {
	t.Helper()
	s := NewSession(testCatalogs)
	out, _ := s.mask(text, []*Dictionary{s.dictionary()})
	return out, s
}

func TestMaskDetects(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"inn10", "ИНН 7707083893 у них", "ИНН [ИНН_1] у них"},
		{"inn12", "ИП с ИНН 500100732259.", "ИП с ИНН [ИНН_1]."},
		{"inn bad checksum stays", "ИНН 7707083894", "ИНН 7707083894"},
		{"kpp after inn", "ИНН/КПП 7707083893/770701001", "ИНН/КПП [ИНН_1]/[КПП_1]"},
		{"kpp by word", "КПП: 773601001", "КПП: [КПП_1]"},
		{"kpp of the catalog alone", "код 917301001", "код [КПП_1]"},
		{"ogrn", "ОГРН 1027700132195", "ОГРН [ОГРН_1]"},
		{"ogrnip", "ОГРНИП 304500116000157", "ОГРНИП [ОГРН_1]"},
		{"ogrn bad checksum stays", "ОГРН 1027700132196", "ОГРН 1027700132196"},
		{"account", "р/с 40702810927616318153", "р/с [СЧЁТ_1]"},
		{"account with its bik", "р/с 40702810200000000001 БИК 044525225", "р/с [СЧЁТ_1] БИК 044525225"},
		{"account failing the bik's key", "р/с 40702810200000000002 БИК 044525225", "р/с [НОМЕР_1] БИК 044525225"},
		{"card grouped", "карта 4276 3800 1234 5679, спасибо", "карта [КАРТА_1], спасибо"},
		{"card bare", "карта 4276380012345679", "карта [КАРТА_1]"},
		{"card failing luhn stays", "карта 4276 3800 1234 5678", "карта 4276 3800 1234 5678"},
		{"contract after its word", "по договору № 178/2025 от 01.02.2025", "по договору № [ДОГОВОР_1] от 01.02.2025"},
		{"contract of the catalog alone", "оплата по П-77/2024", "оплата по [ДОГОВОР_1]"},
		{"name", "долг ООО «Альфа» на 31.03", "долг ООО «[КОНТРАГЕНТ_1]» на 31.03"},
		{"name declined", "сколько должна Альфа? а Альфе мы?", "сколько должна [КОНТРАГЕНТ_1]? а [КОНТРАГЕНТ_1] мы?"},
		{"name misspelt", "долг строймаркета и вектор плюса", "долг [КОНТРАГЕНТ_1] и [КОНТРАГЕНТ_2]"},
		{"name glued", "долг стройМаркет", "долг [КОНТРАГЕНТ_1]"},
		{"name in latin", "долг romashka", "долг [КОНТРАГЕНТ_1]"},
		{"latin name in cyrillic", "дельта трейд должна", "[КОНТРАГЕНТ_1] должна"},
		{"hyphenated", "Северсталь-Логистик и северсталь логистику", "[КОНТРАГЕНТ_1] и [КОНТРАГЕНТ_1]"},
		{"markdown escaped", `ООО «Гранит\-М» и Рога\_и\_Копыта\*`, `ООО «[КОНТРАГЕНТ_1]» и [КОНТРАГЕНТ_2]\*`},
		{"person", "ИП Смирнов Алексей Петрович, Смирнову", "ИП [ФИО_1], [ФИО_1]"},
		{"our organization", "у Северного ветра", "у [ОРГАНИЗАЦИЯ_1]"},
		{"legal form not in the catalogs", "поставщик ООО «Василёк»", "поставщик ООО «[КОНТРАГЕНТ_1]»"},
		{"sole trader not in the catalogs", "ИП Иванова М. В. прислала", "ИП [ФИО_1] прислала"},
		{"nothing", "курс доллара на 01.03.2026: 90,50 ₽, сумма 1 234 567,89", "курс доллара на 01.03.2026: 90,50 ₽, сумма 1 234 567,89"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := masked(t, tt.in)
			if got != tt.want {
				t.Errorf("mask(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestChecksums(t *testing.T) {
	for _, c := range []struct {
		name string
		f    func(string) bool
		in   string
		want bool
	}{
		{"luhn", luhn, "4276380012345679", true},
		{"luhn bad", luhn, "4276380012345678", false},
		{"ogrn", ogrnOK, "1027700132195", true},
		{"ogrnip", ogrnOK, "304500116000157", true},
		{"ogrnip bad", ogrnOK, "304500116000158", false},
		{"account key", func(s string) bool { return accountKeyOK("044525225", s) }, "40702810200000000001", true},
		{"account key bad", func(s string) bool { return accountKeyOK("044525225", s) }, "40702810200000000002", false},
		{"correspondent account", func(s string) bool { return accountKeyOK("044525225", s) }, "30101810400000000225", true},
	} {
		if got := c.f(c.in); got != c.want {
			t.Errorf("%s(%s) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
}

func TestRestoreRoundTrip(t *testing.T) {
	in := "Долг ООО «Альфа» (ИНН 9366414049) по договору П-77/2024, р/с 40702810927616318153; Альфе напомнить."
	out, s := masked(t, in)
	for _, leak := range []string{"Альф", "9366414049", "П-77/2024", "40702810927616318153"} {
		if strings.Contains(out, leak) {
			t.Errorf("masked text holds %q: %s", leak, out)
		}
	}
	back, err := s.Restore(out, false)
	if err != nil {
		t.Fatal(err)
	}
	// Both ways of writing the name map to one placeholder, restored to the catalog's form.
	want := strings.Replace(in, "Альфе", "Альфа", 1)
	if back != want {
		t.Errorf("round trip:\n got %s\nwant %s", back, want)
	}
}

func TestRestore(t *testing.T) {
	_, s := masked(t, `Долг ООО "Ромашка" и ООО «Альфа», ИНН 9366414049`)
	tests := []struct {
		name, reply string
		json        bool
		want        string
		wantErr     bool
	}{
		{"exact", "[КОНТРАГЕНТ_2] должна, [ИНН_1].", false, "Альфа должна, 9366414049.", false},
		{"case and spaces", "[контрагент 1] и [Контрагент_2]", false, "Ромашка и Альфа", false},
		{"bare label", "КОНТРАГЕНТ_1 должна", false, "Ромашка должна", false},
		{"json escapes", `{"counterparty":"[КОНТРАГЕНТ_1]"}`, true, `{"counterparty":"Ромашка"}`, false},
		{"invented number", "[КОНТРАГЕНТ_7] должна", false, "", true},
		{"invented kind use", "[КОНТРАГЕНТ] должна", false, "", true},
		{"footnotes stay", "Долг [КОНТРАГЕНТ_2] [1].", false, "Долг Альфа [1].", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Restore(tt.reply, tt.json)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Restore(%q) error %v, want error %v", tt.reply, err, tt.wantErr)
			}
			if err != nil && !errors.Is(err, ErrUnknownPlaceholder) {
				t.Errorf("error %v is not ErrUnknownPlaceholder", err)
			}
			if got != tt.want {
				t.Errorf("Restore(%q) = %q, want %q", tt.reply, got, tt.want)
			}
		})
	}
	// What is put back into JSON is escaped as a string's content.
	if got := jsonContent(`Рога "и" Копыта\ <ко>`); got != `Рога \"и\" Копыта\\ <ко>` {
		t.Errorf("jsonContent = %s", got)
	}
}

func TestGuardModes(t *testing.T) {
	text := "Долг ООО «Альфа», ИНН 9366414049, счёт 40702810927616318153"
	catalogs := func(context.Context) *recipe.Catalogs { return testCatalogs() }
	for _, tt := range []struct {
		mode     Mode
		texts    []string
		wantSent string
		wantErr  bool
		wantLog  string
	}{
		{ModeMask, []string{text}, "Долг ООО «[КОНТРАГЕНТ_1]», ИНН [ИНН_1], счёт [СЧЁТ_1]", false, ""},
		{ModeLog, []string{text}, text, false, "identifiers=3"},
		{ModeOff, []string{text}, text, false, ""},
		{ModeBlock, []string{text}, "Долг ООО «[КОНТРАГЕНТ_1]», ИНН [ИНН_1], счёт [СЧЁТ_1]", false, ""},
		{ModeBlock, []string{text + ", паспорт 4510123456"}, "", true, "request refused"},
	} {
		t.Run(string(tt.mode), func(t *testing.T) {
			var logs bytes.Buffer
			g, err := New(Options{Mode: tt.mode, Catalogs: catalogs, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			sent, restore, err := g.Outgoing(t.Context(), llm.Chat, tt.texts)
			if tt.wantErr {
				if !errors.Is(err, ErrBlocked) {
					t.Fatalf("err = %v, want ErrBlocked", err)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff([]string{tt.wantSent}, sent); diff != "" {
					t.Errorf("sent (-want +got):\n%s", diff)
				}
				if restore != nil {
					back, err := restore(sent[0])
					if err != nil || back != tt.texts[0] {
						t.Errorf("restore = %q, %v; want %q", back, err, tt.texts[0])
					}
				}
			}
			if !strings.Contains(logs.String(), tt.wantLog) {
				t.Errorf("log %q lacks %q", logs.String(), tt.wantLog)
			}
			for _, secret := range []string{"Альфа", "9366414049", "40702810927616318153", "4510123456"} {
				if strings.Contains(logs.String(), secret) {
					t.Errorf("the log holds %q: %s", secret, logs.String())
				}
			}
		})
	}
	if _, err := New(Options{Mode: "maybe"}); err == nil {
		t.Error("New(mode maybe) accepted an unknown mode")
	}
}

func TestSessionStable(t *testing.T) {
	g, _ := New(Options{})
	ctx := WithSession(t.Context(), NewSession(testCatalogs))
	a, _, _ := g.Outgoing(ctx, llm.ChatJSON, []string{"долг Альфы"})
	b, restore, _ := g.Outgoing(ctx, llm.Chat, []string{"Вектор Плюс и ООО «Альфа»"})
	if a[0] != "долг [КОНТРАГЕНТ_1]" || b[0] != "[КОНТРАГЕНТ_2] и ООО «[КОНТРАГЕНТ_1]»" {
		t.Errorf("placeholders not stable over one session: %q, %q", a[0], b[0])
	}
	if got, _ := restore("[КОНТРАГЕНТ_1]"); got != "Альфа" {
		t.Errorf("restored %q, want the catalog's form «Альфа»", got)
	}
	emb, _, _ := g.Outgoing(ctx, llm.Embedding, []string{"договор с Альфой, ИНН 9366414049"})
	if emb[0] != "договор с [КОНТРАГЕНТ], ИНН [ИНН]" {
		t.Errorf("embedding text %q, want kinds without numbers", emb[0])
	}
}

type recordedSearch struct{ queries []string }

func (r *recordedSearch) Search(_ context.Context, q tavily.Query) (tavily.Response, error) {
	r.queries = append(r.queries, q.Text)
	return tavily.Response{}, nil
}

func (*recordedSearch) Configured() bool { return true }

func TestNewsKeepsNamesOut(t *testing.T) {
	rec := &recordedSearch{}
	n := News{Next: rec}
	ctx := WithSession(t.Context(), NewSession(testCatalogs))
	for _, q := range []string{"ООО «Альфа» банкротство", "Вектор Плюсу штраф ФНС", "Смирнов ИНН 441706417669", "Альфа", "ключевая ставка"} {
		if _, err := n.Search(ctx, tavily.Query{Text: q}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"банкротство", "штраф ФНС", "ИНН", "ключевая ставка"}
	if diff := cmp.Diff(want, rec.queries); diff != "" {
		t.Errorf("queries sent (-want +got):\n%s", diff)
	}
}

// TestAliasMasksTheTypoTheParserRead: a name the parser resolved from a typo the dictionary's
// index cannot find (a first letter off) is masked as that entity, sharing its placeholder, and
// restored to the catalog's form.
func TestAliasMasksTheTypoTheParserRead(t *testing.T) {
	g, _ := New(Options{})
	ctx := WithSession(t.Context(), NewSession(testCatalogs))
	Alias(ctx, "по Эльфе", "Альфа") // the message's «долг по эльфе», as the parser's slot wrote it
	out, restore, err := g.Outgoing(ctx, llm.ChatJSON, []string{"долг по эльфе? а Альфа сколько должна?"})
	if err != nil || out[0] != "долг по [КОНТРАГЕНТ_1]? а [КОНТРАГЕНТ_1] сколько должна?" {
		t.Fatalf("masked %q, %v", out, err)
	}
	if got, _ := restore("долг [КОНТРАГЕНТ_1]"); got != "долг Альфа" {
		t.Errorf("restored %q, want the catalog's form", got)
	}
	// …and not inside a longer word
	out, _, _ = g.Outgoing(ctx, llm.ChatJSON, []string{"эльфийский"})
	if out[0] != "эльфийский" {
		t.Errorf("masked inside a word: %q", out[0])
	}
}

// A long text sent again (the planner's instructions) is scanned once per set of catalogs; what
// it masks is the same the second time, in another session, and a dictionary of other
// catalogs scans it anew.
func TestLongTextMaskedAlikeWhenRemembered(t *testing.T) {
	cats := &recipe.Catalogs{Counterparties: []recipe.Entity{{Ref: "1", Name: "ООО «Василёк»", INN: "7707083893"}}}
	d := DictionaryOf(cats)
	long := strings.Repeat("Инструкция планировщику: отвечай строго JSON. ", 120) + " Долг ООО «Василёк», ИНН 7707083893."
	first, c1 := NewSession(nil).mask(long, []*Dictionary{d})
	second, c2 := NewSession(nil).mask(long, []*Dictionary{d})
	if first != second || c1.Total() != c2.Total() || c1.Total() < 2 || strings.Contains(second, "Василёк") || strings.Contains(second, "7707083893") {
		t.Fatalf("masked %d then %d identifiers:\n%.200s", c1.Total(), c2.Total(), second[len(second)-120:])
	}
	other := DictionaryOf(&recipe.Catalogs{Counterparties: []recipe.Entity{{Ref: "2", Name: "ООО «Инструкция»"}}})
	if got, _ := NewSession(nil).mask(long, []*Dictionary{other}); strings.Contains(got, "Инструкция планировщику") {
		t.Errorf("another catalog's name was not masked in the remembered text: %.80s", got)
	}
}
