package replay

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/eventstore"
)

// disputeEvent folds a dispute stream and keeps the rulings that change a result, each
// checked against the result it found: the recorded one, or the last ruling's.
func (r *WalletReport) disputeEvent(ev eventstore.Event) {
	d, err := dispute.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: %v", ev.Stream, ev.Version, err))
		return
	}
	id := strings.TrimPrefix(ev.Stream, "dispute-")
	s := r.disputes[id]
	if ruling, ok := d.(dispute.Ruled); ok {
		if !ruling.Before.Same(s.Result) || ruling.Match != id {
			r.Problems = append(r.Problems, fmt.Sprintf("%s version %d: a ruling from %s on match %s, where the result stood %s", ev.Stream, ev.Version, ruling.Before, ruling.Match, s.Result))
		}
		if ruling.Changes() {
			r.rulings = append(r.rulings, ruling)
		}
	}
	r.disputes[id] = dispute.Evolve(s, d)
}

// checkRulings checks every wallet's correction against the ruling it follows: each seat
// of a ruled match that moved coins corrected by exactly what dispute.Corrections says,
// with the reason of the new result; a correction that no ruling calls for is a coin made
// or lost. A correction not yet made is pending (the settlement process makes it once the
// match's holds are closed).
func (r *WalletReport) checkRulings(ctx context.Context, store Reader, games *game.Registry) {
	r.Rulings = len(r.rulings)
	due := map[string]bool{}
	for _, ruling := range r.rulings {
		snap, err := State(ctx, store, games, ruling.Match, 0)
		if err != nil {
			r.Problems = append(r.Problems, fmt.Sprintf("dispute %s: match %s: %v", ruling.Dispute, ruling.Match, err))
			continue
		}
		for seat, want := range dispute.Corrections(snap.Rules, snap.State, ruling.Before, ruling.After) {
			player := snap.State.Seats[seat].PlayerID
			key := ruling.Dispute + "\x00" + player
			got, ok := r.corrections[key]
			switch {
			case want == 0 && ok:
				r.Problems = append(r.Problems, fmt.Sprintf("%s: a correction of %d coins for dispute %s, whose ruling moves none of %s's", got.where, got.amount, ruling.Dispute, player))
			case want == 0:
			case !ok:
				r.Pending = append(r.Pending, fmt.Sprintf("dispute %s was ruled: the correction of %d coins of %s", ruling.Dispute, want, player))
			case got.amount != want || got.reason != dispute.CoinReason(ruling.After):
				r.Problems = append(r.Problems, fmt.Sprintf("%s: dispute %s corrects %s by %d (%q); its ruling (%s to %s) says %d (%q)", got.where, ruling.Dispute, player, got.amount, got.reason, ruling.Before, ruling.After, want, dispute.CoinReason(ruling.After)))
			}
			due[key] = true
		}
	}
	for _, key := range slices.Sorted(maps.Keys(r.corrections)) {
		if !due[key] {
			id, player, _ := strings.Cut(key, "\x00")
			r.Problems = append(r.Problems, fmt.Sprintf("%s: a correction of %d coins of %s for dispute %s, which no ruling that changed a result calls for", r.corrections[key].where, r.corrections[key].amount, player, id))
		}
	}
}
