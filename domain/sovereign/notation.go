package sovereign

import (
	"strconv"
	"strings"
)

// The position notation is the osc-ui/samkhal FEN of the board facts file (section 4),
// extended for Royale:
//
//	<board> <turn> <owned colour of each player> <castling> <ply>
//
//   - board: rank 16 first, ranks separated by "/"; a piece is its colour letter and role
//     letter, both lower case ("wk" the white king, "pq" the pink queen); a run of empty
//     squares is a decimal number (1..16).
//   - turn: the player to move, 1-based ("1" or "2"; "1".."4" in Royale).
//   - owned: one colour letter per player (two, or four for Royale). In Royale a player
//     whose king escaped, and who has not crowned a new one, is marked with a "*" after
//     its letter ("a*"): that player ties if the game ends so (a player without a king and
//     without the mark lost it by capture). A Royale player who withdrew owns nothing and
//     is written "-" (it has no king and never moves again).
//   - castling: the squares of the rooks that have not moved, or "-". A rook on rank 1 is
//     its file in upper case ("C" for c1), one on rank 16 its file in lower case ("c" for
//     c16), one elsewhere on an edge (Royale's a and p files) its square name ("a5").
//     A king on an edge with a listed rook on the same edge has not moved either.
//   - ply: the number of moves played since the start position.
//
// The two-player start position is osc-ui's string, " 1 w b CELNceln 0" included.

// Parse reads a position in the notation. It rejects, with a *NotationError naming the
// field, anything that is not a Sovereign Chess position: a piece on a square of its own
// colour, both squares of a colour occupied, a pawn in the central 4x4, a king whose
// colour nobody owns, two players owning one colour, a two-player side without a king, the
// turn of a Royale player who withdrew, or the side not to move in check in the
// two-player game.
func Parse(s string) (Position, error) {
	var p Position
	f := strings.Fields(s)
	if len(f) != 6 && len(f) != 8 {
		return p, &NotationError{"fields", s, "want 6 fields (8 for Royale): board, turn, an owned colour per player, castling, ply"}
	}
	p.players = uint8(len(f) - 4)
	if err := p.parseBoard(f[0]); err != nil {
		return p, err
	}
	t, err := strconv.Atoi(f[1])
	if err != nil || t < 1 || t > int(p.players) || f[1][0] == '+' || f[1][0] == '0' {
		return p, &NotationError{"turn", f[1], "want a player number from 1 to " + strconv.Itoa(int(p.players))}
	}
	p.turn = Player(t - 1)
	if err := p.parseOwned(f[2 : 2+p.players]); err != nil {
		return p, err
	}
	if p.Withdrawn(p.turn) {
		return p, &NotationError{"turn", f[1], "player " + f[1] + " withdrew: it has no turn"}
	}
	if err := p.parseCastling(f[2+p.players]); err != nil {
		return p, err
	}
	ply := f[3+p.players]
	n, err := strconv.Atoi(ply)
	if err != nil || n < 0 || ply[0] == '+' || (len(ply) > 1 && ply[0] == '0') || n > 1<<30 {
		return p, &NotationError{"ply", ply, "want a count of moves played, 0 or more"}
	}
	p.ply = n
	p.updateControl()
	if !p.Royale() {
		for pl := Player(0); pl < 2; pl++ {
			if pl != p.turn && p.InCheck(pl) {
				return p, &NotationError{"board", f[0], "the side not to move is in check"}
			}
		}
	}
	return p, nil
}

func (p *Position) parseBoard(b string) error {
	bad := func(reason string) error { return &NotationError{"board", b, reason} }
	ranks := strings.Split(b, "/")
	if len(ranks) != 16 {
		return bad("want 16 ranks separated by /")
	}
	var id PieceID
	var filled [256]bool
	for i, r := range ranks {
		y, x := 15-i, 0
		for j := 0; j < len(r); {
			if c := r[j]; c >= '0' && c <= '9' {
				k := j
				for k < len(r) && r[k] >= '0' && r[k] <= '9' {
					k++
				}
				n, err := strconv.Atoi(r[j:k])
				if err != nil || n < 1 || x+n > 16 || r[j] == '0' {
					return bad("rank " + strconv.Itoa(y+1) + ": bad run of empty squares " + strconv.Quote(r[j:k]))
				}
				x, j = x+n, k
				continue
			}
			if j+1 >= len(r) {
				return bad("rank " + strconv.Itoa(y+1) + ": a piece is two letters, colour and role")
			}
			c, okc := colourOf(r[j])
			role, okr := roleOf(r[j+1])
			if !okc || !okr {
				return bad("rank " + strconv.Itoa(y+1) + ": unknown piece " + strconv.Quote(r[j:j+2]))
			}
			if x >= 16 {
				return bad("rank " + strconv.Itoa(y+1) + " has more than 16 squares")
			}
			s := SquareAt(x, y)
			p.board[s] = NewPiece(c, role)
			filled[s] = true
			x, j = x+1, j+2
		}
		if x != 16 {
			return bad("rank " + strconv.Itoa(y+1) + " has " + strconv.Itoa(x) + " squares, want 16")
		}
	}
	for s := 0; s < 256; s++ {
		pc := p.board[s]
		if pc == 0 {
			continue
		}
		if id == 255 {
			return bad("more than 255 pieces")
		}
		id++
		p.ids[s] = id
		sq := Square(s)
		switch {
		case squareColour[sq] == pc.Colour():
			return bad(pc.String() + " on " + sq.String() + ", a square of its own colour")
		case squareColour[sq] != NoColour && sq < twin[sq] && p.board[twin[sq]] != 0:
			return bad("both " + squareColour[sq].String() + " squares are occupied")
		case pc.Role() == Pawn && inZone(sq):
			return bad("a pawn on " + sq.String() + ", in the central 4x4 where pawns promote")
		}
	}
	return nil
}

func (p *Position) parseOwned(f []string) error {
	var seen uint16
	for pl, v := range f {
		bad := func(reason string) error { return &NotationError{"owned", v, reason} }
		if v == "-" && p.Royale() {
			p.owned[pl] = NoColour
			p.withdrawn |= 1 << pl
			continue
		}
		c, ok := Colour(NoColour), false
		if len(v) == 1 || (len(v) == 2 && v[1] == '*' && p.Royale()) {
			c, ok = colourOf(v[0])
		}
		if !ok {
			return bad("want a colour letter (wasbproygcnv), or - in Royale for a player who withdrew")
		}
		if seen&(1<<c) != 0 {
			return bad("two players own " + c.String())
		}
		seen |= 1 << c
		p.owned[pl] = c
		if len(v) == 2 {
			p.escaped |= 1 << pl
		}
	}
	for s := 0; s < 256; s++ {
		pc := p.board[s]
		if pc.Role() != King {
			continue
		}
		pl := -1
		for q := 0; q < int(p.players); q++ {
			if p.owned[q] == pc.Colour() {
				pl = q
			}
		}
		switch {
		case pl < 0:
			return &NotationError{"owned", strings.Join(f, " "), "nobody owns the " + pc.Colour().String() + " king on " + Square(s).String()}
		case p.hasKing&(1<<pl) != 0:
			return &NotationError{"board", pc.Colour().String(), "two " + pc.Colour().String() + " kings"}
		case p.escaped&(1<<pl) != 0:
			return &NotationError{"owned", f[pl], "marked as escaped, yet has a king"}
		}
		p.hasKing |= 1 << pl
		p.kings[pl] = Square(s)
	}
	if !p.Royale() && p.hasKing != 3 {
		return &NotationError{"board", strings.Join(f, " "), "each player needs a king of its owned colour"}
	}
	return nil
}

// onEdge reports whether s is on a board edge along which a king may castle (rank 1,
// rank 16, file a or file p), in direction group: 0 for a rank, 1 for a file.
func edgeLines(s Square) (rank, file bool) {
	return s.Rank() == 0 || s.Rank() == 15, s.File() == 0 || s.File() == 15
}

func (p *Position) parseCastling(v string) error {
	bad := func(reason string) error { return &NotationError{"castling", v, reason} }
	if v == "-" {
		return nil
	}
	for i := 0; i < len(v); {
		var s Square
		switch c := v[i]; {
		case c >= 'A' && c <= 'P':
			s, i = SquareAt(int(c-'A'), 0), i+1
		case c >= 'a' && c <= 'p' && (i+1 == len(v) || v[i+1] < '0' || v[i+1] > '9'):
			s, i = SquareAt(int(c-'a'), 15), i+1
		default:
			sq, n := parseSquare(v[i:])
			if n == 0 {
				return bad("want rook squares: C for c1, c for c16, a5 elsewhere on an edge, or -")
			}
			s, i = sq, i+n
		}
		if r, f := edgeLines(s); !r && !f {
			return bad(s.String() + " is not on an edge")
		}
		if p.board[s].Role() != Rook {
			return bad("no rook on " + s.String())
		}
		p.setUnmoved(s)
	}
	// A king with a castling rook on its edge has not moved either.
	for pl := 0; pl < int(p.players); pl++ {
		k, ok := p.King(Player(pl))
		if !ok {
			continue
		}
		for s := 0; s < 256; s++ {
			if p.isUnmoved(Square(s)) && sameEdge(k, Square(s)) {
				p.setUnmoved(k)
			}
		}
	}
	return nil
}

// sameEdge reports whether a and b are on one edge line (rank 1, rank 16, file a, file p).
func sameEdge(a, b Square) bool {
	ar, af := edgeLines(a)
	return (ar && a.Rank() == b.Rank()) || (af && a.File() == b.File())
}

// Notation writes the position in the notation; Parse reads it back to the same position
// (piece IDs aside: they are renumbered in square order).
func (p Position) Notation() string {
	var b strings.Builder
	writeBoard(&b, &p.board)
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(int(p.turn) + 1))
	for pl := 0; pl < int(p.players); pl++ {
		b.WriteByte(' ')
		if p.withdrawn&(1<<pl) != 0 {
			b.WriteByte('-')
			continue
		}
		b.WriteByte(p.owned[pl].Letter())
		if p.escaped&(1<<pl) != 0 {
			b.WriteByte('*')
		}
	}
	b.WriteByte(' ')
	b.WriteString(p.castlingField())
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(p.ply))
	return b.String()
}

func (p *Position) castlingField() string {
	var upper, lower, other []byte
	for s := 0; s < 256; s++ {
		sq := Square(s)
		if !p.isUnmoved(sq) || p.board[sq].Role() != Rook {
			continue
		}
		switch sq.Rank() {
		case 0:
			upper = append(upper, 'A'+byte(sq.File()))
		case 15:
			lower = append(lower, 'a'+byte(sq.File()))
		default:
			other = append(other, sq.String()...)
		}
	}
	out := string(upper) + string(lower) + string(other)
	if out == "" {
		return "-"
	}
	return out
}

// String is the position's notation.
func (p Position) String() string { return p.Notation() }

// writeBoard writes the board field: rank 16 first, runs of empty squares as numbers.
func writeBoard(b *strings.Builder, board *[256]Piece) {
	for y := 15; y >= 0; y-- {
		empty := 0
		for x := 0; x < 16; x++ {
			pc := board[SquareAt(x, y)]
			if pc == 0 {
				empty++
				continue
			}
			if empty > 0 {
				b.WriteString(strconv.Itoa(empty))
				empty = 0
			}
			b.WriteString(pc.String())
		}
		if empty > 0 {
			b.WriteString(strconv.Itoa(empty))
		}
		if y > 0 {
			b.WriteByte('/')
		}
	}
}
