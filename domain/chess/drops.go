package chess

import "strings"

// Bughouse drops. In bughouse two boards are played side by side by two teams, partners
// holding opposite colors; a piece captured on one board passes to the partner, who may
// later put it on an empty square of the other board instead of moving: a drop. This file
// is that hook in the one generator, as Restrictions are the card games': the pieces in
// hand ([Pocket]) are part of a Position, the drops of the side to move are among its
// legal moves, and [Position.CaptureToPartner] says what a capture passes on. Which board
// a piece goes to, and when, is the game's business.
//
// The rules are standard bughouse (as FICS and chess.com play it, and lichess's
// crazyhouse on one board):
//   - A drop is a move: it ends the turn and may block a check. It may give check and
//     checkmate, a pawn drop too: the standard rules forbid neither (only some house
//     rules do), and mate by drop is much of the game.
//   - No pawn is dropped on the first or last rank. A pawn dropped on its second rank may
//     then advance two squares, as from its starting square.
//   - The mover's king is not in check after the drop. A drop uncovers nothing, so in
//     check a drop must block it; against a contact check or a double check none can.
//   - A promoted piece that is captured passes on as a pawn: a position with pockets
//     remembers which pieces are promoted pawns ([Position.Promoted]).
//   - A dropped piece gets a new PieceID, the next one never given in the position (as
//     Put gives): IDs are per board, so a piece that crosses boards cannot keep its own.
//   - A pawn drop resets the halfmove clock, as a pawn move does; other drops count as
//     quiet moves.
//   - Two positions whose hands differ are different positions (the hash covers the
//     pockets); whether a piece is a promoted pawn is not part of the hash.
//
// The zero value is classic chess: no pockets, nothing in hand, and no drop is ever
// generated; a classic Position is the same value, FEN and hash as before drops existed.

// Pocket is the pieces one side holds in hand, counted by role: h[Knight] knights. Only
// Pawn to Queen count: a king is never in hand. A count is at most MaxInHand.
type Pocket [King]uint8

// MaxInHand is the most pieces of one role a side may hold (two full sets of pawns fit
// many times over).
const MaxInHand = 63

// Len is the number of pieces in the pocket.
func (h Pocket) Len() int {
	n := 0
	for _, c := range h {
		n += int(c)
	}
	return n
}

// String is the pocket in FEN letters, white's case, queens first: "QNPP", "" if empty.
func (h Pocket) String() string { return h.fen(White) }

func (h Pocket) fen(c Color) string {
	var b []byte
	for r := Queen; r >= Pawn; r-- {
		for range h[r] {
			b = append(b, Piece{c, r}.String()...)
		}
	}
	return string(b)
}

// The pockets are packed in Position.hands: six bits per role (Pawn to Queen) for White
// in bits 0-29, for Black in bits 32-61, and bit 63 set when the position plays with
// pockets at all (so that its FEN carries them even when both are empty).
const (
	handsOn   uint64 = 1 << 63
	handWidth        = 6
	handSide  uint64 = 1<<(5*handWidth) - 1
)

func handShift(c Color, r Role) uint { return uint(c)*32 + uint(r-Pawn)*handWidth }

// HasPockets reports whether p is played with pieces in hand (bughouse): its FEN then
// carries the pockets, "[...]", even empty ones.
func (p Position) HasPockets() bool { return p.hands&handsOn != 0 }

// EnablePockets makes p a position with pockets, both empty (a bughouse board before
// the first move); from then on it marks the pieces promotions make, so enable pockets
// before play. Pocket edits enable them by themselves.
func (p *Position) EnablePockets() { p.hands |= handsOn }

// Pocket is what side c holds in hand.
func (p Position) Pocket(c Color) Pocket {
	var h Pocket
	if c > Black {
		return h
	}
	for r := Pawn; r <= Queen; r++ {
		h[r] = uint8(p.inHand(c, r))
	}
	return h
}

// SetPocket replaces what side c holds in hand (and enables pockets).
func (p *Position) SetPocket(c Color, h Pocket) error {
	if c > Black {
		return &PositionError{"no such side"}
	}
	if h[NoRole] != 0 {
		return &PositionError{"only a pawn, knight, bishop, rook or queen can be held in hand"}
	}
	for r := Pawn; r <= Queen; r++ {
		if h[r] > MaxInHand {
			return &PositionError{"more than 63 of one role in hand"}
		}
	}
	p.EnablePockets()
	for r := Pawn; r <= Queen; r++ {
		p.setHand(c, r, int(h[r]))
	}
	return nil
}

// AddToPocket puts pc in the hand of its color, pc.Color (what a partner's capture
// passes on: see CaptureToPartner), and enables pockets.
func (p *Position) AddToPocket(pc Piece) error {
	switch {
	case pc.Color > Black || pc.Role < Pawn || pc.Role > Queen:
		return &PositionError{"only a pawn, knight, bishop, rook or queen can be held in hand"}
	case p.inHand(pc.Color, pc.Role) >= MaxInHand:
		return &PositionError{"more than 63 of one role in hand"}
	}
	p.EnablePockets()
	p.setHand(pc.Color, pc.Role, p.inHand(pc.Color, pc.Role)+1)
	return nil
}

func (p *Position) inHand(c Color, r Role) int {
	return int(p.hands >> handShift(c, r) & (1<<handWidth - 1))
}

// setHand sets a count and keeps the hash.
func (p *Position) setHand(c Color, r Role, n int) {
	s := handShift(c, r)
	p.hash ^= zHand[c][r][p.inHand(c, r)] ^ zHand[c][r][n]
	p.hands = p.hands&^((1<<handWidth-1)<<s) | uint64(n)<<s
}

// holds reports whether side c has anything in hand.
func (p *Position) holds(c Color) bool { return p.hands>>(uint(c)*32)&handSide != 0 }

// Promoted reports whether the piece on s is a promoted pawn (tracked only in positions
// with pockets).
func (p Position) Promoted(s Square) bool { return p.promoted.Has(s) }

// CaptureToPartner is the piece m, a legal move of p, captures, as bughouse passes it to
// the capturer's partner: of the captured piece's color (the color the partner plays on
// the other board), and a pawn if it was a promoted pawn. ok is false if m captures
// nothing. The receiving board takes it with AddToPocket.
func (p Position) CaptureToPartner(m Move) (pc Piece, ok bool) {
	switch m.kind() {
	case kindDrop, kindCastle:
		return Piece{}, false
	case kindEnPassant:
		return Piece{p.turn ^ 1, Pawn}, true
	}
	to := m.To()
	r := p.roles[to]
	if r == NoRole || !p.byColor[p.turn^1].Has(to) {
		return Piece{}, false
	}
	if p.promoted.Has(to) {
		r = Pawn
	}
	return Piece{p.turn ^ 1, r}, true
}

// dropMoves appends the drops of the side to move onto the squares of t: empty ones,
// cut down to those blocking the check when there is one.
func (p *Position) dropMoves(dst []Move, t Bitboard) []Move {
	for r := Pawn; r <= Queen; r++ {
		if p.inHand(p.turn, r) == 0 {
			continue
		}
		b := t
		if r == Pawn {
			b &^= Rank1 | Rank8
		}
		for ; b != 0; b &= b - 1 {
			dst = append(dst, newMove(Square(r), b.first(), kindDrop))
		}
	}
	return dst
}

// playDrop puts a piece from the hand on the board under a new ID and ends the turn.
func (p *Position) playDrop(r Role, to Square) {
	us := p.turn
	p.nextID++
	p.place(to, us, r, p.nextID)
	p.setHand(us, r, p.inHand(us, r)-1)
	p.PassTurn()
	if r == Pawn {
		p.halfmove = 0
	}
}

// DropMove is the drop of role r on to by the side to move, if it is legal. If not, the
// error is a *MoveError wrapping why: ErrNotInHand, ErrSquareOccupied, ErrPawnDropRank
// or ErrLeavesKingInCheck (each also an ErrIllegalMove).
func (p Position) DropMove(r Role, to Square) (Move, error) {
	return p.DropMoveWith(r, to, Restrictions{})
}

// DropMoveWith is DropMove under the card games' restrictions: a drop may not enter a
// Forbidden square (refused with ErrIllegalMove alone).
func (p Position) DropMoveWith(r Role, to Square, rs Restrictions) (Move, error) {
	input := "?"
	if r > NoRole && r <= King {
		input = string(r.letter())
	}
	return p.checkDrop(input+"@"+to.String(), r, to, &rs)
}

// checkDrop finds the drop of r on to among the legal moves, or says why it is not one.
func (p *Position) checkDrop(input string, r Role, to Square, rs *Restrictions) (Move, error) {
	switch {
	case to >= NoSquare || r == NoRole || r > King:
		return 0, &MoveError{input, ErrMalformedMove}
	case r == King || p.inHand(p.turn, r) == 0:
		return 0, &MoveError{input, ErrNotInHand}
	case p.roles[to] != NoRole:
		return 0, &MoveError{input, ErrSquareOccupied}
	case r == Pawn && (Rank1 | Rank8).Has(to):
		return 0, &MoveError{input, ErrPawnDropRank}
	}
	m := Drop(r, to)
	var buf [256]Move
	for _, l := range p.generate(buf[:0], rs) {
		if l == m {
			return m, nil
		}
	}
	if p.InCheck() {
		return 0, &MoveError{input, ErrLeavesKingInCheck}
	}
	return 0, &MoveError{input, ErrIllegalMove}
}

// parseDrop reads a drop in UCI or SAN, which write it alike: "N@f3", "P@e4", "Q@h7#",
// and "@e4" for a pawn (as some tools write it).
func (p *Position) parseDrop(s string, rs *Restrictions) (Move, error) {
	t := strings.TrimRight(s, "+#!?")
	r := Pawn
	if len(t) == 4 {
		r, t = roleFromLetter(t[0]), t[1:]
	}
	if len(t) != 3 || t[0] != '@' || r == NoRole {
		return 0, &MoveError{s, ErrMalformedMove}
	}
	to, ok := ParseSquare(t[1:])
	if !ok {
		return 0, &MoveError{s, ErrMalformedMove}
	}
	return p.checkDrop(s, r, to, rs)
}

// DropCouldBlock reports whether the side to move is in check by a single piece with
// an empty square between it and the king: a check a drop could block, given the piece.
// Bughouse calls such a position mate only when the player cannot wait for a piece from
// the partner; the game decides, this says whether the question arises.
func (p Position) DropCouldBlock() bool {
	checkers := p.checkers()
	if checkers == 0 || checkers.more() {
		return false
	}
	return between[p.kingSquare(p.turn)][checkers.first()]&^p.occupied() != 0
}
