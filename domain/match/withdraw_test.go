package match_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// arena is a five-seat game that goes on while several seats are in play: a seat that
// resigns withdraws (game.Withdrawing), recording when; any seat in play may knock
// another out (game.Move naming the seat), the game's own decision; the last seat in
// play wins. Status lists the seats out of play in Out.
type arena struct{}

const arenaSeats = 5

// arenaState lists the seats out of play.
type arenaState []int

type (
	opened   struct{}
	withdrew struct {
		Seat int
		At   time.Time
	}
	knockedOut struct{ Seat int }
)

func (opened) EventType() string     { return "Opened" }
func (withdrew) EventType() string   { return "Withdrew" }
func (knockedOut) EventType() string { return "KnockedOut" }

func (arena) Info() game.Info { return game.Info{ID: "ARENA", Name: "Arena", RulesVersion: "1"} }
func (arena) Plan(game.Options) (game.Plan, error) {
	return game.Plan{Seats: arenaSeats, Teams: []int{0, 1, 2, 3, 4}}, nil
}
func (arena) Setup(game.Setup) ([]game.Emitted, error) { return game.PublicEvents(opened{}), nil }
func (a arena) Decide(st game.State, do game.Action) ([]game.Emitted, error) {
	seat, err := strconv.Atoi(do.Do.(game.Move).Notation)
	if err != nil || !slices.Contains(a.Status(st).ToAct, seat) {
		return nil, game.Reject(game.IllegalMove, "no seat %v in play to knock out", do.Do)
	}
	return game.PublicEvents(knockedOut{Seat: seat}), nil
}
func (arena) Evolve(st game.State, e game.Event) game.State {
	out, _ := st.(arenaState)
	switch e := e.(type) {
	case opened:
		return arenaState{}
	case withdrew:
		out = append(slices.Clone(out), e.Seat)
	case knockedOut:
		out = append(slices.Clone(out), e.Seat)
	}
	slices.Sort(out)
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
	return game.Status{ToAct: in, Phase: "play", Out: out}
}
func (arena) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[opened](c, 1)
	game.Register[withdrew](c, 1)
	game.Register[knockedOut](c, 1)
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
		tb.do(match.Join{Entropy: entropy, PlayerID: arenaPlayer(seat), Name: arenaPlayer(seat), At: t0})
	}
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

func (tb *arenaTable) refuse(cmd match.Command, code game.Code, says string) {
	tb.t.Helper()
	evs, err := match.Decide(arena{}, tb.state, cmd)
	if game.CodeOf(err) != code || !strings.Contains(err.Error(), says) || evs != nil {
		tb.t.Fatalf("%T %+v: %v %v, want %s saying %q", cmd, cmd, err, evs, code, says)
	}
}

// knock has player knock seat out of play: the game's decision, not a resignation (as a
// late move makes its player's flag fall).
func (tb *arenaTable) knock(player string, seat int) {
	tb.t.Helper()
	tb.do(match.Act{PlayerID: player, Do: game.Move{Notation: strconv.Itoa(seat)}, At: t0})
}

// A seat the game took out is out of the match as a resigned one is: it makes no
// lifecycle request, and the draw the others agree does not wait for it.
func TestASeatOutByTheGameIsOutOfTheMatch(t *testing.T) {
	tb := newArena(t, nil)
	tb.do(match.OfferDraw{PlayerID: "p4", At: t0})
	tb.do(match.AcceptDraw{PlayerID: "p1", At: t0})
	tb.knock("p4", 4) // by the offerer: no implicit decline
	if st := tb.state; st.Status != match.Live || len(st.Resigned) != 0 || !slices.Equal(st.Playing(arena{}), []int{0, 1, 2, 3}) {
		t.Fatalf("after p4 was knocked out: %+v, playing %v", st, st.Playing(arena{}))
	}
	for _, cmd := range []match.Command{
		match.AcceptDraw{PlayerID: "p4", At: t0}, match.DeclineDraw{PlayerID: "p4", At: t0}, match.Resign{PlayerID: "p4", At: t0},
		match.Leave{PlayerID: "p4", At: t0}, match.ClaimVictory{PlayerID: "p4", At: t0},
		match.Act{PlayerID: "p4", Do: game.Move{Notation: "0"}, At: t0},
	} {
		tb.refuse(cmd, game.Forbidden, "you are out of this match")
	}
	// p4's own offer stands, for the seats still playing to answer: the three others
	// suffice.
	tb.do(match.AcceptDraw{PlayerID: "p2", At: t0})
	if evs := tb.do(match.AcceptDraw{PlayerID: "p0", At: t0}); tb.state.Status != match.Live || len(evs) != 1 {
		t.Fatalf("three of four accepted: %+v", evs)
	}
	tb.do(match.AcceptDraw{PlayerID: "p3", At: t0})
	if r := tb.state.Result; tb.state.Status != match.Finished || r.Reason != "agreement" || len(r.Winners) != 0 {
		t.Fatalf("everyone still playing agreed: %s %+v", tb.state.Status, r)
	}
}

// A draw that waited only for a seat's acceptance is agreed when the seat goes out of
// play, by the game's decision or by resigning.
func TestAnAgreementNoLongerWaitsForASeatOut(t *testing.T) {
	for _, out := range []match.Command{
		match.Act{PlayerID: "p0", Do: game.Move{Notation: "4"}, At: t0},
		match.Resign{PlayerID: "p4", At: t0},
	} {
		tb := newArena(t, nil)
		tb.do(match.OfferDraw{PlayerID: "p0", At: t0})
		for _, p := range []string{"p1", "p2", "p3"} {
			tb.do(match.AcceptDraw{PlayerID: p, At: t0})
		}
		tb.do(out)
		if r := tb.state.Result; tb.state.Status != match.Finished || r.Reason != "agreement" {
			t.Errorf("%T: p4 was the last to answer: %s %+v", out, tb.state.Status, r)
		}
	}
	// A seat that accepted, then went out, no longer counts for the agreement.
	tb := newArena(t, nil)
	tb.do(match.OfferDraw{PlayerID: "p0", At: t0})
	tb.do(match.AcceptDraw{PlayerID: "p4", At: t0})
	tb.do(match.AcceptDraw{PlayerID: "p1", At: t0})
	tb.knock("p0", 4)
	tb.do(match.AcceptDraw{PlayerID: "p2", At: t0})
	if tb.state.Status != match.Live {
		t.Fatalf("p3 has not accepted: %+v", tb.state.Result)
	}
}

// A resignation that leaves a single team among the seats still playing ends the match,
// whatever seats the game took out.
func TestResigningWithOneTeamLeftInPlay(t *testing.T) {
	tb := newArena(t, nil)
	tb.knock("p0", 4)
	tb.knock("p0", 3)
	tb.knock("p0", 2)
	evs := tb.do(match.Resign{PlayerID: "p1", At: t0})
	if r := tb.state.Result; len(evs) != 3 || r.Reason != "resignation" || !slices.Equal(r.Winners, []int{0}) {
		t.Fatalf("p1 resigns with p0 alone in play: %+v", evs)
	}
}

// A seat the game took out is not waited for: no forfeit for its absence, no claim.
func TestNoClaimAgainstASeatOut(t *testing.T) {
	rule := match.Abandon{ClaimAfterMs: 1000, ForfeitAfterMs: 5000}
	tb := newArena(t, &rule)
	tb.do(match.Leave{PlayerID: "p4", At: t0})
	forfeit := tb.state.Deadline(arena{})
	tb.knock("p0", 4)
	if d := tb.state.Deadline(arena{}); !d.IsZero() {
		t.Fatalf("a forfeit is due at %s for a seat out", d)
	}
	tb.refuse(match.ClaimVictory{PlayerID: "p0", At: t0.Add(time.Minute)}, game.Conflict, "no opponent has left")
	tb.refuse(match.Timeout{Deadline: forfeit, At: forfeit}, game.Conflict, "no deadline has passed")
	// Another seat away is claimed as before.
	tb.do(match.Leave{PlayerID: "p3", At: t0})
	if evs := tb.do(match.ClaimVictory{PlayerID: "p0", At: t0.Add(time.Minute)}); len(evs) != 3 || evs[0] != (match.Forfeited{Seat: 3, ClaimedBy: 0}) {
		t.Fatalf("p0 claims against p3: %+v", evs)
	}
}

// With several sides, the bot's wait applies once every opponent still playing is a bot:
// p0 left, and waits ForfeitAfter while p4, a player, is in play, BotForfeitAfter once p4
// has resigned and only bots are left against it.
func TestTheBotsWaitWhenOnlyBotsAreLeft(t *testing.T) {
	rule := match.Abandon{ClaimAfterMs: 1000, ForfeitAfterMs: 5000, BotForfeitAfterMs: 60_000}
	tb := &arenaTable{t: t}
	tb.do(match.Create{Game: "ARENA", Seed: seed, At: t0, Abandon: &rule})
	for seat := range arenaSeats {
		bot := seat > 0 && seat < arenaSeats-1
		tb.do(match.Join{Entropy: entropy, PlayerID: arenaPlayer(seat), Name: arenaPlayer(seat), At: t0, Bot: bot})
	}
	tb.do(match.Leave{PlayerID: "p0", At: t0})
	if d := tb.state.Deadline(arena{}); !d.Equal(t0.Add(5 * time.Second)) {
		t.Fatalf("with p4 in play, p0's forfeit is due at %s", d)
	}
	tb.do(match.Resign{PlayerID: "p4", At: t0.Add(time.Second)})
	if d := tb.state.Deadline(arena{}); !d.Equal(t0.Add(time.Minute)) {
		t.Fatalf("against bots alone, p0's forfeit is due at %s", d)
	}
}
