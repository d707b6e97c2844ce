package sovereignchess_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/replay"
)

// Matches on the clock through the engine, their time read from a fake clock: the first
// seat to act moves, then nobody does. Each deadline's timeout, submitted as the engine's
// scheduler does, times the seats out one after the other: in a two-player game
// the chooser's flag falls during the opening choice and the first mover wins; in Royale
// three flags fall, each seat leaving the game as if it withdrew, and the first mover is
// the last king standing. replay.Verify accepts both streams.
func TestFlagsFallThroughTheEngine(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   game.Options
		flags  int
		reason string
		winner func(sovereignchess.State) int
	}{
		{"two players", game.Options{"clock": "1+0"}, 1, "timeout",
			func(st sovereignchess.State) int { return st.FirstMover }},
		{"Royale", game.Options{"clock": "1+0", "mode": sovereignchess.Royale}, 3, "last king standing",
			func(st sovereignchess.State) int { return st.Order[0] }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := gametest.NewTable(t, sovereignchess.Rules{}, tc.opts, 1)
			tb.After(10 * time.Second)
			ms, st := tb.Snapshot()
			move := game.Move{Notation: sovereignchess.Rules{}.Board(ms.GameState).LegalMoves[0]}
			tb.Act(st.ToAct[0], move)
			ms = tb.TimeOut()
			want := []int{tc.winner(ms.GameState.(sovereignchess.State))}
			if ms.Result == nil || ms.Result.Reason != tc.reason || !slices.Equal(ms.Result.Winners, want) {
				t.Fatalf("result %+v, want %v by %s", ms.Result, want, tc.reason)
			}
			tb.Verify()
			flags := 0
			for _, ev := range tb.Events() {
				if ev.Type == "FlagFell" {
					flags++
				}
			}
			if flags != tc.flags {
				t.Errorf("%d flags fell, want %d", flags, tc.flags)
			}
		})
	}
}

// A Royale seat that resigns on its turn through the engine withdraws at the time of its
// resignation: the next seat's clock starts then, and replay.Verify accepts the stream,
// but not one whose withdrawal records another time, or none.
func TestRoyaleResignationOnTheClockThroughTheEngine(t *testing.T) {
	tb := gametest.NewTable(t, sovereignchess.Rules{}, game.Options{"clock": "1+0", "mode": sovereignchess.Royale}, 1)
	tb.After(10 * time.Second)
	_, st := tb.Snapshot()
	resigner := st.ToAct[0]
	tb.Must(match.Resign{PlayerID: gametest.Player(resigner)})
	ms, st := tb.Snapshot()
	if want := gametest.Noon.Add(70 * time.Second); ms.Status != match.Live || !st.Deadline.Equal(want) || slices.Contains(st.ToAct, resigner) {
		t.Fatalf("after seat %d resigned at 12:00:10: %s, %+v; want the next seat to act until %s", resigner, ms.Status, st, want)
	}
	evs := tb.Events()
	w := slices.IndexFunc(evs, func(ev eventstore.Event) bool { return ev.Type == "PlayerWithdrew" })
	if w < 0 || !strings.Contains(string(evs[w].Payload), `"at":"2026-11-30T12:00:10Z"`) {
		t.Fatalf("the withdrawal as stored: %+v", evs[w:])
	}
	if r := tb.VerifyEvents(evs); !r.OK() {
		t.Fatalf("verify: %v", r.Err())
	}
	// The payload changed, the hash chain breaks: the rules' verdict is what is checked.
	rules := func(payload string) []replay.Problem {
		forged := slices.Clone(evs)
		forged[w].Payload = []byte(payload)
		var out []replay.Problem
		for _, p := range tb.VerifyEvents(forged).Problems {
			if p.Check != replay.CheckChain {
				out = append(out, p)
			}
		}
		return out
	}
	old := strings.Replace(string(evs[w].Payload), `,"at":"2026-11-30T12:00:10Z"`, "", 1)
	if ps := rules(old); len(ps) == 0 || ps[0].Check != replay.CheckRules || ps[0].Version != evs[w].Version || old == string(evs[w].Payload) {
		t.Errorf("the withdrawal stored without its time %s: %v", old, ps)
	}
	if ps := rules(strings.Replace(string(evs[w].Payload), "12:00:10Z", "12:00:05Z", 1)); len(ps) == 0 || ps[0].Check != replay.CheckRules || ps[0].Version != evs[w].Version {
		t.Errorf("a withdrawal that records another time: %v", ps)
	}
}

// A Royale seat whose flag fell is out of the match as a resigned one is: it can no
// longer offer a draw nor hold one up, and the others agree one among themselves,
// whether they agree after the flag fell or only its acceptance was awaited. Both
// streams verify.
func TestRoyaleDrawWithoutTheSeatOutOnTime(t *testing.T) {
	for _, early := range []bool{false, true} {
		tb := gametest.NewTable(t, sovereignchess.Rules{}, game.Options{"clock": "1+0", "mode": sovereignchess.Royale}, 1)
		_, st := tb.Snapshot()
		flagged := st.ToAct[0]
		var others []int
		for seat := range 4 {
			if seat != flagged {
				others = append(others, seat)
			}
		}
		do := tb.Do
		must := func(seat int, cmd match.Command) {
			t.Helper()
			if err := do(cmd); err != nil {
				t.Fatalf("seat %d %T: %v", seat, cmd, err)
			}
		}
		if early { // the offer and two acceptances come first: the flagged seat's is awaited
			must(others[0], match.OfferDraw{PlayerID: gametest.Player(others[0])})
			must(others[1], match.AcceptDraw{PlayerID: gametest.Player(others[1])})
			must(others[2], match.AcceptDraw{PlayerID: gametest.Player(others[2])})
		}
		tb.After(61 * time.Second)
		tb.Timeout(st.Deadline)
		ms, st := tb.Snapshot()
		if !early {
			if ms.Status != match.Live || !slices.Equal(st.Out, []int{flagged}) || !slices.Equal(ms.Playing(sovereignchess.Rules{}), others) {
				t.Fatalf("after seat %d's flag fell: %s, %+v, playing %v", flagged, ms.Status, st, ms.Playing(sovereignchess.Rules{}))
			}
			for _, cmd := range []match.Command{match.OfferDraw{PlayerID: gametest.Player(flagged)}, match.Resign{PlayerID: gametest.Player(flagged)}} {
				if err := do(cmd); game.CodeOf(err) != game.Forbidden {
					t.Fatalf("seat %d, out on time, %T: %v", flagged, cmd, err)
				}
			}
			must(others[0], match.OfferDraw{PlayerID: gametest.Player(others[0])})
			must(others[1], match.AcceptDraw{PlayerID: gametest.Player(others[1])})
			if ms, _ = tb.Snapshot(); ms.Status != match.Live {
				t.Fatalf("one acceptance of two ended the match: %+v", ms.Result)
			}
			must(others[2], match.AcceptDraw{PlayerID: gametest.Player(others[2])})
			ms, _ = tb.Snapshot()
		}
		if ms.Status != match.Finished || ms.Result.Reason != "agreement" || len(ms.Result.Winners) != 0 {
			t.Fatalf("early offer %v: the match is %s, %+v", early, ms.Status, ms.Result)
		}
		tb.Verify()
	}
}
