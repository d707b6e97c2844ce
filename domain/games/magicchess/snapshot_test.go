package magicchess

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// snapshotKinds are the one-board matches TestStoredStates plays, by rules version ("" is
// RulesVersion) and options.
var snapshotKinds = []struct {
	version string
	opts    game.Options
}{
	{"", game.Options{}},
	{"", game.Options{"mode": Advanced, "reaction": "3"}},
	{"", game.Options{"clock": "off", "hand": "4"}},
	{"", game.Options{"mode": Advanced, "clock": "1+2"}},
}

// TestStoredStates plays seeded random one-board matches, classic and advanced (reaction
// windows, held cards and their rewinds), with and without a clock, under every rules
// version, and checks the stored form after every event (gametest.Snapshots). It holds
// for every seed.
func TestStoredStates(t *testing.T) {
	kinds := snapshotKinds
	for _, v := range (Rules{}).Versions() {
		kinds = append(kinds, struct {
			version string
			opts    game.Options
		}{v, game.Options{"mode": Advanced}})
	}
	for seed := range uint64(len(kinds)) {
		k := kinds[seed]
		t.Run(fmt.Sprint(seed, k.version, k.opts), func(t *testing.T) {
			r := Rules{}
			if k.version != "" {
				old, ok := Rules{}.Under(k.version)
				if !ok {
					t.Fatalf("no rules %s", k.version)
				}
				r = old.(Rules)
			}
			m := storedMatch(t, r, k.opts, seed, 80)
			viewers := []game.Viewpoint{{}, {Over: true}, {Seats: []int{0}, Teams: []int{0}}, {Seats: []int{1}, Teams: []int{1}}}
			gametest.Snapshots(t, r, m, viewers, func(st game.State) []game.Action { return probes(r, st) })
		})
	}
}

// storedMatch plays a seeded random one-board match of at most actions actions: the seats
// to act take the plays their views list, cards two times in three; nobody acting, or
// now and then, the deadline passes.
func storedMatch(t testing.TB, r Rules, opts game.Options, seed uint64, actions int) gametest.Folded {
	rng := rand.New(rand.NewPCG(seed, 0xface))
	opening, err := r.Setup(game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Options: opts, Seed: fmt.Appendf(nil, "stored %d", seed), At: t0})
	if err != nil {
		t.Fatal(err)
	}
	var m gametest.Folded
	var st game.State
	for _, e := range opening {
		st = m.Add(r, e.Event)
	}
	now := t0
	for range actions {
		status := r.Status(st)
		if status.Over {
			break
		}
		now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		var plays []game.Play
		if len(status.ToAct) > 0 {
			seat := status.ToAct[rng.IntN(len(status.ToAct))]
			plays = r.View(st, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).Plays()
		}
		var a game.Action
		switch {
		case !status.Deadline.IsZero() && (len(plays) == 0 || rng.IntN(40) == 0):
			now = maxTime(now, status.Deadline)
			a = game.Action{Seat: game.System, At: now, Do: game.Timeout{Deadline: status.Deadline}}
		case len(plays) == 0:
			t.Fatalf("seed %d: nobody may act and no deadline is set: %+v", seed, status)
		default:
			p := plays[rng.IntN(len(plays))]
			var cardPlays []game.Play
			for _, q := range plays {
				if q.Kind == game.KindCard {
					cardPlays = append(cardPlays, q)
				}
			}
			if len(cardPlays) > 0 && rng.IntN(3) > 0 {
				p = cardPlays[rng.IntN(len(cardPlays))]
			}
			if !status.Deadline.IsZero() && !now.Before(status.Deadline) {
				now = status.Deadline.Add(-time.Millisecond)
			}
			a = game.Action{Seat: p.Seat, At: now, Do: p.Do}
		}
		evs, err := r.Decide(st, a)
		if err != nil {
			t.Fatalf("seed %d: %+v: %v", seed, a, err)
		}
		for _, e := range evs {
			st = m.Add(r, e.Event)
		}
	}
	return m
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// probes are the actions whose decisions a state read back must share: some of the plays
// each seat's view lists, the timeout, and actions refused.
func probes(r Rules, st game.State) []game.Action {
	s := st.(State)
	if s.unsettled() {
		return nil // the engine decides only between commands
	}
	status := r.Status(s)
	at := s.Clock.TurnStart.Add(time.Second)
	if s.Phase == Planning {
		at = s.PlanEnds.Add(-time.Second)
	}
	var out []game.Action
	for seat := range 2 {
		plays := r.View(s, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).Plays()
		for i := 0; i < len(plays); i += max(1, len(plays)/6) {
			out = append(out, game.Action{Seat: seat, At: at, Do: plays[i].Do})
		}
		out = append(out, game.Action{Seat: seat, At: at, Do: game.Move{Notation: "a1a8"}})
	}
	return append(out,
		game.Action{Seat: game.System, At: status.Deadline, Do: game.Timeout{Deadline: status.Deadline}},
		game.Action{Seat: game.System, At: at, Do: game.Timeout{Deadline: at}},
	)
}

// TestStoredStateVersions: a state is read back only by the rules version it was written
// under; a doubles table is not stored; bytes that are not a one-board state of this
// format are refused with an error wrapping game.ErrStateFormat.
func TestStoredStateVersions(t *testing.T) {
	m := storedMatch(t, Rules{}, game.Options{"mode": Advanced}, 5, 30)
	b, err := Rules{}.EncodeState(m.States[len(m.States)-1])
	if err != nil {
		t.Fatal(err)
	}
	vs := Rules{}.Versions()
	old, _ := Rules{}.Under(vs[0])
	if _, err := old.(Rules).DecodeState(b); !errors.Is(err, game.ErrStateFormat) {
		t.Errorf("%s read a %s state: %v", vs[0], RulesVersion, err)
	}
	if _, err := (Rules{}).EncodeState(Table{started: true}); err == nil {
		t.Error("a doubles table was stored")
	}
	other := bytes.Clone(b)
	other[0]++
	for name, in := range map[string][]byte{
		"nothing": nil, "truncated": b[:len(b)-2], "version": other,
		"damaged": append(bytes.Clone(b[:20]), append([]byte{b[20] ^ 0x10}, b[21:]...)...),
	} {
		if _, err := (Rules{}).DecodeState(in); !errors.Is(err, game.ErrStateFormat) {
			t.Errorf("%s: %v, want an error wrapping game.ErrStateFormat", name, err)
		}
	}
}

// FuzzDecodeState: no bytes make DecodeState panic (the checksum is set right on the
// fuzzer's bytes, so that the fields behind it are fuzzed too), and what reads back
// writes and reads back again.
func FuzzDecodeState(f *testing.F) {
	for seed, k := range snapshotKinds {
		m := storedMatch(f, Rules{}, k.opts, uint64(seed), 25)
		for _, st := range []game.State{m.States[0], m.States[len(m.States)/2], m.States[len(m.States)-1]} {
			b, err := Rules{}.EncodeState(st)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b[:len(b)-4])
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		st, err := Rules{}.DecodeState(stateform.Seal(bytes.Clone(body)))
		if err != nil {
			if !errors.Is(err, game.ErrStateFormat) {
				t.Fatalf("%v does not wrap game.ErrStateFormat", err)
			}
			return
		}
		again, err := Rules{}.EncodeState(st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (Rules{}).DecodeState(again); err != nil {
			t.Fatalf("a state read back does not read back again: %v", err)
		}
	})
}

// BenchmarkStoredState writes and reads the state of a seeded advanced one-board match
// after 80 actions with a clock, and, for comparison, folds the same match from its stored
// events as a boot without a snapshot does (the payloads decoded by the game's codec,
// then evolved).
func BenchmarkStoredState(b *testing.B) {
	gametest.BenchmarkSnapshots(b, Rules{}, storedMatch(b, Rules{}, snapshotKinds[3].opts, 3, 80))
}
