package sovereignchess

import (
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// Colours and squares are written as domain/sovereign writes them: "yellow", "e5".

// GameStarted sets up the board and records the random draw of the seats.
type GameStarted struct {
	Mode     string `json:"mode"`     // TWO_PLAYER or ROYALE
	Position string `json:"position"` // the start position in the notation
	// FirstMover is the seat drawn to play White's first move; -1 when there is no
	// opening choice (Royale, or a position after the first move).
	FirstMover int `json:"firstMover"`
	// Order is Royale's draw: Order[p] is the seat of player p (White, Ash, Slate,
	// Black at the start, in turn order).
	Order []int `json:"order,omitempty"`
	// With a clock (the option clock): the time control, and when the first turn starts.
	Clock *clock.Setup `json:"clock,omitempty"`
	At    time.Time    `json:"at,omitzero"`
}

// MovePlayed is one move.
type MovePlayed struct {
	Seat     int    `json:"seat"`
	Move     string `json:"move"`     // in the move notation
	Piece    int    `json:"piece"`    // the stable ID of the moving piece (the king's for a defection or an escape; 0 for a pass)
	Position string `json:"position"` // the position after the move

	clock.Stamp // with a clock: when it was played, and what the mover had left
}

// OpeningChosen is the answer to White's first move of a two-player game.
type OpeningChosen struct {
	Seat   int    `json:"seat"`
	Option string `json:"option"` // keep or refuse
	White  int    `json:"white"`  // the seat that plays White from now on
	Black  int    `json:"black"`  // the seat that plays Black

	clock.Stamp // with a clock: when it was chosen, and what the chooser had left
}

// Defected follows a defection: the seat's king changed colour.
type Defected struct {
	Seat int    `json:"seat"`
	From string `json:"from"` // the colour owned before, now neutral
	To   string `json:"to"`   // the colour owned now
}

// KingCrowned follows a pawn's promotion to a king by a player who had one: a coup
// d'état (a pawn of the owned colour) or an overthrow (of a controlled colour, which
// becomes the owned one). The old king left the board.
type KingCrowned struct {
	Seat   int    `json:"seat"`
	Colour string `json:"colour"`
	Square string `json:"square"`
	Kind   string `json:"kind"` // coup or overthrow
}

// KingCaptured follows a capture of a king (Royale).
type KingCaptured struct {
	Seat   int    `json:"seat"` // whose king it was
	By     int    `json:"by"`   // the seat that captured it
	Colour string `json:"colour"`
	Square string `json:"square"`
}

// KingEscaped follows an escape (Royale): a king not in check, with no move out of
// check, left the board.
type KingEscaped struct {
	Seat   int    `json:"seat"`
	Colour string `json:"colour"`
	Square string `json:"square"`
}

// InterregnumBegun follows the loss of a Royale king: the seat's army plays on without
// one until a pawn is crowned king.
type InterregnumBegun struct {
	Seat  int    `json:"seat"`
	Cause string `json:"cause"` // captured or escaped
}

// InterregnumEnded follows the crowning of a new king by a Royale player who had none.
type InterregnumEnded struct {
	Seat   int    `json:"seat"`
	Colour string `json:"colour"`
	Square string `json:"square"`
}

// ChecksAnnounced lists, after a Royale move, the seats whose king is in check, the
// rulebook's announced checks.
type ChecksAnnounced struct {
	Seats []int `json:"seats"`
}

// PlayerWithdrew takes a Royale seat out of the game when it resigns while the game goes
// on (game.Withdrawing), or when its flag fell: its king, if it had one, left the board
// from Square, the army it owned (Colour) turned neutral, and its turns are skipped from
// now on. The match records Resigned just before a resignation's.
type PlayerWithdrew struct {
	Seat   int    `json:"seat"`
	Colour string `json:"colour"`           // the colour the seat owned, now neutral
	Square string `json:"square,omitempty"` // where its king stood; none in Interregnum
	// At is, with a clock, when the seat withdrew (the resignation's time, or the flag's):
	// a withdrawal during the seat's turn starts the next turn then. None without a clock.
	At time.Time `json:"at,omitzero"`
}

// DrawClaimed is a draw claimed on a threefold repetition or the fifty-move rule.
type DrawClaimed struct {
	Seat   int    `json:"seat"`
	Reason string `json:"reason"` // threefold repetition or fifty-move rule

	clock.Stamp // with a clock: when it was claimed, and what the claimant had left
}

// GameEnded ends the game.
type GameEnded struct {
	Reason    string   `json:"reason"`    // checkmate, stalemate, last king standing, draw claimed (...)...
	Winners   []int    `json:"winners"`   // the seat that won, if any
	Standings []string `json:"standings"` // by seat: won, tied or lost
}

func (GameStarted) EventType() string      { return "GameStarted" }
func (MovePlayed) EventType() string       { return "MovePlayed" }
func (OpeningChosen) EventType() string    { return "OpeningChosen" }
func (Defected) EventType() string         { return "Defected" }
func (KingCrowned) EventType() string      { return "KingCrowned" }
func (KingCaptured) EventType() string     { return "KingCaptured" }
func (KingEscaped) EventType() string      { return "KingEscaped" }
func (InterregnumBegun) EventType() string { return "InterregnumBegun" }
func (InterregnumEnded) EventType() string { return "InterregnumEnded" }
func (ChecksAnnounced) EventType() string  { return "ChecksAnnounced" }
func (PlayerWithdrew) EventType() string   { return "PlayerWithdrew" }
func (DrawClaimed) EventType() string      { return "DrawClaimed" }
func (GameEnded) EventType() string        { return "GameEnded" }

var codec = func() *game.Codec {
	c := game.NewCodec()
	game.Register[GameStarted](c, 1)
	game.Register[MovePlayed](c, 1)
	game.Register[OpeningChosen](c, 1)
	game.Register[Defected](c, 1)
	game.Register[KingCrowned](c, 1)
	game.Register[KingCaptured](c, 1)
	game.Register[KingEscaped](c, 1)
	game.Register[InterregnumBegun](c, 1)
	game.Register[InterregnumEnded](c, 1)
	game.Register[ChecksAnnounced](c, 1)
	game.Register[PlayerWithdrew](c, 1)
	game.Register[DrawClaimed](c, 1)
	game.Register[GameEnded](c, 1)
	game.Register[clock.FlagFell](c, 1)
	return c
}()

// aftermath lists the facts that the last move m (when before, the position it was
// played from, is given) or the last opening choice implies, in the order they are
// recorded. s is the state after it.
func (s State) aftermath(before *sovereign.Position, m sovereign.Move) []game.Event {
	pos := s.Game.Position()
	var out []game.Event
	if before != nil {
		out = s.regime(before, &pos, m)
	}
	if s.Game.ChoicePending() {
		return out // the game goes on to the choice, whatever the board
	}
	return append(out, s.endOrChecks(before != nil)...)
}

// timeout is the end of a two-player game whose seat's flag fell: the other seat wins.
func timeout(seat int) GameEnded {
	standings := []string{sovereign.Won.String(), sovereign.Won.String()}
	standings[seat] = sovereign.Lost.String()
	return GameEnded{Reason: "timeout", Winners: []int{1 - seat}, Standings: standings}
}

// endOrChecks is GameEnded if the game is over in the current position; else, when
// announce is set, the Royale checks to announce.
func (s State) endOrChecks(announce bool) []game.Event {
	if end := s.outcome(); end != nil {
		return []game.Event{*end}
	}
	pos := s.Game.Position()
	if announce && pos.Royale() {
		if checked := s.seats(pos.Checked()); len(checked) > 0 {
			return []game.Event{ChecksAnnounced{Seats: checked}}
		}
	}
	return nil
}

// regime lists what the move m from before to after did to kings and colours.
func (s State) regime(before, after *sovereign.Position, m sovereign.Move) []game.Event {
	var out []game.Event
	pl := before.Turn()
	seat := s.seatOf(pl)
	if c, ok := m.Defection(); ok {
		out = append(out, Defected{Seat: seat, From: before.Owned(pl).String(), To: c.String()})
	}
	if k, ok := after.King(pl); ok && m.Promotion() == sovereign.King {
		colour := after.Owned(pl)
		switch _, had := before.King(pl); {
		case !had:
			out = append(out, InterregnumEnded{Seat: seat, Colour: colour.String(), Square: k.String()})
		case colour == before.Owned(pl):
			out = append(out, KingCrowned{Seat: seat, Colour: colour.String(), Square: k.String(), Kind: "coup"})
		default:
			out = append(out, KingCrowned{Seat: seat, Colour: colour.String(), Square: k.String(), Kind: "overthrow"})
		}
	}
	for q := range sovereign.Player(before.Players()) {
		k, had := before.King(q)
		if _, has := after.King(q); q == pl || !had || has {
			continue
		}
		out = append(out,
			KingCaptured{Seat: s.seatOf(q), By: seat, Colour: before.Owned(q).String(), Square: k.String()},
			InterregnumBegun{Seat: s.seatOf(q), Cause: "captured"})
	}
	if k, ok := before.King(pl); ok && m.IsEscape() {
		out = append(out,
			KingEscaped{Seat: seat, Colour: before.Owned(pl).String(), Square: k.String()},
			InterregnumBegun{Seat: seat, Cause: "escaped"})
	}
	return out
}

// outcome is the end of the game in the current position, or nil while it goes on.
func (s State) outcome() *GameEnded {
	pos := s.Game.Position()
	st := pos.Status()
	end := &GameEnded{Reason: st.Result.String(), Winners: []int{}, Standings: make([]string, pos.Players())}
	switch {
	case st.Result == sovereign.LastKingStanding && !st.HasWinner:
		end.Reason = "no king standing"
	case st.Result != sovereign.Ongoing:
	case s.Game.Repetitions() >= 5 && s.Game.AutomaticDraw():
		end.Reason = "fivefold repetition"
	case s.Game.AutomaticDraw():
		end.Reason = "seventy-five-move rule"
	default:
		return nil
	}
	for pl := range sovereign.Player(pos.Players()) {
		seat := s.seatOf(pl)
		standing := sovereign.Tied
		if st.Result != sovereign.Ongoing {
			standing = st.Standings[pl]
		}
		end.Standings[seat] = standing.String()
		if standing == sovereign.Won {
			end.Winners = append(end.Winners, seat)
		}
	}
	return end
}

// seats are the seats of players, in ascending order.
func (s State) seats(players []sovereign.Player) []int {
	out := make([]int, 0, len(players))
	for _, pl := range players {
		out = append(out, s.seatOf(pl))
	}
	slices.Sort(out)
	return out
}
