package match

import (
	"reflect"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// Decide validates a command against the match and returns the events it causes, each
// with its visibility. A rejection is a *game.Error and means nothing happened.
func Decide(rules game.Rules, s State, cmd Command) ([]game.Emitted, error) {
	return DecideNext(rules, s, cmd, nil)
}

// Next is the match after a decision's events, when the decision worked it out: Evolve of
// each in turn from the state decided on, the state a fold of them gives once they are
// stored. It shares what it does not change with that state, as Evolve does.
type Next struct {
	State State
	Known bool // false: the decision did not work it out (see DecideNext)
}

// DecideNext is Decide, and, when next is not nil, tells next the match after the events
// decided if the decision worked it out. A game's action is judged on the match after its
// events (does it end the game?), so for an action that state is known, and a caller that
// keeps the match folded (the engine's cache) need not fold the same events again; for
// other commands (rarer: joins, resignations, draws...) Known is false.
func DecideNext(rules game.Rules, s State, cmd Command, next *Next) ([]game.Emitted, error) {
	if next != nil {
		next.Known = false
	}
	if _, creating := cmd.(Create); !creating && s.Status == None {
		return nil, game.Reject(game.NotFound, "this match does not exist")
	}
	switch c := cmd.(type) {
	case Create:
		return create(rules, s, c)
	case Join:
		return join(rules, s, c)
	case Act:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if c.Seat != nil {
			seat, err = seatOf(rules, s, c.PlayerID, *c.Seat)
		}
		if err != nil {
			return nil, err
		}
		return act(rules, s, seat, game.Action{Seat: seat, At: c.At, Do: c.Do}, next)
	case Timeout:
		if s.Status != Live {
			return nil, game.Reject(game.Conflict, "the match is not being played")
		}
		if a, ok := s.AbortAt(); ok && a.Equal(c.Deadline) && !c.At.Before(a) {
			return end(s, nil, Aborted), nil
		}
		if seat, due := forfeitDue(rules, s, c.Deadline, c.At); due {
			return forfeit(rules, s, seat, -1, c.At)
		}
		st := rules.Status(s.GameState)
		if st.Deadline.IsZero() || !st.Deadline.Equal(c.Deadline) || c.At.Before(st.Deadline) {
			return nil, game.Reject(game.Conflict, "no deadline has passed at %s", c.Deadline)
		}
		return act(rules, s, game.System, game.Action{Seat: game.System, At: c.At, Do: game.Timeout{Deadline: c.Deadline}}, next)
	case Resign:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		return resign(rules, s, seat, "resignation", c.At)
	case Leave:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		return leave(s, seat, c)
	case Return:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		return comeBack(s, seat)
	case ClaimVictory:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		return claim(rules, s, seat, c.At)
	case OfferDraw:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		switch {
		case s.DrawOfferBy == seat:
			return nil, game.Reject(game.Conflict, "your draw offer is already pending")
		case s.DrawOfferBy >= 0:
			return nil, game.Reject(game.Conflict, "seat %d already offers a draw: accept or decline it", s.DrawOfferBy)
		case s.offered(seat):
			return nil, game.Reject(game.Conflict, "you offered a draw already: you may offer again once an opponent has moved")
		}
		return game.PublicEvents(DrawOffered{Seat: seat}), nil
	case Cancel:
		return cancel(s, c)
	case Unseat:
		return unseat(s, c)
	case AcceptDraw:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		if err := pendingOfferTo(s, seat); err != nil {
			return nil, err
		}
		out := game.PublicEvents(DrawAccepted{Seat: seat})
		if agreed(rules, Evolve(rules, s, out[0].Event)) {
			out = append(out, end(s, nil, "agreement")...)
		}
		return out, nil
	case DeclineDraw:
		seat, err := liveSeat(rules, s, c.PlayerID)
		if err != nil {
			return nil, err
		}
		if err := pendingOfferTo(s, seat); err != nil {
			return nil, err
		}
		return game.PublicEvents(DrawDeclined{Seat: seat}), nil
	}
	// The type's name, not cmd itself, goes to the message: a command passed to fmt would
	// escape, and every caller's command with it, to the heap (the engine stamps each
	// command it decides, and its stamped copy can then stay on its stack).
	return nil, game.Reject(game.BadInput, "unknown command %s", reflect.TypeOf(cmd))
}

func create(rules game.Rules, s State, c Create) ([]game.Emitted, error) {
	if s.Status != None {
		return nil, game.Reject(game.Conflict, "this match already exists")
	}
	if len(c.Seed) < 16 {
		return nil, game.Reject(game.BadInput, "a match needs a seed of at least 16 bytes")
	}
	if _, err := SpectatorDelay(c.Options); err != nil {
		return nil, err
	}
	if _, err := Stake(c.Options); err != nil {
		return nil, err
	}
	if err := checkTraining(c); err != nil {
		return nil, err
	}
	plan, err := rules.Plan(GameOptions(c.Options))
	if err != nil {
		return nil, err
	}
	if c.Reserved != nil && len(c.Reserved) != plan.Seats {
		return nil, game.Reject(game.BadInput, "%d reserved seats for a match of %d", len(c.Reserved), plan.Seats)
	}
	info := rules.Info()
	return []game.Emitted{
		{Event: MatchCreated{
			Game: info.ID, RulesVersion: info.RulesVersion, Options: c.Options, Rated: c.Rated,
			Seats: plan.Seats, Teams: plan.Teams, CreatedBy: c.By, SeedCommitment: Commitment(c.Seed),
			RematchOf: c.RematchOf, Reserved: c.Reserved, Abandon: c.Abandon, Fairness: int(fairness.Current),
		}},
		{Event: SeedDrawn{Seed: c.Seed}, Visibility: visibility.Server},
	}, nil
}

func join(rules game.Rules, s State, c Join) ([]game.Emitted, error) {
	if s.Status != Open {
		return nil, game.Reject(game.Conflict, "the match has started: its seats are taken")
	}
	if s.SeatOf(c.PlayerID) >= 0 && !c.Bot {
		return nil, game.Reject(game.Conflict, "you already sit at seat %d of this match", s.SeatOf(c.PlayerID))
	}
	seat := -1
	if kept := reservedSeat(s, c.PlayerID); s.Reserved != nil {
		switch {
		case kept < 0:
			return nil, game.Reject(game.Forbidden, "the seats of this match are kept for the players of match %s", s.RematchOf)
		case c.Seat != nil && *c.Seat != kept:
			return nil, game.Reject(game.Forbidden, "seat %d is kept for another player: yours is seat %d", *c.Seat, kept)
		}
		seat = kept
	} else if c.Seat != nil {
		seat = *c.Seat
		if seat < 0 || seat >= len(s.Seats) {
			return nil, game.Reject(game.BadInput, "seat %d does not exist: this match has seats 0 to %d", seat, len(s.Seats)-1)
		}
		if s.Seats[seat].Taken() {
			return nil, game.Reject(game.Conflict, "seat %d is taken by %s", seat, s.Seats[seat].Name)
		}
	} else {
		for i, st := range s.Seats {
			if !st.Taken() {
				seat = i
				break
			}
		}
	}
	if err := trainingSeat(s, c); err != nil {
		return nil, err
	}
	taken, err := seatTaken(s, c, seat)
	if err != nil {
		return nil, err
	}
	funded, err := fund(rules, s, c, seat)
	if err != nil {
		return nil, err
	}
	out := append(game.PublicEvents(taken), funded...)
	if freeSeats(s) > 1 {
		return out, nil
	}
	// The last seat is taken: play starts, and the game deals its opening.
	for _, e := range out {
		s = Evolve(rules, s, e.Event)
	}
	out = append(out, game.Emitted{Event: MatchStarted{At: c.At}})
	opening, err := rules.Setup(s.setup(rules, s.GameSeed(s.Seed), c.At))
	if err != nil {
		return nil, err
	}
	return append(out, opening...), nil
}

// act asks the game to decide, then ends the match if the game is over. Only the seats
// to act act, but an action aside (game.Aside: a team signal) comes from any seat still
// playing, at any time, and answers no draw offer; nor does it record the seat's return,
// which would tell the others that it acted (its subscription does, when it reconnects).
// n, when not nil, is told the match after the events (settle).
func act(rules game.Rules, s State, seat int, a game.Action, n *Next) ([]game.Emitted, error) {
	aside := game.IsAside(a.Do)
	if seat != game.System && !aside && !slices.Contains(rules.Status(s.GameState).ToAct, seat) {
		return nil, game.Reject(game.NotYourTurn, "it is not seat %d's turn", seat)
	}
	evs, err := rules.Decide(s.GameState, a)
	if err != nil {
		return nil, err
	}
	var out []game.Emitted
	if _, away := s.Away(seat); away && !aside {
		out = append(out, game.Emitted{Event: SeatReturned{Seat: seat}}) // acting is being back
	}
	if s.DrawOfferBy >= 0 && !aside && game.DeclinesDraw(rules, s.GameState, a, s.DrawOfferBy) {
		out = append(out, game.Emitted{Event: DrawDeclined{Seat: seat, Implicit: true}})
	}
	if out == nil {
		out = slices.Clip(evs) // no copy; clipped, so that the end's events never land in the rules' storage
	} else {
		out = append(out, evs...)
	}
	return settle(rules, s, out, n), nil
}

// resign ends the match when a single team is left standing; with more teams the
// resigned seat stops playing, and a game that implements game.Withdrawing takes it out
// of play at at, the time of the command.
func resign(rules game.Rules, s State, seat int, reason string, at time.Time) ([]game.Emitted, error) {
	out := game.PublicEvents(Resigned{Seat: seat})
	after := Evolve(rules, s, out[0].Event)
	left := after.Playing(rules)
	teams := map[int]bool{}
	for _, st := range left {
		teams[s.Plan.Teams[st]] = true
	}
	if len(teams) <= 1 {
		return append(out, end(after, left, reason)...), nil
	}
	if w, ok := rules.(game.Withdrawing); ok && s.GameState != nil {
		out = append(out, w.Withdraw(s.GameState, seat, at)...)
	}
	return settle(rules, s, out, nil), nil
}

// settle is out, the events a command records in the live match s, followed by the end
// they bring, if any: the game's outcome once it is over; else an agreement, when the seats
// still playing have all accepted the pending draw offer now that a seat is out of play
// (resigned, or out by the game's decision: its acceptance is no longer awaited). n, when
// not nil, is told the match after all of them: the end's events are the match's own,
// cheap to fold. The match is evolved in place (State.apply), which keeps this frame,
// under every move's descent into the rules, small.
func settle(rules game.Rules, s State, out []game.Emitted, n *Next) []game.Emitted {
	after := s
	for i := range out {
		after.apply(rules, out[i].Event)
	}
	played := len(out)
	if st := rules.Status(after.GameState); st.Over {
		out = append(out, end(after, st.Outcome.Winners, st.Outcome.Reason)...)
	} else if agreed(rules, after) {
		out = append(out, end(after, nil, "agreement")...)
	}
	if n != nil {
		for i := range out[played:] {
			after.apply(rules, out[played+i].Event)
		}
		n.State, n.Known = after, true
	}
	return out
}

// agreed reports whether a draw offer is pending and every seat still playing but its
// offerer has accepted it.
func agreed(rules game.Rules, s State) bool {
	if s.DrawOfferBy < 0 {
		return false
	}
	for _, seat := range s.Playing(rules) {
		if seat != s.DrawOfferBy && !slices.Contains(s.DrawAccepted, seat) {
			return false
		}
	}
	return true
}

// end closes the match s (as of its end) and reveals its seed. A rated match that ends
// before every seat has moved is aborted (see abort.go).
func end(s State, winners []int, reason string) []game.Emitted {
	if s.Rated && s.Status == Live && !s.Opened {
		winners, reason = nil, Aborted
	}
	if winners == nil {
		winners = []int{}
	}
	revealed := SeedRevealed{Seed: s.Seed}
	if s.Fairness != fairness.Legacy && s.Started() {
		revealed.MatchSeed = s.GameSeed(s.Seed)
	}
	return game.PublicEvents(MatchEnded{Winners: winners, Reason: reason}, revealed)
}

// seatTaken is the SeatTaken of a join at seat: with the entropy it brings, under a
// procedure that takes it.
func seatTaken(s State, c Join, seat int) (SeatTaken, error) {
	e := SeatTaken{Seat: seat, PlayerID: c.PlayerID, Name: c.Name, Bot: c.Bot}
	if s.Fairness == fairness.Legacy {
		return e, nil // a match created before players brought entropy deals as it always did
	}
	if err := fairness.CheckEntropy(c.Entropy); err != nil {
		return e, game.Reject(game.BadInput, "%v", err)
	}
	e.Entropy, e.EntropyBy = fairness.Hex(c.Entropy), EntropyByPlayer
	if c.ServerEntropy {
		e.EntropyBy = EntropyByServer
	}
	return e, nil
}

// liveSeat is the seat of a player who may act in the live match s: seated, and still
// playing.
func liveSeat(rules game.Rules, s State, playerID string) (int, error) {
	return seatOf(rules, s, playerID, s.SeatOf(playerID))
}

// seatOf is seat, if the player sits there and may act in the live match s.
func seatOf(rules game.Rules, s State, playerID string, seat int) (int, error) {
	if seat >= len(s.Seats) || seat >= 0 && s.Seats[seat].PlayerID != playerID {
		seat = -1
	}
	switch {
	case seat < 0:
		return -1, game.Reject(game.Forbidden, "you have no seat in this match")
	case s.Status == Open:
		return -1, game.Reject(game.Conflict, "the match has not started: %d seat(s) still free", freeSeats(s))
	case s.Status == Finished:
		return -1, game.Reject(game.Conflict, "the match is over (%s)", s.Result.Reason)
	case slices.Contains(s.Resigned, seat):
		return -1, game.Reject(game.Forbidden, "you resigned from this match")
	case !s.inPlay(rules, seat):
		return -1, game.Reject(game.Forbidden, "you are out of this match")
	}
	return seat, nil
}

func pendingOfferTo(s State, seat int) error {
	switch {
	case s.DrawOfferBy < 0:
		return game.Reject(game.Conflict, "no draw offer is pending")
	case s.DrawOfferBy == seat:
		return game.Reject(game.Conflict, "you cannot answer your own draw offer")
	case slices.Contains(s.DrawAccepted, seat):
		return game.Reject(game.Conflict, "you already accepted this offer")
	}
	return nil
}

// reservedSeat is the seat kept for a player, or -1.
func reservedSeat(s State, playerID string) int {
	for seat, p := range s.Reserved {
		if p == playerID && p != "" {
			return seat
		}
	}
	return -1
}

func freeSeats(s State) int {
	n := 0
	for _, st := range s.Seats {
		if !st.Taken() {
			n++
		}
	}
	return n
}
