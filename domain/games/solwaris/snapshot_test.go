package solwaris

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/gametest"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/arena"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/combat"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire"
	"github.com/arbiter-games/arbiter/domain/games/solwaris/grimoire/grimoiretest"
)

// snapshotMatch is one kind of match TestStoredStates plays.
type snapshotMatch struct {
	opts     game.Options
	stake    int64
	fairness fairness.Version
	traps    bool // the Guerrier's Leap lays a trap (trapRules): no class of part 1 lays one
}

var snapshotMatches = []snapshotMatch{
	{opts: game.Options{}, fairness: fairness.V1},
	{opts: game.Options{"map": "caveau", "stake": "200"}, stake: 200, fairness: fairness.V1},
	{opts: game.Options{"map": "grande-plaine"}, fairness: fairness.Legacy},
	{opts: game.Options{"map": "anneau"}, fairness: fairness.V1, traps: true},
	{opts: game.Options{"map": "forteresse"}, fairness: fairness.V1},
	{opts: game.Options{}, fairness: fairness.Legacy, traps: true},
}

// trapRules is Solwaris with the Guerrier's Leap laying a trap of a cross that hurts all
// in it, so that matches hold hidden traps, laid, sprung and expired.
func trapRules(t *testing.T) Rules {
	t.Helper()
	cat := grimoiretest.Derive(t, func(id string, obj map[string]any) {
		if id == "bond" {
			obj["effects"] = []any{map[string]any{"kind": "trap", "to": "cell", "duration": grimoire.TrapTurns, "zone": map[string]any{"kind": "cross", "size": 1},
				"effects": []any{map[string]any{"kind": "damage", "to": "all", "min": 20, "max": 30}}}}
		}
	})
	return Rules{Catalog: cat}
}

// rulesFor is the rules a kind of match plays.
func rulesFor(t *testing.T, kind snapshotMatch) Rules {
	if kind.traps {
		return trapRules(t)
	}
	return Rules{}
}

// TestStoredStates plays seeded random matches of every kind (arenas drawn and chosen,
// staked, both fairness procedures, traps laid) through every phase: grimoires chosen
// and given at the deadline, start cells chosen and drawn, bids and passes, moves, spells
// (pushes, removals, summons, boosts, armour, traps), turns ended and timed out, actions
// after a deadline; and checks the stored form after every event (gametest.Snapshots):
// the state read back reports, shows every seat and a spectator, offers and decides
// (legal and illegal actions) as the folded one, and folds the rest of the match alike.
// It holds for every seed.
func TestStoredStates(t *testing.T) {
	seeds := 2 * len(snapshotMatches)
	if testing.Short() {
		seeds = len(snapshotMatches)
	}
	met := map[string]bool{}
	for seed := range uint64(seeds) {
		kind := snapshotMatches[seed%uint64(len(snapshotMatches))]
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rules := rulesFor(t, kind)
			m := randomMatch(t, rules, kind, seed, 220)
			for _, e := range m.Events {
				met[e.EventType()] = true
			}
			viewers := []game.Viewpoint{{}, {Over: true}, {Seats: []int{0}, Teams: []int{0}}, {Seats: []int{1}, Teams: []int{1}}}
			gametest.Snapshots(t, rules, m, viewers, func(st game.State) []game.Action { return probes(rules, st) })
		})
	}
	// The matches reach what the form holds: were a change of the players above to stop
	// them, the test would prove less without failing.
	for _, e := range []game.Event{BidPlaced{}, BonusTaken{}, Damaged{}, Pushed{}, PointsRemoved{}, Affected{}, Summoned{},
		TrapLaid{}, TrapTriggered{}, Fallen{}, FightEnded{}} {
		if !met[e.EventType()] && !testing.Short() {
			t.Errorf("no seeded match has a %s", e.EventType())
		}
	}
}

// randomMatch plays one seeded match of kind, to its end or for actions actions, and
// fails if any action it takes from a view's plays is refused.
func randomMatch(t testing.TB, rules Rules, kind snapshotMatch, seed uint64, actions int) gametest.Folded {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 0x5017))
	now := noon
	purses := []int64{int64(rng.IntN(MaxBid/BidStep+1)) * BidStep, MaxBid}
	evs, err := rules.Setup(game.Setup{Plan: game.Plan{Seats: 2, Teams: []int{0, 1}}, Options: kind.opts, Stake: kind.stake,
		Seed: fmt.Appendf(nil, "snapshot-%d", seed), Fairness: kind.fairness, At: now, Purses: purses})
	if err != nil {
		t.Fatal(err)
	}
	var m gametest.Folded
	var st game.State
	for _, e := range evs {
		st = m.Add(rules, e.Event)
	}
	for range actions {
		status := rules.Status(st)
		if status.Over {
			break
		}
		now = now.Add(time.Duration(rng.IntN(3000)) * time.Millisecond)
		var a game.Action
		switch {
		case rng.IntN(25) == 0 || len(status.ToAct) == 0:
			now = status.Deadline
			a = game.Action{Seat: game.System, At: now, Do: game.Timeout{Deadline: status.Deadline}}
		default:
			seat := status.ToAct[rng.IntN(len(status.ToAct))]
			if rng.IntN(30) == 0 {
				now = status.Deadline.Add(time.Millisecond) // late: the timeout comes first
			}
			a = game.Action{Seat: seat, At: now, Do: choose(rng, rules, st, seat, kind.traps)}
		}
		evs, err := rules.Decide(st, a)
		if err != nil {
			if a.Seat != game.System && !a.At.Before(status.Deadline) {
				continue // chosen before the deadline, decided after the timeout the deadline brings
			}
			t.Fatalf("seed %d: %+v: %v", seed, a, err)
		}
		for _, e := range evs {
			st = m.Add(rules, e.Event)
		}
	}
	return m
}

// choose picks one of seat's plays: a trap's one time in two when traps are on and it
// can be laid, else three times in four one of those the view scores best (a blow that
// reaches an enemy, a step towards it), so that fights come to blows and end, else any.
func choose(rng *rand.Rand, rules Rules, st game.State, seat int, traps bool) any {
	var plays []game.Play
	for _, p := range rules.View(st, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).Plays() {
		if p.Seat == seat {
			plays = append(plays, p)
		}
	}
	if traps && rng.IntN(2) == 0 {
		for _, i := range rng.Perm(len(plays)) {
			if c, ok := plays[i].Do.(CastSpell); ok && c.Spell == "bond" {
				return c
			}
		}
	}
	if rng.IntN(4) > 0 {
		best := slices.MaxFunc(plays, func(a, b game.Play) int { return a.Score - b.Score }).Score
		plays = slices.DeleteFunc(plays, func(p game.Play) bool { return p.Score < best })
	}
	return plays[rng.IntN(len(plays))].Do
}

// probes are the actions whose decisions a state read back must share: a spread of the
// plays of the seats to act, actions refused (of another phase, of the seat not to act,
// unknown cells and spells, a stale timeout), the timeout due, and an action after the
// deadline.
func probes(rules Rules, st game.State) []game.Action {
	s := st.(State)
	status := rules.Status(s)
	at := s.Deadline.Add(-time.Second)
	var out []game.Action
	for seat := range s.Teams {
		plays := rules.View(s, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}).Plays()
		for i := 0; i < len(plays); i += max(1, len(plays)/5) {
			out = append(out, game.Action{Seat: seat, At: at, Do: plays[i].Do})
		}
		out = append(out,
			game.Action{Seat: seat, At: at, Do: EndTurn{}},
			game.Action{Seat: seat, At: at, Do: Bid{}},
			game.Action{Seat: seat, At: at, Do: PassBid{}},
			game.Action{Seat: seat, At: at, Do: MoveFighter{Path: []string{"zz99"}}},
			game.Action{Seat: seat, At: at, Do: CastSpell{Spell: "nope", Cell: "a1"}},
			game.Action{Seat: seat, At: at, Do: PlaceFighter{Cell: "b2"}},
			game.Action{Seat: seat, At: at, Do: ChooseGrimoire{Class: "barde"}},
			game.Action{Seat: seat, At: s.Deadline.Add(time.Second), Do: EndTurn{}},
		)
	}
	return append(out,
		game.Action{Seat: game.System, At: status.Deadline, Do: game.Timeout{Deadline: status.Deadline}},
		game.Action{Seat: game.System, At: at, Do: game.Timeout{Deadline: at}},
	)
}

// lastPlayed is the last state of a seeded trap match that is in play with a summon or a
// trap on the arena, for the refusal tests.
func lastPlayed(t *testing.T) (Rules, State) {
	for seed := uint64(3); seed < 60; seed += 6 {
		rules := trapRules(t)
		m := randomMatch(t, rules, snapshotMatches[3], seed, 140)
		for i := len(m.States) - 1; i >= 0; i-- {
			s := m.States[i].(State)
			if s.Phase == PhasePlay && s.Actor >= 0 && len(s.Traps) > 0 && len(s.Bonuses) > 0 && len(s.Fighters[s.Actor].Casts) > 0 {
				return rules, s
			}
		}
	}
	t.Fatal("no seeded match lays a trap")
	return Rules{}, State{}
}

// TestStoredStateRefusals: a state that no match can be in is refused, even when its
// bytes are well formed and their checksum right; and bytes that are not a Solwaris state
// of this format (nothing, truncated, another format version, another game's, damaged)
// are refused; every refusal wraps game.ErrStateFormat, and a state the form cannot hold
// is not written.
func TestStoredStateRefusals(t *testing.T) {
	rules, s := lastPlayed(t)
	if _, err := rules.DecodeState(writeState(s)); err != nil {
		t.Fatalf("the state itself: %v", err)
	}
	forged := map[string]func(s *State){
		"HP above the maximum": func(s *State) { s.Fighters[0].HP = s.Fighters[0].MaxHP + 1 },
		"AP out of range":      func(s *State) { s.Fighters[1].AP = maxPoints + 1 },
		"MP lost past the cap": func(s *State) { s.Fighters[0].MPLost = combat.MaxLoss + 1 },
		"off the arena":        func(s *State) { s.Fighters[0].Cell = arena.Cell{X: 60, Y: 2} },
		"on an obstacle":       func(s *State) { s.Fighters[0].Cell = obstacle(t, s) },
		"two on one cell": func(s *State) {
			s.Fighters[1].Cell = s.Fighters[0].Cell
			s.Fighters[1].OnArena = true
			s.Fighters[1].HP = 1
		},
		"an unknown cast":       func(s *State) { s.Fighters[s.Actor].Casts[0].Spell = "foudre" },
		"a cooldown of none":    func(s *State) { s.Fighters[0].Cooldowns = []Cooldown{{Spell: "taille-x", From: 3}} },
		"an unknown bonus":      func(s *State) { s.Bonuses[0].Kind = "gold" },
		"a bonus on a wall":     func(s *State) { s.Bonuses[0].Cell = obstacle(t, s).String() },
		"a trap on a wall":      func(s *State) { s.Traps[0].Cell = obstacle(t, s) },
		"a trap of a summon":    func(s *State) { s.Traps[0].Effects[0].Kind = grimoire.Summon },
		"a trap for ever":       func(s *State) { s.Traps[0].Until = 1 << 30 },
		"a trap of a stranger":  func(s *State) { s.Traps[0].Team = 1 - s.Fighters[s.Traps[0].Layer].Team },
		"a boost of 900%":       func(s *State) { s.Fighters[0].Lasting = []Lasting{{Kind: "boost", Amount: 900, Ends: 3}} },
		"an unknown state":      func(s *State) { s.Fighters[0].Lasting = []Lasting{{Kind: "state", State: "frozen", Ends: 3}} },
		"empty armour":          func(s *State) { s.Fighters[0].Stocks = []combat.Stock{{Points: 0, Ends: 4}} },
		"an actor of none":      func(s *State) { s.Actor = len(s.Fighters) },
		"an unknown arena":      func(s *State) { s.Map = "atlantide" },
		"an unknown class":      func(s *State) { s.Grimoires[1].Class = "barde" },
		"a foreign variant":     func(s *State) { s.Grimoires[0].Variants = []string{"taille"} },
		"a summon of nobody":    func(s *State) { s.Fighters = append(s.Fighters, Fighter{Summoner: 7, Entity: "banniere"}) },
		"a price off the steps": func(s *State) { s.Auction.Price = 150 },
		"a negative purse":      func(s *State) { s.Purses[0] = -BidStep },
		"a price of no bid": func(s *State) {
			s.Auction = Auction{Designated: 0, ToBid: 1, Leader: -1, Bidder: -1, Payer: -1, Price: BidStep, Closed: true}
		},
		"a price past the purse": func(s *State) {
			s.Auction = Auction{Designated: 0, ToBid: 0, Leader: 1, Bidder: 1, Payer: 1, Price: s.Purses[1] + BidStep, Closed: true}
		},
		"a seat of no team":     func(s *State) { s.Teams[1] = 5 },
		"a winner of no seat":   func(s *State) { s.Winners = []int{5} },
		"a placement elsewhere": func(s *State) { s.Placed[0] = s.Placed[1] },
		"play before the bids":  func(s *State) { s.Auction.Closed = false },
	}
	for name, edit := range forged {
		f := s.clone()
		f.Fighters = cloneFighters(s.Fighters)
		f.Traps = cloneTraps(s.Traps)
		f.Purses, f.Grimoires, f.Teams = append([]int64{}, s.Purses...), append([]Grimoire{}, s.Grimoires...), append([]int{}, s.Teams...)
		edit(&f)
		if _, err := rules.DecodeState(writeState(f)); !errors.Is(err, game.ErrStateFormat) {
			t.Errorf("%s: read back (%v)", name, err)
		}
	}
	b := writeState(s)
	other := bytes.Clone(b)
	other[0]++
	for name, in := range map[string][]byte{
		"nothing": nil, "truncated": b[:len(b)-2], "version": stateform.Seal(other[:len(other)-4]),
		"another game": stateform.New(stateVersion, "CHESS").Bytes(),
		"damaged":      append(bytes.Clone(b[:30]), append([]byte{b[30] ^ 0x10}, b[31:]...)...),
		"left over":    stateform.Seal(append(bytes.Clone(b[:len(b)-4]), 0)),
	} {
		if _, err := rules.DecodeState(in); !errors.Is(err, game.ErrStateFormat) {
			t.Errorf("%s: %v, want an error wrapping game.ErrStateFormat", name, err)
		}
	}
	// A state no fold made is not written: its derived fields would not come back.
	f := s.clone()
	f.Fighters = cloneFighters(s.Fighters)
	f.Fighters[0].MaxHP++
	if _, err := rules.EncodeState(f); game.CodeOf(err) != game.BadInput {
		t.Errorf("a hero of no grimoire written: %v", err)
	}
	if _, err := rules.EncodeState(position(t, "1..2")); game.CodeOf(err) != game.BadInput {
		t.Errorf("a state on a test's arena written: %v", err)
	}
}

// obstacle is a cell of s's arena that nothing may stand on.
func obstacle(t *testing.T, s *State) arena.Cell {
	g := s.grid()
	for y := range g.Height() {
		for x := range g.Width() {
			if c := (arena.Cell{X: x, Y: y}); !g.Free(c) {
				return c
			}
		}
	}
	t.Fatalf("arena %s has no obstacle", s.Map)
	return arena.Cell{}
}

func cloneFighters(fs []Fighter) []Fighter {
	out := append([]Fighter{}, fs...)
	for i := range out {
		out[i].Casts = append([]Cast{}, fs[i].Casts...)
	}
	return out
}

func cloneTraps(ts []Trap) []Trap {
	out := append([]Trap{}, ts...)
	for i := range out {
		out[i].Effects = append([]grimoire.Effect{}, ts[i].Effects...)
	}
	return out
}

// FuzzDecodeState: no bytes make DecodeState panic (the checksum is set right on the
// fuzzer's bytes, so that the fields behind it are fuzzed too), and what reads back writes
// and reads back again, and can be shown, offered and decided on. The seeds are states of
// every phase of the seeded matches, and those kept in testdata/fuzz.
func FuzzDecodeState(f *testing.F) {
	rules := Rules{}
	for i, kind := range snapshotMatches {
		if kind.traps {
			continue // another catalog: the fuzzer reads with the embedded one
		}
		m := randomMatch(f, rules, kind, uint64(i), 60)
		for j := 0; j < len(m.States); j += max(1, len(m.States)/8) {
			b, err := rules.EncodeState(m.States[j])
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b[:len(b)-4])
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		st, err := rules.DecodeState(stateform.Seal(bytes.Clone(body)))
		if err != nil {
			if !errors.Is(err, game.ErrStateFormat) {
				t.Fatalf("%v does not wrap game.ErrStateFormat", err)
			}
			return
		}
		again, err := rules.EncodeState(st)
		if err != nil {
			t.Fatalf("a state read back is not written again: %v", err)
		}
		if _, err := rules.DecodeState(again); err != nil {
			t.Fatalf("a state read back does not read back again: %v", err)
		}
		rules.Status(st)
		for seat := range 2 {
			if v := rules.View(st, game.Viewpoint{Seats: []int{seat}, Teams: []int{seat}}); v != nil {
				for _, p := range v.Plays() {
					rules.Decide(st, game.Action{Seat: seat, Do: p.Do})
				}
			}
			rules.Decide(st, game.Action{Seat: seat, Do: EndTurn{}})
		}
		rules.Decide(st, game.Action{Seat: game.System, Do: game.Timeout{Deadline: rules.Status(st).Deadline}})
	})
}

// BenchmarkStoredState writes and reads the state of a seeded match on the Grande Plaine
// after 120 actions, and, for comparison, folds the same match from its stored events as
// a boot without a snapshot does (the payloads decoded by the game's codec, then evolved).
func BenchmarkStoredState(b *testing.B) {
	kind := snapshotMatch{opts: game.Options{"map": "grande-plaine"}, fairness: fairness.V1}
	gametest.BenchmarkSnapshots(b, Rules{}, randomMatch(b, Rules{}, kind, 1, 120))
}
