package projections

import (
	"fmt"
	"slices"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/rating"
	"github.com/arbiter-games/arbiter/eventstore"
)

// A ruling on a disputed match (package dispute) moves its players' ratings from the result
// it found to the one it leaves: a void takes back exactly what the match moved, a changed
// result takes it back and rates the match again from the ratings its players had before
// it. The matches rated since are not rated again: their changes stand as they were
// computed, as a federation corrects one result without recomputing a season. The same
// events in the same order give the same figures, so a rebuild from zero agrees.

// ratedResult is what the result of a rated match moved, kept for a ruling.
type ratedResult struct {
	m      *ratedMatch
	keys   [][]string        // by seat, the rating keys
	before [][]rating.Player // by key, by seat: the ratings before the match
	moved  []movedRating     // what the result changed, row by row
}

// movedRating is one rating row's change by one result.
type movedRating struct {
	player, key string
	by          float64 // rating points
	result      float64 // 1 won, 0 lost, 0.5 drew
}

// apply adds (sign 1) or takes back (sign -1) the change to row x.
func (mv movedRating) apply(x *Rating, sign int) {
	x.Rating += float64(sign) * mv.by
	x.Games += sign
	switch mv.result {
	case 1:
		x.Wins += sign
	case 0:
		x.Losses += sign
	default:
		x.Draws += sign
	}
}

// ruled folds an event of a dispute stream: a ruling that changes a rated match's result.
// The caller holds the lock.
func (r *Ratings) ruled(ev eventstore.Event) error {
	if ev.Type != (dispute.Ruled{}).EventType() {
		return nil
	}
	d, err := dispute.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return fmt.Errorf("ratings: %s version %d: %w", ev.Stream, ev.Version, err)
	}
	ruling := d.(dispute.Ruled)
	done := r.rated[ruling.Match]
	if done == nil || !ruling.Changes() {
		return nil // not rated, or the result stands
	}
	for _, mv := range done.moved {
		if x := r.byPlayer[mv.player][mv.key]; x != nil {
			mv.apply(x, -1)
			if x.Games == 0 {
				delete(r.byPlayer[mv.player], mv.key) // rated by this match alone
			}
		}
		if r.changed != nil {
			r.changed[mv.player] = true
		}
	}
	done.moved = nil
	if ruling.After.Void {
		return nil
	}
	m := done.m
	result := make([]float64, len(m.players))
	for i := range result {
		switch {
		case len(ruling.After.Winners) == 0:
			result[i] = 0.5
		case slices.Contains(ruling.After.Winners, i):
			result[i] = 1
		}
	}
	for k, before := range done.before {
		after := rating.UpdateMany(before, m.teams, result)
		for i, p := range m.players {
			mv := movedRating{player: p, key: done.keys[i][k], by: after[i] - before[i].Rating, result: result[i]}
			mv.apply(r.get(p, m.game, mv.key, m.rules), 1)
			done.moved = append(done.moved, mv)
			if r.changed != nil {
				r.changed[p] = true
			}
		}
	}
	return nil
}
