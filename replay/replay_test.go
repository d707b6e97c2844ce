package replay_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/replay/playout"
)

func registry() *game.Registry { return game.NewRegistry(classic.Rules{}) }

// fixture is a closed SQLite file filled by the engine: three random matches (resigned,
// agreed, live) and a fool's mate.
type fixture struct {
	path    string
	matches []playout.Match
	mate    playout.Match
}

var foolsMate = []string{"f2f3", "e7e5", "g2g4", "d8h4"}

func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	f := fixture{path: filepath.Join(t.TempDir(), "arbiter.db")}
	store, err := sqlite.Open(ctx, f.path)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: store, Games: registry()})
	f.matches, err = playout.Fill(ctx, eng, playout.Config{Matches: 3, Plies: 24, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	f.mate, err = playout.Create(ctx, eng, 99, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.mate.Moves = foolsMate
	if err := f.mate.Play(ctx, eng, 0, len(foolsMate), nil); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f fixture) open(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// versionOf returns the version of the n-th event of type typ (from 1) in a match.
func (f fixture) versionOf(t *testing.T, matchID, typ string, n int) int64 {
	t.Helper()
	s := f.open(t)
	evs, err := s.ReadStream(context.Background(), matchstream.Name(matchID), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, ev := range evs {
		if ev.Type == typ {
			if n--; n == 0 {
				return ev.Version
			}
		}
	}
	t.Fatalf("match %s has no %s number %d", matchID, typ, n)
	return 0
}

// update runs one statement on the closed SQLite file, as an attacker with the file would.
func (f fixture) update(t *testing.T, query string, args ...any) {
	t.Helper()
	db, err := sql.Open("sqlite", f.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	res, err := db.Exec(query, args...)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("%s: %d rows changed, want 1", query, n)
	}
}

// forge rewrites the payload of one event and re-hashes the stream from there, as a
// forger who knows the hash scheme would: the chain then verifies, and only the checks
// of the content can tell.
func (f fixture) forge(t *testing.T, matchID string, version int64, edit func(map[string]any)) {
	t.Helper()
	s := f.open(t)
	stream := matchstream.Name(matchID)
	evs, err := s.ReadStream(context.Background(), stream, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var fields map[string]any
	if err := json.Unmarshal(evs[version-1].Payload, &fields); err != nil {
		t.Fatal(err)
	}
	edit(fields)
	payload, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	evs[version-1].Payload = payload
	f.update(t, `UPDATE events SET payload = ? WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND version = ?`, payload, stream, version)
	prev := ""
	if version > 1 {
		prev = evs[version-2].Hash
	}
	for _, ev := range evs[version-1:] {
		ev.PrevHash = prev
		ev.Hash = eventstore.Hash(prev, ev)
		f.update(t, `UPDATE events SET prev_hash = ?, hash = ? WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND version = ?`, ev.PrevHash, ev.Hash, stream, ev.Version)
		prev = ev.Hash
	}
}

func verify(t *testing.T, f fixture, matchID string) replay.Report {
	t.Helper()
	r, err := replay.Verify(context.Background(), f.open(t), registry(), matchID)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// wantProblem checks that a report's first problem is check at version, mentioning what.
func wantProblem(t *testing.T, r replay.Report, version int64, check, what string) {
	t.Helper()
	if r.OK() {
		t.Fatalf("%s verifies; want a %s problem at version %d", r.Stream, check, version)
	}
	p := r.Problems[0]
	if p.Version != version || p.Check != check || !strings.Contains(p.Detail, what) {
		t.Fatalf("first problem %q; want %s at version %d mentioning %q (all: %v)", p, check, version, what, r.Problems)
	}
	if err := r.Err(); !strings.Contains(err.Error(), r.MatchID) || !strings.Contains(err.Error(), "version ") {
		t.Errorf("Err() = %v: should name the match and the version", err)
	}
}

func TestVerifyPlayedMatches(t *testing.T) {
	f := newFixture(t)
	reports, err := replay.VerifyAll(context.Background(), f.open(t), registry(), replay.Options{})
	if err != nil {
		t.Fatal(err)
	}
	byMatch := map[string]replay.Report{}
	players := 0
	for _, r := range reports {
		if !r.OK() {
			t.Errorf("%s: %v", r.Stream, r.Problems)
		}
		if r.MatchID == "" {
			players++
			continue
		}
		byMatch[r.MatchID] = r
	}
	if len(byMatch) != 4 || players != 8 {
		t.Fatalf("%d match and %d other streams verified, want 4 and 8", len(byMatch), players)
	}
	want := []match.Status{match.Finished, match.Finished, match.Live}
	for i, m := range f.matches {
		if got := byMatch[m.ID].Status; got != want[i] {
			t.Errorf("match %d is %s, want %s", i, got, want[i])
		}
	}
	mate := byMatch[f.mate.ID]
	if mate.Status != match.Finished || mate.Result == nil || mate.Result.Reason != "checkmate" || len(mate.Result.Winners) != 1 || mate.Result.Winners[0] != 1 {
		t.Errorf("fool's mate ended as %+v, want Black winning by checkmate", mate.Result)
	}
	if _, err := replay.Verify(context.Background(), f.open(t), registry(), "nosuchmatch"); game.CodeOf(err) != game.NotFound {
		t.Errorf("unknown match: %v, want NOT_FOUND", err)
	}
}

func TestVerifyDetectsTamperedPayload(t *testing.T) {
	f := newFixture(t)
	id := f.matches[0].ID
	v := f.versionOf(t, id, "MovePlayed", 5)
	f.update(t, `UPDATE events SET payload = replace(payload, '"seat":0', '"seat":1') WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND version = ?`, matchstream.Name(id), v)
	r := verify(t, f, id)
	wantProblem(t, r, v, replay.CheckChain, "content hashes to")
	if !strings.Contains(r.Err().Error(), "version "+itoa(v)) {
		t.Errorf("Err() = %v, want it to name version %d", r.Err(), v)
	}
}

func TestVerifyDetectsTamperedHash(t *testing.T) {
	f := newFixture(t)
	id := f.matches[1].ID
	v := f.versionOf(t, id, "MovePlayed", 10)
	f.update(t, `UPDATE events SET hash = ? WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND version = ?`, strings.Repeat("0", 64), matchstream.Name(id), v)
	wantProblem(t, verify(t, f, id), v, replay.CheckChain, "stored hash")
}

func TestVerifyDetectsWrongSeedRevealed(t *testing.T) {
	f := newFixture(t)
	id := f.mate.ID
	v := f.versionOf(t, id, "SeedRevealed", 1)
	f.forge(t, id, v, func(p map[string]any) { p["seed"] = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" })
	wantProblem(t, verify(t, f, id), v, replay.CheckSeed, "committed to")
}

func TestVerifyDetectsWrongFEN(t *testing.T) {
	f := newFixture(t)
	id := f.matches[2].ID
	v := f.versionOf(t, id, "MovePlayed", 3)
	f.forge(t, id, v, func(p map[string]any) { p["fen"] = chess.StartFEN })
	r := verify(t, f, id)
	wantProblem(t, r, v, replay.CheckRules, "fen")
	// The fold goes on from the move itself: one forged field is one problem.
	if len(r.Problems) != 1 {
		t.Errorf("problems %v, want only the fen", r.Problems)
	}
}

func TestVerifyDetectsWrongSANAndResult(t *testing.T) {
	f := newFixture(t)
	id := f.mate.ID
	v := f.versionOf(t, id, "MovePlayed", 4)
	f.forge(t, id, v, func(p map[string]any) { p["san"] = "Qh4" })
	wantProblem(t, verify(t, f, id), v, replay.CheckRules, `san "Qh4" recorded, the move is "Qh4#"`)

	f = newFixture(t)
	id = f.mate.ID
	v = f.versionOf(t, id, "MatchEnded", 1)
	f.forge(t, id, v, func(p map[string]any) { p["winners"] = []int{0} })
	wantProblem(t, verify(t, f, id), v, replay.CheckResult, "the game says winners [1]")
}

// TestVerifyRejectsAnInstantClock: a match stored with a clock the server now refuses
// ("0.000001+0", which old servers took: seat 0 lost on time at once) does not verify.
func TestVerifyRejectsAnInstantClock(t *testing.T) {
	for _, bad := range []string{"0.000001+0", "NaN+0", "1e-9+0"} {
		f := newFixture(t)
		id := f.mate.ID
		f.forge(t, id, 1, func(p map[string]any) { p["options"] = map[string]string{"clock": bad} })
		wantProblem(t, verify(t, f, id), 1, replay.CheckLifecycle, "clock")
	}
}

// TestVerifyRejectsAFalseAbort: a finished game rewritten as aborted (no winner, no
// rating) does not verify: both sides had moved.
func TestVerifyRejectsAFalseAbort(t *testing.T) {
	f := newFixture(t)
	id := f.mate.ID
	v := f.versionOf(t, id, "MatchEnded", 1)
	f.forge(t, id, v, func(p map[string]any) { p["winners"], p["reason"] = []int{}, "aborted" })
	wantProblem(t, verify(t, f, id), v, replay.CheckResult, "aborted after every seat had moved")
}

func TestState(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	store := f.open(t)
	m := f.matches[2] // live: its stream is creation (2), players (3), start (2), moves
	latest, err := replay.State(ctx, store, registry(), m.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if latest.Version != latest.Head || latest.State.Status != match.Live {
		t.Fatalf("latest: version %d of %d, %s", latest.Version, latest.Head, latest.State.Status)
	}
	for _, plies := range []int{0, 1, 17, len(m.Moves)} {
		at := latest.Head - int64(len(m.Moves)-plies)
		snap, err := replay.State(ctx, store, registry(), m.ID, at)
		if err != nil {
			t.Fatal(err)
		}
		pos := chess.StartingPosition()
		for _, uci := range m.Moves[:plies] {
			mv, err := pos.ParseMove(uci)
			if err != nil {
				t.Fatal(err)
			}
			pos.Play(mv)
		}
		if got := snap.Rules.(game.Boarded).Board(snap.State.GameState).FEN; got != pos.FEN() {
			t.Errorf("after %d plies (version %d): %s, want %s", plies, at, got, pos.FEN())
		}
		if n := len(snap.Rules.(game.Recorded).MoveList(snap.State.GameState)); n != plies {
			t.Errorf("after %d plies: %d moves listed", plies, n)
		}
	}
	if _, err := replay.State(ctx, store, registry(), m.ID, latest.Head+1); game.CodeOf(err) != game.BadInput {
		t.Errorf("past the head: %v, want BAD_USER_INPUT", err)
	}
	if _, err := replay.State(ctx, store, registry(), "nosuchmatch", 0); game.CodeOf(err) != game.NotFound || !strings.Contains(err.Error(), "nosuchmatch") {
		t.Errorf("unknown match: %v, want NOT_FOUND naming it", err)
	}
	var ge *game.Error
	if _, err := replay.State(ctx, store, registry(), m.ID, -1); !errors.As(err, &ge) {
		t.Errorf("negative version: %v", err)
	}
}

func itoa(v int64) string { b, _ := json.Marshal(v); return string(b) }
