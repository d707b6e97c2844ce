// Package sovereign is the rules of Sovereign Chess (Mark Bates, Infinite Pi Games) and
// of its four-player variant Sovereign Chess Royale, as a pure package: no I/O, no clock,
// no global randomness, no dependency outside the standard library. A [Position] is a
// value with its legal moves ([Position.LegalMoves], [Position.Play]), the control of
// every colour, and the notation it is read and written in ([Parse], [Position.Notation],
// [Position.ParseMove]); a [Game] adds the history (repetitions, the fifty-move count),
// the two-player [Opening] and the end ([Position.Status]); [Perft] counts the move tree.
// The rules as the server enforces them, and every choice made where the rulebook is
// silent, are in docs/games/sovereign.md.
package sovereign
