package singlewriter_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
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

func ratingsWriter(t testing.TB, url, readSchema, node string, store eventstore.Store, committed func(int64)) *singlewriter.Writer {
	t.Helper()
	w, err := singlewriter.New(singlewriter.Config{
		URL: url, Schema: readSchema, Store: store, Node: node, Retry: 50 * time.Millisecond, Committed: committed,
		New: func() singlewriter.Model { return singlewriter.NewRatings(games) },
	})
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

// waitFor polls the checkpoint row until holder has written up to the store's head. It
// ends at the deadline: a writer that never gets there fails the test.
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
		if pos == head && h == holder {
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
	games := 0
	for i, e := range board {
		w := want.Of(e.Player)
		if len(w) != 1 || e.Games != w[0].Games || e.Wins != w[0].Wins || e.Losses != w[0].Losses || math.Abs(e.Rating.Rating-w[0].Rating) > 1e-9 {
			t.Errorf("%s: table %+v, folded from the store %+v", e.Player, e.Rating, w)
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

func openStore(t *testing.T, url, schema string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url, postgres.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// childEnv carries the schemas to the helper process; it is unset in a normal run.
const childEnv = "ARBITER_SINGLEWRITER_CHILD"

// TestFailoverWhenTheHolderIsKilled: two nodes run the ratings writer, one as a child
// process. The child takes the lock and writes; the other waits and writes nothing. The
// child is killed with kill -9 while matches go on; the other node takes the lock and
// goes on from the child's last commit, so that the table counts every match once.
func TestFailoverWhenTheHolderIsKilled(t *testing.T) {
	url := pgtest.URL(t)
	storeSchema, readSchema := pgtest.FreshSchema(t, url, "sw_store_"), pgtest.FreshSchema(t, url, "sw_read_")
	store := openStore(t, url, storeSchema)
	eng := engine.New(engine.Config{Store: store, Games: games})
	playRated(t, eng, 0, 4)

	child := exec.Command(os.Args[0], "-test.run=^TestHelperProcessWriter$", "-test.count=1")
	child.Env = append(os.Environ(), childEnv+"="+storeSchema+","+readSchema)
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	waitFor(t, url, readSchema, "child", store)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan error, 1)
	go func() { stopped <- ratingsWriter(t, url, readSchema, "b", store, nil).Run(ctx) }()
	playRated(t, eng, 4, 3)
	waitFor(t, url, readSchema, "child", store) // b waits on the lock meanwhile

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

// TestHelperProcessWriter is the child of TestFailoverWhenTheHolderIsKilled: a node that
// runs the ratings writer until it is killed.
func TestHelperProcessWriter(t *testing.T) {
	env := os.Getenv(childEnv)
	if env == "" {
		t.Skip("helper process of TestFailoverWhenTheHolderIsKilled")
	}
	storeSchema, readSchema, _ := strings.Cut(env, ",")
	url := os.Getenv("ARBITER_PG_URL")
	s, err := postgres.Open(context.Background(), url, postgres.WithSchema(storeSchema))
	if err == nil {
		err = ratingsWriter(t, url, readSchema, "child", s, nil).Run(context.Background())
	}
	fmt.Fprintln(os.Stderr, "the child writer stopped:", err)
	os.Exit(2)
}

// TestFailoverWhenTheConnectionCloses: the holder's session is ended by the server (as
// when its connection breaks); the waiting node takes over, and the old holder, still
// running, commits nothing more: its transaction would be on the closed session. It
// competes again and waits.
func TestFailoverWhenTheConnectionCloses(t *testing.T) {
	url := pgtest.URL(t)
	storeSchema, readSchema := pgtest.FreshSchema(t, url, "sw_store_"), pgtest.FreshSchema(t, url, "sw_read_")
	store := openStore(t, url, storeSchema)
	eng := engine.New(engine.Config{Store: store, Games: games})
	playRated(t, eng, 0, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var aCommits atomic.Int64 // a's commits after its session ended
	var ended atomic.Bool
	done := make(chan error, 2)
	go func() {
		done <- ratingsWriter(t, url, readSchema, "a", store, func(int64) {
			if ended.Load() {
				aCommits.Add(1)
			}
		}).Run(ctx)
	}()
	waitFor(t, url, readSchema, "a", store)
	go func() { done <- ratingsWriter(t, url, readSchema, "b", store, nil).Run(ctx) }()
	// b is connected and waiting on the lock before a's session ends: its query is in
	// pg_stat_activity.
	waitForSession(t, url, "arbiter ratings writer b", "Lock")

	conn := connect(t, url)
	// No event is appended between a's last commit and here: a is idle.
	ended.Store(true)
	var terminated bool
	if err := conn.QueryRow(context.Background(), `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'arbiter ratings writer a'`).Scan(&terminated); err != nil || !terminated {
		t.Fatalf("ending a's session: %v, %v", terminated, err)
	}
	playRated(t, eng, 3, 3)
	waitFor(t, url, readSchema, "b", store)
	checkTable(t, url, readSchema, store, 6)
	// a noticed, connected again and waits on the lock; it wrote nothing since.
	waitForSession(t, url, "arbiter ratings writer a", "Lock")
	if n := aCommits.Load(); n != 0 {
		t.Fatalf("a committed %d times after its session ended", n)
	}
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// waitForSession polls pg_stat_activity until the session named app waits on a wait
// event of type waitType (Lock: pg_advisory_lock).
func waitForSession(t *testing.T, url, app, waitType string) {
	t.Helper()
	ctx := context.Background()
	conn := connect(t, url)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = $2`, app, waitType).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s no session %q waits on a %s", app, waitType)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
