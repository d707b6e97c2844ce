package magicchess

import (
	"encoding/hex"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/fairness"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// The stored form of a match's state (game.Snapshotting; docs/games/magic-chess.md,
// "Stored state"): the rules version it was folded under (only those rules read it back),
// how many boards, then the state field by field. A board is its position as its FEN with
// its pieces' IDs, every field of State, and an open reaction window with the state before
// the move that opened it (which Rewind restores). A doubles Table adds what joins its two
// boards: the planning, the table's deck and its reshuffles' key, the signals of each
// team, the pieces waiting to pass, the table's record. What is read back is checked
// against the invariants of a state the rules can reach (snapshot_check.go), so that a
// form with a valid checksum but forged fields is refused rather than played.
//
// Format 1 stored one-board states only; format 2 adds the count of boards. A form of
// format 1 is refused as any other unknown format, and its match is folded from its events.
const stateVersion = 2

var _ game.Snapshotting = Rules{}

// EncodeState writes a one-board State or a doubles Table in the stored form.
func (r Rules) EncodeState(st game.State) ([]byte, error) {
	var (
		w      *stateform.Writer
		stored = func(old bool) error {
			if old != r.before("magic-2026.3") {
				return game.Reject(game.BadInput, "Ajedrez Mágico: a state of other rules than %s", r.Info().RulesVersion)
			}
			w = stateform.New(stateVersion, ID)
			w.String(r.Info().RulesVersion)
			return nil
		}
	)
	switch s := st.(type) {
	case State:
		if !s.started {
			break
		}
		if err := stored(s.oldGrants); err != nil {
			return nil, err
		}
		w.Uint(1)
		writeBoard(w, s)
		return w.Bytes(), nil
	case Table:
		if !s.started {
			break
		}
		if s.version != r.Info().RulesVersion {
			return nil, game.Reject(game.BadInput, "Ajedrez Mágico: a doubles table of rules %s, not %s", s.version, r.Info().RulesVersion)
		}
		if err := stored(s.Boards[0].oldGrants); err != nil {
			return nil, err
		}
		w.Uint(2)
		writeTable(w, s)
		return w.Bytes(), nil
	}
	return nil, game.Reject(game.BadInput, "Ajedrez Mágico: no game state to store (%T)", st)
}

// writeBoard writes a board: its state, then its window open and its window opening.
func writeBoard(w *stateform.Writer, s State) {
	writeState(w, s)
	w.Bool(s.Window != nil)
	if s.Window != nil {
		writeWindow(w, s.Window)
	}
	w.Bool(s.opening != nil)
	if s.opening != nil {
		writeWindow(w, s.opening)
	}
}

// writeTable writes what a doubles table adds to its boards, then the boards. Its rules
// version is the form's.
func writeTable(w *stateform.Writer, t Table) {
	w.String(t.Phase)
	w.Time(t.PlanEnds)
	w.Time(t.PlanEnded)
	for _, d := range t.Done {
		w.Bool(d)
	}
	w.Strings(t.Deck)
	w.Uint(uint64(t.Shuffles))
	for _, team := range t.Signals {
		w.Uint(uint64(len(team)))
		for _, sig := range team {
			w.Uint(uint64(sig.Seat))
			w.String(sig.Signal)
		}
	}
	w.Strings(t.Passing[:])
	w.Strings(t.Record)
	w.Uint(uint64(len(t.Players)))
	for _, seat := range t.Players {
		w.Uint(uint64(seat))
	}
	w.Uint(uint64(t.conceded))
	w.Strings(t.shuffled)
	w.String(hex.EncodeToString(t.key))
	w.Uint(uint64(t.procedure))
	w.Bool(t.key != nil)
	for _, b := range t.Boards {
		writeBoard(w, b)
	}
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
		w.Strings(s.Hands[seat])
		w.Strings(s.Played[seat])
	}
	w.Strings(s.Deck)
	w.Strings(s.Discard)
	w.Uint(uint64(len(s.Laid)))
	for _, l := range s.Laid {
		w.Uint(uint64(l.Seat))
		w.String(l.Card)
		w.Strings(l.Targets)
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
	w.Strings(s.Record)
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
		w.Strings(s.Held.Targets)
	}
	w.Bool(s.control != nil)
	if s.control != nil {
		w.Int(s.control.InitialMs)
		w.Int(s.control.IncrementMs)
	}
	w.Int(int64(s.reaction))
	w.Strings(s.shuffled)
	w.Strings(s.expired)
	w.Bool(s.oldGrants)
}

// writeWindow writes a reaction window.
func writeWindow(w *stateform.Writer, win *Window) {
	w.String(win.Kind)
	w.Uint(uint64(win.Seat))
	w.Strings(win.Triggers)
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

// DecodeState reads a one-board State or a doubles Table from its stored form under the
// rules version r plays. A state of another version, anything that is not a state of this
// format, and a form whose fields make a state the rules cannot reach (snapshot_check.go)
// are refused with an error wrapping game.ErrStateFormat.
func (r Rules) DecodeState(b []byte) (game.State, error) {
	rd, err := stateform.Open(b, stateVersion, ID)
	if err != nil {
		return nil, err
	}
	version := rd.String()
	var st game.State
	switch boards := rd.Small(2); boards {
	case 1:
		st = readBoard(rd)
	case 2:
		st = readTable(rd, version)
	default:
		rd.Fail("a match of %d boards", boards)
	}
	if err := rd.Err(ID); err != nil {
		return nil, err
	}
	if version != r.Info().RulesVersion {
		return nil, &stateform.Error{Game: ID, Reason: "a state of rules " + strconv.Quote(version) + ", read by rules " + r.Info().RulesVersion}
	}
	// What the form does not store, its rules version gives (State.discardClosing,
	// State.endAtMove, State.rewoundRanOut, State.shuffledRanOut).
	switch s := st.(type) {
	case State:
		s.discardClosing, s.endAtMove, s.rewoundRanOut = r.before("magic-2026.5"), r.before("magic-2026.6"), r.before("magic-2026.6")
		s.shuffledRanOut = r.before("magic-2026.7")
		st = s
	case Table:
		for b := range s.Boards {
			s.Boards[b].discardClosing, s.Boards[b].endAtMove, s.Boards[b].rewoundRanOut = r.before("magic-2026.5"), r.before("magic-2026.6"), r.before("magic-2026.6")
			s.Boards[b].shuffledRanOut = r.before("magic-2026.7")
		}
		st = s
	}
	var why string
	switch s := st.(type) {
	case State:
		why = r.checkState(s)
	case Table:
		why = r.checkTable(s)
	}
	if why != "" {
		return nil, &stateform.Error{Game: ID, Reason: "not a state the rules reach: " + why}
	}
	return st, nil
}

// readBoard reads what writeBoard wrote.
func readBoard(rd *stateform.Reader) State {
	s := readState(rd)
	if rd.Bool() {
		s.Window = readWindow(rd)
	}
	if rd.Bool() {
		s.opening = readWindow(rd)
	}
	return s
}

// readTable reads what writeTable wrote, the table of rules version.
func readTable(rd *stateform.Reader, version string) Table {
	t := Table{Phase: rd.String(), PlanEnds: rd.Time(), PlanEnded: rd.Time(), version: version, started: true}
	for i := range t.Done {
		t.Done[i] = rd.Bool()
	}
	t.Deck = rd.Strings()
	t.Shuffles = int(rd.Small(1 << 20))
	for team := range t.Signals {
		if n := rd.Count(2); n > 0 {
			t.Signals[team] = make([]Signal, n)
			for i := range t.Signals[team] {
				t.Signals[team][i] = Signal{Seat: rd.Small(DoublesSeats - 1), Signal: rd.String()}
			}
		}
	}
	if passing := rd.Strings(); len(passing) == len(t.Passing) {
		copy(t.Passing[:], passing)
	} else {
		rd.Fail("%d boards passing pieces, not 2", len(passing))
	}
	t.Record = rd.Strings()
	if n := rd.Count(1); n > 0 {
		t.Players = make([]int, n)
		for i := range t.Players {
			t.Players[i] = rd.Small(DoublesSeats - 1)
		}
	}
	t.conceded = rd.Small(DoublesSeats)
	t.shuffled = rd.Strings()
	key, err := hex.DecodeString(rd.String())
	if err != nil {
		rd.Fail("the reshuffles' key is not hexadecimal")
	}
	t.procedure = fairness.Version(rd.Small(int(fairness.Current)))
	if rd.Bool() {
		t.key = key
		if t.key == nil {
			t.key = []byte{}
		}
	} else if len(key) > 0 {
		rd.Fail("a reshuffles' key said to be absent")
	}
	for b := range t.Boards {
		t.Boards[b] = readBoard(rd)
	}
	return t
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
		s.Hands[seat] = rd.Strings()
		s.Played[seat] = rd.Strings()
	}
	s.Deck, s.Discard = rd.Strings(), rd.Strings()
	if n := rd.Count(3); n > 0 {
		s.Laid = make([]Laid, n)
		for i := range s.Laid {
			s.Laid[i] = Laid{Seat: rd.Small(1), Card: rd.String(), Targets: rd.Strings()}
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
	s.Record = rd.Strings()
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
		s.Held = &HeldCard{Seat: rd.Small(1), Card: rd.String(), Targets: rd.Strings()}
	}
	if rd.Bool() {
		s.control = &clock.Setup{InitialMs: rd.Int(), IncrementMs: rd.Int()}
	}
	s.reaction = time.Duration(rd.Int())
	s.shuffled, s.expired = rd.Strings(), rd.Strings()
	s.oldGrants = rd.Bool()
	return s
}

// readWindow reads what writeWindow wrote.
func readWindow(rd *stateform.Reader) *Window {
	w := &Window{Kind: rd.String(), Seat: rd.Small(1), Triggers: rd.Strings(), At: rd.Time(), Answers: rd.Time(), Closes: rd.Time(),
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

func pieceID(rd *stateform.Reader) chess.PieceID { return chess.PieceID(rd.Small(0xffff)) }

// square reads a square, or chess.NoSquare: where a drop came from.
func square(rd *stateform.Reader) chess.Square { return chess.Square(rd.Small(int(chess.NoSquare))) }
