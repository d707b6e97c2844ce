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

// ratedResult is what the result of a rated match moved, kept for a ruling: every rated
// match keeps one for good (a ruling may come at any time), so it holds only what a
// ruling reads, and is kept packed (ratings_record.go).
type ratedResult struct {
	game    string
	players []string          // by seat
	teams   []int             // by seat
	keys    [][]string        // by seat, the rating keys; nil when each seat's only key is the game's ID
	before  [][]rating.Player // by key, by seat: the ratings before the match
	moved   []movedRating     // what the result changed, row by row
}

// key is the k-th rating key of seat.
func (d *ratedResult) key(seat, k int) string {
	if d.keys == nil {
		return d.game
	}
	return d.keys[seat][k]
}

// movedRating is one rating row's change by one result: the row of a seat's player under
// its k-th key (ratedResult.key).
type movedRating struct {
	seat, key int32
	by        float64 // rating points
	result    float64 // 1 won, 0 lost, 0.5 drew
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
	if !ruling.Changes() {
		return nil // the result stands
	}
	var done *ratedResult
	if packed, ok := r.rated[ruling.Match]; ok {
		if done, err = r.unpack(packed); err != nil {
			return fmt.Errorf("ratings: the record of match %s: %w", ruling.Match, err)
		}
	} else if r.kept.on {
		if done, err = r.recall(ruling.Match, ev.Position); err != nil {
			return err
		}
	}
	if done == nil {
		return nil // not rated
	}
	defer func() { r.keep(ruling.Match, r.pack(done), ev.Time) }()
	for _, mv := range done.moved {
		player, key := done.players[mv.seat], done.key(int(mv.seat), int(mv.key))
		if x := r.byPlayer[player][key]; x != nil {
			was := x.Rating
			mv.apply(x, -1)
			r.moved(player, x, was)
			if x.Games == 0 {
				r.unlist(player, x)
				delete(r.byPlayer[player], key) // rated by this match alone
			}
		}
		if r.changed != nil {
			r.changed[player] = true
		}
	}
	done.moved = nil
	if ruling.After.Void {
		return nil
	}
	result := make([]float64, len(done.players))
	for i := range result {
		switch {
		case len(ruling.After.Winners) == 0:
			result[i] = 0.5
		case slices.Contains(ruling.After.Winners, i):
			result[i] = 1
		}
	}
	rules := r.rulesOf(done.game)
	for k, before := range done.before {
		after := rating.UpdateMany(before, done.teams, result)
		for i, p := range done.players {
			mv := movedRating{seat: int32(i), key: int32(k), by: after[i] - before[i].Rating, result: result[i]}
			mv.apply(r.get(p, done.game, done.key(i, k), rules), 1)
			done.moved = append(done.moved, mv)
			if r.changed != nil {
				r.changed[p] = true
			}
		}
	}
	return nil
}
