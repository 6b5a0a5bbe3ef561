package load

import (
	"slices"
	"testing"
)

// The mix of a run the size of bench.sh's: every kind of message occurs; a document question
// asks about a document its user sent earlier, a follow-up comes right after a rates question;
// a user sends a document again only after sending all of them.
func TestPopulateMix(t *testing.T) {
	docs := documents()
	p := populate(200, 10, 4, 5, 1, "finbot_load_bot", docs)
	kinds := map[string]int{}
	for _, u := range p.users {
		var sent []*document
		for k, m := range u.msgs {
			kinds[m.scenario]++
			switch m.scenario {
			case "upload":
				if slices.Contains(sent, m.upload) && len(sent) < len(docs) {
					t.Errorf("user %d sends %s again before the others", u.id, m.upload.name)
				}
				if !slices.Contains(m.upload.questions, m.want) {
					t.Errorf("user %d: caption %q is no question about %s", u.id, m.want, m.upload.name)
				}
				sent = append(sent, m.upload)
			case "doc_question":
				if !slices.ContainsFunc(sent, func(d *document) bool { return slices.Contains(d.questions, m.want) }) {
					t.Errorf("user %d asks %q about no document they sent", u.id, m.want)
				}
			case "follow_up":
				if k == 0 || u.msgs[k-1].scenario != "rates" {
					t.Errorf("user %d: follow-up %q not right after a rates question", u.id, m.want)
				}
			}
		}
	}
	for _, sc := range scenarios {
		if kinds[sc.name] == 0 {
			t.Errorf("no %s message in 200 users × 10: %v", sc.name, kinds)
		}
	}
}
