package magicchess

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/domain/cards"
	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Doubles (pasapiezas, rule 12): two boards in one match, four players in two teams.
//
// Seats: board 0 holds seat 0 (White) and seat 1 (Black), board 1 seat 2 (White) and
// seat 3 (Black). Partners sit on different boards with opposite colours: team 0 is
// seats 0 and 3, team 1 seats 1 and 2, and a seat's partner is 3-seat. Each board is a
// State of its own, its two seats numbered 0 and 1 there (local seats): the one-board
// rules play each board unchanged, and the Table adds what joins them: one planning for
// the four, the table's deck, the pieces a capture passes to the partner, the team
// channel, and the end of the match when either board ends.
//
// What a card means across boards: every card acts on the board of the player who lays
// it; "the opponent" is the player across that board, and "the last card laid" (Echo) is
// the last laid on that board. A piece a card takes off the board (Banish, Exorcism)
// leaves the game: only a capture by a move passes a piece to the partner. A drop is a
// move: squares a card closes refuse drops too, a card that a move follows may be
// followed by a drop, and Sentinel's "piece that moved" is the piece dropped.

// The seats of a doubles match.
const (
	DoublesSeats        = 4
	DefaultDoublesClock = "20+5" // rule 6's clock for two boards
)

// boardOf is the board seat plays on, localOf its seat there, seatOn the seat of local on
// board b, teamOf its team and partnerOf its partner.
func boardOf(seat int) int     { return seat / 2 }
func localOf(seat int) int     { return seat % 2 }
func seatOn(b, local int) int  { return 2*b + local }
func partnerOf(seat int) int   { return 3 - seat }
func teamOf(seat int) int      { return doublesTeams[seat] }
func teamSeats(team int) []int { return []int{team, 3 - team} } // team t is seats t and 3-t
var doublesTeams = []int{0, 1, 1, 0}

// Table is a doubles match: two boards, one deck, two teams. Like State it is a value
// whose slices are never written in place.
type Table struct {
	Boards    [2]State // each board with its local seats; its Discard is the cards laid there
	Phase     string
	PlanEnds  time.Time
	PlanEnded time.Time
	Done      [DoublesSeats]bool
	Deck      []string    // the table's deck, top first
	Shuffles  int         // how many times the discard was shuffled into the deck
	Signals   [2][]Signal // by team: what its players signalled, in order
	// Passing is, by board, the piece a capture there passes to the partner once the
	// reaction window it opened closes (advanced mode), in passes's letter; "" for none.
	Passing [2]string
	Record  []string // both boards' record, each entry "A:" or "B:" and the board's
	Players []int    // by Record entry, the seat
	// conceded is one more than the seat whose resignation conceded the match for its
	// team (Conceded, from magic-2026.4 on); 0 for none.
	conceded  int
	version   string           // the rules version the match pinned: what changed since is in Rules.Under
	shuffled  []string         // the deck as first shuffled, for the audit of the deal
	key       []byte           // the key the reshuffles are drawn from (DeckShuffled.Key)
	procedure fairness.Version // the procedure they are drawn by (DeckShuffled.Fairness)
	started   bool
}

// Signal is one signal of the team channel.
type Signal struct {
	Seat   int
	Signal string
}

// doublesFEN is the starting position of a board of doubles: classic, with empty pockets.
var doublesFEN = func() string {
	p := chess.StartingPosition()
	p.EnablePockets()
	return p.FEN()
}()

// reshuffleKey is the key the reshuffles of a match are drawn from, recorded (server-only)
// in DeckShuffled, so that Decide, which never sees the seed, can shuffle, and the audit
// re-derives the key once the seed is revealed: under V1 the match seed itself, each
// reshuffle a stream of its own (reshuffleLabel); under Legacy the seed's SHA-256 under
// a label of its own.
func reshuffleKey(v fairness.Version, seed []byte) string {
	if v != fairness.Legacy {
		return hex.EncodeToString(seed)
	}
	sum := sha256.Sum256(append([]byte("magicchess/reshuffle/"), seed...))
	return hex.EncodeToString(sum[:])
}

// The labels of the table's streams: its first deck, and its n-th reshuffle.
const deckLabel = "magicchess/deck"

func reshuffleLabel(n int) string { return fmt.Sprintf("magicchess/reshuffle/%d", n) }

var _ game.Random = Rules{}

// Drawn names what an event's random outcomes were drawn for (game.Random): the table's
// deck, the hands dealt and the cards drawn from it, and each reshuffle of the discard.
func (Rules) Drawn(e game.Event) []string {
	switch e := e.(type) {
	case DeckShuffled, CardsDealt, CardDrawn:
		return []string{deckLabel}
	case DeckReshuffled:
		return []string{reshuffleLabel(e.Count)}
	}
	return nil
}

// setupDoubles deals the table: GameStarted (with two boards), DeckShuffled (server-only,
// with the reshuffles' key), and each of the four seats' CardsDealt, one card at a time
// from seat 0 to seat 3.
func (r Rules) setupDoubles(g game.Setup, st settings) ([]game.Emitted, error) {
	deck := deckOf(st.mode)
	start := GameStarted{FEN: doublesFEN, Mode: st.mode, HandSize: st.hand, DeckSize: len(deck),
		PlanEnds: g.At.Add(st.planning), Clock: st.clock, Boards: 2, ReactionMs: st.reaction.Milliseconds()}
	shuffled := DeckShuffled{Cards: cards.Shuffle(g.Fairness, g.Seed, deckLabel, deck), Key: reshuffleKey(g.Fairness, g.Seed), Fairness: int(g.Fairness)}
	out := []game.Emitted{{Event: start}, {Event: shuffled, Visibility: r.Sight(shuffled)}}
	for seat := range DoublesSeats {
		dealt := CardsDealt{Seat: seat, Cards: dealOf(shuffled.Cards, st.hand, DoublesSeats, seat)}
		dealt.Count = len(dealt.Cards)
		out = append(out, game.Emitted{Event: dealt, Visibility: r.Sight(dealt)})
	}
	return out, nil
}

// dealtFrom is deck without the cards dealt.
func dealtFrom(deck, dealt []string) []string {
	out := slices.Clone(deck)
	for _, c := range dealt {
		if i := slices.Index(out, c); i >= 0 {
			out = slices.Delete(out, i, i+1)
		}
	}
	return out
}

// dealOf is seat's hand of size cards from deck dealt one at a time to seats seats.
func dealOf(deck []string, size, seats, seat int) []string {
	var hand []string
	for i := range size {
		if j := seats*i + seat; j < len(deck) {
			hand = append(hand, deck[j])
		}
	}
	return hand
}

// startTable is the table GameStarted sets under rules version: both boards from its
// position, in planning; the boards' moves of a match before magic-2026.3 by the grants
// of then (State.oldGrants), their closing cards discarded as then (State.discardClosing), their games ended
// at a move and their Rewinds and reshuffles as then (State.endAtMove, State.rewoundRanOut,
// State.shuffledRanOut).
func startTable(e GameStarted, version string) Table {
	one := e
	one.Boards = 0
	b := Rules{}.Evolve(nil, one).(State)
	b.oldGrants = older(version, "magic-2026.3")
	b.discardClosing = older(version, "magic-2026.5")
	b.endAtMove, b.rewoundRanOut = older(version, "magic-2026.6"), older(version, "magic-2026.6")
	b.shuffledRanOut = older(version, "magic-2026.7")
	return Table{Boards: [2]State{b, b}, Phase: Planning, PlanEnds: e.PlanEnds, started: true, version: version}
}

// evolve applies an event to the table. A board's event is applied to that board with
// its local seat, by the one-board rules.
func (t Table) evolve(e game.Event) Table {
	switch e := e.(type) {
	case DeckShuffled:
		t.Deck, t.shuffled = slices.Clip(e.Cards), slices.Clip(e.Cards)
		t.key, _ = hex.DecodeString(e.Key)
		t.procedure = fairness.Version(e.Fairness)
	case CardsDealt:
		b := &t.Boards[boardOf(e.Seat)]
		b.Hands[localOf(e.Seat)] = slices.Clip(e.Cards)
		t.Deck = dealtFrom(t.Deck, e.Cards)
	case PlanningDone:
		t.Done[e.Seat] = true
	case PlanningEnded:
		t.Phase, t.PlanEnded = Play, e.At
		for b := range t.Boards {
			t.Boards[b] = Rules{}.Evolve(t.Boards[b], e).(State)
		}
	case MovePlayed:
		t.onBoard(e.Board, local(e).(MovePlayed))
		switch {
		case e.Passes == "":
		case t.Boards[e.Board].opening != nil:
			// The capture opens a reaction window (advanced mode): its piece passes when
			// the window closes, unless a reaction brought it back (the catalog's
			// UndoesCapture: Rewind, Deflection).
			t.Passing[e.Board] = e.Passes
		default:
			t.pass(1-e.Board, e.Passes)
		}
	case ReactionPassed, ReactionPlayed:
		b := e.(boardEvent).board()
		t.onBoard(b, local(e))
		if p := t.Passing[b]; p != "" {
			t.Passing[b] = ""
			if r, ok := e.(ReactionPlayed); !ok || !byID[r.Card].UndoesCapture {
				t.pass(1-b, p)
			}
		}
	case boardEvent: // the others: a card, its annulment or resolution, a window
		t.onBoard(e.board(), local(e))
	case clock.FlagFell:
		t.onBoard(boardOf(e.Seat), local(e))
	case CardDrawn:
		b := &t.Boards[boardOf(e.Seat)]
		b.Hands[localOf(e.Seat)] = with(b.Hands[localOf(e.Seat)], t.Deck[0])
		t.Deck = t.Deck[1:]
	case DeckReshuffled:
		t.Deck, t.Shuffles = slices.Clip(e.Cards), t.Shuffles+1
		for b := range t.Boards {
			_, t.Boards[b].Discard = t.Boards[b].reshuffled()
		}
	case Signalled:
		team := teamOf(e.Seat)
		t.Signals[team] = with(t.Signals[team], Signal{Seat: e.Seat, Signal: e.Signal})
	case Conceded:
		t.conceded = e.Seat + 1
	}
	return t
}

// pass puts the piece a capture passed (passes's letter) in the pocket of board b, and in
// the position a reaction window open there would restore (Rewind): a piece that came
// from the other board while the window was open stays in hand after a rewind.
func (t *Table) pass(b int, letter string) {
	s := &t.Boards[b]
	pc := pieceOf(letter)
	must(s.Pos.AddToPocket(pc))
	if w := s.Window; w != nil && w.before != nil {
		before := *w.before
		must(before.Pos.AddToPocket(pc))
		c := *w
		c.before = &before
		s.Window = &c
	}
}

// onBoard applies a board's event (its seat made local) to board b, and copies what it
// added to the board's record into the table's, written "A:e4" or "B:[truce]".
func (t *Table) onBoard(b int, e game.Event) {
	before := len(t.Boards[b].Record)
	t.Boards[b] = Rules{}.Evolve(t.Boards[b], e).(State)
	after := t.Boards[b]
	for i := before; i < len(after.Record); i++ {
		t.Record = with(t.Record, boardName(b)+":"+after.Record[i])
		t.Players = with(t.Players, seatOn(b, after.Players[i]))
	}
}

// boardName is how the record and the docs name a board: A (seats 0 and 1), B.
func boardName(b int) string { return string(rune('A' + b)) }

// local is a board's event of the table as the one-board rules know it: its seat local
// to its board, without the table's fields.
func local(e game.Event) game.Event {
	switch e := e.(type) {
	case MovePlayed:
		e.Seat, e.Board, e.Passes = localOf(e.Seat), 0, ""
		return e
	case clock.FlagFell:
		e.Seat = localOf(e.Seat)
		return e
	case boardEvent:
		return e.reseated(localOf, 0)
	}
	return e
}

// global is an event of board b's one-board rules as the table records it: its seat the
// table's, its board named. A move names the piece it passes to the partner (passes).
func global(b int, e game.Event) game.Event {
	switch e := e.(type) {
	case clock.FlagFell:
		e.Seat = seatOn(b, e.Seat)
		return e
	case boardEvent:
		return e.reseated(func(seat int) int { return seatOn(b, seat) }, b)
	}
	return e
}

// boardEvent is an event of the one-board rules that names its seat and its board: the
// moves, cards and reaction windows. The table turns its seat between the board's (local)
// and its own (global); a new such event needs only these two methods.
type boardEvent interface {
	game.Event
	board() int
	// reseated is the event with its seat mapped by seat and its board set to b.
	reseated(seat func(int) int, b int) game.Event
}

func (e MovePlayed) board() int           { return e.Board }
func (e CardPlayed) board() int           { return e.Board }
func (e CardAnnulled) board() int         { return e.Board }
func (e ReactionWindowOpened) board() int { return e.Board }
func (e ReactionReadingEnded) board() int { return e.Board }
func (e ReactionPassed) board() int       { return e.Board }
func (e ReactionPlayed) board() int       { return e.Board }
func (e CardResolved) board() int         { return e.Board }

func (e MovePlayed) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e CardPlayed) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e CardAnnulled) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e ReactionWindowOpened) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e ReactionReadingEnded) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e ReactionPassed) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e ReactionPlayed) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}
func (e CardResolved) reseated(seat func(int) int, b int) game.Event {
	e.Seat, e.Board = seat(e.Seat), b
	return e
}

// passes is the piece move uci, to play on board s, passes to the partner (bughouse),
// in FEN letters ("n": a black knight), or "".
func passes(s *State, uci string) string {
	m, err := s.Pos.ParseMoveWith(uci, s.restrictions())
	if err != nil {
		panic(fmt.Sprintf("magicchess: a move %s just decided does not parse: %v", uci, err))
	}
	if pc, ok := s.Pos.CaptureToPartner(m); ok {
		return pc.String()
	}
	return ""
}

// handEmpty reports whether the local seat of board s holds no card.
func (s *State) handEmpty(local int) bool {
	return !slices.ContainsFunc(s.Hands[local], func(c string) bool { return c != "" })
}

// discard is the table's discard pile that a reshuffle takes: board A's, then board B's,
// less the cards each board keeps back (State.reshuffled).
func (t *Table) discard() []string {
	a, _ := t.Boards[0].reshuffled()
	b, _ := t.Boards[1].reshuffled()
	return slices.Concat(a, b)
}

// reshuffled splits board s's discard pile for a reshuffle: the cards it gives to the new
// deck, and those it keeps. It keeps the cards that ran out at the move its open R2
// window may still take back: a Rewind puts them back face up, so they must not be in the
// deck or a hand by then (a card is in one place). They go to the next reshuffle once the
// window has closed without a Rewind. Before magic-2026.7 it kept none (shuffledRanOut).
func (s *State) reshuffled() (shuffled, kept []string) {
	w := s.Window
	if s.shuffledRanOut || w == nil || w.Kind != R2 || w.before == nil {
		return s.Discard, nil
	}
	return faceUpAgain(s.Discard, w.before.Lasting, s.Lasting)
}

// pieceOf reads a piece passed, as passes writes it: "N" a white knight, "p" a black pawn.
func pieceOf(letter string) chess.Piece {
	c, i := chess.White, strings.Index("PNBRQ", letter)
	if i < 0 {
		c, i = chess.Black, strings.Index("pnbrq", letter)
	}
	if i < 0 || len(letter) != 1 {
		return chess.Piece{}
	}
	return chess.Piece{Color: c, Role: chess.Pawn + chess.Role(i)}
}
