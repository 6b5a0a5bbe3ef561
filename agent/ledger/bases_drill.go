package ledger

import (
	"crypto/sha256"
	"encoding/base32"
	"strings"

	"github.com/finbot/finbot/agent/ledger/runner"
	"github.com/finbot/finbot/agent/skill"
)

// A drilldown button names its recipe, anchor, date and organization by 1C references, not its
// base: pressed after the asker chose another base with /base, it would run there — and two
// bases may well share references (a copy of a base, a test base beside the working one), so
// it could answer silently with the other base's figures. With several bases the skill binds
// each drilldown to the base that answered: its data ends with ":" and the base's tag, and a
// press runs on that base while it is open to the presser, whichever base they use now (the
// answer's footnote names it); a press whose base is not open to them, or data without a tag,
// is stale and runs nowhere. One base: the data of before, untouched.

// baseTagLen is the length of a base's tag in drilldown data: 30 bits of the id's hash, so two
// bases of one installation practically never share one (if they do, a press naming it is
// stale rather than run on either).
const baseTagLen = 6

// baseTag is the tag of base id in drilldown data: lowercase base32 of its hash, never the id
// itself (an operator's channel name may be long or carry ":").
func baseTag(id string) string {
	h := sha256.Sum256([]byte(id))
	return strings.ToLower(base32.StdEncoding.EncodeToString(h[:]))[:baseTagLen]
}

// maxCallbackData is Telegram's bound on callback data, in bytes.
const maxCallbackData = 64

// tagDrill is drilldown data bound to the base tagged tag; "" when it would not fit Telegram's
// bound.
func tagDrill(data, tag string) string {
	out := data + ":" + tag
	if len(out) > maxCallbackData {
		return ""
	}
	return out
}

// drillTag is the tag the skill's drilldowns carry: its base's, "" with one base.
func (s *Skill) drillTag() string {
	if b := s.resultBase(); b != "" {
		return baseTag(b)
	}
	return ""
}

// Why a drilldown press runs nowhere with several bases.
const (
	untaggedDrillText  = "Эта кнопка устарела: по ней не понять, из какой базы 1С был ответ, а показывать цифры другой базы я не стану."
	otherBaseDrillText = "Эта кнопка относится к ответу из базы 1С, которая вам сейчас не открыта, — показывать цифры другой базы я не стану."
)

// drillBase is the skill that answers a drilldown press, and the data for its runner: with
// several bases, the base the data is bound to (if open to the presser) and the data without
// its tag; why is the stale answer's reason when it runs nowhere. With one base, s and data as
// they are.
func (s *Skill) drillBase(q skill.Query, data string) (_ *Skill, _ string, why string) {
	if s.bases == nil || !s.bases.Several() || !runner.IsDrill(data) {
		return s, data, ""
	}
	i := strings.LastIndexByte(data, ':')
	tag := data[i+1:]
	if strings.Count(data, ":") != 6 || len(tag) != baseTagLen {
		return s, "", untaggedDrillText // a button of one base, or of before
	}
	var hits []Base
	for _, b := range s.bases.Allowed(q.UserID, q.ChatID) {
		if baseTag(b.ID) == tag {
			hits = append(hits, b)
		}
	}
	if len(hits) != 1 {
		return s, "", otherBaseDrillText
	}
	c := *s
	c.runner, c.base = hits[0].Runner, hits[0]
	return &c, data[:i], ""
}
