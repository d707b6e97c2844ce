package game

import (
	"errors"
	"fmt"
)

// Code is the machine-readable kind of a rejection; the API sends it as extensions.code.
type Code string

// Rejection codes shared by every game and by the match lifecycle.
const (
	IllegalMove     Code = "ILLEGAL_MOVE"
	NotYourTurn     Code = "NOT_YOUR_TURN"
	BadInput        Code = "BAD_USER_INPUT"
	Forbidden       Code = "FORBIDDEN"
	NotFound        Code = "NOT_FOUND"
	Conflict        Code = "CONFLICT"
	Unauthenticated Code = "UNAUTHENTICATED"
	// Unavailable: the match exists but its stored events do not replay, so the server
	// set it aside; nothing can be done on it until an operator repairs the store.
	Unavailable Code = "MATCH_UNAVAILABLE"
	// NotHosted: the match exists, but it is of a game this server does not host (a store
	// shared with servers of other builds); a server that hosts the game serves it.
	NotHosted Code = "GAME_NOT_HOSTED"
)

// Error is a rejected command: nothing was recorded. Reason is for a person to read.
type Error struct {
	Code   Code
	Reason string
	Err    error // the underlying cause, if any (a parse error...)
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Reason }

func (e *Error) Unwrap() error { return e.Err }

// Reject builds a rejection with a formatted reason.
func Reject(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// CodeOf returns the rejection code of err, or "" when err is not a rejection.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}
