package graph

import (
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/games/classic"
	"github.com/arbiter-games/arbiter/graph/model"
)

// Classic chess's part of the API that is not a resolver: its state type.

func init() { stateTypes[string(model.GameChess)] = chessState }

// chessState shows classic chess's view as its schema's ChessState.
func chessState(gv game.View, _ *catalog) (model.GameState, error) {
	v, err := viewAs[*classic.View](gv)
	if err != nil {
		return nil, err
	}
	b := boardModel(v.Board)
	return &model.ChessState{Fen: b.Fen, InCheck: b.InCheck, LegalMoves: b.LegalMoves, Moves: append([]string{}, v.Moves...)}, nil
}
