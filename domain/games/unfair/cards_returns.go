package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The returns group: pieces that left the board come back, as new pieces (a new ID, no
// status). A piece is taken once it has left the board in any way; it comes back once.
var returnCards = map[string]plays{
	"pawn-return":   comeback(chess.Pawn, 1),
	"knight-return": comeback(chess.Knight, 0),
	"bishop-return": comeback(chess.Bishop, 0),
	"rook-return":   comeback(chess.Rook, 0),
	"queen-return":  comeback(chess.Queen, 0),
	"resurrection":  resurrection,
	"levy":          levy,
	"mercenary":     mercenary,
}

// lastTaken is the index of the last piece of taken whose role pick accepts, or -1.
func lastTaken(taken []Taken, pick func(chess.Role) bool) int {
	for i := len(taken) - 1; i >= 0; i-- {
		if pick(taken[i].Role) {
			return i
		}
	}
	return -1
}

// is accepts one role.
func is(r chess.Role) func(chess.Role) bool { return func(x chess.Role) bool { return x == r } }

// comeback is a card bringing back the last taken piece of role onto seat's rank-th rank
// (0 the first).
func comeback(role chess.Role, rank int) plays {
	return func(s *State, seat int) ([]play, string) {
		i := lastTaken(s.Sides[seat].Taken, is(role))
		if i < 0 {
			return nil, "no " + role.String() + " of yours has been taken"
		}
		return enlist(s, seat, seat, i, rankBB(rankOf(colour(seat), rank)))
	}
}

// enlist lists the plays bringing the piece taken[i] of seat owner back for seat, on an
// empty square of where that seat may enter.
func enlist(s *State, seat, owner, i int, where chess.Bitboard) ([]play, string) {
	var out []play
	for _, sq := range s.landing(where).Squares() {
		out = append(out, play{targets: names(sq), do: func(f *fold) { f.revive(seat, owner, i, sq) }})
	}
	if len(out) == 0 {
		return nil, "there is no empty square for it to come back to"
	}
	return out, ""
}

// revive puts the taken piece Sides[owner].Taken[i] back on sq, for seat, as a new piece.
func (f *fold) revive(seat, owner, i int, sq chess.Square) {
	side := &f.Sides[owner]
	role := side.Taken[i].Role
	side.Taken = without(side.Taken, i)
	_, err := f.Pos.Put(sq, chess.Piece{Color: colour(seat), Role: role})
	must(err)
}

// resurrection brings back the last piece of yours taken: a pawn on your second rank,
// another piece on your first two.
func resurrection(s *State, seat int) ([]play, string) {
	taken := s.Sides[seat].Taken
	if len(taken) == 0 {
		return nil, "no piece of yours has been taken"
	}
	c := colour(seat)
	where := rankBB(rankOf(c, 1))
	if taken[len(taken)-1].Role != chess.Pawn {
		where |= rankBB(rankOf(c, 0))
	}
	return enlist(s, seat, seat, len(taken)-1, where)
}

// levy brings back two taken pawns onto two empty squares of your second rank. Targets:
// the two squares, in either order.
func levy(s *State, seat int) ([]play, string) {
	pawns := 0
	for _, t := range s.Sides[seat].Taken {
		if t.Role == chess.Pawn {
			pawns++
		}
	}
	if pawns < 2 {
		return nil, "fewer than two pawns of yours have been taken"
	}
	squares := s.landing(rankBB(rankOf(colour(seat), 1))).Squares()
	var out []play
	for i, a := range squares {
		for _, b := range squares[i+1:] {
			out = append(out, play{targets: names(a, b), do: func(f *fold) {
				for _, sq := range []chess.Square{a, b} {
					f.revive(seat, seat, lastTaken(f.Sides[seat].Taken, is(chess.Pawn)), sq)
				}
			}})
		}
	}
	if len(out) == 0 {
		return nil, "your second rank has no two empty squares"
	}
	return out, ""
}

// mercenary brings the last enemy piece other than a pawn that left the board to your
// side, on your first rank.
func mercenary(s *State, seat int) ([]play, string) {
	i := lastTaken(s.Sides[1-seat].Taken, func(r chess.Role) bool { return r != chess.Pawn })
	if i < 0 {
		return nil, "no enemy piece other than a pawn has left the board"
	}
	return enlist(s, seat, 1-seat, i, rankBB(rankOf(colour(seat), 0)))
}
