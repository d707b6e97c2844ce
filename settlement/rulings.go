package settlement

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Rulings: a ruling that voids or changes the result of a match that moved coins
// (package dispute) corrects its players' wallets once its holds are closed: each seat's
// wallet gets dispute.Corrections (a void gives every stake back), under an event ID
// derived from the dispute, so that the correction is stored once however often the step
// is taken (a restart, two nodes). A ruling stays pending here until every seat it moves
// has its correction in the feed.

// rulings is what the process knows of the rulings to carry out.
type rulings struct {
	pending   map[string]dispute.Ruled // dispute ID -> a ruling that changes a result
	corrected map[string]bool          // dispute ID + "\x00" + player: corrections seen in the feed
}

func newRulings() rulings {
	return rulings{pending: map[string]dispute.Ruled{}, corrected: map[string]bool{}}
}

// applyRuling folds an event of a dispute stream. The caller holds the lock.
func (p *Process) applyRuling(ev eventstore.Event) error {
	if ev.Type != (dispute.Ruled{}).EventType() {
		return nil
	}
	d, err := dispute.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return fmt.Errorf("settlement: %s version %d: %w", ev.Stream, ev.Version, err)
	}
	if r := d.(dispute.Ruled); r.Changes() {
		p.rulings.pending[r.Dispute] = r
	}
	return nil
}

// correctRulings takes the corrections of the pending rulings whose matches hold no open
// hold; one that fails is logged and taken again at the next Step.
func (p *Process) correctRulings(ctx context.Context) int {
	p.mu.Lock()
	due := make([]dispute.Ruled, 0, len(p.rulings.pending))
	for _, id := range slices.Sorted(maps.Keys(p.rulings.pending)) {
		r := p.rulings.pending[id]
		if !p.holdsOpen(r.Match) {
			due = append(due, r)
		}
	}
	p.mu.Unlock()
	n := 0
	for _, r := range due {
		left, err := p.correct(ctx, r)
		if err != nil {
			p.log.Warn("settlement: a ruling's correction failed; it is taken again later", "dispute", r.Dispute, "match", r.Match, "err", err)
			continue
		}
		n += left
	}
	return n
}

// holdsOpen reports whether a hold of the match is still open. The caller holds the lock.
func (p *Process) holdsOpen(matchID string) bool {
	for _, h := range p.holds {
		if h.hold.Match == matchID {
			return true
		}
	}
	return false
}

// correct appends the corrections of one ruling not yet in the feed and returns how many
// it appended; once every one is in the feed the ruling is done.
func (p *Process) correct(ctx context.Context, r dispute.Ruled) (int, error) {
	snap, err := p.eng.Match(ctx, r.Match)
	if err != nil {
		return 0, err
	}
	if snap.State.Status != match.Finished {
		return 0, fmt.Errorf("match %s is %s, not finished", r.Match, snap.State.Status)
	}
	n, left := 0, 0
	for seat, amount := range dispute.Corrections(snap.Rules, snap.State, r.Before, r.After) {
		player := snap.State.Seats[seat].PlayerID
		p.mu.Lock()
		seen := p.rulings.corrected[r.Dispute+"\x00"+player]
		p.mu.Unlock()
		if amount == 0 || seen {
			continue
		}
		left++
		if err := p.eng.CorrectWallet(ctx, player, r.Match, r.Dispute, amount, dispute.CoinReason(r.After)); err != nil {
			return n, err
		}
		n++
	}
	if left == 0 {
		p.mu.Lock()
		delete(p.rulings.pending, r.Dispute)
		p.mu.Unlock()
	}
	return n, nil
}
