package library

import "context"

// Heavy work: building an owner's index (a first question, or one after an upload) and
// adding a file can take much of a process's memory. The library says when it does such work
// for a request to whoever answers the request, through the request's context, like a
// deadline: the bot uses it to tell an update that killed its replica (out of memory, most
// likely in such work) from one whose replica died for another reason, and answers only the
// second again.

// HeavyWatcher is told that heavy work for a request begins; it returns the func that is told
// that the work ended. Work may begin again, or several times at once (a plan's steps run
// concurrently): a HeavyWatcher counts.
type HeavyWatcher func() (end func())

type heavyKey struct{}

// WithHeavyWatcher returns ctx carrying w: heavy work the library does under it tells w.
func WithHeavyWatcher(ctx context.Context, w HeavyWatcher) context.Context {
	return context.WithValue(ctx, heavyKey{}, w)
}

// beginHeavy tells ctx's HeavyWatcher, if it has one, that heavy work begins, and returns the
// func to call when it ends.
func beginHeavy(ctx context.Context) (end func()) {
	if w, ok := ctx.Value(heavyKey{}).(HeavyWatcher); ok && w != nil {
		return w()
	}
	return func() {}
}
