package sqlite

import (
	"context"
	"database/sql"
	"sync/atomic"
)

// A checkpoint copies the pages the WAL holds into the main file and flushes it. Left to
// itself, SQLite runs one inside the COMMIT that takes the WAL past wal_autocheckpoint
// pages: one transaction in a few hundred took 15 to 40 ms more (docs/benchmarks.md),
// and every append waiting behind it too. Here the writer's connection leaves that to
// the checkpointer, which copies the WAL on its own connection while the writer goes on
// committing (SQLite lets a PASSIVE checkpoint run alongside a writer). SQLite writes
// the WAL from its start again only once every frame in it has been copied, which a
// copy alongside a writer that never pauses does not reach: the index pages that a pass
// copies, the writer dirties again meanwhile. So the checkpointer passes again over what
// was committed during its last pass, until a pass had little to copy, and then the
// writer copies the rest at its next pause between two transactions: the frames of the
// few milliseconds since the last pass, not the whole WAL. Its next transaction starts
// the WAL over.
//
// Durability is unchanged: a checkpoint only copies what the WAL already holds durably,
// flushes the main file before it records how far it copied (every connection is
// synchronous=FULL), and the WAL is written over only after that.

const (
	// checkpointEvery is how many events the writer commits between two background
	// passes: 5,000 to 10,000 pages of WAL (20 to 40 MB) at the batch sizes of
	// docs/benchmarks.md, as many as the writer checkpointed at before. A pass copies
	// each page once however often it changed, so fewer passes copy less: at 2048,
	// the process took about 10 % more CPU per move.
	checkpointEvery = 4096
	// walPages bounds the WAL (in pages, 24000 is 94 MiB) if the passes fall behind or
	// readers keep them from finishing: past it the writer's COMMIT checkpoints by
	// itself, as SQLite does by default (at 1000 pages).
	walPages = 24000
	// settledFrames is what a background pass may leave for the writer to copy: once a
	// pass copied no more than this many frames, the next would not be much shorter.
	settledFrames = 256
	// maxPasses bounds the passes of one request, should the writer outpace them.
	maxPasses = 4
)

// checkpointer runs PASSIVE checkpoints on its own connection when the writer asks.
type checkpointer struct {
	db      *sql.DB
	kick    chan struct{} // one request waiting at most: requests made during a pass merge
	stopped chan struct{}
	due     atomic.Bool // the last pass copied every frame it saw: the writer copies the rest
	every   int         // checkpointEvery, but in tests
	pending int         // events committed since the last request; the writer goroutine's
}

func startCheckpointer(db *sql.DB, every int) *checkpointer {
	c := &checkpointer{db: db, kick: make(chan struct{}, 1), stopped: make(chan struct{}), every: every}
	go c.run()
	return c
}

// committed is called by the writer goroutine after each commit of events events. It
// never blocks: if a pass is already requested, the request stands for both.
func (c *checkpointer) committed(events int) {
	c.pending += events
	if c.pending < c.every {
		return
	}
	c.pending = 0
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// finish is called by the writer goroutine on its own connection between two
// transactions: after a batch when no append is waiting, and before a batch. After a
// complete background pass it copies the frames committed since, so that the next
// transaction writes the WAL from its start; the sooner, the fewer. A failure loses
// nothing: the frames are copied by a later pass.
func (c *checkpointer) finish(ctx context.Context, conn *sql.Conn) {
	if c.due.Load() {
		_, _ = conn.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`)
		c.due.Store(false)
	}
}

func (c *checkpointer) run() {
	defer close(c.stopped)
	for range c.kick {
		// While the writer has yet to finish, a pass would only take the lock that its
		// checkpoint needs (SQLite runs one checkpoint at a time; the other gives up).
		if !c.due.Load() && c.passes() {
			c.due.Store(true)
		}
	}
}

// passes runs PASSIVE checkpoints until one copies at most settledFrames frames, and
// reports whether the last one copied every frame the WAL held when it started. A
// failed or partial pass (SQLITE_BUSY while the writer's checkpoint runs, readers on
// old snapshots) loses nothing and leaves its frames to the next request.
func (c *checkpointer) passes() bool {
	before := 0 // frames copied before this pass, counted from the WAL's start
	for range maxPasses {
		var busy, frames, copied int
		err := c.db.QueryRow(`PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &frames, &copied)
		if err != nil || busy != 0 || frames <= 0 || copied != frames {
			return false
		}
		// copied < before: the writer's own checkpoint started the WAL over meanwhile.
		if copied-before <= settledFrames {
			return true
		}
		before = copied
	}
	return true
}

// close waits for the pass in progress, if any, and closes the connection. The writer
// must have stopped: it is the only one to send requests.
func (c *checkpointer) close() error {
	close(c.kick)
	<-c.stopped
	return c.db.Close()
}
