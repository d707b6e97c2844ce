// Package graph is Arbiter's GraphQL API: the schema under schema/ is the contract,
// gqlgen generates the plumbing (never edited by hand), and the resolvers stay thin: they
// authenticate the caller, turn a request into an engine command, and read the views that
// projections keep, redacted for the caller by projections' Viewer.
package graph

import (
	"context"

	"github.com/arbiter-games/arbiter/engine"
	"github.com/arbiter-games/arbiter/projections"
	"github.com/arbiter-games/arbiter/serverkey"
)

// Positions is the read side's progress: a mutation waits until its events are applied
// before it answers, so its caller reads its own writes.
type Positions interface {
	WaitFor(ctx context.Context, position int64) error
}

// Resolver holds what the resolvers call.
type Resolver struct {
	Engine *engine.Engine
	Lobby  *projections.Matches // every match's live state: boards, seats, the lobby
	Elo    *projections.Ratings
	Cards  *projections.CardsPlayed // the cards each player has played
	// Economy is what the economy reads from finished matches (experience, the day's
	// matches for the challenges, abandonments, loot); nil serves none.
	Economy *projections.Economy
	// Choices is each player's last choice per game and key (a Solwaris grimoire per
	// class); nil remembers nothing.
	Choices *projections.Choices
	// DisputeBook is every match's disputes and rulings; nil serves none.
	DisputeBook *projections.Disputes
	ReadPos     Positions
	Hub         *Hub
	// Presence records players leaving and coming back from their subscriptions; nil
	// tracks nothing.
	Presence *Presence
	// Key is the server's signing key, which signs the receipts of matches; nil signs none.
	Key *serverkey.Key

	limits  Limits      // set by Handler: the caps of subscriptions
	signups *signups    // the bound on registrations per address, set by Handler
	live    *liveGroups // set by Handler: the live subscriptions served once per group (live.go)
	// Set by Handler: the spectators' views of delayed matches, folded once (delay.go), and
	// the trees of the receipts, built once per stream and size (receipts.go).
	delayed *buildCache[string, delayedEntry]
	logs    *buildCache[logKey, *matchLog]
	// sockets counts the websockets open, for their caps (wscap.go): the node's, whatever
	// handlers serve it.
	sockets wsCounts
}

// Close stops what Handler started to run beside the requests, the writers of the live
// subscriptions (liveWriters), and returns once they have returned: without it, each
// server built left its goroutines waiting for good. Call it once the server has shut
// down (which closes its websockets); a write under way is cut, and a subscription still
// served after it is written to by writers that return as soon as nothing is queued.
func (r *Resolver) Close() {
	if r.live != nil {
		r.live.writers.stop()
	}
}
