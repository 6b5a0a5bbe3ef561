package bot

import (
	"context"
	"sync"
)

// maxQueuedPerChat bounds the messages waiting in one chat; the flood guard normally keeps
// queues far shorter.
const maxQueuedPerChat = 64

// dispatcher runs messages of one chat in order, different chats concurrently. Every worker
// goroutine is owned: wait returns when all have exited.
type dispatcher struct {
	run func(ctx context.Context, in incoming)

	mu     sync.Mutex
	queues map[int64][]incoming
	wg     sync.WaitGroup
}

func newDispatcher(run func(ctx context.Context, in incoming)) *dispatcher {
	return &dispatcher{run: run, queues: make(map[int64][]incoming)}
}

// submit queues in behind earlier messages of its chat. ctx is the workers' context: it is
// what shutdown cancels when answers take too long. It reports false when the chat's queue
// is full and the message was dropped.
func (d *dispatcher) submit(ctx context.Context, in incoming) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	q, running := d.queues[in.chatID]
	if len(q) >= maxQueuedPerChat {
		return false
	}
	d.queues[in.chatID] = append(q, in)
	if !running {
		d.wg.Add(1)
		go d.work(ctx, in.chatID)
	}
	return true
}

// dropPending removes the queued (not yet running) messages of a user in a chat: /cancel
// means "stop", not "stop this one and start the next".
func (d *dispatcher) dropPending(chatID, userID int64) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	q, ok := d.queues[chatID]
	if !ok || len(q) == 0 {
		return 0
	}
	// q[0] is the message being handled; keep it.
	kept := q[:1]
	for _, in := range q[1:] {
		if in.userID != userID {
			kept = append(kept, in)
		}
	}
	n := len(q) - len(kept)
	d.queues[chatID] = kept
	return n
}

func (d *dispatcher) work(ctx context.Context, chatID int64) {
	defer d.wg.Done()
	for {
		d.mu.Lock()
		q := d.queues[chatID]
		if len(q) == 0 {
			delete(d.queues, chatID)
			d.mu.Unlock()
			return
		}
		in := q[0]
		d.mu.Unlock()

		d.run(ctx, in)

		d.mu.Lock()
		d.queues[chatID] = d.queues[chatID][1:]
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
