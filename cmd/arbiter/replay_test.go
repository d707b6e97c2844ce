package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/matchstream"
	"github.com/arbiter-games/arbiter/replay/playout"
)

// filled returns a closed SQLite file, whose heads are signed with the key beside it, filled by the engine with three played matches and
// a fool's mate, and those matches.
func filled(t *testing.T) (string, []playout.Match, playout.Match) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "arbiter.db")
	store, err := openStore(ctx, path) // signed with arbiter.key beside it
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: store, Games: games()})
	ms, err := playout.Fill(ctx, eng, playout.Config{Matches: 3, Plies: 24, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	mate, err := playout.Create(ctx, eng, 50, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	mate.Moves = []string{"f2f3", "e7e5", "g2g4", "d8h4"}
	if err := mate.Play(ctx, eng, 0, 4, nil); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	return path, ms, mate
}

// fails runs arbiter and expects a non-zero exit; it returns stdout and stderr.
func fails(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var stdout, stderr strings.Builder
	if code := run(context.Background(), args, &stdout, &stderr); code == 0 {
		t.Fatalf("arbiter %v: exit 0, want a failure\n%s", args, stdout.String())
	}
	return stdout.String(), stderr.String()
}

func TestReplayCommand(t *testing.T) {
	db, _, mate := filled(t)
	_, out := lastLine(t, "replay", "--db", db, "--match", mate.ID)
	for _, want := range []string{
		" 8  r n b . k b n r\n 7  p p p p . p p p\n",
		" 4  . . . . . . P q\n",
		" 1  R N B Q K B N R\n\n    a b c d e f g h\n",
		"1. f3 e5 2. g4 Qh4#\n",
		"status: FINISHED\n", "result: 0-1 (Black, seat 1, player 50.1, wins by checkmate)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("replay output lacks %q:\n%s", want, out)
		}
	}
	// Version 7 is after the first move: MatchCreated, SeedDrawn, two SeatTaken,
	// MatchStarted, GameStarted, f3.
	_, out = lastLine(t, "replay", "--db", db, "--match", mate.ID, "--at", "7")
	if !strings.Contains(out, "version 7 of") || !strings.Contains(out, "\n1. f3\n") || !strings.Contains(out, "status: LIVE") || !strings.Contains(out, "to act: seat [1]") {
		t.Errorf("replay --at 8:\n%s", out)
	}
	var pgn strings.Builder
	if code := run(context.Background(), []string{"replay", "--db", db, "--match", mate.ID, "--pgn"}, &pgn, &pgn); code != 0 ||
		!strings.Contains(pgn.String(), `[Result "0-1"]`) || !strings.Contains(pgn.String(), "1. f3 e5 2. g4 Qh4# 0-1") {
		t.Errorf("replay --pgn: exit %d\n%s", code, pgn.String())
	}
	if _, errOut := fails(t, "replay", "--db", db, "--match", "nosuchmatch"); !strings.Contains(errOut, `"nosuchmatch"`) {
		t.Errorf("unknown match: %s", errOut)
	}
	if _, errOut := fails(t, "replay", "--db", filepath.Join(t.TempDir(), "none.db"), "--match", mate.ID); !strings.Contains(errOut, "no event store at") {
		t.Errorf("missing file: %s", errOut)
	}
	fails(t, "replay", "--db", db)
	for _, cmd := range []string{"replay", "verify", "rebuild", "bench"} {
		var stdout, stderr strings.Builder
		if code := run(context.Background(), []string{cmd, "-h"}, &stdout, &stderr); code != 0 || !strings.Contains(stderr.String(), "-db") {
			t.Errorf("arbiter %s -h: exit %d, %s", cmd, code, stderr.String())
		}
	}
}

func TestVerifyCommand(t *testing.T) {
	db, ms, mate := filled(t)
	last, out := lastLine(t, "verify", "--db", db)
	if !strings.HasPrefix(last, "4 matches and 8 other streams") || !strings.HasSuffix(last, "all ok") || strings.Count(out, "\nok   ") != 4 ||
		!strings.HasPrefix(out, "ok   store: 117 events in one global chain, signed head at position 117") {
		t.Errorf("verify:\n%s", out)
	}
	if last, _ := lastLine(t, "verify", "--db", db, "--match", mate.ID); !strings.HasPrefix(last, "1 matches") {
		t.Errorf("verify --match: %s", last)
	}

	// Someone with the file changes a move of the second match.
	sqlDB, err := sql.Open("sqlite", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sqlDB.Exec(`UPDATE events SET payload = replace(payload, '"seat":1', '"seat":0') WHERE stream_id = (SELECT id FROM streams WHERE name = ?) AND version = 10`, matchstream.Name(ms[1].ID)); err != nil {
		t.Fatal(err)
	}
	sqlDB.Close()
	out, errOut := fails(t, "verify", "--db", db)
	if !strings.Contains(out, "FAIL "+ms[1].ID) || !strings.Contains(out, "1 FAILED") {
		t.Errorf("verify after tampering, stdout:\n%s", out)
	}
	if !strings.Contains(errOut, "match "+ms[1].ID+": version 10: chain:") {
		t.Errorf("verify after tampering, stderr: %s", errOut)
	}
}

func TestRebuildCommand(t *testing.T) {
	db, _, _ := filled(t)
	last, out := lastLine(t, "rebuild", "--db", db)
	if last != "  digests equal" || !strings.Contains(out, "matches  4 matches") || !strings.Contains(out, "ratings  6 players") || !strings.Contains(out, "events/s") {
		t.Errorf("rebuild:\n%s", out)
	}
}

// TestPGNOfAClockedMatch: through the API, a match with a clock exports each move's time
// left as [%clk h:mm:ss], and a resignation as the PGN standard's Termination "normal".
func TestPGNOfAClockedMatch(t *testing.T) {
	srv := startServer(t, filepath.Join(t.TempDir(), "arbiter.db"))
	_, ann := srv.register(t, "Ann")
	_, bob := srv.register(t, "Bob")
	var c struct {
		CreateMatch struct{ Match struct{ ID string } }
	}
	srv.must(t, ann, `mutation{createMatch(input:{game:CHESS, options:[{key:"clock", value:"5+3"}]}){match{id}}}`, nil, &c)
	id := c.CreateMatch.Match.ID
	for seat, tok := range []string{ann, bob} {
		srv.must(t, tok, `mutation($m:ID!,$s:Int){joinMatch(matchId:$m, seat:$s){seat}}`, map[string]any{"m": id, "s": seat}, nil)
	}
	for i, mv := range []string{"e4", "e5"} {
		if r := srv.play(t, []string{ann, bob}[i%2], id, mv); len(r.Errors) > 0 {
			t.Fatal(r.Errors)
		}
	}
	srv.must(t, ann, `mutation($m:ID!){resign(matchId:$m){version}}`, map[string]any{"m": id}, nil)
	var m struct{ Match struct{ PGN string } }
	srv.must(t, "", `query($m:ID!){match(id:$m){pgn}}`, map[string]any{"m": id}, &m)
	clk := regexp.MustCompile(`^1\. e4 \{\[%clk 0:0[45]:\d\d\]\} 1\.\.\. e5 \{\[%clk 0:0[45]:\d\d\]\} 0-1$`)
	movetext := strings.TrimSpace(m.Match.PGN[strings.LastIndex(m.Match.PGN, "]\n\n")+3:])
	if !clk.MatchString(strings.Join(strings.Fields(movetext), " ")) || !strings.Contains(m.Match.PGN, `[Termination "normal"]`) || !strings.Contains(m.Match.PGN, `[TimeControl "300+3"]`) {
		t.Fatalf("the PGN of a clocked, resigned match:\n%s", m.Match.PGN)
	}
}

// replay and verify read a result by colour: a Sovereign Chess match in which the opening
// choice gave White to seat 1 and seat 0 (Black) won prints 0-1 with Black, seat 0 and
// its player's name; the moves are numbered a pair of turns to a number.
func TestReplayReadsResultsByColour(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "arbiter.db")
	store, err := openStore(ctx, db) // signed with arbiter.key beside it
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: store, Games: games()})
	ack, err := eng.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"Ada", "Bo"}
	for seat, name := range names {
		if _, err := eng.Handle(ctx, ack.MatchID, match.Join{PlayerID: name, Name: name, Seat: &seat}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	var moves []string
	for len(moves) < 3 {
		snap, err := eng.Match(ctx, ack.MatchID)
		if err != nil {
			t.Fatal(err)
		}
		gs := snap.State.GameStatus(snap.Rules)
		seat := gs.ToAct[0]
		var do any
		switch {
		case gs.Phase == "opening-choice" && seat == 1: // seat 1 keeps White
			do = game.Choose{Option: "keep"}
		case gs.Phase == "opening-choice": // seat 0 gives White back to seat 1
			do = game.Choose{Option: "refuse"}
		default:
			m := snap.Rules.(game.Boarded).Board(snap.State.GameState).LegalMoves[0]
			moves, do = append(moves, m), game.Move{Notation: m}
		}
		if _, err := eng.Handle(ctx, ack.MatchID, match.Act{PlayerID: names[seat], Do: do}, engine.Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := eng.Handle(ctx, ack.MatchID, match.Resign{PlayerID: "Bo"}, engine.Meta{}); err != nil {
		t.Fatal(err)
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}
	const result = "0-1 (Black, seat 0, Ada, wins by resignation)"
	_, out := lastLine(t, "replay", "--db", db, "--match", ack.MatchID)
	if !strings.Contains(out, "\n1. "+moves[0]+" "+moves[1]+" 2. "+moves[2]+"\n") || !strings.Contains(out, "result: "+result+"\n") {
		t.Errorf("replay, after %v:\n%s", moves, out)
	}
	if _, out := lastLine(t, "verify", "--db", db); !strings.Contains(out, "ok   "+ack.MatchID+" SOVEREIGN_CHESS 13 events FINISHED "+result+"\n") {
		t.Errorf("verify:\n%s", out)
	}
}
