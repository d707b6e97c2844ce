package sqlite

import (
	"database/sql/driver"
	"fmt"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/internal/groupcommit"
)

// The appends of a batch share their INSERTs: each append that takes the fast path is
// sealed, its rows are added to the pending statement, and the writer's state (the head,
// the tails, touched, marks) moves past it as if it were stored, so that the next append
// chains on it. The statement runs when the next append would not fit in maxRows rows,
// before an append that needs statements of its own (the slow path, a long append), and
// at the end of the batch: a move a transaction, 20 appends of one event, is one INSERT
// where it was 20.
//
// A shared INSERT that fails on a constraint (an append reusing a stored ID, or an ID
// twice in the statement) is undone by SQLite alone, as a per-append INSERT was, but it
// undoes every pending append, not only the one at fault. So the writer puts its state
// back where it was before the first of them and runs them again one by one on the
// per-append path, which decides each exactly as it did when every append had its own
// statement: the others land, the faulty one goes to sqlstore.Append. Nothing else ran
// in between but reads and streamTail's rows in streams, which the per-append path would
// have added too, before its INSERT failed, and which a tail read from the file finds.

// pending is the appends whose rows wait for a shared INSERT, and the writer's state
// before the first of them.
type pending struct {
	appends  []pendingAppend
	args     []driver.NamedValue // their rows', in the order of insertColumns
	rows     int
	head     int64
	headHash string
	marks    int // len(w.marks)
}

// pendingAppend is an append whose rows are pending, and what its stream's entry in
// touched was before it.
type pendingAppend struct {
	req    *groupcommit.Request
	stream string
	had    bool
	was    touched
}

// reset forgets the pending appends, and their rows so as not to keep the payloads.
func (p *pending) reset() {
	clear(p.args)
	p.args, p.rows = p.args[:0], 0
	clear(p.appends)
	p.appends = p.appends[:0]
}

// buffer appends r to the pending rows and answers it, if r is short and its expected
// version matches its stream's tail, and reports whether it did: if not, r is for the
// per-append path. An error of the transaction (w.broken) also answers r.
func (w *writer) buffer(r *groupcommit.Request) bool {
	n := len(r.Events)
	if n > maxRows {
		return false
	}
	p := &w.pending
	if p.rows+n > maxRows {
		if w.flush(); w.broken != nil {
			return true
		}
	}
	t, err := w.tail(r.Stream)
	if err != nil {
		r.Result, r.Err = eventstore.AppendResult{}, err
		return true
	}
	if eventstore.CheckExpected(r.Stream, r.Expected, t.version) != nil {
		return false
	}
	sealed := eventstore.Seal(r.Stream, t.version, t.hash, w.head+1, w.headHash, w.now, r.Events)
	if t, err = w.streamTail(r.Stream); err != nil {
		r.Result, r.Err = eventstore.AppendResult{}, err
		return true
	}
	if len(p.appends) == 0 {
		p.head, p.headHash, p.marks = w.head, w.headHash, len(w.marks)
	}
	was, had := w.touched[r.Stream]
	p.appends = append(p.appends, pendingAppend{r, r.Stream, had, was})
	prev := t.position
	for _, e := range sealed {
		p.args = w.rows.append(p.args, p.rows, e, t.stream, prev)
		p.rows++
		prev = e.Position
	}
	w.advance(sealed, t)
	r.Result, r.Err = eventstore.Result(sealed, false), nil
	return true
}

// flush runs the pending rows' INSERT. If it fails on a constraint, the pending appends
// are run again one by one (see the top of this file); on any other failure the
// transaction is broken.
func (w *writer) flush() {
	p := &w.pending
	if len(p.appends) == 0 {
		return
	}
	stmt, err := w.inserts.get(w, p.rows)
	if err == nil {
		_, err = w.raw.exec(stmt, p.args)
	}
	if err != nil && !isConstraint(err) {
		w.fail(fmt.Errorf("insert events: %w", err))
	}
	if err == nil || w.broken != nil {
		p.reset()
		return
	}
	// Undone in reverse order, so that a stream appended to twice gets its entry from
	// before the first.
	for i := len(p.appends) - 1; i >= 0; i-- {
		a := p.appends[i]
		if a.had {
			w.touched[a.stream] = a.was
		} else {
			delete(w.touched, a.stream)
		}
		// The cache holds the tail after the append, or streamTail's ID of a new
		// stream: the file has the latter, and a stream in touched does not use it.
		w.tails.drop(a.stream)
	}
	w.head, w.headHash, w.marks = p.head, p.headHash, w.marks[:p.marks]
	appends := p.appends
	p.appends = nil // kept apart while they run again: append does not buffer
	p.reset()
	for _, a := range appends {
		r := a.req
		if r.Result, r.Err = w.append(r.Stream, r.Expected, r.Events, w.now); w.broken != nil {
			break
		}
	}
	clear(appends)
	p.appends = appends[:0]
}
