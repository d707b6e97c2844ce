package projections

import (
	"context"
	"fmt"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/eventstore"
)

// DisputesFormat is the version of StoredDisputes.
const DisputesFormat = 1

// StoredDisputes is Disputes written down: each match's disputes, in the order of their
// first dispute.
type StoredDisputes struct {
	Matches []dispute.State
	IDs     []string
}

// Format implements Stored.
func (d *Disputes) Format() int { return DisputesFormat }

// Save implements Stored.
func (d *Disputes) Save() (int64, []byte, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	var s StoredDisputes
	for _, id := range d.order {
		s.IDs, s.Matches = append(s.IDs, id), append(s.Matches, d.byMatch[id])
	}
	data, err := encode(&s)
	return d.pos, data, err
}

// Restore implements Stored.
func (d *Disputes) Restore(_ context.Context, _ eventstore.Store, pos int64, data []byte) error {
	var s StoredDisputes
	if err := decode(data, &s); err != nil {
		return err
	}
	if len(s.IDs) != len(s.Matches) {
		return fmt.Errorf("projections: stored disputes name %d matches for %d states", len(s.IDs), len(s.Matches))
	}
	byMatch := make(map[string]dispute.State, len(s.IDs))
	for i, id := range s.IDs {
		byMatch[id] = s.Matches[i]
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.byMatch, d.order, d.pos = byMatch, s.IDs, pos
	return nil
}
