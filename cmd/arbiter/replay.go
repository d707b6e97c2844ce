package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/sqlite"
	"github.com/arbiter-games/arbiter/replay"
	"github.com/arbiter-games/arbiter/serverkey"
)

func init() {
	register("replay", "show a match at any version: board, moves, status and result (or its PGN)", runReplay)
}

// runReplay is `arbiter replay --match ID [--at N] [--pgn] [--db FILE]`, or `arbiter
// replay --file EXPORT [--at N] [--pgn]` over a match's export (docs/exports.md).
func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	id := fs.String("match", "", "the match's ID (required)")
	at := fs.Int64("at", 0, "the version to show; 0 for the latest")
	pgn := fs.Bool("pgn", false, "print the match in its game's export format (PGN for chess) instead")
	file := fs.String("file", "", "read the match from its export, GET /matches/{id}.ndjson, instead of a store")
	db := dbFlag(fs)
	if ok, err := parseFlags(fs, args); !ok {
		return err
	}
	var (
		snap replay.Snapshot
		err  error
	)
	if *file != "" {
		snap, err = replayFile(*file, *id, *at)
	} else {
		snap, err = replayStore(ctx, *db, *id, *at)
	}
	if err != nil {
		return err
	}
	*id = snap.MatchID
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

// replayStore reads a match from the store at db.
func replayStore(ctx context.Context, db, id string, at int64) (replay.Snapshot, error) {
	if id == "" {
		return replay.Snapshot{}, errors.New("--match is required: give the ID of the match to show (or --file, its export)")
	}
	store, err := openExisting(ctx, dbPath(db), keyPath("", dbPath(db)))
	if err != nil {
		return replay.Snapshot{}, err
	}
	defer store.Close()
	return replay.State(ctx, store, games(), id, at)
}

// replayFile reads a match from its export, which must hide nothing and chain from its
// first event (`arbiter verify --file` says what else is wrong with one).
func replayFile(path, id string, at int64) (replay.Snapshot, error) {
	x, err := readExportFile(path, id)
	if err != nil {
		return replay.Snapshot{}, err
	}
	evs, err := x.Events()
	if err != nil {
		return replay.Snapshot{}, err
	}
	if err := eventstore.VerifyChain(evs); err != nil {
		return replay.Snapshot{}, fmt.Errorf("%s: %w; `arbiter verify --file %s` checks it whole", path, err, path)
	}
	return replay.StateOf(games(), x.Header.Match, evs, at)
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
	return fs.String("db", "", "the event store: an SQLite file, a postgres:// URL or an esdb:// connection string (default $ARBITER_DB or "+defaultDB+")")
}

// openExisting opens the event store only if its file exists: the tools that read a store
// must not leave an empty database behind after a typo in --db. They append nothing, so
// they do not migrate an SQLite file of an older schema either (a verifier must not change
// what it verifies): they refuse it and say how to migrate it. The store is opened with
// the private key at keyFile if there is one there, as a server opens it.
func openExisting(ctx context.Context, path, keyFile string) (eventstore.Store, error) {
	return openFound(ctx, path, keyFile, sqlite.WithoutMigration())
}

// openExistingToAppend is openExisting for a tool that appends (grant-reviewer): as a
// server does, it migrates an SQLite file of schema version 2.
func openExistingToAppend(ctx context.Context, path, keyFile string) (eventstore.Store, error) {
	return openFound(ctx, path, keyFile)
}

func openFound(ctx context.Context, path, keyFile string, opts ...sqlite.Option) (eventstore.Store, error) {
	var signer eventstore.Signer
	if k, err := serverkey.Load(keyFile); err == nil {
		signer = k
	}
	if err := checkDB(path); err != nil {
		return nil, err
	}
	if isServer(path) { // a server's URL: nothing to create by mistake
		return openSigned(ctx, path, signer, opts...)
	}
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no event store at %s: pass --db FILE or set ARBITER_DB", path)
		}
		return nil, err
	}
	return openSigned(ctx, path, signer, opts...)
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
	if rec := replay.Record(snap.Rules, st); rec != "" {
		fmt.Fprintln(w)
		fmt.Fprintln(w, rec)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "status: %s\n", st.Status)
	if gs := st.GameStatus(snap.Rules); len(gs.ToAct) > 0 {
		fmt.Fprintf(w, "to act: seat %v\n", gs.ToAct)
	}
	if st.Result != nil {
		_, err := fmt.Fprintf(w, "result: %s\n", replay.Result(snap.Rules, st))
		return err
	}
	return nil
}
