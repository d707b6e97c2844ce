package gametest

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/visibility"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/projections"
)

// playout plays one seeded random match to its end at a table and checks it as it goes:
// the opening is Setup's from the match's seed, every action of the game's player is
// accepted and an action the game does not take is refused with a typed error, Decide
// changes nothing, the events stored are those Decide gave with the visibility Sight
// gives, the audit accepts each of them, Evolve folds them, and the game ends. At the end every viewer's transcript is compared with the revealed truth,
// and the verifier must find the stream clean and catch a secret stored public.
// It returns how many actions the match took and how it ended.
func playout(t *testing.T, g Game, opts game.Options, seed uint64) (actions int, ending string) {
	t.Helper()
	tb, actions := Playout(t, g, opts, seed)
	ms, _ := tb.Snapshot()
	return actions, ms.Result.Reason
}

// Playout plays one seeded random match of g with opts to its end, checked as the suite
// checks it (see playout), and returns its table and how many actions it took: a real
// match for a game's own tests to forge.
func Playout(t *testing.T, g Game, opts game.Options, seed uint64) (tb *Table, actions int) {
	t.Helper()
	if g.MaxActions == 0 {
		g.MaxActions = 2000
	}
	tb = NewTable(t, g.Rules, opts, seed)
	rng := rand.New(rand.NewPCG(seed, 0x9a3e7e57))
	w := newWatch(t, tb, seed)
	ms, st := tb.Snapshot()
	if ms.Status != match.Live {
		t.Fatalf("seed %d: the match is %s once every seat is taken", seed, ms.Status)
	}
	w.catchUp(w.opening(ms))
	refuseAt := rng.IntN(8) // when an action the game does not take is sent
	teams := map[int]bool{}
	for _, team := range ms.Plan.Teams {
		teams[team] = true
	}
	for ; ms.Status == match.Live; actions++ {
		if actions == g.MaxActions && !g.EndsByAgreement {
			t.Fatalf("seed %d: the game has not ended after %d actions (status %+v)", seed, actions, st)
		}
		if actions == g.MaxActions {
			agree(tb, ms)
			w.catchUp(nil)
			ms, _ = tb.Snapshot()
			break
		}
		tb.Wait(time.Duration(rng.IntN(1500)) * time.Millisecond)
		switch {
		case !st.Deadline.IsZero() && (len(st.ToAct) == 0 || rng.IntN(256) == 0):
			// Nobody acts in time: the engine's scheduler submits the timeout.
			tb.passDeadline(st.Deadline)
			expected := w.decide(game.Action{Seat: game.System, At: tb.now, Do: game.Timeout{Deadline: st.Deadline}})
			tb.Timeout(st.Deadline)
			w.catchUp(expected)
		case len(st.ToAct) == 0:
			t.Fatalf("seed %d: the match is live, nobody may act and no deadline is set: %+v", seed, st)
		case len(teams) > 2 && rng.IntN(200) == 0:
			// A seat resigns while several teams play on (a game may withdraw it).
			seat := st.ToAct[rng.IntN(len(st.ToAct))]
			tb.Must(match.Resign{PlayerID: Player(seat)})
			w.catchUp(nil)
		default:
			seat := st.ToAct[rng.IntN(len(st.ToAct))]
			if actions == refuseAt {
				w.refuse(seat)
			}
			var do any
			if g.Act != nil && rng.IntN(4) > 0 {
				do = g.Act(rng, w.a, seat)
			} else {
				do = w.play(rng, ms, seat)
			}
			expected := w.decide(game.Action{Seat: seat, At: tb.now, Do: do})
			tb.Act(seat, do)
			w.catchUp(expected)
		}
		ms, st = tb.Snapshot()
	}
	w.finish(ms)
	return tb, actions
}

// play picks one of the plays that the view of seat's player lists for seat: three times
// in four one of those the game scores best (mates and captures first, in the chess-like
// games), so that matches end, and otherwise any.
func (w *watch) play(rng *rand.Rand, ms match.State, seat int) any {
	w.t.Helper()
	var plays []game.Play
	if v := projections.ViewerOf(ms, Player(seat)).View(w.rules, w.a); v != nil {
		for _, p := range v.Plays() {
			if p.Seat == seat {
				plays = append(plays, p)
			}
		}
	}
	if len(plays) == 0 {
		w.t.Fatalf("seed %d: version %d: seat %d is to act and its view lists no play", w.seed, w.version, seat)
	}
	// Decide takes every play a view lists (game.Viewed): a few of them, each time.
	for range min(len(plays), 4) {
		p := plays[rng.IntN(len(plays))]
		if _, err := w.rules.Decide(w.a, game.Action{Seat: seat, At: w.tb.now, Do: p.Do}); err != nil {
			w.t.Fatalf("seed %d: version %d: seat %d's view lists %+v, which Decide refuses: %v", w.seed, w.version, seat, p.Do, err)
		}
	}
	w.unchanged("Decide of the plays a view lists")
	if rng.IntN(4) > 0 {
		best := slices.MaxFunc(plays, func(a, b game.Play) int { return a.Score - b.Score }).Score
		plays = slices.DeleteFunc(plays, func(p game.Play) bool { return p.Score < best })
	}
	return plays[rng.IntN(len(plays))].Do
}

// nonsense is an action no game takes.
type nonsense struct{ Of string }

// refuse sends, for the seat to act, an action the game does not take: the rules and the
// engine must refuse it with a typed error (game.Error's code), and nothing changes.
func (w *watch) refuse(seat int) {
	w.t.Helper()
	do := nonsense{Of: "gametest"}
	if _, err := w.rules.Decide(w.a, game.Action{Seat: seat, At: w.tb.now, Do: do}); game.CodeOf(err) == "" {
		w.t.Fatalf("seed %d: Decide of an action the game does not take: %v, want a typed rejection", w.seed, err)
	}
	w.unchanged("Decide of an action the game does not take")
	if err := w.tb.Do(match.Act{PlayerID: Player(seat), Do: do}); game.CodeOf(err) == "" {
		w.t.Fatalf("seed %d: the engine, sent an action the game does not take: %v, want a typed rejection", w.seed, err)
	}
	w.catchUp([]game.Emitted{}) // nothing was stored
}

// agree has the players still playing agree a draw.
func agree(tb *Table, ms match.State) {
	tb.T.Helper()
	playing := ms.Playing(tb.Rules)
	tb.Must(match.OfferDraw{PlayerID: Player(playing[0])})
	for _, seat := range playing[1:] {
		tb.Must(match.AcceptDraw{PlayerID: Player(seat)})
	}
}

// decide asks the rules what the action records, from the suite's own fold, and checks
// that deciding changed nothing. A rejection fails the match: the game's player offers
// only actions the game takes.
func (w *watch) decide(a game.Action) []game.Emitted {
	w.t.Helper()
	evs, err := w.rules.Decide(w.a, a)
	if err != nil {
		w.t.Fatalf("seed %d: seat %d's %T %+v is refused: %v", w.seed, a.Seat, a.Do, a.Do, err)
	}
	w.unchanged(fmt.Sprintf("the game's player or Decide of %+v", a.Do))
	return evs
}

// unchanged fails unless the suite's two folds of the stream are still equal: they are
// built from separately decoded events, and only one of them is ever given to the rules'
// Decide, Audit and views, so a difference is something that changed its state.
func (w *watch) unchanged(what string) {
	w.t.Helper()
	if !reflect.DeepEqual(w.a, w.b) {
		w.t.Fatalf("seed %d: %s changed the state it was given", w.seed, what)
	}
}

// opening is what Setup deals from the match's seed when its last seat is taken.
func (w *watch) opening(ms match.State) []game.Emitted {
	w.t.Helper()
	stake, _ := match.Stake(ms.Options)
	evs, err := w.rules.Setup(game.Setup{Plan: ms.Plan, Options: match.GameOptions(ms.Options), Seed: ms.GameSeed(ms.Seed), Fairness: ms.Fairness, At: ms.StartedAt,
		Purses: ms.Purses(), Stake: stake})
	if err != nil {
		w.t.Fatalf("seed %d: Setup: %v", w.seed, err)
	}
	return evs
}

// catchUp reads the events stored since the last read and checks every game event
// among them: it decodes, its visibility is the one Sight declares (public for a game
// that declares none), the audit accepts it from the state before, and Evolve folds it.
// expected, unless nil, is what the rules decided: the game events stored must be
// exactly those, in order, with their visibilities.
func (w *watch) catchUp(expected []game.Emitted) {
	w.t.Helper()
	evs, err := w.tb.Store.ReadStream(w.tb.Ctx, w.stream, w.version, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	var stored []game.Emitted
	for _, ev := range evs {
		w.version = ev.Version
		d := w.decode(ev)
		if match.IsLifecycle(ev.Type) {
			continue
		}
		if want := w.sight(d); ev.Visibility != want {
			w.t.Fatalf("seed %d: version %d (%s) is stored visible to %q; the game's sight says %q", w.seed, ev.Version, ev.Type, ev.Visibility, want)
		}
		if a, ok := w.rules.(game.Auditor); ok {
			if err := a.Audit(w.a, d); err != nil {
				w.t.Fatalf("seed %d: the audit refuses version %d (%s), which the rules recorded: %v", w.seed, ev.Version, ev.Type, err)
			}
		}
		w.a = w.evolve(w.a, d, ev)
		w.b = w.evolve(w.b, w.decode(ev), ev)
		stored = append(stored, game.Emitted{Event: d, Visibility: ev.Visibility})
	}
	w.unchanged("Audit or Evolve") // Evolve may change the state it folds into, not the other
	if expected != nil {
		if got, want := encodeAll(w.t, stored), encodeAll(w.t, expected); !slices.Equal(got, want) {
			w.t.Fatalf("seed %d: the events stored are not those the rules decided:\nstored  %v\ndecided %v", w.seed, got, want)
		}
	}
	snap, err := w.tb.Engine.Match(w.tb.Ctx, w.tb.ID)
	if err != nil {
		w.t.Fatal(err)
	}
	if !reflect.DeepEqual(snap.State.GameState, w.a) {
		w.t.Fatalf("seed %d: at version %d the engine's state is not the suite's fold of the same events", w.seed, w.version)
	}
	w.record(snap.State, evs)
}

// decode reads a stored event under the match's rules.
func (w *watch) decode(ev eventstore.Event) game.Event {
	w.t.Helper()
	d, err := match.Decode(w.rules, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		w.t.Fatalf("seed %d: version %d (%s) does not decode: %v", w.seed, ev.Version, ev.Type, err)
	}
	return d
}

// sight is the visibility the game declares for an event: public for a game that
// declares none.
func (w *watch) sight(e game.Event) visibility.Visibility {
	if s, ok := w.rules.(game.Sighted); ok {
		return s.Sight(e)
	}
	return visibility.Public
}

// evolve folds one event, failing the test where Evolve panics on it.
func (w *watch) evolve(st game.State, e game.Event, ev eventstore.Event) (out game.State) {
	w.t.Helper()
	defer func() {
		if p := recover(); p != nil {
			w.t.Fatalf("seed %d: Evolve refuses version %d (%s), which the rules recorded: %v", w.seed, ev.Version, ev.Type, p)
		}
	}()
	return w.rules.Evolve(st, e)
}
