package settlement

import (
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/domain/dispute"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/eventstore"
)

// Format is the version of Stored.
const Format = 1

// Stored is the process's folded state written down for a snapshot of the read side: the
// open holds, the funded matches and the rulings to carry out. What the worker did lately
// (done, owed) is not: a process folded from zero starts without it too, and the steps are
// idempotent. A process with an economy of its own (no Shared) stores that too.
type Stored struct {
	Holds     []StoredHold
	Matches   []StoredFunded
	Rulings   []dispute.Ruled
	Corrected []string
	EconomyAt int64
	Economy   []byte
}

// StoredHold is an open hold. Seat is spelt out: gob would read a pointer to seat 0 back
// as no seat.
type StoredHold struct {
	Player  string
	ID      string
	Match   string
	Amount  int64
	HasSeat bool
	Seat    int
	At      time.Time
}

// StoredFunded is a match with funded seats.
type StoredFunded struct {
	ID     string
	Seats  map[int]string
	Holds  map[string]bool
	Ended  bool
	Reason string
}

// Format implements projections.Stored.
func (p *Process) Format() int { return Format }

// Save implements projections.Stored.
func (p *Process) Save() (int64, []byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var s Stored
	for _, id := range slices.Sorted(maps.Keys(p.holds)) {
		h := p.holds[id]
		sh := StoredHold{Player: h.player, ID: h.hold.ID, Match: h.hold.Match, Amount: h.hold.Amount, At: h.at}
		if h.hold.Seat != nil {
			sh.HasSeat, sh.Seat = true, *h.hold.Seat
		}
		s.Holds = append(s.Holds, sh)
	}
	for _, id := range slices.Sorted(maps.Keys(p.matches)) {
		m := p.matches[id]
		s.Matches = append(s.Matches, StoredFunded{ID: id, Seats: m.seats, Holds: m.holds, Ended: m.ended, Reason: m.reason})
	}
	for _, id := range slices.Sorted(maps.Keys(p.rulings.pending)) {
		s.Rulings = append(s.Rulings, p.rulings.pending[id])
	}
	s.Corrected = slices.Sorted(maps.Keys(p.rulings.corrected))
	if p.ownEcon {
		var err error
		if s.EconomyAt, s.Economy, err = p.econ.Save(); err != nil {
			return 0, nil, err
		}
	}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(&s); err != nil {
		return 0, nil, fmt.Errorf("settlement: encoding its stored form: %w", err)
	}
	return p.pos, b.Bytes(), nil
}

// Restore implements projections.Stored.
func (p *Process) Restore(ctx context.Context, store eventstore.Store, pos int64, data []byte) error {
	var s Stored
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&s); err != nil {
		return fmt.Errorf("settlement: decoding its stored form: %w", err)
	}
	if p.ownEcon != (s.Economy != nil) {
		return fmt.Errorf("settlement: the snapshot's process has an economy of its own: %t, this one: %t", s.Economy != nil, p.ownEcon)
	}
	if p.ownEcon {
		if err := p.econ.Restore(ctx, store, s.EconomyAt, s.Economy); err != nil {
			return err
		}
	}
	holds := make(map[string]openHold, len(s.Holds))
	for _, h := range s.Holds {
		oh := openHold{player: h.Player, hold: wallet.Hold{ID: h.ID, Match: h.Match, Amount: h.Amount}, at: h.At}
		if h.HasSeat {
			oh.hold.Seat = &h.Seat
		}
		holds[h.ID] = oh
	}
	matches := make(map[string]*funded, len(s.Matches))
	for _, m := range s.Matches {
		f := &funded{seats: m.Seats, holds: m.Holds, ended: m.Ended, reason: m.Reason}
		if f.seats == nil {
			f.seats = map[int]string{}
		}
		if f.holds == nil {
			f.holds = map[string]bool{}
		}
		matches[m.ID] = f
	}
	r := newRulings()
	for _, ruled := range s.Rulings {
		r.pending[ruled.Dispute] = ruled
	}
	for _, k := range s.Corrected {
		r.corrected[k] = true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.holds, p.matches, p.rulings, p.pos = holds, matches, r, pos
	p.wake()
	return nil
}
