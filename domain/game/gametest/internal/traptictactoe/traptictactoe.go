// Package traptictactoe is a toy game with a secret: tic-tac-toe where each seat is dealt,
// from the match's seed, a trap cell that only it knows. A seat that plays on the other's
// unsprung trap loses its move: the trap is revealed and the cell burned, so that nobody
// may play there. It is the proof that a game plugs into Arbiter through its own folder:
// it passes gametest here, and cmd/arbiter's end-to-end test hosts it from
// domain/games/traptictactoe/ with its schema file and one line of wiring.
package traptictactoe

import (
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/visibility"
)

// ID is the game's API name.
const ID = "TRAP_TICTACTOE"

// Rules is trap tic-tac-toe. Seat 0 plays X and moves first, seat 1 plays O.
type Rules struct{}

var (
	_ game.Rules   = Rules{}
	_ game.Sighted = Rules{}
	_ game.Auditor = Rules{}
	_ game.Viewed  = Rules{}
)

// Cells are the board's cells, a1 to c3, in the order of State.Marks: files a to c,
// rank 1 first.
var Cells = [9]string{"a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"}

// lines are the rows, columns and diagonals, by index in Cells.
var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

// State is a match: the marks by cell (0 empty, 1 X, 2 O), each seat's trap, which traps
// have sprung, the burned cells and the seat to move.
type State struct {
	Marks  [9]int
	Traps  [2]string
	Sprung [2]bool
	Burned []string
	Turn   int
}

// The events: TrapSet deals a seat its trap (only that seat sees it), MarkPlaced and
// TrapSprung are the two outcomes of a move.
type (
	TrapSet struct {
		Seat int    `json:"seat"`
		Cell string `json:"cell,omitempty"`
	}
	MarkPlaced struct {
		Seat int    `json:"seat"`
		Cell string `json:"cell"`
	}
	TrapSprung struct {
		Seat  int    `json:"seat"`  // who stepped on it
		Owner int    `json:"owner"` // whose trap it was
		Cell  string `json:"cell"`
	}
)

func (TrapSet) EventType() string    { return "TrapSet" }
func (MarkPlaced) EventType() string { return "MarkPlaced" }
func (TrapSprung) EventType() string { return "TrapSprung" }

// Shadow is what the other seat and spectators learn of a trap dealt: whose it is.
func (e TrapSet) Shadow() game.Event { return TrapSet{Seat: e.Seat} }

// Info names the game.
func (Rules) Info() game.Info {
	return game.Info{ID: ID, Name: "Trap tic-tac-toe", RulesVersion: "1"}
}

// Plan: two seats, each its own team. The game takes no options.
func (Rules) Plan(opts game.Options) (game.Plan, error) {
	for k := range opts {
		return game.Plan{}, game.Reject(game.BadInput, "trap tic-tac-toe takes no option %q", k)
	}
	return game.Plan{Seats: 2, Teams: []int{0, 1}}, nil
}

// Setup deals each seat its trap, drawn from the seed.
func (r Rules) Setup(s game.Setup) ([]game.Emitted, error) {
	if _, err := r.Plan(s.Options); err != nil {
		return nil, err
	}
	out := make([]game.Emitted, 2)
	for seat := range 2 {
		sum := sha256.Sum256(fmt.Appendf(slices.Clone(s.Seed), "/trap/%d", seat))
		e := TrapSet{Seat: seat, Cell: Cells[int(sum[0])%len(Cells)]}
		out[seat] = game.Emitted{Event: e, Visibility: r.Sight(e)}
	}
	return out, nil
}

// Sight: a trap dealt is its seat's alone; a move is public.
func (Rules) Sight(e game.Event) visibility.Visibility {
	if t, ok := e.(TrapSet); ok {
		return visibility.Seat(t.Seat)
	}
	return visibility.Public
}

// Decide plays a move: a mark on a free cell, or a sprung trap when the cell is the
// other seat's unsprung trap.
func (Rules) Decide(st game.State, a game.Action) ([]game.Emitted, error) {
	s, _ := st.(State)
	mv, ok := a.Do.(game.Move)
	if !ok {
		return nil, game.Unsupported("Trap tic-tac-toe", a.Do, "moves: a cell from a1 to c3")
	}
	if a.Seat != s.Turn || over(s) {
		return nil, game.Reject(game.NotYourTurn, "it is not seat %d's move", a.Seat)
	}
	i := slices.Index(Cells[:], mv.Notation)
	switch {
	case i < 0:
		return nil, game.Reject(game.BadInput, "%q is not a cell: cells are a1 to c3", mv.Notation)
	case s.Marks[i] != 0 || slices.Contains(s.Burned, mv.Notation):
		return nil, game.Reject(game.IllegalMove, "%s is taken", mv.Notation)
	}
	if other := 1 - a.Seat; s.Traps[other] == mv.Notation && !s.Sprung[other] {
		return game.PublicEvents(TrapSprung{Seat: a.Seat, Owner: other, Cell: mv.Notation}), nil
	}
	return game.PublicEvents(MarkPlaced{Seat: a.Seat, Cell: mv.Notation}), nil
}

// Evolve applies an event.
func (Rules) Evolve(st game.State, e game.Event) game.State {
	s, _ := st.(State)
	switch e := e.(type) {
	case TrapSet:
		s.Traps[e.Seat] = e.Cell
	case MarkPlaced:
		s.Marks[slices.Index(Cells[:], e.Cell)] = e.Seat + 1
		s.Turn = 1 - e.Seat
	case TrapSprung:
		s.Sprung[e.Owner] = true
		s.Burned = append(slices.Clone(s.Burned), e.Cell)
		s.Turn = 1 - e.Seat
	default:
		panic(fmt.Sprintf("traptictactoe: no event %T", e))
	}
	return s
}

// Audit checks that a move's event is what Decide records for it. The traps dealt are
// checked by the verifier, which deals them again from the seed.
func (r Rules) Audit(before game.State, e game.Event) error {
	var seat int
	var cell string
	switch e := e.(type) {
	case TrapSet:
		return nil
	case MarkPlaced:
		seat, cell = e.Seat, e.Cell
	case TrapSprung:
		seat, cell = e.Seat, e.Cell
	}
	evs, err := r.Decide(before, game.Action{Seat: seat, Do: game.Move{Notation: cell}})
	if err != nil {
		return fmt.Errorf("seat %d's move %s is refused: %w", seat, cell, err)
	}
	if evs[0].Event != e {
		return fmt.Errorf("recorded %+v, the rules record %+v", e, evs[0].Event)
	}
	return nil
}

// Status: the seat to move, until a line of three or a board with no free cell.
func (Rules) Status(st game.State) game.Status {
	s, _ := st.(State)
	if w := winner(s); w >= 0 {
		return game.Status{Phase: "play", Over: true, Outcome: game.Outcome{Winners: []int{w}, Reason: "three in a row"}}
	}
	if over(s) {
		return game.Status{Phase: "play", Over: true, Outcome: game.Outcome{Winners: []int{}, Reason: "no free cell"}}
	}
	return game.Status{Phase: "play", ToAct: []int{s.Turn}}
}

// Events is the codec of the game's events.
func (Rules) Events() *game.Codec {
	c := game.NewCodec()
	game.Register[TrapSet](c, 1)
	game.Register[MarkPlaced](c, 1)
	game.Register[TrapSprung](c, 1)
	return c
}

// free lists the cells a seat may play: neither marked nor burned.
func free(s State) []string {
	var out []string
	for i, c := range Cells {
		if s.Marks[i] == 0 && !slices.Contains(s.Burned, c) {
			out = append(out, c)
		}
	}
	return out
}

// winner is the seat with a line of three, or -1.
func winner(s State) int {
	for _, l := range lines {
		if m := s.Marks[l[0]]; m != 0 && m == s.Marks[l[1]] && m == s.Marks[l[2]] {
			return m - 1
		}
	}
	return -1
}

// over says the game has ended.
func over(s State) bool { return winner(s) >= 0 || len(free(s)) == 0 }
