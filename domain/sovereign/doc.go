// Package sovereign is the rules of Sovereign Chess (Mark Bates, Infinite Pi Games) and
// of its four-player variant Sovereign Chess Royale, as a pure package: no I/O, no
// clock, no global randomness, no dependency outside the standard library. The rules
// are the rulebook's (shared/rules/sovereign-chess.en.txt); the board, the start
// positions, the notation and the decisions on what the rulebook leaves open are those
// of the board facts file (shared/rules/sovereign-chess-board.md, section 8).
//
// # Positions and moves
//
// A [Position] is a value of under a kilobyte: a 256-square mailbox of pieces and piece
// IDs, each player's owned colour and king, castling rights as a bit set of squares, the
// player to move, and the control of each colour, recomputed after every move
// (control.go). Geometry that does not depend on the position (rays cut at eight
// squares, knight jumps, the pawn steps allowed from each square, the squares of colour
// and their twins) is computed once (board.go). [StartPosition], [RoyaleStartPosition]
// and [Parse] make a position; [Position.Notation] writes it (notation.go documents the
// notation, osc-ui's FEN extended for Royale).
//
// [Position.LegalMoves] lists the legal moves of the player to move, by pseudo-legal
// generation and make-and-test on a copy (movegen.go says why). [Position.ParseMove]
// reads the move notation (move.go) and answers a [*MoveError] wrapping
// [ErrMalformedMove] or [ErrIllegalMove]; [Move.String] writes it. [Position.Play]
// plays a legal move. [Position.Status] says whether the game is over (checkmate,
// stalemate, Royale's last king standing) and how each player stands. [Perft] and
// [Divide] count the move tree; `arbiter perft --game sovereign` is their command.
//
// A [Game] keeps the history (repetitions, the fifty-move count) and the two-player
// [Opening]: a seat chosen at random from a bit the caller derives from the match seed
// plays White's first move, the other keeps it (plays White) or refuses it (plays Black).
//
// # Piece identity
//
// Every piece has a [PieceID] for the whole game: IDs are given 1, 2, 3... in square
// order (a1, b1, .. p16) when a position is parsed (1..112 for either start position); a
// moving piece keeps its ID; a promoted pawn keeps its ID, a crowned king included; a
// defecting king keeps its ID and changes colour; a captured or removed piece's ID
// leaves the board. IDs are not written in the notation.
//
// # Decisions beyond the board facts file
//
//   - A pawn on a ring-1 or ring-2 square as close to two edges (a1, b2, o2, ...) may
//     make its two-square move away from either edge. The square passed over must be
//     empty.
//   - Castling rights are kept per square: the unmoved rooks on an edge, and the unmoved
//     kings. A king castles along any edge it stands on (ranks 1 and 16; in Royale also
//     files a and p, where Ash and Slate start) with the first piece beyond the empty
//     squares, if that is an unmoved rook the player controls. Neither the king nor the
//     rook may move more than eight squares. When an unmoved king moves or leaves the
//     board, the rights of the rooks on its edges go too; a defection keeps them.
//     Castling is written as the king's move with an "O" ("i1k1O"), since the king may
//     stop next to its start square, where a plain king move also goes.
//   - A defection whose king stands on a square of its new colour is one move in the
//     notation, "=n" followed by the king's move ("=ne5e4"); its king moves are
//     generated after the defection (the old army is neutral by then). That king move
//     may not capture the other king: the two-player game has no capture of a king, and
//     a king that turned colour could otherwise take one standing on a square of its
//     old colour.
//   - Pawns never stand in the central 4x4: Parse rejects it, since entering it promotes.
//     Parse also rejects a two-player position whose player not to move is in check.
//   - Royale: a player may leave or put its king in check with any move, castling and
//     regime changes included ("It is legal for a player to move such that their king is
//     in check"). A player may capture any piece another player controls. When a king
//     that is not in check has no move that leaves it out of check, its only move is
//     "escape": the king is removed, and that is the player's turn. A player without a
//     king and without any move plays "pass". [Position.Checked] lists the kings in
//     check after a move: the checks the engine announces. The game ends when at most one
//     king is left: its owner wins; a player whose king escaped and who crowned no new
//     king ties; the others lose.
//   - Royale: a player who resigns while the game goes on withdraws ([Position.Withdraw];
//     the rulebook has no resignation). Its king leaves the board as an escaped king
//     does, but the player can never crown a new one and loses, not ties, when the game
//     ends; the army it owned turns neutral, to be controlled through its squares of
//     colour like any neutral army; its turns are skipped from then on. If that leaves
//     one king, its owner wins (the last king standing). The notation writes such a
//     player's owned colour as "-".
//   - "All rules of traditional chess apply": [Game] offers a draw claim on threefold
//     repetition and fifty moves each without a capture, a pawn move or a regime change,
//     and ends a two-player game on fivefold repetition or seventy-five such moves.
//     Insufficient material is not applied: with neutral armies that either player may
//     come to control, it cannot be read from the board.
package sovereign
