package match_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/domain/match"
)

// A rematch keeps its seats for the players of the finished match: Bob, who played
// Black, now plays White; a stranger may take neither seat, and Alice may not take Bob's.
func TestARematchKeepsItsSeatsForItsPlayers(t *testing.T) {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "bob", RematchOf: "m1", Reserved: []string{"bob", "alice"}})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "mallory", Name: "Mallory", At: t0}, game.Forbidden)
	one := 1
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "mallory", Name: "Mallory", Seat: &one, At: t0}, game.Forbidden)
	zero := 0
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", Seat: &zero, At: t0}, game.Forbidden)
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	if tb.state.Status != match.Live || tb.state.SeatOf("alice") != 1 || tb.state.SeatOf("bob") != 0 {
		t.Fatalf("the rematch is not Bob against Alice: %+v", tb.state.Seats)
	}
}

func TestReservedSeatsMustMatchThePlan(t *testing.T) {
	_, err := match.Decide(rules, match.State{}, match.Create{Game: classic.ID, Seed: seed, At: t0, Reserved: []string{"bob"}})
	if game.CodeOf(err) != game.BadInput {
		t.Fatalf("one reserved seat for a two-seat match: %v", err)
	}
}

// rated creates a rated chess match with alice (White) and bob (Black) seated at t0 and
// the default rules for players who leave or never move.
func rated(t *testing.T, isRated bool) *table {
	tb := &table{t: t}
	rule := match.DefaultAbandon
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice", Rated: isRated, Abandon: &rule})
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	return tb
}

func wantResult(t *testing.T, tb *table, reason string, winners ...int) {
	t.Helper()
	r := tb.state.Result
	if tb.state.Status != match.Finished || r == nil || r.Reason != reason || len(r.Winners) != len(winners) {
		t.Fatalf("result %+v (status %s), want %s won by %v", r, tb.state.Status, reason, winners)
	}
	for i, w := range winners {
		if r.Winners[i] != w {
			t.Fatalf("winners %v, want %v", r.Winners, winners)
		}
	}
}

// Rating farming: an account that resigns a rated game before each side has moved gives
// nobody anything. The game is aborted, whoever resigns, until both have moved.
func TestARatedGameResignedBeforeEachSideMovedIsAborted(t *testing.T) {
	tb := rated(t, true)
	tb.do(match.Resign{PlayerID: "bob", At: t0})
	wantResult(t, tb, match.Aborted)

	tb = rated(t, true)
	tb.move("alice", "e4")
	tb.do(match.Resign{PlayerID: "bob", At: t0})
	wantResult(t, tb, match.Aborted)

	tb = rated(t, true)
	tb.move("alice", "e4")
	tb.do(match.OfferDraw{PlayerID: "alice", At: t0})
	tb.do(match.AcceptDraw{PlayerID: "bob", At: t0})
	wantResult(t, tb, match.Aborted)

	tb = rated(t, true)
	tb.move("alice", "e4")
	tb.move("bob", "e5")
	tb.do(match.Resign{PlayerID: "bob", At: t0})
	wantResult(t, tb, "resignation", 0)

	// A friendly game counts for nobody anyway: its resignation stands as one.
	tb = rated(t, false)
	tb.do(match.Resign{PlayerID: "bob", At: t0})
	wantResult(t, tb, "resignation", 0)
}

// A live match whose first moves do not come is aborted two minutes after its start,
// rated or not: a player who only uses HTTP is never "away", yet never moves.
func TestAMatchWithoutItsFirstMovesIsAborted(t *testing.T) {
	tb := rated(t, false)
	tb.move("alice", "e4")
	deadline := tb.state.Deadline(rules)
	if want := t0.Add(2 * time.Minute); !deadline.Equal(want) {
		t.Fatalf("the deadline is %s, want the abort at %s", deadline, want)
	}
	tb.refuse(match.Timeout{Deadline: deadline, At: deadline.Add(-time.Millisecond)}, game.Conflict)
	tb.do(match.Timeout{Deadline: deadline, At: deadline})
	wantResult(t, tb, match.Aborted)

	// Once each side has moved, nothing is due.
	tb = rated(t, false)
	tb.move("alice", "e4")
	tb.move("bob", "e5")
	if d := tb.state.Deadline(rules); !d.IsZero() {
		t.Fatalf("a deadline at %s after both first moves", d)
	}
}

// An open match can be cancelled by its creator, or by its only seated player, and its
// seat left by whoever sits there; a live match can be neither.
func TestCancelAndLeaveAnOpenMatch(t *testing.T) {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice"})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	tb.refuse(match.Cancel{PlayerID: "mallory"}, game.Forbidden)
	tb.refuse(match.Unseat{PlayerID: "alice"}, game.Forbidden) // not seated
	tb.do(match.Unseat{PlayerID: "bob"})
	if tb.state.SeatOf("bob") >= 0 || tb.state.Status != match.Open {
		t.Fatalf("Bob left: %+v", tb.state.Seats)
	}
	tb.do(match.Cancel{PlayerID: "alice"})
	wantResult(t, tb, match.Cancelled)
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0}, game.Conflict)

	// An anonymous creator: its only seated player may cancel it.
	tb = &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0})
	tb.refuse(match.Cancel{PlayerID: ""}, game.Forbidden)
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	tb.do(match.Cancel{PlayerID: "bob"})
	wantResult(t, tb, match.Cancelled)

	tb = rated(t, false)
	tb.refuse(match.Cancel{PlayerID: "alice"}, game.Conflict)
	tb.refuse(match.Unseat{PlayerID: "bob"}, game.Conflict)
}

// A refusal to cancel a match that has started tells whoever is seated nowhere in it no
// more than a delayed spectator sees: a spectator is refused as before the start, and a
// creator seated nowhere learns that it started, not whether it is over.
func TestCancelTellsASpectatorNothingOfTheMatch(t *testing.T) {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "carol"})
	refusal := func(player string) string {
		t.Helper()
		_, err := match.Decide(rules, tb.state, match.Cancel{PlayerID: player})
		if err == nil {
			t.Fatalf("%s cancelled a %s match", player, tb.state.Status)
		}
		return err.Error() // its code, then its message
	}
	open := refusal("mallory")
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	live, creatorLive := refusal("mallory"), refusal("carol")
	tb.do(match.Resign{PlayerID: "bob", At: t0})
	over, creatorOver := refusal("mallory"), refusal("carol")
	if live != open || over != open {
		t.Errorf("a spectator is refused %q before the start, %q live and %q over: want one refusal", open, live, over)
	}
	if creatorLive != creatorOver || !strings.Contains(creatorLive, "started") {
		t.Errorf("the creator seated nowhere is refused %q live and %q over: want one refusal, that it started", creatorLive, creatorOver)
	}
}

// A player whose connection closed is away from the moment it closed, even when the
// server tells the match a little later.
func TestAwayFromWhenTheConnectionClosed(t *testing.T) {
	tb := rated(t, false)
	closed := t0.Add(10 * time.Second)
	evs := tb.do(match.Leave{PlayerID: "bob", Since: closed, At: closed.Add(3 * time.Second)})
	if l := evs[0].Event.(match.SeatLeft); !l.At.Equal(closed) {
		t.Fatalf("Bob is away from %s, want %s", l.At, closed)
	}
}

// The house bot may sit at several seats of a friendly match (a player trying a game of
// more seats alone); it acts for the seat it names, and nobody else may take two seats.
func TestTheBotAtSeveralSeats(t *testing.T) {
	tb := &table{t: t}
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice"})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bot", Name: "Arbiter bot", Bot: true, At: t0})
	tb.refuse(match.Join{Entropy: entropy, PlayerID: "bot", Name: "Arbiter bot", At: t0}, game.Conflict) // not as the bot
	tb.do(match.Join{Entropy: entropy, PlayerID: "bot", Name: "Arbiter bot", Bot: true, At: t0})
	if tb.state.Status != match.Live || tb.state.Seats[0].PlayerID != "bot" || tb.state.Seats[1].PlayerID != "bot" {
		t.Fatalf("two bots: %+v", tb.state.Seats)
	}
	zero, one := 0, 1
	tb.refuse(match.Act{PlayerID: "bot", Seat: &one, Do: game.Move{Notation: "e4"}, At: t0}, game.NotYourTurn)
	tb.do(match.Act{PlayerID: "bot", Seat: &zero, Do: game.Move{Notation: "e4"}, At: t0})
	tb.do(match.Act{PlayerID: "bot", Seat: &one, Do: game.Move{Notation: "e5"}, At: t0})
	tb.refuse(match.Act{PlayerID: "alice", Seat: &zero, Do: game.Move{Notation: "Nf3"}, At: t0}, game.Forbidden)
}

// In UnfairChess a card that adds to the move and its move are one turn: White playing
// both does not open the game, and Black resigning then aborts the rated match.
func TestACardAndItsMoveAreOneTurn(t *testing.T) {
	var u unfair.Rules
	costs := map[string]string{}
	for _, c := range u.Catalog() {
		costs[c.ID] = c.Cost
	}
	for n := range 64 { // the first seed that deals White a playable card that adds to the move
		s := match.State{}
		cmds := []match.Command{
			match.Create{Game: unfair.ID, Seed: bytes.Repeat([]byte{byte(n)}, 32), At: t0, Rated: true},
			match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0}, match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0},
		}
		for _, c := range cmds {
			evs, err := match.Decide(u, s, c)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				s = match.Evolve(u, s, e.Event)
			}
		}
		for _, hc := range u.Hand(s.GameState, 0) {
			if !hc.Playable || costs[hc.Card] != "ADDS_TO_MOVE" {
				continue
			}
			legal := u.Board(s.GameState).LegalMoves
			var played match.State
			for _, mv := range legal { // a move that may follow the card
				evs, err := match.Decide(u, s, match.Act{PlayerID: "alice", Do: cards.PlayCard{Card: hc.Card, Slot: hc.Slot, Targets: hc.Targets[0], Move: mv}, At: t0})
				if err != nil {
					continue
				}
				played = s
				for _, e := range evs {
					played = match.Evolve(u, played, e.Event)
				}
				break
			}
			if played.Status == match.None {
				continue
			}
			evs, err := match.Decide(u, played, match.Resign{PlayerID: "bob", At: t0})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				played = match.Evolve(u, played, e.Event)
			}
			if r := played.Result; r == nil || r.Reason != match.Aborted {
				t.Fatalf("Black resigned after White's card and move: %+v", r)
			}
			return
		}
	}
	t.Fatal("no seed of 64 dealt White a playable card that adds to the move")
}

// A game that opens with a phase in which nobody moves (Ajedrez Mágico's planning of two
// minutes) is waited for from the end of that phase: the abort of a match without its
// first moves comes two minutes after the planning, not at its end.
func TestAPreludeDelaysTheAbort(t *testing.T) {
	magic := magicchess.Rules{}
	rule := match.DefaultAbandon
	var st match.State
	for _, cmd := range []match.Command{
		match.Create{Game: magicchess.ID, Seed: seed, At: t0, By: "alice", Abandon: &rule},
		match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0},
		match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0},
	} {
		evs, err := match.Decide(magic, st, cmd)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			st = match.Evolve(magic, st, e.Event)
		}
	}
	planEnds := t0.Add(2 * time.Minute)
	if d := st.Deadline(magic); !d.Equal(planEnds) {
		t.Fatalf("the first deadline is %s, want the planning's end %s", d, planEnds)
	}
	if at, ok := st.AbortAt(); !ok || !at.Equal(planEnds.Add(2*time.Minute)) {
		t.Fatalf("the abort is at %s, want two minutes after the planning", at)
	}
	evs, err := match.Decide(magic, st, match.Timeout{Deadline: planEnds, At: planEnds})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		st = match.Evolve(magic, st, e.Event)
	}
	if st.Status != match.Live {
		t.Fatalf("the planning's end ended the match: %+v", st.Result)
	}
	if at, _ := st.AbortAt(); !at.Equal(planEnds.Add(2 * time.Minute)) {
		t.Fatalf("after the planning the abort is at %s", at)
	}
}

// In Ajedrez Mágico's doubles two boards play at once: a seat that never moves does not
// escape the abort because the other board has played four turns. The match opens once
// each of the four seats has played (game.Opener); under the rules of magic-2026.2, which
// counted the table's turns, the same moves opened it, and a match of that version still
// folds as it did.
func TestADoublesSeatThatNeverMovesIsAborted(t *testing.T) {
	play := func(rules game.Rules, moves ...[2]string) match.State {
		t.Helper()
		abandon := match.DefaultAbandon
		cmds := []match.Command{match.Create{Game: magicchess.ID, Options: game.Options{"boards": "2", "clock": "off"}, Seed: seed, At: t0, By: "p0", Abandon: &abandon}}
		for _, p := range []string{"p0", "p1", "p2", "p3"} {
			cmds = append(cmds, match.Join{Entropy: entropy, PlayerID: p, Name: p, At: t0})
		}
		planEnds := t0.Add(2 * time.Minute)
		cmds = append(cmds, match.Timeout{Deadline: planEnds, At: planEnds})
		for _, m := range moves {
			cmds = append(cmds, match.Act{PlayerID: m[0], Do: game.Move{Notation: m[1]}, At: planEnds})
		}
		var st match.State
		for _, cmd := range cmds {
			evs, err := match.Decide(rules, st, cmd)
			if err != nil {
				t.Fatalf("%T %+v: %v", cmd, cmd, err)
			}
			for _, e := range evs {
				st = match.Evolve(rules, st, e.Event)
			}
		}
		return st
	}
	// Board A plays four turns; on board B, White (p2) moves and Black (p3) never does.
	moves := [][2]string{{"p0", "e4"}, {"p1", "e5"}, {"p0", "Nf3"}, {"p1", "Nc6"}, {"p2", "d4"}}
	st := play(magicchess.Rules{}, moves...)
	if st.Opened {
		t.Fatal("the match opened though seat 3 never moved")
	}
	at, ok := st.AbortAt()
	if want := t0.Add(4 * time.Minute); !ok || !at.Equal(want) {
		t.Fatalf("the abort is at %s (%v), want two minutes after the planning, %s", at, ok, want)
	}
	evs, err := match.Decide(magicchess.Rules{}, st, match.Timeout{Deadline: at, At: at})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		st = match.Evolve(magicchess.Rules{}, st, e.Event)
	}
	if st.Status != match.Finished || st.Result.Reason != match.Aborted {
		t.Fatalf("at the abort's deadline: %s %+v", st.Status, st.Result)
	}

	// Seat 3's first move opens it: nothing is due any more.
	st = play(magicchess.Rules{}, append(moves, [2]string{"p3", "d5"})...)
	if _, due := st.AbortAt(); !st.Opened || due {
		t.Fatal("the four seats have moved, and the match is not open")
	}
	// The same match without board B's first move: board A's turns alone do not open it.
	if st := play(magicchess.Rules{}, moves[:4]...); st.Opened {
		t.Fatal("board A's four turns opened the match")
	}

	// A match recorded under magic-2026.2 is played by its rules: the table's turns.
	old, ok := magicchess.Rules{}.Under("magic-2026.2")
	if !ok || old.Info().RulesVersion != "magic-2026.2" {
		t.Fatalf("the rules of magic-2026.2: %v %v", old, ok)
	}
	if st := play(old, moves[:4]...); !st.Opened {
		t.Fatal("under magic-2026.2 four turns of board A opened the match")
	}
}

// An action aside (game.Aside: a team signal of Ajedrez Mágico's doubles) comes from any
// seat still playing, its turn or not, and answers no draw offer; any other action of a
// seat not to act is refused as before.
func TestAnActionAsideComesFromAnySeat(t *testing.T) {
	magic := magicchess.Rules{}
	var st match.State
	do := func(cmd match.Command) error {
		evs, err := match.Decide(magic, st, cmd)
		for _, e := range evs {
			st = match.Evolve(magic, st, e.Event)
		}
		return err
	}
	planEnds := t0.Add(2 * time.Minute)
	for _, cmd := range []match.Command{
		match.Create{Game: magicchess.ID, Options: game.Options{"boards": "2", "clock": "off"}, Seed: seed, At: t0, By: "p0"},
		match.Join{Entropy: entropy, PlayerID: "p0", Name: "p0", At: t0}, match.Join{Entropy: entropy, PlayerID: "p1", Name: "p1", At: t0},
		match.Join{Entropy: entropy, PlayerID: "p2", Name: "p2", At: t0}, match.Join{Entropy: entropy, PlayerID: "p3", Name: "p3", At: t0},
		match.Timeout{Deadline: planEnds, At: planEnds},
		match.Act{PlayerID: "p0", Do: game.Move{Notation: "e4"}, At: planEnds},
		match.OfferDraw{PlayerID: "p0", At: planEnds},
	} {
		if err := do(cmd); err != nil {
			t.Fatalf("%T %+v: %v", cmd, cmd, err)
		}
	}
	// Seat 1 is to act on board A, seat 2 on board B: seat 0 and seat 3 are not.
	if err := do(match.Act{PlayerID: "p3", Do: game.Move{Notation: "e5"}, At: planEnds}); game.CodeOf(err) != game.NotYourTurn {
		t.Fatalf("a move of seat 3 before board B's White moved: %v", err)
	}
	if err := do(match.Act{PlayerID: "p3", Do: magicchess.SendSignal{Signal: "save-ready"}, At: planEnds}); err != nil {
		t.Fatalf("a signal of seat 3 out of its turn: %v", err)
	}
	if err := do(match.Act{PlayerID: "p1", Do: magicchess.SendSignal{Signal: "no-save"}, At: planEnds}); err != nil {
		t.Fatalf("a signal of seat 1 in its turn: %v", err)
	}
	if st.DrawOfferBy != 0 {
		t.Fatalf("a signal answered seat 0's draw offer: offer by %d", st.DrawOfferBy)
	}
	if err := do(match.Act{PlayerID: "p1", Do: game.Move{Notation: "e5"}, At: planEnds}); err != nil || st.DrawOfferBy >= 0 {
		t.Fatalf("seat 1's move, which declines the offer: %v, offer by %d", err, st.DrawOfferBy)
	}
}
