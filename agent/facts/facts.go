// Package facts is the one shape in which every tool hands its results to the rest of the
// answer pipeline: the executor collects it, the renderer formats it, the answer LLM may only
// phrase it, and the post-check verifies the answer against it.
package facts

// Section is a part of the answer context.
type Section string

// The context sections, in the order they are shown.
const (
	General       Section = "General Facts"
	UserDocuments Section = "User Documents"
	KnowledgeBase Section = "Knowledge Base"
	External      Section = "External Data"
)

// Sections lists the sections in display order.
var Sections = []Section{General, UserDocuments, KnowledgeBase, External}

// Field is one labelled value of an item («Сумма»: «1 250 000,00 ₽»), shown in tables and
// bullet details. Values are already formatted for people (exact decimals, Russian dates).
type Field struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Item is one fact.
type Item struct {
	Section Section `json:"section"`
	// Kind says what the fact is: "rate", "key_rate", "news", "passage", "kb_article",
	// "ledger_row", "ledger_total", "fact".
	Kind string `json:"kind"`
	// Title is the short label the fact is about: «USD», «ООО «Альфа»», «Договор поставки № 15».
	Title string `json:"title,omitempty"`
	// Text is the fact as a sentence or a quoted passage; may be empty when Fields say it all.
	Text   string  `json:"text,omitempty"`
	Fields []Field `json:"fields,omitempty"`
	// Group is the heading this item is listed under in GROUPED_BULLETS («Поставщики»).
	Group string `json:"group,omitempty"`
	// Source is the 1-based index of the item's source in Payload.Sources; 0 = none.
	Source int `json:"source,omitempty"`
}

// Source is where facts come from; the answer's footnotes are made from these by code.
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url,omitempty"`
}

// Payload is everything the tools found for one question.
type Payload struct {
	// Found is false when the tools ran and found nothing relevant.
	Found   bool     `json:"found"`
	Items   []Item   `json:"items"`
	Sources []Source `json:"sources"`
	// Coverage is how completely the facts answer the question, 0..1.
	Coverage float64 `json:"coverage"`
	// Limitations are stated with the answer («данные 1С на 31.03.2026, организация …»).
	Limitations []string `json:"limitations,omitempty"`
	// Total is the number of matching items before any limit (for «ещё N»); 0 = len(Items).
	Total int `json:"total,omitempty"`
}

// AddSource appends a source unless an identical one is there, and returns its 1-based index.
func (p *Payload) AddSource(s Source) int {
	for i, have := range p.Sources {
		if have == s {
			return i + 1
		}
	}
	p.Sources = append(p.Sources, s)
	return len(p.Sources)
}

// Merge appends q's items and sources to p, renumbering q's source references.
func (p *Payload) Merge(q Payload) {
	remap := make([]int, len(q.Sources)+1)
	for i, s := range q.Sources {
		remap[i+1] = p.AddSource(s)
	}
	for _, it := range q.Items {
		if it.Source > 0 && it.Source < len(remap) {
			it.Source = remap[it.Source]
		} else {
			it.Source = 0
		}
		p.Items = append(p.Items, it)
	}
	p.Found = p.Found || q.Found
	p.Limitations = append(p.Limitations, q.Limitations...)
	if q.Coverage > p.Coverage {
		p.Coverage = q.Coverage
	}
	if q.Total > 0 || p.Total > 0 {
		p.Total = max(p.Total, len(p.Items)-len(q.Items)) + max(q.Total, len(q.Items))
	}
}

// Count is the number of matching items, limits aside.
func (p Payload) Count() int {
	return max(p.Total, len(p.Items))
}
