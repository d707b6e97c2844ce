// Package cards is the kit that Arbiter's card games share (UnfairChess now, Ajedrez
// Mágico next): the entries of a catalog, a hand as its holder sees it, the action of
// playing a card, and the interfaces through which the API, the bot and the read models
// see a card game without knowing which one it is (its catalog through Carded, its hands
// and piles in its view, where each viewer finds its own hand alone).
package cards

import (
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Card is one entry of a game's catalog, in the game's languages: English and the game's
// own (French for UnfairChess, Spanish for Ajedrez Mágico; the other stays empty).
type Card struct {
	ID      string
	NameFr  string
	NameEn  string
	NameEs  string
	Group   string // the family the card belongs to, e.g. "statuses"
	Rarity  string // COMMON, RARE or LEGENDARY
	Copies  int    // how many copies each deck holds
	Cost    string // REPLACES_MOVE or ADDS_TO_MOVE
	Targets string // what the card is aimed at, e.g. "own-piece", "own-piece square"
	TextFr  string
	TextEn  string
	TextEs  string
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
// or by its slot (when both are given they must name the same card), on targets in the game's square
// notation. Move is the normal move of a card that adds to the move, when it is sent in
// the same command. Both card games play a card this way: from the hand, on targets, and
// at most with a move in the same turn (UnfairChess's cards that add to the move, Ajedrez
// Mágico's "during this move"). Whether a card may be played out of turn (Ajedrez
// Mágico's reactions, on two boards) is the game's to decide from its state, not a
// different action.
type PlayCard struct {
	Card    string
	Slot    int // -1 when the card is named by ID
	Targets []string
	Move    string
}

// ActionName implements game.Named.
func (PlayCard) ActionName() string { return "cards" }

// SlotIn finds the card p plays in hand, the catalog IDs of a hand by slot ("" for an
// empty slot): at p.Slot when it is given, else the first slot holding p.Card. known
// says whether the game, named gameName, has a card of that ID. A slot out of the hand, a
// card unknown, or a card and a slot that name two different cards is BAD_USER_INPUT
// (a client that names both means both: playing the slot's card instead would play a card
// it did not name); an empty slot or a card not in the hand ILLEGAL_MOVE.
func (p PlayCard) SlotIn(hand []string, gameName string, known func(id string) bool) (int, error) {
	switch {
	case p.Slot >= len(hand):
		return -1, game.Reject(game.BadInput, "a hand has slots 0 to %d, not %d", len(hand)-1, p.Slot)
	case p.Card != "" && !known(p.Card):
		return -1, game.Reject(game.BadInput, "%s has no card %q", gameName, p.Card)
	case p.Slot >= 0 && hand[p.Slot] == "":
		return -1, game.Reject(game.IllegalMove, "slot %d of your hand is empty", p.Slot)
	case p.Slot >= 0 && p.Card != "" && hand[p.Slot] != p.Card:
		return -1, game.Reject(game.BadInput, "slot %d of your hand holds %s, not %s: name one card (its ID, its slot, or both alike)", p.Slot, hand[p.Slot], p.Card)
	case p.Slot >= 0:
		return p.Slot, nil
	case p.Card == "":
		return -1, game.Reject(game.BadInput, "name the card by its ID or by its slot")
	}
	slot := slices.Index(hand, p.Card)
	if slot < 0 {
		return -1, game.Reject(game.IllegalMove, "%s is not in your hand", p.Card)
	}
	return slot, nil
}

// Hand is a hand as its holder sees it: slots lists the catalog IDs by slot ("" for an
// empty slot); closed says why no card may be played now ("" when one may); options
// gives, for the card in a slot, every legal choice of targets, or why there is none.
func Hand(slots []string, closed string, options func(slot int) (targets [][]string, why string)) []HandCard {
	var out []HandCard // nil for an empty hand
	for slot, c := range slots {
		if c == "" {
			continue
		}
		hc := HandCard{Slot: slot, Card: c, Reason: closed}
		if closed == "" {
			hc.Targets, hc.Reason = options(slot)
			if hc.Playable = len(hc.Targets) > 0; hc.Playable {
				hc.Reason = ""
			}
		}
		out = append(out, hc)
	}
	return out
}
