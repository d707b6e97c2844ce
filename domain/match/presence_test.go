package match_test

import (
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/domain/match"
)

// present creates a chess match with the default rule for players who leave, without
// the abort of a match whose first moves do not come (fairplay_test.go tests it).
func present(t *testing.T) *table {
	tb := &table{t: t}
	rule := match.DefaultAbandon
	rule.FirstMovesMs = 0
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice", Abandon: &rule})
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	return tb
}

func types(evs []game.Emitted) string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Event.EventType())
	}
	return strings.Join(out, " ")
}

func TestAClaimAfterThirtySecondsAway(t *testing.T) {
	tb := present(t)
	tb.do(match.Leave{PlayerID: "bob", At: t0})
	tb.refuse(match.Leave{PlayerID: "bob", At: t0.Add(time.Second)}, game.Conflict)
	_, err := match.Decide(rules, tb.state, match.ClaimVictory{PlayerID: "alice", At: t0.Add(10 * time.Second)})
	if game.CodeOf(err) != game.Conflict || !strings.Contains(err.Error(), "in 20s") {
		t.Fatalf("a claim 10 s after Bob left: %v", err)
	}
	tb.refuse(match.ClaimVictory{PlayerID: "bob", At: t0.Add(40 * time.Second)}, game.Conflict) // Alice never left
	evs := tb.do(match.ClaimVictory{PlayerID: "alice", At: t0.Add(30 * time.Second)})
	if got := types(evs); got != "Forfeited Resigned MatchEnded SeedRevealed" {
		t.Fatalf("Alice's claim recorded %s", got)
	}
	if r := tb.state.Result; r == nil || len(r.Winners) != 1 || r.Winners[0] != 0 || r.Reason != "abandonment" {
		t.Fatalf("result %+v", r)
	}
	if f := evs[0].Event.(match.Forfeited); f.Seat != 1 || f.ClaimedBy != 0 {
		t.Fatalf("%+v", f)
	}
}

func TestAForfeitAtTwoMinutes(t *testing.T) {
	tb := present(t)
	tb.do(match.Act{PlayerID: "alice", Do: game.Move{Notation: "e4"}, At: t0})
	left := t0.Add(5 * time.Second)
	tb.do(match.Leave{PlayerID: "bob", At: left})
	deadline := tb.state.Deadline(rules)
	if want := left.Add(2 * time.Minute); !deadline.Equal(want) {
		t.Fatalf("the deadline is %s, want Bob's forfeit at %s", deadline, want)
	}
	tb.refuse(match.Timeout{Deadline: deadline, At: deadline.Add(-time.Millisecond)}, game.Conflict)
	evs := tb.do(match.Timeout{Deadline: deadline, At: deadline})
	if got := types(evs); got != "Forfeited Resigned MatchEnded SeedRevealed" || evs[0].Event.(match.Forfeited).ClaimedBy != -1 {
		t.Fatalf("the timeout recorded %s %+v", got, evs[0].Event)
	}
	if r := tb.state.Result; r.Winners[0] != 0 || r.Reason != "abandonment" {
		t.Fatalf("result %+v", r)
	}
}

func TestComingBackCancelsTheClaim(t *testing.T) {
	tb := present(t)
	tb.refuse(match.Return{PlayerID: "bob", At: t0}, game.Conflict) // Bob never left
	tb.do(match.Leave{PlayerID: "bob", At: t0})
	tb.do(match.Return{PlayerID: "bob", At: t0.Add(10 * time.Second)})
	if !tb.state.Deadline(rules).IsZero() {
		t.Fatalf("a forfeit is still due after Bob came back: %s", tb.state.Deadline(rules))
	}
	_, err := match.Decide(rules, tb.state, match.ClaimVictory{PlayerID: "alice", At: t0.Add(time.Hour)})
	if game.CodeOf(err) != game.Conflict || !strings.Contains(err.Error(), "no opponent has left") {
		t.Fatalf("a claim after Bob came back: %v", err)
	}
	// The forfeit timer set while Bob was away rings for nothing.
	tb.refuse(match.Timeout{Deadline: t0.Add(2 * time.Minute), At: t0.Add(2 * time.Minute)}, game.Conflict)

	// Playing is being back: Alice leaves, then moves.
	tb.do(match.Leave{PlayerID: "alice", At: t0.Add(time.Minute)})
	if got := types(tb.do(match.Act{PlayerID: "alice", Do: game.Move{Notation: "d4"}, At: t0.Add(2 * time.Minute)})); got != "SeatReturned MovePlayed" {
		t.Fatalf("Alice moved while away: %s", got)
	}
	if _, away := tb.state.Away(0); away {
		t.Fatalf("Alice is still away after moving")
	}
}

func TestWithoutARuleNobodyForfeits(t *testing.T) {
	tb := newGame(t) // created without an Abandon rule, as matches were before it
	tb.do(match.Leave{PlayerID: "bob", At: t0})
	if !tb.state.Deadline(rules).IsZero() {
		t.Fatalf("a deadline without a rule: %s", tb.state.Deadline(rules))
	}
	tb.refuse(match.ClaimVictory{PlayerID: "alice", At: t0.Add(time.Hour)}, game.Conflict)
}

func TestPresenceOnlyInALiveMatch(t *testing.T) {
	tb := &table{t: t}
	rule := match.DefaultAbandon
	tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice", Abandon: &rule})
	tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
	tb.refuse(match.Leave{PlayerID: "alice", At: t0}, game.Conflict) // not started
	tb.do(match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob", At: t0})
	tb.refuse(match.Leave{PlayerID: "carol", At: t0}, game.Forbidden) // not seated
	tb.do(match.Resign{PlayerID: "bob", At: t0})
	tb.refuse(match.Leave{PlayerID: "alice", At: t0}, game.Conflict) // over
}

// A finished match is settled once its seed is revealed, not between MatchEnded and
// SeedRevealed.
func TestSettledAroundTheEnd(t *testing.T) {
	tb := present(t)
	if !tb.state.Settled(rules) {
		t.Fatal("a live match between moves is not settled")
	}
	evs, err := match.Decide(rules, tb.state, match.Resign{PlayerID: "bob", At: t0})
	if err != nil {
		t.Fatal(err)
	}
	st := tb.state
	for _, e := range evs {
		st = match.Evolve(rules, st, e.Event)
		_, ended := e.Event.(match.MatchEnded)
		if st.Settled(rules) == ended {
			t.Fatalf("after %s: settled=%v", e.Event.EventType(), st.Settled(rules))
		}
	}
}

// Against the bot, a player who leaves is waited for longer: its forfeit comes at
// BotForfeitAfter, not ForfeitAfter. A match with a human opponent keeps ForfeitAfter.
func TestAGameAgainstTheBotWaitsLonger(t *testing.T) {
	for _, c := range []struct {
		name     string
		rule     match.Abandon
		opponent match.Join
		wait     time.Duration
	}{
		{"the bot", match.DefaultAbandon, match.Join{Entropy: entropy, PlayerID: "bot", Name: "Arbiter bot", Bot: true}, 10 * time.Minute},
		{"a player", match.DefaultAbandon, match.Join{Entropy: entropy, PlayerID: "bob", Name: "Bob"}, 2 * time.Minute},
	} {
		t.Run(c.name, func(t *testing.T) {
			tb := &table{t: t}
			tb.do(match.Create{Game: classic.ID, Seed: seed, At: t0, By: "alice", Abandon: &c.rule})
			tb.do(match.Join{Entropy: entropy, PlayerID: "alice", Name: "Alice", At: t0})
			c.opponent.At = t0
			tb.do(c.opponent)
			if tb.state.Seats[1].Bot != c.opponent.Bot {
				t.Fatalf("seat 1 is %+v", tb.state.Seats[1])
			}
			tb.move("alice", "e4") // both move first: else the match is aborted at two minutes
			tb.move(c.opponent.PlayerID, "e5")
			left := t0.Add(5 * time.Second)
			tb.do(match.Leave{PlayerID: "alice", At: left})
			deadline := tb.state.Deadline(rules)
			if want := left.Add(c.wait); !deadline.Equal(want) {
				t.Fatalf("the deadline is %s, want Alice's forfeit at %s", deadline, want)
			}
			if c.wait > 2*time.Minute { // the human wait is no deadline against the bot
				early := left.Add(2 * time.Minute)
				tb.refuse(match.Timeout{Deadline: early, At: early}, game.Conflict)
			}
			tb.refuse(match.Timeout{Deadline: deadline, At: deadline.Add(-time.Millisecond)}, game.Conflict)
			if evs := tb.do(match.Timeout{Deadline: deadline, At: deadline}); types(evs) != "Forfeited Resigned MatchEnded SeedRevealed" {
				t.Fatalf("the timeout recorded %s", types(evs))
			}
			if r := tb.state.Result; r.Winners[0] != 1 || r.Reason != "abandonment" {
				t.Fatalf("result %+v", r)
			}
		})
	}
}
