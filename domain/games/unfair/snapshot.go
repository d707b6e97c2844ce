package unfair

import (
	"strconv"

	"github.com/arbiter-games/arbiter/domain/chess"
	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
)

// The stored form of a State (game.Snapshotting; docs/games/unfairchess.md, "Stored
// state"). UnfairChess keeps no move history (no repetition rule: cards change the board
// outside moves), so the form is the state field by field: the position as its FEN with
// its pieces' IDs, which statuses, restrictions and losses name; both sides' decks, hands,
// discards, cards played and losses by card ID; the statuses, restrictions, the turn, the
// record, the clock, the flag, and the facts of the last action not yet folded (a
// snapshot may fall between the events of one command), as their stored events. It names
// the rules version it was folded under, and only those rules read it back.
const stateVersion = 1

var _ game.Snapshotting = Rules{}

// EncodeState writes a State in the stored form.
func (r Rules) EncodeState(st game.State) ([]byte, error) {
	s, ok := st.(State)
	if !ok || !s.started {
		return nil, game.Reject(game.BadInput, "UnfairChess: no game state to store (%T)", st)
	}
	if s.v != variants[r.pinned] {
		return nil, game.Reject(game.BadInput, "UnfairChess: a state of other rules than %s", r.Info().RulesVersion)
	}
	w := stateform.New(stateVersion, ID)
	w.String(r.Info().RulesVersion)
	w.String(s.Pos.FEN())
	ids, last := s.Pos.IDs()
	for _, id := range ids {
		w.Uint(uint64(id))
	}
	w.Uint(uint64(last))
	names, ref := cardNames(s)
	w.Uint(uint64(len(names)))
	for _, c := range names {
		w.String(c)
	}
	for _, side := range s.Sides {
		writeCards(w, ref, side.Deck)
		for _, c := range side.Hand {
			w.Uint(ref[c])
		}
		writeCards(w, ref, side.Discard)
		writeCards(w, ref, side.Played)
		w.Uint(uint64(len(side.Taken)))
		for _, t := range side.Taken {
			w.Uint(uint64(t.Piece))
			w.Uint(uint64(t.Role))
		}
	}
	w.Uint(uint64(len(s.Statuses)))
	for _, ps := range s.Statuses {
		w.Uint(uint64(ps.Piece))
		w.String(ps.Kind)
		w.Uint(uint64(ps.By))
	}
	for _, b := range s.Bars {
		w.Uint(ref[b.Card])
		w.Uint(uint64(b.Squares))
		w.Uint(uint64(len(b.Pieces)))
		for _, id := range b.Pieces {
			w.Uint(uint64(id))
		}
		w.Bool(b.Pawns)
		w.Bool(b.Truce)
	}
	w.Uint(ref[s.Turn.Card])
	w.Uint(uint64(s.Turn.MovesDue))
	if !s.v.cardPawnTakesEnPassant {
		w.Uint(uint64(s.Turn.Brought)) // from unfair-2026.4: the versions before have no such field
	}
	w.Bool(s.Suspended)
	w.Uint(uint64(len(s.Record)))
	for _, entry := range s.Record {
		w.String(entry)
	}
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
	w.Uint(uint64(len(s.pending)))
	for _, e := range s.pending {
		p, err := game.Encode(e.Event)
		if err != nil {
			return nil, err
		}
		w.String(e.Event.EventType())
		w.String(string(p))
	}
	return w.Bytes(), nil
}

// cardNames are the card IDs s holds, each once, in the order they are first met, and
// each one's place in that list from 1 (0 for no card): the form writes the list once,
// and each card as its place, so that a deck costs a byte a card.
func cardNames(s State) ([]string, map[string]uint64) {
	var names []string
	ref := make(map[string]uint64, len(defs)+1)
	ref[""] = 0
	add := func(cs ...string) {
		for _, c := range cs {
			if _, ok := ref[c]; !ok {
				names = append(names, c)
				ref[c] = uint64(len(names))
			}
		}
	}
	for _, side := range s.Sides {
		add(side.Deck...)
		add(side.Hand[:]...)
		add(side.Discard...)
		add(side.Played...)
	}
	add(s.Bars[0].Card, s.Bars[1].Card, s.Turn.Card)
	return names, ref
}

// writeCards writes a list of cards by their places in the form's list of names.
func writeCards(w *stateform.Writer, ref map[string]uint64, cs []string) {
	w.Uint(uint64(len(cs)))
	for _, c := range cs {
		w.Uint(ref[c])
	}
}

// DecodeState reads a State from its stored form under the rules version r plays; a
// state of another version, anything that is not a state of this format, and a form whose
// fields make a state the rules cannot reach (State.check) are refused with an error
// wrapping game.ErrStateFormat.
func (r Rules) DecodeState(b []byte) (game.State, error) {
	rd, err := stateform.Open(b, stateVersion, ID)
	if err != nil {
		return nil, err
	}
	version, fen := rd.String(), rd.String()
	pos, err := chess.ParseFEN(fen)
	if err != nil || pos.FEN() != fen || pos.HasPockets() {
		return nil, &stateform.Error{Game: ID, Reason: "the position is not a FEN this game writes"}
	}
	ids := make([]chess.PieceID, pos.Occupied().Count())
	for i := range ids {
		ids[i] = pieceID(rd)
	}
	pos, err = pos.WithIDs(ids, pieceID(rd))
	if err != nil {
		rd.Fail("%v", err)
	}
	s := State{Pos: pos, started: true, v: variants[r.pinned]}
	names := make([]string, rd.Count(1)+1) // names[0] is no card
	for i := 1; i < len(names); i++ {
		if names[i] = rd.String(); defs[names[i]] == nil {
			rd.Fail("no card %.20q", names[i])
		}
	}
	cr := cardReader{rd, names}
	for seat := range s.Sides {
		side := &s.Sides[seat]
		side.Deck = cr.list()
		for i := range side.Hand {
			side.Hand[i] = cr.card(false)
		}
		side.Discard = cr.list()
		side.Played = cr.list()
		if n := rd.Count(2); n > 0 {
			side.Taken = make([]Taken, n)
			for i := range side.Taken {
				side.Taken[i] = Taken{Piece: pieceID(rd), Role: chess.Role(rd.Small(int(chess.King)))}
			}
		}
	}
	if n := rd.Count(3); n > 0 {
		s.Statuses = make([]PieceStatus, n)
		for i := range s.Statuses {
			s.Statuses[i] = PieceStatus{Piece: pieceID(rd), Kind: rd.String(), By: rd.Small(1)}
			if k := s.Statuses[i].Kind; k != Poison && k != Sleep && k != Shield && k != Dynamite {
				rd.Fail("no status %.20q", k)
			}
		}
	}
	for seat := range s.Bars {
		bars := &s.Bars[seat]
		bars.Card = cr.card(false)
		bars.Squares = chess.Bitboard(rd.Uint())
		if n := rd.Count(1); n > 0 {
			bars.Pieces = make([]chess.PieceID, n)
			for i := range bars.Pieces {
				bars.Pieces[i] = pieceID(rd)
			}
		}
		bars.Pawns, bars.Truce = rd.Bool(), rd.Bool()
	}
	s.Turn = Turn{Card: cr.card(false), MovesDue: rd.Small(2)}
	if !s.v.cardPawnTakesEnPassant {
		s.Turn.Brought = pieceID(rd)
	}
	s.Suspended = rd.Bool()
	if n := rd.Count(1); n > 0 {
		s.Record = make([]string, n)
		for i := range s.Record {
			s.Record[i] = rd.String()
		}
	}
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
	pending := make([][2]string, rd.Count(2))
	for i := range pending {
		pending[i] = [2]string{rd.String(), rd.String()}
	}
	if err := rd.Err(ID); err != nil {
		return nil, err
	}
	if version != r.Info().RulesVersion {
		return nil, &stateform.Error{Game: ID, Reason: "a state of rules " + strconv.Quote(version) + ", read by rules " + r.Info().RulesVersion}
	}
	if why := s.check(); why != "" {
		return nil, &stateform.Error{Game: ID, Reason: "not a state the rules reach: " + why}
	}
	for _, p := range pending {
		if !codec.Knows(p[0]) || p[0] == (GameStarted{}).EventType() {
			return nil, &stateform.Error{Game: ID, Reason: "a fact due of no known type"}
		}
		e, err := codec.Decode(p[0], codec.Schema(p[0]), []byte(p[1]))
		if err != nil {
			return nil, &stateform.Error{Game: ID, Reason: "a fact due does not read: " + err.Error()}
		}
		s.pending = append(s.pending, game.Emitted{Event: e, Visibility: Rules{}.Sight(e)})
	}
	return s, nil
}

// pieceID reads a piece's ID.
func pieceID(rd *stateform.Reader) chess.PieceID { return chess.PieceID(rd.Small(0xffff)) }

// cardReader reads cards by their places in the form's list of names.
type cardReader struct {
	rd    *stateform.Reader
	names []string
}

// card reads one card, or no card where that is allowed.
func (c cardReader) card(required bool) string {
	i := c.rd.Small(len(c.names) - 1)
	if i == 0 && required {
		c.rd.Fail("a card missing")
	}
	return c.names[i]
}

// list reads a list of cards.
func (c cardReader) list() []string {
	n := c.rd.Count(1)
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = c.card(true)
	}
	return out
}
