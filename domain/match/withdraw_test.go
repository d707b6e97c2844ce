package match_test

import (
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// arena is a five-seat game that goes on while several seats are in play: a seat that
// resigns withdraws (game.Withdrawing), recording when, and the last seat in play wins.
type arena struct{}

const arenaSeats = 5

// arenaState lists the seats out of play.
type arenaState []int

type withdrew struct {
	Seat int
	At   time.Time
}

func (withdrew) EventType() string { return "Withdrew" }

func (arena) Info() game.Info { return game.Info{ID: "ARENA", Name: "Arena", RulesVersion: "1"} }
func (arena) Plan(game.Options) (game.Plan, error) {
	return game.Plan{Seats: arenaSeats, Teams: []int{0, 1, 2, 3, 4}}, nil
}
func (arena) Setup(game.Setup) ([]game.Emitted, error) { return nil, nil }
func (arena) Decide(game.State, game.Action) ([]game.Emitted, error) {
	return nil, game.Reject(game.IllegalMove, "nothing to do")
}
func (arena) Evolve(st game.State, e game.Event) game.State {
	out, _ := st.(arenaState)
	switch e := e.(type) {
	case withdrew:
		return append(slices.Clone(out), e.Seat)
	}
	return out
}
func (arena) Status(st game.State) game.Status {
	out, _ := st.(arenaState)
	var in []int
	for seat := range arenaSeats {
		if !slices.Contains(out, seat) {
			in = append(in, seat)
		}
	}
	if len(in) == 1 {
		return game.Status{Phase: "over", Over: true, Outcome: game.Outcome{Winners: in, Reason: "last one in play"}}
	}
	return game.Status{ToAct: in, Phase: "play"}
}
func (arena) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[withdrew](c, 1)
	return c
}
func (arena) Withdraw(st game.State, seat int, at time.Time) []game.Emitted {
	return game.PublicEvents(withdrew{Seat: seat, At: at})
}

// arenaTable is an arena match whose players, p0 to p4, sit in order.
type arenaTable struct {
	t     *testing.T
	state match.State
}

func newArena(t *testing.T, abandon *match.Abandon) *arenaTable {
	tb := &arenaTable{t: t}
	tb.do(match.Create{Game: "ARENA", Seed: seed, At: t0, Abandon: abandon})
	for seat := range arenaSeats {
		tb.do(match.Join{PlayerID: arenaPlayer(seat), Name: arenaPlayer(seat), At: t0})
	}
	tb.state.GameState = arenaState{} // arena deals no opening
	return tb
}

func arenaPlayer(seat int) string { return "p" + strconv.Itoa(seat) }

// do decides cmd as it is given (its time included) and folds the events.
func (tb *arenaTable) do(cmd match.Command) []game.Event {
	tb.t.Helper()
	evs, err := match.Decide(arena{}, tb.state, cmd)
	if err != nil {
		tb.t.Fatalf("%T %+v: %v", cmd, cmd, err)
	}
	var out []game.Event
	for _, e := range evs {
		tb.state = match.Evolve(arena{}, tb.state, e.Event)
		out = append(out, e.Event)
	}
	return out
}

// The game is told when a seat withdraws: the time of the resignation, of the claim
// that forfeits it, or of the timeout that does.
func TestWithdrawalAtTheCommandsTime(t *testing.T) {
	rule := match.Abandon{ClaimAfterMs: 1000, ForfeitAfterMs: 5000}
	tb := newArena(t, &rule)
	at := t0.Add(time.Minute)
	if evs := tb.do(match.Resign{PlayerID: "p1", At: at}); !slices.Equal(evs, []game.Event{match.Resigned{Seat: 1}, withdrew{Seat: 1, At: at}}) {
		t.Fatalf("p1 resigns: %+v", evs)
	}
	tb.do(match.Leave{PlayerID: "p2", At: at})
	claim := at.Add(2 * time.Second)
	if evs := tb.do(match.ClaimVictory{PlayerID: "p0", At: claim}); len(evs) != 3 || evs[2] != (withdrew{Seat: 2, At: claim}) {
		t.Fatalf("p0 claims: %+v", evs)
	}
	tb.do(match.Leave{PlayerID: "p3", At: at})
	deadline := tb.state.Deadline(arena{})
	timeout := deadline.Add(time.Millisecond)
	evs := tb.do(match.Timeout{Deadline: deadline, At: timeout})
	if len(evs) != 3 || evs[2] != (withdrew{Seat: 3, At: timeout}) {
		t.Fatalf("p3's forfeit: %+v", evs)
	}
	if tb.state.Status != match.Live || !slices.Equal(tb.state.Resigned, []int{1, 2, 3}) {
		t.Fatalf("the match after p3's forfeit: %+v", tb.state)
	}
}
