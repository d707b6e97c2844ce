package chess

import "strings"

// UCI notation: from square, to square, promotion letter ("e2e4", "e7e8q"); castling
// is the king's move ("e1g1"); a drop is role, "@", square ("N@f3"). Move.UCI writes it.

// parseUCI splits a UCI move into its parts; ok is false if s is not UCI-shaped.
func parseUCI(s string) (from, to Square, promo Role, ok bool) {
	if len(s) != 4 && len(s) != 5 {
		return
	}
	if from, ok = ParseSquare(s[:2]); !ok {
		return
	}
	if to, ok = ParseSquare(s[2:4]); !ok {
		return
	}
	if len(s) == 5 {
		promo = roleFromLetter(s[4])
		if promo < Knight || promo > Queen {
			return from, to, NoRole, false
		}
	}
	return from, to, promo, true
}

// ParseMove reads a move of the side to move in UCI ("g1f3", "e7e8q", "e1g1") or SAN
// ("Nf3", "e8=Q+", "O-O"), or a drop in either ("N@f3", "P@e4+"). The error is a
// *MoveError wrapping ErrMalformedMove when s is neither, ErrIllegalMove when it names
// no legal move (for a drop, the reason: see DropMove), ErrAmbiguousMove when a SAN
// matches several.
func (p Position) ParseMove(s string) (Move, error) {
	return p.ParseMoveWith(s, Restrictions{})
}

// ParseMoveWith is ParseMove under the card games' restrictions.
func (p Position) ParseMoveWith(s string, r Restrictions) (Move, error) {
	if strings.IndexByte(s, '@') >= 0 {
		return p.parseDrop(s, &r)
	}
	if from, to, promo, ok := parseUCI(s); ok {
		// Only the piece on from can make the move: its moves are all that is generated.
		var buf [64]Move
		for _, m := range p.generateFrom(buf[:0], &r, from.bb(), false) {
			if m.From() == from && m.To() == to && m.Promotion() == promo {
				return m, nil
			}
		}
		return 0, &MoveError{s, ErrIllegalMove}
	}
	if s == "0000" {
		return 0, &MoveError{s, ErrIllegalMove}
	}
	var buf [256]Move
	return p.parseSAN(s, p.generate(buf[:0], &r))
}
