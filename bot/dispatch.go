package bot

import (
	"context"
	"sync"
)

// maxQueuedPerChat bounds the messages waiting in one conversation; the flood guard normally
// keeps queues far shorter.
const maxQueuedPerChat = 64

// conversation is what the dispatcher keeps in order: a private chat, or one member of a
// group. Members' questions are independent (each has their own dialog, and each reply quotes
// its question), so one member's answer waiting for the send budget does not hold up the next
// member's. What changes the group's shared document library (uploads, /docs and its buttons)
// stays in the group's own order: two uploads at once could both pass the duplicate and quota
// checks.
type conversation struct{ chatID, userID int64 }

func conversationOf(in incoming) conversation {
	if in.group && in.file == nil && in.command != "docs" && in.command != "doc" {
		return conversation{in.chatID, in.userID}
	}
	return conversation{chatID: in.chatID}
}

// dispatcher runs the messages of one conversation in order, different conversations
// concurrently. Every worker goroutine is owned: wait returns when all have exited.
type dispatcher struct {
	run func(ctx context.Context, in incoming)

	mu     sync.Mutex
	queues map[conversation][]incoming
	wg     sync.WaitGroup
}

func newDispatcher(run func(ctx context.Context, in incoming)) *dispatcher {
	return &dispatcher{run: run, queues: make(map[conversation][]incoming)}
}

// submit queues in behind earlier messages of its conversation. ctx is the workers' context:
// it is what shutdown cancels when answers take too long. It reports false when the
// conversation's queue is full and the message was dropped.
func (d *dispatcher) submit(ctx context.Context, in incoming) bool {
	c := conversationOf(in)
	d.mu.Lock()
	defer d.mu.Unlock()
	q, running := d.queues[c]
	if len(q) >= maxQueuedPerChat {
		return false
	}
	d.queues[c] = append(q, in)
	if !running {
		d.wg.Add(1)
		go d.work(ctx, c)
	}
	return true
}

// dropPending removes the queued (not yet running) messages of in's user in its conversation:
// /cancel means "stop", not "stop this one and start the next".
func (d *dispatcher) dropPending(in incoming) int {
	c := conversationOf(in)
	d.mu.Lock()
	defer d.mu.Unlock()
	q, ok := d.queues[c]
	if !ok || len(q) == 0 {
		return 0
	}
	// q[0] is the message being handled; keep it.
	kept := q[:1]
	for _, m := range q[1:] {
		if m.userID != in.userID {
			kept = append(kept, m)
		}
	}
	n := len(q) - len(kept)
	d.queues[c] = kept
	return n
}

func (d *dispatcher) work(ctx context.Context, c conversation) {
	defer d.wg.Done()
	for {
		d.mu.Lock()
		q := d.queues[c]
		if len(q) == 0 {
			delete(d.queues, c)
			d.mu.Unlock()
			return
		}
		in := q[0]
		d.mu.Unlock()

		d.run(ctx, in)

		d.mu.Lock()
		d.queues[c] = d.queues[c][1:]
		d.mu.Unlock()
	}
}

// wait blocks until every worker has exited.
func (d *dispatcher) wait() { d.wg.Wait() }

// pending counts queued and running messages.
func (d *dispatcher) pending() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for _, q := range d.queues {
		n += len(q)
	}
	return n
}
