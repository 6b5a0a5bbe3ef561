package reconcile_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/ru"
)

// TestOwnRenderedAct reads back the act this package renders (the PDF the bot sends with «акт
// сверки с альфой за 1 квартал»): uploaded by us, it is our act with their half blank — refused
// as not yet filled in, never compared as if they had agreed to nothing; read by the
// counterparty (the sides swapped: ООО «Альфа» is ours), our half is theirs, turned to their
// side, and it matches their mirror of it line by line.
func TestOwnRenderedAct(t *testing.T) {
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, ru.Moscow), time.Date(2026, 3, 31, 0, 0, 0, 0, ru.Moscow)
	ours := demoAct(t, "ООО «Альфа»", from, to)
	pdf, err := ours.PDF()
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 4, 10, 12, 0, 0, 0, ru.Moscow) }

	_, err = reconcile.Parse(t.Context(), "act.pdf", pdf, reconcile.ParseOptions{Ours: []reconcile.Party{ours.Ours}, Now: now})
	if !errors.Is(err, reconcile.ErrUnreadable) || !strings.Contains(reconcile.UserMessage(err), "не заполнена половина «По данным ООО «Альфа»»") {
		t.Fatalf("our own act read as theirs: %v (%s)", err, reconcile.UserMessage(err))
	}

	th, err := reconcile.Parse(t.Context(), "act.pdf", pdf, reconcile.ParseOptions{Ours: []reconcile.Party{ours.Theirs}, Now: now})
	if err != nil {
		t.Fatalf("the act read by ООО «Альфа»: %v (%s)", err, reconcile.UserMessage(err))
	}
	if th.Theirs.Name != ours.Ours.Name || th.Theirs.INN != ours.Ours.INN || !th.From.Equal(from) || !th.To.Equal(to) {
		t.Errorf("read as theirs: %+v, %s – %s", th.Theirs, th.From.Format(time.DateOnly), th.To.Format(time.DateOnly))
	}
	if len(th.Lines) != len(ours.Lines) || th.Grouped {
		t.Fatalf("%d lines (grouped %v), want the act's %d", len(th.Lines), th.Grouped, len(ours.Lines))
	}
	// Their mirror: ООО «Альфа»'s act of the same period — every debit of ours their credit.
	mirror := reconcile.Act{Ours: ours.Theirs, Theirs: ours.Ours, From: from, To: to, Opening: -ours.Opening, Closing: -ours.Closing}
	for _, l := range ours.Lines {
		l.Debit, l.Credit = l.Credit, l.Debit
		mirror.Lines = append(mirror.Lines, l)
	}
	c, err := reconcile.Compare(mirror, th)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Equal() || c.Flipped || c.Gap != 0 {
		t.Errorf("the act read by ООО «Альфа» differs from its mirror (flipped %v, gap %s):\n%s", c.Flipped, c.Gap.Decimal(), c.Markdown(""))
	}
	d, cr := th.Turnovers()
	od, oc := ours.Turnovers()
	if d != oc || cr != od {
		t.Errorf("turnovers read %s / %s, want %s / %s (ours swapped)", d.Decimal(), cr.Decimal(), oc.Decimal(), od.Decimal())
	}
}
