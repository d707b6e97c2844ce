// Package magicchess is Ajedrez Mágico (MAGIC_CHESS) as an Arbiter game: chess on one
// board (domain/chess) where each player is dealt up to ten secret cards from the
// table's deck of forty (catalog.json, in Spanish and English), shuffled from the
// match's seed with the card kit (domain/cards). A planning phase comes before the first
// move; then on its turn a player moves, or lays a card, which is the turn unless the
// card says a move follows. Lasting cards bind the opponent through the chess move
// generator's hooks (chess.Restrictions). docs/games/magicchess.md says what the server
// enforces and what it chose where the rules leave room. This is the classic mode; the
// advanced mode (reactions) and doubles (two boards) are refused until they are built.
package magicchess

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/cardchess"
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// ID is the game's name in the API.
const ID = "MAGIC_CHESS"

// RulesVersion changes whenever a rule of this package or a card of catalog.json changes.
// Matches recorded under an older version are played by the rules of that version
// (Under): the older versions differ from this one only where noted there.
const RulesVersion = "magic-2026.7"

// versions are the rules versions the game has had, oldest first: a match plays by the
// rules of its own (Under), and a rule added since some version holds from it on (older).
var versions = []string{"magic-2026.1", "magic-2026.2", "magic-2026.3", "magic-2026.4", "magic-2026.5", "magic-2026.6", RulesVersion}

// older reports whether rules version v came before version than.
func older(v, than string) bool { return slices.Index(versions, v) < slices.Index(versions, than) }

// before reports whether r are the rules of a version older than v.
func (r Rules) before(v string) bool { return older(r.Info().RulesVersion, v) }

// The options and their defaults.
const (
	OptionMode     = "mode"     // CLASSIC (the default) or ADVANCED (reactions)
	OptionReaction = "reaction" // advanced mode: a reaction window's length in seconds, 1 to 60 (default 10)
	OptionHand     = "hand"     // the cards dealt to each seat, 1 to 10 (default 10)
	OptionPlanning = "planning" // the planning phase, 2 or 3 minutes (default 2)
	OptionBoards   = "boards"   // 1 (the default) or 2 (doubles: doubles.go)
	// DefaultClock is the clock of one board when the clock option is not given (rule 6);
	// "off" plays without one.
	DefaultClock = "10+5"
	// DefaultReaction is a reaction window's length when the reaction option is not given:
	// a fifth of it to read (no answer is taken), the rest to answer (docs/games/magic-chess.md).
	DefaultReaction = 10 * time.Second
	Classic         = "CLASSIC"
	Advanced        = "ADVANCED"
	MaxHand         = 10
)

// Rules is Ajedrez Mágico: under the current rules version, or under an older one for
// the matches recorded then (Under).
type Rules struct {
	pinned string // an older rules version; "" is RulesVersion
}

var (
	_ game.Rules         = Rules{}
	_ cards.Carded       = Rules{}
	_ game.Sighted       = Rules{}
	_ game.Viewed        = Rules{}
	_ game.Boarded       = Rules{}
	_ game.Recorded      = Rules{}
	_ game.Preluded      = Rules{}
	_ game.Turned        = Rules{}
	_ game.Opener        = Rules{}
	_ game.Pinned        = Rules{}
	_ game.Covering      = Rules{}
	_ game.Withdrawing   = Rules{}
	_ game.DrawDeclining = Rules{}
)

// Covering says whether a match of plan keeps hidden streams (game.Covering): a doubles
// match from magic-2026.4 on, for its teams' covert signals (Signalled). A match on one
// board has no team channel, so nothing of it can be covert.
func (r Rules) Covering(p game.Plan) bool {
	return !r.before("magic-2026.4") && p.Seats == DoublesSeats
}

// DeclinesDraw says whether an action declines a pending draw offer (game.DrawDeclining):
// in doubles both boards play at once, so that somebody nearly always moves, and only an
// action on the offerer's board, by the player across it, answers the offer; a move on
// the other board, the offerer's partner's included, leaves it pending for the others to
// accept. On one board every action of the opponent declines it, as in chess. The
// match's audit does not re-decide an implicit decline, so no stored match changes.
func (Rules) DeclinesDraw(st game.State, a game.Action, offerer int) bool {
	if _, ok := st.(Table); ok {
		return a.Seat != offerer && boardOf(a.Seat) == boardOf(offerer)
	}
	return a.Seat != offerer
}

// Withdraw is a seat's resignation while both teams stand (game.Withdrawing), which only
// doubles sees: from magic-2026.4 on, its team concedes (Table.withdraw).
func (r Rules) Withdraw(st game.State, seat int, _ time.Time) []game.Emitted {
	if t, ok := st.(Table); ok {
		return t.withdraw(seat)
	}
	return nil
}

// Info names the game.
func (r Rules) Info() game.Info {
	v := RulesVersion
	if r.pinned != "" {
		v = r.pinned
	}
	return game.Info{ID: ID, Name: "Ajedrez Mágico", RulesVersion: v}
}

// Under is the rules of an older version, for the matches recorded under it
// (game.Pinned). What changed since:
//   - magic-2026.1 to magic-2026.2 added the advanced mode; a match of 2026.1 was
//     classic, and the classic rules did not change.
//   - magic-2026.2 to magic-2026.3 added the advanced mode in doubles; a doubles match
//     opens (game.Opener) once each of its four seats has played, where 2026.2 counted
//     four turns of the table's record, which one board alone could fill; and a movement
//     card's gift is its piece's alone: the move generator gave the king too the squares
//     granted to another piece, and let a granted movement take the enemy king. Under
//     the older versions a match opens, and moves, as it did then.
//   - magic-2026.3 to magic-2026.4, in doubles: a signal of the team channel is covert
//     (Signalled is stored in its team's hidden stream, so nobody else can count the
//     signals nor tell when one was sent), and a player's resignation is its team's loss,
//     which ends the match on both boards (Withdraw). A signal of 2026.3 stays public and
//     a resignation there leaves the match going on, as they did.
//   - magic-2026.4 to magic-2026.5: a closing card (Sentinel, Ambush, Trail) stays on the
//     table from when it is laid, face up while it lasts, and goes to the discard pile
//     once, when it runs out (rule 8: a card of duration stays face up). Under the older
//     versions it went to the discard pile when laid and again when it ran out, so that
//     a doubles reshuffle dealt it twice (State.discardClosing).
//   - magic-2026.5 to magic-2026.6, in the advanced mode: a move that opens a reaction
//     window (rule 16) and leaves the opponent stalemated, or reaches the 75-move rule,
//     ends the game only once its window has closed, as a mate did (rule 19: the
//     reaction comes before the end is judged). Under the older versions such a move
//     ended the game at once and opened no window (State.endAtMove). And Rewind,
//     which puts back face up a card that the move it takes back ran out, takes it off
//     the discard pile; under the older versions it stayed there too (State.rewoundRanOut).
//   - magic-2026.6 to magic-2026.7, in advanced doubles: a reshuffle of the discard pile
//     leaves on it the cards that ran out at a move an open R2 window may still take back
//     (Rewind puts them back face up), so that a card is in one place only. Under the
//     older versions the reshuffle took them too, and a Rewind then showed face up a card
//     that was in the deck, or in a hand, as well (State.shuffledRanOut).
func (Rules) Under(version string) (game.Rules, bool) {
	if i := slices.Index(versions, version); i >= 0 && version != RulesVersion {
		return Rules{pinned: version}, true // the deck is the mode's: no match of then had another
	}
	return nil, false
}

// Versions lists the older versions this build plays, oldest first (game.Pinned).
func (Rules) Versions() []string { return slices.Clone(versions[:len(versions)-1]) }

// Opened says whether every seat has made its first move (game.Opener): each seat of the
// match has a card or a move in the record (a reaction is a card laid). Under the rules
// before magic-2026.3, as many turns as seats.
func (r Rules) Opened(st game.State, seats int) bool {
	if r.before("magic-2026.3") {
		_, turns := r.Turns(st)
		return len(turns) >= seats
	}
	var players []int
	switch s := st.(type) {
	case Table:
		players = s.Players
	case State:
		players = s.Players
	}
	for seat := range seats {
		if !slices.Contains(players, seat) {
			return false
		}
	}
	return true
}

// settings are a match's options, read and checked.
type settings struct {
	mode     string
	hand     int
	planning time.Duration
	reaction time.Duration // a reaction window's length, in the advanced mode
	clock    *clock.Setup
	boards   int
}

// read checks the options: a known key, a known value.
func read(opts game.Options) (settings, error) {
	st := settings{mode: Classic, hand: MaxHand, planning: 2 * time.Minute, boards: 1}
	for k, v := range opts {
		switch k {
		case OptionMode:
			switch v {
			case Classic:
			case Advanced:
				st.mode = Advanced
			default:
				return st, game.Reject(game.BadInput, "option mode %q: CLASSIC or ADVANCED", v)
			}
		case OptionReaction:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 60 || v != strconv.Itoa(n) {
				return st, game.Reject(game.BadInput, "option reaction %q: a reaction window of 1 to 60 seconds", v)
			}
			st.reaction = time.Duration(n) * time.Second
		case OptionHand:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > MaxHand || v != strconv.Itoa(n) {
				return st, game.Reject(game.BadInput, "option hand %q: 1 to %d cards", v, MaxHand)
			}
			st.hand = n
		case OptionPlanning:
			if v != "2" && v != "3" {
				return st, game.Reject(game.BadInput, "option planning %q: 2 or 3 minutes", v)
			}
			st.planning = time.Duration(v[0]-'0') * time.Minute
		case OptionBoards:
			if v != "1" && v != "2" {
				return st, game.Reject(game.BadInput, "option boards %q: 1 or 2", v)
			}
			st.boards = int(v[0] - '0')
		case clock.Option:
		default:
			return st, game.Reject(game.BadInput, "Ajedrez Mágico has no option %q (known: mode, hand, planning, boards, clock, reaction)", k)
		}
	}
	switch {
	case st.mode == Classic && st.reaction != 0:
		return st, game.Reject(game.BadInput, "option reaction: reaction windows belong to the advanced mode (mode ADVANCED)")
	case st.mode == Advanced && st.reaction == 0:
		st.reaction = DefaultReaction
	}
	switch v, given := opts[clock.Option]; {
	case !given && st.boards == 2:
		c, _ := clock.Parse(DefaultDoublesClock)
		st.clock = &c
	case !given:
		c, _ := clock.Parse(DefaultClock)
		st.clock = &c
	case v != "off":
		c, err := clock.FromOptions(opts)
		if err != nil {
			return st, err
		}
		st.clock = c
	}
	return st, nil
}

// Plan: two seats, each its own team; in doubles four, seats 0 and 3 one team, 1 and 2
// the other (doubles.go).
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	st, err := read(opts)
	if err != nil {
		return game.Plan{}, err
	}
	if st.boards == 2 {
		return game.Plan{Seats: DoublesSeats, Teams: slices.Clone(doublesTeams)}, nil
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}

// Setup places the pieces, opens the planning, shuffles the table's deck from the seed
// and deals the hands one card at a time, seat 0 first: GameStarted, DeckShuffled
// (server-only), then each seat's CardsDealt (its own).
func (r Rules) Setup(g game.Setup) ([]game.Emitted, error) {
	st, err := read(g.Options)
	if err != nil {
		return nil, err
	}
	if st.boards == 2 {
		return r.setupDoubles(g, st)
	}
	deck := deckOf(st.mode)
	start := GameStarted{FEN: chess.StartFEN, Mode: st.mode, HandSize: st.hand, DeckSize: len(deck),
		PlanEnds: g.At.Add(st.planning), Clock: st.clock, ReactionMs: st.reaction.Milliseconds()}
	shuffled := DeckShuffled{Cards: cards.Shuffle(g.Fairness, g.Seed, deckLabel, deck)}
	out := []game.Emitted{{Event: start}, {Event: shuffled, Visibility: r.Sight(shuffled)}}
	for seat := range 2 {
		var hand []string
		for i := range st.hand {
			hand = append(hand, shuffled.Cards[2*i+seat])
		}
		dealt := CardsDealt{Seat: seat, Count: len(hand), Cards: hand}
		out = append(out, game.Emitted{Event: dealt, Visibility: r.Sight(dealt)})
	}
	return out, nil
}

// Decide checks an action: in the planning, a seat ending it (game.Choose "ready"), or
// the engine's timeout at its deadline; in play, a move (UCI or SAN) or a card
// (cards.PlayCard) of the seat to act, and with a clock the engine's timeout (a flag).
func (r Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	if t, ok := st.(Table); ok {
		return t.decide(a)
	}
	if ob, ok := a.Do.(OnBoard); ok {
		if ob.Board != 0 {
			return nil, game.Reject(game.BadInput, "board %d does not exist: this match has one board, board 0", ob.Board)
		}
		a.Do = ob.Do
	}
	if _, ok := a.Do.(SendSignal); ok {
		return nil, game.Unsupported("Ajedrez Mágico on one board", a.Do, "moves, cards and, in the advanced mode, reactions")
	}
	s, ok := st.(State)
	if !ok || !s.started {
		return nil, game.Reject(game.Conflict, "the game has not started")
	}
	if _, over := s.outcome(); over {
		return nil, game.Reject(game.IllegalMove, "the game is over")
	}
	_, timeout := a.Do.(game.Timeout)
	if s.Phase == Planning {
		return s.decidePlanning(a)
	}
	if s.Window != nil {
		return s.decideWindow(a)
	}
	switch do := a.Do.(type) {
	case game.Move, cards.PlayCard:
	case React:
		return nil, game.Reject(game.IllegalMove, "no reaction window is open: a reaction answers the opponent's card or move (advanced mode)")
	case game.Choose:
		if do.Option == Pass {
			return nil, game.Reject(game.IllegalMove, "no reaction window is open: there is nothing to pass")
		}
		return nil, game.Reject(game.IllegalMove, "the planning is over: move or lay a card")
	default:
		if !timeout || !s.Clock.On {
			return nil, game.Unsupported("Ajedrez Mágico", a.Do, "a move or a card")
		}
	}
	seat := s.toAct()
	if a.Seat != seat && !timeout {
		if pc, isCard := a.Do.(cards.PlayCard); isCard && a.Seat >= 0 && a.Seat < 2 {
			return nil, game.Reject(game.NotYourTurn, "cards are laid only in your own turn (rule 3): it is seat %d's%s", seat, s.reactionNote(pc))
		}
		return nil, game.Reject(game.NotYourTurn, "it is seat %d's turn", seat)
	}
	if fell, err := s.Clock.Flag(seat, a); err != nil {
		return nil, err
	} else if fell {
		return game.PublicEvents(s.Clock.Fell(seat)), nil
	}
	var evs []game.Emitted
	var after State
	var err error
	switch do := a.Do.(type) {
	case game.Move:
		evs, after, err = s.decideMove(do.Notation)
	case cards.PlayCard:
		evs, after, err = s.decideCard(seat, do)
	}
	if err != nil {
		return nil, err
	}
	evs = s.stamped(evs, after, a.At)
	if after.opening != nil {
		evs = append(evs, game.PublicEvents(after.opened(a.At))...)
	}
	return evs, nil
}

// reactionNote adds, to the refusal of a card out of turn, that reactions are the
// advanced mode's.
func (s *State) reactionNote(pc cards.PlayCard) string {
	if e, ok := byID[pc.Card]; ok && e.Window == Reaction {
		return "; a reaction is laid with react, in a reaction window of the advanced mode"
	}
	return ""
}

// decidePlanning is an action during the planning phase.
func (s State) decidePlanning(a game.Action) ([]game.Emitted, error) {
	return planning(a, s.PlanEnds, s.Done[:], func(e PlanningEnded) ([]game.Emitted, error) {
		return Rules{}.Decide(Rules{}.Evolve(s, e), a)
	})
}

// planning decides an action of the planning phase that ends at ends, done[seat] saying
// which seats have ended it: the engine's timeout at its deadline, or a seat's "ready"
// (the last one ends the planning). An action that comes after the deadline ends the
// planning, then is decided in play by next.
func planning(a game.Action, ends time.Time, done []bool, next func(PlanningEnded) ([]game.Emitted, error)) ([]game.Emitted, error) {
	if t, ok := a.Do.(game.Timeout); ok {
		switch {
		case !t.Deadline.Equal(ends):
			return nil, game.Reject(game.Conflict, "the planning ends at %s, not %s", ends.Format(time.RFC3339Nano), t.Deadline.Format(time.RFC3339Nano))
		case a.At.Before(ends):
			return nil, game.Reject(game.Conflict, "the planning has not reached its end")
		}
		return game.PublicEvents(PlanningEnded{At: ends, Reason: "time"}), nil
	}
	if a.Seat < 0 || a.Seat >= len(done) {
		return nil, game.Reject(game.Forbidden, "no such seat")
	}
	if !a.At.Before(ends) {
		// The planning is over though its timeout has not come yet: it ends, then the
		// action is decided in play.
		ended := PlanningEnded{At: ends, Reason: "time"}
		more, err := next(ended)
		if err != nil {
			return nil, err
		}
		return append(game.PublicEvents(ended), more...), nil
	}
	c, ok := a.Do.(game.Choose)
	switch {
	case !ok:
		if _, known := a.Do.(game.Move); !known {
			if _, card := a.Do.(cards.PlayCard); !card {
				return nil, game.Unsupported("Ajedrez Mágico", a.Do, "a move or a card")
			}
		}
		return nil, game.Reject(game.NotYourTurn, "the planning phase is on until %s: nobody moves nor lays a card (end it with choose \"ready\")", ends.Format(time.RFC3339))
	case c.Option != "ready":
		return nil, game.Reject(game.BadInput, "the planning takes the choice \"ready\", not %q", c.Option)
	case done[a.Seat]:
		return nil, game.Reject(game.Conflict, "you have ended your planning already")
	}
	out := game.PublicEvents(PlanningDone{Seat: a.Seat})
	for seat, d := range done {
		if !d && seat != a.Seat {
			return out, nil
		}
	}
	return append(out, game.PublicEvents(PlanningEnded{At: a.At, Reason: "ready"})...), nil
}

// stamped puts the clock's stamp on the actions among evs, which the seat to act plays at
// at and which leave the state after (cardchess.Stamp).
func (s State) stamped(evs []game.Emitted, after State, at time.Time) []game.Emitted {
	return cardchess.Stamp(evs, s.Clock, s.toAct(), at, after.toAct() != s.toAct())
}

// decideMove is the seat to act playing notation: the event, and the state it gives.
func (s State) decideMove(notation string) ([]game.Emitted, State, error) {
	m, err := s.parseMove(notation)
	if err != nil {
		return nil, s, err
	}
	seat := s.toAct()
	played := MovePlayed{Seat: seat, UCI: m.UCI()}
	f := s
	played.SAN = f.move(m)
	played.FEN, played.Expired = f.Pos.FEN(), f.expired
	return game.PublicEvents(played), f, nil
}

// parseMove reads a move of the seat to act, legal under this turn's restrictions.
func (s *State) parseMove(notation string) (chess.Move, error) {
	m, err := cardchess.ParseMove(s.Pos, notation, s.restrictions(), "is barred this turn by a card on the table")
	if err != nil {
		return 0, err
	}
	if !slices.Contains(s.moves(), m) {
		return 0, game.Reject(game.IllegalMove, "%s: the first move of Haste may not give check, and must leave a second move", m.UCI())
	}
	return m, nil
}

// decideCard is seat laying a card: the events (with the move that comes with it, if
// any) and the state they give.
func (s State) decideCard(seat int, pc cards.PlayCard) ([]game.Emitted, State, error) {
	if s.Turn.Card != "" {
		return nil, s, game.Reject(game.IllegalMove, "you have laid a card this turn already (%s): play your move", s.Turn.Card)
	}
	if pc.Card != "" && byID[pc.Card].ID != "" && !Implemented(pc.Card) {
		return nil, s, unimplemented(pc.Card)
	}
	slot, err := pc.SlotIn(s.Hands[seat], "Ajedrez Mágico", func(id string) bool { _, ok := byID[id]; return ok })
	if err != nil {
		return nil, s, err
	}
	id := s.Hands[seat][slot]
	e := byID[id]
	if !Implemented(id) {
		return nil, s, unimplemented(id)
	}
	if n := len(e.words()); len(pc.Targets) != n {
		return nil, s, game.Reject(game.BadInput, "%s takes %d target(s) (%s), not %d", id, n, e.Targets, len(pc.Targets))
	}
	for i, t := range pc.Targets {
		if _, ok := chess.ParseSquare(t); !ok {
			return nil, s, game.Reject(game.BadInput, "target %d of %s is a square such as e4: %q", i+1, id, t)
		}
	}
	if pc.Move != "" && e.Window == Before {
		return nil, s, game.Reject(game.BadInput, "%s is the turn: no move goes with it", id)
	}
	lifted, legal, why := s.options(seat, slot)
	if len(legal) == 0 {
		return nil, s, game.Reject(game.IllegalMove, "%s cannot be laid now: %s", id, why)
	}
	p, ok := find(legal, pc.Targets)
	if !ok {
		why = "it is not one of the choices listed with your hand"
		all, _ := effects[id](&lifted, seat)
		if q, found := find(all, pc.Targets); found {
			why = lifted.try(seat, e, q)
		}
		return nil, s, game.Reject(game.IllegalMove, "%s cannot be aimed at %v: %s", id, pc.Targets, why)
	}
	if s.holds(seat) {
		if pc.Move != "" {
			return nil, s, game.Reject(game.BadInput, "in the advanced mode your opponent may react to %s before it resolves: lay it alone, and send its move after the window", id)
		}
		f := s
		f.hold(seat, slot, p.targets)
		return game.PublicEvents(CardPlayed{Seat: seat, Card: id, Slot: slot, Targets: p.targets, Result: Held, FEN: f.Pos.FEN()}), f, nil
	}
	f := s
	o := f.laid(seat, slot, p)
	played := CardPlayed{Seat: seat, Card: id, Slot: slot, Targets: p.targets, Result: o.result, FEN: f.Pos.FEN(), Expired: f.expired}
	out := game.PublicEvents(played)
	if o.result == Annulled {
		out = append(out, game.PublicEvents(CardAnnulled{Seat: seat, Card: id, Reason: o.why, FEN: f.Pos.FEN()})...)
	}
	if pc.Move != "" {
		more, next, err := f.decideMove(pc.Move)
		if err != nil {
			return nil, s, err
		}
		out, f = append(out, more...), next
	}
	return out, f, nil
}

// laid is seat laying the card in slot with play p: out of the hand, the effect, the
// record.
func (s *State) laid(seat, slot int, p play) outcome {
	id := s.Hands[seat][slot]
	s.expired = nil
	s.lay(seat, slot)
	o := s.apply(seat, byID[id], p)
	rec := notation(id, p.targets)
	if o.result == Annulled {
		rec += " annulled"
	}
	s.Record, s.Players = with(s.Record, rec), with(s.Players, seat)
	return o
}

// move is the seat to act playing m, a legal move, and what the turn's card does at its
// close: it returns the move's SAN.
func (s *State) move(m chess.Move) string {
	seat := s.toAct()
	var before State
	if s.Mode == Advanced {
		before = *s
	}
	s.expired = nil
	san := strings.TrimRight(s.Pos.SANWith(m, s.restrictions()), "+#")
	id, _ := s.Pos.PieceID(m.From())
	s.Pos.Play(m)
	if m.IsDrop() {
		id, _ = s.Pos.PieceID(m.To()) // the piece that moved is the one dropped
	}
	if s.Turn.MovesDue == 2 {
		s.Pos.PassTurn()
		s.Turn.MovesDue = 1
	} else {
		if s.Turn.Close != "" {
			s.closeTurn(seat, id, m.From())
		}
		s.endTurn(seat)
	}
	if o, over := s.outcome(); over && o.Reason == "checkmate" {
		san += "#"
	} else if s.kingAttacked(1 - seat) {
		san += "+"
	}
	s.Record, s.Players = with(s.Record, san), with(s.Players, seat)
	if s.Mode == Advanced {
		s.opening = s.triggered(&before, seat, m)
	}
	return san
}

// moves lists the legal moves of the seat to act under its restrictions; the first move
// of Haste gives no check and leaves a second move.
func (s *State) moves() []chess.Move {
	all := s.Pos.LegalMovesWith(nil, s.restrictions())
	if s.Turn.MovesDue != 2 {
		return all
	}
	seat := s.toAct()
	keep := all[:0]
	for _, m := range all {
		f := *s
		f.Pos.Play(m)
		if f.kingAttacked(1 - seat) {
			continue
		}
		f.Pos.PassTurn()
		f.Turn.MovesDue = 1
		if len(f.moves()) > 0 {
			keep = append(keep, m)
		}
	}
	return keep
}

// canAct reports whether seat, to act at the start of its turn, has a legal move or a
// card it may lay.
func (s *State) canAct(seat int) bool {
	if len(s.moves()) > 0 {
		return true
	}
	for slot, c := range s.Hands[seat] {
		if c == "" || !Implemented(c) {
			continue
		}
		if _, plays, _ := s.options(seat, slot); len(plays) > 0 {
			return true
		}
	}
	return false
}

// outcome says whether the game is over and how: a flag fallen loses; a seat to act with
// no legal move and no card it may lay is mated when in check (a mate save in its hand
// would have been a card it may lay), stalemated otherwise; then the draws of drawn.
func (s *State) outcome() (game.Outcome, bool) {
	if s.Flag != nil {
		return game.Outcome{Winners: []int{1 - s.Flag.Seat}, Reason: "timeout"}, true
	}
	seat := s.toAct()
	if !s.started || s.Phase != Play || s.Turn.MovesDue > 0 || s.Window != nil || s.opening != nil || s.Held != nil {
		return game.Outcome{}, false
	}
	if !s.canAct(seat) {
		if s.Pos.InCheck() {
			return game.Outcome{Winners: []int{1 - seat}, Reason: "checkmate"}, true
		}
		return game.Outcome{Winners: []int{}, Reason: "stalemate"}, true
	}
	return s.drawn()
}

// drawn says whether the game is drawn by a rule of chess that no card can change any
// more: a dead position by material once both hands are empty (a card could summon or
// promote), or 75 moves of each side without a capture or a pawn move (FIDE 9.6.2; the
// rules of Ajedrez Mágico are silent, and without it two bare kings play forever).
func (s *State) drawn() (game.Outcome, bool) {
	switch {
	case s.Pos.HalfmoveClock() >= 150:
		return game.Outcome{Winners: []int{}, Reason: "seventy-five-move rule"}, true
	case s.Pos.InsufficientMaterial() && s.emptyHanded():
		return game.Outcome{Winners: []int{}, Reason: "insufficient material"}, true
	}
	return game.Outcome{}, false
}

// emptyHanded reports whether neither seat holds a card.
func (s *State) emptyHanded() bool {
	for _, h := range s.Hands {
		for _, c := range h {
			if c != "" {
				return false
			}
		}
	}
	return true
}

// Evolve applies an event. A move or a card is played again from the state before it.
func (r Rules) Evolve(st game.State, e game.Event) game.State {
	if e, ok := e.(GameStarted); ok && e.Boards == 2 {
		return startTable(e, r.Info().RulesVersion)
	}
	if t, ok := st.(Table); ok {
		return t.evolve(e)
	}
	if e, ok := e.(GameStarted); ok {
		pos, err := chess.ParseFEN(e.FEN)
		if err != nil {
			panic(fmt.Sprintf("magicchess: a stored GameStarted has a bad FEN: %v", err))
		}
		return State{Pos: pos, Mode: e.Mode, Phase: Planning, PlanEnds: e.PlanEnds, HandSize: e.HandSize, control: e.Clock,
			reaction: time.Duration(e.ReactionMs) * time.Millisecond, started: true, oldGrants: r.before("magic-2026.3"),
			discardClosing: r.before("magic-2026.5"), endAtMove: r.before("magic-2026.6"),
			rewoundRanOut: r.before("magic-2026.6"), shuffledRanOut: r.before("magic-2026.7")}
	}
	s, ok := st.(State)
	if !ok {
		return st
	}
	switch e := e.(type) {
	case DeckShuffled:
		s.Deck, s.shuffled = slices.Clip(e.Cards), slices.Clip(e.Cards)
	case CardsDealt:
		s.Hands[e.Seat] = slices.Clip(e.Cards)
		s.Deck = dealtFrom(s.Deck, e.Cards)
	case PlanningDone:
		s.Done[e.Seat] = true
	case PlanningEnded:
		s.Phase = Play
		s.Clock, s.PlanEnded = clock.Start(s.control, 2, e.At), e.At
	case MovePlayed:
		m, err := s.Pos.ParseMoveWith(e.UCI, s.restrictions())
		if err != nil {
			panic(fmt.Sprintf("magicchess: a stored move %s does not replay: %v", e.UCI, err))
		}
		s.move(m)
		s.clockTurn(e.Seat, e.Stamp)
	case CardPlayed:
		if e.Slot < 0 || e.Slot >= len(s.Hands[e.Seat]) || s.Hands[e.Seat][e.Slot] != e.Card {
			panic(fmt.Sprintf("magicchess: a stored card %s in slot %d is not in seat %d's hand", e.Card, e.Slot, e.Seat))
		}
		if e.Result == Held {
			s.hold(e.Seat, e.Slot, e.Targets)
			break
		}
		f := s
		f.lay(e.Seat, e.Slot)
		all, _ := effects[e.Card](&f, e.Seat)
		p, ok := find(all, e.Targets)
		if !ok {
			panic(fmt.Sprintf("magicchess: a stored card %s has targets %v the rules do not know", e.Card, e.Targets))
		}
		s.laid(e.Seat, e.Slot, p)
		s.clockTurn(e.Seat, e.Stamp)
	case clock.FlagFell:
		s.Flag = &e
	case ReactionWindowOpened:
		w := *s.opening
		w.At, w.Answers, w.Closes = e.At, e.Answers, e.Closes
		s.Window, s.opening = &w, nil
	case ReactionReadingEnded:
		w := *s.Window
		w.Answering = true
		s.Window = &w
	case ReactionPassed:
		s.closeWindow(s.Window, e.At)
	case ReactionPlayed:
		s.reacted(e)
	case CardResolved:
		seat := s.Held.Seat
		s.resolveHeld()
		s.clockTurn(seat, e.Stamp)
	}
	return s
}

// clockTurn stops seat's clock as st records, when its turn has ended.
func (s *State) clockTurn(seat int, st clock.Stamp) {
	if s.toAct() != seat {
		s.Clock = s.Clock.Ended(seat, st)
	}
}

// PlayFrom is when the first moves may start (game.Preluded): the planning's deadline
// while it lasts, its end once over, so that the match waits for the first moves from then.
func (Rules) PlayFrom(st game.State) time.Time {
	if t, ok := st.(Table); ok {
		return t.playFrom()
	}
	s, _ := st.(State)
	if s.Phase == Play {
		return s.PlanEnded
	}
	return s.PlanEnds
}

// Clock is the clock of the state (clock.Timed); the zero Clock without a time control.
func (Rules) Clock(st game.State) clock.Clock {
	if t, ok := st.(Table); ok {
		return t.clock()
	}
	s, _ := st.(State)
	c := s.Clock
	c.Paused = s.Window != nil // no clock runs while a reaction window is open
	return c
}

// Status: in the planning, both seats that have not ended it, until its deadline; in
// play, the seat to act ("play", "check", "move-after-card") until its flag; the outcome.
func (Rules) Status(st game.State) game.Status {
	if t, ok := st.(Table); ok {
		return t.status()
	}
	s, ok := st.(State)
	if !ok || !s.started {
		return game.Status{}
	}
	if o, over := s.outcome(); over {
		return game.Status{Phase: Over, Over: true, Outcome: o}
	}
	if s.Phase == Planning {
		var seats []int
		for seat, done := range s.Done {
			if !done {
				seats = append(seats, seat)
			}
		}
		return game.Status{ToAct: seats, Phase: Planning, Deadline: s.PlanEnds, Choices: []string{"ready"}}
	}
	if s.unsettled() {
		return game.Status{Phase: phaseOf(s.windowOf())} // nobody acts until the command's next event
	}
	if w := s.Window; w != nil {
		// The reading time: nobody acts until it ends. Then the seat of the window answers.
		st := game.Status{Phase: phaseOf(w), Deadline: w.Answers}
		if w.Answering {
			st.ToAct, st.Deadline, st.Choices = []int{w.Seat}, w.Closes, []string{Pass}
		}
		return st
	}
	phase := "play"
	switch {
	case s.Turn.MovesDue > 0:
		phase = "move-after-card"
	case s.Pos.InCheck():
		phase = "check"
	}
	return game.Status{ToAct: []int{s.toAct()}, Phase: phase, Deadline: s.Clock.Deadline(s.toAct())}
}

// Events decodes Ajedrez Mágico's events.
func (Rules) Events() *game.Codec { return codec }
