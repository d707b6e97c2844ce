package magicchess

import (
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// The events of Ajedrez Mágico. GameStarted opens the planning phase; DeckShuffled (the
// server's alone) and CardsDealt (each seat's own) deal the table's deck; PlanningDone and
// PlanningEnded close the planning; MovePlayed and CardPlayed are the actions of play,
// each carrying the cards that expired when it closed its player's turn; CardAnnulled
// records a card whose resolution would loop without end (rule 8, "sin bucles"). With a
// clock, an action that ends its turn carries the clock's stamp, as in UnfairChess.

// GameStarted sets up the board, the hands' size and the planning phase: nobody moves
// until PlanEnds, or until both seats end it early.
type GameStarted struct {
	FEN      string       `json:"fen"`
	Mode     string       `json:"mode"`
	HandSize int          `json:"handSize"`
	DeckSize int          `json:"deckSize"` // the table's deck before the deal
	PlanEnds time.Time    `json:"planEnds"`
	Clock    *clock.Setup `json:"clock,omitempty"`
	Boards   int          `json:"boards,omitempty"` // 2 in doubles (doubles.go), else 0
	// ReactionMs is, in the advanced mode, the length of a reaction window.
	ReactionMs int64 `json:"reactionMs,omitempty"`
}

// DeckShuffled is the table's deck in the order the seed shuffled it, top first:
// server-only (anyone may check it against the seed revealed at the end).
type DeckShuffled struct {
	Cards []string `json:"cards"`
	Key   string   `json:"key,omitempty"` // doubles: the key of the reshuffles (reshuffleKey)
	// Fairness is the procedure the reshuffles draw by (fairness.Version), in doubles
	// under V1; absent (Legacy) in matches recorded before it.
	Fairness int `json:"fairness,omitempty"`
}

// CardsDealt is a seat's hand as the deal gave it, by slot. Only that seat sees the
// cards; the others see how many (Shadow).
type CardsDealt struct {
	Seat  int      `json:"seat"`
	Count int      `json:"count"`
	Cards []string `json:"cards,omitempty"`
}

// Shadow is the deal as the other seats see it.
func (e CardsDealt) Shadow() game.Event { e.Cards = nil; return e }

// PlanningDone is a seat ending its planning early.
type PlanningDone struct {
	Seat int `json:"seat"`
}

// PlanningEnded closes the planning phase: at its deadline ("time") or when both seats
// ended it ("ready"). White's clock starts At.
type PlanningEnded struct {
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
}

// MovePlayed is one move. Expired lists the lasting cards of the mover that ran out as
// the move closed its turn.
type MovePlayed struct {
	Seat    int      `json:"seat"`
	Board   int      `json:"board,omitempty"`  // doubles: the board, 0 or 1
	Passes  string   `json:"passes,omitempty"` // doubles: the piece captured, to the partner's pocket
	UCI     string   `json:"uci"`
	SAN     string   `json:"san"`
	FEN     string   `json:"fen"`
	Expired []string `json:"expired,omitempty"`
	clock.Stamp
}

// CardPlayed is a card laid from a hand slot on its targets: Result says what became of
// it ("resolved", "lasting": it stays face up, "pending": a move follows, "no-effect":
// nothing was left to act on, "annulled": see CardAnnulled). Expired is as MovePlayed's,
// when the card is the turn.
type CardPlayed struct {
	Seat    int      `json:"seat"`
	Board   int      `json:"board,omitempty"` // doubles: the board, 0 or 1
	Card    string   `json:"card"`
	Slot    int      `json:"slot"`
	Targets []string `json:"targets"`
	Result  string   `json:"result"`
	FEN     string   `json:"fen"`
	Expired []string `json:"expired,omitempty"`
	clock.Stamp
}

// CardPlayedBy implements cards.CardPlay, so read models can count the cards played.
func (e CardPlayed) CardPlayedBy() (int, string) { return e.Seat, e.Card }

// Stamped is the card with the clock's stamp (cardchess.Stamper).
func (e CardPlayed) Stamped(st clock.Stamp) game.Event { e.Stamp = st; return e }

// Stamped is the move with the clock's stamp (cardchess.Stamper).
func (e MovePlayed) Stamped(st clock.Stamp) game.Event { e.Stamp = st; return e }

// CardAnnulled is the last card laid, annulled because its resolution would repeat
// without end or give a position that cannot be evaluated: it is discarded, the position
// before it (FEN) stands, and its player still has the turn.
type CardAnnulled struct {
	Seat   int    `json:"seat"`
	Board  int    `json:"board,omitempty"` // doubles: the board, 0 or 1
	Card   string `json:"card"`
	Reason string `json:"reason"`
	FEN    string `json:"fen"`
}

// The card results of CardPlayed.
const (
	Resolved = "resolved"
	Lasts    = "lasting"
	Pending  = "pending"
	NoEffect = "no-effect"
	Annulled = "annulled"
)

func (GameStarted) EventType() string   { return "GameStarted" }
func (DeckShuffled) EventType() string  { return "DeckShuffled" }
func (CardsDealt) EventType() string    { return "CardsDealt" }
func (PlanningDone) EventType() string  { return "PlanningDone" }
func (PlanningEnded) EventType() string { return "PlanningEnded" }
func (MovePlayed) EventType() string    { return "MovePlayed" }
func (CardPlayed) EventType() string    { return "CardPlayed" }
func (CardAnnulled) EventType() string  { return "CardAnnulled" }

// Sight says who may see each event: the deck is the server's, a deal its seat's, and
// the rest public.
func (Rules) Sight(e game.Event) visibility.Visibility {
	if v, ok := doublesSight(e); ok {
		return v
	}
	switch e := e.(type) {
	case DeckShuffled:
		return visibility.Server
	case CardsDealt:
		return visibility.Seat(e.Seat)
	}
	return visibility.Public
}

var codec = func() *game.Codec {
	c := game.NewCodec()
	game.Register[GameStarted](c, 1)
	game.Register[DeckShuffled](c, 1)
	game.Register[CardsDealt](c, 1)
	game.Register[PlanningDone](c, 1)
	game.Register[PlanningEnded](c, 1)
	game.Register[MovePlayed](c, 1)
	game.Register[CardPlayed](c, 1)
	game.Register[CardAnnulled](c, 1)
	game.Register[clock.FlagFell](c, 1)
	game.Register[ReactionWindowOpened](c, 1)
	game.Register[ReactionReadingEnded](c, 1)
	game.Register[ReactionPassed](c, 1)
	game.Register[ReactionPlayed](c, 1)
	game.Register[CardResolved](c, 1)
	return c
}()

var (
	_ game.Shadowed  = CardsDealt{}
	_ cards.CardPlay = CardPlayed{}
	_ cards.CardPlay = ReactionPlayed{}
)
