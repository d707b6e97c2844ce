package sovereign

import "math/bits"

// Royale (rulebook p.4) differs from the two-player game in what is legal and how it
// ends; everything else (control, regime change, pawns) is shared. Turn order is
// White, Ash, Slate, Black at the start, that is players 0, 1, 2, 3, whatever colours
// they come to own: [Position.Next].

// RoyaleSeats are the armies the four players own at the start, in turn order.
var RoyaleSeats = [4]Colour{White, Ash, Slate, Black}

// Next is the player who moves after pl.
func (p *Position) Next(pl Player) Player { return p.next(pl) }

// RoyaleOver reports whether a Royale game has ended: one king (or none) is left.
func (p *Position) RoyaleOver() bool {
	return p.Royale() && bits.OnesCount8(p.hasKing) <= 1
}

// mustEscape reports whether, in Royale, the player to move has a king that is not in
// check and no move (regime changes included) that leaves it out of check: the king
// escapes, the player being stalemated (rulebook p.4). moves are its pseudo-legal moves.
func (p *Position) mustEscape(moves []Move) bool {
	pl := p.turn
	if !p.hasKingOf(pl) || p.InCheck(pl) {
		return false
	}
	var child Position
	for _, m := range moves {
		child = *p
		child.Play(m)
		if k, ok := child.King(pl); ok && !child.attacked(k, child.enemies(pl)) {
			return false
		}
	}
	return true
}

func (p *Position) hasKingOf(pl Player) bool { return p.hasKing&(1<<pl) != 0 }

// Withdrawn reports whether player pl withdrew from a Royale game ([Position.Withdraw]).
func (p *Position) Withdrawn(pl Player) bool { return p.withdrawn&(1<<pl) != 0 }

// Withdraw takes player pl out of a Royale game: the player resigned while the game goes
// on. The rulebook has no such rule; this is Arbiter's (doc.go). Its king leaves the
// board, as an escaped king does, but the player will never crown another: the army it
// owned turns neutral (anyone may come to control it through its squares of colour, as
// any neutral army), its owned colour is NoColour, and its turns are skipped from now on
// (if it was to move, the next player is). The ply count does not change: a withdrawal
// is not a move. If one king or none is left, the game is over ([Position.RoyaleOver]),
// and the player stands Lost.
//
// It reports false, and changes nothing, outside Royale, for a player who withdrew
// already, and for the last player who had not.
func (p *Position) Withdraw(pl Player) bool {
	if !p.Royale() || pl >= 4 || p.Withdrawn(pl) || p.withdrawn|1<<pl == 0b1111 {
		return false
	}
	if p.hasKingOf(pl) {
		p.removeKing(pl)
	}
	p.escaped &^= 1 << pl
	p.withdrawn |= 1 << pl
	p.owned[pl] = NoColour
	if p.turn == pl {
		p.turn = p.next(pl)
	}
	p.updateControl()
	return true
}

// Result is how a game stands.
type Result uint8

const (
	Ongoing          Result = iota
	Checkmate               // two players: the player to move is checkmated
	Stalemate               // two players: the player to move has no legal move, not in check
	LastKingStanding        // Royale: at most one king is left
)

func (r Result) String() string {
	return [...]string{"ongoing", "checkmate", "stalemate", "last king standing"}[r]
}

// Standing is one player's state in the game.
type Standing uint8

const (
	Playing     Standing = iota // has a king, game on
	Interregnum                 // Royale: lost its king to a capture; may crown a new one
	Escaped                     // Royale: its king escaped; ties if the game ends so
	Won
	Tied
	Lost
	Withdrawn // Royale: withdrew while the game goes on; Lost once it ends
)

func (s Standing) String() string {
	return [...]string{"playing", "interregnum", "escaped", "won", "tied", "lost", "withdrawn"}[s]
}

// Status is the outcome so far: Result, the winner if there is one, and each player's
// standing (indexed by Player).
type Status struct {
	Result    Result
	Winner    Player
	HasWinner bool
	Standings []Standing
}

// Status says whether the game is over and how each player stands. Two players:
// checkmate (the other player wins) or stalemate (a draw, both Tied). Royale: the game
// ends when one king is left; its owner wins, a player whose king escaped and who has
// not crowned a new one ties, the others lose (rulebook p.4), a player who withdrew
// included. Draws by agreement, repetition and the like are the Game's and the match's
// business.
func (p *Position) Status() Status {
	st := Status{Standings: make([]Standing, p.players)}
	if !p.Royale() {
		var buf [512]Move
		if len(p.LegalMoves(buf[:0])) > 0 {
			return st
		}
		if p.InCheck(p.turn) {
			st.Result, st.Winner, st.HasWinner = Checkmate, p.next(p.turn), true
			st.Standings[p.turn], st.Standings[st.Winner] = Lost, Won
			return st
		}
		st.Result, st.Standings[0], st.Standings[1] = Stalemate, Tied, Tied
		return st
	}
	over := p.RoyaleOver()
	if over {
		st.Result = LastKingStanding
	}
	for pl := Player(0); pl < 4; pl++ {
		switch {
		case p.Withdrawn(pl) && over:
			st.Standings[pl] = Lost
		case p.Withdrawn(pl):
			st.Standings[pl] = Withdrawn
		case p.hasKingOf(pl) && over:
			st.Standings[pl], st.Winner, st.HasWinner = Won, pl, true
		case p.hasKingOf(pl):
			st.Standings[pl] = Playing
		case p.Escaped(pl) && over:
			st.Standings[pl] = Tied
		case p.Escaped(pl):
			st.Standings[pl] = Escaped
		case over:
			st.Standings[pl] = Lost
		default:
			st.Standings[pl] = Interregnum
		}
	}
	return st
}
