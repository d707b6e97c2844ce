package game

import "errors"

// Snapshotting is implemented by the rules of a game whose state can be written down and
// read back, so that a snapshot of the read side (projections) can hold a live match's
// game state instead of folding the match again from its events at boot.
//
// The contract is behavioural: for every state st that folding a match's events produced,
// and every later event e of that match, DecodeState(EncodeState(st)) must evolve, decide,
// show (View) and report (Status) exactly as st does, and so must every state folded from
// it. Each implementation proves it with a seeded test that snapshots at every ply and plays
// the rest of the match on both.
//
// The encoded form carries its own format version: DecodeState refuses a form it does not
// know (a typed error wrapping ErrStateFormat), and the caller then folds the match from its
// events instead. A game without this interface is always folded from its events.
// Both methods are pure: no clock, no randomness, no I/O.
type Snapshotting interface {
	EncodeState(st State) ([]byte, error)
	DecodeState(b []byte) (State, error)
}

// ErrStateFormat is wrapped by DecodeState's error when the bytes are not a state this
// build can read (another format version, another game, damaged bytes).
var ErrStateFormat = errors.New("game: not a stored state this build can read")
