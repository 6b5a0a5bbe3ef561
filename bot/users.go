package bot

import (
	"context"
	"sync"
)

// userSlots lets each user have one request in flight at a time, and lets /cancel stop it.
type userSlots struct {
	mu    sync.Mutex
	slots map[int64]*userSlot
}

type userSlot struct {
	sem     chan struct{} // capacity 1: held while a request runs
	cancel  context.CancelCauseFunc
	holders int // requests running or waiting; the slot is dropped at zero
	// sending: the running request's answer is ready and being delivered — there is nothing
	// left to stop.
	sending bool
	// draftChat and draftID name the native draft the running request streams its answer in
	// (0 when none), which a press on the draft's stop button names.
	draftChat int64
	draftID   int
}

func newUserSlots() *userSlots { return &userSlots{slots: make(map[int64]*userSlot)} }

// acquire waits for the user's turn and returns a context that /cancel cancels.
func (u *userSlots) acquire(ctx context.Context, userID int64) (context.Context, func(), error) {
	u.mu.Lock()
	s, ok := u.slots[userID]
	if !ok {
		s = &userSlot{sem: make(chan struct{}, 1)}
		u.slots[userID] = s
	}
	s.holders++
	u.mu.Unlock()

	drop := func() {
		u.mu.Lock()
		s.holders--
		if s.holders == 0 {
			delete(u.slots, userID)
		}
		u.mu.Unlock()
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		drop()
		return nil, nil, ctx.Err()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	u.mu.Lock()
	s.cancel = cancel
	u.mu.Unlock()
	release := func() {
		cancel(nil)
		u.mu.Lock()
		s.cancel, s.sending, s.draftChat, s.draftID = nil, false, 0, 0
		u.mu.Unlock()
		<-s.sem
		drop()
	}
	return ctx, release, nil
}

// sendingAnswer marks the user's running request as delivering its answer: /cancel has nothing
// left to stop.
func (u *userSlots) sendingAnswer(userID int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if s, ok := u.slots[userID]; ok {
		s.sending = true
	}
}

// drafting records that the user's running request streams its answer as the native draft
// draftID in chatID.
func (u *userSlots) drafting(userID, chatID int64, draftID int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if s, ok := u.slots[userID]; ok && s.cancel != nil {
		s.draftChat, s.draftID = chatID, draftID
	}
}

// cancel stops the user's running request; false when nothing runs or its answer is already
// being delivered.
func (u *userSlots) cancel(userID int64) bool {
	return u.cancelIf(userID, func(*userSlot) bool { return true })
}

// cancelDraft stops the user's running request if it streams its answer as the native draft
// draftID in chatID; false otherwise, or when its answer is already being delivered.
func (u *userSlots) cancelDraft(userID, chatID int64, draftID int) bool {
	return u.cancelIf(userID, func(s *userSlot) bool { return s.draftChat == chatID && s.draftID == draftID })
}

func (u *userSlots) cancelIf(userID int64, match func(*userSlot) bool) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	s, ok := u.slots[userID]
	if !ok || s.cancel == nil || s.sending || !match(s) {
		return false
	}
	s.cancel(errCanceled)
	return true
}
