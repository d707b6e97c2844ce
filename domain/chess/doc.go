// Package chess is the complete rules of classic chess (FIDE Laws of Chess) as a pure
// package: no I/O, no clock, no global randomness. It is a game of its own in Arbiter and
// the base on which UnfairChess and Ajedrez Mágico are built, so it exposes the hooks
// those games need instead of making them copy the move generator.
//
// # Positions and moves
//
// A [Position] is a value: bitboards, a mailbox of roles and piece IDs, side to move,
// castling rights, en-passant square, clocks and an incrementally kept Zobrist hash. It
// is cheap to copy (a few hundred bytes), so "try a move" is a copy followed by
// [Position.Play]. [StartingPosition] and [ParseFEN] make one; [Position.FEN] writes it.
//
// [Position.LegalMoves] appends the legal moves to a caller-owned slice; it is a legal
// generator (check and pin masks, no make/unmake test), so every move it returns may be
// passed to [Position.Play]. A [Move] is a 16-bit value: from, to and a kind (normal,
// castling, en passant, promotion). [Position.ParseMove] reads UCI ("e2e4", "e7e8q") or
// SAN ("Nf3", "exd6", "O-O", "e8=Q+") and answers a [*MoveError] that says whether the
// text was malformed, ambiguous or an illegal move. [Position.SAN] and [Move.UCI] write.
//
// # Piece identity
//
// Every piece carries a [PieceID] for the whole game: IDs are given a1..h8 in board order
// when a position is created (1..32 for the starting position), a moving piece keeps its
// ID, a promoted pawn keeps its ID (only its role changes), a captured piece's ID
// disappears from the board. [Position.PieceID] and [Position.SquareOf] map between
// squares and IDs. IDs are not part of the FEN nor of the hash: two positions with the
// same pieces on the same squares are the same chess position.
//
// # Hooks for the card games
//
// [Restrictions] constrain the moves of the side to move, with the same generator:
// Frozen pieces may not move (asleep), Shielded pieces may not be captured, Forbidden
// squares may not be entered, and a [Grant] lets one piece move, for this move, as
// another role in addition to its own. In classic chess all masks are zero and they cost
// one AND each in the generator. Restrictions never change what is attacked: a frozen
// piece still gives check, and no restricted move may leave one's own king in check.
// [Position.LegalMovesWith], [Position.IsLegalWith], [Position.ParseMoveWith] and
// [Position.SANWith] take them; [Restrictions.Freeze] and [Restrictions.Shield] build the
// masks from piece IDs.
// [Position.Put] and [Position.Remove] add and remove pieces outside a move, keeping IDs,
// castling rights, en passant and the hash consistent; [Position.Validate] says whether
// the edited position is still a chess position (one king each, the side not to move not
// in check, no pawn on a back rank).
//
// # Games, outcomes, notations
//
// A [Game] is a start position plus the moves played; it knows repetitions and clocks.
// [Game.Outcome] reports the automatic ends under FIDE rules (checkmate, stalemate,
// fivefold repetition, the 75-move rule, dead position by insufficient material) and
// [Game.ClaimableDraw] the draws a player may claim (threefold repetition, fifty moves).
// Agreement and resignation belong to the match lifecycle, not here.
//
// [WritePGN] writes the Seven Tag Roster (plus SetUp and FEN for other starts) and the
// main line; [ParsePGN] reads a main line, skipping comments, variations and NAGs.
//
// [Perft] and [Divide] count leaf nodes for checking the generator against published
// tables; `arbiter perft` is their command line.
package chess
