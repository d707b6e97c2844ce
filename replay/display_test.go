package replay

import (
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
)

// drawn is a game that draws its own board.
type drawn struct{ game.Rules }

func (drawn) Diagram(game.State) string { return "my board\n" }

// boarded is a game that shows only a FEN.
type boarded struct {
	game.Rules
	fen string
}

func (b boarded) Board(game.State) game.Board { return game.Board{FEN: b.fen} }

func TestSnapshotDiagram(t *testing.T) {
	at := func(rules game.Rules) Snapshot {
		return Snapshot{Rules: rules, State: match.State{GameState: struct{}{}}}
	}
	chess := at(boarded{fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"}).Diagram()
	if !strings.HasPrefix(chess, " 8  r n b q k b n r\n 7  p p p p p p p p\n") ||
		!strings.Contains(chess, "\n 4  . . . . P . . .\n") || !strings.HasSuffix(chess, " 1  R N B Q K B N R\n\n    a b c d e f g h\n") {
		t.Errorf("a chess FEN:\n%s", chess)
	}
	if got := at(drawn{}).Diagram(); got != "my board\n" {
		t.Errorf("a game that draws itself: %q", got)
	}
	for _, fen := range []string{
		"16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/8wk7 1 w b - 0", // not eight ranks
		"8/8/8/8/8/8/8/wk7 1 w b - 0",                                 // a two-letter piece
		"8/8/8/8/8/8/8/9 w - - 0 1",                                   // nine files
		"",
	} {
		if got := at(boarded{fen: fen}).Diagram(); got != "" {
			t.Errorf("%q is not a chess board, yet drawn:\n%s", fen, got)
		}
	}
	if got := (Snapshot{Rules: drawn{}}).Diagram(); got != "" {
		t.Errorf("before play starts: %q", got)
	}
}
