// Package cards is the kit that Arbiter's card games share (UnfairChess now, Ajedrez
// Mágico next): the entries of a catalog, a hand as its holder sees it, the action of
// playing a card, and the interfaces through which the API, the bot and the read models
// see a card game without knowing which one it is.
//
// A card game shows its catalog, hands, piles and decks through Carded. The full truth is
// returned there; what a viewer may see of it is decided by the projections' redaction,
// never by the game.
package cards

import "github.com/arbiter-games/arbiter/domain/game"

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

// Carded games are played with cards.
type Carded interface {
	// Catalog lists every card of the game, in a stable order.
	Catalog() []Card
	// Hand is a seat's hand with what may be played now.
	Hand(st game.State, seat int) []HandCard
	// HandSize is how many cards a seat holds: what everyone may know of a hand.
	HandSize(st game.State, seat int) int
	// DeckSize is how many cards are left in a seat's deck.
	DeckSize(st game.State, seat int) int
	// Discard is a seat's discard pile, oldest first: public.
	Discard(st game.State, seat int) []string
	// Played counts the cards each seat has played, by card ID.
	Played(st game.State, seat int) map[string]int
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
