package reconcile_test

import (
	"testing"
	"time"

	"github.com/finbot/finbot/agent/reconcile"
	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/integrations/onec/ledgergen"
)

// TestIncomingNumbers: on the realistic base a supplier's act prints each purchase and bank
// document under its incoming number and date (НомерВходящегоДокумента, ДатаВходящегоДокумента)
// as BP's act does — checked against the raw documents, not the template —, our number kept in
// Own, and falls back to our number where the incoming one is empty. The supplier's own act
// (their numbers and dates are those incoming ones) then matches every line by number and date;
// the one planted difference is found with its amount.
func TestIncomingNumbers(t *testing.T) {
	if testing.Short() {
		t.Skip("draws the realistic base (a few seconds)")
	}
	l := ledgergen.Realistic(ledgergen.DefaultSeed)
	head := l.Organizations[0]
	docs := map[string]onec.Document{}
	purchases := map[string]int{}
	for _, d := range l.Documents {
		docs[d.Ref] = d
		if d.Type == "ПоступлениеТоваровУслуг" && d.OrganizationRef == head.Ref && d.Date.Year() == 2025 && d.IncomingNumber != "" {
			purchases[d.CounterpartyRef]++
		}
	}
	var supplier string
	for cp, n := range purchases {
		if n > purchases[supplier] || n == purchases[supplier] && cp < supplier {
			supplier = cp
		}
	}
	from, to := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)
	p := onec.Params{"НачалоПериода": onec.PeriodStartParam(from), "КонецПериода": onec.PeriodEndParam(to),
		"Организация": onec.Ref{UUID: head.Ref, Type: onec.TypeOrganization}.Param(),
		"Контрагент":  onec.Ref{UUID: supplier, Type: onec.TypeCounterparty}.Param(), "Договор": nil}
	d := onec.NewDemo(l)
	bal, err := d.Query(t.Context(), "address.reconciliation.balances", p, onec.MaxDemoRows)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := d.Query(t.Context(), "address.reconciliation.lines", p, onec.MaxDemoRows)
	if err != nil {
		t.Fatal(err)
	}
	ours := reconcile.Build(reconcile.Heading{Ours: reconcile.Party{Name: head.Name}, Theirs: reconcile.Party{Name: "Поставщик"}, From: from, To: to},
		bal.CardTotals[0], rows.Reconciliation)
	incoming, fallback := 0, 0
	for i, r := range rows.Reconciliation {
		doc, ln := docs[r.Registrar.UUID], ours.Lines[i]
		switch {
		case doc.IncomingNumber != "" && doc.Type != "РеализацияТоваровУслуг":
			incoming++
			y, m, dd := doc.IncomingDate.Date()
			if ln.Number != doc.IncomingNumber || ln.Own != reconcile.PrintNumber(doc.Number) || ln.Date.Format(time.DateOnly) != time.Date(y, m, dd, 0, 0, 0, 0, time.UTC).Format(time.DateOnly) {
				t.Errorf("%s %s: printed № %q (own %q) от %s; the document's incoming %q от %s", doc.Type, doc.Number, ln.Number, ln.Own,
					ln.Date.Format(time.DateOnly), doc.IncomingNumber, doc.IncomingDate.Format(time.DateOnly))
			}
		default:
			fallback++
			if ln.Number != reconcile.PrintNumber(doc.Number) || ln.Own != "" {
				t.Errorf("%s %s without an incoming number: printed № %q (own %q)", doc.Type, doc.Number, ln.Number, ln.Own)
			}
		}
	}
	if incoming < 10 {
		t.Fatalf("%d lines with an incoming number: the case proves too little", incoming)
	}

	// Their act: our lines under their numbers and dates; one sum 100,00 off.
	th := reconcile.Theirs{Act: reconcile.Act{Ours: ours.Ours, Theirs: ours.Theirs, From: ours.From, To: ours.To, Opening: ours.Opening},
		HasOpening: true, HasClosing: true, Stated: true}
	for i, ln := range ours.Lines {
		ln.Own = ""
		if i == 3 {
			ln.Credit += 100_00
		}
		th.Lines = append(th.Lines, ln)
	}
	dr, cr := th.Turnovers()
	th.Closing = th.Opening + dr - cr
	c, err := reconcile.Compare(ours, th)
	if err != nil {
		t.Fatal(err)
	}
	byNumber := 0
	for _, pr := range c.Pairs {
		if pr.How == "number" || pr.How == "number_off" {
			byNumber++
		}
	}
	if len(c.Diffs) != 1 || c.Diffs[0].Kind != reconcile.DiffSum || c.Diffs[0].Effect != 100_00 {
		t.Errorf("differences: %+v, want one sum 100,00 off", c.Diffs)
	}
	if byNumber != len(ours.Lines) {
		t.Errorf("%d of %d lines matched by number", byNumber, len(ours.Lines))
	}
	t.Logf("%d lines: %d under the incoming number, %d under ours; %d matched by number", len(ours.Lines), incoming, fallback, byNumber)
}
