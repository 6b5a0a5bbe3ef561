package agent

import (
	"context"
	"fmt"

	"github.com/finbot/finbot/agent/ledger"
)

// TextButtonPrefix marks the callback data of a button that asks a question too long for
// Telegram's 64 bytes of callback data («Документы ООО «Северсталь-Логистик» за прошлый
// месяц»): the data is "t:<id>", the question is kept with the chat's button results.
const TextButtonPrefix = "t:"

// maxCallbackData is Telegram's limit on a button's callback data, in bytes.
const maxCallbackData = 64

// bindLongButtons gives every question button whose text does not fit the callback data
// (the front end sends "q:<text>") a kept question instead; when the store fails, such a
// button is left out, as the front end would have dropped it.
func (a *Agent) bindLongButtons(ctx context.Context, req Request, ans *Answer) {
	kept := ans.Buttons[:0]
	for _, b := range ans.Buttons {
		if b.Data != "" || len("q:"+b.Text) <= maxCallbackData {
			kept = append(kept, b)
			continue
		}
		id := ledger.NewID()
		sctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
		err := a.results.Put(sctx, textButtonKey(req, id), []byte(b.Text))
		cancel()
		if err != nil {
			a.log.WarnContext(ctx, "question button not kept", "chat_id", req.ChatID, "err", err)
			ans.Debug.Degraded = append(ans.Debug.Degraded, "buttons_not_kept")
			continue
		}
		b.Data = TextButtonPrefix + id
		kept = append(kept, b)
	}
	ans.Buttons = kept
}

// buttonText is the question a long button asks; false when it is no longer kept (or was
// kept in another chat).
func (a *Agent) buttonText(ctx context.Context, req Request, id string) (string, bool, error) {
	if !ledger.ValidID(id) {
		return "", false, nil
	}
	sctx, cancel := context.WithTimeout(ctx, a.opts.HistoryTimeout)
	defer cancel()
	data, ok, err := a.results.Get(sctx, textButtonKey(req, id))
	if err != nil {
		if ctx.Err() != nil {
			return "", false, ctx.Err()
		}
		return "", false, fmt.Errorf("%w: button question: %w", ErrUnavailable, err)
	}
	return string(data), ok, nil
}

// textButtonKey is a long button's store key, in the chat's scope like resultKey.
func textButtonKey(req Request, id string) string { return fmt.Sprintf("chat:%d:q:%s", req.ChatID, id) }
