package onec

import (
	"sync"

	"github.com/finbot/finbot/integrations/onec/qlang"
)

// The demo base reads a template the way 1C would: it parses the text (qlang), refuses tables
// and document fields that BP 3.0 lacks, and then runs the text itself (eval*.go) with 1C's
// Null semantics. So a template that would return nothing, fail or drop rows on a real base
// does the same here.

// checkedTemplates caches the parse and the static checks of each whitelisted text.
var checkedTemplates sync.Map // *template → checked

type checked struct {
	b   *qlang.Batch
	err error
}

// prepare parses a query text and checks it against the demo base (tables, document fields,
// order); the whitelisted texts are prepared once.
func prepare(t *template, text string) (*qlang.Batch, error) {
	if text == t.text {
		if c, ok := checkedTemplates.Load(t); ok {
			return c.(checked).b, c.(checked).err
		}
	}
	b, err := check(text)
	if text == t.text {
		checkedTemplates.Store(t, checked{b, err})
	}
	return b, err
}

func check(text string) (*qlang.Batch, error) {
	b, err := qlang.Parse(text)
	if err != nil {
		return nil, &QueryError{Message: "Синтаксическая ошибка: " + err.Error()}
	}
	if err := checkTables(b); err != nil {
		return nil, err
	}
	if err := checkDocumentFields(b); err != nil {
		return nil, err
	}
	return b, nil
}
