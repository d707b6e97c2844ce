package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

func init() {
	register("perft", "count move-generation leaf nodes from a position (last line: the count)", runPerft)
}

// runPerft is `arbiter perft --fen FEN --depth N [--divide] [--game chess|sovereign]`. With
// --divide it prints one "move: nodes" line per root move first; the last line is
// always the total, so scripts can read it with tail -1.
func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fen := fs.String("fen", chess.StartFEN, "position in FEN (the clock fields may be left out)")
	depth := fs.Int("depth", 1, "plies to count, 1 or more")
	divide := fs.Bool("divide", false, "print the count below each root move first")
	game := fs.String("game", "chess", "rules to count with: chess, or sovereign (--fen then takes the Sovereign notation, default its start position)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if *game != "chess" && *game != "sovereign" {
		return fmt.Errorf("unknown game %q (want chess or sovereign)", *game)
	}
	if *depth < 1 {
		return fmt.Errorf("--depth must be 1 or more, got %d", *depth)
	}
	if *game == "sovereign" {
		notation := sovereign.StartNotation
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "fen" {
				notation = *fen
			}
		})
		return perftSovereign(ctx, notation, *depth, *divide, stdout)
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

// perftSovereign is runPerft for --game sovereign, with the same output: divide lines
// ("move: nodes", in the Sovereign move notation) and the total last.
func perftSovereign(ctx context.Context, notation string, depth int, divide bool, stdout io.Writer) error {
	pos, err := sovereign.Parse(notation)
	if err != nil {
		return err
	}
	if !divide {
		_, err := fmt.Fprintln(stdout, sovereign.Perft(pos, depth))
		return err
	}
	var total uint64
	for _, e := range sovereign.Divide(pos, depth) {
		if err := ctx.Err(); err != nil {
			return err
		}
		total += e.Nodes
		fmt.Fprintf(stdout, "%s: %d\n", e.Move, e.Nodes)
	}
	_, err = fmt.Fprintln(stdout, total)
	return err
}
