package sovereign

import (
	"errors"
	"fmt"
)

// Sentinels for errors.Is. The typed errors below wrap one of them.
var (
	ErrInvalidNotation = errors.New("invalid position notation")
	ErrMalformedMove   = errors.New("malformed move")
	ErrIllegalMove     = errors.New("illegal move")
)

// NotationError is a rejected position notation. Field names the offending field:
// "fields" (their count), "board", "turn", "owned", "castling" or "ply".
type NotationError struct {
	Field  string
	Value  string
	Reason string
}

func (e *NotationError) Error() string {
	return fmt.Sprintf("invalid position notation %s %q: %s", e.Field, e.Value, e.Reason)
}

func (e *NotationError) Unwrap() error { return ErrInvalidNotation }

// MoveError is a move text that could not be played. Err is ErrMalformedMove (not in the
// move notation) or ErrIllegalMove (well formed, not legal here); Reason says more.
type MoveError struct {
	Input  string
	Err    error
	Reason string
}

func (e *MoveError) Error() string {
	if e.Reason != "" {
		return fmt.Sprintf("%v %q: %s", e.Err, e.Input, e.Reason)
	}
	return fmt.Sprintf("%v %q", e.Err, e.Input)
}

func (e *MoveError) Unwrap() error { return e.Err }
