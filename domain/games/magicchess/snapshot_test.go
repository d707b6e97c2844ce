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
			r := rulesOf(t, k.version)
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
	m, st := setUp(t, r, game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Options: opts, Seed: fmt.Appendf(nil, "stored %d", seed), At: t0})
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
			a = timedPlay(rng, plays, status, &now)
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

// setUp is the match g sets up, folded: its events and states, and its last state.
func setUp(t testing.TB, r Rules, g game.Setup) (gametest.Folded, game.State) {
	opening, err := r.Setup(g)
	if err != nil {
		t.Fatal(err)
	}
	var m gametest.Folded
	var st game.State
	for _, e := range opening {
		st = m.Add(r, e.Event)
	}
	return m, st
}

// timedPlay is one of plays, a card two times in three when there is one, played at
// now, or just before the status's deadline if now has reached it.
func timedPlay(rng *rand.Rand, plays []game.Play, status game.Status, now *time.Time) game.Action {
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
		*now = status.Deadline.Add(-time.Millisecond)
	}
	return game.Action{Seat: p.Seat, At: *now, Do: p.Do}
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
// under, a board's or a table's alike; a table of other rules is not written; bytes that
// are not a state of this format are refused with an error wrapping game.ErrStateFormat.
func TestStoredStateVersions(t *testing.T) {
	m := storedMatch(t, Rules{}, game.Options{"mode": Advanced}, 5, 30)
	b, err := Rules{}.EncodeState(m.States[len(m.States)-1])
	if err != nil {
		t.Fatal(err)
	}
	d := storedTable(t, Rules{}, doublesKinds[1].opts, 5, 30)
	tb, err := Rules{}.EncodeState(d.States[len(d.States)-1])
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range (Rules{}).Versions() {
		old, _ := Rules{}.Under(v)
		for name, form := range map[string][]byte{"board": b, "table": tb} {
			if _, err := old.(Rules).DecodeState(form); !errors.Is(err, game.ErrStateFormat) {
				t.Errorf("%s read a %s %s state: %v", v, RulesVersion, name, err)
			}
		}
		if _, err := old.(Rules).EncodeState(d.States[len(d.States)-1]); err == nil {
			t.Errorf("%s wrote a %s table", v, RulesVersion)
		}
	}
	if _, err := (Rules{}).EncodeState(Table{}); err == nil {
		t.Error("a table not started was stored")
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
// fuzzer's bytes, so that the fields behind it are fuzzed too), what reads back writes and
// reads back again, and its Status and every seat's View are shown without a panic. The
// seeds are states of one-board and doubles matches, and the forms kept in
// testdata/fuzz/FuzzDecodeState.
func FuzzDecodeState(f *testing.F) {
	add := func(m gametest.Folded) {
		for _, st := range []game.State{m.States[0], m.States[len(m.States)/2], m.States[len(m.States)-1]} {
			b, err := Rules{}.EncodeState(st)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b[:len(b)-4])
		}
	}
	for seed, k := range snapshotKinds {
		add(storedMatch(f, Rules{}, k.opts, uint64(seed), 25))
	}
	for seed, k := range doublesKinds[:4] {
		add(storedTable(f, Rules{}, k.opts, uint64(seed), 40))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r := Rules{}
		st, err := r.DecodeState(stateform.Seal(bytes.Clone(body)))
		if err != nil {
			if !errors.Is(err, game.ErrStateFormat) {
				t.Fatalf("%v does not wrap game.ErrStateFormat", err)
			}
			return
		}
		again, err := r.EncodeState(st)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.DecodeState(again); err != nil {
			t.Fatalf("a state read back does not read back again: %v", err)
		}
		r.Status(st)
		for seat := -1; seat < DoublesSeats; seat++ {
			p := game.Viewpoint{}
			if seat >= 0 {
				p = game.Viewpoint{Seats: []int{seat}, Teams: []int{doublesTeams[seat]}}
			}
			r.View(st, p).Plays()
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
