package magicchess

import (
	"github.com/arbiter-games/arbiter/domain/chess"
)

// The board cards: each is the turn, and changes the board at once.
var boardCards = map[string]plays{
	"teleport": func(s *State, seat int) ([]play, string) {
		var out []play
		for _, from := range s.pieces(colour(seat), notKing) {
			pc, _ := s.Pos.PieceAt(from)
			if !s.free(from) {
				continue
			}
			for _, to := range s.landing(^chess.Bitboard(0)).Squares() {
				if mayStand(pc, to) {
					out = append(out, relocation(from, to))
				}
			}
		}
		return out, "none of your pieces may move"
	},
	"swap": pairs(func(s *State, seat int) chess.Color { return colour(seat) }, true, "you have no two pieces that may trade squares"),
	"banish": func(s *State, seat int) ([]play, string) {
		var out []play
		for _, sq := range s.pieces(colour(seat).Other(), only(chess.Pawn)) {
			if s.takable(sq) {
				out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome { s.Pos.Remove(sq); return resolved }})
			}
		}
		return out, "no enemy pawn may be taken"
	},
	"repel": func(s *State, seat int) ([]play, string) {
		them := colour(seat).Other()
		var out []play
		for _, from := range s.pieces(them, notKing) {
			pc, _ := s.Pos.PieceAt(from)
			to, ok := offset(from, 0, -ahead(them))
			if ok && s.landing(chess.BB(to)) != 0 && (pc.Role != chess.Pawn || to.Rank() != rankOf(them, 0)) {
				p := relocation(from, to)
				p.targets = names(from)
				out = append(out, p)
			}
		}
		return out, "no enemy piece has an empty square behind it"
	},
	"ascend": func(s *State, seat int) ([]play, string) {
		us := colour(seat)
		var out []play
		for _, sq := range s.pieces(us, only(chess.Pawn)) {
			if r := sq.Rank(); r == rankOf(us, 5) || r == rankOf(us, 6) {
				out = append(out, becoming(sq, chess.Queen))
			}
		}
		return out, "none of your pawns stands on its sixth or seventh rank"
	},
	"reinforce": summoning(chess.Pawn, 1, func(*State, int) bool { return true }, "your second rank has no empty square you may enter"),
	"resurrect": summoning(chess.Knight, 0, func(s *State, seat int) bool {
		return s.Pos.Pieces(colour(seat), chess.Knight).Count() < 2
	}, "you have two knights, or no empty square on your first rank"),
	"transmute": func(s *State, seat int) ([]play, string) {
		var out []play
		for _, sq := range s.pieces(colour(seat), only(chess.Knight, chess.Bishop)) {
			pc, _ := s.Pos.PieceAt(sq)
			out = append(out, becoming(sq, chess.Knight+chess.Bishop-pc.Role))
		}
		return out, "you have no knight nor bishop"
	},
	"desert": func(s *State, seat int) ([]play, string) {
		us := colour(seat)
		var out []play
		for _, sq := range s.pieces(us.Other(), only(chess.Pawn)) {
			if halfOf(us).Has(sq) && s.takable(sq) {
				out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome {
					must(s.Pos.SetColor(sq, us))
					return resolved
				}})
			}
		}
		return out, "no enemy pawn you may take stands in your half"
	},
	"confusion": pairs(func(s *State, seat int) chess.Color { return colour(seat).Other() }, false, "the opponent has no two pieces that may trade squares"),
	"recall": func(s *State, seat int) ([]play, string) {
		us := colour(seat)
		var out []play
		for _, from := range s.pieces(us, func(pc chess.Piece) bool { return pc.Role != chess.King && pc.Role != chess.Pawn }) {
			if !s.free(from) {
				continue
			}
			for _, to := range s.landing(rankBB(rankOf(us, 0))).Squares() {
				out = append(out, relocation(from, to))
			}
		}
		return out, "no piece of yours may return to your first rank"
	},
	"echo": func(s *State, seat int) ([]play, string) {
		return []play{{targets: []string{}, do: echo}}, ""
	},
}

// relocation is the play that carries the piece on from to the empty square to.
func relocation(from, to chess.Square) play {
	return play{targets: names(from, to), do: func(s *State, _ int) outcome {
		must(s.Pos.Relocate(from, to))
		return resolved
	}}
}

// becoming is the play that turns the piece on sq into role r.
func becoming(sq chess.Square, r chess.Role) play {
	return play{targets: names(sq), do: func(s *State, _ int) outcome {
		must(s.Pos.SetRole(sq, r))
		return resolved
	}}
}

// summoning builds the plays of a card that puts a new piece of role r of its player on
// an empty square of its player's rank n (0: first), when ok allows it.
func summoning(r chess.Role, n int, ok func(s *State, seat int) bool, why string) plays {
	return func(s *State, seat int) ([]play, string) {
		us := colour(seat)
		if !ok(s, seat) {
			return none(why)
		}
		var out []play
		for _, sq := range s.landing(rankBB(rankOf(us, n))).Squares() {
			out = append(out, play{targets: names(sq), do: func(s *State, _ int) outcome {
				_, err := s.Pos.Put(sq, chess.Piece{Color: us, Role: r})
				must(err)
				return resolved
			}})
		}
		return out, why
	}
}

// pairs builds the plays of a card that makes two pieces (not kings) of the side whose
// gives trade squares, each pair once (board order); own says they must be free to move.
func pairs(whose func(s *State, seat int) chess.Color, own bool, why string) plays {
	return func(s *State, seat int) ([]play, string) {
		sqs := s.pieces(whose(s, seat), notKing)
		var out []play
		for i, a := range sqs {
			for _, b := range sqs[i+1:] {
				pa, _ := s.Pos.PieceAt(a)
				pb, _ := s.Pos.PieceAt(b)
				if pa.Role == pb.Role || !mayStand(pa, b) || !mayStand(pb, a) || own && (!s.free(a) || !s.free(b)) {
					continue
				}
				out = append(out, play{targets: names(a, b), do: func(s *State, _ int) outcome {
					must(s.Pos.Exchange(a, b))
					return resolved
				}})
			}
		}
		return out, why
	}
}

// echo lays again, for its player, the last card laid in the game on the same targets.
// It is how a loop can arise (rule 8, "sin bucles"): Echo repeats "the last card laid",
// and when that card is an Echo, the Echo it repeats reads "the last card laid" at that
// moment, which is the Echo being resolved: the resolution would call itself without
// end. The rules detect it as a chain of resolutions that meets a card already being
// resolved (here, always Echo on Echo), annul the card and keep the position as it was
// before it. An echoed card that is not a card of the turn, or that its player could not
// lay on those targets, is discarded without effect.
func echo(s *State, seat int) outcome {
	if len(s.Laid) == 0 {
		return outcome{result: NoEffect}
	}
	last := s.Laid[len(s.Laid)-1]
	if last.Card == "echo" {
		return outcome{result: Annulled, why: "Echo repeating Echo would repeat without end"}
	}
	e := byID[last.Card]
	p := effects[last.Card]
	if e.Window != Before || p == nil {
		return outcome{result: NoEffect}
	}
	all, _ := p(s, seat)
	q, ok := find(all, last.Targets)
	if !ok {
		return outcome{result: NoEffect}
	}
	f := *s
	if o := q.do(&f, seat); o.result == Annulled || f.kingAttacked(seat) {
		return outcome{result: NoEffect}
	}
	return q.do(s, seat)
}
