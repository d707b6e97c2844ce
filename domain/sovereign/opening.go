package sovereign

// Seat is one of the two seats of a two-player match, 0 or 1, as the match knows them
// before anyone owns an army.
type Seat uint8

// Opening is the two-player start (rulebook, "Starting the Game"): a seat chosen at
// random plays White's first move, then the other seat keeps that move (and plays White
// from then on) or refuses it (and plays Black, the first mover playing White). Black
// moves next either way: the choice names the players, it does not change the position.
// The random choice arrives as data (a bit of the match seed), so the package stays
// pure; the engine records the first mover and the choice as events.
type Opening struct {
	FirstMover Seat // who plays White's first move
	Decided    bool // the other seat has chosen
	Kept       bool // ... and kept the move (it plays White)
}

// NewOpening chooses the first mover from a random bit of the caller's.
func NewOpening(randomBit uint64) Opening { return Opening{FirstMover: Seat(randomBit & 1)} }

// Chooser is the seat that keeps or refuses the first move.
func (o Opening) Chooser() Seat { return 1 - o.FirstMover }

// Choose records the chooser's decision: keep (take White) or refuse (take Black).
func (o *Opening) Choose(keep bool) { o.Decided, o.Kept = true, keep }

// SeatOf is the seat playing player pl (0 White's side, 1 Black's) once the choice is made.
func (o Opening) SeatOf(pl Player) (Seat, bool) {
	if !o.Decided {
		return 0, false
	}
	white := o.FirstMover
	if o.Kept {
		white = o.Chooser()
	}
	if pl == 0 {
		return white, true
	}
	return 1 - white, true
}
