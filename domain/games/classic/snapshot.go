package classic

import (
	"strconv"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// The stored form of a State (game.Snapshotting; docs/games/chess.md, "Stored state"):
// the start position's FEN and the moves played, two bytes each, rather than the current
// FEN and the repetition hashes. The record of moves is part of the state (View and Turns
// show it in SAN), and from it and the start the current position, its piece IDs (which a
// FEN does not hold, and MovePlayed records) and every hash of the repetition history
// follow, checked move by move as they are replayed: the form holds nothing twice, so
// nothing in it can disagree.
const stateVersion = 1

var _ game.Snapshotting = Rules{}

// EncodeState writes a State in the stored form.
func (Rules) EncodeState(st game.State) ([]byte, error) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil, game.Reject(game.BadInput, "chess: no game state to store (%T)", st)
	}
	w := stateform.New(stateVersion, ID)
	w.String(s.Game.Start().FEN())
	moves := s.Game.Moves()
	w.Uint(uint64(len(moves)))
	for _, m := range moves {
		w.Uint16(uint16(m))
	}
	w.String(s.Claimed)
	w.Bool(s.Flag != nil)
	if s.Flag != nil {
		w.Uint(uint64(s.Flag.Seat))
		w.Bool(s.Flag.Draw)
	}
	w.Clock(s.Clock)
	left := s.Left.list()
	w.Uint(uint64(len(left)))
	for _, ms := range left {
		w.Int(ms)
	}
	return w.Bytes(), nil
}

// DecodeState reads a State from its stored form, replaying its moves from the start
// position; anything else is refused with an error wrapping game.ErrStateFormat.
func (Rules) DecodeState(b []byte) (game.State, error) {
	r, err := stateform.Open(b, stateVersion, ID)
	if err != nil {
		return nil, err
	}
	fen := r.String()
	moves := make([]chess.Move, r.Count(2))
	for i := range moves {
		moves[i] = chess.Move(r.Uint16())
	}
	s := State{Claimed: r.String(), extended: new(atomic.Bool)}
	if r.Bool() {
		s.Flag = &FlagFell{Seat: r.Small(1), Draw: r.Bool()}
	}
	s.Clock = r.Clock(2)
	left := make([]int64, r.Count(1))
	for i := range left {
		left[i] = r.Int()
	}
	if err := r.Err(ID); err != nil {
		return nil, err
	}
	start, err := chess.ParseFEN(fen)
	if err != nil || start.HasPockets() || start.FEN() != fen {
		return nil, &stateform.Error{Game: ID, Reason: "the start position is not a FEN this game writes"}
	}
	s.Game = chess.NewGame(start)
	s.Game.Grow(len(moves)) // the histories at once, not doubled along the replay
	for i, m := range moves {
		// Only a move the position lists is replayed (a damaged one may not even be a
		// move chess can write), and none once the game has ended.
		pos := s.Game.Position()
		if s.Game.Outcome().Over || !pos.IsLegal(m) {
			return nil, &stateform.Error{Game: ID, Reason: "move " + strconv.Itoa(i+1) + " does not replay"}
		}
		s.Game.Replay(m)
	}
	if s.Clock.On && len(left) != len(moves) || !s.Clock.On && len(left) > 0 {
		return nil, &stateform.Error{Game: ID, Reason: "the times left do not match the moves and the clock"}
	}
	// The entries in one array, not one allocation each: every one is reachable from the
	// last, so none outlives the others.
	entries := make([]clockEntry, len(left))
	for i, ms := range left {
		entries[i] = clockEntry{LeftMs: ms, Before: s.Left}
		s.Left = &entries[i]
	}
	return withOutcome(s), nil
}
