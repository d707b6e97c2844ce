package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/serverkey"
)

func init() {
	register("replay", "show a match at any version: board, moves, status and result (or its PGN)", runReplay)
}

// runReplay is `arbiter replay --match ID [--at N] [--pgn] [--db FILE]`.
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("match", "", "the match's ID (required)")
	at := fs.Int64("at", 0, "the version to show; 0 for the latest")
	pgn := fs.Bool("pgn", false, "print the match in its game's export format (PGN for chess) instead")
	db := dbFlag(fs)
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	if *id == "" {
		return errors.New("--match is required: give the ID of the match to show")
	}
	store, err := openExisting(ctx, dbPath(*db), keyPath("", dbPath(*db)))
	if err != nil {
		return err
	}
	defer store.Close()
	snap, err := replay.State(ctx, store, games(), *id, *at)
	if err != nil {
		return err
	}
	if *pgn {
		ex, ok := snap.Rules.(game.Exporter)
		if !ok || snap.State.GameState == nil {
			return fmt.Errorf("match %s: %s has no export format, or play has not started", *id, snap.Rules.Info().Name)
		}
		text, err := ex.Export(snap.State.GameState, snap.State.Record(snap.Rules, *id, snap.Events[0].Time))
		if err != nil {
			return err
		}
		_, err = io.WriteString(stdout, text)
		return err
	}
	return printSnapshot(stdout, snap)
}

// parseFlags parses a subcommand's flags, of which no argument may follow. ok is false
// when the command must stop: with the error, or with none after -h printed the usage.
func parseFlags(fs *flag.FlagSet, args []string) (ok bool, err error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return false, nil
		}
		return false, err
	}
	if fs.NArg() > 0 {
		return false, fmt.Errorf("unexpected argument %q (flags go before it? see -h)", fs.Arg(0))
	}
	return true, nil
}

// dbFlag declares the --db flag of the commands that read an existing store.
func dbFlag(fs *flag.FlagSet) *string {
	return fs.String("db", "", "the event store: an SQLite file or a postgres:// URL (default $ARBITER_DB or "+defaultDB+")")
}

// openExisting opens the event store only if its file exists: the tools that read a store
// must not leave an empty database behind after a typo in --db. They append nothing, but
// opening a store of an older schema migrates it, which signs its head: with the private
// key at keyFile if there is one there.
func openExisting(ctx context.Context, path, keyFile string) (eventstore.Store, error) {
	var signer eventstore.Signer
	if k, err := serverkey.Load(keyFile); err == nil {
		signer = k
	}
	if strings.Contains(path, "://") { // a server's URL: nothing to create by mistake
		return openSigned(ctx, path, signer)
	}
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no event store at %s: pass --db FILE or set ARBITER_DB", path)
		}
		return nil, err
	}
	return openSigned(ctx, path, signer)
}

func printSnapshot(w io.Writer, snap replay.Snapshot) error {
	st := snap.State
	fmt.Fprintf(w, "match %s: %s (rules %s), version %d of %d\n", snap.MatchID, st.Game, st.RulesVersion, snap.Version, snap.Head)
	for i, s := range st.Seats {
		name := "(free)"
		if s.Taken() {
			name = fmt.Sprintf("%s (%s)", s.Name, s.PlayerID)
		}
		fmt.Fprintf(w, "seat %d: %s\n", i, name)
	}
	fen := ""
	if b, ok := snap.Rules.(game.Boarded); ok && st.GameState != nil {
		fen = b.Board(st.GameState).FEN
		fmt.Fprintln(w)
		fmt.Fprint(w, snap.Diagram())
		fmt.Fprintf(w, "FEN: %s\n", fen)
	}
	if r, ok := snap.Rules.(game.Recorded); ok && st.GameState != nil {
		if moves := r.MoveList(st.GameState); len(moves) > 0 {
			fmt.Fprintln(w)
			fmt.Fprintln(w, numbered(moves, fen))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "status: %s\n", st.Status)
	if gs := st.GameStatus(snap.Rules); len(gs.ToAct) > 0 {
		fmt.Fprintf(w, "to act: seat %v\n", gs.ToAct)
	}
	if st.Result != nil {
		_, err := fmt.Fprintf(w, "result: %s (%s)\n", score(st.Result.Winners, len(st.Seats)), st.Result.Reason)
		return err
	}
	return nil
}

// numbered writes moves as in PGN ("1. e4 e5 2. Nf3") when fen is a chess FEN: the first
// move's number and side come from the FEN's side to move and move number, counted back
// by the number of moves, so a game from a set-up position is numbered as PGN would. Any
// other game's moves are numbered by ply, from 1 ("1. e2e3 2. escape 3. p8p7"): a ply
// is one seat's move, whatever the number of seats.
func numbered(moves []string, fen string) string {
	f := strings.Fields(fen)
	full := 0
	if len(f) == 6 && (f[1] == "w" || f[1] == "b") {
		full, _ = strconv.Atoi(f[5])
	}
	var b strings.Builder
	if full < 1 {
		for i, m := range moves {
			fmt.Fprintf(&b, "%d. %s", i+1, m)
			if i < len(moves)-1 {
				b.WriteString(" ")
			}
		}
		return b.String()
	}
	end := 2 * (full - 1) // plies before the current position, counted from move 1 with White
	if f[1] == "b" {
		end++
	}
	ply := max(end-len(moves), 0) // plies before the first move
	for i, m := range moves {
		p := ply + i
		switch {
		case p%2 == 0:
			fmt.Fprintf(&b, "%d. ", p/2+1)
		case i == 0:
			fmt.Fprintf(&b, "%d... ", p/2+1)
		}
		b.WriteString(m)
		if i < len(moves)-1 {
			b.WriteString(" ")
		}
	}
	return b.String()
}

// score writes a result as PGN does for two seats, and as the winning seats otherwise.
func score(winners []int, seats int) string {
	switch {
	case len(winners) == 0:
		if seats == 2 {
			return "1/2-1/2"
		}
		return "draw"
	case seats == 2 && len(winners) == 1 && winners[0] == 0:
		return "1-0"
	case seats == 2 && len(winners) == 1 && winners[0] == 1:
		return "0-1"
	}
	return fmt.Sprintf("won by seat(s) %v", winners)
}
