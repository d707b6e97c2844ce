package unfair

import "github.com/arbiter-games/arbiter/domain/chess"

// The statuses group: cards that put a status on a piece or lift them (statuses.go says
// what each status does).
var statusCards = map[string]plays{
	Poison:     statusOn(ours, Poison, "no piece of yours can be poisoned"),
	Sleep:      statusOn(theirs, Sleep, "no enemy piece can fall asleep"),
	Shield:     statusOn(ours, Shield, "no piece of yours can be shielded"),
	Dynamite:   statusOn(anyones, Dynamite, "no piece can take dynamite"),
	"antidote": aiming(ours, carriesStatus, cure, "none of your pieces has a status"),
}

// statusOn is a card putting a status of kind on a piece of whose (not a king) that does
// not carry one already.
func statusOn(whose int, kind, none string) plays {
	return aiming(whose, func(s *State, sq chess.Square, pc chess.Piece) bool {
		id, _ := s.Pos.PieceID(sq)
		return pc.Role != chess.King && !s.has(id, kind)
	}, func(f *fold, seat int, sq chess.Square) { f.applyStatus(seat, sq, kind) }, none)
}

func carriesStatus(s *State, sq chess.Square, _ chess.Piece) bool {
	id, _ := s.Pos.PieceID(sq)
	return len(s.statusesOf(id)) > 0
}

// cure lifts every status of the piece on sq, oldest first.
func cure(f *fold, _ int, sq chess.Square) {
	id, _ := f.Pos.PieceID(sq)
	for _, st := range f.statusesOf(id) {
		f.endStatus(st, "antidote")
	}
}
