package sovereignchess

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// snapshotMatch is one kind of match TestStoredStates plays.
type snapshotMatch struct {
	opts    game.Options // for Setup; nil when start is given
	start   string       // a two-player position (pieces, then the rest), instead of Setup's
	version string       // the rules version pinned; "" is RulesVersion
	// quiet: no defection and no steering to repeated positions, so that the fifty-move
	// and seventy-five-move counts grow (with start, whose few pieces rarely meet).
	quiet bool
}

var snapshotMatches = []snapshotMatch{
	{opts: game.Options{}},
	{opts: game.Options{"mode": Royale}},
	{opts: game.Options{"clock": "0.5+0"}},
	{opts: game.Options{"mode": Royale, "clock": "1+2"}},
	{opts: game.Options{}, version: "rulebook-2017.1"},
	{opts: game.Options{"mode": Royale}, version: "rulebook-2017.1"},
	{opts: game.Options{"mode": Royale, "clock": "0.5+1"}, version: "rulebook-2017.2"},
	{start: "wki1 bki16 wrb3 brc14 wnd5 bnm12"}, // few pieces: repetitions come near
	{start: "wki1 bki16 wrb3 brc14 wnd5 bnm12", quiet: true},
}

// TestStoredStates plays seeded random matches of every mode, with and without a clock,
// under every rules version, with the opening choice, defections, draw claims, Royale's
// resignations and flags, steering towards repeated positions or away from them (to the
// fifty-move and seventy-five-move rules), and checks the stored form at every action
// (gametest.Snapshots). It holds for every seed.
func TestStoredStates(t *testing.T) {
	seeds := 2 * len(snapshotMatches)
	if testing.Short() {
		seeds = len(snapshotMatches)
	}
	for seed := range uint64(seeds) {
		kind := snapshotMatches[seed%uint64(len(snapshotMatches))]
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rules := rulesOf(t, kind.version)
			actions := 90
			if kind.start != "" {
				actions = 240 // long enough for the fifty-move and seventy-five-move rules
			}
			m := randomMatch(t, rules, kind, seed, actions)
			viewers := []game.Viewpoint{{}, {Over: true}}
			for seat := range 4 {
				viewers = append(viewers, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}})
			}
			gametest.Snapshots(t, rules, m, viewers, func(st game.State) []game.Action { return probes(rules, st) })
		})
	}
}

// rulesOf is the rules of version ("" for RulesVersion).
func rulesOf(t testing.TB, version string) Rules {
	if version == "" {
		return Rules{}
	}
	old, ok := Rules{}.Under(version)
	if !ok {
		t.Fatalf("no rules %s", version)
	}
	return old.(Rules)
}

// randomMatch plays one seeded match of kind, to its end or for actions actions.
func randomMatch(t testing.TB, rules Rules, kind snapshotMatch, seed uint64, actions int) gametest.Folded {
	rng := rand.New(rand.NewPCG(seed, 0x50fe))
	noon := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var start game.Event
	if kind.start != "" {
		b, err := sovereign.BoardNotation(kind.start)
		if err != nil {
			t.Fatal(err)
		}
		start = GameStarted{Mode: TwoPlayer, Position: b + " 1 w b - 0", FirstMover: -1}
	} else {
		evs, err := rules.Setup(game.Setup{Options: kind.opts, Seed: fmt.Appendf(nil, "snapshot-%d", seed), Fairness: fairness.V1, At: noon})
		if err != nil {
			t.Fatal(err)
		}
		start = evs[0].Event
	}
	var m gametest.Folded
	st := m.Add(rules, start).(State)
	now := noon
	seen := map[string]bool{}
	claims := rng.IntN(2) == 0
	for range actions {
		status := rules.Status(st)
		if status.Over {
			break
		}
		seen[repetition(st.Game.Position())] = true
		now = now.Add(time.Duration(rng.IntN(1500)) * time.Millisecond)
		var evs []game.Emitted
		var err error
		switch {
		case st.Mode == Royale && rng.IntN(30) == 0:
			evs = rules.Withdraw(st, rng.IntN(4), now) // a resignation: nothing for a seat out already
		case !status.Deadline.IsZero() && rng.IntN(50) == 0:
			now = status.Deadline.Add(time.Millisecond)
			evs, err = rules.Decide(st, game.Action{Seat: game.System, At: now, Do: game.Timeout{Deadline: status.Deadline}})
		case len(status.Choices) > 0:
			evs, err = rules.Decide(st, game.Action{Seat: status.ToAct[0], At: now, Do: game.Choose{Option: status.Choices[rng.IntN(2)]}})
		case claims && st.Game.ClaimableDraw() && rng.IntN(4) == 0:
			evs, err = rules.Decide(st, game.Action{Seat: status.ToAct[0], At: now, Do: game.ClaimDraw{}})
		default:
			evs, err = rules.Decide(st, game.Action{Seat: status.ToAct[0], At: now, Do: game.Move{Notation: pick(rng, rules, st, seen, kind)}})
		}
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, e := range evs {
			st = m.Add(rules, e.Event).(State)
		}
	}
	return m
}

// repetition is a position without its ply count.
func repetition(p sovereign.Position) string {
	n := p.Notation()
	return n[:strings.LastIndexByte(n, ' ')]
}

// pick draws a legal move: for a quiet kind of match any but a defection; else one time
// in three a defection when there is one, one time in two (always from a given start)
// one that repeats a position met before when there is one.
func pick(rng *rand.Rand, rules Rules, st State, seen map[string]bool, kind snapshotMatch) string {
	moves := rules.Board(st).LegalMoves
	pos := st.Game.Position()
	repeat := kind.start != "" && !kind.quiet
	if kind.quiet {
		var plain []string
		for _, m := range moves {
			if !strings.HasPrefix(m, "=") {
				plain = append(plain, m)
			}
		}
		if len(plain) > 0 {
			return plain[rng.IntN(len(plain))]
		}
	}
	if !repeat && rng.IntN(3) == 0 {
		for _, i := range rng.Perm(len(moves)) {
			if strings.HasPrefix(moves[i], "=") {
				return moves[i]
			}
		}
	}
	if repeat || rng.IntN(2) == 0 {
		for _, i := range rng.Perm(len(moves)) {
			after := pos
			if m, err := after.ParseMove(moves[i]); err == nil {
				after.Play(m)
				if seen[repetition(after)] {
					return moves[i]
				}
			}
		}
	}
	return moves[rng.IntN(len(moves))]
}

// probes are the actions whose decisions a state read back must share: some of the legal
// moves, the opening's options, a claim, defections, timeouts, and actions refused.
func probes(rules Rules, st game.State) []game.Action {
	s := st.(State)
	if len(s.pending) > 0 {
		return nil // between two events of one command, where the engine never decides
	}
	status := rules.Status(s)
	at := s.Clock.TurnStart.Add(time.Second)
	seat := 0
	if len(status.ToAct) > 0 {
		seat = status.ToAct[0]
	}
	var out []game.Action
	moves := rules.Board(s).LegalMoves
	for i := 0; i < len(moves); i += max(1, len(moves)/6) {
		out = append(out, game.Action{Seat: seat, At: at, Do: game.Move{Notation: moves[i]}})
	}
	return append(out,
		game.Action{Seat: seat, At: at, Do: game.Choose{Option: Keep}},
		game.Action{Seat: seat, At: at, Do: game.Choose{Option: Refuse}},
		game.Action{Seat: seat, At: at, Do: game.ClaimDraw{}},
		game.Action{Seat: seat, At: at, Do: Defect{Colour: "yellow"}},
		game.Action{Seat: seat, At: at, Do: Defect{Colour: "red", KingMove: "i1i2"}},
		game.Action{Seat: seat, At: at, Do: Defect{Colour: "mauve"}},
		game.Action{Seat: seat, At: at, Do: game.Move{Notation: "zz99"}},
		game.Action{Seat: (seat + 1) % 2, At: at, Do: game.Move{Notation: "e2e4"}},
		game.Action{Seat: game.System, At: status.Deadline, Do: game.Timeout{Deadline: status.Deadline}},
		game.Action{Seat: game.System, At: at, Do: game.Timeout{Deadline: at}},
		game.Action{Seat: seat, At: status.Deadline.Add(time.Hour), Do: game.ClaimDraw{}},
	)
}

// TestStoredStateVersions: a state is read back only by the rules version it was
// written under, and bytes that are not a Sovereign Chess state of this format are
// refused; each refusal wraps game.ErrStateFormat.
func TestStoredStateVersions(t *testing.T) {
	m := randomMatch(t, Rules{}, snapshotMatches[1], 3, 30)
	b, err := Rules{}.EncodeState(m.States[len(m.States)-1])
	if err != nil {
		t.Fatal(err)
	}
	old := rulesOf(t, "rulebook-2017.2")
	if _, err := old.DecodeState(b); !errors.Is(err, game.ErrStateFormat) {
		t.Errorf("rulebook-2017.2 read a rulebook-2017.3 state: %v", err)
	}
	if _, err := old.EncodeState(m.States[len(m.States)-1]); err == nil {
		t.Error("rulebook-2017.2 wrote a rulebook-2017.3 state")
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
// writes and reads back again and can be shown.
func FuzzDecodeState(f *testing.F) {
	for i, kind := range snapshotMatches[:4] {
		m := randomMatch(f, Rules{}, kind, uint64(i), 12)
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
		Rules{}.Status(st)
		Rules{}.View(st, game.Viewpoint{Seats: []int{0}})
	})
}

// BenchmarkStoredState writes and reads the state of a seeded two-player game after 100
// actions with a clock and of a Royale game after 100, and, for comparison, folds the same
// games from their stored events as a boot without a snapshot does (the payloads decoded
// by the game's codec, then evolved).
func BenchmarkStoredState(b *testing.B) {
	for _, kind := range []snapshotMatch{{opts: game.Options{"clock": "5+3"}}, {opts: game.Options{"mode": Royale, "clock": "5+3"}}} {
		name := kind.opts["mode"]
		if name == "" {
			name = TwoPlayer
		}
		b.Run(name, func(b *testing.B) { gametest.BenchmarkSnapshots(b, Rules{}, randomMatch(b, Rules{}, kind, 1, 100)) })
	}
}
