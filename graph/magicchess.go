package graph

import (
	"strings"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/games/magicchess"
	"github.com/arbiter-games/arbiter/graph/model"
)

// Ajedrez Mágico's part of the API that is not a resolver (those are in
// magicchess.resolvers.go, generated from its schema file): its card type.

func init() { cardTypes[string(model.GameMagicChess)] = magicChessCard }

// magicChessCard shows a card of Ajedrez Mágico's catalog as its schema's MagicChessCard,
// with what the kit's card does not carry (window, duration, reaction) from the catalog.
func magicChessCard(k cards.Card) model.Card {
	e, _ := magicchess.Lookup(k.ID)
	c := &model.MagicChessCard{
		ID: k.ID, NameEs: k.NameEs, NameEn: k.NameEn, TextEs: k.TextEs, TextEn: k.TextEn, Copies: 1,
		Group: k.Group, Window: model.CardWindow(strings.ToUpper(e.Window)), Duration: e.Duration,
		Targets: k.Targets, Implemented: magicchess.Implemented(k.ID), Rarity: model.RarityCommon, Cost: model.CardCostAddsToMove,
	}
	if e.Window == magicchess.Before {
		c.Cost = model.CardCostReplacesMove
	}
	if e.Reaction != "" {
		c.Reaction = &e.Reaction
	}
	return c
}

// magicCatalog is Ajedrez Mágico's catalog as API models.
func (r *Resolver) magicCatalog() (*catalog, error) {
	rules, err := r.Engine.Games().Get(string(model.GameMagicChess))
	if err != nil {
		return nil, err
	}
	return catalogOf(rules), nil
}
