// Package general is the skill of a plan that no one skill answers whole: calls to several
// sources, run by the executor over the other skills' tools, their facts phrased by the answer
// LLM under the post-check — or rendered as they are, without an LLM or when its wording fails
// the check.
package general

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/finbot/finbot/agent/executor"
	"github.com/finbot/finbot/agent/phrase"
	"github.com/finbot/finbot/agent/render"
	"github.com/finbot/finbot/agent/skill"
)

// Unreachable is the reply when every source of a plan failed.
const Unreachable = "Источники данных сейчас не отвечают, поэтому ответить не могу. Попробуйте через несколько минут."

// Options configure the skill.
type Options struct {
	// Tools are the planner's tools this installation serves, each bound to q's scope (the
	// agent builds them from its table of meanings: a skill imports no other skill).
	Tools func(q skill.Query) executor.Registry
	// Writer is the answer LLM; nil or without an LLM, the facts are rendered as they are.
	Writer       *phrase.Writer
	MaxToolCalls int
	ToolTimeout  time.Duration
	Logger       *slog.Logger
}

// Skill answers plans of several sources.
type Skill struct {
	skill.NoTools
	o Options
}

// New builds the skill.
func New(o Options) *Skill {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Skill{o: o}
}

// Answer runs q.Plan's calls and answers from their facts. When no call found anything, a call
// that failed with an answer of its own (1C asks for a choice, the user may not see 1C) gives
// the reply; otherwise the user is told the sources are down or hold nothing. The trace keeps the
// executor's records and why it stopped early.
func (s *Skill) Answer(ctx context.Context, q skill.Query) (skill.Reply, error) {
	if q.Plan == nil {
		return skill.Reply{Unanswered: true}, nil
	}
	p := *q.Plan
	res := executor.Run(ctx, p, s.o.Tools(q), executor.Options{MaxToolCalls: s.o.MaxToolCalls, CallTimeout: s.o.ToolTimeout})
	if ctx.Err() != nil {
		return skill.Reply{}, ctx.Err()
	}
	for _, err := range res.Errors {
		s.o.Logger.WarnContext(ctx, "tool failed", "err", err)
	}
	rep := skill.Reply{Calls: res.Calls(), Trace: skill.Trace{"records": res.Records}}
	if res.Trigger != "" {
		rep.Trace["fallback_trigger"] = res.Trigger
	}
	if !res.Facts.Found {
		for _, err := range res.Errors {
			if own := (*skill.Answered)(nil); errors.As(err, &own) {
				r := own.Reply
				r.Calls, r.Trace = rep.Calls, rep.Trace
				return r, nil
			}
		}
		if len(res.Errors) > 0 {
			rep.Degraded = append(rep.Degraded, "tools_failed")
		}
		rep.Text = render.NotFound
		if res.Failed() {
			rep.Text = Unreachable
		}
		return rep, nil
	}
	style, _ := render.ParseStyle(string(p.RenderStyle))
	limits := render.Limits{MaxItems: p.Limits.MaxItems, MaxGroups: p.Limits.MaxGroups, MaxParagraphs: p.Limits.MaxParagraphs}
	text, how, checks, degraded := s.o.Writer.Facts(ctx, q.Progress, q.Text, q.Summary, res.Facts, style, limits)
	if ctx.Err() != nil {
		return skill.Reply{}, ctx.Err()
	}
	rep.Text, rep.Sources, rep.Wording, rep.PostCheck = text, slices.Clone(res.Facts.Sources), how, checks
	if degraded != "" {
		rep.Degraded = append(rep.Degraded, degraded)
	}
	return rep, nil
}
