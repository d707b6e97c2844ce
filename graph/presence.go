package graph

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/domain/game"
	"github.com/arbiter-games/arbiter/domain/match"
	"github.com/arbiter-games/arbiter/engine"
)

// Presence tells the engine when a seated player leaves a live match and when it comes
// back, from the subscriptions this node serves: a player is here while it holds at least
// one subscription to the match (matchEvents or matchUpdates, with its token). When the
// last one closes and none opens again within Grace (a page reload, a client that
// resubscribes), the match records SeatLeft, dated from when the last one closed: the
// claim and forfeit waits count from then, so the grace costs the opponents nothing.
// When one opens while the match has the player away (it left, or another node saw its
// last connection there close), it records SeatReturned. Each real change is recorded
// once; churn within Grace records nothing. A server that stops closes every connection:
// that is nobody leaving.
type Presence struct {
	server context.Context // done once this server stops
	log    *slog.Logger
	// Grace is how long the last subscription may be gone before the player is recorded
	// as away (DefaultGrace unless set before use).
	Grace time.Duration

	mu      sync.Mutex
	open    map[[2]string]int         // (match, player) -> subscriptions open on this node
	leaving map[[2]string]*time.Timer // (match, player) -> its SeatLeft, waiting out Grace
}

// DefaultGrace is the wait before a player whose last subscription closed is away.
const DefaultGrace = 5 * time.Second

// NewPresence tracks presence for a server that runs until server is done.
func NewPresence(server context.Context, log *slog.Logger) *Presence {
	if log == nil {
		log = slog.Default()
	}
	return &Presence{server: server, log: log, Grace: DefaultGrace, open: map[[2]string]int{}, leaving: map[[2]string]*time.Timer{}}
}

// attach counts a subscription of a player to a match and returns its detach. A nil
// Presence tracks nothing.
func (p *Presence) attach(e *engine.Engine, matchID, playerID string) func() {
	if p == nil || playerID == "" {
		return func() {}
	}
	key := [2]string{matchID, playerID}
	p.mu.Lock()
	p.open[key]++
	if t := p.leaving[key]; t != nil {
		t.Stop()
		delete(p.leaving, key) // back within the grace: nobody left
	}
	p.mu.Unlock()
	return func() {
		closed := time.Now().UTC().Truncate(time.Microsecond)
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.open[key]--; p.open[key] > 0 {
			return
		}
		delete(p.open, key)
		if p.server.Err() != nil {
			return
		}
		var t *time.Timer
		t = time.AfterFunc(p.Grace, func() {
			p.mu.Lock()
			current := p.leaving[key] == t
			if current {
				delete(p.leaving, key)
			}
			p.mu.Unlock()
			if current && p.server.Err() == nil {
				p.tell(e, matchID, match.Leave{PlayerID: playerID, Since: closed})
			}
		})
		p.leaving[key] = t
	}
}

// here makes sure a player that holds a subscription is not recorded as away.
func (p *Presence) here(e *engine.Engine, st match.State, matchID, playerID string) {
	if p == nil || playerID == "" {
		return
	}
	if _, away := st.Away(st.SeatOf(playerID)); away && st.Status == match.Live {
		p.tell(e, matchID, match.Return{PlayerID: playerID})
	}
}

// tell records a presence command. A refusal means there is nothing to record (the match
// is not live, the player has no seat, it already left or came back).
func (p *Presence) tell(e *engine.Engine, matchID string, cmd match.Command) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(p.server), 10*time.Second)
	defer cancel()
	if _, err := e.Handle(ctx, matchID, cmd, engine.Meta{Actor: "system"}); err != nil && game.CodeOf(err) == "" {
		p.log.Warn("recording presence failed", "match", matchID, "command", cmd, "err", err)
	}
}
