package projections

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
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
	order   []string       // matches in the order of their first dispute
	opened  []string       // every dispute's ID in the order it was opened: the lists' order
	seq     map[string]int // each dispute's index in opened
}

// ErrCursor is the error of a page asked after a dispute that is not in its list.
var ErrCursor = errors.New("after names no dispute of this list")

// NewDisputes returns an empty model.
func NewDisputes() *Disputes {
	return &Disputes{byMatch: map[string]dispute.State{}, seq: map[string]int{}}
}

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
	if o, ok := e.(dispute.Opened); ok {
		d.seq[o.Dispute] = len(d.opened)
		d.opened = append(d.opened, o.Dispute)
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

// Page is what List lists: the disputes whose status is Status ("" for all); with Player,
// only those of that player's matches; those opened after the dispute After ("" from the
// first), at most First.
type Page struct {
	Status, Player, After string
	First                 int
}

// List returns a page of disputes, oldest first (in the order they were opened, which a
// later dispute never changes: a page read after another goes on where it stopped), with
// the state of their match's stream. After must name a
// dispute of the list whatever its status now (one of Player's matches, with Player), else
// ErrCursor, the same for a dispute that exists outside the list as for none.
func (d *Disputes) List(p Page) ([]Listed, error) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	ofPlayer := func(s dispute.State) bool {
		return p.Player == "" || s.Facts != nil && slices.Contains(s.Facts.Players, p.Player)
	}
	start := 0
	if p.After != "" {
		i, ok := d.seq[p.After]
		if !ok || !ofPlayer(d.byMatch[d.stateOf(p.After)]) {
			return nil, ErrCursor
		}
		start = i + 1
	}
	out := []Listed{}
	for _, id := range d.opened[start:] {
		if len(out) == p.First {
			break
		}
		s := d.byMatch[d.stateOf(id)]
		if !ofPlayer(s) {
			continue
		}
		x, _ := s.Find(id)
		if p.Status != "" && x.Status != p.Status {
			continue
		}
		out = append(out, Listed{Dispute: x, Of: s})
	}
	return out, nil
}

// stateOf is the match of a dispute this model holds, by which its state is kept.
func (d *Disputes) stateOf(disputeID string) string {
	m, _ := dispute.MatchOf(disputeID)
	return m
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
