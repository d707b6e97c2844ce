// Package sovereignchess is Sovereign Chess (Mark Bates, Infinite Pi Games) and its
// four-player variant Sovereign Chess Royale as an Arbiter game: it plugs the pure rules
// of domain/sovereign into the game contract of domain/game (options "mode", "position"
// and "clock"; the opening choice and Royale's seating drawn from the seed; moves,
// defections, the opening's keep or refuse and draw claims as actions; Royale's
// withdrawal of a seat that resigns or runs out of time), so that the engine can host a
// match, the API show each viewer its view, and replay and verify re-check every event.
// docs/games/sovereign.md says what the server enforces, the events it records and in
// which order, and every choice made where the rulebook is silent.
package sovereignchess

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// ID is the game's name in the API.
const ID = "SOVEREIGN_CHESS"

// RulesVersion changes whenever a rule of this package or of domain/sovereign changes.
const RulesVersion = "rulebook-2017.6"

// The modes, values of the option "mode".
const (
	TwoPlayer = "TWO_PLAYER"
	Royale    = "ROYALE"
)

// The phases of Status.
const (
	PhasePlay    = "play"
	PhaseOpening = "opening-choice"
	PhaseOver    = "over"
)

// The options of the opening choice.
const (
	Keep   = "keep"
	Refuse = "refuse"
)

// Rules is Sovereign Chess: under the current rules version, or under an older one for
// the matches recorded then (Under, versions.go).
type Rules struct {
	pinned string // an older rules version (a key of variants); "" is RulesVersion
}

var _ interface {
	game.Rules
	game.Boarded
	game.Recorded
	game.Auditor
	game.Withdrawing
} = Rules{}

// State is a game in progress. It is a value: Evolve clones the game before playing on
// it, so a State stays valid after being evolved, and two states evolved from one share
// nothing that either changes.
type State struct {
	Mode string
	Game *sovereign.Game
	// FirstMover is the seat drawn to play White's first move; -1 when there is no
	// opening choice (Royale, or a position after the first move).
	FirstMover int
	Order      []int       // Royale: the seat of each player, in turn order
	Ended      *GameEnded  // once the game is over
	Clock      clock.Clock // by seat; zero without a time control

	v       variant      // how the match's rules version differs from RulesVersion (versions.go)
	pending []game.Event // the facts the last move, choice or claim implies, not yet folded
}

// Info names the game.
func (r Rules) Info() game.Info {
	v := RulesVersion
	if r.pinned != "" {
		v = r.pinned
	}
	return game.Info{ID: ID, Name: "Sovereign Chess", RulesVersion: v}
}

// Plan: two seats, or four for Royale, each its own team.
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	mode, _, _, err := options(opts)
	if err != nil {
		return game.Plan{}, err
	}
	if mode == Royale {
		return game.Plan{Seats: 4, Teams: []int{0, 1, 2, 3}}, nil
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}

// options reads a match's options: the mode, the start position and the time control.
func options(opts game.Options) (string, sovereign.Position, *clock.Setup, error) {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	mode, notation := TwoPlayer, ""
	for _, k := range keys {
		switch v := opts[k]; k {
		case "mode":
			if v != TwoPlayer && v != Royale {
				return "", sovereign.Position{}, nil, game.Reject(game.BadInput, "option mode: %q is not a mode of Sovereign Chess (known: %s, %s)", v, TwoPlayer, Royale)
			}
			mode = v
		case "position":
			notation = v
		case clock.Option:
		default:
			return "", sovereign.Position{}, nil, game.Reject(game.BadInput, "Sovereign Chess has no option %q (known: mode, position, clock)", k)
		}
	}
	control, err := clock.FromOptions(opts)
	if err != nil {
		return "", sovereign.Position{}, nil, err
	}
	if notation == "" {
		if mode == Royale {
			return mode, sovereign.RoyaleStartPosition(), control, nil
		}
		return mode, sovereign.StartPosition(), control, nil
	}
	pos, err := startPosition(mode, notation)
	if err != nil {
		return "", pos, nil, &game.Error{Code: game.BadInput, Reason: "option position: " + err.Error(), Err: err}
	}
	return mode, pos, control, nil
}

// startPosition reads a position to start a game of the mode from.
func startPosition(mode, notation string) (sovereign.Position, error) {
	pos, err := sovereign.Parse(notation)
	if err != nil {
		return pos, err
	}
	if want := map[string]int{TwoPlayer: 2, Royale: 4}[mode]; pos.Players() != want {
		return pos, fmt.Errorf("a %s position has %d owned colours, this one %d", mode, want, pos.Players())
	}
	if st := pos.Status(); st.Result != sovereign.Ongoing {
		return pos, fmt.Errorf("the game is already over there (%s)", st.Result)
	}
	return pos, nil
}

// hasOpening reports whether a game from pos starts with the keep-or-refuse choice.
func hasOpening(pos sovereign.Position) bool {
	return !pos.Royale() && pos.Ply() == 0 && pos.Turn() == 0
}

// Setup records the mode, the start position and the random draw of the seats.
func (Rules) Setup(s game.Setup) ([]game.Emitted, error) {
	mode, pos, control, err := options(s.Options)
	if err != nil {
		return nil, err
	}
	started := GameStarted{Mode: mode, Position: pos.Notation(), FirstMover: -1}
	if control != nil {
		started.Clock, started.At = control, s.At
	}
	switch {
	case mode == Royale:
		started.Order = royaleOrder(s.Fairness, s.Seed)
	case hasOpening(pos):
		started.FirstMover = firstMover(s.Fairness, s.Seed)
	}
	return game.PublicEvents(started), nil
}

// The labels of the match's two draws (docs/fairness.md).
const (
	openingLabel = "sovereign/opening"
	royaleLabel  = "sovereign/royale-order"
)

var _ game.Random = Rules{}

// Drawn names what an event's random outcomes were drawn for (game.Random): the first
// mover of the opening choice, or Royale's seating.
func (Rules) Drawn(e game.Event) []string {
	switch e := e.(type) {
	case GameStarted:
		if e.Order != nil {
			return []string{royaleLabel}
		}
		if e.FirstMover >= 0 {
			return []string{openingLabel}
		}
	}
	return nil
}

// firstMover draws the seat that moves first, or refuses to (0 or 1), under procedure v:
// IntN(2) of its stream, or under Legacy the low bit of the first byte of its hash.
func firstMover(v fairness.Version, seed []byte) int {
	if v != fairness.Legacy {
		return fairness.New(seed, openingLabel).IntN(2)
	}
	return int(draw(seed, openingLabel)[0] & 1)
}

// draw is the hash from which one random outcome of a match is read.
func draw(seed []byte, label string) [sha256.Size]byte {
	h := sha256.New()
	h.Write(seed)
	h.Write([]byte(label))
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// royaleOrder draws the seat of each Royale player (see the package comment) under
// procedure v: the players 0-3 shuffled (Perm(4)), or under Legacy the permutation the
// first eight bytes of its hash, modulo 24, number.
func royaleOrder(v fairness.Version, seed []byte) []int {
	if v != fairness.Legacy {
		return fairness.New(seed, royaleLabel).Perm(4)
	}
	h := draw(seed, royaleLabel)
	n := int(binary.BigEndian.Uint64(h[:8]) % 24)
	left, order := []int{0, 1, 2, 3}, make([]int, 0, 4)
	for f := 6; len(left) > 0; {
		i := n / f
		n %= f
		order = append(order, left[i])
		left = slices.Delete(left, i, i+1)
		if len(left) > 0 {
			f /= len(left)
		}
	}
	return order
}

// seatOf is the seat playing player pl. Before the opening choice it is the seat that
// would play it if the first move were refused: the first mover plays White.
func (s State) seatOf(pl sovereign.Player) int {
	if s.Mode == Royale {
		return s.Order[pl]
	}
	if seat, ok := s.Game.Opening.SeatOf(pl); ok {
		return int(seat)
	}
	if pl == 0 {
		return s.FirstMover
	}
	return s.chooser()
}

// chooser is the seat that keeps or refuses White's first move.
func (s State) chooser() int { return 1 - s.FirstMover }

// toAct lists the seats that may act.
func (s State) toAct() []int {
	switch {
	case s.Ended != nil:
		return nil
	case s.Game.ChoicePending():
		return []int{s.chooser()}
	}
	pos := s.Game.Position()
	return []int{s.seatOf(pos.Turn())}
}

// Decide checks an action and records what happens: the move, choice or claim, then the
// facts it implies.
func (Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil, game.Reject(game.Conflict, "the game has not started")
	}
	if s.Ended != nil {
		return nil, game.Reject(game.Conflict, "the game is over (%s)", s.Ended.Reason)
	}
	_, timeout := a.Do.(game.Timeout)
	if timeout && !s.Clock.On {
		return nil, game.Reject(game.Conflict, "this game is played without a clock: no deadline has passed")
	}
	toAct := s.toAct()
	if !timeout && !slices.Contains(toAct, a.Seat) {
		return nil, game.Reject(game.NotYourTurn, "it is seat %v's turn, not seat %d's", toAct, a.Seat)
	}
	if fell, err := s.Clock.Flag(toAct[0], a); err != nil {
		return nil, err
	} else if fell {
		return s.record(s.Clock.Fell(toAct[0])), nil
	}
	e, err := s.decide(a.Seat, a.Do, s.Clock.Stamp(a.Seat, a.At, true))
	if err != nil {
		return nil, err
	}
	return s.record(e), nil
}

// record is e followed by the facts it implies, and the facts those imply in turn (a
// flag's withdrawal, then what the withdrawal implies).
func (s State) record(e game.Event) []game.Emitted {
	out := []game.Event{e}
	for s = s.apply(e); len(s.pending) > 0; s = s.apply(s.pending[0]) {
		out = append(out, s.pending[0])
	}
	return game.PublicEvents(out...)
}

// Withdraw implements game.Withdrawing: a Royale seat that resigns while the game goes on
// withdraws (domain/sovereign's Position.Withdraw): PlayerWithdrew, then GameEnded when a
// single king is left, else ChecksAnnounced when kings are in check, since
// control may have changed with the army that turned neutral. Whether the seat was to
// move or not, the turn goes on to the next seat that has not withdrawn. Nothing (nil)
// outside Royale: two players have two teams, and the match ends on a resignation
// before asking (the opening choice included); nothing either for a seat that withdrew
// already, or once the game is over, nor under rulebook-2017.1, where a resigned Royale
// seat played on (variant.noWithdrawal). With a clock, PlayerWithdrew records at.
func (Rules) Withdraw(st game.State, seat int, at time.Time) []game.Emitted {
	s, ok := st.(State)
	if !ok || s.v.noWithdrawal {
		return nil
	}
	e, err := s.withdrawal(seat, at)
	if err != nil {
		return nil
	}
	return s.record(e)
}

// withdrawal is the record of seat's withdrawal at at, or why it cannot withdraw.
func (s State) withdrawal(seat int, at time.Time) (PlayerWithdrew, error) {
	switch {
	case s.Game == nil:
		return PlayerWithdrew{}, errors.New("the game has not started")
	case s.Mode != Royale:
		return PlayerWithdrew{}, errors.New("only a Royale seat withdraws: a two-player game ends when a seat resigns")
	case s.Ended != nil:
		return PlayerWithdrew{}, fmt.Errorf("the game is over (%s)", s.Ended.Reason)
	case len(s.pending) > 0:
		return PlayerWithdrew{}, fmt.Errorf("%s is due first", s.pending[0].EventType())
	}
	pl, ok := s.playerOf(seat)
	pos := s.Game.Position()
	switch {
	case s.Clock.On && at.IsZero():
		return PlayerWithdrew{}, fmt.Errorf("seat %d withdraws at no time, in a game with a clock", seat)
	case !ok:
		return PlayerWithdrew{}, fmt.Errorf("seat %d does not play this game", seat)
	case pos.Withdrawn(pl):
		return PlayerWithdrew{}, fmt.Errorf("seat %d withdrew already", seat)
	}
	e := PlayerWithdrew{Seat: seat, Colour: pos.Owned(pl).String()}
	if k, ok := pos.King(pl); ok {
		e.Square = k.String()
	}
	if s.Clock.On {
		e.At = at
	}
	return e, nil
}

// playerOf is the Royale player that seat plays.
func (s State) playerOf(seat int) (sovereign.Player, bool) {
	i := slices.Index(s.Order, seat)
	return sovereign.Player(i), i >= 0
}

// Defect is the action of changing the army a player owns to another colour, named by
// colour name or letter in any case ("Yellow", "y"). KingMove is the king's move that
// must follow in the same turn when the king stands on a square of its new colour (""
// otherwise). It is Sovereign Chess's own action: no other game defects.
type Defect struct {
	Colour   string
	KingMove string
}

// ActionName implements game.Named.
func (Defect) ActionName() string { return "defections" }

// decide is Decide's first event, for a seat that may act, with the clock's stamp st.
func (s State) decide(seat int, do any, st clock.Stamp) (game.Event, error) {
	switch do := do.(type) {
	case game.Move:
		return s.move(seat, do.Notation, st)
	case Defect:
		notation, err := s.defection(do)
		if err != nil {
			return nil, err
		}
		return s.move(seat, notation, st)
	case game.Choose:
		return s.choose(seat, do.Option, st)
	case game.ClaimDraw:
		if s.capturedKing(seat) {
			return nil, game.Reject(game.IllegalMove, "your king was captured: an army in Interregnum can neither win nor tie, so it claims no draw; crown a new king by promotion first, or play on")
		}
		if !s.claimable() {
			return nil, game.Reject(game.IllegalMove, "no draw can be claimed: the position has not occurred three times, and fifty moves each have not been played without a capture, a pawn move or a regime change (%d of %d plies)", s.Game.QuietPlies(), s.fiftyMovePlies())
		}
		reason := "threefold repetition"
		if s.Game.Repetitions() < 3 {
			reason = "fifty-move rule"
		}
		return DrawClaimed{Seat: seat, Reason: reason, Stamp: st}, nil
	}
	return nil, game.Unsupported("Sovereign Chess", do, "a move, a defection, the opening choice or a draw claim")
}

// fiftyMovePlies is how many quiet plies allow a claim under the fifty-move rule: fifty
// moves by each player still playing, or 100 plies whatever the players under the
// versions before rulebook-2017.4 (variant.fiftyIn100).
func (s State) fiftyMovePlies() int {
	if s.v.fiftyIn100 {
		return 100
	}
	return s.Game.FiftyMovePlies()
}

// capturedKing reports whether seat plays a Royale army whose king was captured and not
// replaced (sovereign.Interregnum; an escaped king is not one), under a rules version that
// holds it to that: from rulebook-2017.5 such a seat claims no draw, and a draw claimed
// ranks it lost (variant.capturedClaims).
func (s State) capturedKing(seat int) bool {
	pl, ok := s.playerOf(seat)
	pos := s.Game.Position()
	return !s.v.capturedClaims && ok && pos.Royale() && pos.Status().Standings[pl] == sovereign.Interregnum
}

// claimable reports whether the seat to move may claim a draw: threefold repetition, or
// the fifty-move rule.
func (s State) claimable() bool {
	return s.Game.Repetitions() >= 3 || s.Game.QuietPlies() >= s.fiftyMovePlies()
}

// move checks a move in the move notation.
func (s State) move(seat int, notation string, st clock.Stamp) (game.Event, error) {
	if s.Game.ChoicePending() {
		return nil, game.Reject(game.IllegalMove, "White's first move waits to be kept or refused: Choose %q or %q first", Keep, Refuse)
	}
	pos := s.Game.Position()
	m, err := pos.ParseMove(notation)
	if err != nil {
		code := game.IllegalMove
		if errors.Is(err, sovereign.ErrMalformedMove) {
			code = game.BadInput
		}
		return nil, &game.Error{Code: code, Reason: err.Error(), Err: err}
	}
	e := played(seat, pos, m)
	e.Stamp = st
	return e, nil
}

// played is the record of the legal move m from pos.
func played(seat int, pos sovereign.Position, m sovereign.Move) MovePlayed {
	var id sovereign.PieceID
	if m.HasStep() {
		id = pos.PieceID(m.From())
	} else if k, ok := pos.King(pos.Turn()); ok && !m.IsPass() {
		id = pos.PieceID(k) // a defection or an escape: the king's
	}
	after := pos
	after.Play(m)
	return MovePlayed{Seat: seat, Move: m.String(), Piece: int(id), Position: after.Notation()}
}

// defection writes a Defect action in the move notation, or says why it cannot be made.
func (s State) defection(d Defect) (string, error) {
	c, ok := sovereign.ParseColour(strings.TrimSpace(d.Colour))
	if !ok {
		var known []string
		for c := sovereign.White; c <= sovereign.Violet; c++ {
			known = append(known, fmt.Sprintf("%s (%c)", c, c.Letter()))
		}
		return "", game.Reject(game.BadInput, "%q is not a colour of Sovereign Chess (known: %s)", d.Colour, strings.Join(known, ", "))
	}
	if s.Game.ChoicePending() {
		return "", game.Reject(game.IllegalMove, "White's first move waits to be kept or refused: Choose %q or %q first", Keep, Refuse)
	}
	pos := s.Game.Position()
	pl := pos.Turn()
	k, hasKing := pos.King(pl)
	onColour := sovereign.SquareColour(k) == c
	switch {
	case !hasKing:
		return "", game.Reject(game.IllegalMove, "you have no king to defect with")
	case pos.Owned(pl) == c:
		return "", game.Reject(game.IllegalMove, "your king is %s already", c)
	case !pos.Controls(pl, c):
		return "", game.Reject(game.IllegalMove, "you do not control %s: a king defects only to a colour its player controls", c)
	case onColour && d.KingMove == "":
		return "", game.Reject(game.IllegalMove, "your king stands on %s, a %s square: it must move off it in the same turn (give KingMove)", k, c)
	case !onColour && d.KingMove != "":
		return "", game.Reject(game.IllegalMove, "your king does not stand on a %s square: a defection to %s is the whole move (no KingMove)", c, c)
	}
	return "=" + string(c.Letter()) + strings.TrimSpace(d.KingMove), nil
}

// choose checks the opening choice.
func (s State) choose(seat int, option string, st clock.Stamp) (game.Event, error) {
	if !s.Game.ChoicePending() {
		if s.FirstMover >= 0 && len(s.Game.Moves()) == 0 {
			return nil, game.Reject(game.IllegalMove, "there is nothing to keep or refuse yet: White's first move has not been played")
		}
		return nil, game.Reject(game.IllegalMove, "there is no choice to make: the opening choice follows White's first move of a two-player game, once")
	}
	opt := strings.ToLower(strings.TrimSpace(option))
	if opt != Keep && opt != Refuse {
		return nil, game.Reject(game.BadInput, "the choice is %q (take White and its first move) or %q (take Black), not %q", Keep, Refuse, option)
	}
	white := s.FirstMover
	if opt == Keep {
		white = s.chooser()
	}
	return OpeningChosen{Seat: seat, Option: opt, White: white, Black: 1 - white, Stamp: st}, nil
}

// Evolve applies an event. A stored event that does not replay (a corrupt store) panics,
// as in every game of Arbiter; verify reports it as a problem.
func (r Rules) Evolve(st game.State, e game.Event) game.State {
	if e, ok := e.(GameStarted); ok {
		return started(e, variants[r.pinned])
	}
	return st.(State).apply(e)
}

// started is the state that GameStarted sets up, under the rules version whose
// differences are v.
func started(e GameStarted, v variant) State {
	pos, err := startPosition(e.Mode, e.Position)
	if err != nil {
		panic(fmt.Sprintf("sovereignchess: a stored GameStarted does not start a game: %v", err))
	}
	pos = v.position(pos)
	opening := sovereign.Opening{Decided: true} // seat 0 plays the side that moves first
	if e.FirstMover >= 0 {
		opening = sovereign.NewOpening(uint64(e.FirstMover))
	}
	return State{Mode: e.Mode, Game: sovereign.NewGame(pos, opening), FirstMover: e.FirstMover, Order: slices.Clone(e.Order),
		Clock: clock.Start(e.Clock, pos.Players(), e.At), v: v}
}

// apply folds one event after GameStarted into a copy of s.
func (s State) apply(e game.Event) State {
	switch e := e.(type) {
	case MovePlayed:
		before := s.Game.Position()
		g := s.Game.Clone()
		m, err := g.Play(e.Move)
		if err != nil {
			panic(fmt.Sprintf("sovereignchess: a stored move %s does not replay: %v", e.Move, err))
		}
		s.Game = g
		s.Clock = s.Clock.Ended(e.Seat, e.Stamp)
		s.pending = s.aftermath(&before, m)
	case OpeningChosen:
		g := s.Game.Clone()
		g.Opening.Choose(e.Option == Keep)
		s.Game = g
		s.Clock = s.Clock.Ended(e.Seat, e.Stamp)
		s.pending = s.aftermath(nil, sovereign.Move{})
	case clock.FlagFell:
		// The seat's time is spent; the next turn starts when the flag fell (its deadline;
		// in events recorded before session 14, when the flag was found fallen).
		s.Clock = s.Clock.Ended(e.Seat, clock.Stamp{At: e.At})
		if s.Mode != Royale {
			s.pending = []game.Event{timeout(e.Seat)}
			break
		}
		w, err := s.withdrawal(e.Seat, e.At)
		if err != nil {
			panic(fmt.Sprintf("sovereignchess: a stored flag of seat %d does not replay: %v", e.Seat, err))
		}
		s.pending = []game.Event{w}
	case PlayerWithdrew:
		if s.Clock.On && e.At.IsZero() {
			panic(fmt.Sprintf("sovereignchess: a stored withdrawal of seat %d has no time, in a game with a clock", e.Seat))
		}
		if slices.Contains(s.toAct(), e.Seat) {
			s.Clock = s.Clock.Quit(e.Seat, e.At)
		}
		pl, ok := s.playerOf(e.Seat)
		g := s.Game.Clone()
		if !ok || !g.Withdraw(pl) {
			panic(fmt.Sprintf("sovereignchess: a stored withdrawal of seat %d does not replay", e.Seat))
		}
		s.Game = g
		s.pending = s.endOrChecks(true)
	case DrawClaimed:
		s.Clock = s.Clock.Ended(e.Seat, e.Stamp)
		pos := s.Game.Position()
		standings := make([]string, pos.Players())
		for pl := range sovereign.Player(pos.Players()) {
			standings[s.seatOf(pl)] = sovereign.Tied.String()
			if pos.Withdrawn(pl) || s.capturedKing(s.seatOf(pl)) {
				standings[s.seatOf(pl)] = sovereign.Lost.String()
			}
		}
		s.pending = []game.Event{GameEnded{Reason: "draw claimed (" + e.Reason + ")", Winners: []int{}, Standings: standings}}
	default: // a fact that follows a move: the first one due
		if len(s.pending) > 0 && s.pending[0].EventType() == e.EventType() {
			s.pending = s.pending[1:]
		}
		if end, ok := e.(GameEnded); ok {
			s.Ended = &end
		}
	}
	return s
}

// Clock is the clock of the state (clock.Timed); the zero Clock without a time control.
func (Rules) Clock(st game.State) clock.Clock {
	s, _ := st.(State)
	return s.Clock
}

// Status: whose turn, the phase, and the outcome once GameEnded is recorded.
func (Rules) Status(st game.State) game.Status {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return game.Status{}
	}
	if s.Ended != nil {
		return game.Status{Phase: PhaseOver, Over: true, Outcome: game.Outcome{Winners: slices.Clone(s.Ended.Winners), Reason: s.Ended.Reason}}
	}
	toAct := s.toAct()
	status := game.Status{ToAct: toAct, Phase: PhasePlay, Deadline: s.Clock.Deadline(toAct[0]), Out: s.withdrawn()}
	if s.Game.ChoicePending() {
		status.Phase, status.Choices = PhaseOpening, []string{Keep, Refuse}
	}
	return status
}

// withdrawn lists the seats that withdrew, resigned or out on time, in ascending order;
// nil when none did.
func (s State) withdrawn() []int {
	pos := s.Game.Position()
	var out []int
	for pl := range sovereign.Player(pos.Players()) {
		if pos.Withdrawn(pl) {
			out = append(out, s.seatOf(pl))
		}
	}
	slices.Sort(out)
	return out
}

// Events decodes Sovereign Chess events.
func (Rules) Events() *game.Codec { return codec }
