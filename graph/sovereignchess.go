package graph

import (
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/sovereignchess"
	"github.com/arbiter-games/arbiter/graph/model"
)

// Sovereign Chess's part of the API that is not a resolver (those are in
// sovereignchess.resolvers.go, generated from its schema file): its state type.

func init() { stateTypes[string(model.GameSovereignChess)] = sovereignChessState }

// sovereignChessState shows Sovereign Chess's view as its schema's SovereignChessState.
func sovereignChessState(gv game.View, _ *catalog) (model.GameState, error) {
	v, err := viewAs[*sovereignchess.View](gv)
	if err != nil {
		return nil, err
	}
	b := boardModel(v.Board)
	return &model.SovereignChessState{
		Board: &model.SovereignChessBoard{
			Fen: b.Fen, LegalMoves: b.LegalMoves, Checked: b.Checked, Interregnum: b.Interregnum,
			Colours: b.Colours, Armies: b.Armies, Sides: b.Sides, Marks: b.Marks,
		},
		Moves: append([]string{}, v.Moves...),
	}, nil
}
