package magicchess

import (
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// The stored form of a one-board State (game.Snapshotting; docs/games/magic-chess.md,
// "Stored state"): the state field by field, the position as its FEN with its pieces'
// IDs, and an open reaction window with the state before the move that opened it (which
// Rewind restores). A doubles Table is not stored: EncodeState refuses it, and its match
// is folded from its events. The form names the rules version it was folded under, and
// only those rules read it back.
const stateVersion = 1

var _ game.Snapshotting = Rules{}

// EncodeState writes a one-board State in the stored form.
func (r Rules) EncodeState(st game.State) ([]byte, error) {
	s, ok := st.(State)
	if !ok || !s.started {
		return nil, game.Reject(game.BadInput, "Ajedrez Mágico: no one-board game state to store (%T); a doubles table is folded from its events", st)
	}
	if s.oldGrants != r.before("magic-2026.3") {
		return nil, game.Reject(game.BadInput, "Ajedrez Mágico: a state of other rules than %s", r.Info().RulesVersion)
	}
	w := stateform.New(stateVersion, ID)
	w.String(r.Info().RulesVersion)
	writeState(w, s)
	w.Bool(s.Window != nil)
	if s.Window != nil {
		writeWindow(w, s.Window)
	}
	w.Bool(s.opening != nil)
	if s.opening != nil {
		writeWindow(w, s.opening)
	}
	return w.Bytes(), nil
}

// writeState writes every field of s but its windows (EncodeState writes those: the
// state before a window's move, written here too, has none).
func writeState(w *stateform.Writer, s State) {
	w.String(s.Pos.FEN())
	ids, last := s.Pos.IDs()
	for _, id := range ids {
		w.Uint(uint64(id))
	}
	w.Uint(uint64(last))
	w.String(s.Mode)
	w.String(s.Phase)
	w.Time(s.PlanEnds)
	w.Time(s.PlanEnded)
	w.Bool(s.Done[0])
	w.Bool(s.Done[1])
	w.Uint(uint64(s.HandSize))
	for seat := range 2 {
		writeStrings(w, s.Hands[seat])
		writeStrings(w, s.Played[seat])
	}
	writeStrings(w, s.Deck)
	writeStrings(w, s.Discard)
	w.Uint(uint64(len(s.Laid)))
	for _, l := range s.Laid {
		w.Uint(uint64(l.Seat))
		w.String(l.Card)
		writeStrings(w, l.Targets)
	}
	w.Uint(uint64(len(s.Lasting)))
	for _, l := range s.Lasting {
		w.String(l.Card)
		w.String(l.Effect)
		w.Uint(uint64(l.Seat))
		w.Int(int64(l.Left))
		w.Uint(uint64(len(l.Pieces)))
		for _, id := range l.Pieces {
			w.Uint(uint64(id))
		}
		w.Uint(uint64(l.Squares))
	}
	w.String(s.Turn.Card)
	w.Uint(uint64(s.Turn.MovesDue))
	w.Uint(uint64(s.Turn.Grant.Piece))
	w.Uint(uint64(s.Turn.Grant.As))
	w.String(s.Turn.Close)
	writeStrings(w, s.Record)
	w.Uint(uint64(len(s.Players)))
	for _, seat := range s.Players {
		w.Uint(uint64(seat))
	}
	w.Clock(s.Clock)
	w.Bool(s.Flag != nil)
	if s.Flag != nil {
		w.Uint(uint64(s.Flag.Seat))
		w.Time(s.Flag.At)
	}
	w.Bool(s.Held != nil)
	if s.Held != nil {
		w.Uint(uint64(s.Held.Seat))
		w.String(s.Held.Card)
		writeStrings(w, s.Held.Targets)
	}
	w.Bool(s.control != nil)
	if s.control != nil {
		w.Int(s.control.InitialMs)
		w.Int(s.control.IncrementMs)
	}
	w.Int(int64(s.reaction))
	writeStrings(w, s.shuffled)
	writeStrings(w, s.expired)
	w.Bool(s.oldGrants)
}

// writeWindow writes a reaction window.
func writeWindow(w *stateform.Writer, win *Window) {
	w.String(win.Kind)
	w.Uint(uint64(win.Seat))
	writeStrings(w, win.Triggers)
	w.Time(win.At)
	w.Time(win.Answers)
	w.Time(win.Closes)
	w.Bool(win.Answering)
	w.String(win.Blocked)
	w.Bool(win.Closed)
	w.Bool(win.move != nil)
	if m := win.move; m != nil {
		w.Uint(uint64(m.from))
		w.Uint(uint64(m.to))
		w.Uint(uint64(m.captured.Color))
		w.Uint(uint64(m.captured.Role))
		w.Uint(uint64(m.on))
		w.Bool(m.took)
	}
	// The state before the move, which Rewind restores: it has no window of its own.
	w.Bool(win.before != nil)
	if win.before != nil {
		writeState(w, *win.before)
	}
}

func writeStrings(w *stateform.Writer, xs []string) {
	w.Uint(uint64(len(xs)))
	for _, x := range xs {
		w.String(x)
	}
}

// DecodeState reads a one-board State from its stored form under the rules version r
// plays; a state of another version, and anything that is not a state of this format,
// is refused with an error wrapping game.ErrStateFormat.
func (r Rules) DecodeState(b []byte) (game.State, error) {
	rd, err := stateform.Open(b, stateVersion, ID)
	if err != nil {
		return nil, err
	}
	version := rd.String()
	s := readState(rd)
	if rd.Bool() {
		s.Window = readWindow(rd)
	}
	if rd.Bool() {
		s.opening = readWindow(rd)
	}
	if err := rd.Err(ID); err != nil {
		return nil, err
	}
	if version != r.Info().RulesVersion || s.oldGrants != r.before("magic-2026.3") {
		return nil, &stateform.Error{Game: ID, Reason: "a state of rules " + strconv.Quote(version) + ", read by rules " + r.Info().RulesVersion}
	}
	return s, nil
}

// readState reads what writeState wrote.
func readState(rd *stateform.Reader) State {
	fen := rd.String()
	pos, err := chess.ParseFEN(fen)
	if err != nil || pos.FEN() != fen {
		rd.Fail("the position is not a FEN this game writes")
		return State{}
	}
	ids := make([]chess.PieceID, pos.Occupied().Count())
	for i := range ids {
		ids[i] = pieceID(rd)
	}
	if pos, err = pos.WithIDs(ids, pieceID(rd)); err != nil {
		rd.Fail("%v", err)
		return State{}
	}
	s := State{Pos: pos, Mode: rd.String(), Phase: rd.String(), PlanEnds: rd.Time(), PlanEnded: rd.Time(), started: true}
	s.Done = [2]bool{rd.Bool(), rd.Bool()}
	s.HandSize = rd.Small(64)
	for seat := range 2 {
		s.Hands[seat] = readStrings(rd)
		s.Played[seat] = readStrings(rd)
	}
	s.Deck, s.Discard = readStrings(rd), readStrings(rd)
	if n := rd.Count(3); n > 0 {
		s.Laid = make([]Laid, n)
		for i := range s.Laid {
			s.Laid[i] = Laid{Seat: rd.Small(1), Card: rd.String(), Targets: readStrings(rd)}
		}
	}
	if n := rd.Count(6); n > 0 {
		s.Lasting = make([]Lasting, n)
		for i := range s.Lasting {
			l := Lasting{Card: rd.String(), Effect: rd.String(), Seat: rd.Small(1), Left: int(rd.Int())}
			if k := rd.Count(1); k > 0 {
				l.Pieces = make([]chess.PieceID, k)
				for j := range l.Pieces {
					l.Pieces[j] = pieceID(rd)
				}
			}
			l.Squares = chess.Bitboard(rd.Uint())
			s.Lasting[i] = l
		}
	}
	s.Turn = Turn{Card: rd.String(), MovesDue: rd.Small(2), Grant: chess.Grant{Piece: pieceID(rd), As: chess.Role(rd.Small(int(chess.King)))}, Close: rd.String()}
	s.Record = readStrings(rd)
	if n := rd.Count(1); n > 0 {
		s.Players = make([]int, n)
		for i := range s.Players {
			s.Players[i] = rd.Small(1)
		}
	}
	s.Clock = rd.Clock(2)
	if rd.Bool() {
		s.Flag = &clock.FlagFell{Seat: rd.Small(1), At: rd.Time()}
	}
	if rd.Bool() {
		s.Held = &HeldCard{Seat: rd.Small(1), Card: rd.String(), Targets: readStrings(rd)}
	}
	if rd.Bool() {
		s.control = &clock.Setup{InitialMs: rd.Int(), IncrementMs: rd.Int()}
	}
	s.reaction = time.Duration(rd.Int())
	s.shuffled, s.expired = readStrings(rd), readStrings(rd)
	s.oldGrants = rd.Bool()
	return s
}

// readWindow reads what writeWindow wrote.
func readWindow(rd *stateform.Reader) *Window {
	w := &Window{Kind: rd.String(), Seat: rd.Small(1), Triggers: readStrings(rd), At: rd.Time(), Answers: rd.Time(), Closes: rd.Time(),
		Answering: rd.Bool(), Blocked: rd.String(), Closed: rd.Bool()}
	if rd.Bool() {
		w.move = &moved{from: square(rd), to: square(rd), captured: chess.Piece{Color: chess.Color(rd.Small(1)), Role: chess.Role(rd.Small(int(chess.King)))},
			on: square(rd), took: rd.Bool()}
	}
	if rd.Bool() {
		before := readState(rd)
		w.before = &before
	}
	return w
}

func readStrings(rd *stateform.Reader) []string {
	n := rd.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = rd.String()
	}
	return out
}

func pieceID(rd *stateform.Reader) chess.PieceID { return chess.PieceID(rd.Small(0xffff)) }

func square(rd *stateform.Reader) chess.Square { return chess.Square(rd.Small(63)) }
