// Package chess is the complete rules of classic chess (FIDE Laws of Chess) as a pure
// package: no I/O, no clock, no global randomness. A [Position] is a cheap value with a
// legal move generator ([Position.LegalMoves], [Position.Play]) that reads and writes UCI,
// SAN and FEN; a [Game] adds the moves played, repetitions and the automatic ends
// ([Game.Outcome]) and claimable draws; [WritePGN], [ParsePGN] and [Perft] serve exports
// and checks. It is a game of its own in Arbiter and the base of the card games, for which
// it keeps stable piece IDs ([PieceID]) and constrains its own generator ([Restrictions],
// [Position.Put]) rather than let them copy it. Bughouse drops are such a hook too: a
// Position may hold pieces in hand ([Pocket]), which its generator drops (drops.go). The
// rules as the server enforces them are in docs/games/chess.md.
package chess
