package sovereign

// Move is one turn of the player to move. The move notation, read by
// [Position.ParseMove] and written by [Move.String]:
//
//	e2e4      a piece moves (or captures) from e2 to e4; ranks run 1..16, "h10h12"
//	g6g7q     a pawn enters the central 4x4 and promotes: q, r, b, n, or k (a regime change)
//	i1k1O     castling, written as the king's move with "O": the rook is the first
//	          piece beyond the king's destination
//	=y        defection: the king becomes yellow; nothing moves
//	=yk6k7    defection, then the forced move of a king left on a square of its new colour
//	escape    Royale: the king escapes (removed), the player being stalemated
//	pass      Royale: a player without a king and without any move passes
//
// The zero Move is no move and is never legal.
type Move struct {
	from, to Square
	promo    Role
	defect   Colour
	flags    uint8
}

const (
	fStep   = 1 << iota // from and to are a piece's move
	fCastle             // ... the king's, and the rook moves too
	fDefect             // the king changes colour first
	fEscape
	fPass
)

func stepMove(from, to Square) Move { return Move{from: from, to: to, flags: fStep} }

// From is the square the moving piece leaves (the king's, for castling); only
// meaningful if [Move.HasStep].
func (m Move) From() Square { return m.from }

// To is the square the moving piece reaches.
func (m Move) To() Square { return m.to }

// HasStep reports whether a piece moves (false for a bare defection, an escape, a pass).
func (m Move) HasStep() bool { return m.flags&fStep != 0 }

// Promotion is the role a pawn promotes to, or NoRole.
func (m Move) Promotion() Role { return m.promo }

// Defection is the king's new colour, if the move is a defection.
func (m Move) Defection() (Colour, bool) { return m.defect, m.flags&fDefect != 0 }

// IsCastling reports whether the move is a castling.
func (m Move) IsCastling() bool { return m.flags&fCastle != 0 }

// IsEscape reports whether the move is a Royale king's escape.
func (m Move) IsEscape() bool { return m.flags&fEscape != 0 }

// IsPass reports whether the move is a Royale pass.
func (m Move) IsPass() bool { return m.flags&fPass != 0 }

// String is the move in the move notation.
func (m Move) String() string {
	switch {
	case m.flags&fEscape != 0:
		return "escape"
	case m.flags&fPass != 0:
		return "pass"
	case m.flags == 0:
		return "none"
	}
	b := make([]byte, 0, 10)
	if m.flags&fDefect != 0 {
		b = append(b, '=', m.defect.Letter())
	}
	if m.flags&fStep != 0 {
		b = append(b, m.from.String()...)
		b = append(b, m.to.String()...)
		if m.promo != NoRole {
			b = append(b, m.promo.Letter())
		}
		if m.flags&fCastle != 0 {
			b = append(b, 'O')
		}
	}
	return string(b)
}

// parseMoveText reads the move notation without looking at a position.
func parseMoveText(s string) (Move, bool) {
	switch s {
	case "escape":
		return Move{flags: fEscape}, true
	case "pass":
		return Move{flags: fPass}, true
	}
	var m Move
	rest := s
	if len(rest) >= 2 && rest[0] == '=' {
		c, ok := colourOf(rest[1])
		if !ok {
			return m, false
		}
		m.defect, m.flags, rest = c, fDefect, rest[2:]
		if rest == "" {
			return m, true
		}
	}
	from, n := parseSquare(rest)
	if n == 0 {
		return m, false
	}
	to, k := parseSquare(rest[n:])
	if k == 0 {
		return m, false
	}
	m.from, m.to, m.flags, rest = from, to, m.flags|fStep, rest[n+k:]
	switch {
	case rest == "":
	case rest == "O" && m.flags&fDefect == 0:
		m.flags |= fCastle
	case len(rest) == 1 && m.flags&fDefect == 0:
		r, ok := roleOf(rest[0])
		if !ok || r == Pawn {
			return m, false
		}
		m.promo = r
	default:
		return m, false
	}
	return m, from != to
}

// ParseMove reads a move in the move notation and finds it among the legal moves. The
// error is a *MoveError wrapping ErrMalformedMove or ErrIllegalMove.
func (p *Position) ParseMove(s string) (Move, error) {
	m, ok := parseMoveText(s)
	if !ok {
		return Move{}, &MoveError{Input: s, Err: ErrMalformedMove,
			Reason: "want from-to (e2e4), a promotion (g6g7q), castling (i1k1O), a defection (=y, =yk6k7), escape or pass"}
	}
	var buf [512]Move
	for _, l := range p.LegalMoves(buf[:0]) {
		if l == m {
			return l, nil
		}
	}
	reason := "not a legal move in this position"
	if m.HasStep() {
		pc := p.board[m.from]
		switch {
		case pc == 0:
			reason = "no piece on " + m.from.String()
		case !p.Controls(p.turn, pc.Colour()):
			reason = "the player to move does not control the " + pc.Colour().String() + " " + pc.Role().String() + " on " + m.from.String()
		case pc.Role() == Pawn && inZone(m.to) && m.promo == NoRole:
			reason = "a pawn entering the central 4x4 must promote"
		}
	}
	return Move{}, &MoveError{Input: s, Err: ErrIllegalMove, Reason: reason}
}
