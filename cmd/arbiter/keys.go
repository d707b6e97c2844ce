package main

import (
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/eventstore/headlog"
	"github.com/arbiter-games/arbiter/serverkey"
)

// defaultKey is the server key of a PostgreSQL store, whose tables have no file beside
// which to keep it: in the working directory, like the default store.
const defaultKey = "./arbiter.key"

// keyFlags are --key and --head-log, of the commands that sign or check a store's heads.
type keyFlags struct{ key, headLog *string }

func addKeyFlags(fs *flag.FlagSet) keyFlags {
	return keyFlags{
		key:     fs.String("key", "", "the server's Ed25519 key, which signs the store's head at each commit (default $ARBITER_KEY, else beside an SQLite file: arbiter.key for arbiter.db; for PostgreSQL "+defaultKey+")"),
		headLog: fs.String("head-log", "", "the append-only log of signed heads, written every second by serve and checked by verify; keep it on another disk to survive the loss of the store's (default $ARBITER_HEAD_LOG, else beside the key: arbiter.heads for arbiter.key)"),
	}
}

// paths resolves the flags for the store at db. explicitLog says that the head log was
// named, by the flag or the environment: then it must exist for verify.
func (k keyFlags) paths(db string) (key, headLog string, explicitLog bool) {
	key = keyPath(*k.key, db)
	headLog = *k.headLog
	if headLog == "" {
		headLog = os.Getenv("ARBITER_HEAD_LOG")
	}
	if headLog != "" {
		return key, headLog, true
	}
	return key, strings.TrimSuffix(key, filepath.Ext(key)) + ".heads", false
}

// keyPath resolves --key against ARBITER_KEY and the default for the store at db.
func keyPath(flagValue, db string) string {
	if flagValue != "" {
		return flagValue
	}
	if env := os.Getenv("ARBITER_KEY"); env != "" {
		return env
	}
	if isServer(db) {
		return defaultKey
	}
	return strings.TrimSuffix(db, filepath.Ext(db)) + ".key"
}

// signingKey loads the key at path, creating it at the first start of a store.
func signingKey(path string) (*serverkey.Key, bool, error) {
	k, created, err := serverkey.LoadOrCreate(path)
	if err != nil {
		return nil, false, fmt.Errorf("the server key: %w (pass --key FILE or set ARBITER_KEY)", err)
	}
	return k, created, nil
}

// publicKey loads the public half of the key at path, for the commands that only check.
func publicKey(path string) (ed25519.PublicKey, error) {
	pub, err := serverkey.LoadPublic(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("no server key at %s: the store's signed heads cannot be checked without it; pass --key FILE (the private key, or its public half from `openssl pkey -in KEY -pubout`)", path)
	}
	return pub, err
}

// loggedHeads reads the head log at path; a log that was not named and does not exist is
// no log (a store never served, or a PostgreSQL store whose servers keep it elsewhere).
func loggedHeads(path string, explicit bool) (heads []eventstore.Head, found bool, err error) {
	heads, err = headlog.Read(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("the head log: %w", err)
	}
	return heads, true, nil
}
