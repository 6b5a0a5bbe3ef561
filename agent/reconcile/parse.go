package reconcile

// Reading the counterparty's own act of reconciliation — a PDF with a text layer or an XLSX, in
// their layout — into an Act turned to our side.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/finbot/finbot/integrations/onec"
	"github.com/finbot/finbot/library/extract"
)

// Theirs is the counterparty's act as read from their file, turned to our side: a line's Debit
// is what increases their debt to us (their credit), its Credit what decreases it (their debit).
type Theirs struct {
	Act
	// Layout is how the act was laid out: LayoutHalves — BP's printed form, their half read;
	// LayoutTable — one table of theirs.
	Layout string
	// Grouped: the lines are month totals (Line.Date the month's first day, Line.Kind its
	// name), not documents; they are compared month by month.
	Grouped bool
	// HasOpening and HasClosing: the act states the balance (else it is derived: the opening as
	// the closing less the turnovers, the closing as the opening plus them).
	HasOpening, HasClosing bool
	// Stated: the act says whose debit its amounts are (BP's halves, «По данным …» over their
	// debit and credit). Otherwise the direction is read from the column names («Сумма прихода»,
	// a signed «Сумма») and the comparison checks it against our documents.
	Stated bool
	// Columns say how each of their columns was read, in their order: «Дата операции — дата»,
	// «Сумма прихода — наш дебет».
	Columns []string
	// Notes are what the reader noticed and the answer repeats: a closing balance that does not
	// follow from their own lines, a debt in the closing words that contradicts the table.
	Notes []string
	// Turnover is their «Обороты за период» turned to our side, when printed.
	Turnover *[2]onec.Kopecks
	// Scanned: read from a photo or a scan by OCR; the answer asks to check its figures.
	Scanned bool `json:",omitempty"`
}

// The layouts of an act.
const (
	LayoutHalves = "halves" // BP's printed form: «По данным <ours>» and «По данным <theirs>» side by side
	LayoutTable  = "table"  // a table of the counterparty's own
)

// ErrUnreadable is an act that could not be read as one: no header, no amounts, halves that
// cannot be told apart, turnovers that do not add up. Its message (UserMessage) says in Russian
// what is missing.
var ErrUnreadable = errors.New("reconcile: the counterparty's act is unreadable")

// ErrNotAct is a file that is no act of reconciliation («Акт сверки» nowhere in it).
var ErrNotAct = errors.New("reconcile: not an act of reconciliation")

// readError is a refusal with the Russian sentence that explains it.
type readError struct {
	kind error
	msg  string
}

func (e *readError) Error() string { return e.kind.Error() + ": " + e.msg }
func (e *readError) Unwrap() error { return e.kind }

func unreadable(format string, args ...any) error {
	return &readError{kind: ErrUnreadable, msg: fmt.Sprintf(format, args...)}
}

// UserMessage is the Russian explanation of an error of Parse: what is missing in the act, why
// the file could not be read; "" for an error that is not the file's (the caller's context).
func UserMessage(err error) string {
	var re *readError
	switch {
	case err == nil:
		return ""
	case errors.As(err, &re):
		return re.msg
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, extract.ErrTooLarge):
		return ""
	}
	return extract.UserMessage(err)
}

// ParseOptions tell the reader what it cannot know from the file.
type ParseOptions struct {
	// Ours are our organizations: the half of BP's form that names one of them is ours, the
	// other theirs; the heading's other party is the counterparty.
	Ours []Party
	// Limits bound the reading of the file (those of uploaded documents).
	Limits extract.Limits
	// Now reads a period named without a year in the heading; time.Now when nil.
	Now func() time.Time
}

// Parse reads the counterparty's act from a PDF with a text layer or an XLSX (name is the file's
// name, for its format), in their layout: the header found by meaning, their half of BP's form,
// their debit our credit. An act it cannot read whole is ErrUnreadable (or extract's refusal for
// the file itself), never a guess; UserMessage says what is missing.
func Parse(ctx context.Context, name string, data []byte, o ParseOptions) (Theirs, error) {
	l, err := extract.ReadLayout(ctx, name, data, o.Limits)
	if err != nil {
		return Theirs{}, fmt.Errorf("reconcile: read %s: %w", name, err)
	}
	return parseLayout(l, o)
}

// isActLayout reports whether one of the layout's tables is titled as an act.
func isActLayout(l extract.Layout) bool {
	for _, g := range grids(l) {
		if titled(l.Title, g) {
			return true
		}
	}
	return false
}

// parseLayout reads the first table of the layout that holds an act.
func parseLayout(l extract.Layout, o ParseOptions) (Theirs, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	var first error
	for _, g := range grids(l) {
		if !titled(l.Title, g) {
			continue
		}
		t, err := parseGrid(g, o)
		if err == nil {
			t.Scanned = g.scan
			return t, nil
		}
		if first == nil {
			first = err
		}
	}
	if first != nil {
		return Theirs{}, first
	}
	return Theirs{}, &readError{kind: ErrNotAct, msg: "Это не похоже на акт сверки: в файле нет заголовка «Акт сверки». Пришлите акт сверки в PDF, XLSX, DOCX или фото."}
}
