package documents

import (
	"context"
	"fmt"
	"strings"

	"github.com/finbot/finbot/agent/facts"
	"github.com/finbot/finbot/agent/md"
	"github.com/finbot/finbot/agent/skill"
	"github.com/finbot/finbot/integrations/docstore"
	"github.com/finbot/finbot/library"
)

// maxClauseCheck and maxClauseCheckChars bound the documents read whole to tell that none of
// them has the clause a question asks for.
const (
	maxClauseCheck      = 5
	maxClauseCheckChars = 4 * FullContextChars
)

// MissingClause is the reply that the documents in scope (selected, else all the owner's;
// only contracts when contractsOnly) have no clause on what question asks about: «В договоре
// «…» нет пункта о неустойке [1].» It is given only when the question names a standard clause
// (library.TopicOf) and none of the documents, read whole, has anything on it: a search that
// found nothing proves nothing. ok is false otherwise, and when there is more to read than
// maxClauseCheck documents or maxClauseCheckChars characters. err is why the documents in
// scope could not be read whole (an owner's list that cannot be read is no documents to check).
func MissingClause(ctx context.Context, lib *library.Library, own string, selected []docstore.Meta, question string,
	contractsOnly bool) (r skill.Reply, ok bool, err error) {
	topic, ok := library.TopicOf(question)
	if !ok {
		return skill.Reply{}, false, nil
	}
	scope := selected
	if len(scope) == 0 {
		all, err := lib.List(ctx, own)
		if err != nil {
			return skill.Reply{}, false, nil
		}
		for _, m := range all {
			if !contractsOnly || library.IsContract(m.Title) {
				scope = append(scope, m)
			}
		}
	}
	chars := 0
	for _, m := range scope {
		chars += m.Chars
	}
	if len(scope) == 0 || len(scope) > maxClauseCheck || chars > maxClauseCheckChars {
		return skill.Reply{}, false, nil
	}
	full, err := lib.Full(ctx, own, IDs(scope))
	if err != nil || len(full) == 0 {
		return skill.Reply{}, false, err
	}
	var named []string
	for i, d := range full {
		text := d.Text
		if text == "" {
			text = joinChunkTexts(d.Chunks)
		}
		if topic.In(text) {
			return skill.Reply{}, false, nil
		}
		r.Sources = append(r.Sources, facts.Source{Title: d.Meta.Title})
		named = append(named, fmt.Sprintf("«%s» [%d]", md.Escape(d.Meta.Title), i+1))
	}
	switch {
	case len(full) > 1:
		r.Text = fmt.Sprintf("Ни в одном из документов — %s — нет пункта %s.", strings.Join(named, ", "), topic.About)
	case library.IsContract(full[0].Meta.Title):
		r.Text = fmt.Sprintf("В договоре %s нет пункта %s.", named[0], topic.About)
	default:
		r.Text = fmt.Sprintf("В документе %s нет пункта %s.", named[0], topic.About)
	}
	return r, true, nil
}

func joinChunkTexts(cs []docstore.Chunk) string {
	texts := make([]string, len(cs))
	for i, c := range cs {
		texts[i] = c.Text
	}
	return strings.Join(texts, "\n\n")
}
