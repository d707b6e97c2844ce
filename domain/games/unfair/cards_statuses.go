package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The statuses group: the four cards that each put a status on a piece, as the rules
// describe the group (statuses.go says what each status does). The antidote, which lifts
// statuses, is in the extra group.
var statusCards = map[string]plays{
	Poison:   statusOn(ours, Poison, "no piece of yours can be poisoned"),
	Sleep:    statusOn(theirs, Sleep, "no enemy piece can fall asleep"),
	Shield:   statusOn(ours, Shield, "no piece of yours can be shielded"),
	Dynamite: statusOn(anyones, Dynamite, "no piece can take dynamite"),
}

// statusOn is a card putting a status of kind on a piece of whose (not a king) that does
// not carry one already.
func statusOn(whose int, kind, none string) plays {
	return aiming(whose, func(s *State, sq chess.Square, pc chess.Piece) bool {
		id, _ := s.Pos.PieceID(sq)
		return pc.Role != chess.King && !s.has(id, kind)
	}, func(f *fold, seat int, sq chess.Square) { f.applyStatus(seat, sq, kind) }, none)
}
