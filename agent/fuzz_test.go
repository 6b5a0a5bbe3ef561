package agent

import (
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/finbot/finbot/agent/ledger/lane"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/integrations/history"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/internal/testdocs"
	"github.com/finbot/finbot/library"
	"github.com/finbot/finbot/ru"
)

// FuzzCallbackData plays an attacker who presses buttons with forged data. The bot routes
// "d:…" to the "doc" command and "b:…", "a:…" (a drilldown of before), "x:…", "c:…", "t:…" to "drill", carrying the data verbatim
// (bot/incoming.go); here every input goes through both. The agent must never panic, always
// answer with text, never show or touch the victim's document (user 1's memo, whose id the
// attacker is given), and only offer buttons Telegram accepts (at most 64 bytes of data).
func FuzzCallbackData(f *testing.F) {
	ctx := context.Background()
	d, err := onec.DemoDefault()
	if err != nil {
		f.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 4, 30, 12, 0, 0, 0, ru.Moscow) }
	lib := library.New(docstore.NewMemory(), nil, library.Options{})
	a := New(Deps{History: history.NewMemory(1000, history.Limits{}), Library: lib,
		Ledger: lane.NewLane(d, lane.Options{Now: now, Organization: d.MainOrganization()})},
		Options{Now: now, LedgerAccess: func(int64, int64) bool { return true }})

	victim := Request{UserID: 1, ChatID: 1}
	memo := testdocs.DOCX("Служебная записка о премии",
		testdocs.Section{Heading: "Премия", Body: "Кодовое слово Альбатрос-7731."})
	receipt, err := a.Upload(ctx, victim, File{Name: "memo.docx", Size: int64(len(memo)), Data: memo})
	if err != nil {
		f.Fatal(err)
	}
	var id string
	for _, b := range receipt.Buttons {
		if s, ok := strings.CutPrefix(b.Data, "d:s:"); ok {
			id = s
		}
	}
	if id == "" {
		f.Fatalf("no select button on the receipt %+v", receipt)
	}
	// The victim's chat has a ledger result to export and candidates to choose from.
	for _, q := range []string{"кто нам должен на 31.03.2026", "открытые позиции по Сев на 31.03.2026"} {
		if _, err := a.Answer(ctx, Request{UserID: 1, ChatID: 1, Text: q}); err != nil {
			f.Fatal(err)
		}
	}

	for _, s := range []string{
		"d:s:" + id, "d:u:" + id, "d:x:" + id, "d:X:" + id, "d:p:0", "d:p:-1", "d:p:99999999999999999999", "d:c:0",
		"d:s:", "d:", "d:X:../" + id, "d:s:" + strings.ToUpper(id), "d:s:" + id + "\x00", "d:Z:" + id,
		"x:last", "x:", "x:last:1", "c:0", "c:1", "c:-1", "c:999999999999999999999", "c:", "c:0x1",
		"a:4:cb61f26c-a4d:20260331:1:", "a:4:b14f1e5e-91c:20260331:1:", "a:3:deadbeef0000:20260331:0:", "a:4:cb61f26c-a4d:20260231:1:62.01",
		"a:-1:x:20260331:0:", "a:99:x:20260331:0:", "a:4::29991231:99:", "a:4:cb61f26c-a4d:20260331:1:" + strings.Repeat("9", 60),
		"a:6:acct-51:20251231:1:51", "a:4:%:20260331:1:", "a:4:_:20260331:1:",
		"a:", "\xff\xfe", "d:s:\u202e" + id,
		// Drilldowns: the recipe by code, the organization by its reference's prefix.
		"b:op:cb61f26c-a4d:20260331:8188789b-128:", "b:op:b14f1e5e-91c:20260331:34adc550-78a:", "b:op:deadbeef0000:20260331:34adc550-78a:",
		"b:op:cb61f26c-a4d:20260231:8188789b-128:62.01", "b:bd:acct-51:20251231:34adc550-78a:51", "b:ac:p20260101:20260331:8188789b-128:62",
		"b:ac:p20260401:20260331:8188789b-128:62", "b:zz:x:20260331:34adc550-78a:", "b:op:cb61f26c-a4d:20260331:1:", "b:op:cb61f26c-a4d:20260331::",
		"b:op:cb61f26c-a4d:20260331:00000000-000:", "b:op:cb61f26c-a4d:20260331:%:", "b:op:cb61f26c-a4d:20260331:8188789b-128:" + strings.Repeat("9", 40),
		"b:op:%:20260331:34adc550-78a:", "b:op:_:20260331:34adc550-78a:", "b:", "b:dc::29991231:34adc550-78a:",
	} {
		f.Add(s)
	}
	attackers := []Request{{UserID: 2, ChatID: 2}, {UserID: 2, ChatID: -100, Group: true}}

	f.Fuzz(func(t *testing.T, data string) {
		for _, cmd := range []string{"doc", "drill"} {
			for _, req := range attackers {
				req.Command, req.Text = cmd, data
				ans, err := a.Answer(ctx, req)
				if err != nil {
					t.Fatalf("%s %q: %v", cmd, data, err)
				}
				if strings.TrimSpace(ans.Text) == "" && ans.Document == nil {
					t.Fatalf("%s %q: empty answer", cmd, data)
				}
				if strings.Contains(ans.Text, "Служебная записка") || strings.Contains(ans.Text, "Альбатрос") {
					t.Fatalf("%s %q from user 2 showed user 1's document:\n%s", cmd, data, ans.Text)
				}
				for _, b := range ans.Buttons {
					if len(b.Data) > 64 || !utf8.ValidString(b.Data) || strings.Contains(b.Data, id) {
						t.Fatalf("%s %q: button %+v", cmd, data, b)
					}
				}
			}
		}
		if _, err := lib.Get(ctx, owner(victim), id); err != nil {
			t.Fatalf("after %q the victim's document is gone: %v", data, err)
		}
	})
}
