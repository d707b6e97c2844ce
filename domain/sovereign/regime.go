package sovereign

// Castling and defection: the moves that belong to a king rather than to a piece's
// movement. Promotion to a king (coup d'état, overthrow) is a pawn move (movegen.go)
// whose effect is in Play.

// castlings appends the castlings of the unmoved king on k (rule 14, decisions 8): with
// an unmoved rook the player owns or controls on the same edge, every square between
// them empty, the king stops on any of those squares and the rook on the square next to
// it on the other side. The check conditions are tested by legalInto (two players only:
// in Royale one may castle out of, through and into check).
func (p *Position) castlings(moves []Move, k Square, mine uint16) []Move {
	onRank, onFile := edgeLines(k)
	for d := 0; d < 4; d++ {
		if (d&1 == 1 && !onRank) || (d&1 == 0 && !onFile) {
			continue // directions 1, 3 run along a rank; 0, 2 along a file
		}
		x, y := k.File(), k.Rank()
		var buf [16]Square // a fixed array: this runs at every node while the king is unmoved
		between := buf[:0]
		var rook Square
		found := false
		for {
			x, y = x+dirs[d][0], y+dirs[d][1]
			if !onBoard(x, y) {
				break
			}
			s := SquareAt(x, y)
			if p.board[s] == 0 {
				between = append(between, s)
				continue
			}
			rook, found = s, true
			break
		}
		if !found || len(between) == 0 || !p.isUnmoved(rook) {
			continue
		}
		rk := p.board[rook]
		if rk.Role() != Rook || mine&(1<<rk.Colour()) == 0 {
			continue
		}
		kc := p.board[k].Colour()
		for i, to := range between {
			rookTo := k
			if i > 0 {
				rookTo = between[i-1]
			}
			if i+1 > MaxRange || len(between)+1-i > MaxRange ||
				!p.landable(kc, k, to) || !p.landable(rk.Colour(), rook, rookTo) {
				continue
			}
			moves = append(moves, Move{from: k, to: to, flags: fStep | fCastle})
		}
	}
	return moves
}

// defections appends the defections of player pl's king on k: to each colour the player
// controls but does not own. If the king stands on a square of its new colour it must
// move off it in the same turn: one move per king move, generated after the defection
// (control changes with it: the old army turns neutral); with no such move, no defection.
func (p *Position) defections(moves []Move, pl Player, k Square) []Move {
	can := p.controls[pl] &^ (1 << p.owned[pl])
	for c := Colour(0); c < 12; c++ {
		if can&(1<<c) == 0 {
			continue
		}
		if squareColour[k] != c {
			moves = append(moves, Move{defect: c, flags: fDefect})
			continue
		}
		mid := *p
		mid.defect(pl, c)
		moves = mid.pieceMoves(moves, k, mid.board[k], mid.enemies(pl), fDefect)
	}
	return moves
}

// defect makes c player pl's owned colour and recolours its king.
func (p *Position) defect(pl Player, c Colour) {
	k := p.kings[pl]
	p.board[k] = NewPiece(c, King)
	p.owned[pl] = c
	p.updateControl()
}
