package chess

import "strings"

// Standard Algebraic Notation (FIDE Laws, Appendix C): "Nf3", "exd5", "R1e2", "Qh4xe1",
// "e8=Q", "O-O-O", with "+" for check and "#" for checkmate; a bughouse drop is written
// as lichess writes it, role letter, "@" and square: "N@f3", "P@e4+".

// SAN writes m, a legal move of p, in Standard Algebraic Notation.
func (p Position) SAN(m Move) string { return p.SANWith(m, Restrictions{}) }

// SANWith is SAN for a move legal under r: the origin is disambiguated among the moves
// r allows (a granted move may need it where classic chess would not).
func (p Position) SANWith(m Move, r Restrictions) string {
	var buf [16]byte // "Qh4xe1+" and the like: the string is the one allocation
	return string(p.appendSAN(buf[:0], m, &r))
}

// AppendSAN appends SAN(m) to b: a caller can write it into memory of its own, or with
// other text into one string (a move's SAN and the FEN after it).
func (p Position) AppendSAN(b []byte, m Move) []byte { return p.appendSAN(b, m, &Restrictions{}) }

func (p *Position) appendSAN(b []byte, m Move, r *Restrictions) []byte {
	from, to := m.From(), m.To()
	var role Role
	if from < NoSquare {
		role = p.roles[from]
	}
	switch {
	case m.IsDrop():
		b = append(b, m.UCI()...) // "N@f3", "P@e4"
	case m.IsCastling() && to.File() == 6:
		b = append(b, "O-O"...)
	case m.IsCastling():
		b = append(b, "O-O-O"...)
	case role == Pawn:
		if from.File() != to.File() {
			b = append(b, 'a'+byte(from.File()), 'x')
		}
		b = append(b, to.String()...)
		if promo := m.Promotion(); promo != NoRole {
			b = append(b, '=', promo.letter())
		}
	default:
		b = append(b, role.letter())
		b = append(b, p.disambiguation(m, r)...)
		if p.roles[to] != NoRole {
			b = append(b, 'x')
		}
		b = append(b, to.String()...)
	}
	child := *p
	child.Play(m)
	if child.InCheck() {
		if !child.hasLegalMove(&classic) {
			b = append(b, '#')
		} else {
			b = append(b, '+')
		}
	}
	return b
}

// disambiguation is the file, rank or square of m's origin, as little of it as tells m
// apart from the other legal moves of the same role to the same square.
func (p *Position) disambiguation(m Move, r *Restrictions) string {
	// Only the pieces of m's role and side can be mistaken for it: only theirs are generated.
	var buf [64]Move
	return p.disambiguate(m, p.generateFrom(buf[:0], r, p.byRole[p.roles[m.From()]]&p.byColor[p.turn], false))
}

// disambiguate is disambiguation among moves, the legal moves or those of m's kind of piece.
func (p *Position) disambiguate(m Move, moves []Move) string {
	from := m.From()
	sameFile, sameRank, others := false, false, false
	for _, o := range moves {
		f := o.From()
		if o.To() != m.To() || f == from || o.IsDrop() || p.roles[f] != p.roles[from] || o.IsCastling() {
			continue
		}
		others = true
		sameFile = sameFile || f.File() == from.File()
		sameRank = sameRank || f.Rank() == from.Rank()
	}
	switch {
	case !others:
		return ""
	case !sameFile:
		return from.String()[:1]
	case !sameRank:
		return from.String()[1:]
	}
	return from.String()
}

// parseSAN finds the move of legal that s names. It is lenient where nothing is lost:
// "0-0" for castling, a missing or superfluous "x", annotations ("!?"), and a
// promotion without "=".
func (p *Position) parseSAN(s string, legal []Move) (Move, error) {
	malformed := &MoveError{s, ErrMalformedMove}
	t := strings.TrimRight(s, "+#!?")
	if t == "" {
		return 0, malformed
	}
	if castle := strings.ReplaceAll(t, "0", "O"); castle == "O-O" || castle == "O-O-O" {
		for _, m := range legal {
			if m.IsCastling() && (m.To().File() == 6) == (castle == "O-O") {
				return m, nil
			}
		}
		return 0, &MoveError{s, ErrIllegalMove}
	}
	role := Pawn
	if strings.IndexByte("NBRQK", t[0]) >= 0 {
		role, t = roleFromLetter(t[0]), t[1:]
	}
	promo := NoRole
	if n := len(t); n >= 2 && role == Pawn && strings.IndexByte("NBRQ", t[n-1]) >= 0 {
		promo, t = roleFromLetter(t[n-1]), strings.TrimSuffix(t[:n-1], "=")
	}
	if len(t) < 2 {
		return 0, malformed
	}
	to, ok := ParseSquare(t[len(t)-2:])
	if !ok {
		return 0, malformed
	}
	t = strings.TrimSuffix(t[:len(t)-2], "x")
	file, rank := -1, -1
	if len(t) > 0 && t[0] >= 'a' && t[0] <= 'h' {
		file, t = int(t[0]-'a'), t[1:]
	}
	if len(t) > 0 && t[0] >= '1' && t[0] <= '8' {
		rank, t = int(t[0]-'1'), t[1:]
	}
	if t != "" {
		return 0, malformed
	}
	found := Move(0)
	for _, m := range legal {
		f := m.From()
		if m.To() != to || m.IsCastling() || m.IsDrop() || p.roles[f] != role || m.Promotion() != promo ||
			(file >= 0 && f.File() != file) || (rank >= 0 && f.Rank() != rank) {
			continue
		}
		if found != 0 {
			return 0, &MoveError{s, ErrAmbiguousMove}
		}
		found = m
	}
	if found == 0 {
		return 0, &MoveError{s, ErrIllegalMove}
	}
	return found, nil
}
