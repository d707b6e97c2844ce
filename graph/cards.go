package graph

import (
	"sync"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/graph/model"
)

// catalogs caches each card game's catalog as API models, by game ID: a catalog is fixed
// for the life of the process, and hands and piles name cards by ID.
var catalogs sync.Map // game ID -> *catalog

type catalog struct {
	list []model.Card
	byID map[string]model.Card
	of   func(cards.Card) model.Card // the game's own card type
}

// cardTypes holds, by game ID, how each card game shows a card of its catalog: as its own
// type that implements the schema's Card. A card game's graph file registers its own.
var cardTypes = map[string]func(cards.Card) model.Card{}

// catalogOf returns a game's catalog, or nil for a game without cards.
func catalogOf(rules game.Rules) *catalog {
	id := rules.Info().ID
	if c, ok := catalogs.Load(id); ok {
		return c.(*catalog)
	}
	carded, ok := rules.(cards.Carded)
	of, typed := cardTypes[id]
	if !ok || !typed {
		return nil
	}
	c := &catalog{byID: map[string]model.Card{}, of: of}
	for _, k := range carded.Catalog() {
		m := of(k)
		c.list = append(c.list, m)
		c.byID[k.ID] = m
	}
	actual, _ := catalogs.LoadOrStore(id, c)
	return actual.(*catalog)
}

// card returns a card's model; a card the catalog does not know (a catalog that changed
// under an old match) is shown by its ID alone.
func (c *catalog) card(id string) model.Card {
	if m, ok := c.byID[id]; ok {
		return m
	}
	return c.of(cards.Card{ID: id, NameFr: id, NameEn: id})
}

func (c *catalog) cards(ids []string) []model.Card {
	out := make([]model.Card, len(ids))
	for i, id := range ids {
		out[i] = c.card(id)
	}
	return out
}

// handModel turns a hand, already cleared for the viewer, into the API's cards.
func handModel(c *catalog, hand []cards.HandCard) []*model.HandCard {
	out := make([]*model.HandCard, len(hand))
	for i, h := range hand {
		hc := &model.HandCard{Slot: h.Slot, Card: c.card(h.Card), Playable: h.Playable, Targets: [][]string{}}
		for _, t := range h.Targets {
			hc.Targets = append(hc.Targets, append([]string{}, t...))
		}
		if h.Reason != "" {
			reason := h.Reason
			hc.Reason = &reason
		}
		out[i] = hc
	}
	return out
}

// seatCardsModel is what everyone may know of one seat's cards.
func seatCardsModel(c *catalog, sc cards.SeatCards) *model.SeatCards {
	m := &model.SeatCards{
		Seat: sc.Seat, HandSize: sc.HandSize, DeckSize: sc.DeckSize,
		DiscardPile: c.cards(sc.Discard), Played: []*model.CardCount{},
	}
	for _, p := range sc.Played {
		m.Played = append(m.Played, &model.CardCount{Card: c.card(p.Card), Count: p.Count})
	}
	return m
}

// seatOrNil shows a seat, -1 for none, as the API's nullable Int.
func seatOrNil(s int) *int {
	if s < 0 {
		return nil
	}
	return &s
}

// textOrNil shows a text, "" for none, as the API's nullable String.
func textOrNil(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// shownHand is a card game's hand field: the viewer's hand (nil for a spectator's view,
// which holds none) as the API's cards, from the game's catalog (c, or err reading it).
func shownHand(c *catalog, err error, hand []cards.HandCard) ([]*model.HandCard, error) {
	if hand == nil || err != nil {
		return nil, err
	}
	return handModel(c, hand), nil
}

// shownSeats is a card game's seats field: what everyone may know of each seat's cards.
func shownSeats(c *catalog, err error, seats []cards.SeatCards) ([]*model.SeatCards, error) {
	if err != nil {
		return nil, err
	}
	out := make([]*model.SeatCards, len(seats))
	for i, sc := range seats {
		out[i] = seatCardsModel(c, sc)
	}
	return out, nil
}
