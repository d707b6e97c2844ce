package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Disputes is every match's disputes (package dispute), folded from the dispute streams:
// the reviewers' queue, and each player's disputes with their rulings. Who may read what
// is the API's to check (reviewers, the match's players).
type Disputes struct {
	checkpoint
	byMatch map[string]dispute.State
	order   []string // matches in the order of their first dispute
}

// NewDisputes returns an empty model.
func NewDisputes() *Disputes { return &Disputes{byMatch: map[string]dispute.State{}} }

// Name implements Projection.
func (d *Disputes) Name() string { return "disputes" }

// Apply implements Projection.
func (d *Disputes) Apply(ev eventstore.Event) error {
	defer d.mu.Unlock()
	if !d.admit(ev) {
		return nil
	}
	id, ok := strings.CutPrefix(ev.Stream, "dispute-")
	if !ok {
		return nil
	}
	e, err := dispute.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return fmt.Errorf("disputes: %s version %d: %w", ev.Stream, ev.Version, err)
	}
	s, seen := d.byMatch[id]
	if !seen {
		d.order = append(d.order, id)
	}
	d.byMatch[id] = dispute.Evolve(s, e)
	return nil
}

// Match returns the disputes of a match.
func (d *Disputes) Match(matchID string) (dispute.State, bool) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	s, ok := d.byMatch[matchID]
	return s, ok
}

// List returns the disputes whose status is status ("" for all), oldest first, with the
// state of their match's stream; with player, only the disputes of that player's matches.
func (d *Disputes) List(status, player string) []Listed {
	d.mu.RLock()
	defer d.mu.RUnlock()
	var out []Listed
	for _, id := range d.order {
		s := d.byMatch[id]
		if player != "" && (s.Facts == nil || !slices.Contains(s.Facts.Players, player)) {
			continue
		}
		for _, x := range s.Disputes {
			if status == "" || x.Status == status {
				out = append(out, Listed{Dispute: x, Of: s})
			}
		}
	}
	return out
}

// Listed is one dispute and its match's dispute stream.
type Listed struct {
	dispute.Dispute
	Of dispute.State
}

// Digest implements Projection.
func (d *Disputes) Digest() string {
	d.mu.RLock()
	defer d.mu.RUnlock()
	h := sha256.New()
	n := 0
	for _, id := range d.order {
		s := d.byMatch[id]
		for _, x := range s.Disputes {
			n++
			fmt.Fprintf(h, "%s %s %s %d\n", x.ID, x.By, x.Status, len(x.Statements))
		}
		fmt.Fprintf(h, "%s %s\n", id, s.Result)
	}
	return fmt.Sprintf("%d disputes, checkpoint %d, sha256 %s", n, d.pos, hex.EncodeToString(h.Sum(nil))[:16])
}
