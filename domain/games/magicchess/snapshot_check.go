package magicchess

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
)

// The invariants a stored state is checked against once read back (DecodeState): the
// checksum catches damage, not forgery, and the rules trust the state they fold (a card
// that is not in the hand it is laid from panics there). A form that passes them is a
// state the rules could have reached: the mode's deck, each of its cards once across the
// deck, the hands, the discard piles, the lasting cards and the card held; pockets on a
// doubles board alone (chess.ParseFEN refused a position without one king of each
// colour, or with a pawn on a back rank, as it was read); a reaction window only in the
// advanced mode's play, of a known kind, with the times the mode's window length gives;
// a doubles table whose boards agree with it and with each other. Each check returns
// why the state is refused, "" when it is not.

// checkState checks a one-board state of the rules r.
func (r Rules) checkState(s State) string {
	if why := checkBoard(&s, false); why != "" {
		return why
	}
	if s.oldGrants != r.before("magic-2026.3") {
		return "the board's grants are of other rules"
	}
	if s.shuffled == nil {
		return noCards(&s, s.Deck)
	}
	return conserved(s.Mode, s.shuffled, [][]string{s.Deck}, &s)
}

// checkTable checks a doubles table of the rules r.
func (r Rules) checkTable(t Table) string {
	if t.Phase != Planning && t.Phase != Play {
		return fmt.Sprintf("the table's phase %.20q", t.Phase)
	}
	first := &t.Boards[0]
	for b := range t.Boards {
		s := &t.Boards[b]
		if why := checkBoard(s, true); why != "" {
			return fmt.Sprintf("board %s: %s", boardName(b), why)
		}
		switch {
		case s.oldGrants != r.before("magic-2026.3"):
			return fmt.Sprintf("board %s's grants are of other rules", boardName(b))
		case s.Mode != first.Mode || s.HandSize != first.HandSize || s.reaction != first.reaction || !sameControl(s, first):
			return "the boards are of different settings"
		case s.Phase != t.Phase || !s.PlanEnds.Equal(t.PlanEnds) || !s.PlanEnded.Equal(t.PlanEnded) || s.Done != [2]bool{}:
			return fmt.Sprintf("board %s's planning is not the table's", boardName(b))
		case s.Deck != nil || s.shuffled != nil:
			return fmt.Sprintf("board %s keeps a deck of its own", boardName(b))
		case t.Passing[b] != "" && (pieceOf(t.Passing[b]) == chess.Piece{} || s.windowOf() == nil || s.windowOf().Kind == R1):
			return fmt.Sprintf("board %s passes %.8q without the capture's window", boardName(b), t.Passing[b])
		}
	}
	if t.Phase == Planning && (len(t.Record) > 0 || t.conceded > 0) {
		return "the table has a record in the planning"
	}
	if why := t.checkRecord(); why != "" {
		return why
	}
	for team, sigs := range t.Signals {
		for _, sig := range sigs {
			if teamOf(sig.Seat) != team || !knownSignal(sig.Signal) {
				return fmt.Sprintf("a signal %.20q of seat %d in team %d's channel", sig.Signal, sig.Seat, team)
			}
		}
	}
	switch {
	case t.conceded > 0 && older(t.version, "magic-2026.4"):
		return "a concession under rules that had none"
	case t.shuffled == nil && (t.key != nil || t.Shuffles > 0):
		return "a reshuffle's key or count before the deck was shuffled"
	case t.shuffled == nil:
		return noCards(first, t.Deck, t.Boards[1].cards()...)
	}
	return conserved(first.Mode, t.shuffled, [][]string{t.Deck}, &t.Boards[0], &t.Boards[1])
}

// checkRecord checks the table's record against its boards': each entry names its board
// and a seat that plays there, and there are as many as both boards hold.
func (t *Table) checkRecord() string {
	if len(t.Record) != len(t.Players) || len(t.Record) != len(t.Boards[0].Record)+len(t.Boards[1].Record) {
		return "the table's record is not its boards'"
	}
	for i, entry := range t.Record {
		b := strings.Index("AB", entry[:min(1, len(entry))])
		if b < 0 || !strings.HasPrefix(entry[1:], ":") || boardOf(t.Players[i]) != b {
			return fmt.Sprintf("the table's record entry %.20q by seat %d", entry, t.Players[i])
		}
	}
	return ""
}

// sameControl reports whether two boards start the same time control.
func sameControl(a, b *State) bool {
	if a.control == nil || b.control == nil {
		return a.control == b.control
	}
	return *a.control == *b.control
}

// checkBoard checks what one board must hold, whether it is alone or at a table
// (doubles): its settings, its position, its cards' names, its turn and its windows.
func checkBoard(s *State, doubles bool) string {
	switch {
	case s.Mode != Classic && s.Mode != Advanced:
		return fmt.Sprintf("the mode %.20q", s.Mode)
	case s.Phase != Planning && s.Phase != Play:
		return fmt.Sprintf("the phase %.20q", s.Phase)
	case s.HandSize < 1 || s.HandSize > MaxHand:
		return fmt.Sprintf("a deal of %d cards", s.HandSize)
	case s.Mode == Classic && s.reaction != 0,
		s.Mode == Advanced && (s.reaction < time.Second || s.reaction > time.Minute || s.reaction%time.Second != 0):
		return fmt.Sprintf("reaction windows of %v in the %s mode", s.reaction, s.Mode)
	case s.control != nil && (s.control.InitialMs < 0 || s.control.IncrementMs < 0):
		return "a negative time control"
	case len(s.Record) != len(s.Players):
		return "a record and its players of different lengths"
	case s.Turn.MovesDue > 0 && s.Turn.Card == "":
		return "moves due without the card that owes them"
	case s.Flag != nil && !s.Clock.On:
		return "a flag fallen without a clock"
	case s.Phase == Planning && (len(s.Record) > 0 || s.Held != nil || s.Window != nil || s.opening != nil || s.Clock.On):
		return "play in the planning"
	}
	if why := checkPosition(s.Pos, doubles); why != "" {
		return why
	}
	if why := s.checkNames(); why != "" {
		return why
	}
	return s.checkWindows()
}

// checkPosition checks that a board's position has pockets at a table alone: the rest,
// one king of each colour and no pawn on a back rank, chess.ParseFEN checked as the
// position was read.
func checkPosition(p chess.Position, doubles bool) string {
	if p.HasPockets() != doubles {
		return "pockets on a board of one, or none at a table"
	}
	return ""
}

// checkNames checks that every card s names is a card of its mode's deck.
func (s *State) checkNames() string {
	deck := deckIndex()[s.Mode]
	known := func(cs ...string) bool {
		for _, c := range cs {
			if _, ok := deck[c]; c != "" && !ok {
				return false
			}
		}
		return true
	}
	ok := known(s.Hands[0]...) && known(s.Hands[1]...) && known(s.Played[0]...) && known(s.Played[1]...) &&
		known(s.Deck...) && known(s.Discard...) && known(s.shuffled...) && known(s.expired...) && known(s.Turn.Card, s.Turn.Close)
	for _, l := range s.Laid {
		ok = ok && known(l.Card)
	}
	for _, l := range s.Lasting {
		if l.Card == "" || l.Effect == "" {
			return "a lasting card without its card"
		}
		ok = ok && known(l.Card, l.Effect)
	}
	if s.Held != nil {
		if s.Held.Card == "" {
			return "a held card without its card"
		}
		ok = ok && known(s.Held.Card)
	}
	if !ok {
		return "a card that is not in the " + s.Mode + " deck"
	}
	return ""
}

// deckIndex is, by mode, each card of the mode's deck and its place there: made once, as
// the catalog is read at init.
var deckIndex = sync.OnceValue(func() map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, mode := range []string{Classic, Advanced} {
		out[mode] = map[string]int{}
		for i, c := range deckOf(mode) {
			out[mode][c] = i
		}
	}
	return out
})

// checkWindows checks the reaction windows of s: open and opening, and the card held for
// an R1 window.
func (s *State) checkWindows() string {
	if (s.Window != nil || s.opening != nil) && (s.Mode != Advanced || s.Phase != Play) {
		return "a reaction window out of the advanced mode's play"
	}
	if s.Window != nil && s.opening != nil {
		return "a window open and another opening"
	}
	r1 := s.windowOf() != nil && s.windowOf().Kind == R1
	if (s.Held != nil) != r1 {
		return "a held card without its R1 window, or an R1 window without its card"
	}
	for _, w := range []*Window{s.Window, s.opening} {
		if w == nil {
			continue
		}
		if why := s.checkWindow(w, w == s.Window); why != "" {
			return fmt.Sprintf("the %s window: %s", w.Kind, why)
		}
	}
	return ""
}

// checkWindow checks one window of s, open or still to open.
func (s *State) checkWindow(w *Window, open bool) string {
	switch w.Kind {
	case R1:
		if w.move != nil || w.before != nil || !slices.Equal(w.Triggers, []string{TriggerCard}) || w.Seat != 1-s.Held.Seat {
			return "not the answer to the card held"
		}
	case R2, R3:
		if w.move == nil || w.before == nil || w.Blocked != "" || w.Closed || len(w.Triggers) == 0 {
			return "not the answer to a move"
		}
		for _, t := range w.Triggers {
			if !slices.Contains([]string{TriggerCheck, TriggerCapture, TriggerPromotion, TriggerCastling, TriggerEnPassant, TriggerMate, TriggerSeventh}, t) {
				return fmt.Sprintf("a trigger %.20q", t)
			}
		}
		if m := w.move; m.to >= chess.NoSquare || m.on >= chess.NoSquare {
			return "a move to no square"
		}
		if why := checkPosition(w.before.Pos, s.Pos.HasPockets()); why != "" {
			return "the position before its move: " + why
		}
	default:
		return "an unknown kind"
	}
	switch {
	case w.Blocked != "" && w.Blocked != Cancelled && w.Blocked != Prevented:
		return fmt.Sprintf("blocked as %.20q", w.Blocked)
	case !open && (!w.At.IsZero() || !w.Answers.IsZero() || !w.Closes.IsZero() || w.Answering || w.Closed || w.Blocked != ""):
		return "a window not open yet that has run"
	case open && (w.At.IsZero() || !w.Answers.Equal(w.At.Add(reading(s.reaction))) || !w.Closes.Equal(w.At.Add(s.reaction))):
		return "times that are not the mode's window length"
	case w.Closed && !w.Answering:
		return "closed before its reading time ended"
	}
	return ""
}

// cards are the cards a board holds, each once: its hands, its discard pile, its lasting
// cards, its card held and, from magic-2026.5 on, the closing card that waits for the
// turn's move (before, that card was on the discard pile already).
func (s *State) cards() []string {
	var out []string
	for _, h := range s.Hands {
		for _, c := range h {
			if c != "" {
				out = append(out, c)
			}
		}
	}
	out = append(out, s.Discard...)
	for _, l := range s.Lasting {
		out = append(out, l.Card)
	}
	if s.Held != nil {
		out = append(out, s.Held.Card)
	}
	if s.Turn.Close != "" && !s.discardClosing {
		out = append(out, s.Turn.Close)
	}
	return out
}

// noCards checks a state before its deck was shuffled: nobody holds a card yet.
func noCards(s *State, decks []string, more ...string) string {
	if len(decks) > 0 || len(s.cards()) > 0 || len(more) > 0 {
		return "cards before the deck was shuffled"
	}
	return ""
}

// conserved checks that the deck as shuffled is the mode's, and that its cards are each
// once across the decks and the boards. The rules before magic-2026.5 (State.discardClosing)
// put a closing card (Sentinel, Ambush, Trail) on the discard pile when laid and again
// when it left the table (apply, then endTurn), so that for them one of these is there
// once or more; on one board, which never reshuffles its discard, at most twice; a
// reshuffle dealt both copies again (docs/games/magic-chess.md, "Stored state").
func conserved(mode string, shuffled []string, decks [][]string, boards ...*State) string {
	index := deckIndex()[mode]
	count := make([]int, len(index))
	counted := func(cs []string) bool {
		for _, c := range cs {
			i, ok := index[c]
			if !ok {
				return false
			}
			count[i]++
		}
		return true
	}
	if !counted(shuffled) || len(shuffled) != len(index) || slices.ContainsFunc(count, func(n int) bool { return n != 1 }) {
		return "the deck as shuffled is not the " + mode + " deck"
	}
	clear(count)
	for _, d := range decks {
		if !counted(d) {
			return "a card that is not in the " + mode + " deck"
		}
	}
	for _, b := range boards {
		counted(b.cards()) // checkNames found each in the deck
	}
	for _, e := range entries { // in the catalog's order, so that the same card is named each time
		i, ok := index[e.ID]
		if !ok {
			continue
		}
		n, once := count[i], e.Window != Close || !boards[0].discardClosing
		// Before magic-2026.7 a reshuffle in advanced doubles could deal a card that a
		// Rewind then put face up too (State.shuffledRanOut): such a card is there twice.
		once = once && !(len(boards) == 2 && boards[0].shuffledRanOut && boards[0].Mode == Advanced)
		if n < 1 || once && n > 1 || len(boards) == 1 && n > 2 {
			return fmt.Sprintf("the card %s is %d times across the deck, hands, discard and boards", e.ID, n)
		}
	}
	return ""
}
