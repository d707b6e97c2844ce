package magicchess

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// The events and actions doubles adds. The board's own events (MovePlayed, CardPlayed,
// CardAnnulled) carry their board and the table's seat; a move that captures names the
// piece it passes to the partner's pocket (Passes).

// CardDrawn is a seat drawing the top card of the table's deck (Card: its seat alone
// sees it; the others see that it drew, Shadow). A player draws when it has laid the
// last card of its hand: the rules keep one deck for the table and shuffle the discard
// when it runs out (rule 12), but name no draw; this is the one the server makes.
type CardDrawn struct {
	Seat int    `json:"seat"`
	Card string `json:"card,omitempty"`
}

// Shadow is the draw as the other seats see it.
func (e CardDrawn) Shadow() game.Event { e.Card = ""; return e }

// DeckReshuffled is the table's discard shuffled into a new deck, top first, when a seat
// must draw from an empty deck (rule 12): server-only. Count numbers the reshuffles from
// 1; the order is drawn from DeckShuffled's key under the label of Count.
type DeckReshuffled struct {
	Count int      `json:"count"`
	Cards []string `json:"cards"`
}

// Signalled is a seat's signal to its partner on the team channel: its team alone sees
// it. From magic-2026.4 on it is covert (Hidden, game.Covert): stored in its team's hidden
// stream, so that the other team and the spectators cannot even count the signals nor
// tell when one was sent. Before, it was stored in the match's stream, redacted: the
// others saw that an event happened there, and when.
type Signalled struct {
	Seat   int    `json:"seat"`
	Signal string `json:"signal"`
	Hidden bool   `json:"hidden,omitempty"`
}

// Covert implements game.Covert: a signal of magic-2026.4 on.
func (e Signalled) Covert() bool { return e.Hidden }

// Conceded is a seat's resignation carried out at the table (game.Withdrawing, from
// magic-2026.4 on): its team loses the match, which ends on both boards, as a flag that
// falls on either board ends it. The match records Resigned just before it.
type Conceded struct {
	Seat int `json:"seat"`
}

func (CardDrawn) EventType() string      { return "CardDrawn" }
func (DeckReshuffled) EventType() string { return "DeckReshuffled" }
func (Signalled) EventType() string      { return "Signalled" }
func (Conceded) EventType() string       { return "Conceded" }

// doublesSight is who may see doubles' own events; ok is false for the others.
func doublesSight(e game.Event) (visibility.Visibility, bool) {
	switch e := e.(type) {
	case CardDrawn:
		return visibility.Seat(e.Seat), true
	case DeckReshuffled:
		return visibility.Server, true
	case Signalled:
		return visibility.Team(teamOf(e.Seat)), true
	}
	return visibility.Public, false
}

func init() {
	game.Register[CardDrawn](codec, 1)
	game.Register[DeckReshuffled](codec, 1)
	game.Register[Signalled](codec, 1)
	game.Register[Conceded](codec, 1)
}

// The signals of the team channel (rule 12: "comunicación mínima solo para efectos de
// cartas"): a fixed set about one's own cards, none about moves, no free text.
var Signals = []string{
	"save-ready", // I hold a mate save
	"no-save",    // I hold no mate save
	"card-next",  // I will lay a card on my next turn
	"hand-low",   // I hold two cards or fewer
	"hand-empty", // I hold no card
}

// SendSignal is a seat sending a signal of Signals to its partner (the API's signal).
type SendSignal struct {
	Signal string
}

// ActionName implements game.Named.
func (SendSignal) ActionName() string { return "team signals (doubles only)" }

// Aside implements game.Aside: a signal is never a turn, and any player of the table
// may send one at any time, in its turn or not.
func (SendSignal) Aside() {}

// OnBoard is an action that names its board (the API's board argument): in doubles the
// board must be the seat's own; on one board, board 0.
type OnBoard struct {
	Board int
	Do    any
}

// ActionName implements game.Named.
func (OnBoard) ActionName() string { return "boards to choose" }

// knownSignal reports whether s is a signal of the channel.
func knownSignal(s string) bool { return slices.Contains(Signals, s) }
