package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/sovereign"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/matchstream"
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
		script:  slices.Concat(mv("i1h1"), []any{game.Choose{Option: "keep"}, sovereignchess.Defect{Colour: "Navy"}}, mv("e13a13")),
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

// sovereignEngine opens an SQLite file in a temporary folder, and an engine on it.
func sovereignEngine(t *testing.T) (string, eventstore.Store, *engine.Engine) {
	t.Helper()
	db := filepath.Join(t.TempDir(), "arbiter.db")
	store, err := openStore(context.Background(), db) // signed with arbiter.key beside it
	if err != nil {
		t.Fatal(err)
	}
	return db, store, engine.New(engine.Config{Store: store, Games: games()})
}

func TestSovereignMatchesReplayAndVerify(t *testing.T) {
	ctx := context.Background()
	db, store, eng := sovereignEngine(t)
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
	if !regexp.MustCompile(`FINISHED seat \d \(player-\d\) wins \(last king standing\)`).MatchString(out) {
		t.Errorf("verify shows a Royale result as a two-player score:\n%s", out)
	}

	store, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	royale := matches[2]
	evs, err := store.ReadStream(ctx, matchstream.Name(royale.matchID), 0, 0)
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
	if r := replay.VerifyEvents(games(), matchstream.Name(royale.matchID), evs); !r.OK() || r.Result == nil || r.Result.Reason != "last king standing" {
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

// Resignations in Sovereign Chess Royale through the engine: a seat that resigns while
// other teams are left withdraws from the game (PlayerWithdrew), its turns are skipped,
// and the others play on; the match ends when one team is left (by resignation) or when
// a withdrawal leaves one king (the last king standing). Both matches replay and verify,
// and forgeries of withdrawals are caught.

// royaleTable is a Royale match being played through the engine.
type royaleTable struct {
	t       *testing.T
	eng     *engine.Engine
	store   eventstore.Store
	id      string
	players []string
}

func newRoyaleTable(t *testing.T, eng *engine.Engine, store eventstore.Store, opts game.Options) *royaleTable {
	t.Helper()
	ack, err := eng.Create(context.Background(), engine.CreateMatch{Game: sovereignchess.ID, Options: opts}, engine.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	tb := &royaleTable{t: t, eng: eng, store: store, id: ack.MatchID}
	for i := range 4 {
		tb.players = append(tb.players, fmt.Sprintf("royal-%d", i))
		act(t, eng, tb.id, tb.players[i], join)
	}
	return tb
}

// state is the match now, and the game's state in it.
func (tb *royaleTable) state() (match.State, sovereignchess.State) {
	tb.t.Helper()
	snap, err := tb.eng.Match(context.Background(), tb.id)
	if err != nil {
		tb.t.Fatal(err)
	}
	return snap.State, snap.State.GameState.(sovereignchess.State)
}

// toAct is the seat to act.
func (tb *royaleTable) toAct() int {
	tb.t.Helper()
	ms, _ := tb.state()
	toAct := ms.GameStatus(sovereignchess.Rules{}).ToAct
	if len(toAct) != 1 {
		tb.t.Fatalf("seats to act: %v", toAct)
	}
	return toAct[0]
}

// seat is the seat that plays Royale player pl (0 White, 1 Ash, 2 Slate, 3 Black).
func (tb *royaleTable) seat(pl int) int {
	_, gs := tb.state()
	return gs.Order[pl]
}

// play has the seat to act play its first legal move, n times, and returns the seats
// that played.
func (tb *royaleTable) play(n int) []int {
	tb.t.Helper()
	var seats []int
	for range n {
		_, gs := tb.state()
		seat := tb.toAct()
		moves := sovereignchess.Rules{}.Board(gs).LegalMoves
		do := game.Move{Notation: moves[0]}
		if _, err := tb.eng.Handle(context.Background(), tb.id, match.Act{PlayerID: tb.players[seat], Do: do}, engine.Meta{}); err != nil {
			tb.t.Fatalf("seat %d plays %s: %v", seat, do.Notation, err)
		}
		seats = append(seats, seat)
	}
	return seats
}

// resign has seat resign and returns the events it caused.
func (tb *royaleTable) resign(seat int) []game.Event {
	tb.t.Helper()
	ctx := context.Background()
	ack, err := tb.eng.Handle(ctx, tb.id, match.Resign{PlayerID: tb.players[seat]}, engine.Meta{})
	if err != nil {
		tb.t.Fatalf("seat %d resigns: %v", seat, err)
	}
	evs, err := tb.store.ReadStream(ctx, matchstream.Name(tb.id), ack.FirstVersion-1, 0)
	if err != nil {
		tb.t.Fatal(err)
	}
	rules := sovereignchess.Rules{}
	var out []game.Event
	for _, ev := range evs {
		d, err := matchstream.Record(ev).Decode(rules)
		if err != nil {
			tb.t.Fatal(err)
		}
		if _, ok := d.(match.SeedRevealed); !ok {
			out = append(out, d)
		}
	}
	return out
}

// withdrew is what a resignation records while the match goes on: Resigned, then the
// game's PlayerWithdrew and what follows it.
func withdrew(seat int, colour, square string, then ...game.Event) []game.Event {
	return append([]game.Event{match.Resigned{Seat: seat}, sovereignchess.PlayerWithdrew{Seat: seat, Colour: colour, Square: square}}, then...)
}

// kingOf is the square of Royale player pl's king.
func kingOf(gs sovereignchess.State, pl int) string {
	pos := gs.Game.Position()
	k, _ := pos.King(sovereign.Player(pl))
	return k.String()
}

func TestSovereignRoyaleResignations(t *testing.T) {
	ctx := context.Background()
	db, store, eng := sovereignEngine(t)

	// From the Royale start: a round, then Slate resigns while White is to act.
	start := newRoyaleTable(t, eng, store, game.Options{"mode": "ROYALE"})
	white, ash, slate, black := start.seat(0), start.seat(1), start.seat(2), start.seat(3)
	same := func(what string, got, want any) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
		}
	}
	same("a round", start.play(4), []int{white, ash, slate, black})
	_, gs := start.state()
	same("Slate resigns", start.resign(slate), withdrew(slate, "slate", kingOf(gs, 2)))
	same("White still to act", start.toAct(), white)
	// The three others play on; Slate is skipped.
	same("two rounds of three", start.play(6), []int{white, ash, black, white, ash, black})
	// White, to act, resigns: Ash acts next, then Black, and so on.
	_, gs = start.state()
	same("White resigns", start.resign(white), withdrew(white, "white", kingOf(gs, 0)))
	same("Ash and Black play on", start.play(4), []int{ash, black, ash, black})
	// Black resigns: one team is left, the match is Ash's, and the game is not asked.
	same("Black resigns", start.resign(black), []game.Event{match.Resigned{Seat: black}, match.MatchEnded{Winners: []int{ash}, Reason: "resignation"}})
	if ms, _ := start.state(); ms.Status != match.Finished {
		t.Fatalf("the match is %s", ms.Status)
	}

	// From a position where Black lost its king: Slate resigns, not to act; later White,
	// to act, resigns too, and Ash's is the last king standing.
	board, err := sovereign.BoardNotation("wki1 wpe2 aka9 apb9 skp8 spo8 bpg15")
	if err != nil {
		t.Fatal(err)
	}
	last := newRoyaleTable(t, eng, store, game.Options{"mode": "ROYALE", "position": board + " 1 w a s b - 0"})
	white, ash, slate, black = last.seat(0), last.seat(1), last.seat(2), last.seat(3)
	same("a round", last.play(4), []int{white, ash, slate, black})
	_, gs = last.state()
	same("Slate resigns", last.resign(slate), withdrew(slate, "slate", kingOf(gs, 2)))
	_, gs = last.state()
	same("interregnum", sovereignchess.Rules{}.Board(gs).Interregnum, []int{black})
	same("a round of three", last.play(3), []int{white, ash, black})
	_, gs = last.state()
	standings := make([]string, 4)
	standings[white], standings[ash], standings[slate], standings[black] = "lost", "won", "lost", "lost"
	same("White resigns", last.resign(white), withdrew(white, "white", kingOf(gs, 0),
		sovereignchess.GameEnded{Reason: "last king standing", Winners: []int{ash}, Standings: standings},
		match.MatchEnded{Winners: []int{ash}, Reason: "last king standing"}))
	if err := store.Close(); err != nil {
		t.Fatal(err)
	}

	// arbiter verify re-derives both matches from the file.
	lastLn, out := lastLine(t, "verify", "--db", db)
	if !strings.HasPrefix(lastLn, "2 matches") || !strings.HasSuffix(lastLn, "all ok") {
		t.Errorf("verify:\n%s", out)
	}
	// arbiter replay shows the 16x16 board, the seats, and the moves by ply.
	_, out = lastLine(t, "replay", "--db", db, "--match", last.id)
	ranks := regexp.MustCompile(`(?m)^(1[0-6]| [1-9])  [a-zA-Z.]`).FindAllString(out, -1)
	for _, want := range []string{
		"\n16  ", "\n 1  ", "\n    a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p\n",
		fmt.Sprintf("seat %d: withdrew\n", white), fmt.Sprintf("seat %d: withdrew\n", slate),
		fmt.Sprintf("seat %d: ash, king ", ash), fmt.Sprintf("seat %d: black, no king (Interregnum)", black),
		"\n1. ", " 7. ", "FEN: ", "status: FINISHED\n", fmt.Sprintf("result: seat %d (royal-%d) wins (last king standing)\n", ash, ash),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("replay lacks %q:\n%s", want, out)
		}
	}
	if len(ranks) != 16 {
		t.Errorf("replay draws %d ranks, want 16:\n%s", len(ranks), out)
	}

	store, err = sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, tb := range []*royaleTable{start, last} {
		evs, err := store.ReadStream(ctx, matchstream.Name(tb.id), 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r := replay.VerifyEvents(games(), matchstream.Name(tb.id), evs); !r.OK() {
			t.Fatalf("match %s: %v", tb.id, r.Err())
		}
		// A forger who drops a withdrawal and re-hashes: the resigned seat would keep
		// its turns.
		w := slices.IndexFunc(evs, func(ev eventstore.Event) bool { return ev.Type == "PlayerWithdrew" })
		wantRulesProblem(t, rehash(slices.Delete(slices.Clone(evs), w, w+1)), evs[w].Version, "records PlayerWithdrew")
		// One who drops the resignation before it: a withdrawal that nobody asked for.
		wantRulesProblem(t, rehash(slices.Delete(slices.Clone(evs), w-1, w)), evs[w-1].Version, "did not resign")
	}
}
