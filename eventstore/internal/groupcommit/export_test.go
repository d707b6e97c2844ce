package groupcommit

import "runtime"

// WaitQueued returns once n requests wait in q's queue. The test that calls it has
// submitted them and holds the writer in a commit, so the count only grows to n.
func WaitQueued(q *Queue, n int) {
	for len(q.requests) < n {
		runtime.Gosched()
	}
}
