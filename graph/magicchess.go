package graph

import (
	"strings"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
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

// onBoard is an action with the board a player named (the board argument of playMove and
// playCard): as given without one, else magicchess.OnBoard, which Ajedrez Mágico checks
// against the seat's board and every other game refuses as an action it does not take.
func onBoard(board *int, do any) any {
	if board == nil {
		return do
	}
	return magicchess.OnBoard{Board: *board, Do: do}
}

// dropMove is dropPiece's action: the drop in the notation of moves ("N@f3").
func dropMove(piece, square string, board *int) (any, error) {
	p := strings.ToUpper(piece)
	if len(p) != 1 || !strings.Contains("PNBRQ", p) {
		return nil, game.Reject(game.BadInput, "piece %q: P, N, B, R or Q", piece)
	}
	if _, ok := chess.ParseSquare(square); !ok {
		return nil, game.Reject(game.BadInput, "square %q: a square such as e4", square)
	}
	return onBoard(board, game.Move{Notation: p + "@" + square}), nil
}

// tableBoards are the boards of a doubles view, for the API.
func tableBoards(v *magicchess.View) []*magicchess.TableBoard {
	out := make([]*magicchess.TableBoard, len(v.Boards))
	for i := range v.Boards {
		out[i] = &v.Boards[i]
	}
	return out
}

// boardClock is a doubles board's clock, its two seats numbered as the match numbers them.
func boardClock(b *magicchess.TableBoard) *model.Clock {
	if b.Clock == nil {
		return nil
	}
	r := *b.Clock
	c := clockModel(clock.Reading{Control: r.Control, Left: r.Left, Running: -1})
	for i, sc := range c.Seats {
		sc.Seat = b.Seats[i]
	}
	if r.Running >= 0 {
		running, since := b.Seats[r.Running], r.Since
		c.Running, c.Since = &running, &since
	}
	return c
}
