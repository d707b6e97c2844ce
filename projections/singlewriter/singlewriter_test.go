package singlewriter_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/memstore"
	"github.com/arbiter-games/arbiter/eventstore/postgres"
	"github.com/arbiter-games/arbiter/internal/pgtest"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/projections/singlewriter"
)

// connect opens a connection of the test's own, closed when the test ends.
func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

var games = game.NewRegistry(classic.Rules{})

// The tests' lease: short, so that a takeover after a hang comes soon, and renewed ten
// times over, so that a loaded machine does not make a live holder miss it.
const (
	testLease = 5 * time.Second
	testRenew = 500 * time.Millisecond
)

func ratingsWriter(t testing.TB, url, readSchema, node string, store eventstore.Store, committed func(epoch, position int64), opts ...func(*singlewriter.Config)) *singlewriter.Writer {
	t.Helper()
	cfg := singlewriter.Config{
		URL: url, Schema: readSchema, Store: store, Node: node, Retry: 50 * time.Millisecond, Committed: committed,
		Lease: testLease, Renew: testRenew,
		New: func() singlewriter.Model { return singlewriter.NewRatings(games) },
	}
	for _, o := range opts {
		o(&cfg)
	}
	w, err := singlewriter.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// players of the rated matches: match i is players[i%4] (white) against
// players[(i+1)%4], and white resigns in every other match.
var players = []string{"ann", "bob", "cid", "dee"}

// playRated plays n more rated chess matches to a result, from match number first: both
// sides make a first move (a match over before that is aborted and rates nobody), then
// one side resigns.
func playRated(t *testing.T, eng *engine.Engine, first, n int) {
	t.Helper()
	ctx := context.Background()
	for i := first; i < first+n; i++ {
		white, black := players[i%4], players[(i+1)%4]
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: classic.ID, Rated: true, By: white}, engine.Meta{CommandID: fmt.Sprint("create-", i)})
		if err != nil {
			t.Fatal(err)
		}
		for seat, p := range []string{white, black} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: p, Name: p, Seat: &seat}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		for _, mv := range []struct{ who, uci string }{{white, "e2e4"}, {black, "e7e5"}} {
			if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: mv.who, Do: game.Move{Notation: mv.uci}}, engine.Meta{}); err != nil {
				t.Fatal(err)
			}
		}
		loser := white
		if i%2 == 1 {
			loser = black
		}
		if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: loser}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
}

// checkpoint is the model's row: its position and holder.
func checkpoint(t *testing.T, conn *pgx.Conn, schema string) (int64, string) {
	t.Helper()
	var (
		pos    int64
		holder string
	)
	err := conn.QueryRow(context.Background(), `SELECT position, holder FROM `+pgx.Identifier{schema, "checkpoints"}.Sanitize()+` WHERE model = 'ratings'`).Scan(&pos, &holder)
	if err != nil && !strings.Contains(err.Error(), "does not exist") && !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	return pos, holder
}

// waitFor polls the checkpoint row until holder ("" for any) has written up to the
// store's head. It ends at the deadline: a writer that never gets there fails the test.
func waitFor(t *testing.T, url, schema, holder string, store eventstore.Store) {
	t.Helper()
	head, err := store.HeadPosition(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, url)
	deadline := time.Now().Add(30 * time.Second)
	for {
		pos, h := checkpoint(t, conn, schema)
		if pos == head && (h == holder || holder == "" && h != "") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s the checkpoint is %d held by %q, want %d held by %q", pos, h, head, holder)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkTable: the table holds exactly what the ratings folded from the whole store hold,
// every event counted once, whichever node counted it.
func checkTable(t *testing.T, url, schema string, store eventstore.Store, matches int) {
	t.Helper()
	ctx := context.Background()
	want := projections.NewRatings(games)
	if err := projections.Rebuild(ctx, store, nil, want); err != nil {
		t.Fatal(err)
	}
	conn := connect(t, url)
	board, err := singlewriter.Leaderboard(ctx, conn, schema, classic.ID, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(board) != len(players) {
		t.Fatalf("the leaderboard has %d rows, want %d", len(board), len(players))
	}
	// The table's leaderboard is the fold's, row for row and in the same order: what a
	// node's API answers (projections.Ratings.Leaderboard) is what the table holds.
	folded := want.Leaderboard(classic.ID, 100)
	if len(folded) != len(board) {
		t.Fatalf("the table's leaderboard has %d rows, the fold's %d", len(board), len(folded))
	}
	games := 0
	for i, e := range board {
		w := folded[i]
		if e.Player != w.Player || e.Games != w.Games || e.Wins != w.Wins || e.Losses != w.Losses || e.Draws != w.Draws || math.Abs(e.Rating.Rating-w.Rating.Rating) > 1e-9 {
			t.Errorf("row %d: table %+v, folded from the store %+v", i, e, w)
		}
		if i > 0 && board[i-1].Rating.Rating < e.Rating.Rating {
			t.Errorf("the leaderboard is not sorted: %v", board)
		}
		games += e.Games
	}
	if games != 2*matches {
		t.Fatalf("the table counts %d games for %d matches of two players", games, matches)
	}
}

// fixture makes a store and a read schema of the test's own, and plays n rated matches.
func fixture(t *testing.T, n int) (url, storeSchema, readSchema string, store *postgres.Store, eng *engine.Engine) {
	t.Helper()
	url = pgtest.URL(t)
	storeSchema, readSchema = pgtest.FreshSchema(t, url, "sw_store_"), pgtest.FreshSchema(t, url, "sw_read_")
	store = openStore(t, url, storeSchema)
	eng = engine.New(engine.Config{Store: store, Games: games})
	playRated(t, eng, 0, n)
	return url, storeSchema, readSchema, store, eng
}

func openStore(t *testing.T, url, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestALeaseThatCannotMissARenewalIsRefused: a renewal every half lease or more would
// lose the lease to a single late renewal.
func TestALeaseThatCannotMissARenewalIsRefused(t *testing.T) {
	for _, c := range []struct{ lease, renew time.Duration }{{4 * time.Second, 2 * time.Second}, {time.Second, 3 * time.Second}} {
		_, err := singlewriter.New(singlewriter.Config{
			URL: "postgres://db/x", Store: memstore.New(), Node: "a", Lease: c.lease, Renew: c.renew,
			New: func() singlewriter.Model { return singlewriter.NewRatings(games) },
		})
		if err == nil || !strings.Contains(err.Error(), "renew at most every") {
			t.Errorf("a lease of %v renewed every %v: %v", c.lease, c.renew, err)
		}
	}
}

// childEnv carries the schemas to the helper process; it is unset in a normal run.
const childEnv = "ARBITER_SINGLEWRITER_CHILD"

// startChild starts a node writing the ratings as a child process (TestHelperProcessWriter),
// named "child", with its log on stderr; it is killed when the test ends.
func startChild(t *testing.T, storeSchema, readSchema string, stderr io.Writer) *exec.Cmd {
	t.Helper()
	child := exec.Command(os.Args[0], "-test.run=^TestHelperProcessWriter$", "-test.count=1")
	child.Env = append(os.Environ(), childEnv+"="+storeSchema+","+readSchema)
	child.Stderr = stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = child.Process.Kill()
		_ = child.Wait()
	})
	return child
}

// TestFailoverWhenTheHolderIsKilled: two nodes run the ratings writer, one as a child
// process. The child takes the lease and writes; the other polls and writes nothing. The
// child is killed with kill -9 while matches go on; the other node sees its session gone,
// takes the lease and goes on from the child's last commit, so that the table counts
// every match once.
func TestFailoverWhenTheHolderIsKilled(t *testing.T) {
	url, storeSchema, readSchema, store, eng := fixture(t, 4)

	child := startChild(t, storeSchema, readSchema, os.Stderr)
	waitFor(t, url, readSchema, "child", store)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- ratingsWriter(t, url, readSchema, "b", store, nil).Run(ctx) }()
	playRated(t, eng, 4, 3)
	waitFor(t, url, readSchema, "child", store) // b polls meanwhile

	if err := child.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	_ = child.Wait()
	playRated(t, eng, 7, 3)
	waitFor(t, url, readSchema, "b", store)
	checkTable(t, url, readSchema, store, 10)
	cancel()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// TestFailoverWhenTheHolderIsStopped: the holder, a child process, is stopped (SIGSTOP)
// with its connection open: its session lives on, so the other node takes over only when
// the lease expires by the database's clock, and goes on writing as matches finish. The
// child is then woken (SIGCONT) with the events that came meanwhile to count: its fence
// finds b's epoch, so it writes nothing (the table and the lease row are as b left them),
// it steps down and competes again, and b goes on holding.
func TestFailoverWhenTheHolderIsStopped(t *testing.T) {
	url, storeSchema, readSchema, store, eng := fixture(t, 4)

	logs := &logLines{lines: make(chan string, 256), copy: os.Stderr}
	child := startChild(t, storeSchema, readSchema, logs)
	waitFor(t, url, readSchema, "child", store)
	conn := connect(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- ratingsWriter(t, url, readSchema, "b", store, nil).Run(ctx) }()
	waitForSession(t, url, "arbiter ratings writer b")
	playRated(t, eng, 4, 3)
	waitFor(t, url, readSchema, "child", store) // b polls meanwhile
	childEpoch := lease(t, conn, readSchema).epoch

	if err := child.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stoppedAt, _ := checkpoint(t, conn, readSchema)
	playRated(t, eng, 7, 3)
	waitFor(t, url, readSchema, "b", store) // after the child's lease expired
	took := lease(t, conn, readSchema)
	if took.epoch <= childEpoch {
		t.Fatalf("b holds the lease at epoch %d, the child held it at %d", took.epoch, childEpoch)
	}
	playRated(t, eng, 10, 2) // b goes on writing as matches finish
	waitFor(t, url, readSchema, "b", store)
	before := lease(t, conn, readSchema)
	if before.position <= took.position || before.position <= stoppedAt {
		t.Fatalf("b's checkpoint went from %d to %d (the child stopped at %d)", took.position, before.position, stoppedAt)
	}
	rows := ratingRows(t, conn, readSchema)

	if err := child.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	// The child wakes up with events to count and its lease gone: it steps down (its
	// fence refused; or, had it stopped inside a transaction, PostgreSQL ended its
	// session after a lease), then competes again.
	logs.waitFor(t, "single writer: lost the lease; stepping down", "single writer: gave up; competing again")
	logs.waitFor(t, "single writer: competing for the lease")
	if after := lease(t, conn, readSchema); after != before {
		t.Fatalf("the lease row went from %+v to %+v when the child woke up", before, after)
	}
	if after := ratingRows(t, conn, readSchema); !slices.Equal(after, rows) {
		t.Fatalf("the child wrote to the ratings after it lost the lease:\nbefore %v\nafter  %v", rows, after)
	}
	for _, r := range rows {
		if r.epoch != childEpoch && r.epoch != took.epoch {
			t.Fatalf("a row written at epoch %d, neither the child's %d nor b's %d: %+v", r.epoch, childEpoch, took.epoch, r)
		}
	}

	playRated(t, eng, 12, 2)
	waitFor(t, url, readSchema, "b", store) // b still holds; the child follows
	if l := lease(t, conn, readSchema); l.epoch != took.epoch {
		t.Fatalf("the lease is at epoch %d, b took it at %d", l.epoch, took.epoch)
	}
	checkTable(t, url, readSchema, store, 14)
	cancel()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// TestAHungHolderWritesNothing: the holder's goroutine hangs just before a commit, with
// the events of two matches folded and its connection open. The other node takes over
// once the lease expires and counts them; when the old holder's goroutine goes on, its
// commit is refused by the fence: the table and the lease row do not change, and it
// steps down.
func TestAHungHolderWritesNothing(t *testing.T) {
	url, _, readSchema, store, eng := fixture(t, 3)
	conn := connect(t, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var hang atomic.Bool
	hung, release := make(chan int64, 1), make(chan struct{})
	var aCommits atomic.Int64 // a's commits once it hung
	logs := &logLines{lines: make(chan string, 256), copy: os.Stderr}
	done := make(chan error, 2)
	go func() {
		done <- ratingsWriter(t, url, readSchema, "a", store, func(int64, int64) {
			if hang.Load() {
				aCommits.Add(1)
			}
		}, func(c *singlewriter.Config) {
			c.Logger = slog.New(slog.NewTextHandler(logs, nil))
			singlewriter.HangBeforeCommit(c, func(position int64) {
				if hang.Load() {
					hung <- position
					<-release
				}
			})
		}).Run(ctx)
	}()
	waitFor(t, url, readSchema, "a", store)
	go func() { done <- ratingsWriter(t, url, readSchema, "b", store, nil).Run(ctx) }()
	waitForSession(t, url, "arbiter ratings writer b")
	aEpoch := lease(t, conn, readSchema).epoch

	hang.Store(true)
	playRated(t, eng, 3, 2)
	var stuckAt int64
	select {
	case stuckAt = <-hung:
	case <-time.After(30 * time.Second):
		t.Fatal("after 30 s a has not tried to commit the new matches")
	}
	waitFor(t, url, readSchema, "b", store) // once a's lease expired
	before := lease(t, conn, readSchema)
	if before.epoch != aEpoch+1 || before.position < stuckAt {
		t.Fatalf("b holds %+v; a held epoch %d and hung before committing up to %d", before, aEpoch, stuckAt)
	}
	rows := ratingRows(t, conn, readSchema)

	close(release)
	logs.waitFor(t, "single writer: lost the lease; stepping down")
	if n := aCommits.Load(); n != 0 {
		t.Fatalf("a committed %d times after it hung", n)
	}
	if after := lease(t, conn, readSchema); after != before {
		t.Fatalf("the lease row went from %+v to %+v when a went on", before, after)
	}
	if after := ratingRows(t, conn, readSchema); !slices.Equal(after, rows) {
		t.Fatalf("a wrote to the ratings after it lost the lease:\nbefore %v\nafter  %v", rows, after)
	}
	playRated(t, eng, 5, 2)
	waitFor(t, url, readSchema, "b", store)
	checkTable(t, url, readSchema, store, 7)
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestHelperProcessWriter is the child of the failover tests: a node that runs the
// ratings writer, logging to stderr, until it is killed.
func TestHelperProcessWriter(t *testing.T) {
	env := os.Getenv(childEnv)
	if env == "" {
		t.Skip("helper process of the failover tests")
	}
	storeSchema, readSchema, _ := strings.Cut(env, ",")
	url := os.Getenv("ARBITER_PG_URL")
	s, err := postgres.Open(context.Background(), url, postgres.WithSchema(storeSchema))
	if err == nil {
		err = ratingsWriter(t, url, readSchema, "child", s, nil, func(c *singlewriter.Config) {
			c.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
		}).Run(context.Background())
	}
	fmt.Fprintln(os.Stderr, "the child writer stopped:", err)
	os.Exit(2)
}

// TestFailoverWhenTheConnectionCloses: the holder's session is ended by the server (as
// when its connection breaks); a polling node sees it gone and takes over, at the next
// epoch: b, or a itself once it has connected again. The old tenure, its process still
// running, commits nothing more: its transaction would be on the closed session.
func TestFailoverWhenTheConnectionCloses(t *testing.T) {
	url, _, readSchema, store, eng := fixture(t, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var oldEpoch atomic.Int64 // a's epoch when its session ended
	var stale atomic.Int64    // a's commits at that epoch afterwards
	done := make(chan error, 2)
	go func() {
		done <- ratingsWriter(t, url, readSchema, "a", store, func(epoch, _ int64) {
			if epoch == oldEpoch.Load() {
				stale.Add(1)
			}
		}).Run(ctx)
	}()
	waitFor(t, url, readSchema, "a", store)
	go func() { done <- ratingsWriter(t, url, readSchema, "b", store, nil).Run(ctx) }()
	// b is connected and polling before a's session ends.
	waitForSession(t, url, "arbiter ratings writer b")

	conn := connect(t, url)
	// No event is appended between a's last commit and here: a is idle.
	held := lease(t, conn, readSchema)
	oldEpoch.Store(held.epoch)
	var terminated bool
	if err := conn.QueryRow(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'arbiter ratings writer a'`).Scan(&terminated); err != nil || !terminated {
		t.Fatalf("ending a's session: %v, %v", terminated, err)
	}
	playRated(t, eng, 3, 3)
	waitFor(t, url, readSchema, "", store)
	if now := lease(t, conn, readSchema); now.epoch <= held.epoch || now.pid == held.pid {
		t.Fatalf("the lease went from %+v to %+v: no one took over", held, now)
	}
	checkTable(t, url, readSchema, store, 6)
	if n := stale.Load(); n != 0 {
		t.Fatalf("a committed %d times at epoch %d after its session ended", n, held.epoch)
	}
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// waitForSession polls pg_stat_activity until a session named app is connected.
func waitForSession(t *testing.T, url, app string) {
	t.Helper()
	ctx := context.Background()
	conn := connect(t, url)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s no session %q is connected", app)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// leaseRow is the model's lease and checkpoint.
type leaseRow struct {
	epoch, position int64
	holder          string
	pid             int32
}

func lease(t *testing.T, conn *pgx.Conn, schema string) leaseRow {
	t.Helper()
	var l leaseRow
	err := conn.QueryRow(context.Background(), `SELECT epoch, position, holder, pid FROM `+pgx.Identifier{schema, "checkpoints"}.Sanitize()+` WHERE model = 'ratings'`).
		Scan(&l.epoch, &l.position, &l.holder, &l.pid)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// ratingRow is one row of the ratings table, with the epoch that wrote it.
type ratingRow struct {
	player, key                string
	rating                     float64
	games, wins, losses, draws int
	epoch                      int64
}

func ratingRows(t *testing.T, conn *pgx.Conn, schema string) []ratingRow {
	t.Helper()
	rows, err := conn.Query(context.Background(), `SELECT player, key, rating, games, wins, losses, draws, epoch FROM `+
		pgx.Identifier{schema, "ratings"}.Sanitize()+` ORDER BY player, key`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (ratingRow, error) {
		var r ratingRow
		err := row.Scan(&r.player, &r.key, &r.rating, &r.games, &r.wins, &r.losses, &r.draws, &r.epoch)
		return r, err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// logLines is a writer's log: each line is copied on, and sent to lines for waitFor.
type logLines struct {
	mu      sync.Mutex
	partial []byte
	lines   chan string
	copy    io.Writer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.copy.Write(p)
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		select {
		case l.lines <- string(l.partial[:i]):
		default: // a test waits for a few lines only; one it cannot take is not waited for
		}
		l.partial = l.partial[i+1:]
	}
}

// waitFor reads the log until a line holds one of msgs; it fails after 30 s.
func (l *logLines) waitFor(t *testing.T, msgs ...string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case line := <-l.lines:
			for _, m := range msgs {
				if strings.Contains(line, m) {
					return
				}
			}
		case <-deadline:
			t.Fatalf("after 30 s the log has no line with %q", msgs)
		}
	}
}
