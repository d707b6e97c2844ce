package sovereignchess

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/arbiter-games/arbiter/domain/clock"
	"github.com/arbiter-games/arbiter/domain/game"
)

// Audit implements game.Auditor. GameStarted must start a game: a known mode, a canonical
// position of that mode where the game goes on, and a draw of the seats of the right
// shape (that it is the seed's draw, replay checks against Setup). A move, choice or claim
// must come from the seat to act and be what Decide records for it from the state
// before: the same canonical move, piece ID and position after, the same seats. A
// PlayerWithdrew, from any seat still in a Royale game, must be what Withdraw records
// at the time it records (that the match recorded the seat's resignation just before,
// at that time, replay checks): none without a clock, and always one with a clock. Every
// other event must be the next of the facts that the last move, choice or claim implies,
// field for field (a flag's PlayerWithdrew at the flag's time); a move recorded while
// such a fact is still due is refused, so
// that a stream can leave none of them out. With a clock, a move, choice or claim must come
// before its seat's deadline and record the time left that the clock gives, and a flag
// may fall only on the seat to act, at or after its deadline.
func (Rules) Audit(before game.State, e game.Event) error {
	if e, ok := e.(GameStarted); ok {
		return auditStart(before, e)
	}
	s, ok := before.(State)
	if !ok || s.Game == nil {
		return fmt.Errorf("%s before GameStarted", e.EventType())
	}
	if len(s.pending) > 0 {
		return differ(e, s.pending[0])
	}
	if s.Ended != nil {
		return fmt.Errorf("%s after the game ended (%s)", e.EventType(), s.Ended.Reason)
	}
	var seat int
	var do any
	var stamp clock.Stamp
	switch e := e.(type) {
	case clock.FlagFell:
		return s.Clock.AuditFlag(s.toAct()[0], e)
	case PlayerWithdrew:
		want, err := s.withdrawal(e.Seat, e.At)
		if err != nil {
			return fmt.Errorf("PlayerWithdrew: %w", err)
		}
		return differ(e, want)
	case MovePlayed:
		seat, do, stamp = e.Seat, game.Move{Notation: e.Move}, e.Stamp
	case OpeningChosen:
		seat, do, stamp = e.Seat, game.Choose{Option: e.Option}, e.Stamp
	case DrawClaimed:
		seat, do, stamp = e.Seat, game.ClaimDraw{}, e.Stamp
	default:
		return fmt.Errorf("%s where the rules record nothing: no move, choice or claim implies it", e.EventType())
	}
	if toAct := s.toAct(); !slices.Contains(toAct, seat) {
		return fmt.Errorf("%s: seat %d recorded, but seat %v was to act", e.EventType(), seat, toAct)
	}
	want, err := s.decide(seat, do, stamp)
	if err == nil {
		err = s.Clock.Audit(seat, stamp, true)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", e.EventType(), err)
	}
	return differ(e, want)
}

// auditStart checks a GameStarted.
func auditStart(before game.State, e GameStarted) error {
	if s, ok := before.(State); ok && s.Game != nil {
		return fmt.Errorf("GameStarted after the game had started")
	}
	pos, err := startPosition(e.Mode, e.Position)
	switch {
	case e.Mode != TwoPlayer && e.Mode != Royale:
		return fmt.Errorf("GameStarted: mode %q is not a mode of Sovereign Chess", e.Mode)
	case err != nil:
		return fmt.Errorf("GameStarted: position %q: %w", e.Position, err)
	case pos.Notation() != e.Position:
		return fmt.Errorf("GameStarted: position %q is not in canonical form %q", e.Position, pos.Notation())
	}
	wantFirst := "-1"
	if hasOpening(pos) {
		wantFirst = "0 or 1"
	}
	if err := clock.AuditStart(e.Clock, e.At); err != nil {
		return fmt.Errorf("GameStarted: %w", err)
	}
	if first := e.FirstMover; (hasOpening(pos) && first != 0 && first != 1) || (!hasOpening(pos) && first != -1) {
		return fmt.Errorf("GameStarted: firstMover %d recorded; in this mode and position it is %s", first, wantFirst)
	}
	order := slices.Sorted(slices.Values(e.Order))
	if (e.Mode == Royale && !slices.Equal(order, []int{0, 1, 2, 3})) || (e.Mode == TwoPlayer && len(order) > 0) {
		return fmt.Errorf("GameStarted: order %v recorded; %s wants %s", e.Order, e.Mode, map[string]string{Royale: "the seats 0 to 3, each once", TwoPlayer: "none"}[e.Mode])
	}
	return nil
}

// differ returns nil when got is want, or an error naming each field that differs, as
// it is stored.
func differ(got, want game.Event) error {
	if got.EventType() != want.EventType() {
		return fmt.Errorf("%s recorded where the rules record %s", got.EventType(), want.EventType())
	}
	g, err1 := fields(got)
	w, err2 := fields(want)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("%s: cannot compare: %v %v", got.EventType(), err1, err2)
	}
	keys := make([]string, 0, len(w))
	for k := range w {
		keys = append(keys, k)
	}
	for k := range g {
		if _, ok := w[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var diffs []string
	for _, k := range keys {
		if string(g[k]) != string(w[k]) {
			diffs = append(diffs, fmt.Sprintf("%s %s recorded, the rules give %s", k, show(g[k]), show(w[k])))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s: %s", got.EventType(), strings.Join(diffs, "; "))
	}
	return nil
}

// fields is an event's stored payload, field by field.
func fields(e game.Event) (map[string]json.RawMessage, error) {
	p, err := game.Encode(e)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(p, &m)
}

func show(v json.RawMessage) string {
	if v == nil {
		return "(none)"
	}
	return string(v)
}
