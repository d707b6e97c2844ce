package unfair

import (
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// The events of UnfairChess. MovePlayed and CardPlayed are actions; the events that follow
// one of them in the same command are the facts it set off (draws, discards, statuses,
// suspended restrictions), which the rules derive from it: see Evolve and Audit. With a
// clock, each action records when it was played and, on the action that ends its seat's
// turn, what the seat had left (clock.Stamp); a seat whose time ran out is recorded as
// clock.FlagFell, and loses.

// GameStarted sets up the board and says what everyone may know of the cards.
type GameStarted struct {
	FEN      string       `json:"fen"`
	HandSize int          `json:"handSize"`
	DeckSize int          `json:"deckSize"`
	Clock    *clock.Setup `json:"clock,omitempty"` // the time control, if any
	At       time.Time    `json:"at,omitzero"`     // with a clock: when White's clock starts
}

// DeckShuffled is a seat's deck in the order it will be drawn, top first, as the match's
// seed shuffled it: server-only (anyone may check it against the seed revealed at the end).
type DeckShuffled struct {
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// CardDrawn is the top card of a seat's deck filling a slot of its hand. Only that seat
// sees the card; the others see the draw without it (Shadow).
type CardDrawn struct {
	Seat int    `json:"seat"`
	Slot int    `json:"slot"`
	Card string `json:"card,omitempty"`
}

// Sight says who may see each event, the one rule of secrecy in UnfairChess: the deal is
// the server's alone, a draw and a look at hidden cards are their seat's, and everything
// else is public. Decide emits every event with it and the verifier checks stored events
// against it.
func (Rules) Sight(e game.Event) visibility.Visibility {
	switch e := e.(type) {
	case DeckShuffled:
		return visibility.Server
	case CardDrawn:
		return visibility.Seat(e.Seat)
	case CardsRevealed:
		return visibility.Seat(e.Seat)
	}
	return visibility.Public
}

// Shadow is the draw as the other seats see it.
func (e CardDrawn) Shadow() game.Event { e.Card = ""; return e }

// MovePlayed is one move: a normal move, or one owed by a card that adds to the move.
type MovePlayed struct {
	Seat  int    `json:"seat"`
	UCI   string `json:"uci"`
	SAN   string `json:"san"`
	Piece int    `json:"piece"` // the stable ID of the moving piece
	FEN   string `json:"fen"`   // the position after the move and all it set off
	clock.Stamp
}

// CardPlayed is a card played from a hand slot on its targets.
type CardPlayed struct {
	Seat    int      `json:"seat"`
	Card    string   `json:"card"`
	Slot    int      `json:"slot"`
	Targets []string `json:"targets"`
	FEN     string   `json:"fen"` // the position after the card and all it set off
	clock.Stamp
}

// CardPlayedBy implements cards.CardPlay, so read models can count the cards played.
func (e CardPlayed) CardPlayedBy() (int, string) { return e.Seat, e.Card }

// Stamped is the card with the clock's stamp (cardchess.Stamper).
func (e CardPlayed) Stamped(st clock.Stamp) game.Event { e.Stamp = st; return e }

// Stamped is the move with the clock's stamp (cardchess.Stamper).
func (e MovePlayed) Stamped(st clock.Stamp) game.Event { e.Stamp = st; return e }

// CardDiscarded is a card going to its seat's discard pile, face up, without being played:
// from a hand slot, or from the top of the deck (Slot -1). Reason is the card that did it.
type CardDiscarded struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card"`
	Slot   int    `json:"slot"`
	Reason string `json:"reason"`
}

// CardsRevealed shows one seat cards it could not see: the next cards of its deck (From
// "deck", top first) or the opponent's hand (From "hand", by slot, "" for an empty slot).
// Only Seat sees them; the others learn that it looked (Shadow).
type CardsRevealed struct {
	Seat  int      `json:"seat"`
	Of    int      `json:"of"`
	From  string   `json:"from"`
	Cards []string `json:"cards,omitempty"`
}

// Shadow is the look as the other seats see it.
func (e CardsRevealed) Shadow() game.Event { e.Cards = nil; return e }

// Removed is a piece that left the board as a status went off.
type Removed struct {
	Piece  int    `json:"piece"`
	Square string `json:"square"`
	Role   string `json:"role"` // its FEN letter: "N" a white knight, "p" a black pawn
}

// StatusApplied is a status put on a piece by seat Seat's card.
type StatusApplied struct {
	Seat   int    `json:"seat"`
	Piece  int    `json:"piece"`
	Square string `json:"square"`
	Status string `json:"status"`
}

// StatusTriggered is a status going off: poison killing the capturer, dynamite exploding.
// The piece is the one that carried it; Removed lists the pieces that left the board.
type StatusTriggered struct {
	Piece   int       `json:"piece"`
	Square  string    `json:"square"`
	Status  string    `json:"status"`
	Removed []Removed `json:"removed"`
}

// StatusEnded is a status that ends without going off: "woke" (a king was put in check),
// "expired" (a shield after the opponent's turn), "antidote".
type StatusEnded struct {
	Piece  int    `json:"piece"`
	Square string `json:"square"`
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// RestrictionsSuspended says that the restrictions on seat Seat (sleep, shields, barred
// squares, shackles, frost, truce) would leave it no legal move: it plays this turn
// without them.
type RestrictionsSuspended struct {
	Seat int `json:"seat"`
}

func (GameStarted) EventType() string           { return "GameStarted" }
func (DeckShuffled) EventType() string          { return "DeckShuffled" }
func (CardDrawn) EventType() string             { return "CardDrawn" }
func (MovePlayed) EventType() string            { return "MovePlayed" }
func (CardPlayed) EventType() string            { return "CardPlayed" }
func (CardDiscarded) EventType() string         { return "CardDiscarded" }
func (CardsRevealed) EventType() string         { return "CardsRevealed" }
func (StatusApplied) EventType() string         { return "StatusApplied" }
func (StatusTriggered) EventType() string       { return "StatusTriggered" }
func (StatusEnded) EventType() string           { return "StatusEnded" }
func (RestrictionsSuspended) EventType() string { return "RestrictionsSuspended" }

var codec = func() *game.Codec {
	c := game.NewCodec()
	game.Register[GameStarted](c, 1)
	game.Register[DeckShuffled](c, 1)
	game.Register[CardDrawn](c, 1)
	game.Register[MovePlayed](c, 1)
	game.Register[CardPlayed](c, 1)
	game.Register[CardDiscarded](c, 1)
	game.Register[CardsRevealed](c, 1)
	game.Register[StatusApplied](c, 1)
	game.Register[StatusTriggered](c, 1)
	game.Register[StatusEnded](c, 1)
	game.Register[RestrictionsSuspended](c, 1)
	game.Register[clock.FlagFell](c, 1)
	return c
}()

var (
	_ game.Shadowed  = CardDrawn{}
	_ game.Shadowed  = CardsRevealed{}
	_ cards.CardPlay = CardPlayed{}
)
