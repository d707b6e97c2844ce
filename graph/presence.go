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
// last one closes, the match records SeatLeft; when one opens while the match has the
// player away (it left, or another node saw its last connection there close), it records
// SeatReturned. A server that stops closes every connection: that is nobody leaving.
type Presence struct {
	server context.Context // done once this server stops
	log    *slog.Logger

	mu   sync.Mutex
	open map[[2]string]int // (match, player) -> subscriptions open on this node
}

// NewPresence tracks presence for a server that runs until server is done.
func NewPresence(server context.Context, log *slog.Logger) *Presence {
	if log == nil {
		log = slog.Default()
	}
	return &Presence{server: server, log: log, open: map[[2]string]int{}}
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
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		p.open[key]--
		last := p.open[key] == 0
		if last {
			delete(p.open, key)
		}
		p.mu.Unlock()
		if last && p.server.Err() == nil {
			p.tell(e, matchID, match.Leave{PlayerID: playerID})
		}
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
