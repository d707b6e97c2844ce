package game

// Card games (UnfairChess, Ajedrez Mágico) show their catalog, hands, piles and decks
// through Carded. The full truth is returned here; what a viewer may see of it is decided
// by the projections' redaction, never by the game.

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
	Hand(st State, seat int) []HandCard
	// HandSize is how many cards a seat holds: what everyone may know of a hand.
	HandSize(st State, seat int) int
	// DeckSize is how many cards are left in a seat's deck.
	DeckSize(st State, seat int) int
	// Discard is a seat's discard pile, oldest first: public.
	Discard(st State, seat int) []string
	// Played counts the cards each seat has played, by card ID.
	Played(st State, seat int) map[string]int
}

// CardPlay is implemented by the public event that records a card played, so that read
// models can count the cards each player plays (for badges) without knowing the game.
type CardPlay interface {
	CardPlayedBy() (seat int, card string)
}
