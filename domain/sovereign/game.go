package sovereign

import (
	"errors"
	"slices"
	"strings"
)

// Game is a two-player or Royale game: a start position, the moves played, and what the
// history decides. "Unless otherwise stated, all rules of traditional chess apply": a
// position repeated three times (same board, player to move, owned colours and castling
// rights) may be claimed a draw and five times is one; so are fifty moves by each player
// without a capture, a pawn move or a regime change (claimable at 100 plies with two
// players, 200 in Royale: [Game.FiftyMovePlies]; automatic at 150, two players only). Insufficient material is not applied: with neutral armies that any player may
// come to control it is not a question one can answer from the board.
type Game struct {
	start, pos Position
	moves      []Move
	keys       []string // the repetition key after each ply, start included
	quiet      int      // plies since the last capture, pawn move or regime change
	withdrawn  []Withdrawal
	// Opening is the two-player keep-or-refuse choice of the first move.
	Opening Opening
}

// ErrChoicePending is returned by Play when the first move waits for the keep-or-refuse choice.
var ErrChoicePending = errors.New("the first move waits for the other player to keep or refuse it")

// NewGame starts a game from pos; opening is the two-player opening (ignored in Royale).
func NewGame(pos Position, opening Opening) *Game {
	return &Game{start: pos, pos: pos, keys: []string{repetitionKey(pos)}, Opening: opening}
}

// Position is the current position.
func (g *Game) Position() Position { return g.pos }

// Start is the start position.
func (g *Game) Start() Position { return g.start }

// Moves are the moves played, in order.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// ChoicePending reports whether a two-player game waits for the first move to be kept or refused.
func (g *Game) ChoicePending() bool {
	return !g.pos.Royale() && g.start.Ply() == 0 && len(g.moves) == 1 && !g.Opening.Decided
}

// Play plays the move written s (the move notation); it returns a *MoveError if s is
// malformed or illegal, ErrChoicePending while the first move waits for the choice.
func (g *Game) Play(s string) (Move, error) {
	if g.ChoicePending() {
		return Move{}, ErrChoicePending
	}
	m, err := g.pos.ParseMove(s)
	if err != nil {
		return m, err
	}
	g.play(m)
	return m, nil
}

func (g *Game) play(m Move) {
	reset := m.Promotion() != NoRole || m.IsEscape()
	if _, d := m.Defection(); d {
		reset = true
	}
	if m.HasStep() && !m.IsCastling() && (g.pos.PieceAt(m.To()) != 0 || g.pos.PieceAt(m.From()).Role() == Pawn) {
		reset = true
	}
	g.pos.Play(m)
	g.moves = append(g.moves, m)
	g.keys = append(g.keys, repetitionKey(g.pos))
	if reset {
		g.quiet = 0
	} else {
		g.quiet++
	}
}

// Withdraw takes player pl out of a Royale game ([Position.Withdraw]) and reports
// whether it did. A withdrawal is not a move: Moves does not list it. Like an escape it
// is irreversible, so it starts the fifty-move count again, and no position before it
// can occur again.
func (g *Game) Withdraw(pl Player) bool {
	if !g.pos.Withdraw(pl) {
		return false
	}
	g.keys = append(g.keys, repetitionKey(g.pos))
	g.quiet = 0
	g.withdrawn = append(g.withdrawn, Withdrawal{Player: pl, After: len(g.moves)})
	return true
}

// Withdrawal is one player's withdrawal from a Royale game, and when: after how many of
// the moves. With the start and the moves, the withdrawals are the game's whole history:
// a game written down (a stored state) is read back by playing them again in that order.
type Withdrawal struct {
	Player Player
	After  int // the moves played before it
}

// Withdrawals are the withdrawals made, in order.
func (g *Game) Withdrawals() []Withdrawal { return slices.Clone(g.withdrawn) }

// Repetitions is how many times the current position has occurred, this time included.
func (g *Game) Repetitions() int {
	n, cur := 0, g.keys[len(g.keys)-1]
	for _, k := range g.keys {
		if k == cur {
			n++
		}
	}
	return n
}

// ClaimableDraw reports whether the player to move may claim a draw: threefold
// repetition or fifty moves each without a capture, pawn move or regime change.
func (g *Game) ClaimableDraw() bool {
	return g.Repetitions() >= 3 || g.quiet >= g.FiftyMovePlies()
}

// QuietPlies is the number of plies since the last capture, pawn move, regime change,
// escape or withdrawal.
func (g *Game) QuietPlies() int { return g.quiet }

// FiftyMovePlies is how many quiet plies make fifty moves by each player still playing:
// 100 with two players, 200 in Royale, 50 fewer for each player who withdrew (a
// withdrawal starts the count again, so every ply counted is one of theirs).
func (g *Game) FiftyMovePlies() int {
	n := g.pos.Players()
	for pl := range Player(g.pos.Players()) {
		if g.pos.Withdrawn(pl) {
			n--
		}
	}
	return 50 * n
}

// AutomaticDraw reports whether the history alone ends a two-player game in a draw:
// fivefold repetition or seventy-five moves each without a capture, pawn move or regime
// change.
func (g *Game) AutomaticDraw() bool {
	return !g.pos.Royale() && (g.Repetitions() >= 5 || g.quiet >= 150)
}

// repetitionKey is the notation without the ply count.
func repetitionKey(p Position) string {
	s := p.Notation()
	return s[:strings.LastIndexByte(s, ' ')]
}
