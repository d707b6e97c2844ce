package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/serverkey"
)

func init() {
	register("grant-reviewer", "give a player the reviewer role: it may rule on disputes of matches it did not play", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runReviewer(ctx, args, true, stdout, stderr)
	})
	register("revoke-reviewer", "take the reviewer role back from a player", func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runReviewer(ctx, args, false, stdout, stderr)
	})
}

// runReviewer is `arbiter grant-reviewer|revoke-reviewer [--db FILE] [--key FILE] PLAYER`.
// It appends ReviewerGranted or ReviewerRevoked to the player's stream, signed with the
// server's key like any commit; a running server on the same store sees it at the
// player's next request (the role is read from the player's stream, not from memory).
func runReviewer(ctx context.Context, args []string, on bool, stdout, stderr io.Writer) error {
	name := map[bool]string{true: "grant-reviewer", false: "revoke-reviewer"}[on]
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	db := dbFlag(fs)
	keys := addKeyFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: arbiter %s [--db FILE] [--key FILE] PLAYER_ID\n", name)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return nil
		}
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("give exactly one player ID")
	}
	path := dbPath(*db)
	keyFile, _, _ := keys.paths(path)
	if _, err := serverkey.Load(keyFile); err != nil {
		return fmt.Errorf("the server key %s: %w (this command signs the store's head as the server does: pass --key FILE)", keyFile, err)
	}
	store, err := openExistingToAppend(ctx, path, keyFile) // opened with the key just loaded
	if err != nil {
		return err
	}
	defer store.Close()
	eng := engine.New(engine.Config{Store: store, Games: games()})
	player := fs.Arg(0)
	changed, err := eng.SetReviewer(ctx, player, on, "operator")
	if err != nil {
		return err
	}
	state := map[bool]string{true: "is a reviewer", false: "is not a reviewer"}[on]
	if !changed {
		fmt.Fprintf(stdout, "%s %s already: nothing changed\n", player, state)
		return nil
	}
	fmt.Fprintf(stdout, "%s %s now\n", player, state)
	return nil
}
