package classic

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// The starts of the matches TestStoredStates plays: each brings a rule near.
var snapshotStarts = []string{
	"", // the usual start
	"r3k2r/pppq1ppp/2npbn2/4p3/4P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1", // castling both ways
	"4k3/PPP5/8/8/8/8/5ppp/4K3 w - - 0 40",                             // promotions
	"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",                                // en passant
	"4k3/8/8/8/8/8/3r4/R3K3 w - - 90 60",                               // the fifty-move rule
	"4k3/8/2n5/8/8/5N2/8/4K3 b - - 140 100",                            // the seventy-five-move rule
}

var snapshotClocks = []string{"", "0.5+0", "1+2"}

// TestStoredStates plays seeded random games, with and without a clock, from positions
// near castling, promotion, en passant and the move rules, steering towards repeated
// positions, claiming draws and letting flags fall, and checks the stored form at every
// ply (gametest.Snapshots). It holds for every seed.
func TestStoredStates(t *testing.T) {
	seeds := 24
	if testing.Short() {
		seeds = 6
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 0x5eed))
			m := randomMatch(t, rng, snapshotStarts[seed%uint64(len(snapshotStarts))], snapshotClocks[seed/uint64(len(snapshotStarts))%3])
			viewers := []game.Viewpoint{{}, {Seats: []int{0}, Teams: []int{0}}, {Seats: []int{1}, Teams: []int{1}}, {Over: true}}
			gametest.Snapshots(t, Rules{}, m, viewers, probes)
		})
	}
}

// randomMatch plays one game to its end, or 200 plies.
func randomMatch(t testing.TB, rng *rand.Rand, fen, control string) gametest.Folded {
	opts := game.Options{}
	if fen != "" {
		opts["fen"] = fen
	}
	if control != "" {
		opts["clock"] = control
	}
	evs, err := Rules{}.Setup(game.Setup{Options: opts, At: noon})
	if err != nil {
		t.Fatal(err)
	}
	var m gametest.Folded
	st := m.Add(Rules{}, evs[0].Event).(State)
	now := noon
	claims := rng.IntN(2) == 0 // half the games play on past threefold repetition and fifty moves
	for ply := 0; ply < 200 && !(Rules{}).Status(st).Over; ply++ {
		status := Rules{}.Status(st)
		now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		a := game.Action{Seat: status.ToAct[0], At: now}
		_, claimable := st.Game.ClaimableDraw()
		switch {
		case !status.Deadline.IsZero() && rng.IntN(100) == 0:
			now = status.Deadline.Add(time.Duration(rng.IntN(3)) * time.Millisecond)
			a = game.Action{Seat: game.System, At: now, Do: game.Timeout{Deadline: status.Deadline}}
		case claims && claimable && rng.IntN(6) == 0:
			a.Do = game.ClaimDraw{}
		default:
			a.Do = game.Move{Notation: pick(rng, st.Game)}
		}
		evs, err := Rules{}.Decide(st, a)
		if err != nil {
			t.Fatalf("ply %d: %+v: %v", ply, a, err)
		}
		for _, e := range evs {
			st = m.Add(Rules{}, e.Event).(State)
		}
	}
	return m
}

// pick draws a legal move, two times in three one that repeats a position met before
// when there is one, so that games come near threefold and fivefold repetition.
func pick(rng *rand.Rand, g *chess.Game) string {
	pos := g.Position()
	moves := pos.LegalMoves(nil)
	if rng.IntN(3) > 0 {
		seen := map[uint64]bool{}
		p := g.Start()
		seen[p.Hash()] = true
		for _, m := range g.Moves() {
			p.Play(m)
			seen[p.Hash()] = true
		}
		for _, i := range rng.Perm(len(moves)) {
			after := pos
			after.Play(moves[i])
			if seen[after.Hash()] {
				return moves[i].UCI()
			}
		}
	}
	return moves[rng.IntN(len(moves))].UCI()
}

// probes are the actions whose decisions a state read back must share: every legal
// move's, a draw claim, timeouts, and moves that are illegal or malformed.
func probes(st game.State) []game.Action {
	s := st.(State)
	status := Rules{}.Status(s)
	at := s.Clock.TurnStart.Add(time.Second)
	var out []game.Action
	for _, uci := range (Rules{}).Board(s).LegalMoves {
		out = append(out, game.Action{Seat: 0, At: at, Do: game.Move{Notation: uci}})
	}
	return append(out,
		game.Action{Seat: 1, At: at, Do: game.ClaimDraw{}},
		game.Action{Seat: 0, At: at, Do: game.Move{Notation: "e2e5"}},
		game.Action{Seat: 0, At: at, Do: game.Move{Notation: "zz9"}},
		game.Action{Seat: 0, At: at, Do: game.Choose{Option: "keep"}},
		game.Action{Seat: game.System, At: status.Deadline, Do: game.Timeout{Deadline: status.Deadline}},
		game.Action{Seat: game.System, At: at, Do: game.Timeout{Deadline: at}},
		game.Action{Seat: 1, At: status.Deadline.Add(time.Hour), Do: game.Move{Notation: "e7e5"}},
	)
}

// TestStoredStateRefusals: bytes that are not a chess state of this format are refused
// with an error wrapping game.ErrStateFormat.
func TestStoredStateRefusals(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	m := randomMatch(t, rng, "", "1+2")
	b, err := Rules{}.EncodeState(m.States[len(m.States)/2])
	if err != nil {
		t.Fatal(err)
	}
	other := bytes.Clone(b)
	other[0]++ // another format version
	cases := map[string][]byte{
		"nothing":   nil,
		"truncated": b[:len(b)-1],
		"damaged":   append(append([]byte(nil), b[:10]...), append([]byte{b[10] ^ 1}, b[11:]...)...),
		"version":   other,
		"garbage":   []byte("not a chess state at all"),
	}
	for name, in := range cases {
		if _, err := (Rules{}).DecodeState(in); !errors.Is(err, game.ErrStateFormat) {
			t.Errorf("%s: %v, want an error wrapping game.ErrStateFormat", name, err)
		}
	}
	if _, err := (Rules{}).EncodeState(nil); err == nil {
		t.Error("EncodeState of no state succeeded")
	}
}

// FuzzDecodeState: no bytes make DecodeState panic; the checksum is set right on the
// fuzzer's bytes so that the fields behind it are fuzzed too. What decodes writes itself
// back the same and can be shown.
func FuzzDecodeState(f *testing.F) {
	for seed := range uint64(4) {
		rng := rand.New(rand.NewPCG(seed, 1))
		m := randomMatch(f, rng, snapshotStarts[seed], snapshotClocks[seed%3])
		for _, st := range []game.State{m.States[0], m.States[len(m.States)/2], m.States[len(m.States)-1]} {
			b, _ := Rules{}.EncodeState(st)
			f.Add(b[:len(b)-4])
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		b := stateform.Seal(bytes.Clone(body))
		st, err := Rules{}.DecodeState(b)
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
		Rules{}.Status(st)
		Rules{}.View(st, game.Viewpoint{Seats: []int{0}})
	})
}

// BenchmarkStoredState writes and reads the state of a 100-ply game with a clock, and, for
// comparison, folds the same game from its stored events as a boot without a snapshot
// does (the payloads decoded by the game's codec, then evolved).
func BenchmarkStoredState(b *testing.B) {
	gametest.BenchmarkSnapshots(b, Rules{}, hundredPlies(b))
}

// hundredPlies is a seeded game of 100 plies with a clock, from the usual start.
func hundredPlies(tb testing.TB) gametest.Folded {
	for seed := uint64(0); ; seed++ {
		rng := rand.New(rand.NewPCG(seed, 100))
		evs, err := Rules{}.Setup(game.Setup{Options: game.Options{"clock": "5+3"}, At: noon})
		if err != nil {
			tb.Fatal(err)
		}
		var m gametest.Folded
		st := m.Add(Rules{}, evs[0].Event).(State)
		now := noon
		for ply := 0; ply < 100 && !(Rules{}).Status(st).Over; ply++ {
			now = now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
			pos := st.Game.Position()
			moves := pos.LegalMoves(nil)
			evs, err := Rules{}.Decide(st, game.Action{Seat: ply % 2, At: now, Do: game.Move{Notation: moves[rng.IntN(len(moves))].UCI()}})
			if err != nil {
				tb.Fatal(err)
			}
			st = m.Add(Rules{}, evs[0].Event).(State)
		}
		if len(st.Game.Moves()) == 100 {
			return m
		}
	}
}
