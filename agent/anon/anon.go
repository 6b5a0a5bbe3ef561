// Package anon keeps the company's identifiers from an external LLM. Every text the LLM client
// sends — the planner's request and its repair, the answer model's facts and passages, the
// history and summary they carry, query expansions, small talk, texts for embeddings — passes
// through Guard (it is the client's llm.Guard, so no call can go round it): counterparty and
// person names, our organizations, ИНН, КПП, ОГРН, bank accounts, card numbers and contracts'
// numbers are replaced with placeholders («[КОНТРАГЕНТ_1]», «[ИНН_2]») that are stable over one
// answer (Session), and the reply's placeholders are restored before the post-check reads it.
// Names are found as the understanding step reads them (the 1C catalogs, inflected and
// misspelt forms included), numbers by their patterns and checksums.
//
// Voice never passes here: recordings go only to the transcription service the operator
// configured (TRANSCRIBE_*), and the text it returns is a message like any other.
package anon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"slices"
	"strings"

	"github.com/finbot/finbot/agent/recipe"
	"github.com/finbot/finbot/integrations/llm"
)

// Mode is what the guard does with identifiers (LLM_ANONYMIZE).
type Mode string

// The modes.
const (
	// ModeMask replaces identifiers with placeholders and restores them in the reply (default).
	ModeMask Mode = "mask"
	// ModeLog sends texts as they are, and logs what would have been masked: counts by kind,
	// never the values.
	ModeLog Mode = "log"
	// ModeBlock masks, and refuses to send a request that still holds something that looks like
	// an identifier (a run of ten digits or more, a name after a legal form): the answer is
	// then given as without an LLM.
	ModeBlock Mode = "block"
	// ModeOff sends texts as they are: for an LLM the company runs itself. Set explicitly.
	ModeOff Mode = "off"
)

// Modes are the valid modes.
func Modes() []Mode { return []Mode{ModeMask, ModeLog, ModeBlock, ModeOff} }

// ErrBlocked marks a request refused in ModeBlock.
var ErrBlocked = errors.New("anon: the request still holds an identifier after masking")

// Options configure a Guard.
type Options struct {
	Mode Mode // "" is ModeMask
	// Catalogs, when set, are the catalogs whose names are masked in every text besides the
	// requester's own (those come with the Session): the installation's 1C base, so that a
	// user without access to 1C, an upload's embeddings or a digest are masked too. nil = the
	// session's catalogs and the patterns only.
	Catalogs func(ctx context.Context) *recipe.Catalogs
	Logger   *slog.Logger
}

// Guard is the anonymiser the LLM clients send through (llm.Options.Guard). It is safe for
// concurrent use.
type Guard struct {
	mode     Mode
	catalogs func(ctx context.Context) *recipe.Catalogs
	log      *slog.Logger
}

var _ llm.Guard = (*Guard)(nil)

// New returns a guard; an unknown mode is an error.
func New(o Options) (*Guard, error) {
	if o.Mode == "" {
		o.Mode = ModeMask
	}
	if !slices.Contains(Modes(), o.Mode) {
		return nil, fmt.Errorf("anon: unknown mode %q (want mask, log, block or off)", o.Mode)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Guard{mode: o.Mode, catalogs: o.Catalogs, log: o.Logger}, nil
}

// Mode is the guard's mode.
func (g *Guard) Mode() Mode { return g.mode }

// Outgoing masks texts under the session of ctx (a session of this call alone without one),
// as the mode says, and returns the restore of the reply.
func (g *Guard) Outgoing(ctx context.Context, p llm.Purpose, texts []string) ([]string, func(string) (string, error), error) {
	if g.mode == ModeOff {
		return texts, nil, nil
	}
	s := sessionFrom(ctx)
	if s == nil {
		s = NewSession(nil)
	}
	dicts := g.dictionaries(ctx, s)
	if p == llm.Embedding {
		// Vectors of a document and of a question must agree whatever else the answer masked:
		// an embedded text gets the kind alone, «[КОНТРАГЕНТ]», the same in every request;
		// the lexical half of the search still matches the names themselves.
		s = NewSession(nil)
	}
	sent := make([]string, len(texts))
	total := Counts{}
	for i, t := range texts {
		var c Counts
		sent[i], c = s.mask(t, dicts)
		for k, n := range c {
			total[k] += n
		}
	}
	if p == llm.Embedding {
		for i := range sent {
			sent[i] = kindOnly(sent[i])
		}
	}
	switch g.mode {
	case ModeLog:
		if total.Total() > 0 {
			g.log.InfoContext(ctx, "anonymiser (log mode): identifiers sent to the LLM unmasked", countAttrs(p, total)...)
		}
		return texts, nil, nil
	case ModeBlock:
		for _, t := range sent {
			if residue(t) {
				g.log.WarnContext(ctx, "anonymiser (block mode): request refused, an identifier is left after masking", countAttrs(p, total)...)
				return nil, nil, ErrBlocked
			}
		}
	}
	if total.Total() > 0 {
		g.log.DebugContext(ctx, "anonymiser: identifiers masked", countAttrs(p, total)...)
	}
	if p == llm.Embedding {
		return sent, nil, nil
	}
	inJSON := p == llm.ChatJSON
	return sent, func(reply string) (string, error) { return s.Restore(reply, inJSON) }, nil
}

// dictionaries are the session's catalogs' and the installation's.
func (g *Guard) dictionaries(ctx context.Context, s *Session) []*Dictionary {
	var out []*Dictionary
	if d := s.dictionary(); d != nil {
		out = append(out, d)
	}
	if g.catalogs != nil {
		if d := DictionaryOf(g.catalogs(ctx)); d != nil && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// countAttrs are the log attributes of counts: kinds and numbers, never values.
func countAttrs(p llm.Purpose, c Counts) []any {
	attrs := []any{"purpose", purposeName(p), "identifiers", c.Total()}
	for _, k := range kinds {
		if c[k] > 0 {
			attrs = append(attrs, strings.ToLower(string(k)), c[k])
		}
	}
	return attrs
}

func purposeName(p llm.Purpose) string {
	switch p {
	case llm.ChatJSON:
		return "chat_json"
	case llm.Embedding:
		return "embedding"
	}
	return "chat"
}

// labelNumber is the number of a placeholder's label.
var labelNumber = regexp.MustCompile(`\[(` + kindAlternatives() + `)_\d+\]`)

// kindOnly writes every placeholder of s as its kind alone.
func kindOnly(s string) string { return labelNumber.ReplaceAllString(s, "[$1]") }

// residueDigits and residueName are what block mode refuses to send after masking: a run of
// ten digits or more (an ИНН with a wrong check digit, an account written oddly, a passport),
// a name in quotes after a legal form that the patterns did not take.
var (
	residueDigits = regexp.MustCompile(`\d{10,}`)
	residueName   = regexp.MustCompile(`(?:^|[^\p{L}])(?:ООО|АО|ПАО|ЗАО|ОАО)\s*[«"“„]\s*[^\[\s«"“„]`)
)

// residue reports whether a masked text still holds something that looks like an identifier.
func residue(s string) bool { return residueDigits.MatchString(s) || residueName.MatchString(s) }
