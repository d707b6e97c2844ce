package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/domain/chess"
)

func init() {
	register("perft", "count move-generation leaf nodes from a position (last line: the count)", runPerft)
}

// runPerft is `arbiter perft --fen FEN --depth N [--divide] [--game chess]`. With
// --divide it prints one "move: nodes" line per root move first; the last line is
// always the total, so scripts can read it with tail -1.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", chess.StartFEN, "position in FEN (the clock fields may be left out)")
	depth := fs.Int("depth", 1, "plies to count, 1 or more")
	divide := fs.Bool("divide", false, "print the count below each root move first")
	game := fs.String("game", "chess", "rules to count with (only chess for now)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *game != "chess" {
		return fmt.Errorf("unknown game %q (want chess)", *game)
	}
	if *depth < 1 {
		return fmt.Errorf("--depth must be 1 or more, got %d", *depth)
	}
	pos, err := chess.ParseFEN(*fen)
	if err != nil {
		return err
	}
	if !*divide {
		_, err := fmt.Fprintln(stdout, chess.Perft(pos, *depth))
		return err
	}
	var total uint64
	for _, e := range chess.Divide(pos, *depth) {
		if err := ctx.Err(); err != nil {
			return err
		}
		total += e.Nodes
		fmt.Fprintf(stdout, "%s: %d\n", e.Move.UCI(), e.Nodes)
	}
	_, err = fmt.Fprintln(stdout, total)
	return err
}
