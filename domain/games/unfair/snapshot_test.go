package unfair

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// TestStoredStates plays seeded random games, with and without a clock, under the three rules
// versions, every card the hands deal played with its targets, and checks the stored form
// after every event (gametest.Snapshots). It holds for every seed.
func TestStoredStates(t *testing.T) {
	seeds := 8
	if testing.Short() {
		seeds = 4
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := Rules{}
			if v := map[uint64]string{1: "unfair-2026.2", 3: "unfair-2026.1"}[seed%4]; v != "" {
				old, _ := Rules{}.Under(v)
				r = old.(Rules)
			}
			m := storedMatch(t, r, seed, []string{"", "0.5+0", "1+2"}[seed%3], 70)
			viewers := []game.Viewpoint{{}, {Over: true}, {Seats: []int{0}, Teams: []int{0}}, {Seats: []int{1}, Teams: []int{1}}}
			gametest.Snapshots(t, r, m, viewers, probes)
		})
	}
}

// storedMatch plays a seeded random game of at most actions actions.
func storedMatch(t testing.TB, r Rules, seed uint64, control string, actions int) gametest.Folded {
	rng := rand.New(rand.NewPCG(seed, 0xc0de))
	noon := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	opts := game.Options{}
	if control != "" {
		opts["clock"] = control
	}
	opening, err := r.Setup(game.Setup{Options: opts, Seed: []byte{byte(seed), 7}, At: noon})
	if err != nil {
		t.Fatal(err)
	}
	var m gametest.Folded
	var st game.State
	for _, e := range opening {
		st = m.Add(r, e.Event)
	}
	now := noon
	for range actions {
		status := r.Status(st)
		if status.Over {
			break
		}
		now = now.Add(time.Duration(rng.IntN(2000)) * time.Millisecond)
		a := game.Action{Seat: status.ToAct[0], At: now, Do: randomAction(rng, st.(State))}
		if !status.Deadline.IsZero() && rng.IntN(60) == 0 {
			now = status.Deadline
			a = game.Action{Seat: game.System, At: now, Do: game.Timeout{Deadline: status.Deadline}}
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

// probes are the actions whose decisions a state read back must share: some legal moves
// and card plays, timeouts, and actions refused.
func probes(st game.State) []game.Action {
	s := st.(State)
	if len(s.pending) > 0 || s.Flag != nil || (Rules{}).Status(s).Over {
		return nil // the engine decides only between commands, and on a live game
	}
	status := Rules{}.Status(s)
	seat := status.ToAct[0]
	at := s.Clock.TurnStart.Add(time.Second)
	var out []game.Action
	moves := legal(s)
	for i := 0; i < len(moves); i += max(1, len(moves)/5) {
		out = append(out, game.Action{Seat: seat, At: at, Do: game.Move{Notation: moves[i]}})
	}
	if s.Turn.Card == "" {
		for _, hc := range (Rules{}).Hand(s, seat) {
			for i, tg := range hc.Targets {
				if i < 2 {
					out = append(out, game.Action{Seat: seat, At: at, Do: cards.PlayCard{Slot: hc.Slot, Targets: tg}})
				}
			}
		}
	}
	return append(out,
		game.Action{Seat: seat, At: at, Do: cards.PlayCard{Slot: 3, Targets: []string{"a1"}}},
		game.Action{Seat: seat, At: at, Do: game.Move{Notation: "a1a8"}},
		game.Action{Seat: 1 - seat, At: at, Do: game.Move{Notation: moves[0]}},
		game.Action{Seat: seat, At: at, Do: game.ClaimDraw{}},
		game.Action{Seat: game.System, At: status.Deadline, Do: game.Timeout{Deadline: status.Deadline}},
		game.Action{Seat: seat, At: status.Deadline.Add(time.Hour), Do: game.Move{Notation: moves[0]}},
	)
}

// TestStoredStateVersions: a state is read back only by the rules version it was written
// under, and bytes that are not an UnfairChess state of this format are refused; each
// refusal wraps game.ErrStateFormat.
func TestStoredStateVersions(t *testing.T) {
	m := storedMatch(t, Rules{}, 5, "1+2", 30)
	b, err := Rules{}.EncodeState(m.States[len(m.States)-1])
	if err != nil {
		t.Fatal(err)
	}
	old, _ := Rules{}.Under("unfair-2026.1")
	if _, err := old.(Rules).DecodeState(b); !errors.Is(err, game.ErrStateFormat) {
		t.Errorf("unfair-2026.1 read a state of %s: %v", RulesVersion, err)
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

// TestForgedStatesAreRefused: a stored form whose checksum is right but whose fields make
// a state the rules cannot reach is refused with an error wrapping game.ErrStateFormat.
// EncodeState writes what it is given, so each forgery is a state of a real game changed
// in one field, written by the game's own writer.
func TestForgedStatesAreRefused(t *testing.T) {
	m := storedMatch(t, Rules{}, 3, "", 40)
	var base State
	for _, st := range m.States {
		if s := st.(State); len(s.Sides[0].Played) > 0 && len(s.Sides[1].Deck) > 0 && len(s.Record) > 0 {
			base = s
			break
		}
	}
	if len(base.Record) == 0 {
		t.Fatal("no state to forge in the game")
	}
	for name, forge := range map[string]func(s *State){
		"a card twice":   func(s *State) { s.Sides[1].Discard = with(s.Sides[1].Discard, s.Sides[1].Deck[0]) },
		"a card gone":    func(s *State) { s.Sides[1].Deck = s.Sides[1].Deck[1:] },
		"a card swapped": func(s *State) { s.Sides[0].Deck = with(s.Sides[0].Deck[1:], s.Sides[0].Played[0]) },
		"a card played that was never discarded": func(s *State) {
			s.Sides[0].Played = with(s.Sides[0].Played, s.Sides[0].Deck[0])
		},
		"moves due without a card": func(s *State) { s.Turn = Turn{MovesDue: 2} },
		"a pawn brought outside a card's move": func(s *State) {
			ids, _ := s.Pos.IDs()
			s.Turn.MovesDue, s.Turn.Brought = 0, ids[0]
		},
		"a record without players": func(s *State) { s.Players = nil },
		"a flag without a clock":   func(s *State) { s.Flag = &clock.FlagFell{Seat: 0} },
	} {
		s := base
		forge(&s)
		b, err := Rules{}.EncodeState(s)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := (Rules{}).DecodeState(b); !errors.Is(err, game.ErrStateFormat) || !strings.Contains(err.Error(), "not a state the rules reach") {
			t.Errorf("%s: read back with %v", name, err)
		}
	}
}

// FuzzDecodeState: no bytes make DecodeState panic (the checksum is set right on the
// fuzzer's bytes, so that the fields behind it are fuzzed too), and what reads back
// writes and reads back again and can be shown.
func FuzzDecodeState(f *testing.F) {
	for seed := range uint64(3) {
		m := storedMatch(f, Rules{}, seed, []string{"", "1+2"}[seed%2], 20)
		for _, st := range []game.State{m.States[0], m.States[len(m.States)-1]} {
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

// BenchmarkStoredState writes and reads the state of a seeded game still live after 60
// actions with a clock (100 events or more), and, for comparison, folds the same game from its stored events as a boot
// without a snapshot does (the payloads decoded by the game's codec, then evolved).
func BenchmarkStoredState(b *testing.B) {
	var m gametest.Folded
	for seed := uint64(0); len(m.Events) < 100 || (Rules{}).Status(m.States[len(m.States)-1]).Over; seed++ {
		m = storedMatch(b, Rules{}, seed, "5+3", 60)
	}
	gametest.BenchmarkSnapshots(b, Rules{}, m)
}
