package wallet

import (
	"fmt"
	"reflect"

	"github.com/arbiter-games/arbiter/domain/game"
)

// Audit checks that e, stored under the event ID id in a wallet that stood at s, is
// exactly what Decide records there for the command it answers, under the ID the design
// gives it (a hold's ID is its event's; a release and a settlement are named after their
// hold). `arbiter verify` re-derives every wallet through it: a balance below zero, a
// hold closed twice or a settlement of a hold never opened would each fail here.
func Audit(s State, id string, e game.Event) error {
	var cmd Command
	wantID := ""
	switch e := e.(type) {
	case CoinsGranted:
		cmd = Grant{Amount: e.Amount, Reason: e.Reason, Ref: e.Ref}
	case CoinsHeld:
		cmd, wantID = HoldCoins{ID: e.Hold, Match: e.Match, Amount: e.Amount, Seat: e.Seat}, e.Hold
		if h, open := s.OpenHold(e.Match); open {
			return fmt.Errorf("a second hold (%s) for match %s, where hold %s is open", e.Hold, e.Match, h.ID)
		}
	case HoldReleased:
		cmd, wantID = Release{Hold: e.Hold, Reason: e.Reason}, "release:"+e.Hold
	case HoldSettled:
		cmd, wantID = Settle{Hold: e.Hold, Charged: e.Charged, Won: e.Won}, "settle:"+e.Hold
	case CoinsSpent:
		cmd = Spend{Amount: e.Amount, Reason: e.Reason, Ref: e.Ref}
	case RulingCorrected:
		cmd, wantID = Correct(e), CorrectionID(e.Dispute, e.Player)
	default:
		return fmt.Errorf("%s is no wallet event", e.EventType())
	}
	if wantID != "" && id != wantID {
		return fmt.Errorf("%s is stored under ID %q, not %q: a retry of it would not be seen as one", e.EventType(), id, wantID)
	}
	evs, err := Decide(s, cmd)
	switch {
	case err != nil:
		return fmt.Errorf("the wallet refuses %s here: %w", e.EventType(), err)
	case len(evs) != 1:
		return fmt.Errorf("%s where the wallet records nothing: it was done already", e.EventType())
	case !reflect.DeepEqual(evs[0], e):
		return fmt.Errorf("%+v recorded where the wallet records %+v", e, evs[0])
	}
	return nil
}
