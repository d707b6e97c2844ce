package graph

import (
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/graph/model"
)

// UnfairChess's part of the API that is not a resolver (those are in
// unfairchess.resolvers.go, generated from its schema file).

func init() { cardTypes[string(model.GameUnfairChess)] = unfairChessCard }

// unfairChessCard shows a card of UnfairChess's catalog as its schema's UnfairChessCard.
func unfairChessCard(k cards.Card) model.Card {
	return &model.UnfairChessCard{
		ID: k.ID, NameFr: k.NameFr, NameEn: k.NameEn, Group: k.Group,
		Rarity: model.Rarity(k.Rarity), Copies: k.Copies, Cost: model.CardCost(k.Cost),
		Targets: k.Targets, TextFr: k.TextFr, TextEn: k.TextEn,
	}
}
