package graph

import (
	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/unfair"
	"github.com/arbiter-games/arbiter/graph/model"
)

// UnfairChess's part of the API that is not a resolver (those are in
// unfairchess.resolvers.go, generated from its schema file): its state and card types.

func init() {
	stateTypes[string(model.GameUnfairChess)] = unfairChessState
	cardTypes[string(model.GameUnfairChess)] = unfairChessCard
}

// unfairChessState shows UnfairChess's view as its schema's UnfairChessState: the view
// holds the caller's own hand alone (nil for a spectator), as projections decided.
func unfairChessState(gv game.View, c *catalog) (model.GameState, error) {
	v, err := viewAs[*unfair.View](gv)
	if err != nil {
		return nil, err
	}
	b := boardModel(v.Board)
	s := &model.UnfairChessState{
		Board: &model.UnfairChessBoard{Fen: b.Fen, InCheck: b.InCheck, LegalMoves: b.LegalMoves, Marks: b.Marks},
		Moves: append([]string{}, v.Moves...), Seats: []*model.SeatCards{},
	}
	if v.Hand != nil {
		s.Hand = handModel(c, v.Hand)
	}
	for _, sc := range v.Cards {
		s.Seats = append(s.Seats, seatCardsModel(c, sc))
	}
	return s, nil
}

// unfairChessCard shows a card of UnfairChess's catalog as its schema's UnfairChessCard.
func unfairChessCard(k cards.Card) model.Card {
	return &model.UnfairChessCard{
		ID: k.ID, NameFr: k.NameFr, NameEn: k.NameEn, Group: k.Group,
		Rarity: model.Rarity(k.Rarity), Copies: k.Copies, Cost: model.CardCost(k.Cost),
		Targets: k.Targets, TextFr: k.TextFr, TextEn: k.TextEn,
	}
}
