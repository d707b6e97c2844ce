package chess

import (
	"errors"
	"fmt"
)

// Sentinels for errors.Is. The typed errors below wrap one of them.
var (
	ErrInvalidFEN      = errors.New("invalid FEN")
	ErrInvalidPosition = errors.New("invalid position")
	ErrMalformedMove   = errors.New("malformed move")
	ErrIllegalMove     = errors.New("illegal move")
	ErrAmbiguousMove   = errors.New("ambiguous move")
	ErrInvalidPGN      = errors.New("invalid PGN")

	// Why a drop is illegal; each is also an ErrIllegalMove.
	ErrNotInHand         = fmt.Errorf("%w: no piece of that kind in hand", ErrIllegalMove)
	ErrSquareOccupied    = fmt.Errorf("%w: a piece is dropped only on an empty square", ErrIllegalMove)
	ErrPawnDropRank      = fmt.Errorf("%w: no pawn is dropped on the first or last rank", ErrIllegalMove)
	ErrLeavesKingInCheck = fmt.Errorf("%w: the king would be in check after the drop", ErrIllegalMove)
)

// FENError is a rejected FEN. Field names the offending field: "fen" (the field count),
// "board", "pockets", "turn", "castling", "en passant", "halfmove" or "fullmove".
type FENError struct {
	Field  string
	Value  string
	Reason string
}

func (e *FENError) Error() string {
	return fmt.Sprintf("invalid FEN %s %q: %s", e.Field, e.Value, e.Reason)
}

func (e *FENError) Unwrap() error { return ErrInvalidFEN }

// PositionError says why an edited position is not a chess position.
type PositionError struct {
	Reason string
}

func (e *PositionError) Error() string { return "invalid position: " + e.Reason }

func (e *PositionError) Unwrap() error { return ErrInvalidPosition }

// MoveError is a move text or value that could not be played. Err is ErrMalformedMove
// (not UCI nor SAN), ErrIllegalMove (well formed, not legal here) or ErrAmbiguousMove
// (SAN matching several legal moves); for a drop, ErrIllegalMove may be one of the drop
// reasons (ErrNotInHand, ErrSquareOccupied, ErrPawnDropRank, ErrLeavesKingInCheck).
type MoveError struct {
	Input string
	Err   error
}

func (e *MoveError) Error() string { return fmt.Sprintf("%v: %q", e.Err, e.Input) }

func (e *MoveError) Unwrap() error { return e.Err }

// PGNError is a PGN that could not be read; Err is ErrInvalidPGN or a *MoveError for the
// move at Ply (1-based) of the main line.
type PGNError struct {
	Ply    int
	Reason string
	Err    error
}

func (e *PGNError) Error() string {
	if e.Ply > 0 {
		return fmt.Sprintf("invalid PGN at ply %d: %s", e.Ply, e.Reason)
	}
	return "invalid PGN: " + e.Reason
}

func (e *PGNError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidPGN, e.Err}
	}
	return []error{ErrInvalidPGN}
}
