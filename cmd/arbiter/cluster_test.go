package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
)

// needServer returns the URL in env, skips without it, and fails under CI=true.
func needServer(t *testing.T, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run this test against its server", env)
		}
		t.Skipf("%s is not set", env)
	}
	return v
}

// TestTwoNodes runs two servers on one PostgreSQL store and one NATS bus, as two nodes of
// a cluster: players on different nodes play one game, a spectator on the other node sees
// every event, and both nodes racing for one turn let exactly one move through.
func TestTwoNodes(t *testing.T) {
	a, b := twoNodes(t)

	_, white := a.register(t, "White")
	_, black := b.register(t, "Black") // registered on the other node
	id := a.newMatch(t, white, black, true)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	spectator := b.subscribe(t, ctx, "graphql-transport-ws", "", id, 0)

	// Both nodes race for White's first move.
	var wg sync.WaitGroup
	var won sync.Map
	for i, mv := range []string{"e4", "d4", "c4", "Nf3"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := []*server{a, b}[i%2]
			if r := node.play(t, white, id, mv); len(r.Errors) == 0 {
				won.Store(mv, true)
			} else if r.code() != "NOT_YOUR_TURN" {
				t.Errorf("%s: %+v", mv, r.Errors)
			}
		}()
	}
	wg.Wait()
	n := 0
	won.Range(func(_, _ any) bool { n++; return true })
	if n != 1 {
		t.Fatalf("%d racing moves won on two nodes", n)
	}
	// Black answers on node B, White resigns on node A.
	if r := b.play(t, black, id, "Nf6"); len(r.Errors) > 0 {
		t.Fatalf("Black on node B: %+v", r.Errors)
	}
	a.must(t, white, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)

	// Node B learns of the end over the bus: its spectator completes once B's read side
	// has applied the last event, and B's queries then show the finished match.
	seen := 0
	for ev := range spectator {
		seen++
		if ev.Version != seen {
			t.Fatalf("the spectator on node B got version %d, want %d", ev.Version, seen)
		}
	}
	var final struct {
		Match struct {
			Status  string
			Version int
			Moves   []string
		}
	}
	b.must(t, "", `query($m:ID!){match(id:$m){status version moves}}`, map[string]any{"m": id}, &final)
	if final.Match.Status != "FINISHED" || len(final.Match.Moves) != 2 {
		t.Fatalf("node B sees %+v", final.Match)
	}
	if seen != final.Match.Version {
		t.Fatalf("the spectator saw %d of %d events", seen, final.Match.Version)
	}
	// The match finished on node A; each node answers the leaderboard from its own fold,
	// and B's has applied the match's last event (its spectator completed): both answer
	// the same, the winner first.
	boardA, boardB := leaderboard(t, a, "CHESS"), leaderboard(t, b, "CHESS")
	if !slices.Equal(boardA, boardB) {
		t.Fatalf("the leaderboard on node A: %+v; on node B: %+v", boardA, boardB)
	}
	want := []standing{{"Black", 1420, 1, 1, 0}, {"White", 1380, 1, 0, 1}}
	if !slices.Equal(boardA, want) {
		t.Fatalf("the leaderboard: %+v, want %+v", boardA, want)
	}
	checkSharedRatings(t, a.db, map[string]int{"White": 0, "Black": 1})
}

// standing is a row of the leaderboard as the API answers it.
type standing struct {
	Name                string
	Rating              float64
	Games, Wins, Losses int
}

// leaderboard asks node s for the leaderboard under key.
func leaderboard(t *testing.T, s *server, key string) []standing {
	t.Helper()
	var d struct {
		Leaderboard []struct {
			Player struct{ Name string }
			Rating struct {
				RatingExact         float64
				Games, Wins, Losses int
			}
		}
	}
	s.must(t, "", `query($k:String!){leaderboard(key:$k){player{name} rating{ratingExact games wins losses}}}`, map[string]any{"k": key}, &d)
	out := []standing{}
	for _, e := range d.Leaderboard {
		out = append(out, standing{e.Player.Name, e.Rating.RatingExact, e.Rating.Games, e.Rating.Wins, e.Rating.Losses})
	}
	return out
}

// checkSharedRatings waits until the ratings table that one node writes for the cluster
// (projections/singlewriter) has caught up with the store, then checks that it counts
// each player's one rated game once, with wins as want says (by player name).
func checkSharedRatings(t *testing.T, db string, want map[string]int) {
	t.Helper()
	url, schema, err := splitSchema(db)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	read := pgx.Identifier{schema + "_read"}.Sanitize()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var pos, head int64
		var holder string
		err := conn.QueryRow(ctx, `SELECT c.position, c.holder, h.position FROM `+read+`.checkpoints c, `+pgx.Identifier{schema}.Sanitize()+`.head h WHERE c.model = 'ratings'`).Scan(&pos, &holder, &head)
		if err == nil && pos == head && holder != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 30 s the shared ratings are at position %d of %d (holder %q, %v)", pos, head, holder, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	rows, err := conn.Query(ctx, `SELECT p.name, r.games, r.wins FROM `+read+`.ratings r JOIN `+pgx.Identifier{schema}.Sanitize()+`.events e ON e.stream = 'player-' || r.player AND e.version = 1
		CROSS JOIN LATERAL jsonb_to_record(convert_from(e.payload, 'UTF8')::jsonb) AS p(name text)`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int{}
	var (
		name        string
		games, wins int
	)
	if _, err := pgx.ForEachRow(rows, []any{&name, &games, &wins}, func() error { got[name] = [2]int{games, wins}; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("the shared ratings hold %v, want %v", got, want)
	}
	for p, w := range want {
		if got[p] != [2]int{1, w} {
			t.Errorf("%s in the shared ratings: games and wins %v, want [1 %d]", p, got[p], w)
		}
	}
}

// twoNodes starts two servers on one PostgreSQL schema and one NATS stream of their own,
// removed when the test ends: two nodes of a cluster.
func twoNodes(t *testing.T, extra ...string) (*server, *server) {
	t.Helper()
	pgURL := needServer(t, "ARBITER_PG_URL")
	natsURL := needServer(t, "ARBITER_NATS_URL")
	unique := fmt.Sprintf("%d", time.Now().UnixNano())
	schema, topic, stream := "arbiter_test_"+unique, "arbiter.test."+unique, "ARBITER_TEST_"+unique
	t.Cleanup(func() {
		if conn, err := pgx.Connect(context.Background(), pgURL); err == nil {
			_, _ = conn.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+schema+", "+schema+"_read CASCADE")
			conn.Close(context.Background())
		}
		if nc, err := nats.Connect(natsURL); err == nil {
			if js, err := nc.JetStream(); err == nil {
				_ = js.DeleteStream(stream)
			}
			nc.Close()
		}
	})
	sep := "?"
	if strings.Contains(pgURL, "?") {
		sep = "&"
	}
	db := pgURL + sep + "schema=" + schema
	busURL := natsURL + "?topic=" + topic + "&stream=" + stream
	// The nodes sign with one key; each keeps its own head log.
	dir := t.TempDir()
	node := func(name string) *server {
		args := append([]string{"--bus", busURL, "--key", filepath.Join(dir, "arbiter.key"), "--head-log", filepath.Join(dir, name+".heads")}, extra...)
		return startServer(t, db, args...)
	}
	return node("a"), node("b")
}
