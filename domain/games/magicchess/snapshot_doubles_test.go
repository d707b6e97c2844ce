package magicchess

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
)

// doublesKinds are the doubles matches TestStoredDoublesStates plays, by rules version
// ("" is RulesVersion) and options: classic and advanced, with the doubles clock, with a
// short one that flags fall on, and without; small hands, so that seats draw and the
// discard is reshuffled.
var doublesKinds = []struct {
	version string
	opts    game.Options
}{
	{"", game.Options{"boards": "2", "hand": "3"}},
	{"", game.Options{"boards": "2", "mode": Advanced, "reaction": "2", "clock": "off", "hand": "4"}},
	{"", game.Options{"boards": "2", "mode": Advanced, "clock": "1+2", "hand": "2"}},
	{"", game.Options{"boards": "2", "mode": Classic, "clock": "off"}},
	{"magic-2026.1", game.Options{"boards": "2", "hand": "3"}},
	{"magic-2026.2", game.Options{"boards": "2", "clock": "off", "hand": "2"}},
	{"magic-2026.3", game.Options{"boards": "2", "mode": Advanced, "reaction": "3", "hand": "3"}},
	{"magic-2026.3", game.Options{"boards": "2", "hand": "2", "clock": "off"}},
}

// TestStoredDoublesStates plays seeded random doubles matches, classic and advanced
// (windows on either board, captures waiting to pass, draws, reshuffles, signals, a
// team's concession), under every rules version, and checks the stored form after every
// event (gametest.Snapshots): Status, every seat's and a spectator's View and plays,
// Decide of plays and refused actions, and the rest of the match folded on both. It
// holds for every seed.
func TestStoredDoublesStates(t *testing.T) {
	for seed, k := range doublesKinds {
		t.Run(fmt.Sprint(seed, k.version, k.opts), func(t *testing.T) {
			r := rulesOf(t, k.version)
			m := storedTable(t, r, k.opts, uint64(seed), 110)
			viewers := []game.Viewpoint{{}, {Over: true}}
			for seat := range DoublesSeats {
				viewers = append(viewers, game.Viewpoint{Seats: []int{seat}, Teams: []int{teamOf(seat)}})
			}
			gametest.Snapshots(t, r, m, viewers, func(st game.State) []game.Action { return tableProbes(r, st) })
		})
	}
}

// rulesOf is the rules of version ("" the current).
func rulesOf(t testing.TB, version string) Rules {
	t.Helper()
	if version == "" {
		return Rules{}
	}
	old, ok := Rules{}.Under(version)
	if !ok {
		t.Fatalf("no rules %s", version)
	}
	return old.(Rules)
}

// storedTable plays a seeded random doubles match of at most actions actions: a seat to
// act takes a play its view lists, cards two times in three; now and then a seat signals
// its partner, or the deadline passes (always when nobody may act); in the match of seed
// 0 a seat resigns late, which concedes the match from magic-2026.4 on.
func storedTable(t testing.TB, r Rules, opts game.Options, seed uint64, actions int) gametest.Folded {
	rng := rand.New(rand.NewPCG(seed, 0xd0b1e5))
	m, st := setUp(t, r, game.Setup{Plan: game.Plan{Seats: DoublesSeats, Teams: doublesTeams}, Options: opts,
		Seed: fmt.Appendf(nil, "stored doubles %d", seed), At: t0})
	now := t0
	for i := range actions {
		status := r.Status(st)
		if status.Over {
			break
		}
		now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		var evs []game.Emitted
		var err error
		switch seat := rng.IntN(DoublesSeats); {
		case rng.IntN(12) == 0:
			evs, err = r.Decide(st, game.Action{Seat: seat, At: now, Do: SendSignal{Signal: Signals[rng.IntN(len(Signals))]}})
			if game.CodeOf(err) == game.Conflict { // the seat's last signal is that one already
				continue
			}
		case seed == 0 && i == actions*3/4:
			evs = r.Withdraw(st, seat, now)
		default:
			evs, err = r.Decide(st, tableAction(t, r, st, rng, &now))
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, e := range evs {
			st = m.Add(r, e.Event)
		}
	}
	return m
}

// tableAction is a random action at the table st: a play of a seat to act, or the
// timeout of the earliest deadline.
func tableAction(t testing.TB, r Rules, st game.State, rng *rand.Rand, now *time.Time) game.Action {
	status := r.Status(st)
	var plays []game.Play
	if len(status.ToAct) > 0 {
		seat := status.ToAct[rng.IntN(len(status.ToAct))]
		for _, p := range r.View(st, game.Viewpoint{Seats: []int{seat}, Teams: []int{teamOf(seat)}}).Plays() {
			if p.Seat == seat {
				plays = append(plays, p)
			}
		}
	}
	// A window's reading time or answer lapses now and then, a flag seldom (the deadline
	// of a seat's clock is minutes away).
	lapse := strings.HasPrefix(status.Phase, "reaction-") && rng.IntN(4) == 0 || rng.IntN(300) == 0
	if !status.Deadline.IsZero() && (len(plays) == 0 || lapse) {
		*now = maxTime(*now, status.Deadline)
		return game.Action{Seat: game.System, At: *now, Do: game.Timeout{Deadline: status.Deadline}}
	}
	if len(plays) == 0 {
		t.Fatalf("nobody may act and no deadline is set: %+v", status)
	}
	return timedPlay(rng, plays, status, now)
}

// tableProbes are the actions whose decisions a table read back must share: some of the
// plays each seat's view lists, a signal, the timeout, and actions refused (a move that
// is none, a move on the other board, a timeout that is not due).
func tableProbes(r Rules, st game.State) []game.Action {
	t := st.(Table)
	if !t.settled() {
		return nil // the engine decides only between commands
	}
	status := r.Status(t)
	at := t.PlanEnds.Add(-time.Second)
	if t.Phase == Play {
		at = t.PlanEnded
		for _, b := range t.Boards {
			at = maxTime(at, b.Clock.TurnStart)
			if b.Window != nil {
				at = maxTime(at, b.Window.At)
			}
		}
		at = at.Add(time.Second)
		if !status.Deadline.IsZero() && !at.Before(status.Deadline) {
			at = status.Deadline.Add(-time.Millisecond)
		}
	}
	var out []game.Action
	for seat := range DoublesSeats {
		plays := r.View(t, game.Viewpoint{Seats: []int{seat}, Teams: []int{teamOf(seat)}}).Plays()
		for i := 0; i < len(plays); i += max(1, len(plays)/5) {
			out = append(out, game.Action{Seat: seat, At: at, Do: plays[i].Do})
		}
		out = append(out,
			game.Action{Seat: seat, At: at, Do: game.Move{Notation: "a1a8"}},
			game.Action{Seat: seat, At: at, Do: OnBoard{Board: 1 - boardOf(seat), Do: game.Move{Notation: "e2e4"}}},
			game.Action{Seat: seat, At: at, Do: SendSignal{Signal: Signals[seat]}})
	}
	return append(out,
		game.Action{Seat: game.System, At: maxTime(at, status.Deadline), Do: game.Timeout{Deadline: status.Deadline}},
		game.Action{Seat: game.System, At: at, Do: game.Timeout{Deadline: at}},
	)
}

// TestStoredDoublesCoverage: the matches TestStoredDoublesStates plays reach what a
// doubles state holds beyond a board's, so that the proof covers it.
func TestStoredDoublesCoverage(t *testing.T) {
	seen := map[string]bool{}
	for seed, k := range doublesKinds {
		r := rulesOf(t, k.version)
		m := storedTable(t, r, k.opts, uint64(seed), 110)
		for i, e := range m.Events {
			seen[e.EventType()] = true
			tb := m.States[i].(Table)
			for b := range tb.Boards {
				if tb.Passing[b] != "" {
					seen["passing"] = true
				}
				if tb.Boards[b].Pos.Pocket(0).String()+tb.Boards[b].Pos.Pocket(1).String() != "" {
					seen["pockets"] = true
				}
			}
			if tb.Boards[0].Window != nil && tb.Boards[1].Window != nil {
				seen["two windows"] = true
			}
		}
		if s := m.States[len(m.States)-1].(Table); r.Status(s).Over {
			seen["over: "+r.Status(s).Outcome.Reason] = true
		}
	}
	t.Logf("reached: %v", slices.Sorted(func(yield func(string) bool) {
		for k := range seen {
			if !yield(k) {
				return
			}
		}
	}))
	for _, want := range []string{"CardDrawn", "DeckReshuffled", "Signalled", "Conceded", "ReactionWindowOpened", "ReactionPlayed",
		"CardResolved", "FlagFell", "passing", "pockets", "two windows", "PlanningDone"} {
		if !seen[want] {
			t.Errorf("no %s in the stored doubles matches", want)
		}
	}
}

// BenchmarkStoredDoublesState writes and reads the state of a seeded advanced doubles
// match with the doubles clock, still live after 110 actions, and, for comparison, folds
// the same match from its stored events as a boot without a snapshot does.
func BenchmarkStoredDoublesState(b *testing.B) {
	opts := game.Options{"boards": "2", "mode": Advanced, "hand": "4"}
	var m gametest.Folded
	for seed := uint64(0); len(m.Events) < 130 || (Rules{}).Status(m.States[len(m.States)-1]).Over; seed++ {
		m = storedTable(b, Rules{}, opts, seed, 110)
	}
	gametest.BenchmarkSnapshots(b, Rules{}, m)
}
