// Package settlement is the process that links wallets and matches: it follows the same
// feed as the read side, keeps the open holds of every wallet and the funded seats of
// every match, and acts on the difference through the engine, each step a single-stream
// append with a derived event ID (see docs/architecture.md, "escrow and settlement"):
//
//   - a hold whose match has ended: settle it as the match's own events say (what the
//     seat pays and wins: match.Settlement);
//   - a hold whose seat was vacated before the start: release it;
//   - a hold with no funded seat in its match (the engine stopped between the hold and
//     the join): submit the same join again, and release the hold if it is refused;
//   - a match that has ended: do what it is owed (projections.Economy.Pending): record
//     the draw of a Cristal légendaire of the winner of a rated Solwaris duel on its
//     player's loot stream (progress.LootDrawn), under an ID derived from the match and
//     the seat; pay each daily challenge the match completed on the player's wallet,
//     under the challenge's key (its day and ID), so that nobody has to read it first;
//   - a ruling on a disputed match that voids or changes its result: once the match's
//     holds are closed, correct each seat's wallet by what the new result pays less what
//     the old one paid, under an ID derived from the dispute (rulings.go).
//
// Every step is safe to take twice, by a restarted process or by two nodes: the wallet
// decides nothing for a hold no longer open, and the store answers a step stored before
// as a duplicate. At boot the process is rebuilt from the store with the projections and
// then acts on whatever a crash left undone.
package settlement

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/domain/wallet"
	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/eventstore"
	"github.com/arbiter-games/arbiter/projections"
)

// DefaultGrace is how long a hold waits for its join before the process takes the join
// again: far longer than a join takes, so the process does not race a live request (it
// would be harmless, the same command under the same ID, but wasted).
const DefaultGrace = 10 * time.Second

// Process is the settlement process. It is a projection (Apply, Checkpoint, Digest) fed
// in global order, and a worker (Run, Step) that acts on what it has seen.
type Process struct {
	eng   *engine.Engine
	log   *slog.Logger
	grace time.Duration
	every time.Duration
	now   func() time.Time
	kick  chan struct{}

	mu      sync.Mutex
	pos     int64
	holds   map[string]openHold // open holds by ID
	matches map[string]*funded  // matches with a funded seat, by ID
	done    map[string]string   // hold ID -> the step last taken for it, until the hold or the match moves on

	econ    *projections.Economy // what finished matches are owed: draws of loot, challenges
	ownEcon bool                 // econ is the process's own, fed by its Apply (see Shared)
	owed    map[string]bool      // what was owed and is done, until the feed brings it back

	rulings rulings // the rulings on disputed matches whose coins are to correct (rulings.go)
}

type openHold struct {
	player string
	hold   wallet.Hold
	at     time.Time
}

// funded is what the process knows of a match with funded seats.
type funded struct {
	seats  map[int]string  // seat -> the hold that funds it now
	holds  map[string]bool // every hold that funded a seat: true while it still does
	ended  bool
	reason string
}

// Option configures a Process.
type Option func(*Process)

// Grace sets how long a hold waits for its join before the process takes it again.
func Grace(d time.Duration) Option { return func(p *Process) { p.grace = d } }

// Shared makes the process read what finished matches are owed from e, the node's own
// economy model, fed by its owner before the process (projections.Rebuild and the feed
// apply them in that order), instead of folding a model of its own: one fold of the
// economy, and of its ratings, on the node.
func Shared(e *projections.Economy) Option {
	return func(p *Process) { p.econ, p.ownEcon = e, false }
}

// Clock sets the process's clock (time.Now by default).
func Clock(now func() time.Time) Option { return func(p *Process) { p.now = now } }

// New returns a process that acts through eng.
func New(eng *engine.Engine, log *slog.Logger, opts ...Option) *Process {
	p := &Process{
		eng: eng, log: log, grace: DefaultGrace, every: time.Second, now: time.Now, kick: make(chan struct{}, 1),
		holds: map[string]openHold{}, matches: map[string]*funded{}, done: map[string]string{},
		econ: projections.NewEconomy(eng.Games()), ownEcon: true, owed: map[string]bool{}, rulings: newRulings(),
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Name implements projections.Projection.
func (p *Process) Name() string { return "settlement" }

// Checkpoint implements projections.Projection.
func (p *Process) Checkpoint() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.pos
}

// Digest implements projections.Projection: the open holds and where their matches stand.
func (p *Process) Digest() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var b strings.Builder
	for _, id := range slices.Sorted(maps.Keys(p.holds)) {
		h := p.holds[id]
		m := p.matches[h.hold.Match]
		fmt.Fprintf(&b, "%s %s %s %d funded=%v ended=%v\n", id, h.player, h.hold.Match, h.hold.Amount, m != nil && m.holds[id], m != nil && m.ended)
	}
	for _, d := range p.econ.Pending() {
		fmt.Fprintf(&b, "owed %s %s\n", d.ID, d.Player)
	}
	for _, id := range slices.Sorted(maps.Keys(p.rulings.pending)) {
		fmt.Fprintf(&b, "ruling %s %s\n", id, p.rulings.pending[id].Match)
	}
	return b.String()
}

// Apply implements projections.Projection: it folds the events that open and close holds
// and fund, vacate and end matches, and wakes the worker when there may be a step to take.
func (p *Process) Apply(ev eventstore.Event) error {
	if p.ownEcon {
		if err := p.econ.Apply(ev); err != nil {
			return err
		}
	}
	if ev.Type == (match.SeedRevealed{}).EventType() {
		p.wake() // a match is read once over: a draw or a challenge may be due
	}
	player, isWallet := strings.CutPrefix(ev.Stream, "wallet-")
	matchID, isMatch := strings.CutPrefix(ev.Stream, "match-")
	if strings.HasPrefix(ev.Stream, "dispute-") {
		p.mu.Lock()
		defer p.mu.Unlock()
		if ev.Position <= p.pos {
			return nil
		}
		p.pos = ev.Position
		p.wake()
		return p.applyRuling(ev)
	}
	if isMatch && ev.Type != "SeatFunded" && ev.Type != "SeatVacated" && ev.Type != "MatchEnded" || !isMatch && !isWallet {
		p.advance(ev)
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if ev.Position <= p.pos {
		return nil
	}
	p.pos = ev.Position
	if isWallet {
		d, err := wallet.Events.Decode(ev.Type, ev.SchemaVersion, ev.Payload)
		if err != nil {
			return fmt.Errorf("settlement: %s version %d: %w", ev.Stream, ev.Version, err)
		}
		switch e := d.(type) {
		case wallet.CoinsHeld:
			p.holds[e.Hold] = openHold{player: player, hold: wallet.Hold{ID: e.Hold, Match: e.Match, Amount: e.Amount, Seat: e.Seat}, at: ev.Time}
		case wallet.HoldReleased:
			p.closed(e.Hold, e.Match)
		case wallet.HoldSettled:
			p.closed(e.Hold, e.Match)
		case wallet.RulingCorrected:
			p.rulings.corrected[e.Dispute+"\x00"+player] = true
		}
		p.wake()
		return nil
	}
	d, err := match.Decode(nil, ev.Type, ev.SchemaVersion, ev.Payload)
	if err != nil {
		return fmt.Errorf("settlement: %s version %d: %w", ev.Stream, ev.Version, err)
	}
	m := p.matches[matchID]
	switch e := d.(type) {
	case match.SeatFunded:
		if m == nil {
			m = &funded{seats: map[int]string{}, holds: map[string]bool{}}
			p.matches[matchID] = m
		}
		m.seats[e.Seat], m.holds[e.Hold] = e.Hold, true
		delete(p.done, e.Hold)
	case match.SeatVacated:
		if m != nil {
			if h, ok := m.seats[e.Seat]; ok {
				m.holds[h] = false
				delete(m.seats, e.Seat)
			}
		}
	case match.MatchEnded:
		if m != nil {
			m.ended, m.reason = true, e.Reason
		}
	}
	p.wake()
	return nil
}

// advance moves the checkpoint past an event of no interest.
func (p *Process) advance(ev eventstore.Event) {
	p.mu.Lock()
	p.pos = max(p.pos, ev.Position)
	p.mu.Unlock()
}

// closed forgets a hold that is settled or released, and its match once it holds no
// open hold and is over.
func (p *Process) closed(hold, matchID string) {
	delete(p.holds, hold)
	delete(p.done, hold)
	m := p.matches[matchID]
	if m == nil {
		return
	}
	for _, h := range p.holds {
		if h.hold.Match == matchID {
			return
		}
	}
	if m.ended {
		delete(p.matches, matchID)
	}
}

func (p *Process) wake() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// step is one thing to do for one open hold.
type step struct {
	kind string // "settle", "release", "join"
	hold openHold
}

// pending lists the steps that the holds and matches call for, in a stable order.
func (p *Process) pending() []step {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	var out []step
	for id, h := range p.holds {
		m := p.matches[h.hold.Match]
		var kind string
		switch {
		case m != nil && m.holds[id] && m.ended:
			kind = "settle"
		case m != nil && m.holds[id]:
			continue // funds a seat of a match still going
		case m != nil && !m.holds[id] && hasKey(m.holds, id):
			kind = "release" // its seat was vacated
		case now.Sub(h.at) >= p.grace:
			kind = "join"
		default:
			continue
		}
		if p.done[id] == kind {
			continue
		}
		out = append(out, step{kind: kind, hold: h})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].hold.hold.ID < out[j].hold.hold.ID })
	return out
}

func hasKey(m map[string]bool, k string) bool {
	_, ok := m[k]
	return ok
}

// Step takes every step pending now and returns how many it took; a step that fails is
// logged and taken again at the next Step.
func (p *Process) Step(ctx context.Context) int {
	n := 0
	for _, s := range p.pending() {
		if err := p.take(ctx, s); err != nil {
			p.log.Warn("settlement: a step failed; it is taken again later", "step", s.kind, "hold", s.hold.hold.ID, "match", s.hold.hold.Match, "player", s.hold.player, "err", err)
			continue
		}
		p.mu.Lock()
		if _, open := p.holds[s.hold.hold.ID]; open {
			p.done[s.hold.hold.ID] = s.kind
		}
		p.mu.Unlock()
		n++
	}
	return n + p.payOwed(ctx) + p.correctRulings(ctx)
}

// payOwed does what finished matches are owed now (a draw to record, a challenge to pay);
// one that fails is logged and done at the next Step. Each is stored under an ID derived
// from what it is, so one done twice (a restart before the feed brought it back, two
// nodes) is stored once.
func (p *Process) payOwed(ctx context.Context) int {
	n := 0
	pending := p.econ.Pending()
	key := func(d projections.Due) string { return d.Player + "\x00" + d.ID }
	p.mu.Lock()
	still := make(map[string]bool, len(pending))
	for _, d := range pending {
		still[key(d)] = true
	}
	maps.DeleteFunc(p.owed, func(k string, _ bool) bool { return !still[k] }) // back through the feed
	p.mu.Unlock()
	for _, d := range pending {
		p.mu.Lock()
		taken := p.owed[key(d)]
		p.mu.Unlock()
		if taken {
			continue
		}
		var err error
		switch {
		case d.Loot != nil:
			err = p.eng.RecordLoot(ctx, d.Player, d.ID, *d.Loot)
		case d.Challenge != nil:
			err = p.eng.PayChallenge(ctx, d.Player, d.Day, *d.Challenge)
		}
		if err != nil {
			p.log.Warn("settlement: what a match is owed was not done; it is done later", "owed", d.ID, "player", d.Player, "err", err)
			continue
		}
		p.mu.Lock()
		p.owed[key(d)] = true
		p.mu.Unlock()
		n++
	}
	return n
}

// take takes one step. The settlement is computed from the match's stream alone, so that
// the same step taken anywhere appends the same event.
func (p *Process) take(ctx context.Context, s step) error {
	h := s.hold
	switch s.kind {
	case "release":
		return p.eng.ReleaseHold(ctx, h.player, h.hold.ID, "seat vacated")
	case "join":
		pl, err := p.eng.Player(ctx, h.player)
		if err != nil {
			return err
		}
		_, err = p.eng.FinishJoin(ctx, h.player, pl.Name, h.hold)
		var busy *eventstore.VersionConflict
		if game.CodeOf(err) != "" && !errors.As(err, &busy) {
			return nil // refused, and FinishJoin released the hold: the step is done
		}
		return err
	}
	snap, err := p.eng.Match(ctx, h.hold.Match)
	if err != nil {
		return err
	}
	if snap.State.Status != match.Finished {
		return fmt.Errorf("match %s is %s, not finished", h.hold.Match, snap.State.Status)
	}
	for _, seat := range match.Settlement(snap.Rules, snap.State) {
		if seat.Hold == h.hold.ID {
			return p.eng.SettleHold(ctx, h.player, h.hold.ID, seat.Charged, seat.Won)
		}
	}
	return p.eng.ReleaseHold(ctx, h.player, h.hold.ID, "seat vacated")
}

// Run takes the pending steps whenever an event may have made one due, and every second
// or so (a hold waiting out its grace, a step that failed), until ctx ends.
func (p *Process) Run(ctx context.Context) error {
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		p.Step(ctx)
		select {
		case <-ctx.Done():
			return nil
		case <-p.kick:
		case <-t.C:
		}
	}
}
