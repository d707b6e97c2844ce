package sovereignchess

import (
	"slices"
	"strconv"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/game/stateform"
	"github.com/arbiter-games/arbiter/domain/sovereign"
)

// The stored form of a State (game.Snapshotting; docs/games/sovereign.md, "Stored
// state"): the start position and the game's history (its moves in the move notation and
// Royale's withdrawals, each after so many moves), from which the current position, its
// piece IDs, the repetition history and the fifty-move count follow, replayed and checked
// as they are read back; then what the history does not say: the mode, the seats'
// draw, the opening choice, the clock, the end, and the facts a move implies that are not
// yet folded (a snapshot may fall between the events of one command). The end and those
// facts are written as their events are stored (their JSON), which is short and keeps
// them exactly.
const stateVersion = 1

var _ game.Snapshotting = Rules{}

// EncodeState writes a State in the stored form.
func (r Rules) EncodeState(st game.State) ([]byte, error) {
	s, ok := st.(State)
	if !ok || s.Game == nil {
		return nil, game.Reject(game.BadInput, "Sovereign Chess: no game state to store (%T)", st)
	}
	if s.v != variants[r.pinned] {
		return nil, game.Reject(game.BadInput, "Sovereign Chess: a state of other rules than %s", r.Info().RulesVersion)
	}
	w := stateform.New(stateVersion, ID)
	w.String(r.Info().RulesVersion)
	w.String(s.Mode)
	w.Int(int64(s.FirstMover))
	w.Uint(uint64(len(s.Order)))
	for _, seat := range s.Order {
		w.Uint(uint64(seat))
	}
	start := s.Game.Start()
	w.String(start.Notation())
	o := s.Game.Opening
	w.Uint(uint64(o.FirstMover))
	w.Bool(o.Decided)
	w.Bool(o.Kept)
	moves := s.Game.Moves()
	w.Uint(uint64(len(moves)))
	for _, m := range moves {
		w.String(m.String())
	}
	withdrawals := s.Game.Withdrawals()
	w.Uint(uint64(len(withdrawals)))
	for _, wd := range withdrawals {
		w.Uint(uint64(wd.Player))
		w.Uint(uint64(wd.After))
	}
	w.Clock(s.Clock)
	w.Bool(s.Ended != nil)
	if s.Ended != nil {
		if err := writeEvent(w, *s.Ended); err != nil {
			return nil, err
		}
	}
	w.Uint(uint64(len(s.pending)))
	for _, e := range s.pending {
		w.String(e.EventType())
		if err := writeEvent(w, e); err != nil {
			return nil, err
		}
	}
	return w.Bytes(), nil
}

// writeEvent writes an event's stored payload.
func writeEvent(w *stateform.Writer, e game.Event) error {
	p, err := game.Encode(e)
	if err != nil {
		return err
	}
	w.String(string(p))
	return nil
}

// DecodeState reads a State from its stored form, replaying its history from the start
// position, under the rules version r plays: a state of another version is refused, as
// is anything that is not a state of this format, with an error wrapping
// game.ErrStateFormat.
func (r Rules) DecodeState(b []byte) (game.State, error) {
	rd, err := stateform.Open(b, stateVersion, ID)
	if err != nil {
		return nil, err
	}
	version := rd.String()
	s := State{Mode: rd.String(), FirstMover: int(rd.Int()), v: variants[r.pinned]}
	if n := rd.Count(1); n > 0 {
		s.Order = make([]int, n)
		for i := range s.Order {
			s.Order[i] = rd.Small(3)
		}
	}
	notation := rd.String()
	opening := sovereign.Opening{FirstMover: sovereign.Seat(rd.Small(1)), Decided: rd.Bool(), Kept: rd.Bool()}
	moves := make([]string, rd.Count(1))
	for i := range moves {
		moves[i] = rd.String()
	}
	withdrawals := make([]sovereign.Withdrawal, rd.Count(2))
	for i := range withdrawals {
		withdrawals[i] = sovereign.Withdrawal{Player: sovereign.Player(rd.Small(3)), After: int(rd.Uint())}
	}
	clk := rd.Clock(map[string]int{TwoPlayer: 2, Royale: 4}[s.Mode])
	hasEnded, ended := rd.Bool(), ""
	if hasEnded {
		ended = rd.String()
	}
	type stored struct{ typ, payload string }
	pending := make([]stored, rd.Count(2))
	for i := range pending {
		pending[i] = stored{rd.String(), rd.String()}
	}
	if err := rd.Err(ID); err != nil {
		return nil, err
	}
	refuse := func(reason string) (game.State, error) {
		return nil, &stateform.Error{Game: ID, Reason: reason}
	}
	if version != r.Info().RulesVersion {
		return refuse("a state of rules " + strconv.Quote(version) + ", read by rules " + r.Info().RulesVersion)
	}
	switch {
	case s.Mode == Royale && (s.FirstMover != -1 || !isPermutation(s.Order)):
		return refuse("a Royale state without its seating")
	case s.Mode == TwoPlayer && (s.FirstMover < -1 || s.FirstMover > 1 || s.Order != nil):
		return refuse("a two-player state with a bad first mover or a seating")
	}
	pos, err := startPosition(s.Mode, notation)
	if err != nil || pos.Notation() != notation {
		return refuse("the start position is not one this game writes")
	}
	pos = s.v.position(pos)
	s.Game, s.Clock = sovereign.NewGame(pos, opening), clk
	for i := 0; i <= len(moves); i++ {
		for len(withdrawals) > 0 && withdrawals[0].After == i {
			if !s.Game.Withdraw(withdrawals[0].Player) {
				return refuse("a withdrawal does not replay")
			}
			withdrawals = withdrawals[1:]
		}
		if i == len(moves) {
			break
		}
		if m, err := s.Game.Play(moves[i]); err != nil || m.String() != moves[i] {
			return refuse("move " + strconv.Itoa(i+1) + " does not replay")
		}
	}
	if len(withdrawals) > 0 {
		return refuse("a withdrawal after the moves played")
	}
	if hasEnded {
		e, err := codec.Decode(GameEnded{}.EventType(), codec.Schema(GameEnded{}.EventType()), []byte(ended))
		if err != nil {
			return refuse("the end does not read: " + err.Error())
		}
		end := e.(GameEnded)
		s.Ended = &end
	}
	for _, p := range pending {
		if !facts[p.typ] {
			return refuse("a fact due of no known type")
		}
		e, err := codec.Decode(p.typ, codec.Schema(p.typ), []byte(p.payload))
		if err != nil {
			return refuse("a fact due does not read: " + err.Error())
		}
		s.pending = append(s.pending, e)
	}
	return s, nil
}

// facts are the types of the events a move, a choice, a claim or a flag implies, which
// State.pending may hold.
var facts = map[string]bool{
	Defected{}.EventType(): true, KingCrowned{}.EventType(): true, KingCaptured{}.EventType(): true,
	KingEscaped{}.EventType(): true, InterregnumBegun{}.EventType(): true, InterregnumEnded{}.EventType(): true,
	ChecksAnnounced{}.EventType(): true, PlayerWithdrew{}.EventType(): true, GameEnded{}.EventType(): true,
}

// isPermutation reports whether order seats Royale's four players, each at another seat.
func isPermutation(order []int) bool {
	return len(order) == 4 && slices.Equal(slices.Sorted(slices.Values(order)), []int{0, 1, 2, 3})
}
