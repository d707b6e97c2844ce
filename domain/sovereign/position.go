package sovereign

// Player is a seat at the board, numbered from 0: in the two-player game player 0 moves
// first (White's army at the start) and player 1 second; in Royale 0..3 are White, Ash,
// Slate and Black at the start, and keep that turn order whatever they come to own.
type Player uint8

// Position is a Sovereign Chess position. It is a value (under a kilobyte): copying it is
// how a move is tried. The zero Position is not a position; make one with
// [StartPosition], [RoyaleStartPosition] or [Parse].
type Position struct {
	board   [256]Piece
	ids     [256]PieceID
	unmoved [4]uint64 // castling: squares whose rook or king has not moved (a bit set)
	kings   [4]Square // each player's king square, valid where hasKing has the player's bit
	owned   [4]Colour // each player's owned colour (the colour of its king)
	hasKing uint8
	escaped uint8 // Royale: players whose king escaped, until they crown a new one
	// Royale: players who withdrew (resigned while the game went on): no king, no army,
	// no turn, for the rest of the game. Their owned colour is NoColour.
	withdrawn uint8
	players   uint8 // 2, or 4 for Royale
	turn      Player
	ply       int
	// kingTakes is the two-player generator before rulebook-2017.3, kept to replay the
	// matches recorded then (KingTakes): a defection's forced king move could take the
	// other king.
	kingTakes bool
	// clearsShared is the castling bookkeeping before rulebook-2017.6, kept to replay the
	// matches recorded then (ClearsSharedEdges): an unmoved king that moved or left took
	// the rights of every rook and king on its edges, another unmoved king's included.
	clearsShared bool

	// Derived from the above by updateControl after every change.
	controller [12]int8  // the player controlling each colour, -1 for none
	controls   [4]uint16 // the colours each player controls (its owned colour included)
}

// The start positions of the board facts file (sections 4 and 5) in the notation.
const (
	StartNotation       = "aqabvrvnbrbnbbbqbkbbbnbrynyrsbsq/aranvpvpbpbpbpbpbpbpbpbpypypsnsr/nbnp12opob/nqnp12opoq/crcp12rprr/cncp12rprn/gbgp12pppb/gqgp12pppq/yqyp12vpvq/ybyp12vpvb/onop12npnn/orop12npnr/rqrp12cpcq/rbrp12cpcb/srsnppppwpwpwpwpwpwpwpwpgpgpanar/sqsbprpnwrwnwbwqwkwbwnwrgngrabaq 1 w b CELNceln 0"
	RoyaleStartNotation = "cqcrvbvqbrbnbbbkbqbbbnbrynyroboq/cbnnnpvpbpbpbpbpbpbpbpbpyprprnor/grnp12rppb/gngp12pppq/arap12spsr/anap12spsn/abap12spsb/akap12spsq/aqap12spsk/abap12spsb/anap12spsn/arap12spsr/yqyp12vpvn/ybop12cpvr/rronopppwpwpwpwpwpwpwpwpgpcpcnnb/rqrbprpnwrwnwbwqwkwbwnwrgqgbnrnq 1 w a s b CELObelna2p3a5p5a12p12a14p15 0"
)

// StartPosition is the two-player start position (board facts, section 4).
func StartPosition() Position { return mustParse(StartNotation) }

// RoyaleStartPosition is the four-player Royale start position (board facts, section 5).
func RoyaleStartPosition() Position { return mustParse(RoyaleStartNotation) }

func mustParse(s string) Position {
	p, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return p
}

// KingTakes is p as the two-player rules before rulebook-2017.3 played it: the king move
// a defection forces may take the other king, standing on a square of its old colour
// (the fix: TestDefectionNeverCapturesTheKing). It is for replaying the matches recorded
// then, and every position played from p keeps it; nothing new is decided with it.
func (p Position) KingTakes() Position {
	p.kingTakes = true
	return p
}

// ClearsSharedEdges is p as the rules before rulebook-2017.6 played it: an unmoved king
// that moves or leaves takes the castling rights of every rook and unmoved king on its
// edges, even those another unmoved king castles with (the fix:
// TestAKingsMoveKeepsTheRightsOfAnotherKingsRook). It is for replaying the matches
// recorded then, and every position played from p keeps it.
func (p Position) ClearsSharedEdges() Position {
	p.clearsShared = true
	return p
}

// Players is 2, or 4 for Royale.
func (p *Position) Players() int { return int(p.players) }

// Royale reports whether this is a four-player Royale position.
func (p *Position) Royale() bool { return p.players == 4 }

// Turn is the player to move.
func (p *Position) Turn() Player { return p.turn }

// Ply is the number of moves played since the start position.
func (p *Position) Ply() int { return p.ply }

// Owned is the colour player pl owns: the colour of its king, or of its army in
// Interregnum; NoColour once it has withdrawn (Royale).
func (p *Position) Owned(pl Player) Colour { return p.owned[pl] }

// Controller is the player controlling colour c (owning it, or holding one of its
// squares through a controlled piece), if any.
func (p *Position) Controller(c Colour) (Player, bool) {
	if c >= 12 || p.controller[c] < 0 {
		return 0, false
	}
	return Player(p.controller[c]), true
}

// Controls reports whether player pl may move pieces of colour c.
func (p *Position) Controls(pl Player, c Colour) bool {
	return c < 12 && p.controls[pl]&(1<<c) != 0
}

// PieceAt is the piece on s, or 0.
func (p *Position) PieceAt(s Square) Piece { return p.board[s] }

// PieceID is the ID of the piece on s, or 0.
func (p *Position) PieceID(s Square) PieceID { return p.ids[s] }

// SquareOf is where the piece with ID id stands, if it is on the board.
func (p *Position) SquareOf(id PieceID) (Square, bool) {
	if id == 0 {
		return 0, false
	}
	for s, v := range p.ids {
		if v == id {
			return Square(s), true
		}
	}
	return 0, false
}

// King is the square of player pl's king, if it has one (a Royale player in
// Interregnum has none).
func (p *Position) King(pl Player) (Square, bool) {
	return p.kings[pl], p.hasKing&(1<<pl) != 0
}

// Escaped reports whether player pl's last king escaped (Royale) and no new king has
// been crowned since: such a player ties if the game ends so.
func (p *Position) Escaped(pl Player) bool { return p.escaped&(1<<pl) != 0 }

// InCheck reports whether player pl's king is attacked by a piece another player controls.
func (p *Position) InCheck(pl Player) bool {
	k, ok := p.King(pl)
	return ok && p.attacked(k, p.enemies(pl))
}

// Checked lists the players whose kings are in check: in Royale, the checks to announce
// after a move.
func (p *Position) Checked() []Player {
	var out []Player
	for pl := Player(0); pl < Player(p.players); pl++ {
		if p.InCheck(pl) {
			out = append(out, pl)
		}
	}
	return out
}

// next is the player after pl in turn order, skipping the players who withdrew.
func (p *Position) next(pl Player) Player {
	n := Player(p.players)
	for q := (pl + 1) % n; q != pl; q = (q + 1) % n {
		if p.withdrawn&(1<<q) == 0 {
			return q
		}
	}
	return pl // everybody else withdrew
}

// enemies is the set of colours controlled by players other than pl: the pieces pl may
// capture, and the pieces that give check to pl's king.
func (p *Position) enemies(pl Player) uint16 {
	var m uint16
	for q := Player(0); q < Player(p.players); q++ {
		if q != pl {
			m |= p.controls[q]
		}
	}
	return m
}

func (p *Position) isUnmoved(s Square) bool { return p.unmoved[s>>6]&(1<<(s&63)) != 0 }

func (p *Position) setUnmoved(s Square) { p.unmoved[s>>6] |= 1 << (s & 63) }

func (p *Position) clearUnmoved(s Square) { p.unmoved[s>>6] &^= 1 << (s & 63) }
