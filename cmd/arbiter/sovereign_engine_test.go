package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/sovereign"
	"github.com/arbiter-games/arbiter/domain/sovereignchess"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/replay"
)

// Sovereign Chess through the engine, on an SQLite file: three matches played to their
// end by scripts (two players from the start to a claimed draw; two players from a
// position, with a defection, to a checkmate; Royale with four players to the last king
// standing), then replayed and verified, and two forgeries caught by the rules' audit.

// sovereignMatch is a scripted match: its options, its actions in order (each by the
// seat to act), and how it ends.
type sovereignMatch struct {
	name    string
	options game.Options
	script  []any
	reason  string
	winner  func(st sovereignchess.State) []int // the winning seats, from the drawn seats
	matchID string
}

func sovereignMatches(t *testing.T) []*sovereignMatch {
	mv := func(ms ...string) []any {
		out := make([]any, len(ms))
		for i, m := range ms {
			out[i] = game.Move{Notation: m}
		}
		return out
	}
	board := func(pieces, rest string) string {
		b, err := sovereign.BoardNotation(pieces)
		if err != nil {
			t.Fatal(err)
		}
		return b + " " + rest
	}
	none := func(sovereignchess.State) []int { return []int{} }
	return []*sovereignMatch{{
		name:   "two players, the knights' dance",
		script: slices.Concat(mv("f1e3"), []any{game.Choose{Option: "keep"}}, mv("f16e14", "e3f1", "e14f16", "f1e3", "f16e14", "e3f1", "e14f16"), []any{game.ClaimDraw{}}),
		reason: "draw claimed (threefold repetition)",
		winner: none,
	}, {
		// Black's pawn on l12, a navy square, gives it navy; its king defects, and is
		// mated as a navy king by the queen and the rook.
		name:    "two players, a defection and a mate",
		options: game.Options{"position": board("wki1 wqe13 wrb10 bka16 bpl12", "1 w b - 0")},
		script:  slices.Concat(mv("i1h1"), []any{game.Choose{Option: "keep"}, game.Defect{Colour: "Navy"}}, mv("e13a13")),
		reason:  "checkmate",
		winner:  func(st sovereignchess.State) []int { return []int{1 - st.FirstMover} }, // the chooser took White
	}, {
		// In turn order White, Ash, Slate, Black: White leaves its king in check; Ash,
		// boxed in by Black's rooks, escapes; Black takes White's king; White crowns a
		// pawn on g7, Black takes that king too, then Slate's: Black's is the last king,
		// Ash (escaped) ties.
		name:    "Royale",
		options: game.Options{"mode": "ROYALE", "position": board("wki1 wpe2 wpg6 aka9 skp8 bkh16 brb1 brb14 brg10 brf8", "1 w a s b - 0")},
		script: mv("e2e3", "escape", "p8p7", "b1i1",
			"g6g7k", "pass", "p7p6", "g10g7",
			"e3e4", "pass", "p6o7", "g7o7"),
		reason: "last king standing",
		winner: func(st sovereignchess.State) []int { return []int{st.Order[3]} },
	}}
}

func TestSovereignMatchesReplayAndVerify(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "arbiter.db")
	store, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Config{Store: store, Games: games()})
	matches := sovereignMatches(t)
	for _, m := range matches {
		plan, err := sovereignchess.Rules{}.Plan(m.options)
		if err != nil {
			t.Fatal(err)
		}
		ack, err := eng.Create(ctx, engine.CreateMatch{Game: sovereignchess.ID, Options: m.options}, engine.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		m.matchID = ack.MatchID
		players := make([]string, plan.Seats)
		for i := range players {
			players[i] = fmt.Sprintf("player-%d", i)
			act(t, eng, m.matchID, players[i], join)
		}
		for i, do := range m.script {
			snap, err := eng.Match(ctx, m.matchID)
			if err != nil {
				t.Fatal(err)
			}
			seat := snap.State.GameStatus(snap.Rules).ToAct[0]
			if _, err := eng.Handle(ctx, m.matchID, match.Act{PlayerID: players[seat], Do: do}, engine.Meta{}); err != nil {
				t.Fatalf("%s, action %d %+v by seat %d: %v", m.name, i+1, do, seat, err)
			}
		}
		snap, err := eng.Match(ctx, m.matchID)
		if err != nil {
			t.Fatal(err)
		}
		st := snap.State
		want := m.winner(st.GameState.(sovereignchess.State))
		if st.Status != match.Finished || st.Result == nil || st.Result.Reason != m.reason || !slices.Equal(st.Result.Winners, want) {
			t.Fatalf("%s ended %s %+v, want %q won by %v", m.name, st.Status, st.Result, m.reason, want)
		}
	}
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	// arbiter verify re-derives every match from the file.
	last, out := lastLine(t, "verify", "--db", db)
	if !strings.HasPrefix(last, "3 matches") || !strings.HasSuffix(last, "all ok") || strings.Count(out, "SOVEREIGN_CHESS") != 3 {
		t.Errorf("verify:\n%s", out)
	}

	store, err = sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	royale := matches[2]
	evs, err := store.ReadStream(ctx, engine.MatchStream(royale.matchID), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Replay at any version shows the position each move recorded, and the events say
	// what the script did.
	var types []string
	for _, ev := range evs {
		types = append(types, ev.Type)
		if ev.Type != "MovePlayed" {
			continue
		}
		var mv sovereignchess.MovePlayed
		if err := json.Unmarshal(ev.Payload, &mv); err != nil {
			t.Fatal(err)
		}
		snap, err := replay.State(ctx, store, games(), royale.matchID, ev.Version)
		if err != nil {
			t.Fatal(err)
		}
		if fen := snap.Rules.(game.Boarded).Board(snap.State.GameState).FEN; fen != mv.Position {
			t.Errorf("replay at version %d (%s): %s, the move recorded %s", ev.Version, mv.Move, fen, mv.Position)
		}
	}
	for _, typ := range []string{"ChecksAnnounced", "KingEscaped", "KingCaptured", "InterregnumBegun", "InterregnumEnded", "GameEnded", "MatchEnded"} {
		if !slices.Contains(types, typ) {
			t.Errorf("the Royale match records no %s: %v", typ, types)
		}
	}
	if r := replay.VerifyEvents(games(), engine.MatchStream(royale.matchID), evs); !r.OK() || r.Result == nil || r.Result.Reason != "last king standing" {
		t.Fatalf("the Royale match as stored: %+v", r)
	}

	// A forger who re-hashes the stream is caught by the rules: a move's position ...
	forged := slices.Clone(evs)
	v := slices.IndexFunc(forged, func(ev eventstore.Event) bool { return ev.Type == "MovePlayed" })
	forged[v].Payload = []byte(strings.Replace(string(forged[v].Payload), `"move":"e2e3"`, `"move":"e2e4"`, 1))
	wantRulesProblem(t, rehash(forged), forged[v].Version, "position")
	// ... and a check left unannounced.
	v = slices.IndexFunc(evs, func(ev eventstore.Event) bool { return ev.Type == "ChecksAnnounced" })
	wantRulesProblem(t, rehash(slices.Delete(slices.Clone(evs), v, v+1)), evs[v].Version, "where the rules record ChecksAnnounced")
}

// rehash renumbers a stream's events from 1 and chains their hashes again, as a forger
// who knows the hash scheme would.
func rehash(evs []eventstore.Event) []eventstore.Event {
	prev := ""
	for i := range evs {
		evs[i].Version = int64(i) + 1
		evs[i].PrevHash = prev
		evs[i].Hash = eventstore.Hash(prev, evs[i])
		prev = evs[i].Hash
	}
	return evs
}

// wantRulesProblem checks that a stream's first problem is the rules' at version.
func wantRulesProblem(t *testing.T, evs []eventstore.Event, version int64, what string) {
	t.Helper()
	r := replay.VerifyEvents(games(), evs[0].Stream, evs)
	if r.OK() {
		t.Fatalf("a forged stream verifies; want a rules problem at version %d", version)
	}
	if p := r.Problems[0]; p.Check != replay.CheckRules || p.Version != version || !strings.Contains(p.Detail, what) {
		t.Errorf("first problem %s; want the rules at version %d, naming %q", p, version, what)
	}
}
