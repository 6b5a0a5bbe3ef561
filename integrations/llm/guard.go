package llm

import (
	"context"
	"fmt"
	"strings"
)

// Purpose is what the texts a Guard sees are for.
type Purpose int

// The purposes of texts sent.
const (
	// Chat texts are a chat completion's messages; its reply is restored.
	Chat Purpose = iota
	// ChatJSON texts ask for a JSON reply: what is restored into it is escaped for a JSON string.
	ChatJSON
	// Embedding texts are turned into vectors; nothing comes back to restore.
	Embedding
)

// Guard stands between finbot and the service: every text of every request — chat messages,
// streamed or not, and texts for embeddings — passes through Outgoing before it is sent, and
// every reply through the restore it returns before the caller sees it. It may replace what a
// text holds (placeholders for names and numbers) or refuse the request: the call then fails
// with ErrUnavailable before anything is sent, and the caller answers as without an LLM.
// *anon.Guard satisfies it; a nil Guard sends texts as they are.
type Guard interface {
	Outgoing(ctx context.Context, p Purpose, texts []string) (sent []string, restore func(reply string) (string, error), err error)
}

// outgoing passes msgs through g: the messages to send and the restore of the reply.
func outgoing(ctx context.Context, g Guard, msgs []Message, call Call) ([]Message, func(string) (string, error), error) {
	if g == nil {
		return msgs, nil, nil
	}
	p := Chat
	if call.JSON || len(call.Schema) > 0 {
		p = ChatJSON
	}
	texts := make([]string, len(msgs))
	for i, m := range msgs {
		texts[i] = m.Content
	}
	sent, restore, err := g.Outgoing(ctx, p, texts)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: refused before sending: %w", ErrUnavailable, err)
	}
	out := make([]Message, len(msgs))
	for i, m := range msgs {
		out[i] = Message{Role: m.Role, Content: sent[i]}
	}
	return out, restore, nil
}

// restored is reply after restore; a reply that cannot be restored is unusable (ErrBadResponse).
func restored(reply string, restore func(string) (string, error)) (string, error) {
	if restore == nil {
		return reply, nil
	}
	out, err := restore(reply)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrBadResponse, err)
	}
	return out, nil
}

// settledPart is a streamed text without a placeholder it may still be writing: from an
// opening bracket with no closing one after it, when that is near the end.
func settledPart(text string) string {
	i := strings.LastIndexByte(text, '[')
	if i >= 0 && !strings.Contains(text[i:], "]") && len(text)-i <= maxPlaceholderBytes {
		return text[:i]
	}
	return text
}

// maxPlaceholderBytes bounds a placeholder being written: «[ОРГАНИЗАЦИЯ_123]» is 28 bytes.
const maxPlaceholderBytes = 40
