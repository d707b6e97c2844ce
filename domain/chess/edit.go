package chess

// Editing a position outside a move: the card games summon, banish and transform
// pieces. Edits keep the hash, IDs and castling rights consistent, but may produce a
// position that is not a chess position; Validate says whether it is.

// Put places piece on the empty square s and gives it a new ID. A second king of a
// color, or a piece that is not one, is refused.
func (p *Position) Put(s Square, pc Piece) (PieceID, error) {
	switch {
	case s >= NoSquare:
		return 0, &PositionError{"no such square"}
	case pc.Role == NoRole || pc.Role > King || pc.Color > Black:
		return 0, &PositionError{"not a piece"}
	case p.roles[s] != NoRole:
		return 0, &PositionError{"square " + s.String() + " is occupied"}
	case pc.Role == King && p.Pieces(pc.Color, King) != 0:
		return 0, &PositionError{pc.Color.String() + " already has a king"}
	}
	p.nextID = p.maxID() + 1
	p.place(s, pc.Color, pc.Role, p.nextID)
	p.afterEdit()
	return p.nextID, nil
}

// Remove takes the piece off s and returns it with its ID.
func (p *Position) Remove(s Square) (Piece, PieceID, bool) {
	pc, ok := p.PieceAt(s)
	if !ok {
		return Piece{}, 0, false
	}
	id := p.ids[s]
	p.nextID = p.maxID()
	p.lift(s, pc.Color, pc.Role)
	p.promoted &^= s.bb()
	p.afterEdit()
	return pc, id, true
}

// maxID is the highest ID ever given in this position's lineage, so IDs are never reused
// while the piece that had one may still be named in events.
func (p *Position) maxID() PieceID {
	m := p.nextID
	for b := p.occupied(); b != 0; b &= b - 1 {
		m = max(m, p.ids[b.first()])
	}
	return m
}

// afterEdit drops castling rights the board no longer allows and an en-passant square
// that can no longer be used.
func (p *Position) afterEdit() {
	if cr := p.castling & p.possibleCastling(); cr != p.castling {
		p.hash ^= zCastling[p.castling] ^ zCastling[cr]
		p.castling = cr
	}
	if p.ep != NoSquare && (!p.Pieces(p.turn^1, Pawn).Has(p.ep^8) || !p.enPassantLegal(p.ep)) {
		p.hash ^= zEnPass[p.ep.File()]
		p.ep = NoSquare
	}
}

// Validate reports whether p is a position chess can be played from: one king of each
// color, no pawn on the first or last rank, the side not to move not in check.
func (p Position) Validate() error {
	if err := p.validate(); err != nil {
		return err
	}
	return nil
}

func (p *Position) validate() *PositionError {
	for _, c := range [2]Color{White, Black} {
		if n := p.Pieces(c, King).Count(); n != 1 {
			return &PositionError{c.String() + " must have exactly one king"}
		}
	}
	if p.byRole[Pawn]&(Rank1|Rank8) != 0 {
		return &PositionError{"pawn on the first or last rank"}
	}
	if p.Attacked(p.kingSquare(p.turn^1), p.turn) {
		return &PositionError{"the side not to move is in check"}
	}
	return nil
}

// Relocate carries the piece on from to the empty square to, keeping its ID: a piece
// moved by a card rather than by a move, so the side to move, the clocks and the move
// number stay as they are. Castling rights and en passant follow the board as after Put.
func (p *Position) Relocate(from, to Square) error {
	pc, ok := p.PieceAt(from)
	switch {
	case !ok:
		return &PositionError{"no piece on " + from.String()}
	case to >= NoSquare:
		return &PositionError{"no such square"}
	case p.roles[to] != NoRole:
		return &PositionError{"square " + to.String() + " is occupied"}
	}
	id := p.ids[from]
	p.lift(from, pc.Color, pc.Role)
	p.place(to, pc.Color, pc.Role, id)
	p.promoted = carryPromoted(p.promoted, from, to)
	p.afterEdit()
	return nil
}

// Exchange swaps the pieces on a and b, each keeping its ID (two pieces trading places
// by a card).
func (p *Position) Exchange(a, b Square) error {
	pa, okA := p.PieceAt(a)
	pb, okB := p.PieceAt(b)
	switch {
	case !okA || !okB:
		return &PositionError{"exchange needs a piece on " + a.String() + " and on " + b.String()}
	case a == b:
		return &PositionError{"a piece cannot trade places with itself"}
	}
	ia, ib := p.ids[a], p.ids[b]
	p.lift(a, pa.Color, pa.Role)
	p.lift(b, pb.Color, pb.Role)
	p.place(a, pb.Color, pb.Role, ib)
	p.place(b, pa.Color, pa.Role, ia)
	if p.promoted.Has(a) != p.promoted.Has(b) {
		p.promoted ^= a.bb() | b.bb()
	}
	p.afterEdit()
	return nil
}

// SetColor hands the piece on s to side c, keeping its ID, role and square (a pawn that
// deserts). A king never changes sides.
func (p *Position) SetColor(s Square, c Color) error {
	pc, ok := p.PieceAt(s)
	switch {
	case !ok:
		return &PositionError{"no piece on " + s.String()}
	case pc.Role == King:
		return &PositionError{"a king never changes sides"}
	case c > Black:
		return &PositionError{"no such side"}
	}
	p.recast(s, pc, Piece{c, pc.Role})
	return nil
}

// SetRole turns the piece on s into role r, keeping its ID, side and square (a pawn that
// a card promotes). Nothing becomes or stops being a king. With pockets, a pawn (or a
// promoted pawn) turned into a piece counts as promoted, and one turned back into a pawn
// no longer does.
func (p *Position) SetRole(s Square, r Role) error {
	pc, ok := p.PieceAt(s)
	switch {
	case !ok:
		return &PositionError{"no piece on " + s.String()}
	case pc.Role == King || r == King:
		return &PositionError{"a king is made only at the start"}
	case r == NoRole || r > King:
		return &PositionError{"not a piece"}
	}
	if p.hands != 0 {
		if r == Pawn {
			p.promoted &^= s.bb()
		} else if pc.Role == Pawn {
			p.promoted |= s.bb()
		}
	}
	p.recast(s, pc, Piece{pc.Color, r})
	return nil
}

// recast replaces the piece was on s by now, under the same ID.
func (p *Position) recast(s Square, was, now Piece) {
	id := p.ids[s]
	p.lift(s, was.Color, was.Role)
	p.place(s, now.Color, now.Role, id)
	p.afterEdit()
}

// DropCastling takes the rights cr away for good, whatever the board.
func (p *Position) DropCastling(cr CastlingRights) {
	if kept := p.castling &^ cr; kept != p.castling {
		p.hash ^= zCastling[p.castling] ^ zCastling[kept]
		p.castling = kept
	}
}

// PassTurn is a null move: the other side is to move, as if a move had been played that
// changed nothing on the board. The en-passant square goes (it lasts one move), the
// clocks and the move number advance as after a quiet move. A card that replaces a move
// ends the turn with it.
func (p *Position) PassTurn() {
	if p.ep != NoSquare {
		p.hash ^= zEnPass[p.ep.File()]
		p.ep = NoSquare
	}
	p.halfmove++
	if p.turn == Black {
		p.fullmove++
	}
	p.turn ^= 1
	p.hash ^= zBlack
}

// KingSquare is where the king of side c stands, if it has one.
func (p Position) KingSquare(c Color) (Square, bool) {
	if c > Black {
		return NoSquare, false
	}
	s := p.kingSquare(c)
	return s, s != NoSquare
}

// Attacks is the set of squares a piece of role r and side c on s attacks when the
// squares of occ are occupied (for a pawn, its two captures): the patterns card effects
// borrow.
func Attacks(r Role, c Color, s Square, occ Bitboard) Bitboard {
	if s >= NoSquare || c > Black {
		return 0
	}
	return attacksOf(r, c, s, occ)
}
