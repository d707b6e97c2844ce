package bot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Runner plays the bot's turns, as the engine's timers play timeouts: the read side
// tells it of each match it applies an event of (Track), and whenever the bot is to act
// in one, the runner reads the match from the engine, asks the policy, and submits its
// choice through engine.Handle as the bot. The command ID names the match's version, so
// the runners of several nodes deciding the same turn play it once, and a retried
// decision is the same one.
type Runner struct {
	e    *engine.Engine
	log  *slog.Logger
	wake chan struct{}

	mu      sync.Mutex
	pending map[string]bool // the matches to look at
}

// maxTries bounds how many of the policy's choices are tried on one version of a match
// whose rules refuse them while it stays as it was (a race is not tried again: the event
// that won wakes the runner).
const maxTries = 4

// retryAfter is how long a decision that the store failed waits to be tried again.
const retryAfter = time.Second

// NewRunner returns the bot's runner on e.
func NewRunner(e *engine.Engine, log *slog.Logger) *Runner {
	return &Runner{e: e, log: log.With("component", "bot"), wake: make(chan struct{}, 1), pending: map[string]bool{}}
}

// Track is told of a match, after the read side applied one of its events (and at boot,
// of every live match): when the bot is to act there, the runner decides. It costs next
// to nothing for a match the bot does not sit in.
func (r *Runner) Track(matchID string, rules game.Rules, st match.State) {
	if _, ok := toAct(rules, st); ok {
		r.enqueue(matchID)
	}
}

// toAct is a seat of the bot's that may act now in a live match (the bot may sit at
// several), and whether there is one.
func toAct(rules game.Rules, st match.State) (int, bool) {
	if st.SeatOf(ID) < 0 || st.Status != match.Live || rules == nil {
		return -1, false
	}
	for _, seat := range st.GameStatus(rules).ToAct {
		if seat >= 0 && seat < len(st.Seats) && st.Seats[seat].PlayerID == ID {
			return seat, true
		}
	}
	return -1, false
}

func (r *Runner) enqueue(matchID string) {
	r.mu.Lock()
	r.pending[matchID] = true
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

// take empties the queue.
func (r *Runner) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	ids := make([]string, 0, len(r.pending))
	for id := range r.pending {
		ids = append(ids, id)
	}
	clear(r.pending)
	slices.Sort(ids)
	return ids
}

// Run plays the bot's turns until ctx ends.
func (r *Runner) Run(ctx context.Context) error {
	for {
		for _, id := range r.take() {
			if ctx.Err() != nil {
				return nil
			}
			r.play(ctx, id)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-r.wake:
		}
	}
}

// play decides the bot's turn in a match, if it is to act, and submits the decision.
func (r *Runner) play(ctx context.Context, matchID string) {
	snap, err := r.e.Match(ctx, matchID)
	if err != nil {
		r.failed(ctx, matchID, err)
		return
	}
	seat, ok := toAct(snap.Rules, snap.State)
	if !ok {
		return // the match moved on since it was tracked
	}
	meta := engine.Meta{CommandID: commandID(snap), Actor: "player:" + ID}
	choices := Decide(ViewOf(snap, seat))
	if len(choices) == 0 {
		r.log.Warn("the bot is to act and finds nothing to do", "match", matchID, "version", snap.Version)
		return
	}
	for _, do := range choices[:min(len(choices), maxTries)] {
		ack, err := r.e.Handle(ctx, matchID, match.Act{PlayerID: ID, Seat: &seat, Do: do}, meta)
		if err == nil {
			r.log.Debug("the bot played", "match", matchID, "version", snap.Version, "action", describe(do), "duplicate", ack.Duplicate)
			return
		}
		if game.CodeOf(err) == "" {
			r.failed(ctx, matchID, err)
			return
		}
		now, err := r.e.Match(ctx, matchID)
		if err != nil {
			r.failed(ctx, matchID, err)
			return
		}
		if now.Version != snap.Version {
			r.log.Debug("the match moved on before the bot's action", "match", matchID, "version", snap.Version, "action", describe(do))
			return
		}
		r.log.Warn("the rules refused the bot's action; trying its next choice", "match", matchID, "version", snap.Version, "action", describe(do), "err", err)
	}
	r.log.Error("the rules refused every choice the bot tried; it waits for the match to change", "match", matchID, "version", snap.Version)
}

// failed logs an error of the engine or the store; a failure of the store is tried
// again after retryAfter, so that an outage costs the bot a turn's delay, never its turn.
func (r *Runner) failed(ctx context.Context, matchID string, err error) {
	if ctx.Err() != nil {
		return
	}
	if game.CodeOf(err) != "" {
		r.log.Warn("the bot cannot play in this match", "match", matchID, "err", err)
		return
	}
	r.log.Warn("the bot's turn failed; trying again", "match", matchID, "in", retryAfter, "err", err)
	time.AfterFunc(retryAfter, func() {
		if ctx.Err() == nil {
			r.enqueue(matchID)
		}
	})
}

// commandID names the bot's action in a match at a version: every node deciding it sends
// the same ID, so the engine records one action and answers the others with its outcome.
// It is keyed with the match's secret seed (revealed only once the match is over), so no
// player can send a command of their own under it first and so hold up the bot.
func commandID(snap engine.Snapshot) string {
	mac := hmac.New(sha256.New, snap.State.Seed)
	fmt.Fprintf(mac, "arbiter/bot\x00%s\x00%d", snap.ID, snap.Version)
	return fmt.Sprintf("bot-%s-%d-%x", snap.ID, snap.Version, mac.Sum(nil)[:8])
}

// describe writes an action for the logs: its type and fields, whichever game owns it.
func describe(do any) string { return fmt.Sprintf("%T%+v", do, do) }
