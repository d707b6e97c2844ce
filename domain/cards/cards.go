// Package cards is the kit that Arbiter's card games share (UnfairChess now, Ajedrez
// Mágico next): the entries of a catalog, a hand as its holder sees it, the action of
// playing a card, and the interfaces through which the API, the bot and the read models
// see a card game without knowing which one it is.
//
// A card game shows its catalog through Carded, and its hands and piles in its view
// (game.Viewed, through View here), where each viewer finds its own hand alone.
package cards

// Card is one entry of a game's catalog, in both of the game's languages.
type Card struct {
	ID      string
	NameFr  string
	NameEn  string
	Group   string // the family the card belongs to, e.g. "statuses"
	Rarity  string // COMMON, RARE or LEGENDARY
	Copies  int    // how many copies each deck holds
	Cost    string // REPLACES_MOVE or ADDS_TO_MOVE
	Targets string // what the card is aimed at, e.g. "own-piece", "own-piece square"
	TextFr  string
	TextEn  string
}

// HandCard is a card in a hand, as its holder sees it.
type HandCard struct {
	Slot     int
	Card     string     // the catalog ID
	Playable bool       // whether it may be played now
	Targets  [][]string // when playable: every legal choice of targets, in square notation; [[]] for a card without targets
	Reason   string     // when not playable: why, for a person to read
}

// SeatCards is what everyone may know of one seat's cards: its hand's size, its deck's
// size, its discard pile (oldest first) and the cards it has played, counted by card.
type SeatCards struct {
	Seat     int
	HandSize int
	DeckSize int
	Discard  []string
	Played   []CardCount // by card ID
}

// CardCount is how many times a card was played.
type CardCount struct {
	Card  string
	Count int
}

// Carded games are played with cards.
type Carded interface {
	// Catalog lists every card of the game, in a stable order.
	Catalog() []Card
}

// View is implemented by the view of a card game (game.View): the hand and piles the API
// has shown since before per-game state types (Match.hand, Match.cards).
type View interface {
	ShownHand() []HandCard   // the viewpoint's own hand (its first seat's), nil for a spectator
	ShownCards() []SeatCards // what everyone may know of each seat's cards, by seat
}

// CardPlay is implemented by the public event that records a card played, so that read
// models can count the cards each player plays (for badges) without knowing the game.
type CardPlay interface {
	CardPlayedBy() (seat int, card string)
}

// PlayCard is the action of playing a card from the seat's hand, named by its catalog ID
// or by its slot (Slot >= 0 wins when both are given), on targets in the game's square
// notation. Move is the normal move of a card that adds to the move, when it is sent in
// the same command. Both card games play a card this way: from the hand, on targets, and
// at most with a move in the same turn (UnfairChess's cards that add to the move, Ajedrez
// Mágico's "during this move").
type PlayCard struct {
	Card    string
	Slot    int // -1 when the card is named by ID
	Targets []string
	Move    string
}

// ActionName implements game.Named.
func (PlayCard) ActionName() string { return "cards" }
