package graph

import (
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/graph/model"
)

// UnfairChess's part of the API that is not a resolver (those are in
// unfairchess.resolvers.go, generated from its schema file): its card type.

func init() { cardTypes[string(model.GameUnfairChess)] = unfairChessCard }

// unfairChessCard shows a card of UnfairChess's catalog as its schema's UnfairChessCard.
func unfairChessCard(k cards.Card) model.Card {
	return &model.UnfairChessCard{
		ID: k.ID, NameFr: k.NameFr, NameEn: k.NameEn, Group: k.Group,
		Rarity: model.Rarity(k.Rarity), Copies: k.Copies, Cost: model.CardCost(k.Cost),
		Targets: k.Targets, TextFr: k.TextFr, TextEn: k.TextEn,
	}
}

// unfairCatalog is UnfairChess's catalog as API models.
func (r *Resolver) unfairCatalog() (*catalog, error) {
	rules, err := r.Engine.Games().Get(string(model.GameUnfairChess))
	if err != nil {
		return nil, err
	}
	return catalogOf(rules), nil
}
